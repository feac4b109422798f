// The watcher's page follows its table through the read-only socket: each frame reloads the
// view's fragment (the page is rendered by the server from the same watch view).
(function () {
  "use strict";
  var main = document.getElementById("watch");
  if (!main || !window.WebSocket) return;
  var key = main.dataset.key || "";
  var scheme = location.protocol === "https:" ? "wss://" : "ws://";
  var ws = new WebSocket(scheme + location.host + "/api/tables/" + main.dataset.id +
                         "/watch/ws?key=" + encodeURIComponent(key));
  ws.onmessage = function (event) {
    var v = JSON.parse(event.data);
    if (v.error || String(v.version) === main.dataset.version) return;
    main.dataset.version = String(v.version);
    fetch(location.pathname + "?fragment=1&key=" + encodeURIComponent(key)).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      var view = document.getElementById("watch-view");
      if (html && view) view.outerHTML = html;
    });
  };
})();
