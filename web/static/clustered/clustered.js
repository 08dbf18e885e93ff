// Clustered's card picker: choose one of your cards, the cells where it may legally go light
// up on the board (the cells come from the rules core in the page: .cl-options), and a tap on
// a lit cell fills the shared move box (data-move, web/static/seat.js), which tries the
// placement at once. On the table screen a tap places the card through the host's controls.
"use strict";
(function () {
  const panel = window.companion.panel;
  let chosen = null;

  function options() {
    const node = panel.querySelector(".cl-options");
    return node ? JSON.parse(node.textContent) : [];
  }

  function light(card) {
    const found = options().find(function (o) { return o.card === card; });
    const cells = found ? found.cells : [];
    panel.querySelectorAll(".clustered-board .slot").forEach(function (slot) {
      const on = cells.indexOf(slot.dataset.cell) >= 0;
      slot.classList.toggle("legal", on);
      slot.classList.remove("drafted");
      if (on) slot.dataset.move = card + " " + slot.dataset.cell;
      else delete slot.dataset.move;
    });
    panel.querySelectorAll(".cl-card").forEach(function (b) { b.classList.toggle("on", b.dataset.card === card); });
  }

  async function placeAtTable(text, errors) {
    const section = panel.querySelector("section.clustered[data-host-move]");
    const form = new FormData();
    form.append("csrf_token", document.querySelector('meta[name="csrf-token"]').content);
    form.append("text", text);
    const response = await fetch(section.dataset.hostMove, { method: "POST", body: form, credentials: "same-origin" });
    if (!response.ok || response.url.indexOf("/host/login") >= 0) {
      errors.textContent = "Only the host's screen places cards here: log in as host on this screen, or play from the phone.";
    }
  }

  panel.addEventListener("click", function (e) {
    const card = e.target.closest(".cl-card");
    if (card) { chosen = card.dataset.card; light(chosen); return; }
    const slot = e.target.closest(".clustered-board .slot.legal");
    if (slot && panel.querySelector(".table-picker")) {
      placeAtTable(slot.dataset.move, panel.querySelector(".table-picker .errors"));
      return;
    }
    if (slot) slot.classList.add("drafted");
    const hand = e.target.closest(".declare-hand");
    if (hand) {
      const form = hand.closest("form");
      const cards = Array.from(form.querySelectorAll('input[name="hand"]:checked')).map(function (i) { return i.value; });
      const text = "discard " + form.querySelector('select[name="discard"]').value + " hand " + cards.join(" ");
      const box = panel.querySelector("form.move-form .move-text");
      if (box) { box.value = text; box.dispatchEvent(new Event("input", { bubbles: true })); }
    }
  });

  document.addEventListener("panel", function () { if (chosen) light(chosen); });
})();
