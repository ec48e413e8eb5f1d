// The game finder: filters the list built from the data (no server, no requests).
(function () {
  function allows(li, n) {
    if (!n) return true;
    var set = li.dataset.playersSet;
    if (set) return set.split(" ").indexOf(String(n)) >= 0;
    var min = +li.dataset.playersMin, max = li.dataset.playersMax, step = +li.dataset.playersStep || 1;
    if (n < min) return false;
    if (max !== "" && n > +max) return false;
    return n % step === 0;
  }
  function setup() {
    var form = document.getElementById("finder-form");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    var items = document.querySelectorAll("#finder-results li");
    var count = document.getElementById("finder-count");
    function update() {
      var n = parseInt(form.players.value, 10) || 0;
      var eq = form.equipment.value, cat = form.category.value, part = form.partnerships.value;
      var shown = 0;
      items.forEach(function (li) {
        var ok = allows(li, n)
          && (!eq || li.dataset.equipment.split(" ").indexOf(eq) >= 0)
          && (!cat || li.dataset.category === cat)
          && (!part || (part === "none" ? li.dataset.partnerships !== "partners" && li.dataset.partnerships !== "teams"
                                        : li.dataset.partnerships !== "none" && li.dataset.partnerships !== ""));
        li.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + (shown === 1 ? " game fits" : " games fit");
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
  }
  if (window.document$) { window.document$.subscribe(setup); } else { document.addEventListener("DOMContentLoaded", setup); }
})();
