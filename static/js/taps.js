// This phone's taps on their way, and a tap half made: what holds back every other redraw of
// the table (table.js: the polls' answers; live.js: the pushes). Loaded before both.
//
// htmx swaps an answer into the element it targeted when the request left: had the table been
// drawn again meanwhile, the tap's answer went nowhere, and the phone never said "Recorded" and
// kept a view of the turn from before the tap (seen under load, a poll answered after the tap
// was recorded arriving before the tap's answer). So nothing else redraws the table while a tap
// is on its way. Counted on the request itself: htmx says a request ended on the element that
// sent it, which the document no longer hears once that element has left the page. A tap that
// hangs (a connection dropped without a word) holds nothing back for long: after HOLD_MS the
// table is drawn again as before, and the tap's answer, if it ever comes, still lands (table.js).
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

  document.addEventListener("htmx:beforeSend", function (event) {
    var config = event.detail.requestConfig;
    var xhr = event.detail.xhr;
    if (!config || config.verb !== "post" || !xhr) return;
    var left = Date.now();
    sending.push(left);
    xhr.addEventListener("loadend", function () { // after htmx has swapped its answer in
      sending.splice(sending.indexOf(left), 1);
      document.dispatchEvent(new CustomEvent("boneyard:tapped"));
    });
  });

  window.boneyardTaps = { HOLD_MS: HOLD_MS, tapping: tapping, halfTapped: halfTapped };
})();
