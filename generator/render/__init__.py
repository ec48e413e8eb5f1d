"""Stage 4, rendering: the library made into what readers get.

- ``views/``: what both outputs say, worked out once (a game page, the words for data, the score sheets' layout,
  the 'What changed' lines, the Markdown and HTML of prose).
- ``site/``: the web site (pages generated for MkDocs, the plugin, the offline service worker, the site check,
  and ``engine.py``, the one module that runs MkDocs and mike).
- ``pdf/``: print (the book laid out by WeasyPrint a part at a time, the score sheets and pad, the booklet).

``site`` and ``pdf`` use ``views``, never each other. Beside them: ``process.py`` (a render's processes: told their
work by one request, answering with one result, ending with the process that started them), ``output.py`` (a
build's output folder switched whole, once ``leaks.py`` finds no output naming the machine) and ``patches.py`` (the
register of every reach into another project's internals).
"""
