// rebelote counter: the small things htmx does not do.
// The defense's points shown as the takers' are typed (the deal's total comes from the server,
// per trump mode, in the form's data-totals).
(function () {
  "use strict";
  function updateRest(form) {
    if (!form || !form.matches("#deal-form")) return;
    var out = form.querySelector("#rest");
    var input = form.querySelector("#points");
    if (!out || !input) return;
    var totals = JSON.parse(form.dataset.totals || "{}");
    var trump = form.querySelector("input[name=trump]:checked");
    var total = totals[trump ? trump.value : "hearts"] || 162;
    var v = parseInt(input.value, 10);
    if (isNaN(v) || input.value.trim() === "") { out.textContent = ""; out.classList.remove("bad"); return; }
    var rest = total - v;
    out.textContent = (out.dataset.label || "") + " " + (rest >= 0 ? rest : "?") + " / " + total;
    out.classList.toggle("bad", rest < 0);
  }
  document.addEventListener("input", function (e) { updateRest(e.target.form); });
  document.addEventListener("change", function (e) { updateRest(e.target.form); });
  document.addEventListener("htmx:afterSettle", function () { updateRest(document.querySelector("#deal-form")); });
  document.addEventListener("DOMContentLoaded", function () { updateRest(document.querySelector("#deal-form")); });
})();
