// The room screen on a projector: when the draw and the ranking are taller than the screen,
// they scroll by themselves, down to the end, a pause, then back to the top (a screen at a
// time when the viewer prefers reduced motion). No input is needed: nobody stands at it.
(function () {
  "use strict";
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
