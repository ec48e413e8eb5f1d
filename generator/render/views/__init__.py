"""What both outputs say, worked out once: the site and the print book render these views, never their own.

``pages.py`` (what a game page shows), ``describe.py`` (the words for data, the files' names), ``sheets.py`` (a
score sheet's pages, columns and rows), ``changes.py`` (the 'What changed' lines) and ``markup.py`` (Jinja, Markdown
and the sanitizer: the one place text becomes HTML, with the Markdown of ``book/rendered.py``, which validate reads
too).
"""
