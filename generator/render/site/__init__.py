"""The web site: one MkDocs site per edition, versioned with mike.

``docs.py`` writes the Markdown pages from the views; ``worker.py`` writes them in a process forked as MkDocs
starts; ``plugin.py`` is the MkDocs plugin that asks for them, sanitizes every page and starts the check;
``verify.py`` checks the built site (links, anchors, safety); ``offline.py`` writes the service worker and the
manifest. ``engine.py`` runs MkDocs and mike for the commands (build, serve, publish, pictures): no module outside this package
imports the site engine (docs/site-engine.md).
"""
