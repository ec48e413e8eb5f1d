"""Print: the book PDF, the score sheets, the score pad and the booklet, laid out by WeasyPrint.

``worker.py`` renders an edition's PDFs in a child process (both halves: the build and publish call its
``render_pdfs``); ``pair.py`` the pull request's two books; ``book.py`` lays the book out a
part at a time, ``copyfit.py`` sets a part's last pages tighter, ``writer.py`` writes each page as it is laid out;
``scorepad.py`` the score sheets and pad; ``booklet.py`` the book imposed as a booklet; ``weasy.py`` WeasyPrint
set up once, with ``fetcher.py`` its locked URL fetcher; ``cache.py`` renders kept by what they were made from.
"""
