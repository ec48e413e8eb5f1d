"""WeasyPrint's URL fetcher, locked to the print assets: the book's own ``templates/print/`` over the tool's.

Every URL names a file of the tool's print folder (``ASSET_ROOT``); it is served from the first folder that holds its
name (``print_folders``), so a book's ``templates/print/print.css`` or a font it adds replaces or joins the tool's file
by file, as its Jinja templates do. Anything else (remote URLs, ``file://`` paths outside the assets folder, ``data:`` URLs from
contributor text, redirects) fails the build with a clear error instead of being fetched or
silently dropped: a printed book with a missing picture must not go unnoticed.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher, URLFetcherResponse

from ...book.files import MAX_ASSET_BYTES, TOOL_TEMPLATES, read_source, template_bounds, template_folders
from ...errors import BuildError, SourceError

ASSET_ROOT = TOOL_TEMPLATES / "print"


def print_folders(book: Path | None) -> list[Path]:
    """Where a print asset is looked for, first to last: the book's own ``templates/print/``, then the tool's."""
    return [folder / "print" for folder in template_folders(book)]


class RefusedResource(BuildError):
    """The print HTML asked for a resource outside the project's print assets."""


class ProjectFetcher(URLFetcher):
    """Serves the print assets only (``book``'s own over the tool's); every other request stops the render."""

    def __init__(self, book: Path | None = None) -> None:
        # fail_on_errors: WeasyPrint turns our refusal into a fatal error, not a warning.
        super().__init__(allow_redirects=False, fail_on_errors=True, allowed_protocols=["file"])
        self.root = Path(os.path.abspath(ASSET_ROOT))  # what every URL names: its file comes from self.folders
        # Each folder with the folder a file of it must stay in once its links are followed (files.read_source): the
        # book's own is read only from inside the book, as its data is; the tool's from inside its print folder.
        self.folders = [(Path(os.path.abspath(f)), Path(os.path.abspath(f if f == ASSET_ROOT else
                                                                         template_bounds(f.parent))))
                        for f in print_folders(book)]
        self.refused: list[str] = []
        self.served: list[str] = []

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parsed = urlparse(url)
        # Told from its name alone, links not followed (normpath only folds '..'): a link is the door's to judge.
        path = Path(os.path.normpath(unquote(parsed.path))) if parsed.scheme == "file" else None
        known = [f for f, _ in self.folders if path is not None and (path == f or f in path.parents)]
        rel = path.relative_to(known[0]) if known and path is not None else None
        found = next(((f / rel, inside) for f, inside in self.folders if rel is not None and os.path.lexists(f / rel)),
                     None)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            problem = f"refused to fetch '{url[:200]}': only the project's print assets may be used"
        elif rel is None:
            problem = f"refused to read '{path}': outside {self.root}"
        elif found is None:
            problem = f"missing print asset '{path}'"
        else:
            problem = ""
        if problem or found is None or rel is None:
            self.refused.append(problem)
            raise RefusedResource(problem)
        try:  # through the door every file passes (files.read_source): a plain file, inside its folder
            body = read_source(found[0], f"templates/print/{rel.as_posix()}", found[1], MAX_ASSET_BYTES)
        except SourceError as exc:
            self.refused.append(str(exc))
            raise RefusedResource(str(exc)) from None
        self.served.append(rel.as_posix())
        mime, _ = mimetypes.guess_type(found[0].name)
        return URLFetcherResponse(url, body, {"Content-Type": mime or "application/octet-stream"})

    def stylesheet(self, name: str) -> str:
        """The URL of the print stylesheet ``name`` (``print.css``): the book's own, if it has one, else the tool's."""
        return (self.root / name).as_uri()
