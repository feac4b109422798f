// The table page's "N regardent" line (issue 34, item 5): a push of the seat's socket whose
// number of watchers differs from the line's fetches the line again (no move: no new version).
(function () {
  "use strict";
  if (window.rebeloteWatchers) return;
  var loading = false;
  window.rebeloteWatchers = function (id, msg) {
    var line = document.getElementById("watchers-count");
    if (!line || !msg.watch || loading || line.dataset.n === String(msg.watch.watchers)) return;
    loading = true;
    fetch("/tables/" + id + "/watchers", {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var now = document.getElementById("watchers-count");
        if (html && now) now.outerHTML = html;
      })
      .catch(function () {})
      .finally(function () { loading = false; });
  };
})();
