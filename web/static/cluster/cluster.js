// Cluster, the peg game (web/games/cluster.py): a move is tapped, peg first, then hole.
// Tapping a peg of the player to move lights its legal destinations (the board's data-legal);
// each lit hole gets data-move="MOVE". On a phone the shared move box takes a tapped
// data-move (web/static/seat.js: it fills the box and tries the move); on the table screen
// the move is entered for the seat to move, to confirm like a move the camera saw
// (POST /t/<id>/move with "enter").
(function () {
  function clear(svg) {
    svg.querySelectorAll(".selected").forEach(function (n) { n.classList.remove("selected"); });
    svg.querySelectorAll(".hole.target").forEach(function (n) {
      n.classList.remove("target");
      n.removeAttribute("data-move");
    });
  }

  function select(svg, peg) {
    clear(svg);
    const legal = JSON.parse(svg.dataset.legal || "{}");
    const options = legal[peg.dataset.hole] || [];
    if (!options.length) return;
    peg.classList.add("selected");
    options.forEach(function (pair) {
      const hole = svg.querySelector('.hole[data-hole="' + pair[0] + '"]');
      if (hole) { hole.classList.add("target"); hole.dataset.move = pair[1]; }
    });
  }

  async function enter(wrap, text) {
    const box = document.querySelector(".turn-box");
    const url = box ? box.dataset.moveUrl : null;
    if (!url || !window.companion) return;
    const result = await window.companion.send(url, { text: text, enter: true }, true);
    const errors = box.querySelector(".errors");
    if (errors && !result.ok) window.companion.showErrors(errors, result);
  }

  document.addEventListener("click", function (e) {
    const wrap = e.target.closest(".cluster-wrap");
    if (!wrap || wrap.dataset.tappable === "no") return;
    const svg = wrap.querySelector("svg.cluster-board");
    const target = e.target.closest(".hole.target");
    if (target) {
      if (wrap.dataset.tappable === "table") { enter(wrap, target.dataset.move); clear(svg); }
      return;  // on a phone the shared move box takes data-move
    }
    const peg = e.target.closest(".peg");
    if (peg && peg.dataset.colour === svg.dataset.mover) { select(svg, peg); return; }
    clear(svg);
  });
})();
