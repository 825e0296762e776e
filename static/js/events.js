// An event's clock (issue 32): the time left in the round, counted down on the page from the
// end the server wrote (data-ends); the server's own words come in data-say-left and -up.
(function () {
  function tick() {
    document.querySelectorAll(".clock[data-ends]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.dataset.ends) - Date.now()) / 1000);
      if (left <= 0) {
        clock.textContent = clock.dataset.sayUp;
        clock.classList.add("up");
        return;
      }
      var minutes = Math.floor(left / 60), seconds = left % 60;
      var shown = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
      clock.textContent = clock.dataset.sayLeft.split("{time}").join(shown);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
