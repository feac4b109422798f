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

// The live sheet: the page follows the game's server-sent events (its data-live URL) and reloads
// its fragment (data-refresh) when the version changes. A deal being typed is never lost: while
// the deal form holds typed values, only the board and the sheet are replaced.
(function () {
  "use strict";
  var source = null;
  function dirty(form) {
    if (!form) return false;
    var fields = form.querySelectorAll("input[type=text], input:not([type]), input[inputmode]");
    for (var i = 0; i < fields.length; i++) if (fields[i].value.trim() !== "") return true;
    return false;
  }
  function refresh(game, version) {
    if (String(version) === game.dataset.version) return;
    fetch(game.dataset.refresh, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("#game");
        var current = document.querySelector("#game");
        if (!fresh || !current) return;
        // this page's own write may have shown this version meanwhile (with its way back,
        // "put deal 3 back"): nothing to replace
        if (fresh.dataset.version === current.dataset.version) return;
        var form = current.querySelector("#deal-form");
        if (dirty(form) || (document.activeElement && form && form.contains(document.activeElement))) {
          ["section.board", "section.sheet"].forEach(function (sel) {
            var a = current.querySelector(sel), b = fresh.querySelector(sel);
            if (a && b) a.replaceWith(b);
          });
          current.dataset.version = fresh.dataset.version;
          current.querySelectorAll("input[name=version]").forEach(function (v) { v.value = fresh.dataset.version; });
          if (window.htmx) htmx.process(current);
        } else {
          current.replaceWith(fresh);
          if (window.htmx) htmx.process(fresh);
        }
      });
  }
  function follow() {
    var game = document.querySelector("#game[data-live]");
    if (!game || !window.EventSource) return;
    if (source && source.url.endsWith(game.dataset.live)) return;
    if (source) source.close();
    source = new EventSource(game.dataset.live);
    source.addEventListener("update", function (e) {
      var current = document.querySelector("#game[data-live]");
      if (current) refresh(current, e.data);
    });
  }
  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("htmx:afterSettle", follow);
})();

// Declarations as buttons: each tap adds its value to the team's sum (still typeable); ✕ clears.
// An error shown next to a field is scrolled into view and its field focused.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest(".decl-row button") : null;
    if (!button) return;
    var box = button.closest(".decl-row").querySelector(".decl-sum");
    if (button.dataset.clear) {
      box.value = "";
    } else {
      var v = parseInt(box.value, 10);
      box.value = String((isNaN(v) ? 0 : v) + parseInt(button.dataset.add, 10));
    }
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
  function showError() {
    var error = document.querySelector("#error");
    if (!error) return;
    error.scrollIntoView({ block: "center" });
    var field = error.previousElementSibling;
    var input = field && field.querySelector ? field.querySelector("input:not([type=hidden]), select") : null;
    if (input && input.type !== "radio") input.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:afterSettle", showError);
  document.addEventListener("DOMContentLoaded", showError);
})();

// "Edit this deal" opens its form at the top of the page: the view goes to it (below the sticky
// top bar) and the focus to its title, where the view stayed at the sheet before. This is done
// when htmx's swap settles (20 ms later, or more on a busy machine): a field of the form the
// player is already in keeps the focus (what was typed in it after the move was lost).
(function () {
  "use strict";
  var asked = false;
  document.addEventListener("htmx:beforeRequest", function (e) {
    asked = !!(e.target && e.target.closest && e.target.closest("button.edit"));
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!asked) return;
    asked = false;
    var form = document.querySelector("#deal-form.editing");
    var title = form ? form.querySelector("h2") : null;
    if (!title || form.contains(document.activeElement)) return;
    title.setAttribute("tabindex", "-1");
    form.scrollIntoView({ block: "start" });
    title.focus({ preventScroll: true });
  });
})();
