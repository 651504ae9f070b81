// The hall's clock (UI.md §9): every [data-clock] counts its
// data-remaining seconds down; at zero, or when the server says time was
// called (data-clock-url is polled), it sets data-time-called="true".
(function () {
  "use strict";
  var clocks = document.querySelectorAll("[data-clock]");
  if (!clocks.length) return;
  function show(el) {
    var s = Math.max(0, parseInt(el.dataset.remaining, 10) || 0);
    var out = el.querySelector("[data-clock-time]");
    if (el.dataset.running !== "true") return;
    var idle = el.querySelector("[data-clock-idle]");
    if (idle) idle.hidden = true;
    if (out) out.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
    if (s === 0 && el.dataset.running === "true") call(el);
  }
  function call(el) {
    if (el.dataset.timeCalled === "true") return;
    el.dataset.timeCalled = "true";
    var msg = el.querySelector("[data-clock-called]");
    if (msg) msg.hidden = false;
  }
  function poll(el) {
    if (!el.dataset.clockUrl || !window.fetch) return;
    fetch(el.dataset.clockUrl, { headers: { "Accept": "application/json" } }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (c) {
      if (!c) return;
      el.dataset.running = c.running ? "true" : "false";
      el.dataset.remaining = String(c.remaining);
      if (c.time_called) call(el);
      show(el);
    }).catch(function () {});
  }
  clocks.forEach(function (el) {
    show(el);
    poll(el); // a cached page's figures may be old: ask at once
    setInterval(function () {
      if (el.dataset.running === "true" && el.dataset.timeCalled !== "true") {
        el.dataset.remaining = String(Math.max(0, (parseInt(el.dataset.remaining, 10) || 0) - 1));
        show(el);
      }
    }, 1000);
    setInterval(function () { poll(el); }, 10000);
  });
})();
