// The tile picker's first tap: light the ends the tapped tile fits, so the second
// tap plays it, and show what each would score. Which ends fit and what they score
// are computed by the server (data-fits, data-gains); this file only shows them. Without JavaScript every end stays tappable and the referee
// explains a wrong one.
// Loaded by the screens with a tile picker (the line and train games'), after says.js.
(function () {
  // "A:12 B:9" (end letter: value) as an object.
  function byEnd(chosen, name) {
    var found = {};
    (chosen && chosen.dataset[name] ? chosen.dataset[name].split(" ") : []).forEach(function (pair) {
      var at = pair.lastIndexOf(":");
      found[pair.slice(0, at)] = pair.slice(at + 1);
    });
    return found;
  }
  function refresh(root) {
    var form = root.querySelector("#play-form");
    if (!form) return;
    var chosen = form.querySelector('input[name="tile"]:checked');
    var fits = chosen ? chosen.dataset.fits.split(" ").filter(Boolean) : null;
    var gains = byEnd(chosen, "gains");
    // Dominards: the total each end would make, and the card worth it (dominards.card).
    var totals = byEnd(chosen, "totals");
    var cards = byEnd(chosen, "cards");
    var virtual = chosen && chosen.dataset.virtual ? chosen.dataset.virtual.split(" ") : [];
    // At the referee's desk every end can be asked about: a wrong one gets a ruling.
    var asking = form.hasAttribute("data-desk") && chosen !== null;
    form.querySelectorAll(".end-button:not(.card-button)").forEach(function (button) {
      var ok = fits !== null && fits.indexOf(button.dataset.end) !== -1;
      button.disabled = !ok && !asking;
      button.classList.toggle("fits", ok);
      var gain = button.querySelector(".gain");
      var end = button.dataset.end;
      if (gain) gain.textContent = ok && end in gains && (gains[end] !== "0" || !(end in totals)) ? "+" + gains[end] : "";
      var total = button.querySelector(".total");
      if (total) total.textContent = ok && end in totals ? boneyardSays("sayTotal", { total: totals[end] }) : "";
    });
    var choices = fits ? fits.length : 0;  // the taps the player may choose between
    form.querySelectorAll(".card-button").forEach(function (button) {
      var end = button.dataset.end;
      var ok = fits !== null && fits.indexOf(end) !== -1 && end in cards;
      if (ok) choices += 1;
      button.hidden = !ok;
      button.disabled = !ok;
      button.dataset.card = ok ? cards[end] : "";
      button.querySelector(".card").textContent = ok ? cardName(cards[end]) : "";
    });
    var freeDrop = form.querySelector("#free-drop");
    if (freeDrop) {
      freeDrop.hidden = !virtual.some(function (end) { return fits && fits.indexOf(end) !== -1; });
      freeDrop.dataset.ends = virtual.join(" ");
      // The choice is explicit: while it is offered, the play waits for it (the form's
      // own validation asks), so the obvious tap never skips a drop unseen.
      var select = freeDrop.querySelector("select");
      select.disabled = freeDrop.hidden;
      select.required = !freeDrop.hidden;
    }
    var why = form.querySelector("#why");
    if (why) {
      // What the tapped tile needs said, in the server's words: the referee's reason it fits
      // nowhere (its own, or the table's "no open end shows its numbers"), with the rule as
      // a link; or, where it fits several places, that the second tap chooses one.
      var text = "", rule = "";
      if (chosen && chosen.dataset.why) {
        text = chosen.dataset.why;
        rule = chosen.dataset.rule;
      } else if (chosen && !fits.length && why.dataset.nofit) {
        text = why.dataset.nofit;
        rule = why.dataset.nofitRule;
      } else if (choices > 1 && fits[0] !== "lead") {
        text = why.dataset.choose || "";  // two ends, or an end and the card it may drop
      }
      why.querySelector(".why-text").textContent = text;
      var link = why.querySelector("a.rule");
      link.textContent = rule;
      link.href = why.dataset.rules + "#" + rule;
      why.querySelector(".why-rule").hidden = !rule;
      why.classList.toggle("choose", !!text && !rule);
      why.hidden = !text;
    }
    root.querySelectorAll(".end-marker").forEach(function (mark) {
      var ok = fits !== null && fits.indexOf(mark.dataset.end) !== -1;
      mark.classList.toggle("fits", ok);
    });
    // Muggins: another tile tapped, the end chosen for the last one waits no more.
    var declaring = form.querySelector("#declare-now");
    if (declaring) chooseEnd(form, null);
  }
  // Muggins (fives.muggins): the end tapped waits for the score, chosen on this phone
  // before anything is sent; the play and its declaration then go in one request, so no
  // other phone can call between them. Without this script the end records the play alone.
  function chooseEnd(form, button) {
    var panel = form.querySelector("#declare-now");
    var target = panel.querySelector('input[name="target"]');
    target.value = button ? button.value : "";
    target.disabled = !button;
    form.querySelectorAll(".end-button").forEach(function (end) {
      end.classList.toggle("chosen", end === button);
      end.setAttribute("aria-pressed", end === button ? "true" : "false");
    });
    panel.hidden = !button;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#play-form[data-declare] .end-button");
    if (!button) return;
    event.preventDefault();
    chooseEnd(button.form, button);
    bringIntoView(document.getElementById("ends"), document.getElementById("declare-now"));
  }, true);
  function cardName(card) {
    if (card === "A1") return boneyardSays("sayAceLow");
    if (card === "A14") return boneyardSays("sayAceHigh");
    return boneyardSays("sayCard", { card: card });
  }
  document.addEventListener("change", function (event) {
    if (event.target.name !== "tile") return;
    refresh(document);
    if (playAtOnce(event.target.form)) return;
    // The words said for the tapped tile, and the ends below them, in view: a tile tapped
    // far down the picker does not leave its second tap out of sight.
    var why = document.getElementById("why");
    var ends = document.getElementById("ends");
    var said = why && !why.hidden;
    if (ends && (said || ends.querySelector(".fits"))) bringIntoView(said ? why : ends, ends);
  });
  // The part of the page from ``first`` to ``last`` in view below the score strip, moving
  // the page as little as it takes (the top wins when it does not all fit).
  function bringIntoView(first, last) {
    var strip = document.querySelector("#table .strip");
    var top = (strip ? strip.getBoundingClientRect().bottom : 0) + 8;
    var from = first.getBoundingClientRect().top;
    var to = last.getBoundingClientRect().bottom;
    if (from < top) window.scrollBy(0, from - top);
    else if (to > window.innerHeight) window.scrollBy(0, Math.min(to - window.innerHeight + 8, from - top));
  }
  // A tile that fits one end only is played on its first tap; the second tap is needed only
  // to choose between ends. Not the lead (its seat is chosen first), not at the referee's
  // desk, and not where Dominards offers a card to drop: that choice is the player's.
  function playAtOnce(form) {
    if (!form || form.id !== "play-form" || form.hasAttribute("data-desk")) return false;
    var lit = form.querySelectorAll(".end-button.fits:not(.card-button)");
    if (lit.length !== 1 || lit[0].dataset.end === "lead") return false;
    var freeDrop = form.querySelector("#free-drop");
    if (form.querySelector(".card-button:not([hidden])") || (freeDrop && !freeDrop.hidden)) return false;
    lit[0].click();
    return true;
  }
  function showOneTap(root) {
    root.querySelectorAll(".one-tap").forEach(function (hint) { hint.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", function () { showOneTap(document); });
  document.addEventListener("htmx:afterSettle", function () { showOneTap(document); });
  // The end tapped decides the card dropped with the play: its card button's card, or
  // none; a free drop goes only with an end that hits the virtual card.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#play-form .end-button");
    if (!button) return;
    var card = document.getElementById("card-field");
    if (card) card.value = button.classList.contains("card-button") ? button.dataset.card : "";
    var freeDrop = document.getElementById("free-drop");
    var drop = document.getElementById("drop-field");
    if (freeDrop && drop && freeDrop.dataset.ends.split(" ").indexOf(button.dataset.end) === -1) {
      drop.value = "";
      drop.required = false;  // this end does not hit the virtual card: nothing to choose
    }
  }, true);
  // Tapping a lit marker on the drawing plays there too.
  document.addEventListener("click", function (event) {
    var mark = event.target.closest && event.target.closest(".end-marker.fits");
    if (!mark) return;
    var button = document.querySelector('.end-button[data-end="' + mark.dataset.end + '"]');
    if (button) button.click();
  });
  document.addEventListener("DOMContentLoaded", function () { refresh(document); });
  document.addEventListener("htmx:afterSettle", function () { refresh(document); });
})();
