// The sheet page's live check (UI.md §5). htmx swaps in only the report
// (#report), never the inputs, so nothing typed meanwhile is lost; this
// marks the inputs the new report is about (aria-invalid,
// aria-describedby) and shows the computed totals as placeholders.
(function () {
  "use strict";
  function apply() {
    var form = document.getElementById("sheet-form");
    var report = document.getElementById("report");
    if (!form || !report) { return; }
    var marks = {};
    // A note (data-severity="info") is listed, not marked on its input.
    report.querySelectorAll('[data-field]:not([data-severity="info"])').forEach(function (el) {
      var f = el.getAttribute("data-field");
      (marks[f] = marks[f] || []).push(el.id);
    });
    form.querySelectorAll("input[name], select[name]").forEach(function (input) {
      var ids = marks[input.name];
      if (ids) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", ids.join(" "));
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    });
    form.querySelectorAll(".field-error").forEach(function (el) { el.remove(); });
    report.querySelectorAll("[data-placeholder-for]").forEach(function (el) {
      var input = form.querySelector('[name="' + el.getAttribute("data-placeholder-for") + '"]');
      if (input) { input.setAttribute("placeholder", el.getAttribute("data-value")); }
    });
  }
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.target && e.target.id === "report") { apply(); }
  });
})();
