"""The one place where text becomes HTML: Jinja set-up, Markdown, and the sanitizer.

Contributor text (YAML strings, Markdown prose) is untrusted. Jinja autoescapes every template,
whatever its name; undefined variables fail the build. Prose goes through Markdown with raw HTML
escaped, then through nh3 (an allow-list HTML sanitizer), and only then is marked safe. The
MkDocs plugin runs the same sanitizer over every finished page body as a second line of defence.
"""

from __future__ import annotations

import functools
import hashlib
import re
from html import escape as html_escape
from pathlib import Path
from typing import Any

import jinja2
import markdown
import nh3
from markupsafe import Markup, escape

from ...book import words
from ...book.files import TOOL_PREFIX, TOOL_TEMPLATES
from ...book.rendered import PROSE_EXTENSIONS
from ...book.textdiff import escape as markdown_literal

__all__ = ["PROSE_EXTENSIONS", "Markup", "escape", "environment", "inline_markdown", "prose_html", "prose_markdown",
           "sanitize", "text_markdown"]

TEMPLATES = TOOL_TEMPLATES  # the tool's own; a book may override them (``environment``)

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div",
    "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "input", "ins",
    "kbd", "label", "li", "mark", "nav", "ol", "p", "pre", "q", "s", "section", "small", "span", "strong",
    "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "button", "form",
    "fieldset", "legend", "select", "option", "output", "aside", "header", "footer", "article", "main",
}
ALLOWED_ATTRIBUTES = {
    "*": {"class", "id", "title", "lang", "role", "aria-label", "aria-hidden", "aria-live", "aria-describedby",
          "data-players-min", "data-players-max", "data-players-step", "data-players-set", "data-category",
          "data-equipment", "data-one-deck", "data-partnerships", "data-game", "hidden", "tabindex",
          # the score keeper's (keep/<game>/): its sheet's shape and winner rule, read by assets/keeper.js
          "data-key", "data-counts", "data-start", "data-keeps", "data-lives", "data-coins", "data-winner", "data-target",
          "data-lose-at", "data-back-to", "data-halves", "data-teams", "data-open", "data-step", "data-per",
          "data-player", "data-sum", "data-cell", "data-col", "data-table", "data-act", "data-carries",
          # the words the keeper's and finder's scripts write, in the book's language (JSON: book/words.py), and the
          # sign the language groups a number's thousands with, which the keeper reads a score box by
          "data-words", "data-group"},
    "a": {"href", "name"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "col": {"span"},
    "input": {"type", "name", "value", "min", "max", "checked", "for", "inputmode", "pattern", "placeholder",
              "autocomplete"},
    "button": {"type"},
    "label": {"for"},
    "select": {"name"},
    "option": {"value", "selected"},
    "ol": {"start"},
    "details": {"open"},
    "output": {"for"},
}
URL_SCHEMES = {"http", "https", "mailto"}


def sanitize(html: str) -> str:
    """Strip everything not on the allow-list: scripts, styles, event handlers, unsafe URLs."""
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, url_schemes=URL_SCHEMES,
                     link_rel="noopener noreferrer", strip_comments=True)


def inline_markdown(text: str) -> Markup:
    """One line of YAML text as HTML: escaped first, then only **bold** and *italics* made tags."""
    html = str(escape(text))
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    html = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", html)
    return Markup(html)  # noqa: S704 - escaped above; only the two tags added are not text


def text_markdown(text: str) -> Markup:
    """Data text (a title, a reason) printed literally in Markdown."""
    return Markup(markdown_literal(html_escape(text, quote=False)))  # noqa: S704 - escaped for HTML and Markdown


def escape_raw_html(text: str) -> str:
    """Make contributor Markdown's raw HTML show as text (``<script>`` becomes ``&lt;script>``)."""
    return text.replace("<", "&lt;")


def demote_headings(text: str, levels: int) -> str:
    """Push Markdown headings down ``levels`` (a variant's '## Play' becomes '### Play')."""
    return re.sub(r"^(#{1,6})(?=\s)", lambda m: "#" * min(6, len(m.group(1)) + levels), text, flags=re.M)




@functools.cache
def _prose_converter() -> markdown.Markdown:
    # Made when print first needs it: 10-35 ms that the site (MkDocs converts its own pages) and
    # `rulebook validate` would spend for nothing at import.
    return markdown.Markdown(extensions=PROSE_EXTENSIONS)


# An e-mail address as prose prints it (editor@example.org), in text outside a link, code or preformatted text.
EMAIL = re.compile(r"(?<![\w.+@-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?<!\.)(?![\w@-])")
# A tag, a '>' inside its quoted attributes included; as in a browser, one never closed runs to the end of the text
_TAG = re.compile(r"""(<(?:[^>"']|"[^"]*+(?:"|\Z)|'[^']*+(?:'|\Z))*+(?:>|\Z))""")
_NO_LINK = {"a", "code", "pre"}  # inside these an address stays text (a link in a link is invalid HTML)


def link_addresses(html: str) -> str:
    """Sanitized HTML with each e-mail address in its text made a mailto link, its text unchanged: on paper it
    reads the same, and in the PDF a reader (or a screen reader) can follow it."""
    out, inside = [], 0
    for piece in _TAG.split(html):
        if piece.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", piece)
            if name and name.group(1).lower() in _NO_LINK and not piece.endswith("/>"):
                inside += -1 if piece.startswith("</") else 1
            out.append(piece)
        elif inside > 0:
            out.append(piece)
        else:  # text, escaped by the sanitizer: an address holds no character it escapes
            out.append(EMAIL.sub(lambda m: f'<a href="mailto:{m.group(0)}">{m.group(0)}</a>', piece))
    return "".join(out)


def prose_html(text: str) -> Markup:
    """Contributor Markdown to sanitized HTML, ready for a template (print's: e-mail addresses are links)."""
    converter = _prose_converter()
    converter.reset()
    html = converter.convert(escape_raw_html(text))
    clean = sanitize(html)
    linked = link_addresses(clean)
    return Markup(clean if linked == clean else sanitize(linked))  # noqa: S704 - sanitized here


def prose_markdown(text: str) -> Markup:
    """Contributor Markdown kept as Markdown for MkDocs (raw HTML escaped; pages are sanitized again)."""
    return Markup(escape_raw_html(text))  # noqa: S704 - no raw HTML survives escape_raw_html


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates shared by every environment of the process and kept on disk between runs.

    An environment is made per document (each score sheet, each build of the site), and each
    compiled its templates again: 0.2 s a template, most of a score sheet's HTML. Each process (a
    site build, a test run) compiled them all once more: 60 ms of the site's build. Jinja checks the
    source's checksum and Python's version on every load, so an edited template (``rulebook
    preview``) compiles anew. On disk they are in the user's cache folder beside the parsed YAML
    (``loader.user_cache``), under a name that holds the options below: compiled code depends on them.
    """

    def __init__(self, options: str, directory: Path | None = None) -> None:
        self.compiled: dict[str, bytes] = {}
        self.options, self.directory = options, directory  # None: user_cache()/templates
        self.disk: Path | None | bool = None  # False: no usable folder

    def _disk(self) -> Path | None:
        if self.disk is None:
            # Imported here, not above: the loader brings in the data model (pydantic), which the MkDocs plugin's
            # own process does not otherwise need (render/site/worker.py makes the pages); ``files`` does not.
            from ...book.files import user_cache

            try:
                self.disk = self.directory or user_cache() / "templates"
            except RuntimeError:  # no home: compile in every process
                self.disk = False
        return self.disk or None

    def _entry(self, folder: Path, key: str) -> Path:
        return folder / f"{hashlib.sha256(self.options.encode()).hexdigest()[:16]}-{key}.cache"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])
            return
        folder = self._disk()
        if folder is not None:
            from ...book.files import stored

            # Sealed (``files.store``): an entry damaged, cut short, edited or another's is compiled anew, never run.
            kept = stored(self._entry(folder, bucket.key), folder)
            try:
                if kept is not None:
                    bucket.bytecode_from_string(kept)
            except Exception:  # noqa: BLE001 - sealed, but by another Python (marshal): compiled anew
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()
        folder = self._disk()
        if folder is not None:
            from ...book.files import store

            store(self._entry(folder, bucket.key), self.compiled[bucket.key])  # a full disk costs only speed




class _Templates(jinja2.BaseLoader):
    """The templates, read through the door every file passes (``files.read_source``): a plain UTF-8 file inside its
    templates folder, never through a link out of it. The first folder holding a template gives it (a book's own
    ``templates/`` before the tool's: ``files.template_folders``)."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        from ...book.files import read_source_text, template_bounds
        from ...errors import SourceError

        # 'tool:game.md.j2' is the tool's own template, never the book's: a book's template of the same name extends
        # it ({% extends "tool:site/game.md.j2" %}) and replaces a block, without copying the rest.
        folders = self.folders[-1:] if template.startswith(TOOL_PREFIX) else self.folders
        template = template.removeprefix(TOOL_PREFIX)
        parts = jinja2.loaders.split_template_path(template)  # no '..': TemplateNotFound
        found = [(f, f.joinpath(*parts)) for f in folders]
        folder, path = next(((f, p) for f, p in found if p.is_file() or p.is_symlink()), (None, None))
        if path is None:
            raise jinja2.TemplateNotFound(template)
        try:
            source = read_source_text(path, f"templates/{'/'.join(parts)}", template_bounds(folder))
        except SourceError as exc:
            raise jinja2.TemplateError(str(exc)) from None
        mtime = path.lstat().st_mtime_ns
        return source, str(path), lambda: path.lstat().st_mtime_ns == mtime


# What the compiled code depends on besides the template's source (which Jinja checks itself).
_OPTIONS = dict(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True,
                lstrip_blocks=True)
_COMPILED = _CompiledTemplates(f"jinja2 {jinja2.__version__} {sorted((k, repr(v)) for k, v in _OPTIONS.items())}")


def _filled(text: str, own: bool, values: dict[str, Any]) -> Markup:
    # The tool's catalogue may write markup (a link in a sentence); a book's own words (book.yaml) are text, escaped
    # as every value filled in is (Markup's %).
    template = escape(text) if own else Markup(text)  # noqa: S704 - the tool's own catalogue
    try:
        return template % {k: v for k, v in values.items()} if values else template
    except (KeyError, ValueError, TypeError):
        return template


def _message(message: str, **values: Any) -> Markup:
    """A template's message in the book's language (book/words.py), its values escaped."""
    return _filled(*words.current().text(message), values)


def _plural_message(singular: str, plural: str, n: int | float, **values: Any) -> Markup:
    """A template's counted message in the book's language, ``%(count)s`` the count ``n``, its values escaped."""
    return _filled(*words.current().plural_text(singular, plural, n), {"count": n, **values})


def _link(href: str, text: str) -> Markup:
    """A link for a message to name as one of its values: ``<a href="…">text</a>``, both escaped."""
    return Markup('<a href="{}">{}</a>').format(href, text)


def environment(book_root: Path | None = None, **globals_: Any) -> jinja2.Environment:
    """The Jinja environment: autoescape on for every template, undefined names are errors; a template in
    ``book_root``'s own templates/ folder overrides the tool's of the same name."""
    from ...book.files import template_folders

    env = jinja2.Environment(
        loader=_Templates(template_folders(book_root)),
        bytecode_cache=_COMPILED,  # every environment has the same options, so the same code
        **_OPTIONS,
    )
    env.filters["e"] = escape
    env.filters["inline"] = inline_markdown  # YAML text printed as it is written: **bold**, never asterisks
    # The tool's words, in the book's language (book/words.py): a template writes {{ _("At a glance") }}, and
    # {{ ngettext("%(count)s player", "%(count)s players", n) }}. Autoescaped as any value: a book's own words too.
    env.globals.update(_=_message, ngettext=_plural_message, link=_link)
    # How the language writes a number (a score box is read by its group sign: keeper.js).
    env.globals.update(number_group=words.number_group, thousand=words.thousand)
    env.globals.update(globals_)
    return env


_LINK = re.compile(r'<a\b([^>]*?)\bhref="([^"]*)"([^>]*)>(.*?)</a>', re.S)


def print_links(html: str, here: str, leads_to: Any) -> str:
    """Sanitized prose HTML of the site page ``here`` with each link made one the PDF can follow: to where the book
    prints the page it leads to (``leads_to(target, here)``: ``#game-hearts``), or its text alone when print has no
    such page. Never left relative: WeasyPrint would make it a ``file:`` address on the build machine."""
    if "<a" not in html:
        return html

    def sub(m: re.Match[str]) -> str:
        target = leads_to(unescape_attribute(m.group(2)), here)
        if target is None:
            return m.group(4)
        return f'<a{m.group(1)}href="{html_escape(target)}"{m.group(3)}>{m.group(4)}</a>'

    return _LINK.sub(sub, html)


def unescape_attribute(value: str) -> str:
    """An attribute's value as the sanitizer wrote it, unescaped."""
    from html import unescape

    return unescape(value)
