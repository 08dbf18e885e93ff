// Globular Cluster: draws the cluster as SVG from the position's data (the panel's JSON, or a
// draft's preview). Every tile with its colour, rank and tick corner, pennies (caches or
// improvements), its value and holder, stations, colonists, and each player's coins and
// leader; the crossing costs on demand; the legal places of the tile in hand. No rule is
// decided here: everything drawn comes from the server.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const HALF = 46;   // a half tile, in SVG units: a tile is 92 wide...
  const ROW = 92;    // ...and 92 high
  const PAD = 16;
  const DIRS = [[-2, 0], [2, 0], [-1, -1], [1, -1], [-1, 1], [1, 1]];
  const RANKS = { "null": "–", "ace": "A" };

  function parsePos(name) {
    const m = /^([a-z])([0-9]{1,2})$/.exec(name);
    if (!m) return null;
    return { q: m[1].charCodeAt(0) - 97 - 12, r: parseInt(m[2], 10) - 7 };
  }
  function posName(q, r) { return String.fromCharCode(97 + q + 12) + String(r + 7); }

  function el(tag, attrs, parent, text) {
    const node = document.createElementNS(NS, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // The midpoint of the boundary two neighbours share (x in half tiles, y in rows).
  function seam(a, b) {
    const dq = b.q - a.q, dr = b.r - a.r;
    if (dr === 0) return { x: Math.max(a.q, b.q), y: a.r + 0.5 };
    const lower = dr > 0 ? b : a, upper = dr > 0 ? a : b;
    return { x: (lower.q + upper.q) / 2 + 1, y: lower.r };
  }

  function tickPoints(corner, x, y) {
    const w = 2 * HALF, h = ROW, s = 20;
    const cx = corner[1] === "r" ? x + w : x, cy = corner[0] === "b" ? y + h : y;
    const dx = corner[1] === "r" ? -s : s, dy = corner[0] === "b" ? -s : s;
    return cx + "," + cy + " " + (cx + dx) + "," + cy + " " + cx + "," + (cy + dy);
  }

  function draw(container, data, opts) {
    opts = opts || {};
    const colours = data.colours || {};
    const cells = data.board || [];
    const spots = opts.spots ? Object.keys(data.placements || {}) : [];
    const all = cells.map(function (c) { return { q: c.q, r: c.r }; })
      .concat(spots.map(parsePos).filter(Boolean));
    let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
    all.forEach(function (p) {
      left = Math.min(left, p.q); right = Math.max(right, p.q + 2);
      top = Math.min(top, p.r); bottom = Math.max(bottom, p.r + 1);
    });
    if (!all.length) { left = 0; right = 2; top = 0; bottom = 1; }
    const X = function (q) { return PAD + (q - left) * HALF; };
    const Y = function (r) { return PAD + (r - top) * ROW; };
    const width = 2 * PAD + (right - left) * HALF, height = 2 * PAD + (bottom - top) * ROW;
    const old = container.querySelector("svg.gc-svg");
    const svg = el("svg", {
      "class": "gc-svg", viewBox: "0 0 " + width + " " + height, role: "img",
      "aria-label": "The cluster: " + cells.length + " tiles",
    });
    svg.style.setProperty("--gc-aspect", (width / height).toFixed(3));
    const tiles = el("g", { "class": "gc-tiles" }, svg);
    const highlight = opts.highlight || {};
    cells.forEach(function (c) {
      const x = X(c.q), y = Y(c.r), w = 2 * HALF, h = ROW;
      const g = el("g", { "class": "gc-tile gc-" + c.kind + (highlight[c.position] ? " " + highlight[c.position] : ""), "data-pos": c.position, "data-code": c.code }, tiles);
      const fill = c.kind === "mits" ? "#5a5f6b" : (colours[c.colour] || "#777");
      el("rect", { x: x + 1.5, y: y + 1.5, width: w - 3, height: h - 3, rx: 6, fill: fill, "class": "gc-face" }, g);
      if (c.holder) {
        el("rect", { x: x + 5, y: y + 5, width: w - 10, height: h - 10, rx: 4, fill: "none", stroke: colours[c.holder] || "#fff", "stroke-width": 5, "class": "gc-holder", "data-holder": c.holder }, g);
        el("rect", { x: x + 2.5, y: y + 2.5, width: w - 5, height: h - 5, rx: 5, fill: "none", stroke: "#fff", "stroke-width": 1.5 }, g);
      }
      el("text", { x: x + w / 2, y: y + 14, "class": "gc-name" }, g, c.position);
      if (c.kind === "mits") {
        el("text", { x: x + w / 2, y: y + h / 2 + 6, "class": "gc-rank gc-mits-label" }, g, "MITS");
      } else {
        const rank = RANKS[c.rank] || c.rank;
        el("text", { x: x + w / 2, y: y + h / 2 + 10, "class": "gc-rank" + (c.kind === "supernova" ? " gc-nova" : "") }, g, c.kind === "supernova" ? "✷" : rank);
        if (c.corner) el("polygon", { points: tickPoints(c.corner, x, y), "class": "gc-tick", "data-corner": c.corner }, g);
      }
      if (c.pennies) {
        const px = x + w - 17, py = y + 17;
        el("circle", { cx: px, cy: py, r: 10, "class": "gc-penny" }, g);
        el("text", { x: px, y: py + 4, "class": "gc-penny-count" }, g, String(c.pennies));
      }
      if (c.value !== undefined) el("text", { x: x + w - 6, y: y + h / 2 + 4, "class": "gc-value" }, g, "v" + c.value);
      if (c.station) {
        el("circle", { cx: x + w / 2, cy: y + h / 2, r: 30, "class": "gc-station", stroke: colours[c.station] || "#fff" }, g);
      }
      if (c.colonist) {
        el("text", { x: x + 16, y: y + h / 2 + 6, "class": "gc-colonist", fill: colours[c.colonist.colour] || "#fff" }, g, "★");
      }
      const pieces = c.pieces || [];
      const step = Math.min(27, (w - 10) / Math.max(1, pieces.length));
      pieces.forEach(function (p, i) {
        const cx = x + 15 + i * step, cy = y + h - 15;
        const chip = el("g", { "class": "gc-piece", "data-colour": p.colour, "data-coins": p.coins, "data-leader": p.leader ? "yes" : "no" }, g);
        const fill = colours[p.colour] || "#999";
        if (p.leader) {  // the leader: a pawn's head above the coins
          el("circle", { cx: cx, cy: cy - 15, r: 6, fill: fill, "class": "gc-leader" }, chip);
          el("path", { d: "M" + (cx - 7) + " " + (cy - 5) + " L" + cx + " " + (cy - 13) + " L" + (cx + 7) + " " + (cy - 5) + " Z", fill: fill, "class": "gc-leader" }, chip);
        }
        if (p.coins) {
          el("circle", { cx: cx, cy: cy, r: 12, fill: fill, "class": "gc-chip" }, chip);
          el("text", { x: cx, y: cy + 4, "class": "gc-chip-count" }, chip, String(p.coins));
        }
      });
    });
    const costs = el("g", { "class": "gc-crossings" }, svg);
    (data.crossings || []).forEach(function (k) {
      const a = parsePos(k.a), b = parsePos(k.b);
      if (!a || !b) return;
      const m = seam(a, b);
      const cx = PAD + (m.x - left) * HALF, cy = PAD + (m.y - top) * ROW;
      const from = opts.costsFrom && (k.a === opts.costsFrom || k.b === opts.costsFrom);
      const g = el("g", { "class": "gc-cost" + (k.cost === null ? " gc-blocked" : "") + (from ? " from" : ""), "data-a": k.a, "data-b": k.b }, costs);
      el("circle", { cx: cx, cy: cy, r: 10 }, g);
      el("text", { x: cx, y: cy + 4 }, g, k.cost === null ? "×" : String(k.cost));
    });
    if (spots.length) {
      const layer = el("g", { "class": "gc-spots" }, svg);
      spots.forEach(function (name) {
        const p = parsePos(name);
        const g = el("g", { "class": "gc-spot" + (highlight[name] ? " " + highlight[name] : ""), "data-pos": name, tabindex: "0", role: "button", "aria-label": "Place the tile at " + name }, layer);
        el("rect", { x: X(p.q) + 4, y: Y(p.r) + 4, width: 2 * HALF - 8, height: ROW - 8, rx: 6 }, g);
        el("text", { x: X(p.q) + HALF, y: Y(p.r) + ROW / 2 + 5 }, g, name);
      });
    }
    svg.addEventListener("click", function (e) {
      const spot = e.target.closest(".gc-spot");
      if (spot && opts.onSpot) { opts.onSpot(spot.dataset.pos); return; }
      const tile = e.target.closest(".gc-tile");
      if (tile && opts.onTile) opts.onTile(tile.dataset.pos);
    });
    if (old) old.replaceWith(svg); else container.appendChild(svg);
    container.classList.toggle("gc-picking", !!(opts.onTile || opts.onSpot));
    container.classList.toggle("gc-costs-from", !!opts.costsFrom);
    return svg;
  }

  function dataOf(board) {
    const script = board.querySelector(".gc-data");
    if (!script) return null;
    try { return JSON.parse(script.textContent); } catch (err) { return null; }
  }

  function drawAll() {
    document.querySelectorAll(".gc-board").forEach(function (board) {
      const data = dataOf(board);
      if (data) draw(board, data, {});
    });
  }

  document.addEventListener("click", function (e) {
    const toggle = e.target.closest(".gc-costs-toggle");
    if (!toggle) return;
    const on = !document.body.classList.contains("gc-show-costs");
    document.body.classList.toggle("gc-show-costs", on);
    document.querySelectorAll(".gc-costs-toggle").forEach(function (t) { t.setAttribute("aria-pressed", on ? "true" : "false"); t.textContent = on ? "Hide crossing costs" : "Show crossing costs"; });
  });
  function syncToggles() {
    const on = document.body.classList.contains("gc-show-costs");
    document.querySelectorAll(".gc-costs-toggle").forEach(function (t) { t.setAttribute("aria-pressed", on ? "true" : "false"); t.textContent = on ? "Hide crossing costs" : "Show crossing costs"; });
  }

  window.globular = { draw: draw, dataOf: dataOf, parsePos: parsePos, posName: posName, dirs: DIRS };
  document.addEventListener("panel", function () { drawAll(); syncToggles(); });
  drawAll();
})();
