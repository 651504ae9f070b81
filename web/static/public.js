// Public pages (UI.md §7): live updates through the htmx SSE extension;
// where the browser has no EventSource, the live part is polled every 5 s
// instead. The venue screen scrolls by itself.
(function () {
  "use strict";
  if (!window.EventSource) {
    document.querySelectorAll("[data-live]").forEach(function (el) {
      el.setAttribute("hx-trigger", "every 5s");
    });
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      el.removeAttribute("sse-connect");
      el.removeAttribute("hx-ext");
    });
  }
  var screen = document.querySelector("[data-screen]");
  if (!screen) {
    return;
  }
  // Down one pixel at a time; a pause at the bottom and at the top.
  var pause = 0;
  setInterval(function () {
    if (pause > 0) {
      pause--;
      return;
    }
    var bottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    if (bottom) {
      pause = 80;
      setTimeout(function () { window.scrollTo(0, 0); }, 3000);
      return;
    }
    window.scrollBy(0, 1);
    if (window.scrollY === 0) {
      pause = 60;
    }
  }, 40);
})();
