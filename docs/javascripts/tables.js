// A wide table scrolls sideways in its wrapper: the wrapper takes the keyboard's focus (and is
// named as a region), so that it scrolls without a mouse too (WCAG 2.1.1).
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "table");
  });
});
