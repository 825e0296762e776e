// What every table screen does, whatever the game: a tap that never reached the server is
// sent again, the connection's state said in the banner, a poll that is older than the
// table on screen dropped, the player's view kept when another phone's tap redraws the
// table, and the screen kept awake. Loaded by the table screens, after says.js.
(function () {
  // A tap whose request never reached the server (or whose answer never came back) is
  // sent again, as it was: its form's key makes a second arrival record nothing twice.
  var retries = 0;
  var RETRY_LIMIT = 6;
  var waitingFor = null; // "tap" while a tap is being sent again, "poll" when polls fail
  function banner(text, kind) {
    var box = document.getElementById("connection");
    if (!box || waitingFor === "gone") return;  // a phone shut out stays told so
    box.textContent = text || "";
    box.hidden = !text;
    waitingFor = text ? kind : null;
  }
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post") {
      if (waitingFor !== "tap") banner(boneyardSays("sayLost"), "poll");
      return;
    }
    if (retries >= RETRY_LIMIT) {
      retries = 0;
      banner(boneyardSays("sayUnsent"), "tap");
      return;
    }
    retries += 1;
    banner(boneyardSays("sayRetry", { "try": retries, limit: RETRY_LIMIT }), "tap");
    var values = {};
    config.formData.forEach(function (value, name) {
      if (name in values) values[name] = [].concat(values[name], value);
      else values[name] = value;
    });
    setTimeout(function () {
      // The button tapped may be gone by now: the tap did reach the server, and another
      // phone's push or this phone's stream redrew the table. htmx sends nothing for an
      // element out of the page, which left this banner up for good; the table sends it.
      var source = document.body.contains(config.elt) ? config.elt : document.getElementById("table");
      htmx.ajax("POST", config.path, {
        source: source, target: "#table", swap: "outerHTML", values: values,
      });
    }, 500 * retries);
  });
  // New links were made, or the match is gone: say so rather than freeze in silence, and
  // for good. The page stays in view, greyed, and nothing on it can be tapped: a tap could
  // only be refused, and would look as if the table were live again.
  // A poll's first 404 is asked again (the next poll, 2 s later) before the phone is shut
  // out: the keeper who taps New links may have a poll in flight that the server read with
  // the links as they were, and the phone that made the new links must not lock itself out.
  var pollMissed = false;
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "poll" && event.detail.successful) {
      pollMissed = false;
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var fromPoll = event.detail.elt && event.detail.elt.id === "poll";
    if (fromPoll && event.detail.xhr && event.detail.xhr.status === 404 && !pollMissed) {
      pollMissed = true;
      return;
    }
    if (event.detail.xhr && event.detail.xhr.status === 404) {
      banner(boneyardSays("sayGone"), "gone");
      var poll = document.getElementById("poll");
      if (poll) poll.remove();
      var main = document.querySelector("main");
      if (main) main.inert = true;
      document.body.classList.add("shut-out");
    }
  });
  // An answer clears the banner it concerns: a poll's answer says nothing about a tap that
  // is still waiting to be sent again.
  // With DEBUG on, django-htmx's debug helper puts any 400, 403 or 404 answer over the
  // whole page (to show Django's error page). Boneyard's are answers for the table: a
  // refusal swapped in place, a watcher's notice, a link that no longer works (below). Caught
  // on the way down, before the helper's listener on the document hears of them; a 500
  // still reaches it.
  window.addEventListener("htmx:beforeOnLoad", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status === 400 || status === 403 || status === 404) event.stopPropagation();
  }, true);
  // A tap the server refused before reading it (text that is not text, a form too large):
  // nothing is swapped, the table stays as it was, and the notice says why.
  document.addEventListener("boneyard:refused", function (event) {
    banner(event.detail.message, "refused");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (waitingFor === "refused" && config && config.verb === "post") banner("");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!event.detail.xhr || !event.detail.xhr.status || !config) return;
    if (waitingFor === "refused") return; // the refusal's notice stays until the next tap
    if (config.verb === "post") {
      retries = 0;
      banner("");
    } else if (waitingFor === "poll") {
      banner("");
    }
  });
  // This phone's taps on their way, and where their answers land (taps.js); were it not
  // loaded (a connection dropped mid-page), the polls are held back by nothing, as before.
  var taps = window.boneyardTaps || {
    tapping: function () { return false; },
    halfTapped: function () { return false; },
  };
  // A poll answer no newer than the table on screen is dropped: it may have left before
  // this phone's own tap, and swapping it in would clear the tile just tapped. Nor is one
  // swapped while a tap is on its way: the tap's answer is the fresh table (anything newer
  // comes with the next poll).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.elt || config.elt.id !== "poll") return;
    var table = document.getElementById("table");
    var fresh = Number(event.detail.xhr.getResponseHeader("X-Table-Version"));
    if (table && fresh <= Number(table.dataset.version)) event.detail.shouldSwap = false;
    // Nor while a tap is on its way, or half made (taps.js).
    if (taps.tapping() || taps.halfTapped()) event.detail.shouldSwap = false;
  });
  // A table drawn again keeps the player's view: the part of the table at the middle of the
  // screen (one of its blocks, known by its tag, id and classes) is where it was, whatever
  // grew or shrank above it (another phone's play, the line said back). After this phone's
  // own tap the server asks htmx to show the turn's top instead (views.SHOW_THE_TURN).
  function blockKey(block) {  // htmx's own classes (htmx-added...) come and go in a swap
    var classes = Array.prototype.filter.call(block.classList, function (c) { return c.indexOf("htmx-") !== 0; });
    return block.tagName + "#" + block.id + "." + classes.join(".");
  }
  function sameBlocks(table, key) {
    return Array.prototype.filter.call(table.children, function (b) { return blockKey(b) === key; });
  }
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = null;
    var table = event.detail.target;
    if (!event.detail.shouldSwap || !table || table.id !== "table") return;
    var strip = table.querySelector(".strip");
    var middle = ((strip ? strip.getBoundingClientRect().bottom : 0) + window.innerHeight) / 2;
    var nearest = Infinity;
    Array.prototype.forEach.call(table.children, function (block) {
      var box = block.getBoundingClientRect();
      if (!box.height) return;
      var away = box.top > middle ? box.top - middle : box.bottom < middle ? middle - box.bottom : 0;
      if (away < nearest) {
        var key = blockKey(block);
        nearest = away;
        kept = { key: key, nth: sameBlocks(table, key).indexOf(block), top: box.top };
      }
    });
  });
  function keepView(table) {
    var block = kept && table.id === "table" ? sameBlocks(table, kept.key)[kept.nth] : null;
    if (block) window.scrollBy(0, block.getBoundingClientRect().top - kept.top);
  }
  // At once, and again once the page's own scripts have settled the new table (the hints
  // they show change heights above).
  document.addEventListener("htmx:afterSwap", function (event) { keepView(event.target); });
  document.addEventListener("htmx:afterSettle", function (event) {
    keepView(event.target);
    kept = null;
  });
})();

// At the table for an hour: the screen stays awake while a match is open (released by the
// browser when the page is hidden, asked for again when it comes back).
(function () {
  var lock = null;
  function stayAwake() {
    if (!("wakeLock" in navigator) || !document.getElementById("table")) return;
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    navigator.wakeLock.request("screen").then(function (held) { lock = held; }, function () {});
  }
  document.addEventListener("DOMContentLoaded", stayAwake);
  document.addEventListener("visibilitychange", stayAwake);
})();
