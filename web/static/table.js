// The table screen's virtual panel: the buzzer. The server says when the panels' buzzer
// sounds (a "buzzer" message on the live stream: the cues of companion/service/indicators.py);
// the screen flashes the buzzer and the clock, and beeps through WebAudio only when someone
// turned the sound on here (browsers allow sound only after a click on the page).
"use strict";
(function () {
  // Seconds on, seconds off, repeats: as the GPIO panel's buzzer (hardware/gpio_panel.py).
  const PATTERNS = { countdown: [0.08, 0.05, 1], phase: [0.3, 0.15, 2] };
  const PITCH = { countdown: 880, phase: 660 };
  const toggle = document.querySelector(".sound-toggle");
  let audio = null;
  let flashEnds = 0;

  function soundOn() { return toggle && toggle.getAttribute("aria-pressed") === "true"; }

  function showSound(on) {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? "Sound: on" : "Sound: off";
  }

  function beep(cue) {
    if (!audio) return;
    const [on, off, repeats] = PATTERNS[cue];
    let at = audio.currentTime + 0.01;
    for (let i = 0; i < repeats; i += 1) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = PITCH[cue];
      gain.gain.value = 0.2;
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + on);
      at += on + off;
    }
  }

  function flash(cue) {
    const [on, off, repeats] = PATTERNS[cue];
    const length = Math.max(0.35, repeats * (on + off)) * 1000;
    document.body.classList.add("buzzing");
    if (cue === "phase") document.body.classList.add("buzzing-phase");
    flashEnds = performance.now() + length;
    setTimeout(function () {
      if (performance.now() + 5 < flashEnds) return;  // a later cue is still showing
      document.body.classList.remove("buzzing", "buzzing-phase");
    }, length);
  }

  document.addEventListener("buzzer", function (e) {
    const sounded = (e.detail && e.detail.cues) || [];
    document.body.dataset.lastCue = sounded.join(" ");
    sounded.forEach(function (cue) {
      if (!PATTERNS[cue]) return;
      flash(cue);
      if (soundOn()) beep(cue);
    });
  });

  if (toggle) {
    toggle.addEventListener("click", function () {
      const on = !soundOn();
      if (on && !audio && window.AudioContext) audio = new AudioContext();
      if (audio && audio.state === "suspended") audio.resume();
      showSound(on);
    });
  }
})();

// A turn-taking game: the move the camera saw, confirmed here, or one of the moves it could not
// tell apart, chosen here (web/templates/_turn_table.html; POST /t/<id>/move).
(function () {
  document.addEventListener("click", async function (e) {
    const button = e.target.closest("button.confirm-move, button.choose-move");
    if (!button) return;
    const body = { text: button.dataset.text, choose: button.classList.contains("choose-move") };
    const result = await window.companion.send(button.dataset.url, body, true);
    const box = button.closest(".turn-box").querySelector(".errors");
    if (!result.ok) window.companion.showErrors(box, result);
  });
})();

// Nobody scrolls a table screen: when the side column (seats, the last turn in words, the
// result, the key) runs below the screen's bottom edge, it is zoomed out, step by step, down to
// 60% of its size, so that everything is on screen. Not while join codes are shown: they keep
// their size to be scanned from across the table. Each new panel starts again at full size.
(function () {
  const SMALLEST = 0.6;
  const STEP = 0.05;

  function fit() {
    const side = document.querySelector(".table-screen .side");
    if (!side) return;
    side.style.zoom = "";
    const grid = side.closest(".table-grid");
    const twoColumns = grid && getComputedStyle(grid).gridTemplateColumns.split(" ").length > 1;
    if (!twoColumns || side.querySelector(".joins")) return;
    const page = document.scrollingElement || document.documentElement;
    const overflows = function () { return page.scrollHeight > window.innerHeight; };
    let scale = 1;
    while (overflows() && scale - STEP >= SMALLEST - 1e-9) {
      scale -= STEP;
      side.style.zoom = scale.toFixed(2);
    }
    side.dataset.zoom = scale.toFixed(2);
  }

  document.addEventListener("panel", fit);
  window.addEventListener("resize", fit);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fit);
  else fit();
})();
