// Globular Cluster's turn builder, on the acting seat's phone and on the table screen.
//
// The draft is a list of lines of the notation (G8.2) kept in this browser (sessionStorage,
// so a live update or a reload keeps it). After every change the server previews the whole
// draft (/seat/preview, or /t/<id>/turn/preview on the table screen): each line's cost and
// the AP left, or the reason a line cannot be played; the map then shows the position after
// the draft, with the drawn tile's legal places to tap. "End turn" plays the draft and `end`.
// When the companion rolls, a mine is played at once with the lines before it (its roll is
// then known and stands: G8.7). Undo takes back the draft's last line.
"use strict";
(function () {
  const G = window.globular;
  let S = null;  // the builder in use: { root, board, key, draft, result, tool, pick }

  function storeKey(key) { return "gc-draft-" + key; }
  function load(key) {
    try { return JSON.parse(sessionStorage.getItem(storeKey(key))) || []; } catch (err) { return []; }
  }
  function save() { if (S) sessionStorage.setItem(storeKey(S.key), JSON.stringify(S.draft)); }

  function body(text) {
    const out = { text: text };
    if (S.root.dataset.mode === "table") { out.seat = S.root.dataset.seat; out.turn = S.root.dataset.turn; }
    return out;
  }
  function q(sel) { return S.root.querySelector(sel); }
  function status(text, bad) {
    const p = q(".gc-status");
    p.textContent = text;
    p.classList.toggle("bad", !!bad);
  }
  function errors(data) { window.companion.showErrors(q(".errors"), data); }
  function clearErrors() { const box = q(".errors"); box.replaceChildren(); box.classList.remove("ok"); }

  function setup() {
    const root = document.querySelector(".gc-builder");
    const board = document.querySelector(".gc-board");
    if (!root || !board) { S = null; return; }
    if (root.closest("details") && !root.closest("details").open) {
      root.closest("details").addEventListener("toggle", function () { setup(); }, { once: true });
      S = null;
      return;
    }
    const key = root.dataset.key;
    S = { root: root, board: board, key: key, draft: load(key), result: null, tool: null, pick: {} };
    refresh();
  }

  async function refresh(added) {
    const here = S;
    const result = await window.companion.send(S.root.dataset.previewUrl, body(S.draft.join("\n")), true);
    if (S !== here) return;  // the panel was replaced meanwhile
    if (!result.ok) {
      if (added !== undefined) { S.draft.pop(); save(); status("Not added: " + (result.reasons || [result.error]).join("; "), true); return refresh(); }
      errors(result);
      return;
    }
    if (added !== undefined && result.refused && result.refused.number === S.draft.length) {
      S.draft.pop(); save();
      S.result = null;
      const reason = result.refused.message;
      await refresh();
      status(added + " cannot be played: " + reason, true);
      return;
    }
    S.result = result;
    render();
  }

  function mine() { return S.root.dataset.colour; }

  function piecesAt(pos) {
    const cell = (S.result.board || []).find(function (c) { return c.position === pos; });
    const p = cell && (cell.pieces || []).find(function (x) { return x.colour === mine(); });
    return p || { coins: 0, leader: false };
  }
  function crossingsFrom(pos) {
    const out = {};
    (S.result.crossings || []).forEach(function (k) {
      if (k.cost === null) return;
      if (k.a === pos) out[k.b] = k.cost;
      if (k.b === pos) out[k.a] = k.cost;
    });
    return out;
  }

  function renderDraft() {
    const list = q(".gc-draft");
    list.replaceChildren();
    const r = S.result;
    S.draft.forEach(function (line, i) {
      const li = document.createElement("li");
      const done = r.lines[i];
      li.dataset.line = line;
      if (done) {
        li.className = "ok";
        li.innerHTML = "";
        const t = document.createElement("code"); t.textContent = line; li.appendChild(t);
        const c = document.createElement("span"); c.className = "cost";
        c.textContent = done.cost + " AP · " + done.ap_left + " left"; li.appendChild(c);
        const s = document.createElement("small"); s.textContent = done.said.join("; "); li.appendChild(s);
      } else if (r.refused && r.refused.number === i + 1) {
        li.className = "refused";
        li.textContent = line + ": " + r.refused.message;
      } else {
        li.className = "unchecked";
        li.textContent = line + " (waits for the line before)";
      }
      list.appendChild(li);
    });
    q(".gc-ap b").textContent = String(r.ap_left);
    q(".gc-undo").disabled = S.draft.length === 0;
  }

  function toolsEnabled() {
    const r = S.result;
    const busy = !!r.to_place || r.awaiting_draw || !!r.refused;
    S.root.querySelectorAll(".gc-tools button").forEach(function (b) { b.disabled = busy; b.classList.toggle("active", b.dataset.tool === S.tool); });
    q(".gc-end").disabled = !!r.to_place || r.awaiting_draw || !!r.refused;
    const rolls = S.root.dataset.dice === "companion" && S.draft.length && /^mine /.test(S.draft[S.draft.length - 1]);
    q(".gc-roll").hidden = !rolls || !!r.refused;
  }

  function render() {
    clearErrors();
    renderDraft();
    toolsEnabled();
    const r = S.result;
    const highlight = {};
    let onTile = null, onSpot = null;
    if (r.awaiting_draw) {
      status("Draw the top tile of the stack and enter it below (draw <tile>, e.g. draw bk4).");
    } else if (r.to_place) {
      status("Place the " + (r.to_place_words || r.to_place) + ": tap one of the dashed places on the map, then choose its tick corner.");
      onSpot = pickPlace;
      if (S.pick.place) highlight[S.pick.place] = "picked";
    } else if (S.tool) {
      onTile = tapTile;
      instruct(highlight);
    } else if (r.refused) {
      status("Line " + r.refused.number + " cannot be played: " + r.refused.message, true);
    } else {
      status(r.says + ". Choose an action, or end the turn.");
    }
    const costsFrom = S.tool === "move" && S.pick.from ? S.pick.from : null;
    G.draw(S.board, { board: r.board, crossings: r.crossings, placements: r.placements, colours: G.dataOf(S.board).colours }, { spots: !!r.to_place, onSpot: onSpot, onTile: onTile, highlight: highlight, costsFrom: costsFrom });
  }

  // Tools ---------------------------------------------------------------------------------------

  const HINTS = {
    move: ["Tap a tile with your pieces to move from.", "Tap a neighbour to move to (numbers: AP to cross)."],
    warp: ["Tap the MITS or one of your stations to warp from.", "Tap one of your stations to warp to."],
    mine: ["Tap a resource tile (black) holding a cache."],
    improve: ["Tap a habitable tile (blue or green) to improve."],
    colonize: ["Tap an improved habitable tile where you hold the majority."],
    station: ["Tap a null tile or a mined-out black tile for your station."],
  };

  function instruct(highlight) {
    const hints = HINTS[S.tool] || [""];
    if (S.pick.from) {
      highlight[S.pick.from] = "picked";
      if (S.tool === "move") {
        const costs = crossingsFrom(S.pick.from);
        Object.keys(costs).forEach(function (p) { highlight[p] = "target"; });
      }
      status(hints[1] || hints[0]);
    } else {
      status(hints[0]);
    }
  }

  function options(nodes) {
    const box = q(".gc-options");
    box.replaceChildren.apply(box, nodes);
  }
  function button(text, onclick, cls) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = text; if (cls) b.className = cls;
    b.addEventListener("click", onclick);
    return b;
  }
  function label(text) { const p = document.createElement("p"); p.className = "hint"; p.textContent = text; return p; }

  function pickPlace(pos) {
    S.pick.place = pos;
    const corners = (S.result.placements || {})[pos] || [];
    const words = { tl: "top-left", tr: "top-right", bl: "bottom-left", br: "bottom-right" };
    options([label("Tick corner for " + pos + ":")].concat(["tl", "tr", "bl", "br"].map(function (c) {
      const b = button(words[c] + " (" + c + ")", function () { S.pick = {}; options([]); add("place " + pos + " " + c); }, "gc-corner");
      b.dataset.corner = c;
      b.disabled = corners.indexOf(c) < 0;
      return b;
    })));
    render();
  }

  function counts(from, verbWord, make) {
    const here = piecesAt(from);
    const nodes = [];
    if (here.coins) {
      const n = document.createElement("input");
      n.type = "number"; n.min = "1"; n.max = String(here.coins); n.value = "1";
      n.className = "gc-how-many"; n.setAttribute("aria-label", "How many coins");
      nodes.push(n);
      nodes.push(button(verbWord + " coins (of " + here.coins + ")", function () {
        const k = Math.max(1, Math.min(here.coins, parseInt(n.value, 10) || 1));
        make(k === 1 ? "" : " x" + k);
      }, "gc-count primary"));
    }
    if (here.leader) nodes.push(button(verbWord + " the leader", function () { make(" leader"); }, "gc-count gc-leader"));
    return nodes;
  }

  function tapTile(pos) {
    const tool = S.tool;
    if (tool === "move" || tool === "warp") {
      if (!S.pick.from) {
        const here = piecesAt(pos);
        if (!here.coins && !here.leader) { status("You have no pieces at " + pos + ".", true); return; }
        S.pick.from = pos; options([]); render(); return;
      }
      const from = S.pick.from;
      if (pos === from) { S.pick = {}; options([]); render(); return; }
      const verb = tool;
      const word = verb === "move" ? "Move" : "Warp";
      const nodes = [label(verb + " " + from + ">" + pos + ": how many?")].concat(counts(from, word, function (suffix) {
        S.pick = {}; options([]); add(verb + " " + from + ">" + pos + suffix);
      }));
      options(nodes);
      return;
    }
    if (tool === "mine") {
      const physical = S.root.dataset.dice === "physical";
      const make = function (n) {
        if (!physical) { S.tool = null; options([]); add("mine " + pos + (n === 2 ? " x2" : "")); return; }
          const row = [label("Die face" + (n === 2 ? "s" : "") + " rolled:")];
        const sel = [];
        for (let i = 0; i < n; i++) {
          const s = document.createElement("select");
          ["n", "a", "2", "3", "4", "5"].forEach(function (f) { const o = document.createElement("option"); o.value = f; o.textContent = f; s.appendChild(o); });
          sel.push(s); row.push(s);
        }
        row.push(button("Add", function () { S.tool = null; options([]); add("mine " + pos + (n === 2 ? " x2" : "") + " roll " + sel.map(function (s) { return s.value; }).join(" ")); }, "primary"));
        options(row);
      };
      options([label("Mine at " + pos + ":"), button("1 cache (3 AP)", function () { make(1); }), button("2 caches (6 AP)", function () { make(2); })]);
      return;
    }
    if (tool === "improve") {
      options([label("Improve " + pos + ":"), button("once (2 AP)", function () { S.tool = null; options([]); add("improve " + pos); }), button("twice (4 AP)", function () { S.tool = null; options([]); add("improve " + pos + " x2"); })]);
      return;
    }
    if (tool === "colonize") {
      const here = piecesAt(pos);
      const nodes = [label("Colonize " + pos + " (5 AP) with:")];
      if (here.coins) nodes.push(button("a coin", function () { S.tool = null; options([]); add("colonize " + pos); }));
      if (here.leader) nodes.push(button("the leader", function () { S.tool = null; options([]); add("colonize " + pos + " leader"); }));
      if (!here.coins && !here.leader) nodes.push(label("You have no pieces there."));
      options(nodes);
      return;
    }
    if (tool === "station") { S.tool = null; add("station " + pos); }
  }

  function tradeForm() {
    const others = (S.root.dataset.others || "").split(",").filter(Boolean);
    const types = [["n1", "N/1"], ["23", "2/3"], ["4", "4"], ["5", "5"]];
    const select = function (items, name) {
      const s = document.createElement("select"); s.name = name;
      items.forEach(function (it) { const o = document.createElement("option"); o.value = it[0]; o.textContent = it[1]; s.appendChild(o); });
      return s;
    };
    const whom = select(others.map(function (c) { return [c, c]; }), "whom");
    const give = select(types, "give"), take = select(types, "take");
    take.value = "23";
    options([label("Trade (3 AP) with"), whom, label("give"), give, label("take"), take,
      button("Add trade", function () { S.tool = null; options([]); add("trade " + whom.value + " give " + give.value + " take " + take.value); }, "primary")]);
  }

  function add(line) {
    S.draft.push(line);
    save();
    status("Checking " + line + "…");
    refresh(line);
  }

  async function play(lines, ending) {
    const here = S;
    const text = lines.concat(ending ? ["end"] : []).join("\n");
    const result = await window.companion.send(S.root.dataset.moveUrl, body(text), true);
    if (S !== here) return;
    if (result.ok) {
      sessionStorage.removeItem(storeKey(S.key));
      S.draft = [];
      window.companion.showErrors(q(".errors"), { ok: true, message: ending ? "Turn played ✓" : "Played ✓: see the roll below" });
    } else {
      errors(result);
    }
  }

  document.addEventListener("click", function (e) {
    if (!S || !S.root.contains(e.target)) return;
    const tool = e.target.closest(".gc-tools button");
    if (tool) {
      S.pick = {};
      S.tool = S.tool === tool.dataset.tool ? null : tool.dataset.tool;
      options([]);
      if (S.tool === "trade") { tradeForm(); }
      render();
      return;
    }
    if (e.target.closest(".gc-undo")) {
      S.draft.pop(); save(); S.pick = {}; S.tool = null; options([]); refresh(); return;
    }
    if (e.target.closest(".gc-end")) { play(S.draft, true); return; }
    if (e.target.closest(".gc-roll")) { play(S.draft, false); return; }
    if (e.target.closest(".gc-cancel")) { S.pick = {}; S.tool = null; options([]); render(); }
  });
  document.addEventListener("submit", function (e) {
    if (!S || !e.target.closest(".gc-typed")) return;
    e.preventDefault();
    const input = e.target.querySelector("input");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    text.split(/[;\n]/).map(function (t) { return t.trim(); }).filter(Boolean).forEach(function (t) { S.draft.push(t); });
    save();
    refresh(text);
  });

  document.addEventListener("panel", setup);
  setup();
})();
