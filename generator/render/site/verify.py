"""After the site is built and before it replaces the last good one: links and safety, checked.

Every page's content must be free of scripts, event handlers, frames, styles and unsafe URLs
(whatever got past escaping and sanitizing), every relative link and anchor in any page, raw HTML
included, must resolve to a built file and an existing id, and no id may be given twice in a page. A page
may load only the scripts the site ships (``shipped_scripts``: the project's and the theme's).

A page is read in one pass of one regular expression that splits it as an HTML tokenizer does:
comments, the raw text of ``<script>`` and ``<style>``, the words of ``<title>`` and ``<textarea>``
(never markup, whatever they look like), and tags with their attributes: no method call per token, as a parser
such as Python's ``HTMLParser`` makes.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import asdict, dataclass, field, replace
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse, urlsplit

from ...book.files import MAX_OUTPUT_BYTES, read_file_text
from ...errors import BuildError, Problem, problem_line

# The theme draws its icons as inline <svg> inside the article, so svg itself is allowed; scripts are not.
UNSAFE_TAGS = {"script", "iframe", "object", "embed", "style", "link", "meta", "base", "frame", "frameset", "foreignobject"}
UNSAFE_URL = re.compile(r"^\s*(javascript|data|vbscript|file):", re.I)
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "poster")
# The theme's own inline scripts (Material for MkDocs); any other inline script is an injection.
THEME_SCRIPTS = ("__md_scope=", "var palette=__md_get(", "var target=document.getElementById(location.hash")
THEME_SCRIPTS_DIR = "assets/javascripts"  # where a MkDocs theme keeps its scripts (Material: its bundle and search)
# The book's service worker (offline.py writes it), by path in the site: at the edition's root, its scope is the whole
# edition. Named here, where the check allows it, and not in offline.py, which reads pages with this module's parser.
WORKER = "sw.js"
SCRIPT_FILES = (".js", ".mjs")  # a script a page or a worker loads: only those the site ships, and its service worker

# Up to the tag's '>', quoted values whole; as in a browser, a tag or a value never closed runs to the end of the page
# (tried from the next '<' instead, a page of '<a' would cost the square of its length)
_ATTRS = r"""(?P<attrs>(?:"[^"]*+(?:"|\Z)|'[^']*+(?:'|\Z)|[^'">])*+)"""
TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"  # a comment
    r"|<![^>]*>?"  # <!DOCTYPE ...>
    r"|<(?P<raw>script|style)(?=[\s/>])" + _ATTRS.replace("attrs", "rawattrs") + r"(?:>|\Z)(?P<body>.*?)(?:</(?P=raw)\s*>|\Z)"
    r"|<(?P<words>title|textarea)(?=[\s/>])" + _ATTRS.replace("attrs", "wordattrs") + r"(?:>|\Z).*?(?:</(?P=words)\s*>|\Z)"
    r"|</(?P<close>article)\s*>"  # the one end tag that matters: where the page's own content ends
    r"|<(?P<tag>[a-zA-Z][^\t\n\f\r />]*+)" + _ATTRS + "(?:>|\\Z)",  # other end tags are passed over like text
    re.S | re.I)
ATTRIBUTE = re.compile(r"""([^\s"'>/=][^\s"'>/=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
CONTENT = "md-content__inner"  # the class of the <article> that holds the page's own content


def attributes(text: str) -> dict[str, str]:
    """A tag's attributes by lower-case name, values unescaped (the first of a repeated name wins, as in HTML)."""
    found: dict[str, str] = {}
    for name, double, single, bare in ATTRIBUTE.findall(text):
        found.setdefault(name.lower(), unescape(double or single or bare))
    return found


@dataclass
class Page:
    """What one built page holds: its ids, its links (with their lines) and its problems."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, int]] = field(default_factory=list)
    scripts: list[tuple[str, int]] = field(default_factory=list)  # the <script src> it loads, with their lines
    problems: list[Problem] = field(default_factory=list)  # each at its line; the page's path set by verify_site
    targets: list[tuple[str, int, str, bool, str]] | None = None  # its links resolved (``resolve_links``)


def read_page(text: str) -> Page:
    """Tokenize one page and note its ids, links and active content."""
    page = Page()
    line, counted = 1, 0
    articles = 0  # <article> tags open inside the content (>0: inside the page's own content)
    for m in TOKEN.finditer(text):
        line += text.count("\n", counted, m.start())
        counted = m.start()
        if m["close"]:
            articles = max(articles - 1, 0)
            continue
        if m["raw"] or m["words"]:
            tag, attrs = (m["raw"] or m["words"]).lower(), attributes(m["rawattrs"] or m["wordattrs"] or "")
        elif m["tag"]:
            tag, attrs = m["tag"].lower(), attributes(m["attrs"]) if m["attrs"] else {}
        else:
            continue  # a comment or a doctype
        if tag == "article" and (articles or CONTENT in attrs.get("class", "").split()):
            articles += 1
        _start_tag(page, tag, attrs, line, inside=articles > 0)
        if tag == "script":
            _script(page, attrs, m["body"] or "", line)
    return page


def _found(line: int, check: str, message: str, path: str = "") -> Problem:
    """A problem of a built page (``site.<problem>``), at its line."""
    return Problem(path, line, f"site.{check}", message)


def _start_tag(page: Page, tag: str, attrs: dict[str, str], line: int, inside: bool) -> None:
    for name in (attrs.get("id"), attrs.get("name") if tag == "a" else None):
        if name:
            if name in page.ids:  # a link to it would find only the first
                page.problems.append(_found(line, "id_twice", f"id {name!r} is given twice"))
            page.ids.add(name)
    for key in URL_ATTRIBUTES:
        value = attrs.get(key)
        if value and UNSAFE_URL.match(value):
            page.problems.append(_found(line, "unsafe_url", f"unsafe URL in <{tag} {key}>: {value[:60]}"))
    if tag in ("a", "link") and attrs.get("href"):
        page.links.append((attrs["href"], line))
    if not inside:
        return
    if tag in UNSAFE_TAGS:
        page.problems.append(_found(line, "active_content", f"<{tag}> in page content"))
    page.problems += [_found(line, "event_handler", f"event handler {key} on <{tag}> in page content")
                      for key in attrs if key.startswith("on")]
    if tag == "img" and urlparse(attrs.get("src", "")).scheme:
        page.problems.append(_found(line, "remote_image", f"remote image {attrs['src']}"))


def _script(page: Page, attrs: dict[str, str], body: str, line: int) -> None:
    src = attrs.get("src")
    if src and (urlparse(src).scheme or urlparse(src).netloc):
        page.problems.append(_found(line, "outside_script", f"script from outside the site's assets: {src[:80]}"))
    elif src:  # which file it is depends on the page's place in the site: looked up in verify_site
        page.scripts.append((src, line))
    text = body.strip()
    is_config = attrs.get("type") == "application/json" and attrs.get("id") == "__config"
    if text and not is_config and not text.startswith(THEME_SCRIPTS):
        page.problems.append(_found(line, "inline_script", f"inline script that is not the theme's: {text[:60]}"))
    if is_config and "<" in text:
        page.problems.append(_found(line, "config_markup", "markup inside the theme's configuration"))


def resolve_links(rel: str, page: Page) -> list[tuple[str, int, str, bool, str]]:
    """The links of the page at ``rel`` (its path in the site) within the site: each as its text, its line, the
    path it names, whether that may be a folder (its index page) and its anchor. Worked out once a page is read,
    so that the site check has only to look each one up once the site is written."""
    here, targets = posixpath.dirname(rel), []
    for href, line in page.links:
        url = urlsplit(href)
        if url.scheme or url.netloc or href.startswith("mailto:"):
            continue
        target = posixpath.normpath(posixpath.join(here, unquote(url.path))) if url.path else rel
        targets.append((href, line, target, url.path.endswith("/"), url.fragment))
    return targets


def shipped_scripts(config: Any) -> frozenset[str]:
    """The scripts the site ships, by path in the site: the project's own (mkdocs.yml's extra_javascript) and
    the theme's (every script in its assets/javascripts folder, as the theme writes it into the site)."""
    own = {str(getattr(js, "path", js)) for js in config["extra_javascript"]}
    theme = {f"{THEME_SCRIPTS_DIR}/{path.relative_to(folder / THEME_SCRIPTS_DIR).as_posix()}"
             for folder in map(Path, config["theme"].dirs) for path in (folder / THEME_SCRIPTS_DIR).rglob("*.js")}
    return frozenset(own | theme)


def _script_problems(rel: str, page: Page, scripts: frozenset[str]) -> list[Problem]:
    here = posixpath.dirname(rel)
    # A path from the root ('/assets/…', as MkDocs writes the 404 page) is read from the site's root.
    return [_found(line, "unshipped_script", f"script that is not one the site ships: {src[:80]}", rel)
            for src, line in page.scripts
            if posixpath.normpath(posixpath.join(here, unquote(urlsplit(src).path))).lstrip("/") not in scripts]


def verify_site(site: Path, read: dict[str, Page] | None = None,
                scripts: frozenset[str] = frozenset()) -> list[Problem]:
    """Problems found in a built site (empty when all is well); ``read``: pages already read, by path in the site;
    ``scripts``: the scripts a page may load (``shipped_scripts``), by path in the site."""
    # Every built file and folder, listed once, by its path in the site: each link's target is looked up
    # in these sets, as text (no Path object made per link, of which a page has a hundred). A built
    # site has no symbolic links, so a normalised path names the same file that resolve() would.
    site = Path(os.path.abspath(site))
    files, folders = set(), {"."}
    for folder, subfolders, names in os.walk(site):
        here = os.path.relpath(folder, site).replace(os.sep, "/")
        prefix = "" if here == "." else here + "/"
        folders.update(prefix + name for name in subfolders)
        files.update(prefix + name for name in names)
    read = read or {}
    pages = {rel: read[rel] if rel in read else read_page(read_file_text(site / rel, MAX_OUTPUT_BYTES))
             for rel in sorted(files) if rel.endswith(".html")}
    problems = [_found(0, "unshipped_file", f"script file that the site does not ship (nor the book's service worker, "
                                            f"{WORKER})", rel)
                for rel in sorted(files) if rel.endswith(SCRIPT_FILES) and rel not in scripts and rel != WORKER]
    for rel, page in pages.items():
        problems += [replace(p, path=rel) for p in page.problems] + _script_problems(rel, page, scripts)
        if rel == "404.html":  # MkDocs writes the 404 page with site-absolute links by design
            continue
        if page.targets is None:  # a page the site check's process was not told of
            page.targets = resolve_links(rel, page)
        for href, line, target, folder, fragment in page.targets:
            if folder or target in folders:
                target = "index.html" if target == "." else f"{target}/index.html"
            if target not in files:
                problems.append(_found(line, "broken_link", f"broken link {href}", rel))
                continue
            if fragment and target.endswith(".html") and fragment not in pages[target].ids:
                problems.append(_found(line, "broken_anchor", f"broken anchor {href}", rel))
    return problems


class SiteCheck:
    """``verify_site`` in a second process that reads each page as soon as MkDocs has written it.

    Reading the pages is most of the check, and MkDocs builds on one CPU: told each page's path once the page
    is on disk, the checker reads it on another CPU while the next pages are built. At the end it lists the site, reads whatever it
    was not told of (the 404 page, pages of an earlier build), checks every link and anchor, and
    answers with the problems. It reads the files, not MkDocs' text, so it checks what was written.
    """

    def __init__(self, site: Path, scripts: frozenset[str] = frozenset()) -> None:
        import json
        import subprocess
        import sys

        self.site = Path(os.path.abspath(site))
        self.process = subprocess.Popen([sys.executable, "-m", __name__, str(self.site), json.dumps(sorted(scripts))], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                        cwd=Path(__file__).resolve().parents[3])

    def written(self, rel: str) -> None:
        """The page at ``rel`` (its path in the site) is written: read it now."""
        try:
            self.process.stdin.write(rel + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:  # the checker has stopped: problems() says why
            pass

    def problems(self) -> list[Problem]:
        """Wait for the checker: the problems it found in the whole site."""
        import json

        stdout, stderr = self.process.communicate()  # a checker that died: communicate ignores the broken pipe
        if self.process.returncode != 0:
            last = (stderr.strip().splitlines() or ["no message"])[-1]
            raise BuildError(f"the site check stopped before it finished: {last}")
        return [Problem(**found) for found in json.loads(stdout)]

    def stop(self) -> None:
        """Stop the checker (the build failed): nothing is left running."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


def _checker(site: Path, scripts: frozenset[str]) -> None:
    """The second process of ``SiteCheck``: one path a line on stdin, the problems as JSON on stdout."""
    import json
    import sys

    read = {}
    for line in sys.stdin:
        rel = line.rstrip("\n")
        path = site / rel
        if rel.endswith(".html") and path.is_file():
            read[rel] = page = read_page(read_file_text(path, MAX_OUTPUT_BYTES))
            page.targets = resolve_links(rel, page)
    json.dump([asdict(p) for p in verify_site(site, read, scripts)], sys.stdout)


def check_site(site: Path, scripts: frozenset[str]) -> None:
    """Raise BuildError listing every problem in a built site (``scripts``: those it ships)."""
    problems = verify_site(site, scripts=scripts)
    if problems:
        raise BuildError("the built site failed its checks:\n" + "\n".join(problem_line(p) for p in problems[:50]))


if __name__ == "__main__":
    import json
    import sys

    _checker(Path(sys.argv[1]), frozenset(json.loads(sys.argv[2])))
