// The score keeper (keep/<game>/ pages): totals and the leader as you type, kept in this browser.
// Everything it knows of the game comes from the page's data attributes; it writes only text.
(function () {
  "use strict";

  // The words it writes, in the book's language: the page's (keeper.md.j2, data-words, JSON), each with its
  // %(name)s filled in as text; a page that gives none (a book's own older keeper.md.j2) gets the English.
  var ENGLISH = {
    player: "Player %(n)s", team: "Team %(n)s", and: "%(first)s and %(last)s",
    reached_back: "%(names)s reached %(target)s and then %(back)s.",
    working_down: "Working down from %(target)s: %(scores)s.",
    reached_with: "%(names)s reached %(target)s with %(score)s.", reached: "%(names)s reached %(target)s.",
    lowest: "Lowest total: %(names)s with %(score)s.", highest: "Highest total: %(names)s with %(score)s.",
    left: "%(coins)s left: %(scores)s.", only_one: "%(name)s is the only one with %(coins)s left.",
    clear: "Clear every score on this sheet and start a new game?",
    unread: "?",  // a total that adds a box holding no number
    not_number: "Not a number: write digits, as 1000, 1,000 or -5",  // a box holding no number, as its tooltip
    not_half: "Not a number: write digits, and a half as 12.5: as 12, 12.5 or -5",  // the same, on a sheet of halves
    no_leader: "A box holds no number (marked): correct it to see who leads."
  };
  var WORDS = null;
  function say(key, values) {
    if (WORDS === null) {
      var block = document.querySelector(".keeper-back[data-words]");
      WORDS = block ? JSON.parse(block.dataset.words) : ENGLISH;
    }
    return String(WORDS[key] || ENGLISH[key]).replace(/%\((\w+)\)s/g, function (all, name) {
      return values && name in values ? String(values[name]) : all;
    });
  }

  // The sign the book's language groups a number's thousands with (keeper.md.j2's data-group, from Babel: "," in
  // English, "." in German), by which a score box is read; a page that gives none gets English's.
  var GROUP = null;
  function group() {
    if (GROUP === null) {
      var block = document.querySelector(".keeper-back[data-group]");
      GROUP = block ? block.dataset.group : ",";
    }
    return GROUP;
  }

  // score-box reader: begin. The PDF form's scripts carry this function's text as it stands here
  // (generator/render/pdf/writer.py reads it), so a box on the site and in the PDF reads an entry the same way.
  // What a person types in a score box: "" for an empty box, a number, or NaN for what is no number this reads
  // without guessing. Thousands may be grouped by a space ("1 000") or by `group`, the sign the book's language
  // groups them with ("1,000" in English, "1.000" in German; English's if none is given), a minus may be typed as
  // the sign "\u2212"; a decimal sign, the other languages' group ("1,000" in German, which could be a decimal),
  // an exponent, a group not of three ("1,00") or more than twelve digits (a total could no longer be exact) is no
  // number, and the box is marked, never read as some other number.
  function readScore(text, group) {
    var s = String(text === null || text === undefined ? "" : text).trim();
    if (s === "") { return ""; }
    if (s.length > 40) { return NaN; }
    // The group sign, one character, escaped as a character class holds it (its ']', '^', '-' or backslash).
    var sign = String(group || ",").charAt(0).replace(/[\\\]\^\-]/, "\\$&");
    var m = new RegExp("^([+\\-\\u2212]?)(\\d{1,3}(?:[ \\u00a0\\u2009\\u202f" + sign + "]\\d{3})+|\\d+)$").exec(s);
    if (!m) { return NaN; }
    var digits = m[2].replace(/\D/g, "").replace(/^0+(?=\d)/, "");
    if (digits.length > 12) { return NaN; }
    var n = Number(digits);
    return m[1] === "-" || m[1] === "\u2212" ? -n : n;
  }
  // A box of a sheet scored in halves: a score, or one with a half written after a decimal sign, "." or ``point``
  // (the book's language's: "12,5"), or as "\u00bd" ("12\u00bd"); the whole points read by readScore. One digit after
  // the sign, a 5 or a 0, so that "1,000" stays a thousand and "1.25" is no number; the whole points grouped by
  // ``group``, the book's language's thousands sign, as readScore reads them. A half is exact as a number.
  function readHalves(text, point, group) {
    var s = String(text === null || text === undefined ? "" : text).trim();
    if (s.length > 40) { return NaN; }
    var m = /^([+\-\u2212]?)(.*?)(?:[.,]([05])|\u00bd)$/.exec(s);
    if (!m || (m[3] !== undefined && s.charAt(s.length - 2) !== "." && s.charAt(s.length - 2) !== point)) {
      return readScore(s, group);
    }
    var whole = m[2] === "" ? 0 : readScore(m[2], group);
    if (whole === "" || isNaN(whole) || m[2] !== m[2].trim() || /^[+\-\u2212]/.test(m[2])) { return NaN; }
    var n = whole + (m[3] === "0" ? 0 : 0.5);
    return m[1] === "-" || m[1] === "\u2212" ? -n : n;
  }
  // score-box reader: end

  // Limits on what a saved game (this browser's localStorage, which anything on the device may have written) may
  // hold: the keeper reads a saved game only within them, and starts afresh on what is outside.
  var MOST_PLAYERS = 100, LONGEST_ENTRY = 200, MOST_CELLS = 20000;

  function sum(value) { return value === undefined ? 0 : value; }  // a sum not begun is 0 (NaN stays NaN)
  // A number as a box shows it, a half with the sheet's decimal sign (``point``, none where it scores no halves).
  function shown(value, point) { return isNaN(value) ? say("unread") : String(value).replace(".", point || "."); }

  // A box is marked (and told why) while it holds what readScore (readHalves, on a sheet scored in ``halves``) reads
  // as no number.
  function mark(input, value, halves) {
    if (typeof value === "number" && isNaN(value)) {
      input.setAttribute("aria-invalid", "true");
      input.title = say(halves ? "not_half" : "not_number");
    } else if (input.hasAttribute("aria-invalid")) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("title");
    }
  }

  // A saved game as the keeper may use it, or null: players a whole number within MOST_PLAYERS, names and cells
  // maps of text no longer than LONGEST_ENTRY, at most MOST_CELLS of them.
  function checked(saved) {
    if (!saved || typeof saved !== "object" || Array.isArray(saved)) { return null; }
    var out = {};
    if (saved.players !== undefined) {
      var n = saved.players;
      if (typeof n === "number" && n % 1 === 0 && n >= 1 && n <= MOST_PLAYERS) { out.players = n; }
    }
    ["names", "cells"].forEach(function (part) {
      var from = saved[part];
      if (!from || typeof from !== "object" || Array.isArray(from)) { return; }
      var keys = Object.keys(from).slice(0, MOST_CELLS), kept = {};
      keys.forEach(function (key) {
        var value = from[key];
        if (typeof value === "string" && value.length <= LONGEST_ENTRY && key.length <= LONGEST_ENTRY) { kept[key] = value; }
      });
      out[part] = kept;
    });
    return out;
  }

  function setUp(root) {
    if (root.dataset.ready) { return; }
    root.dataset.ready = "1";
    var storeKey = "rulebook-keeper:" + root.dataset.key;
    var counts = root.dataset.counts.split(",").map(Number);
    // A game any number can play, or at least so many ('6 or more'): no ceiling. Past the columns drawn, a player's
    // column is added as the last one's copy (grow), at the game's step ('Any even number': two at a time).
    var open = root.dataset.open === "1", step = Number(root.dataset.step) || 1;
    var state = load();
    var lastCell = null;
    // A sheet scored in halves (data-halves: the book's decimal sign) reads its boxes with readHalves.
    var point = root.dataset.halves || null;
    // Read as the book's language groups thousands (group(): "1.000" in German), and halves after its decimal sign.
    var read = point ? function (text) { return readHalves(text, point, group()); }
      : function (text) { return readScore(text, group()); };

    function allowed(n) {
      if (counts.indexOf(n) >= 0) { return true; }
      return open && n > counts[counts.length - 1] && n <= MOST_PLAYERS && (n - counts[counts.length - 1]) % step === 0;
    }

    function drawn() {  // the players whose columns the page has
      var most = 0;
      root.querySelectorAll("th[data-player], td[data-player]").forEach(function (el) {
        most = Math.max(most, Number(el.dataset.player));
      });
      return most;
    }

    // Each table's cells of its last drawn player, copied for player p: its boxes' columns moved on by the player's
    // columns (a player with a Bid and a Score box has two), their names and labels saying player p.
    function grow(p) {
      var last = drawn();
      if (p <= last) { return; }
      root.querySelectorAll("table.keeper-table").forEach(function (table) {
        var per = Number(table.dataset.per) || 1, shift = (p - last) * per;
        table.querySelectorAll("tr").forEach(function (tr) {
          var cells = tr.querySelectorAll("[data-player='" + last + "']");
          var mine = Array.prototype.filter.call(cells, function (el) { return el.parentNode === tr; });
          if (!mine.length) { return; }
          var after = mine[mine.length - 1];
          mine.forEach(function (cell) {
            var copy = cell.cloneNode(true);
            [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))).forEach(function (el) {
              if (el.dataset.player) { el.dataset.player = String(p); }
              if (el.dataset.col) { el.dataset.col = String(Number(el.dataset.col) + shift); }
              if (el.dataset.cell) { el.dataset.cell = el.dataset.cell.replace(/_c(\d+)$/, function (m, c) { return "_c" + (Number(c) + shift); }); }
              ["aria-label", "placeholder"].forEach(function (name) {
                var text = el.getAttribute(name);
                if (text) {
                  el.setAttribute(name, text.replace(new RegExp("(Player |player |: |^)" + last + "(?=$|: |, )"), "$1" + p));
                }
              });
              if (el.tagName === "INPUT") { el.value = ""; }
              if (el.tagName === "OUTPUT") { el.textContent = el.classList.contains("keeper-run") ? "" : "0"; }
            });
            after.parentNode.insertBefore(copy, after.nextSibling);
            after = copy;
          });
        });
      });
    }

    function load() {
      try {
        var saved = checked(JSON.parse(window.localStorage.getItem(storeKey) || "null"));
        if (saved) { return saved; }
      } catch (e) { /* storage off or spoilt: start afresh */ }
      return {};
    }

    function save() {
      try { window.localStorage.setItem(storeKey, JSON.stringify(state)); } catch (e) { /* private mode */ }
    }

    function players() {
      var n = Number(state.players);
      return allowed(n) ? n : Number(root.dataset.start);
    }

    function nameOf(p) {
      var names = state.names || {};
      return names[p] || say(root.dataset.teams ? "team" : "player", {n: p});
    }

    function show() {
      var n = players();
      for (var p = drawn() + 1; p <= n; p++) { grow(p); }
      root.querySelectorAll("[data-player]").forEach(function (el) {
        var hidden = Number(el.dataset.player) > n;
        if (el.tagName === "INPUT" || el.tagName === "OUTPUT") { return; }
        el.hidden = hidden;
      });
      var add = root.querySelector("[data-act=add]"), remove = root.querySelector("[data-act=remove]");
      if (add) { add.disabled = (!open && n >= counts[counts.length - 1]) || n + step > MOST_PLAYERS; }
      if (remove) { remove.disabled = n <= counts[0]; }
      // The columns shown share the width; beyond what a phone holds the table keeps a least width and scrolls in
      // its frame (rulebook.css reads the number of columns shown).
      root.querySelectorAll("table.keeper-table").forEach(function (table) {
        var heads = table.querySelectorAll("thead tr:last-child th");  // each column's heading (not the corner's cells)
        var shown = Array.prototype.filter.call(heads, function (th) { return !th.hidden; }).length;
        table.style.setProperty("--keeper-columns", String(shown));
      });
    }

    function fill() {
      var cells = state.cells || {};
      root.querySelectorAll("input[data-cell]").forEach(function (input) {
        input.value = cells[input.dataset.cell] || "";
      });
      root.querySelectorAll("input.keeper-name").forEach(function (input) {
        input.value = (state.names || {})[input.dataset.player] || "";
      });
    }

    // Each table's summed columns (those with a total, or a running total in each row) added down; a running
    // total shows the sum so far in each row up to the last row anyone has written in.
    function totals() {
      var n = players(), grand = {}, entered = {}, tableSums = {}, peak = {};
      root.querySelectorAll("table.keeper-table").forEach(function (table) {
        var summed = {}, sums = {}, last = -1;
        tableSums[table.dataset.table] = sums;
        table.querySelectorAll("output[data-col]").forEach(function (out) { summed[out.dataset.col] = out.dataset.player || ""; });
        // A box whose entry is added up is marked while it holds no number; one nothing adds (a meld made, a bid) is not.
        table.querySelectorAll("input[data-col]").forEach(function (input) {
          mark(input, input.dataset.col in summed && input.closest("tr[data-sum]") ? read(input.value) : "", point);
        });
        var rows = Array.prototype.slice.call(table.querySelectorAll("tr[data-sum]"));
        rows.forEach(function (tr, i) {
          tr.querySelectorAll("input[data-col]").forEach(function (input) {
            if (input.value.trim() !== "") { last = i; }
          });
        });
        rows.forEach(function (tr, i) {
          tr.querySelectorAll("input[data-col]").forEach(function (input) {
            var c = input.dataset.col, value = read(input.value);
            if (!(c in summed) || value === "") { return; }
            sums[c] = sum(sums[c]) + value;  // a box holding no number makes the sum NaN, shown as say("unread")
            if (summed[c]) { entered[summed[c]] = true; }
          });
          // A row that carries an earlier table's total (a grand total's 'Game 1 total') shows it and adds it.
          tr.querySelectorAll("output.keeper-carry").forEach(function (out) {
            var c = out.dataset.col, value = sum((tableSums[out.dataset.carries] || {})[c]);
            out.textContent = shown(value, point);
            sums[c] = sum(sums[c]) + value;
          });
          tr.querySelectorAll("output.keeper-run").forEach(function (out) {
            out.textContent = i <= last ? shown(sum(sums[out.dataset.col]), point) : "";
          });
          // Each player's highest total so far (a game played up to a target and back down: has it been reached?).
          var now = {};
          Object.keys(summed).forEach(function (c) {
            var p = summed[c];
            if (p) { now[p] = sum(now[p]) + sum(sums[c]); }
          });
          Object.keys(now).forEach(function (p) {
            var total = sum(grand[p]) + now[p];
            peak[p] = peak[p] === undefined ? total : Math.max(peak[p], total);
          });
        });
        table.querySelectorAll(".keeper-total output[data-col]").forEach(function (out) {
          out.textContent = shown(sum(sums[out.dataset.col]), point);
        });
        Object.keys(summed).forEach(function (c) {
          var p = summed[c];
          if (p && Number(p) <= n) { grand[p] = sum(grand[p]) + sum(sums[c]); }
        });
      });
      status(grand, entered, peak);
    }

    // Who leads, by the game's stated winner rule, once every player at the table has a score.
    function status(grand, entered, peak) {
      var el = root.querySelector(".keeper-status");
      var ps = Object.keys(grand).map(Number);
      var names = function (list) {
        var all = list.map(nameOf);
        return all.length ? all.reduce(function (said, name) { return say("and", {first: said, last: name}); }) : "";
      };
      if (ps.some(function (p) { return !entered[p]; })) { ps = []; }
      if (ps.some(function (p) { return isNaN(grand[p]); })) {
        el.textContent = say("no_leader");
        return;
      }
      var winner = root.dataset.winner, target = root.dataset.target, loseAt = root.dataset.loseAt;
      if (ps.length && root.dataset.keeps === "lives" && root.dataset.lives) {
        el.textContent = lives(ps, grand, Number(root.dataset.lives), root.dataset.coins, winner);
        return;
      }
      if (!ps.length || !(winner === "high" || winner === "low" || winner === "first_to_target")) {
        el.textContent = "";
        return;
      }
      var low = winner === "low";
      var best = function (list) {
        var top = low ? Math.min.apply(null, list.map(function (p) { return grand[p]; }))
          : Math.max.apply(null, list.map(function (p) { return grand[p]; }));
        return list.filter(function (p) { return grand[p] === top; });
      };
      var text, leaders = best(ps);
      // A low game's target (or a losing score) ends it: say who reached it; the lowest total still leads.
      var end = low ? (loseAt !== undefined ? loseAt : target) : loseAt;
      // Totals start at 0: a score below it (500 Rummy's "minus 150 loses") is reached going down, others going up.
      var reached = function (at) {
        return ps.filter(function (p) { return Number(at) < 0 ? grand[p] <= Number(at) : grand[p] >= Number(at); });
      };
      var backTo = root.dataset.backTo;
      // A game played to a target and then back down (Dice: "at least 10,000 and then back down to zero or less"):
      // who has reached the target is working down from it; who then reaches the lower score has done both.
      var up = target !== undefined && backTo !== undefined ?
        ps.filter(function (p) { return peak[p] >= Number(target); }) : [];
      var down = up.filter(function (p) { return grand[p] <= Number(backTo); });
      if (down.length) {
        text = say("reached_back", {names: names(down), target: target, back: backTo});
      } else if (up.length) {
        text = say("working_down", {target: target, scores: up.map(function (p) { return nameOf(p) + " " + grand[p]; }).join(", ")});
      } else if (target !== undefined && !low && reached(target).length) {
        var first = best(reached(target));
        text = say("reached_with", {names: names(first), target: target, score: grand[first[0]]});
      } else if (end !== undefined && reached(end).length) {
        text = say("reached", {names: names(reached(end)), target: end}) + " " +
          say(low ? "lowest" : "highest", {names: names(leaders), score: grand[leaders[0]]});
      } else {
        // The goal itself is the page's "To win" line, in the book's words ("target typically 100"), not here.
        text = say(low ? "lowest" : "highest", {names: names(leaders), score: grand[leaders[0]]});
      }
      el.textContent = text;
    }

    // A game kept in lives (the stakes: 3 quarters each): the boxes are the coins lost. Who has coins left is
    // said, not who is out: a game's own rules decide that (Thirty One: "one round on your face" after the last).
    function lives(ps, lost, start, coins, winner) {
      var left = function (p) { return Math.max(start - lost[p], 0); };
      var having = ps.filter(function (p) { return left(p) > 0; });
      var text = say("left", {coins: coins.charAt(0).toUpperCase() + coins.slice(1),
        scores: ps.map(function (p) { return nameOf(p) + " " + left(p); }).join(", ")});
      if (winner === "last_standing" && having.length === 1) {
        text += " " + say("only_one", {name: nameOf(having[0]), coins: coins});
      }
      return text;
    }

    root.addEventListener("input", function (event) {
      var input = event.target;
      if (input.classList.contains("keeper-name")) {
        state.names = state.names || {};
        state.names[input.dataset.player] = input.value;
        root.querySelectorAll("input.keeper-name[data-player='" + input.dataset.player + "']").forEach(function (other) {
          if (other !== input) { other.value = input.value; }
        });
      } else if (input.dataset.cell) {
        state.cells = state.cells || {};
        state.cells[input.dataset.cell] = input.value;
      }
      save();
      totals();
    });

    root.addEventListener("focusin", function (event) {
      if (event.target.matches("input[data-col]")) { lastCell = event.target; }
    });

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-act]");
      if (!button) { return; }
      var act = button.dataset.act, n = players(), i = counts.indexOf(n);
      if (act === "add" && i >= 0 && i < counts.length - 1) { state.players = counts[i + 1]; }
      else if (act === "add" && open && allowed(n + step)) { state.players = n + step; }
      if (act === "remove" && i > 0) { state.players = counts[i - 1]; }
      else if (act === "remove" && i < 0 && n - step >= counts[counts.length - 1]) { state.players = n - step; }
      if (act === "new" && window.confirm(say("clear"))) {
        state = {players: state.players, names: state.names};
        fill();
      }
      if (act === "negate" && lastCell) {
        var v = lastCell.value.trim();
        lastCell.value = /^[\-\u2212]/.test(v) ? v.slice(1) : "-" + v;
        state.cells = state.cells || {};
        state.cells[lastCell.dataset.cell] = lastCell.value;
        lastCell.focus();
      }
      if (act === "print") { window.print(); }
      save();
      show();
      totals();
    });

    show();  // first: the columns of the players saved, past those drawn, to fill
    fill();
    totals();
  }

  function start() {
    document.querySelectorAll(".keeper").forEach(setUp);
  }
  if (window.document$) { window.document$.subscribe(start); } else { document.addEventListener("DOMContentLoaded", start); }
})();
