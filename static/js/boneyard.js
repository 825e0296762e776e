// The tile picker's first tap: light the ends the tapped tile fits, so the second
// tap plays it. Which ends fit is computed by the server (data-fits); this file
// only shows it. Without JavaScript every end stays tappable and the referee
// explains a wrong one.
(function () {
  function refresh(root) {
    var form = root.querySelector("#play-form");
    if (!form) return;
    var chosen = form.querySelector('input[name="tile"]:checked');
    var fits = chosen ? chosen.dataset.fits.split(" ").filter(Boolean) : null;
    form.querySelectorAll(".end-button").forEach(function (button) {
      var ok = fits !== null && fits.indexOf(button.dataset.end) !== -1;
      button.disabled = !ok;
      button.classList.toggle("fits", ok);
    });
    root.querySelectorAll(".end-marker").forEach(function (mark) {
      var ok = fits !== null && fits.indexOf(mark.dataset.end) !== -1;
      mark.classList.toggle("fits", ok);
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "tile") refresh(document);
  });
  // Tapping a lit marker on the drawing plays there too.
  document.addEventListener("click", function (event) {
    var mark = event.target.closest && event.target.closest(".end-marker.fits");
    if (!mark) return;
    var button = document.querySelector('.end-button[data-end="' + mark.dataset.end + '"]');
    if (button) button.click();
  });
  // New match: open only the chosen game's house rules.
  document.addEventListener("change", function (event) {
    if (event.target.name !== "game") return;
    document.querySelectorAll("details.house-rules").forEach(function (d) {
      d.open = d.dataset.game === event.target.value;
      d.hidden = !d.open;
    });
  });
  document.addEventListener("DOMContentLoaded", function () { refresh(document); });
  document.addEventListener("htmx:afterSettle", function () { refresh(document); });
})();
