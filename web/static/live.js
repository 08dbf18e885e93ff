// Live updates for the table screen and the phones (Server-Sent Events), the countdown,
// forms sent without a reload, and the ready button. No rules of any game live here.
"use strict";
(function () {
  const panel = document.getElementById("panel");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let clockBase = null;
  let clockAt = 0;
  let paused = false;
  let warnAt = 30;  // the last tenth of the phase, at most 30 s (the bar's data-warn)

  function readClock() {
    const bar = panel && panel.querySelector(".bar");
    if (!bar) return;
    const value = bar.dataset.remaining;
    clockBase = value === "" ? null : parseFloat(value);
    clockAt = performance.now();
    paused = bar.dataset.paused === "yes";
    warnAt = bar.dataset.warn === undefined ? 30 : parseFloat(bar.dataset.warn);
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
    clock.classList.toggle("low", left <= warnAt && !paused);
    document.dispatchEvent(new CustomEvent("clock", { detail: { remaining: left, paused: paused } }));
  }

  let revealed = null;  // a form answer just scrolled into sight (reveal), until the next update

  // Make `old` look like `fresh` while keeping every element that is of the same kind in the
  // same place: attributes are copied, text rewritten, and only children that differ replaced.
  function refresh(old, fresh) {
    Array.from(old.attributes).forEach(function (a) { if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name); });
    Array.from(fresh.attributes).forEach(function (a) { if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value); });
    const want = Array.from(fresh.childNodes);
    const have = Array.from(old.childNodes);
    want.forEach(function (node, i) {
      const mine = have[i];
      if (!mine) old.appendChild(node);
      else if (mine.nodeType !== node.nodeType || mine.nodeName !== node.nodeName) old.replaceChild(node, mine);
      else if (mine.nodeType === Node.ELEMENT_NODE) refresh(mine, node);
      else if (mine.nodeValue !== node.nodeValue) mine.nodeValue = node.nodeValue;
    });
    have.slice(want.length).forEach(function (node) { node.remove(); });
  }

  function swap(html) {
    const fresh = document.createElement("div");
    fresh.innerHTML = html;
    // What is kept (data-keep-key) stays in the page where it can: a node taken out and put
    // back, even at once, loses a tap pressed on it before and lifted after (Chromium gives
    // the click to what stayed). A kept part of the panel's own is left in place and the
    // fresh parts put round it; one inside another part is moved into the fresh one.
    // A kept part marked data-refresh (the Ready button's) takes the fresh part's attributes
    // and text while staying in place, so a press that an update overtakes still counts.
    const inPlace = new Map();
    fresh.querySelectorAll("[data-keep-key]").forEach(function (node) {
      const old = panel.querySelector('[data-keep-key="' + node.dataset.keepKey + '"]');
      if (!old) return;
      if (node.hasAttribute("data-refresh")) refresh(old, node);
      if (old.parentNode === panel && node.parentNode === fresh) inPlace.set(node, old);
      else node.replaceWith(old);
    });
    const wanted = Array.from(fresh.childNodes, function (node) { return inPlace.get(node) || node; });
    const staying = new Set(wanted);
    Array.from(panel.childNodes).forEach(function (node) { if (!staying.has(node)) node.remove(); });
    let next = panel.firstChild;
    wanted.forEach(function (node) {
      if (node === next) next = next.nextSibling;
      else panel.insertBefore(node, next);
    });
    // The answer just shown stays in sight through the update that follows it (once: a player
    // who scrolls away afterwards is not pulled back).
    if (revealed && panel.contains(revealed)) revealed.scrollIntoView({ block: "nearest" });
    revealed = null;
    readClock();
    showClock();
    document.dispatchEvent(new CustomEvent("panel"));
  }

  function connect(url) {
    const source = new EventSource(url);
    source.addEventListener("panel", function (e) {
      swap(e.data);
      panel.dataset.connected = "yes";
      document.dispatchEvent(new CustomEvent("live-connected"));
    });
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

  // Sending. Every action carries an id of its own (request_id), sent again with each retry, so
  // the server applies it at most once. A tap while the phone is offline is kept: the page says
  // it did not go through, and sends it again as soon as the connection is back (options.retry),
  // or says to tap again (options.retry false: a draft, a choice that is not idempotent).
  let offlineBox = null;

  function requestId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  function showOffline(text) {
    if (!offlineBox) {
      offlineBox = document.createElement("div");
      offlineBox.id = "offline";
      offlineBox.className = "offline";
      offlineBox.setAttribute("role", "alert");
      document.body.appendChild(offlineBox);
    }
    offlineBox.hidden = !text;
    offlineBox.textContent = text || "";
  }

  function connectionBack() {
    return new Promise(function (resolve) {
      const done = function () {
        clearTimeout(timer);
        window.removeEventListener("online", done);
        document.removeEventListener("live-connected", done);
        resolve();
      };
      const timer = setTimeout(done, 3000);
      window.addEventListener("online", done);
      document.addEventListener("live-connected", done);
    });
  }

  const TAP_AGAIN = "Not sent: this phone has no connection. Tap again when it is back.";
  const KEPT = "Not sent yet: this phone has no connection. Your choice is kept and will be sent when the connection is back.";
  let waiting = 0;

  async function send(url, body, isJson, options) {
    const retry = !options || options.retry !== false;
    const id = requestId();
    if (retry) {
      if (isJson) body = Object.assign({ request_id: id }, body);
      else body.set("request_id", id);
    }
    let held = false;
    for (;;) {
      let response = null;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: Object.assign({ "X-CSRFToken": csrf, "Accept": "application/json" },
            isJson ? { "Content-Type": "application/json" } : {}),
          body: isJson ? JSON.stringify(body) : body,
          credentials: "same-origin",
        });
      } catch (err) {
        response = null;  // no connection (fetch throws a TypeError)
      }
      const lost = response === null || response.status === 502 || response.status === 503 || response.status === 504;
      if (lost && !retry) return { ok: false, offline: true, error: TAP_AGAIN };
      if (lost) {
        if (!held) { held = true; waiting += 1; }
        showOffline(KEPT);
        await connectionBack();
        continue;
      }
      if (held) {
        waiting -= 1;
        showOffline(waiting > 0 ? KEPT : "");
      }
      let data;
      try { data = await response.json(); } catch (err) { data = { ok: false, error: "The server did not answer (" + response.status + ")." }; }
      if (held) data.resent = true;
      return data;
    }
  }

  function showErrors(box, data) {
    if (!box) return;
    box.replaceChildren();
    box.classList.toggle("ok", !!data.ok);
    if (data.ok) {
      const head = document.createElement("p");
      head.textContent = (data.message || "Sent ✓") + (data.resent ? " (sent once the connection was back)" : "");
      box.appendChild(head);
      if (data.said && data.said.length) {
        const list = document.createElement("ul");
        list.className = "said";
        data.said.forEach(function (line) { const li = document.createElement("li"); li.textContent = line; list.appendChild(li); });
        box.appendChild(list);
      }
      reveal(box);
      return;
    }
    const head = document.createElement("p");
    head.textContent = data.error;
    box.appendChild(head);
    if (data.reasons && data.reasons.length) {
      const list = document.createElement("ul");
      data.reasons.forEach(function (r) { const li = document.createElement("li"); li.textContent = r; list.appendChild(li); });
      box.appendChild(list);
    }
    reveal(box);
  }

  // A form's answer is scrolled into sight (above the sticky Ready bar: its scroll-margin), so a
  // player sees what was stored or why not without looking for it.
  function reveal(box) {
    if (!box.closest("form") || !box.scrollIntoView) return;
    revealed = box;
    box.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("submit", async function (e) {
    const form = e.target;
    if (!form.hasAttribute("data-ajax")) return;
    e.preventDefault();
    const box = form.querySelector(".errors");
    const submit = form.querySelector('button[type="submit"]');
    if (submit) submit.classList.add("sending");
    const data = await send(form.action, new FormData(form), false, { retry: form.hasAttribute("data-retry") });
    if (submit) submit.classList.remove("sending");
    showErrors(box, data);
  });

  document.addEventListener("click", async function (e) {
    const button = e.target.closest("button.ready");
    if (!button) return;
    const wanted = button.dataset.ready === "true";
    button.classList.add("sending");
    const data = await send(panel.dataset.ready, { ready: wanted, stage: button.dataset.stage, turn: button.dataset.turn }, true);
    button.classList.remove("sending");
    const box = panel.querySelector(".ready-box .errors") || panel.querySelector(".ready-box");
    if (!data.ok || data.said) showErrors(box, data);
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
