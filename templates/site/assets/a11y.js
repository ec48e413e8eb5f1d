// Small accessibility fixes to the theme: the search dialog gets a name for screen readers.
(function () {
  function name() {
    document.querySelectorAll(".md-search[role=dialog]:not([aria-label])").forEach(function (d) {
      d.setAttribute("aria-label", "Search the book");
    });
  }
  if (window.document$) { window.document$.subscribe(name); } else { document.addEventListener("DOMContentLoaded", name); }
})();
