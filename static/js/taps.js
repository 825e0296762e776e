// This phone's taps on their way, and a tap half made: what holds back every other redraw of
// the screen (table.js: the polls' answers; live.js: the pushes), and where a tap's answer
// lands. Loaded before both, by every screen that follows a table or an event.
//
// htmx swaps an answer into the element it targeted when the request left: had the table been
// drawn again meanwhile, the tap's answer went nowhere, and the phone never said "Recorded" and
// kept a view of the turn from before the tap (seen under load, a poll answered after the tap
// was recorded arriving before the tap's answer). So nothing else redraws the table while a tap
// is on its way, and the answer lands on what is on screen (below). Counted on the request
// itself: htmx says a request ended on the element that sent it, which the document no longer
// hears once that element has left the page. A tap that hangs (a connection dropped without a
// word) holds nothing back for long: after HOLD_MS the table is drawn again as before, and the
// tap's answer, if it ever comes, still lands.
(function () {
  var HOLD_MS = 10000;
  var sending = []; // when each tap on its way left

  function tapping() {
    var now = Date.now();
    return sending.some(function (left) { return now - left < HOLD_MS; });
  }
  // A tap half made that a new table would wipe out (Dump Truck: a first cell chosen, an
  // unload being checked); the tap itself brings the fresh table.
  function halfTapped() {
    var load = document.getElementById("load-form");
    var unload = document.getElementById("unload");
    return !!((load && load.dataset.first) || (unload && unload.open));
  }

  // A tap's answer lands on the part it targeted as it is on screen now (the table, an event's
  // board), whichever that is: drawn again since the tap left (two taps on their way, a push
  // on a slow network), the one it left from is no longer in the page, and an answer swapped
  // into it would be lost. Retargeted when the answer is in, before htmx's onload swaps it
  // (htmx swaps into its request's own detail.target). Unless the part on screen is newer than
  // the answer (two taps answered out of order), or another view of it (below): it stays.
  document.addEventListener("htmx:beforeSend", function (event) {
    var detail = event.detail;
    var config = detail.requestConfig;
    var xhr = detail.xhr;
    if (!config || config.verb !== "post" || !xhr) return;
    var left = Date.now();
    var away = false; // the element that sent the tap had left the page when its answer came
    var view = location.href; // the view of the table the tap was made on (Dump Truck's seat)
    sending.push(left);
    xhr.addEventListener("readystatechange", function () { // heard before htmx's onload
      if (xhr.readyState !== 4) return;
      away = !!config.elt && !document.body.contains(config.elt);
      var target = detail.target;
      var now = target && target.id && !document.body.contains(target) && document.getElementById(target.id);
      if (now) {
        detail.target = now;
        var version = xhr.getResponseHeader("X-Table-Version");
        detail.superseded = version !== null && now.dataset.version !== undefined &&
          Number(version) < Number(now.dataset.version);
        // The player has since chosen another view (Dump Truck: another seat's truck): the
        // answer, drawn for the view the tap was made on, would take them back to it. The
        // view chosen stays; its next look (the poll, the push held for the tap) brings the
        // tap's version to it.
        if (location.href !== view) detail.superseded = true;
      }
      if (away) triggered(xhr);
    });
    xhr.addEventListener("loadend", function () { // after htmx has swapped its answer in
      sending.splice(sending.indexOf(left), 1);
      if (away) ended(xhr, detail);
      document.dispatchEvent(new CustomEvent("boneyard:tapped"));
    });
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.superseded) event.detail.shouldSwap = false;
  });

  // How a tap ended htmx says on the element that sent it, or on the nearest of its parents
  // still in the page; when the whole part it was in had been drawn again, nobody hears it
  // (table.js: a tap that never arrived is sent again, the banner cleared, a 404 shuts the
  // phone out), so it is said to the page.
  function ended(xhr, detail) {
    if (!xhr.status) {
      htmx.trigger(document.body, "htmx:sendError", detail);
      return;
    }
    if (xhr.status >= 400) htmx.trigger(document.body, "htmx:responseError", detail);
    htmx.trigger(document.body, "htmx:afterRequest", detail);
  }

  // What the answer asks the page to hear (HX-Trigger: a refusal's notice) htmx fires on the
  // element that sent the tap; one that has left the page is heard by nobody, so it is said
  // to the page here, as htmx says it (a name the value sends elsewhere, htmx sends there).
  function triggered(xhr) {
    var raw = xhr.getResponseHeader("HX-Trigger");
    if (!raw) return;
    var asked;
    try {
      asked = JSON.parse(raw);
    } catch (e) { // a list of bare names
      asked = {};
      raw.split(",").forEach(function (name) { if (name.trim()) asked[name.trim()] = []; });
    }
    Object.keys(asked).forEach(function (name) {
      var said = asked[name];
      var plain = Object.prototype.toString.call(said) === "[object Object]";
      if (plain && said.target) return;
      htmx.trigger(document.body, name, plain ? said : { value: said });
    });
  }

  window.boneyardTaps = { HOLD_MS: HOLD_MS, tapping: tapping, halfTapped: halfTapped };
})();
