// The book offline (generator/render/site/offline.py): every page registers the edition's service worker (sw.js at the
// edition's root), which keeps the whole edition on this device once one page has been opened with a network.
(function () {
  "use strict";
  // Found from this script's own address (assets/offline.js): the worker is the build's, never a page's to name.
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) { return; }
  var worker = new URL("../sw.js", script.src), scope = new URL("./", worker).href;
  if (location.href.indexOf(scope) !== 0) { return; }
  navigator.serviceWorker.register(worker.href, {scope: scope}).catch(function () { /* no worker: online only */ });
  // Earlier builds kept only the score keepers, with a worker of their own (scope keep/): the edition's takes over.
  navigator.serviceWorker.getRegistrations().then(function (registrations) {
    registrations.forEach(function (r) { if (r.scope === scope + "keep/") { r.unregister(); } });
  }).catch(function () { /* none to remove */ });
})();
