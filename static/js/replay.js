// Replay: ArrowLeft and ArrowRight follow the Previous and Next links of the step buttons,
// so a round can be walked through from the keyboard. Only on the replay screen, never
// while typing, and never with a modifier (Alt+Left is the browser's Back).
// Loaded by the replay screen.
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
