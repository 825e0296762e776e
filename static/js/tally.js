// A tally: a tile ticked for one seat is greyed in the others' pickers (each tile is in one
// hand only), so the next hand is tapped from what is left.
// Loaded by the screens with a tally or a score pad.
function shareTiles(root) {
  root.querySelectorAll("form.tally").forEach(function (form) {
    var boxes = form.querySelectorAll('input[type="checkbox"][name^="hand-"]');
    var held = {};
    boxes.forEach(function (box) { if (box.checked) held[box.value] = box.name; });
    boxes.forEach(function (box) {
      var elsewhere = !box.checked && box.value in held && held[box.value] !== box.name;
      box.disabled = elsewhere;
      box.closest("label").classList.toggle("taken", elsewhere);
    });
  });
}
document.addEventListener("DOMContentLoaded", function () { shareTiles(document); });
document.addEventListener("htmx:afterSettle", function () { shareTiles(document); });
// A tally: the pips of the tiles ticked for a seat, summed as they are tapped.
document.addEventListener("change", function (event) {
  var seat = event.target.closest && event.target.closest(".tally-seat");
  var sum = seat && seat.querySelector(".pip-sum output");
  if (seat && event.target.type === "checkbox") shareTiles(document);
  if (!sum || event.target.type !== "checkbox") return;
  var total = 0;
  // A tile's own count where the server gives one (the train games' 0-0: double_blank);
  // "played out" boxes carry no tile and count nothing.
  seat.querySelectorAll('input[type="checkbox"][name^="hand-"]:checked').forEach(function (box) {
    if (box.dataset.pips) { total += parseInt(box.dataset.pips, 10) || 0; return; }
    box.value.split("-").forEach(function (half) { total += parseInt(half, 10) || 0; });
  });
  sum.textContent = String(total);
});
