// The live table (docs/live.md): one stream per open screen (Server-Sent Events), on which the
// server pushes the table as this phone would see it the moment a tap on any phone is recorded.
// While the stream is not held (opening, dropped, refused, or a server without it) the page asks
// every 2 s as it always has (#poll, htmx); so this file only ever saves requests and time.
// Loaded by the screens that follow a table: <script src="live.js" data-live="stream URL">; a
// screen whose parts have other ids names them (data-live-target, data-live-poll).
(function () {
  var script = document.currentScript;
  var url = script && script.dataset.live;
  if (!url || !window.EventSource || !window.htmx || !window.boneyardTaps) return;
  var TARGET = script.dataset.liveTarget || "table"; // what a push replaces; data-version on it
  var POLL = script.dataset.livePoll || "poll"; // what asks every 2 s (htmx), inside the target
  var FIRST_MS = 10000; // a stream that says nothing this long after opening is held up somewhere
  var QUIET_MS = 75000; // the server says "ping" every 30 s: this long without a word, it is dead
  var LIVE = "boneyard:live"; // marks the requests this file makes through the poll
  var source = null;
  var asked = ""; // the screen's own query the stream was opened with (Dump Truck's seat)
  var live = false; // the stream is heard: the timed polls are not sent
  var lost = false; // it was heard, then dropped
  var newest = -1; // the newest version announced
  var taps = window.boneyardTaps; // this phone's taps on their way and half made (taps.js)
  var watchdog = null;
  var again = null;
  var pause = 2000;

  function table() { return document.getElementById(TARGET); }
  function poll() { return document.getElementById(POLL); }
  function shown() {
    var t = table();
    return t && t.dataset.version ? Number(t.dataset.version) : -1;
  }
  // The poll's query as the table on screen renders it: its version and the screen's own state.
  function query() {
    var p = poll();
    var path = p ? p.getAttribute("hx-get") || "" : "";
    return path.indexOf("?") === -1 ? "" : path.slice(path.indexOf("?") + 1);
  }
  function own(q) { return q.split("&").filter(function (p) { return p.indexOf("version=") !== 0; }).join("&"); }

  function connect() {
    clearTimeout(again);
    stop();
    if (!poll()) return; // shut out, or nothing to follow
    asked = own(query());
    source = new EventSource(url + "?" + query());
    quiet(FIRST_MS);
    source.addEventListener("ready", heard);
    source.addEventListener("ping", heard);
    source.addEventListener("update", pushed);
    source.addEventListener("gone", gone);
    source.addEventListener("unavailable", function () { clearTimeout(again); stop(); });
    source.onerror = dropped;
  }
  function stop() {
    if (source) source.close();
    source = null;
    hearing(false);
    clearTimeout(watchdog);
  }
  // Said on <body data-live> too, for whoever looks (the browser tests).
  function hearing(on) {
    live = on;
    if (document.body) document.body.dataset.live = on ? "on" : "off";
  }
  function quiet(ms) {
    clearTimeout(watchdog);
    watchdog = setTimeout(later, ms);
  }
  function heard() {
    quiet(QUIET_MS);
    pause = 2000;
    if (live) return;
    hearing(true);
    // Back after a drop, during which a poll failed and the page said the connection is lost
    // (table.js): the stream heard says it is back, and brings what changed meanwhile.
    var banner = document.getElementById("connection");
    if (lost && banner && banner.textContent === document.body.dataset.sayLost) banner.hidden = true;
    lost = false;
  }
  // The browser reconnects by itself (with the last version it heard) unless it was refused.
  function dropped() {
    if (live) lost = true;
    hearing(false);
    if (!source || source.readyState === EventSource.CLOSED) later();
  }
  // Not held: the page polls, and the stream is tried again later, further apart each time.
  function later() {
    if (live) lost = true;
    stop();
    clearTimeout(again);
    again = setTimeout(connect, pause * (0.5 + Math.random()));
    pause = Math.min(pause * 2, 300000);
  }
  function pushed(event) {
    heard();
    var version = Number(event.lastEventId);
    newest = Math.max(newest, version);
    if (!(version > shown())) return; // this phone's own tap brought it already
    if (taps.tapping()) { setTimeout(catchUp, taps.HOLD_MS); return; } // its answer brings it, or this
    if (taps.halfTapped()) return; // the next look brings it
    var t = table();
    if (t) htmx.swap(t, event.data, { swapStyle: "outerHTML" });
  }
  // Shut out (new links): the poll's answer says so, as it always has.
  function gone() {
    stop();
    fetchTable();
  }
  // A version announced but not shown, once nothing holds it back.
  function catchUp() { if (newest > shown() && !taps.tapping() && !taps.halfTapped()) fetchTable(); }
  // The table through the poll, as a timed poll would bring it.
  function fetchTable() {
    var p = poll();
    if (!p) return;
    htmx.ajax("GET", p.getAttribute("hx-get"), {
      source: p, target: "#" + TARGET, swap: "outerHTML", event: new CustomEvent(LIVE),
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    var config = detail.requestConfig;
    if (!live || !detail.elt || detail.elt.id !== POLL) return;
    var why = config && config.triggeringEvent;
    if (!why || why.type !== LIVE) event.preventDefault(); // the stream brings it
  });
  document.addEventListener("boneyard:tapped", function () { catchUp(); }); // announced meanwhile
  document.addEventListener("htmx:afterSettle", function () {
    if (!poll()) { clearTimeout(again); stop(); return; } // shut out: nothing more to follow
    // The screen's own state moved (Dump Truck: another seat): the stream renders for it.
    if (source && own(query()) !== asked) connect();
    else catchUp();
  });
  // Back on screen (a phone's browser may have dropped the stream unseen while it slept):
  // a fresh stream, which brings whatever changed meanwhile.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { pause = 2000; connect(); }
  });
  connect();
})();
