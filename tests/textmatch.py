"""Loose text matching for tests that look for a title or label on a page (word-exact comparison
with the sources lives in test_fidelity.py)."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser


def source_line(text: str) -> str:
    """A source line without its list marker ('- ', '• ', '1. '), which the site draws, not prints."""
    return re.sub(r"^\s*(?:[-*•·]|\d+[.)])\s+", "", text)


def normalise(text: str) -> str:
    """Lower case words and digits only: markup, punctuation and quotes evened out (numbers as written)."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"<[^>]+>", "", text)  # <sup>th</sup>, <u>, <b> in the exported sources
    text = re.sub(r"\[bookmark:[^\]]*\]", "", text)  # word-processor export debris
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # Markdown links: keep the text
    text = text.replace("\\_", "_").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 10,000 -> 10000
    text = re.sub(r"(\d)\s+(st|nd|rd|th)\b", r"\1\2", text)  # "1 <sup>st</sup>" prints as 1st
    text = text.lower()
    text = re.sub(r"[^\w½♣♦♥♠]+|_+", " ", text)
    return " ".join(text.split())


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "article" and "md-content__inner" in cls:
            self.depth = 1
        elif self.depth and tag not in ("br", "hr", "img", "input", "col", "wbr"):
            self.depth += 1
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def page_text(html: str) -> str:
    """The reader-visible text of a built page's content."""
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)
