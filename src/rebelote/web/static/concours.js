// The concours's pages.
// - A form or a button with data-confirm asks before it is sent (withdraw a team, forget a
//   result, draw again, cancel a draw), in the page's language; the page offers a way back.
// - The organiser's page (data-live) asks every few seconds whether the concours changed (a
//   table's phone sent its result): 204 when not, else the page's new content, put in place
//   unless the organiser is typing in one of its fields.
// - The room screen on a projector: when the draw and the ranking are taller than the screen,
//   they scroll by themselves, down to the end, a pause, then back to the top (a screen at a
//   time when the viewer prefers reduced motion). No input is needed: nobody stands at it.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var button = e.submitter;
    var ask = (button && button.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
    if (ask && !window.confirm(ask)) { e.preventDefault(); }
  });

  var LIVE_EVERY = 4000;
  function busy(main) {
    var active = document.activeElement;
    if (active && main.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) {
      return true;
    }
    var fields = main.querySelectorAll("input:not([type=hidden]), textarea");
    for (var i = 0; i < fields.length; i += 1) {
      var f = fields[i];
      if (f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }
  function poll() {
    var main = document.querySelector("main[data-live]");
    if (!main) { return; }
    if (busy(main)) { window.setTimeout(poll, LIVE_EVERY); return; }
    fetch(main.getAttribute("data-live"), { credentials: "same-origin",
                                            headers: { "Accept": "text/html" } })
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        if (html && !busy(main)) {
          var open = {};
          main.querySelectorAll("details[id], section[id] > details").forEach(function (d) {
            var key = d.id || d.parentNode.id;
            open[key] = d.open;
          });
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.querySelector("main[data-live]");
          if (fresh) {
            fresh.querySelectorAll("details[id], section[id] > details").forEach(function (d) {
              var key = d.id || d.parentNode.id;
              if (key in open) { d.open = open[key]; }
            });
            main.replaceWith(fresh);
          }
        }
      })
      .catch(function () { return null; })
      .then(function () { window.setTimeout(poll, LIVE_EVERY); });
  }
  if (document.querySelector("main[data-live]")) { window.setTimeout(poll, LIVE_EVERY); }

  if (!document.body.classList.contains("room-body")) { return; }
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var pause = 0;
  function bottom() {
    return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
  }
  function step() {
    if (document.documentElement.scrollHeight <= window.innerHeight + 2) { return; }
    if (pause > 0) { pause -= 1; return; }
    if (bottom()) { window.scrollTo(0, 0); pause = reduced ? 1 : 60; return; }
    if (reduced) { window.scrollBy(0, Math.round(window.innerHeight * 0.9)); pause = 1; }
    else { window.scrollBy(0, 2); if (bottom()) { pause = 60; } }
  }
  window.setInterval(step, reduced ? 8000 : 80);
})();
