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
  // A game whose decks depend on the players is one deck at the counts its record lists (data-one-deck: Sweep's 2,
  // one deck per table: one table of 4 or fewer, per couple: one couple), several at the rest; without a count, it is
  // offered under one deck if some count needs only one, and under several. One deck a player is several decks at
  // any table.
  var ONE = ["one-deck"];
  var SEVERAL = ["several-decks", "one-deck-per-player"];
  var BY_PLAYERS = ["depends-on-players", "one-deck-per-table", "one-deck-per-couple"];  // describe.BY_PLAYERS
  function needs(li, eq, n) {
    var kinds = li.dataset.equipment.split(" ");
    if (kinds.indexOf(eq) >= 0) return true;
    var group = eq === "one-deck" ? ONE : eq === "several-decks" ? SEVERAL : null;
    if (!group) return false;
    if (kinds.some(function (k) { return group.indexOf(k) >= 0; })) return true;
    if (!kinds.some(function (k) { return BY_PLAYERS.indexOf(k) >= 0; })) return false;
    var one = (li.dataset.oneDeck || "").split(" ").filter(Boolean);
    if (!n) return eq === "one-deck" ? one.length > 0 : true;
    return (one.indexOf(String(n)) >= 0) === (eq === "one-deck");
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
          && (!eq || needs(li, eq, n))
          && (!cat || li.dataset.category === cat)
          && (!part || (part === "none" ? li.dataset.partnerships !== "partners" && li.dataset.partnerships !== "teams"
                                        : li.dataset.partnerships !== "none" && li.dataset.partnerships !== ""));
        li.hidden = !ok;
        if (ok) shown++;
      });
      // The words are the page's, in the book's language (finder.md.j2's data-words, JSON).
      var finder = document.getElementById("finder");
      var words = finder && finder.dataset.words ? JSON.parse(finder.dataset.words)
        : {one: "%(count)s game fits", many: "%(count)s games fit"};
      count.textContent = (shown === 1 ? words.one : words.many).replace("%(count)s", String(shown));
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
  }
  if (window.document$) { window.document$.subscribe(setup); } else { document.addEventListener("DOMContentLoaded", setup); }
})();
