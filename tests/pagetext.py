"""The printed book read back as text boxes (`pdftotext -bbox-layout`): each page's body lines, in order.

The running header and footer sit in the page margins and are left out, so that a page's lines are
only what the page prints in its text area. The margins are read from print.css (its last `@page`
margin), where they are set.
"""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

MM = 72 / 25.4
PRINT_CSS = Path(__file__).resolve().parents[1] / "templates" / "print" / "print.css"


def _page_margins() -> tuple[float, float]:
    """The top and bottom margin of the book's pages, in points, as print.css last sets them."""
    found = re.findall(r"@page\s*\{[^}]*?margin:\s*([\d.]+)mm\s+[\d.]+mm\s+([\d.]+)mm", PRINT_CSS.read_text())
    top, bottom = found[-1]
    return float(top) * MM, float(bottom) * MM


TOP, BOTTOM = _page_margins()

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_LINE = re.compile(r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</line>', re.S)
_WORD = re.compile(r"<word[^>]*>([^<]*)</word>")


@dataclass(frozen=True)
class Line:
    """One line of text as pdftotext found it: where it is and what it says."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass(frozen=True)
class Page:
    """A page's size and the lines printed in its text area, top to bottom."""

    number: int
    width: float
    height: float
    lines: tuple[Line, ...]

    @property
    def fill(self) -> float:
        """How far down the text area the lowest line reaches, 0 (empty) to 1 (full)."""
        if not self.lines:
            return 0.0
        area = self.height - TOP - BOTTOM
        return (max(line.y1 for line in self.lines) - TOP) / area

    @property
    def last(self) -> Line | None:
        """The line printed lowest on the page (the rightmost of those level with it)."""
        return max(self.lines, key=lambda line: (round(line.y1), line.x0), default=None)


def read_pages(pdf: Path) -> list[Page]:
    """Every page of ``pdf`` with its body lines, sorted top to bottom, left to right."""
    out = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    pages = []
    for n, (width, height, body) in enumerate(_PAGE.findall(out), 1):
        lines = []
        for x0, y0, x1, y1, words in _LINE.findall(body):
            text = " ".join(html.unescape(w) for w in _WORD.findall(words))
            if float(y1) <= TOP or float(y0) >= float(height) - BOTTOM:
                continue  # the running header or footer
            lines.append(Line(float(x0), float(y0), float(x1), float(y1), text))
        lines.sort(key=lambda line: (round(line.y0), line.x0))
        pages.append(Page(n, float(width), float(height), tuple(lines)))
    return pages
