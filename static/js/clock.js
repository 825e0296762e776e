// Dominó's time limit (parejas.time) on the score strip: the minutes left until the deadline
// the server wrote in data-ends, counted down on this phone, and the time the limit falls in
// the phone's own time zone. Without this script the strip shows when the limit falls (the
// server's time). Loaded by the table screen of a match with a time limit only.
(function () {
  function tick() {
    document.querySelectorAll(".clock [data-ends]").forEach(function (left) {
      var ms = Date.parse(left.dataset.ends) - Date.now();
      var up = !(ms > 0);
      left.textContent = up ? left.dataset.up : left.dataset.left.replace("{n}", Math.ceil(ms / 60000));
      left.closest(".clock").classList.toggle("up", up);
    });
    document.querySelectorAll(".clock time[data-local]").forEach(function (at) {
      var when = new Date(at.getAttribute("datetime"));
      if (!isNaN(when)) {
        at.textContent = when.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
        delete at.dataset.local;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick); // a new table from a tap or a poll
  setInterval(tick, 5000);
})();
