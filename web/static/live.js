// Live updates for the table screen and the phones (Server-Sent Events), the countdown,
// forms sent without a reload, and the ready button. No rules of any game live here.
"use strict";
(function () {
  const panel = document.getElementById("panel");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let clockBase = null;
  let clockAt = 0;
  let paused = false;

  function readClock() {
    const bar = panel && panel.querySelector(".bar");
    if (!bar) return;
    const value = bar.dataset.remaining;
    clockBase = value === "" ? null : parseFloat(value);
    clockAt = performance.now();
    paused = bar.dataset.paused === "yes";
  }

  function remaining() {
    if (clockBase === null) return null;
    if (paused) return clockBase;
    return Math.max(0, clockBase - (performance.now() - clockAt) / 1000);
  }

  function showClock() {
    const clock = panel && panel.querySelector(".clock");
    const left = remaining();
    if (!clock) return;
    if (left === null) { clock.textContent = ""; return; }
    const secs = Math.ceil(left);
    const text = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
    clock.textContent = paused ? text + " paused" : text;
    clock.classList.toggle("low", left <= 30 && !paused);
    document.dispatchEvent(new CustomEvent("clock", { detail: { remaining: left, paused: paused } }));
  }

  function swap(html) {
    const fresh = document.createElement("div");
    fresh.innerHTML = html;
    fresh.querySelectorAll("[data-keep-key]").forEach(function (node) {
      const old = panel.querySelector('[data-keep-key="' + node.dataset.keepKey + '"]');
      if (old) node.replaceWith(old);
    });
    panel.replaceChildren(...fresh.childNodes);
    readClock();
    showClock();
    document.dispatchEvent(new CustomEvent("panel"));
  }

  function connect(url) {
    const source = new EventSource(url);
    source.addEventListener("panel", function (e) { swap(e.data); panel.dataset.connected = "yes"; });
    source.addEventListener("tick", function (e) {
      const tick = JSON.parse(e.data);
      clockBase = tick.remaining; clockAt = performance.now(); paused = tick.paused;
      showClock();
    });
    source.addEventListener("buzzer", function (e) {  // the table screen's virtual panel
      document.dispatchEvent(new CustomEvent("buzzer", { detail: JSON.parse(e.data) }));
    });
    source.addEventListener("gone", function () {
      source.close();
      panel.innerHTML = '<p class="error">This seat was given to another phone. Ask the host for a new link.</p>';
    });
    source.onerror = function () {
      panel.dataset.connected = "no";  // EventSource reconnects by itself after a dropped line
      if (source.readyState === EventSource.CLOSED) {
        // Refused (too many live screens: 429 or 503): say so, and try again in 30 s.
        panel.dataset.refused = "yes";
        setTimeout(function () { connect(url); }, 30000);
      }
    };
    source.onopen = function () { delete panel.dataset.refused; };
  }

  async function send(url, body, isJson) {
    const response = await fetch(url, {
      method: "POST",
      headers: Object.assign({ "X-CSRFToken": csrf, "Accept": "application/json" },
        isJson ? { "Content-Type": "application/json" } : {}),
      body: isJson ? JSON.stringify(body) : body,
      credentials: "same-origin",
    });
    let data;
    try { data = await response.json(); } catch (err) { data = { ok: false, error: "The server did not answer (" + response.status + ")." }; }
    return data;
  }

  function showErrors(box, data) {
    if (!box) return;
    box.replaceChildren();
    box.classList.toggle("ok", !!data.ok);
    if (data.ok) { box.textContent = data.message || "Sent ✓"; return; }
    const head = document.createElement("p");
    head.textContent = data.error;
    box.appendChild(head);
    if (data.reasons && data.reasons.length) {
      const list = document.createElement("ul");
      data.reasons.forEach(function (r) { const li = document.createElement("li"); li.textContent = r; list.appendChild(li); });
      box.appendChild(list);
    }
  }

  document.addEventListener("submit", async function (e) {
    const form = e.target;
    if (!form.hasAttribute("data-ajax")) return;
    e.preventDefault();
    const data = await send(form.action, new FormData(form), false);
    showErrors(form.querySelector(".errors"), data);
  });

  document.addEventListener("click", async function (e) {
    const button = e.target.closest("button.ready");
    if (!button) return;
    const data = await send(panel.dataset.ready, { ready: button.dataset.ready === "true", stage: button.dataset.stage }, true);
    if (!data.ok) showErrors(panel.querySelector(".ready-box"), data);
  });

  // Running total of a purchase form: the prices come with the form, from the server.
  document.addEventListener("change", function (e) {
    const form = e.target.closest(".build-form");
    if (!form) return;
    let spent = 0;
    const stockpile = form.querySelector(".stockpile");
    form.querySelectorAll(".cost-pick").forEach(function (pick) {
      if (stockpile && stockpile.checked) { pick.disabled = true; return; }
      pick.disabled = false;
      if (pick.tagName === "SELECT") spent += parseInt(pick.selectedOptions[0].dataset.cost || "0", 10);
      else if (pick.checked) spent += parseInt(pick.dataset.cost || "0", 10);
    });
    const net = parseInt(form.dataset.net, 10);
    form.querySelector(".spent").textContent = String(spent);
    form.querySelector(".total").classList.toggle("over", spent > net);
    form.querySelector('button[type="submit"]').disabled = spent > net;
  });

  window.companion = { send: send, showErrors: showErrors, panel: panel };
  if (panel) {
    readClock();
    showClock();
    setInterval(showClock, 250);
    if (panel.dataset.live && window.EventSource) connect(panel.dataset.live);
  }
})();
