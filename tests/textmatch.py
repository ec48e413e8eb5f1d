"""Normalised text matching between the sources and what the reader sees."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "zero": "0"}


def source_line(text: str) -> str:
    """A source line without its list marker ('- ', '• ', '1. '), which the site draws, not prints."""
    return re.sub(r"^\s*(?:[-*•·]|\d+[.)])\s+", "", text)


def normalise(text: str) -> str:
    """Lower case words and digits only: markup, punctuation, quotes and number words evened out."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"<[^>]+>", "", text)  # <sup>th</sup>, <u>, <b> in the exported sources
    text = re.sub(r"\[bookmark:[^\]]*\]", "", text)  # word-processor export debris
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # Markdown links: keep the text
    text = text.replace("\\_", "_").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 10,000 -> 10000
    text = re.sub(r"(\d)\s+(st|nd|rd|th)\b", r"\1\2", text)  # "1 <sup>st</sup>" prints as 1st
    text = text.lower()
    text = re.sub(r"[^\w½♣♦♥♠]+|_+", " ", text)
    words = [NUMBER_WORDS.get(w, w) for w in text.split()]
    return " ".join(words)


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


def site_text(site: Path) -> dict[str, str]:
    """Normalised content text of every page of a built site, by page path."""
    return {p.relative_to(site).as_posix(): normalise(page_text(p.read_text(encoding="utf-8")))
            for p in sorted(site.rglob("*.html")) if p.name != "404.html"}
