// The table page (UI.md §6): hands are queued on the phone (localStorage)
// and sent to POST …/sheet/hands with an Idempotency-Key, so a hand typed
// offline is sent once when the connection returns. Without this script
// the form posts to the page itself.
(function () {
  "use strict";
  var main = document.getElementById("table");
  if (!main || !window.fetch || !window.localStorage) return;
  var code = main.dataset.code, api = main.dataset.api;
  var store = "segnapunti.table." + code;
  var form = document.getElementById("hand-form");
  var pending = document.getElementById("pending");
  var errors = document.getElementById("errors");
  var messages = document.getElementById("messages");
  var next = parseInt(main.dataset.next, 10) || 0;
  var sending = false, sentAny = false;

  function load() { try { return JSON.parse(localStorage.getItem(store)) || []; } catch (e) { return []; } }
  function save(q) { localStorage.setItem(store, JSON.stringify(q)); }
  function key() {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }
  function say(el, text, cls) {
    el.textContent = "";
    if (!text) return;
    var p = document.createElement("p"); p.className = cls; p.textContent = text; el.appendChild(p);
  }
  function showPending() {
    var q = load(), ul = pending.querySelector("ul");
    ul.textContent = "";
    q.forEach(function (item) {
      var li = document.createElement("li");
      li.dataset.pendingHand = String(item.index + 1);
      li.textContent = main.dataset.pendingLabel.replace("%v", item.index + 1);
      ul.appendChild(li);
    });
    pending.hidden = q.length === 0;
  }
  function setIndex(i) {
    if (!form) return;
    form.querySelectorAll("[data-part]").forEach(function (el) {
      var name = "hands." + i + "." + el.dataset.part;
      var label = form.querySelector('label[for="' + el.id + '"]');
      el.name = name; el.id = name; if (label) label.htmlFor = name;
    });
    form.querySelector('input[name="index"]').value = i;
    var h = document.getElementById("hand-h");
    if (h) h.textContent = main.dataset.handLabel.replace("%v", i + 1);
  }
  function num(el) { var v = el.value.trim(); return v === "" ? null : parseInt(v, 10); }

  function flush() {
    var q = load();
    if (sending || q.length === 0) return;
    sending = true;
    var item = q[0];
    fetch(api + "/hands", {
      method: "POST",
      // The page's language: a refusal (the round closed, the sheet signed
      // meanwhile) comes back worded in it (api/problem_it.go).
      headers: { "Authorization": "Bearer " + code, "Content-Type": "application/json", "Idempotency-Key": item.key, "Accept-Language": document.documentElement.lang || "it" },
      body: JSON.stringify(item.hand)
    }).then(function (res) {
      sending = false;
      if (res.ok) {
        return res.json().catch(function () { return {}; }).then(function (b) {
          // The hand went in at another place than the one it was typed
          // for: the sheet changed while the phone was offline (a referee
          // corrected it, another phone sent hands). Said after the reload.
          if (typeof b.hands === "number" && b.hands !== item.index + 1) sessionStorage.setItem(store + ".changed", "1");
          save(load().filter(function (x) { return x.key !== item.key; }));
          sentAny = true;
          showPending();
          if (load().length === 0) { location.reload(); } else { flush(); }
        });
      }
      return res.json().then(function (p) {
        save(load().filter(function (x) { return x.key !== item.key; }));
        showPending();
        say(errors, p.detail || String(res.status), "error");
      });
    }).catch(function () {
      sending = false;
      say(messages, main.dataset.offlineLabel, "notice");
    });
  }

  // A phone's numeric keypad (inputmode="numeric") often has no minus
  // key, and Burraco points go negative: a ± button beside each number
  // changes its sign (UI.md §6: negative numbers possible).
  function addSignButtons(form) {
    form.querySelectorAll("input[data-part]").forEach(function (el) {
      var wrap = document.createElement("div"), b = document.createElement("button");
      wrap.className = "signed";
      b.type = "button"; b.className = "negate"; b.textContent = "±";
      b.dataset.action = "negate"; b.dataset.for = el.dataset.part;
      b.addEventListener("click", function () {
        var v = el.value.trim();
        el.value = v.charAt(0) === "-" ? v.slice(1) : "-" + v;
        el.focus();
      });
      var label = form.querySelector('label[for="' + el.id + '"]');
      b.setAttribute("aria-label", main.dataset.negateLabel.replace("%s", label ? label.textContent : ""));
      el.parentNode.insertBefore(wrap, el);
      wrap.appendChild(el); wrap.appendChild(b);
    });
  }

  // The last hand's change (UI.md §9) is an ordinary form: only the ± buttons.
  var edit = document.getElementById("edit-form");
  if (edit) addSignButtons(edit);
  if (form) {
    addSignButtons(form);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var hand = { end: form.querySelector('[data-part="end"]').value, ns: {}, eo: {} };
      var bad = null;
      form.querySelectorAll("input[data-part]").forEach(function (el) {
        var parts = el.dataset.part.split("."), v = num(el);
        el.removeAttribute("aria-invalid");
        if ((v === null && parts[1] !== "total") || (v !== null && isNaN(v)) || !/^-?[0-9]*$/.test(el.value.trim())) {
          el.setAttribute("aria-invalid", "true"); bad = bad || el; return;
        }
        if (v !== null) hand[parts[0]][parts[1]] = v;
      });
      if (bad) { bad.focus(); return; }
      var q = load();
      q.push({ key: key(), index: next, hand: hand });
      save(q);
      next++;
      form.reset();
      setIndex(next);
      showPending();
      flush();
    });
  }
  window.addEventListener("online", flush);
  setInterval(flush, 3000);
  if (sessionStorage.getItem(store + ".changed")) {
    sessionStorage.removeItem(store + ".changed");
    say(messages, main.dataset.changedLabel, "notice");
    messages.firstChild.dataset.conflict = "changed";
  }
  var q = load();
  if (q.length) { next = Math.max(next, q[q.length - 1].index + 1); setIndex(next); }
  showPending();
  flush();
})();
