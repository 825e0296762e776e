// The page's words, in the phone's language: data-say-* attributes of <body>, which the
// template (base.html) fills from the catalogue; "{name}" placeholders are filled in here.
function boneyardSays(name, params) {
  var text = (document.body && document.body.dataset[name]) || "";
  Object.keys(params || {}).forEach(function (key) {
    text = text.split("{" + key + "}").join(String(params[key]));
  });
  return text;
}

// The tile picker's first tap: light the ends the tapped tile fits, so the second
// tap plays it, and show what each would score. Which ends fit and what they score
// are computed by the server (data-fits, data-gains); this file only shows them. Without JavaScript every end stays tappable and the referee
// explains a wrong one.
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
  // Dump Truck: the first tap on a cell of the truck chooses where the high half goes and
  // lights the cells its low half may take (data-pairs, "r,c>r,c", computed by the
  // server); the second tap loads. Without JavaScript the first tap asks the server.
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
      htmx.ajax("POST", config.path, {
        source: config.elt, target: "#table", swap: "outerHTML", values: values,
      });
    }, 500 * retries);
  });
  // New links were made, or the match is gone: say so rather than freeze in silence, and
  // for good. The page stays in view, greyed, and nothing on it can be tapped: a tap could
  // only be refused, and would look as if the table were live again.
  document.addEventListener("htmx:responseError", function (event) {
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
  // A poll answer no newer than the table on screen is dropped: it may have left before
  // this phone's own tap, and swapping it in would clear the tile just tapped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.elt || config.elt.id !== "poll") return;
    var table = document.getElementById("table");
    var fresh = Number(event.detail.xhr.getResponseHeader("X-Table-Version"));
    if (table && fresh <= Number(table.dataset.version)) event.detail.shouldSwap = false;
    // Nor is a tap half made wiped out by another phone's (Dump Truck: a first cell chosen,
    // an unload being checked); the tap itself brings the fresh table.
    var load = document.getElementById("load-form");
    var unload = document.getElementById("unload");
    if ((load && load.dataset.first) || (unload && unload.open)) event.detail.shouldSwap = false;
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
  document.addEventListener("DOMContentLoaded", function () { refresh(document); });
  document.addEventListener("htmx:afterSettle", function () { refresh(document); });
  document.addEventListener("htmx:afterSettle", function (event) {
    keepView(event.target);
    kept = null;
  });
})();

// Replay: ArrowLeft and ArrowRight follow the Previous and Next links of the step buttons,
// so a round can be walked through from the keyboard. Only on the replay screen, never
// while typing, and never with a modifier (Alt+Left is the browser's Back).
(function () {
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.defaultPrevented || event.isComposing) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var nav = document.getElementById("step-nav");
    if (!nav) return;
    var typing = event.target.closest && event.target.closest("input, textarea, select, [contenteditable]");
    if (typing) return;
    var link = nav.querySelector(event.key === "ArrowLeft" ? 'a[rel="prev"]' : 'a[rel="next"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();

// At the table for an hour: the screen stays awake while a match is open (released by the
// browser when the page is hidden, asked for again when it comes back), and a share link
// can be sent with the phone's own Share sheet or copied.
(function () {
  var lock = null;
  function stayAwake() {
    if (!("wakeLock" in navigator) || !document.getElementById("table")) return;
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    navigator.wakeLock.request("screen").then(function (held) { lock = held; }, function () {});
  }
  document.addEventListener("DOMContentLoaded", stayAwake);
  document.addEventListener("visibilitychange", stayAwake);
  function offer(root) {
    root.querySelectorAll("[data-share]").forEach(function (b) { b.hidden = !navigator.share; });
    root.querySelectorAll("[data-copy]").forEach(function (b) {
      b.hidden = !(navigator.clipboard && window.isSecureContext);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { offer(document); });
  document.addEventListener("click", function (event) {
    var share = event.target.closest && event.target.closest("[data-share]");
    if (share) {
      navigator.share({ title: share.dataset.title, url: share.dataset.share }).catch(function () {});
      return;
    }
    var copy = event.target.closest && event.target.closest("[data-copy]");
    if (copy) {
      navigator.clipboard.writeText(copy.dataset.copy).then(function () {
        copy.textContent = boneyardSays("sayCopied");
      }, function () {});
    }
  });
})();
// A tally: a tile ticked for one seat is greyed in the others' pickers (each tile is in one
// hand only), so the next hand is tapped from what is left.
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

// New match: play in pairs. The switch shows only while the chosen game offers it (its radio
// says data-pairs) and exactly four names are filled in; hidden, it is disabled, so it is not
// sent. The teams and seats each partner choice makes are in the page already (the
// stylesheet shows the chosen one's): this writes the names typed into them. Without
// JavaScript the switch shows for every game that offers it and the server says what is
// missing.
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
