// The host's new-table form: only the chosen game's house rules are shown and sent (without
// this script every game's fieldset shows, and the server reads only the chosen game's).
"use strict";
(function () {
  const pick = document.querySelector("select.game-pick");
  if (!pick) return;
  function show() {
    document.querySelectorAll("fieldset.house-rules").forEach(function (set) {
      const mine = set.dataset.game === pick.value;
      set.hidden = !mine;
      set.disabled = !mine;
    });
  }
  pick.addEventListener("change", show);
  show();
})();
