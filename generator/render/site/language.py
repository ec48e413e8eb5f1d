"""The site's language is the book's (book.yaml's ``language:``): the theme's words, its ``lang``, and its search.

mkdocs.yml need not say it: the rulebook plugin sets the theme's language and the search's before the search reads
them (``follow``). A mkdocs.yml that says another gets one line at validate (``mismatches``), at its line.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import yaml

from ...book.files import read_source_text
from ...book.words import Words, _
from ...errors import Problem

CONFIG = "mkdocs.yml"
BOOK = "rules_data/book.yaml"


def _theme_languages() -> set[str]:
    import material

    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"
    return {p.stem for p in folder.glob("*.html")}


def theme_language(language: str) -> str:
    """The theme's language for the book's: its own, else its base ('de-AT' -> 'de'), else English."""
    known = _theme_languages()
    tag = language.replace("_", "-")
    for name in (tag, tag.split("-")[0].lower()):
        if name in known:
            return name
    return "en"


def _book_data(root: Path) -> Any:
    try:
        return yaml.safe_load(io.StringIO(read_source_text(root / BOOK, BOOK, root)))
    except Exception:  # noqa: BLE001 - a book.yaml that cannot be read fails the build, with its line, later
        return None


def book_language(root: Path) -> str:
    """book.yaml's ``language:`` read alone (the plugin has not loaded the book yet); 'en' when it says none."""
    data = _book_data(root)
    language = data.get("language") if isinstance(data, dict) else None
    return language if isinstance(language, str) and language else "en"


def book_words(root: Path) -> Words:
    """The words book.yaml states (its language and its own messages), read alone: what the theme's pages the tool
    adds to (templates/site/overrides) write their words in, in the process MkDocs runs in."""
    from ...book.library import stated_words

    return stated_words(_book_data(root))


def follow(config: Any, language: str) -> None:
    """Set the theme's language to the book's ``language``; the search takes the theme's at its own on_config, which
    runs after the plugin's (a search language mkdocs.yml names stays: validate says when it differs)."""
    config["theme"]["language"] = theme_language(language)


class _Tagged(yaml.SafeLoader):
    """mkdocs.yml's YAML with its tags (``!!python/name:``, ``!ENV``) read as plain values: only two settings matter."""


_Tagged.add_multi_constructor("", lambda loader, suffix, node: None)


def _line(text: str, key: str, after: str) -> int:
    start = text.find(after) if after else 0
    m = re.compile(rf"^\s*-?\s*{key}\s*:", re.M).search(text, max(start, 0))
    return text.count("\n", 0, m.start()) + 1 if m else 0


def mismatches(root: Path, language: str) -> list[Problem]:
    """mkdocs.yml's theme language or search language where it differs from the book's: one line each, at its line."""
    path = root / CONFIG
    if not path.is_file():
        return []
    try:
        text = read_source_text(path, CONFIG, root)
        config = yaml.load(io.StringIO(text), Loader=_Tagged)  # noqa: S506 - every tag is read as nothing
    except Exception:  # noqa: BLE001 - a mkdocs.yml that cannot be read is the build's to report
        return []
    if not isinstance(config, dict):
        return []
    found: list[Problem] = []
    want = theme_language(language)
    theme = config.get("theme")
    said = theme.get("language") if isinstance(theme, dict) else None
    if said is not None and str(said) != want:
        found.append(Problem(CONFIG, _line(text, "language", "theme:"), "site.language",
                             _("theme.language is '%(said)s', but book.yaml's language is '%(language)s': remove it "
                               "(book.yaml's language: sets the site's)", said=said, language=language), "warning"))
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and isinstance(plugin.get("search"), dict) and plugin["search"].get("lang"):
            lang = plugin["search"]["lang"]
            langs = [lang] if isinstance(lang, str) else list(lang)
            if want.split("-")[0] not in [str(x).split("-")[0] for x in langs]:
                found.append(Problem(CONFIG, _line(text, "lang", "search"), "site.language",
                                     _("the search's lang is %(langs)s, but book.yaml's language is '%(language)s': "
                                       "remove it (book.yaml's language: sets the search's)", langs=langs,
                                       language=language), "warning"))
    return found
