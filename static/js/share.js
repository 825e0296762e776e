// A share link can be sent with the phone's own Share sheet or copied. Loaded by the
// screens with a share panel (a table's, a desk position's), after says.js.
(function () {
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
