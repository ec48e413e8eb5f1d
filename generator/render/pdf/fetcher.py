"""WeasyPrint's URL fetcher, locked to the project's own print assets.

Anything else (remote URLs, ``file://`` paths outside the assets folder, ``data:`` URLs from
contributor text, redirects) fails the build with a clear error instead of being fetched or
silently dropped: a printed book with a missing picture must not go unnoticed.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher, URLFetcherResponse

from ...book.files import MAX_ASSET_BYTES, TOOL_TEMPLATES, read_source
from ...errors import BuildError, SourceError

ASSET_ROOT = TOOL_TEMPLATES / "print"


class RefusedResource(BuildError):
    """The print HTML asked for a resource outside the project's print assets."""


class ProjectFetcher(URLFetcher):
    """Serves files under ``root`` only; every other request stops the render."""

    def __init__(self, root: Path = ASSET_ROOT) -> None:
        # fail_on_errors: WeasyPrint turns our refusal into a fatal error, not a warning.
        super().__init__(allow_redirects=False, fail_on_errors=True, allowed_protocols=["file"])
        self.root = root.resolve()
        self.refused: list[str] = []
        self.served: list[str] = []

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parsed = urlparse(url)
        problem = None
        path = Path(unquote(parsed.path)).resolve() if parsed.scheme == "file" else None
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            problem = f"refused to fetch '{url[:200]}': only the project's print assets may be used"
        elif path is None or (path != self.root and self.root not in path.parents):
            problem = f"refused to read '{path}': outside {self.root}"
        elif not path.is_file():
            problem = f"missing print asset '{path}'"
        if problem:
            self.refused.append(problem)
            raise RefusedResource(problem)
        rel = path.relative_to(self.root).as_posix()
        try:  # through the door every file passes (files.read_source): a plain file, inside the assets
            body = read_source(path, f"templates/print/{rel}", self.root, MAX_ASSET_BYTES)
        except SourceError as exc:
            self.refused.append(str(exc))
            raise RefusedResource(str(exc)) from None
        self.served.append(rel)
        mime, _ = mimetypes.guess_type(path.name)
        return URLFetcherResponse(url, body, {"Content-Type": mime or "application/octet-stream"})
