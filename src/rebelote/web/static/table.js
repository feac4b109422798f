// rebelote table: live updates. A WebSocket says when the table changed; the page then fetches
// its fragment (the seat's view, rendered by the server). If the socket drops, the page polls.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var id = root.dataset.id;
  var version = parseInt(root.dataset.version, 10) || 0;
  var status = document.getElementById("live-status");
  var live = document.getElementById("live");
  // the live region stays in place (a region swapped in with the table is not announced):
  // after every update it says each call and card it has not said yet (the fragment's
  // #events, keyed), so a move the bots answered at once is said in full; when the page
  // loads, the latest one only
  var said = null;
  function announce() {
    var latest = root.querySelector("#announce");
    var err = root.querySelector("#refused");
    var items = root.querySelectorAll("#events li");
    var fresh = [];
    var first = said === null;
    if (first) said = {};
    for (var i = 0; i < items.length; i++) {
      var key = items[i].dataset.key;
      if (!said[key]) {
        said[key] = true;
        if (!first) fresh.push(items[i].textContent);
      }
    }
    if (first && latest) fresh.push(latest.textContent);
    if (live && (fresh.length || err)) {
      live.textContent = (err ? err.textContent + " " : "") + fresh.join(" ");
    }
  }
  var socket = null, pollTimer = null, backoff = 1000, loading = false, again = false;

  // The shuffle checked by this browser: it keeps each deal's commitment as first shown, and
  // when the deal's seed and salt are revealed it hashes them itself (SHA-256 of "seed:salt")
  // and compares with what it was shown before the deal.
  function commitKey(deal) { return "rebelote.commit." + id + "." + deal; }
  function store() { try { return window.localStorage; } catch (e) { return null; } }
  function remember() {
    var c = root.querySelector(".commit[data-commitment]"), s = store();
    if (c && s && !s.getItem(commitKey(c.dataset.deal))) {
      s.setItem(commitKey(c.dataset.deal), c.dataset.commitment);
    }
  }
  function checkShuffle() {
    var el = root.querySelector("#browser-check");
    if (!el || el.dataset.done) return;
    el.dataset.done = "1";
    if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
      el.textContent = el.dataset.nocrypto;
      return;
    }
    var data = new TextEncoder().encode(el.dataset.seed + ":" + el.dataset.salt);
    window.crypto.subtle.digest("SHA-256", data).then(function (buf) {
      var hex = Array.prototype.map.call(new Uint8Array(buf), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      var s = store(), seen = s ? s.getItem(commitKey(el.dataset.deal)) : null;
      el.dataset.computed = hex;
      if (hex !== el.dataset.commitment || (seen && seen !== hex)) {
        el.textContent = el.dataset.other;
        el.classList.add("error");
      } else {
        el.textContent = seen ? el.dataset.same : el.dataset.unseen;
      }
    });
  }
  function shown() { remember(); checkShuffle(); goOnLater(); }

  function currentVersion() {
    var inner = root.querySelector(".tbl");
    return inner ? parseInt(inner.dataset.version, 10) || version : version;
  }
  // the first control of a move when it is this seat's turn: a legal card, or the auction's
  // (the contract's value, else its first call); between two deals, "Next deal". Whose turn it
  // is is read from .tbl's data-turn, not from #seat-S's class: htmx gives an element with an
  // id its old class until its swap settles (20 ms or more later), so right after "Next deal"
  // was answered with this seat's turn #seat-S did not say it yet and the focus stayed on the
  // page.
  function firstMove() {
    var next = root.querySelector("#next-deal");
    if (next) return next;
    var tbl = root.querySelector(".tbl");
    if (!tbl || tbl.dataset.turn !== "S") return null;
    return root.querySelector(".cards .pc.legal, .bids select, .bids button:not(.step)");
  }
  // Where the focus goes once the table's content was replaced (by a live update or by an
  // action's answer), from the element focused just before: focus elsewhere on the page (a
  // link, a field being typed in) is left alone; a control of the table still there (the same
  // card, the same id) and usable keeps it; else, at the seat's turn, it comes to the first
  // move, scrolled into view.
  function focusAfterSwap(was) {
    if (was && was !== document.body && !root.contains(was) && document.body.contains(was)) {
      return;
    }
    var now = document.activeElement;
    if (now && now !== document.body && root.contains(now) && !now.disabled) return;
    var key = was && was !== document.body && was.dataset ? was.dataset.card || was.id : "";
    var el = !key ? null : was.dataset.card
      ? root.querySelector('[data-card="' + key + '"]') : document.getElementById(key);
    if (el && root.contains(el) && !el.disabled) {
      el.focus();
      return;
    }
    var first = firstMove();
    if (first) first.focus();
  }
  // a confirmation's "Cancel": its disclosure closes, the focus back on what opened it
  document.addEventListener("click", function (e) {
    var close = e.target.closest ? e.target.closest("[data-close]") : null;
    var box = close ? close.closest("details") : null;
    if (!box) return;
    box.open = false;
    var summary = box.querySelector("summary");
    if (summary) summary.focus();
  });
  // the contract's stepper: − and + move the value's select one step down or up
  root.addEventListener("click", function (e) {
    var step = e.target.closest ? e.target.closest(".step") : null;
    if (!step) return;
    var select = document.getElementById(step.getAttribute("aria-controls"));
    if (!select) return;
    var i = select.selectedIndex + parseInt(step.dataset.step, 10);
    if (i >= 0 && i < select.options.length) {
      select.selectedIndex = i;
      select.dispatchEvent(new Event("change", {bubbles: true}));
    }
  });
  // a player who chose to go on by itself after a few seconds: "Next deal" is pressed then
  // (each update that still shows it starts the wait again)
  var nextTimer = null;
  function goOnLater() {
    if (nextTimer) { clearTimeout(nextTimer); nextTimer = null; }
    var next = root.querySelector("#next-deal[data-after]");
    if (!next) return;
    nextTimer = setTimeout(function () {
      nextTimer = null;
      if (document.body.contains(next)) next.click();
    }, parseInt(next.dataset.after, 10) || 5000);
  }
  function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    fetch("/tables/" + id + "/fragment?since=" + currentVersion(), {credentials: "same-origin"})
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        var m = html !== null ? /data-version="(\d+)"/.exec(html) : null;
        // an answer that crossed a newer one (an action's own answer) is dropped
        if (m && parseInt(m[1], 10) > currentVersion()) {
          // the focus as it is now, not as it was when the fetch left (an action's answer
          // may have been swapped in meanwhile)
          var was = document.activeElement;
          root.innerHTML = html;
          if (window.htmx) window.htmx.process(root);
          announce();
          shown();
          focusAfterSwap(was);
        }
      })
      .catch(function () {})
      .finally(function () { loading = false; if (again) { again = false; refresh(); } });
  }
  function poll() {
    if (pollTimer) return;
    pollTimer = setInterval(refresh, 2000);
  }
  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(proto + location.host + "/api/tables/" + id + "/ws"); }
    catch (e) { poll(); return; }
    socket.onopen = function () {
      backoff = 1000;
      if (status) status.hidden = true;
      if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    };
    socket.onmessage = function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.version && msg.version > currentVersion()) refresh();
      else if (window.rebeloteWatchers) window.rebeloteWatchers(id, msg);  // watch.js's count
    };
    socket.onclose = function () {
      if (status) status.hidden = false;
      poll();
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    };
  }
  // the element focused when an action's answer is swapped in (htmx puts the focus back on an
  // element of the same id itself, before htmx:afterSwap)
  var focusedBeforeSwap = null;
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    // an action's answer older than what a live update already shows is not swapped in
    var m = /data-version="(\d+)"/.exec(e.detail.serverResponse || "");
    if (m && e.detail.target === root && parseInt(m[1], 10) < currentVersion()) {
      e.detail.shouldSwap = false;
    }
    focusedBeforeSwap = document.activeElement;
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target !== root) return;
    // htmx takes over the forms it swapped in only when the swap settles (20 ms later, or
    // more on a busy machine): a key pressed meanwhile on the card focused below would post
    // its form without htmx, a whole page load. They are made htmx's at once.
    if (window.htmx) window.htmx.process(root);
    announce();
    shown();
    focusAfterSwap(focusedBeforeSwap);
    focusedBeforeSwap = null;
  });
  // a page loaded by a form posted without htmx (pressed before the scripts ran) says the
  // latest call or card too; when the page loads at this seat's turn, the focus is on its
  // first move already (it came only with the next update before)
  announce();
  shown();
  var first = firstMove();
  if (first && (!document.activeElement || document.activeElement === document.body)) {
    first.focus();
  }
  connect();
})();
