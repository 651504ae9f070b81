// The table page's rules engine (issue 24). After the page is usable it
// loads the WebAssembly engine (the server's own validation, compiled by
// cmd/engine-wasm) and checks every hand on the phone as it is typed:
// findings go under the inputs they concern, with data-code and
// data-severity as the server renders them, and hands still waiting for
// the network are checked too. The server's report replaces the local one
// when the page reloads after a hand arrives. It also registers the
// service worker (/table/sw.js) and fills its cache, so the page, its
// scripts and the engine open with no network from the second visit.
// Without this script, or without the engine, the page works as before.
(function () {
  "use strict";
  var main = document.getElementById("table");
  if (!main || !main.dataset.engine) return;
  var CACHE = "segnapunti-table-v1";
  var form = document.getElementById("hand-form");
  var lang = document.documentElement.lang === "it" ? "it" : "en";
  var store = "segnapunti.table." + main.dataset.code; // table.js's queue
  var timer = 0;

  function queued() {
    try { return JSON.parse(localStorage.getItem(store)) || []; } catch (e) { return []; }
  }

  // The hand being typed, when both lines have their base and points
  // (API §1 requires them); the total is optional.
  function typedHand() {
    if (!form) return null;
    var end = form.querySelector('[data-part="end"]');
    var hand = { ns: {}, eo: {} }, complete = true;
    if (end && end.value) hand.end = end.value;
    form.querySelectorAll("input[data-part]").forEach(function (el) {
      var parts = el.dataset.part.split("."), v = el.value.trim();
      if (/^-?[0-9]{1,9}$/.test(v)) hand[parts[0]][parts[1]] = parseInt(v, 10);
      else if (parts[1] !== "total" || v !== "") complete = false;
    });
    return complete ? hand : null;
  }

  function check(sheet) {
    try { return JSON.parse(window.segnapuntiCheck(JSON.stringify(sheet), lang)); } catch (e) { return null; }
  }

  // finding renders one finding as the server's report does.
  function finding(tag, f) {
    var el = document.createElement(tag);
    el.className = "engine-finding " + f.severity;
    el.dataset.code = f.code; el.dataset.severity = f.severity;
    el.dataset.pointer = f.pointer || ""; el.dataset.source = "engine";
    var msg = document.createElement(tag === "li" ? "p" : "span");
    msg.className = "message"; msg.textContent = f.message;
    var meta = document.createElement(tag === "li" ? "p" : "span");
    meta.className = "meta";
    var c = document.createElement("code"); c.textContent = f.code;
    meta.appendChild(c);
    if (f.rule) meta.appendChild(document.createTextNode(" · " + f.rule));
    el.appendChild(msg); el.appendChild(document.createTextNode(" ")); el.appendChild(meta);
    return el;
  }

  function clear() {
    document.querySelectorAll("[data-source='engine']").forEach(function (el) { el.remove(); });
    document.querySelectorAll("[aria-describedby*='-engine-']").forEach(function (el) {
      var ids = el.getAttribute("aria-describedby").split(" ").filter(function (id) { return id.indexOf("-engine-") < 0; });
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" ")); else el.removeAttribute("aria-describedby");
    });
  }

  function run() {
    timer = 0;
    delete main.dataset.engineCheck;
    if (typeof window.segnapuntiCheck !== "function") return;
    var base;
    try { base = JSON.parse(main.dataset.sheet); } catch (e) { return; }
    base.hands = (base.hands || []).concat(queued().map(function (q) { return q.hand; }));
    clear();
    // Hands on the phone, not yet on the server: their report is local
    // until the server's arrives with the page.
    if (base.hands.length > 0 && queued().length > 0) {
      var r = check(base), section = document.querySelector("section.report");
      if (r && r.findings && section) {
        // Notes (info) folded under "Dettagli" as the server's report
        // does (issue 22); the rest in the list.
        var ul = document.createElement("ul"), notes = document.createElement("ul");
        ul.dataset.source = "engine";
        r.findings.forEach(function (f) { (f.severity === "info" ? notes : ul).appendChild(finding("li", f)); });
        section.querySelectorAll("ul, p[data-report], details.notes").forEach(function (el) { el.hidden = true; });
        section.appendChild(ul);
        if (notes.children.length) {
          var d = document.createElement("details"), sum = document.createElement("summary");
          d.className = "notes"; d.dataset.source = "engine";
          sum.textContent = (main.dataset.detailsLabel || "Dettagli") + " (" + notes.children.length + ")";
          d.appendChild(sum); d.appendChild(notes);
          section.appendChild(d);
        }
      }
    }
    var hand = typedHand();
    if (!hand) return;
    var index = base.hands.length;
    base.hands.push(hand);
    var rep = check(base);
    if (!rep || !rep.findings) return;
    var rest = document.createElement("ul");
    rest.className = "engine-findings"; rest.dataset.source = "engine";
    rep.findings.forEach(function (f) {
      // Notes (info) are not put under the inputs: they are folded away
      // in the report, as on the server's page.
      if (f.hand !== index + 1 || f.severity === "info") return;
      var input = f.pointer && document.getElementById(f.pointer.slice(1).replace(/\//g, "."));
      if (input && form.contains(input)) {
        var after = input.parentNode.classList.contains("signed") ? input.parentNode : input;
        var small = finding("small", f);
        small.id = input.id + "-engine-" + f.code;
        after.insertAdjacentElement("afterend", small);
        input.setAttribute("aria-describedby", ((input.getAttribute("aria-describedby") || "") + " " + small.id).trim());
      } else {
        rest.appendChild(finding("li", f));
      }
    });
    if (rest.children.length) form.querySelector("button[type=submit]").insertAdjacentElement("beforebegin", rest);
  }

  // The check runs once the digits pause for 300 ms, not every few
  // digits: typing 120 must not flash "1 is not a multiple of 5" under the
  // field, and a finding shown or removed moves everything below it — the
  // ± buttons and "Aggiungi" under a thumb about to tap them. While a
  // check is due the page says so (data-engine-check="due"); a test waits
  // for it to be gone before it taps a button (webtest.Tap).
  function soon(delay) {
    clearTimeout(timer);
    main.dataset.engineCheck = "due";
    timer = setTimeout(run, typeof delay === "number" ? delay : 300);
  }

  function loadEngine() {
    if (!window.WebAssembly || !main.dataset.wasmExec) { main.dataset.engineReady = "false"; return; }
    var s = document.createElement("script");
    s.src = main.dataset.wasmExec;
    s.onerror = function () { main.dataset.engineReady = "false"; };
    s.onload = function () {
      var go = new window.Go();
      var got = fetch(main.dataset.engine);
      var inst = WebAssembly.instantiateStreaming
        ? WebAssembly.instantiateStreaming(got, go.importObject)
        : got.then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
      inst.then(function (res) {
        go.run(res.instance); // returns once segnapuntiCheck is defined
        main.dataset.engineReady = "true";
        run();
      }).catch(function () { main.dataset.engineReady = "false"; });
    };
    document.head.appendChild(s);
  }

  // The service worker answers from the cache with no network; the page
  // fills the cache itself, so the first visit is enough.
  function offline() {
    if (!("serviceWorker" in navigator) || !window.caches || !main.dataset.sw) return;
    navigator.serviceWorker.register(main.dataset.sw, { scope: "/table/" }).catch(function () {});
    var urls = [location.pathname, main.dataset.engine, main.dataset.wasmExec];
    document.querySelectorAll("script[src]").forEach(function (el) { urls.push(el.getAttribute("src")); });
    document.querySelectorAll("link[rel=stylesheet], link[rel=manifest]").forEach(function (el) { urls.push(el.getAttribute("href")); });
    caches.open(CACHE).then(function (c) {
      return Promise.all(urls.map(function (u) {
        if (u === location.pathname) return c.add(u);
        return c.match(u).then(function (hit) { return hit || c.add(u); });
      })).then(function () {
        // Files of an older version (another hash in the URL) go.
        return c.keys().then(function (keys) {
          return Promise.all(keys.map(function (req) {
            var p = new URL(req.url).pathname;
            var versioned = p.indexOf("/static/") === 0 || p.indexOf("/engine/") === 0;
            return versioned && urls.indexOf(p) < 0 ? c.delete(req) : null;
          }));
        });
      });
    }).then(function () { main.dataset.offlineReady = "true"; }).catch(function () {});
  }

  if (form) {
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
    form.addEventListener("click", soon); // the ± buttons
    form.addEventListener("submit", function () { soon(0); }); // the hand went to the queue: check it there
  }
  window.addEventListener("storage", soon);
  function start() {
    var idle = window.requestIdleCallback || function (f) { setTimeout(f, 1); };
    idle(function () { loadEngine(); offline(); });
  }
  if (document.readyState === "complete") start(); else window.addEventListener("load", start);
})();
