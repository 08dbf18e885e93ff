// The phone's order builder. Which orders each unit may take and their legal targets come
// from the server (the rules core); this only lets the player pick among them and reads the
// order back in words, then sends the whole sheet, which the server checks at once.
// A game may give an order kind its exact lines ("lines", keyed by the targets joined with a
// space), how each reads ("says"), a second pick that depends on the first ("then"), and units
// in several slots (a "slot" key; an "optional" slot is not counted as missing; one that
// "needs" another slot's order kind, {"slot", "kind"}, is sent only beside it, and says its
// "idle" or "blocked" text when empty or not possible). An order kind whose targets may repeat
// (a carrier recalling two craft from one sector) says "repeats".
"use strict";
(function () {
  const panel = window.companion.panel;
  let warnedFor = null;
  let builder = null;

  function lineOf(unit, opt, order) {
    if (opt && opt.lines) return opt.lines[order.targets.join(" ")];
    return [order.kind, unit.sector].concat(order.targets).join(" ");
  }

  function slotOf(unit) { return unit.slot || unit.sector; }

  function allowed(unit, orders) {
    const need = unit.needs;
    return !need || (!!orders[need.slot] && orders[need.slot].kind === need.kind);
  }

  function parse(lines) {
    const orders = {};
    lines.forEach(function (line) {
      const words = line.trim().split(/\s+/);
      if (words.length >= 2) orders[words[1]] = { kind: words[0], targets: words.slice(2) };
    });
    return orders;
  }

  function Builder(section) {
    const data = JSON.parse(section.querySelector(".builder-data").textContent);
    const units = {};
    const slots = {};
    data.units.forEach(function (u) { if (!units[u.sector]) units[u.sector] = u; slots[slotOf(u)] = u; });
    let orders = data.orders || parse(data.submitted);
    let current = null; // {unit, option, targets}
    const box = section.querySelector(".builder");
    const errors = section.querySelector(".errors");

    function option(unit, kind) { return unit.orders.find(function (o) { return o.kind === kind; }); }

    function words(unit, order) {
      const opt = option(unit, order.kind);
      const says = opt && opt.says && opt.says[order.targets.join(" ")];
      if (says && order.targets.length >= opt.min) return unit.label + " " + says;
      const verb = opt ? opt.verb : order.kind.toLowerCase();
      const joiner = (opt && opt.joiner) || " and ";
      return unit.label + " " + verb + (order.targets.length ? " " + order.targets.join(joiner) : "");
    }

    function renderList() {
      const list = section.querySelector(".unit-list");
      list.replaceChildren();
      const missing = [];
      data.units.forEach(function (unit) {
        const li = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        const order = orders[slotOf(unit)];
        button.className = "unit-button" + (order ? " has-order" : "") + (unit.optional ? " optional" : "");
        button.dataset.sector = unit.sector;
        button.dataset.slot = slotOf(unit);
        const open = allowed(unit, orders);
        button.disabled = !open;
        if (!open) button.textContent = unit.blocked || unit.label + ": not possible now";
        else if (order) button.textContent = words(unit, order);
        else if (unit.optional) button.textContent = unit.idle || unit.label + ": nothing more (optional)";
        else button.textContent = unit.label + ": no order yet (it holds)";
        if (!order && !unit.optional && open) missing.push(unit.label);
        button.addEventListener("click", function () { pick(unit); });
        li.appendChild(button);
        list.appendChild(li);
      });
      const note = section.querySelector(".missing");
      note.textContent = missing.length ? "Still without an order: " + missing.join(", ") + "." : "Every unit has an order.";
      section.dataset.missing = String(missing.length);
    }

    function highlight(targets) {
      panel.querySelectorAll(".board .sector").forEach(function (g) {
        g.classList.toggle("target", targets.indexOf(g.dataset.sector) >= 0);
        g.classList.toggle("chosen", !!current && current.targets.indexOf(g.dataset.sector) >= 0);
        g.classList.toggle("selected", !!current && current.unit.sector === g.dataset.sector);
      });
    }

    function renderBuilder() {
      if (!current) { box.hidden = true; highlight([]); return; }
      box.hidden = false;
      const unit = current.unit;
      const kinds = box.querySelector(".kinds");
      kinds.replaceChildren();
      unit.orders.forEach(function (opt) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "kind" + (current.option === opt ? " on" : "");
        b.textContent = opt.label;
        b.dataset.kind = opt.kind;
        b.addEventListener("click", function () { current.option = opt; current.targets = []; renderBuilder(); });
        kinds.appendChild(b);
      });
      // What each order kind does, one line each, in the rules core's words ("about").
      const about = box.querySelector(".kind-about");
      about.replaceChildren();
      unit.orders.forEach(function (opt) {
        if (!opt.about) return;
        const li = document.createElement("li");
        li.dataset.kind = opt.kind;
        li.className = current.option === opt ? "on" : "";
        const name = document.createElement("b");
        name.textContent = opt.label + ":";
        li.append(name, " " + opt.about);
        about.appendChild(li);
      });
      const opt = current.option;
      const read = box.querySelector(".readback");
      const hint = box.querySelector(".target-hint");
      const targetBox = box.querySelector(".targets");
      targetBox.replaceChildren();
      const choices = opt ? candidates(opt) : [];
      if (!opt) {
        read.textContent = unit.label + " …";
        hint.textContent = "Pick an order.";
        highlight([]);
      } else {
        read.textContent = words(unit, { kind: opt.kind, targets: current.targets }) + (current.targets.length < opt.min ? " …" : "");
        if (opt.max > 0) {
          hint.textContent = current.targets.length < opt.max ? "Tap a target on the map or below" + (opt.max > 1 ? " (up to " + opt.max + ")" : "") + "." : "";
          choices.forEach(function (t) {
            const b = document.createElement("button");
            b.type = "button";
            b.className = "target-button" + (current.targets.indexOf(t) >= 0 ? " on" : "");
            b.textContent = t;
            b.dataset.target = t;
            b.addEventListener("click", function () { toggleTarget(t); });
            targetBox.appendChild(b);
          });
          highlight(choices);
        } else { hint.textContent = ""; highlight([]); }
      }
      box.querySelector(".set-order").disabled = !opt || current.targets.length < opt.min;
    }

    function candidates(opt) {
      // A second pick that depends on the first (support a move: the unit, then where to).
      if (opt.then && Object.keys(opt.then).length && current.targets.length >= 1) return opt.then[current.targets[0]] || [];
      return opt.targets;
    }

    function toggleTarget(t) {
      const opt = current && current.option;
      if (!opt) return;
      if (opt.then && Object.keys(opt.then).length) {
        if (current.targets.length === 1 && (opt.then[current.targets[0]] || []).indexOf(t) >= 0) current.targets.push(t);
        else if (current.targets.length >= 1 && current.targets[current.targets.length - 1] === t) current.targets.pop();
        else if (opt.targets.indexOf(t) >= 0) current.targets = [t];
        renderBuilder();
        return;
      }
      if (opt.targets.indexOf(t) < 0) return;
      const at = current.targets.indexOf(t);
      if (at >= 0 && !opt.repeats) current.targets.splice(at, 1);
      else if (current.targets.length < opt.max) current.targets.push(t);
      else if (opt.max === 1) current.targets = [t];
      renderBuilder();
    }

    function pick(unit) {
      errors.replaceChildren();
      errors.classList.remove("ok");
      const order = orders[slotOf(unit)];
      current = { unit: unit, option: order ? option(unit, order.kind) || null : null, targets: order ? order.targets.slice() : [] };
      renderBuilder();
    }

    async function store(next) {
      Object.keys(next).forEach(function (s) { if (slots[s] && !allowed(slots[s], next)) delete next[s]; });
      const lines = Object.keys(next).map(function (s) {
        const unit = slots[s];
        return unit ? lineOf(unit, option(unit, next[s].kind), next[s]) : null;
      }).filter(function (line) { return line; });
      const text = lines.concat(data.extra || []).join("\n");
      const result = await window.companion.send(panel.dataset.orders, { text: text }, true);
      window.companion.showErrors(errors, result.ok ? { ok: true, message: "Orders stored ✓ (you can still change them):", said: result.said, resent: result.resent } : result);
      if (result.ok) { orders = next; current = null; renderBuilder(); renderList(); }
    }

    box.querySelector(".set-order").addEventListener("click", function () {
      if (!current || !current.option) return;
      const next = Object.assign({}, orders);
      next[slotOf(current.unit)] = { kind: current.option.kind, targets: current.targets.slice() };
      store(next);
    });
    box.querySelector(".cancel").addEventListener("click", function () { current = null; renderBuilder(); });

    this.tap = function (sector) {
      if (current && current.option && (candidates(current.option).indexOf(sector) >= 0 || current.targets.indexOf(sector) >= 0)) toggleTarget(sector);
      else if (units[sector]) pick(units[sector]);
    };
    this.section = section;
    // An update keeps this section as it is (the order being built with it) and brings a new
    // map: only the map is marked again. Drawing the builder afresh replaced the order-kind
    // buttons under a tap that was landing (its click then went nowhere).
    this.attach = function () {
      const opt = current && current.option;
      highlight(opt && opt.max > 0 ? candidates(opt) : []);
    };
    renderList();
  }

  function setup() {
    panel.querySelectorAll("form[data-max-picks]").forEach(capPicks);
    const section = panel.querySelector("section.orders");
    if (!section) { builder = null; return; }
    if (!builder || builder.section !== section) builder = new Builder(section);
    else builder.attach();
  }

  panel.addEventListener("click", function (e) {
    const g = e.target.closest(".board .sector");
    if (!g) return;
    const sector = g.dataset.sector;
    const homePick = panel.querySelector("select[data-map-pick]");
    if (homePick) {
      const optionFor = Array.from(homePick.options).find(function (o) { return o.value === sector; });
      if (optionFor) homePick.value = sector;
      return;
    }
    if (builder) builder.tap(sector);
  });

  document.addEventListener("clock", function (e) {
    const bar = panel.querySelector(".bar");
    if (!bar || (bar.dataset.kind !== "secret" && bar.dataset.kind !== "turn") || e.detail.paused) return;
    const section = panel.querySelector("section.orders");
    const missing = (section && section.dataset.missing !== "0") || bar.dataset.owing === "yes";
    const warning = document.getElementById("deadline-warning");
    const key = bar.dataset.stage + bar.dataset.turn;
    if (e.detail.remaining <= 30 && missing) {
      if (warning) warning.hidden = false;
      if (warnedFor !== key) {
        warnedFor = key;
        if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
      }
    } else if (warning) warning.hidden = true;
  });

  // A map larger than the phone (a board-wrap with data-home) opens on the player's home system and keeps
  // where the player dragged it across live updates.
  let mapScroll = null;
  function placeMap() {
    const wrap = panel.querySelector(".board-wrap[data-home]");
    if (!wrap) return;
    if (mapScroll) { wrap.scrollLeft = mapScroll[0]; wrap.scrollTop = mapScroll[1]; }
    else {
      const home = wrap.querySelector('[data-system="' + wrap.dataset.home + '"]');
      if (home) {
        const box = home.getBoundingClientRect(), outer = wrap.getBoundingClientRect();
        wrap.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
        wrap.scrollTop += box.top + box.height / 2 - (outer.top + outer.height / 2);
      }
    }
    wrap.addEventListener("scroll", function () { mapScroll = [wrap.scrollLeft, wrap.scrollTop]; });
  }

  // A form with data-max-picks="N" (builds limited to what is due) takes at most N choices:
  // once N selects or boxes are picked, the others wait until one is cleared. A choice with
  // data-weight="2" (a fleet taking its own army along) counts twice.
  function capPicks(form) {
    const most = Number(form.dataset.maxPicks);
    const fields = Array.from(form.querySelectorAll("select, input[type=checkbox]"));
    const picked = function (f) { return f.type === "checkbox" ? f.checked : f.value !== ""; };
    const weight = function (f) { return Number(f.dataset.weight || 1); };
    const count = fields.filter(picked).reduce(function (n, f) { return n + weight(f); }, 0);
    fields.forEach(function (f) { f.disabled = !picked(f) && count + weight(f) > most; });
  }
  panel.addEventListener("change", function (e) {
    const form = e.target.closest("form[data-max-picks]");
    if (form) capPicks(form);
  });

  // A turn-taking game's move box (web/templates/_turn_seat.html): a draft is tried on the
  // server as it is typed (/seat/preview: what it would do, or why it cannot be played);
  // "Play" sends it (/seat/move) and the game plays it at once or says why not. A board
  // element with data-move="TEXT" (a cell to tap) fills the box.
  let previewTimer = null;
  function moveBox() { return panel.querySelector("form.move-form"); }

  async function tryMove(form) {
    const input = form.querySelector(".move-text");
    const text = input.value.trim();
    const said = form.querySelector(".move-preview");
    const errors = form.querySelector(".errors");
    errors.replaceChildren();
    errors.classList.remove("ok");
    if (!text) { said.textContent = ""; return; }
    const result = await window.companion.send(panel.dataset.previewUrl, { text: text }, true, { retry: false });
    if (input.value.trim() !== text) return;  // the player typed on meanwhile
    if (result.ok) said.textContent = result.says || (result.text + ": a legal move. Tap Play to play it.");
    else { said.textContent = ""; window.companion.showErrors(errors, result); }
  }

  async function playMove(text, box) {
    const result = await window.companion.send(panel.dataset.moveUrl, { text: text }, true, { retry: true });
    if (box) window.companion.showErrors(box, result.ok ? { ok: true, message: "Played " + result.text + " ✓" } : result);
  }

  panel.addEventListener("input", function (e) {
    const form = e.target.closest("form.move-form");
    if (!form) return;
    clearTimeout(previewTimer);
    previewTimer = setTimeout(function () { tryMove(form); }, 350);
  });
  panel.addEventListener("submit", function (e) {
    const form = e.target.closest("form.move-form");
    if (!form) return;
    e.preventDefault();
    const text = form.querySelector(".move-text").value.trim();
    if (text) playMove(text, form.querySelector(".errors"));
  });
  panel.addEventListener("click", function (e) {
    if (e.target.closest("button.try-move")) { tryMove(e.target.closest("form")); return; }
    const pending = e.target.closest("button.play-pending");
    if (pending) { playMove(pending.dataset.text, panel.querySelector(".turn-box .errors") || null); return; }
    const offered = e.target.closest("[data-move]");
    const form = moveBox();
    if (offered && form) {
      form.querySelector(".move-text").value = offered.dataset.move;
      panel.querySelectorAll("[data-move].drafted").forEach(function (n) { n.classList.remove("drafted"); });
      offered.classList.add("drafted");
      tryMove(form);
    }
  });

  document.addEventListener("panel", function () { setup(); placeMap(); });
  setup();
  placeMap();
})();
