// The table page's service worker (issue 24), served at /table/sw.js so
// that it covers /table/{code}. The page (table-engine.js) fills the cache
// with itself, its scripts, styles and the rules engine. A table page is
// fetched from the network first and kept; with no network the kept copy
// answers, and the hands typed meanwhile wait on the phone (table.js).
// Static files and the engine have their content's hash in their URL:
// the kept copy is always right. Nothing else is touched: the API is
// always the network's.
"use strict";
var CACHE = "segnapunti-table-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (ev) { ev.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (ev) {
  var req = ev.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== location.origin) return;
  var p = url.pathname;
  if (req.mode === "navigate" && /^\/table\/[^/]+$/.test(p)) {
    ev.respondWith(fetch(req).then(function (res) {
      if (res.ok) {
        var copy = res.clone();
        caches.open(CACHE).then(function (c) { c.put(p, copy); });
      }
      return res;
    }).catch(function () {
      return caches.open(CACHE).then(function (c) { return c.match(p); }).then(function (hit) {
        return hit || Response.error();
      });
    }));
    return;
  }
  if (p.indexOf("/static/") === 0 || p.indexOf("/engine/") === 0 || p === "/table/manifest.webmanifest") {
    ev.respondWith(caches.open(CACHE).then(function (c) {
      return c.match(req, { ignoreSearch: p === "/table/manifest.webmanifest" }).then(function (hit) {
        return hit || fetch(req).then(function (res) {
          if (res.ok) c.put(req, res.clone());
          return res;
        });
      });
    }));
  }
});
