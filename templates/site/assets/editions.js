// The editions of the book on the site (each one a version deployed by mike): an earlier edition's banner links the
// same page in the newest edition, and the version selector opens the same page in the edition chosen; either goes to
// that edition's home when the page is not in it (a game added later, or retired). The theme looks a page up in the
// chosen version's sitemap, which lists no page unless the site's public address is configured: the page is asked
// for instead. A build that is not versioned has neither banner nor selector: nothing here runs.
(function () {
  "use strict";
  var config = document.getElementById("__config");
  if (!config) { return; }
  // The root of this edition, as the theme names it (a path relative to the page), and this page's path under it.
  var here = new URL(JSON.parse(config.textContent).base.replace(/\/?$/, "/"), location.href);
  var path = location.pathname.indexOf(here.pathname) === 0 ? location.pathname.slice(here.pathname.length) : "";

  // The same page in the edition at ``root`` when it has one, else that edition's home.
  function samePage(root) {
    var page = new URL(path, root);
    if (!path || page.href === root) { return Promise.resolve(root); }
    return fetch(page.href, {method: "HEAD", cache: "no-cache"})
      .then(function (r) { return r.ok ? page.href : root; }, function () { return root; });
  }

  // An earlier edition: the theme shows its banner (the block in overrides/main.html); its link names the newest.
  var newest = document.querySelector("[data-md-component=outdated] a[data-newest-edition]");
  if (newest) {
    newest.href = new URL("../", here).href;  // until the versions are read: the site's root opens the newest edition
    fetch(new URL("../versions.json", here).href).then(function (r) { return r.json(); }).then(function (versions) {
      var latest = versions.filter(function (v) { return (v.aliases || []).indexOf("latest") >= 0; })[0] || versions[0];
      // The newest edition itself (by its number or an alias, as the theme tells them) has the banner hidden: nothing
      // to ask for.
      var current = here.pathname.replace(/\/$/, "").split("/").pop();
      if (!latest || latest.version === current || (latest.aliases || []).indexOf(current) >= 0) { return; }
      var root = new URL("../" + latest.version + "/", here).href;
      return samePage(root).then(function (target) {
        newest.href = target;
        newest.textContent = (target === root ? "Go to the newest edition, " : "Read this page in the newest edition, ")
          + latest.title + (target === root && path ? " (this page is not in it)" : "");
      });
    }).catch(function () { /* no list of versions: the link keeps the site's root */ });
  }

  // The version selector: the same page in the edition chosen. Taken before the theme's own handler (on the body).
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest(".md-version a.md-version__link") : null;
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || link.target) { return; }
    event.preventDefault();
    event.stopPropagation();
    samePage(link.href).then(function (target) {
      location.href = target + (target === link.href ? "" : location.hash);
    });
  }, true);
})();
