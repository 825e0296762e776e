// Dump Truck: the first tap on a cell of the truck chooses where the high half goes and
// lights the cells its low half may take (data-pairs, "r,c>r,c", computed by the
// server); the second tap loads. Without JavaScript the first tap asks the server.
// Loaded by the Dump Truck screen, after says.js.
(function () {
  function markCells(form) {
    var first = form.dataset.first || "";
    var pairs = (form.dataset.pairs || "").split(" ");
    var grid = form.querySelector(".truck-grid");
    grid.classList.toggle("chosen", !!first);
    form.querySelectorAll(".cell-button[data-cell]").forEach(function (cell) {
      var key = cell.dataset.cell;
      cell.classList.toggle("chosen", key === first);
      cell.classList.toggle("partner", !!first && pairs.indexOf(first + ">" + key) !== -1);
      cell.textContent = key === first ? form.dataset.high : "";
    });
    var hint = form.querySelector("#load-hint");
    if (hint && first) hint.textContent = boneyardSays("sayLow", { low: form.dataset.low });
  }
  // With this script the first tap stays on the phone: the cell buttons stop being the
  // form's submitters (htmx would otherwise send the form as the no-script GET).
  function takeCells(root) {
    root.querySelectorAll(".cell-button[data-cell]").forEach(function (cell) {
      cell.type = "button";
      cell.removeAttribute("name");
      cell.removeAttribute("formmethod");
      cell.removeAttribute("formaction");
    });
  }
  document.addEventListener("DOMContentLoaded", function () { takeCells(document); });
  document.addEventListener("htmx:afterSettle", function () { takeCells(document); });
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest(".cell-button[data-cell]");
    if (!cell) return;
    event.preventDefault();
    event.stopPropagation();
    var form = cell.form;
    var first = form.dataset.first || "";
    var key = cell.dataset.cell;
    if (first && key !== first && (form.dataset.pairs || "").split(" ").indexOf(first + ">" + key) !== -1) {
      form.querySelector('input[name="cells"]').value = first + ";" + key;
      form.dataset.first = "";
      form.requestSubmit(form.querySelector(".cells-submit"));
      return;
    }
    form.dataset.first = key === first ? "" : key;
    markCells(form);
  }, true);
})();
