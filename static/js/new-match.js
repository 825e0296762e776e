// New match: play in pairs. The switch shows only while the chosen game offers it (its radio
// says data-pairs) and exactly four names are filled in; hidden, it is disabled, so it is not
// sent. The teams and seats each partner choice makes are in the page already (the
// stylesheet shows the chosen one's): this writes the names typed into them. Without
// JavaScript the switch shows for every game that offers it and the server says what is
// missing.
// Loaded by the new-match page, after says.js.
function newMatchPairs() {
  var form = document.getElementById("new-match");
  var box = form && form.querySelector("#pairs");
  if (!box) return;
  var toggle = box.querySelector('input[name="partnerships"]');
  function update() {
    var names = [];
    form.querySelectorAll('input[name^="player-"]').forEach(function (field) {
      var name = field.value.trim();
      if (name) names.push(name);
    });
    var game = form.querySelector('input[name="game"]:checked');
    var offered = !!game && game.hasAttribute("data-pairs");
    // A refusal said beside the switch keeps it in sight until the form is sent again, and
    // so does a switch already on: a name cleared must not drop the pairs without a word.
    var shown = offered && (names.length === 4 || toggle.checked ||
                            !!box.querySelector(".pairs-error"));
    box.hidden = !shown;
    toggle.disabled = !shown;
    toggle.setCustomValidity(shown && toggle.checked && names.length !== 4
      ? boneyardSays("sayPairs") : "");
    if (names.length !== 4) return;
    box.querySelectorAll("[data-name]").forEach(function (span) {
      span.textContent = names[Number(span.dataset.name)];
    });
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
}
document.addEventListener("DOMContentLoaded", newMatchPairs);
