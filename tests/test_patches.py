"""The register of reaches into other projects' internals (generator/render/patches.py).

Each entry has a canary here (``CANARIES``, by the entry's name): it runs upstream's own code on a tiny case and
asserts the behaviour the entry works around. When a canary fails, upstream has changed: read its entry, and drop
the entry (or rewrite it) if upstream no longer needs it. A second part reads every module of generator/ and fails
on a reach into WeasyPrint, pydyf, pypdf or MkDocs that no entry names (an upstream attribute assigned, a private
name used, an internal WeasyPrint module imported, an upstream class subclassed). No book is laid out here.
"""

from __future__ import annotations

import ast
import functools
import io
import random
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest

from generator.render import patches

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
PAGE = "<style>@page { size: 200px 200px; margin: 0 } body { margin: 0 } .box { float: right; width: 60px; " \
       "break-inside: avoid } .box div { height: 40px }</style>"


def _anchor_pages(html: str) -> dict[str, int]:
    """The page (from 0) each id of ``html`` is laid out on, by WeasyPrint as the process has it now."""
    import weasyprint

    found: dict[str, int] = {}
    for n, page in enumerate(weasyprint.HTML(string=PAGE + html).render().pages):
        for anchor in page.anchors:
            found.setdefault(anchor, n)
    return found


def _upstream_and_patched(html: str) -> tuple[dict[str, int], dict[str, int]]:
    with patches.unpatched():
        upstream = _anchor_pages(html)
    return upstream, _anchor_pages(html)


def float_split_at_page_foot() -> None:
    """A float with break-inside: avoid that reaches the page foot is split there."""
    upstream, patched = _upstream_and_patched(
        "<div style='height: 150px'></div><div class=box><div id=top></div><div id=bottom></div></div>"
        "<div style='height: 300px'></div>")
    assert upstream["top"] != upstream["bottom"], upstream  # split: the behaviour the patch works around
    assert patched["top"] == patched["bottom"], patched  # (and this case is one the patch changes)


def float_pushed_without_its_heading() -> None:
    """A float that does not fit at all goes to the next page, leaving above it a heading that may not end a page."""
    upstream, patched = _upstream_and_patched(
        "<div style='height: 170px'></div><article><h2 id=heading style='height: 20px; margin: 0; "
        "break-after: avoid'></h2><div class=box id=box><div></div><div></div></div><div style='height: 300px'></div>"
        "</article>")
    assert upstream["heading"] != upstream["box"], upstream
    assert patched["heading"] == patched["box"], patched


def page_references_rebuilt_on_every_read() -> None:
    import pydyf

    pdf = pydyf.PDF()
    pdf.add_page(pydyf.Dictionary({"Type": "/Page"}))
    assert isinstance(vars(pydyf.PDF)["page_references"], property)
    assert pdf.page_references == pdf.page_references and pdf.page_references is not pdf.page_references


def same_payload_deflated_again() -> None:
    """Two streams with the same payload are deflated twice (so are two writes of one stream)."""
    import pydyf

    payload = random.Random(3).randbytes(100_000)
    with mock.patch.object(pydyf.zlib, "compressobj", wraps=zlib.compressobj) as deflate:
        first, stream = pydyf.Stream([payload], compress=True).data, pydyf.Stream([payload], compress=True)
        assert stream.data == first == stream.data
    assert deflate.call_count == 3


def writer_needs_every_layout_until_the_end() -> None:
    """WeasyPrint's writer reads a page's layout (to tag it) after it has drawn the pages that follow."""
    import weasyprint
    from weasyprint.document import Page

    events: list[tuple[str, int]] = []

    class Watched(Page):
        @property
        def _page_box(self):
            events.append(("layout", self.number))
            return self.__dict__["_page_box"]

    document = weasyprint.HTML(string="<p>One</p><p style='break-before: page'>Two</p>").render()
    for number, page in enumerate(document.pages):
        page.__class__, page.number = Watched, number
        page.paint = (lambda paint, n: lambda *a, **k: (events.append(("draw", n)), paint(*a, **k))[1])(page.paint,
                                                                                                      number)
    document.write_pdf(pdf_tags=True)
    last_drawn = events.index(("draw", 1))
    assert ("layout", 0) in events[last_drawn:], events


def fields_without_appearance_or_totals() -> None:
    """WeasyPrint gives an empty text field no appearance (viewers must make them all) and a total no calculation."""
    import pypdf
    import weasyprint

    html = ("<input style='appearance: auto' name=a><input style='appearance: auto' name=b>"
            "<input style='appearance: auto' name=total data-sum='a b'>")
    reader = pypdf.PdfReader(io.BytesIO(weasyprint.HTML(string=html).write_pdf()))
    fields = [a.get_object() for a in reader.pages[0]["/Annots"]]
    assert [f["/T"] for f in fields] == ["a", "b", "total"] and all(f["/FT"] == "/Tx" for f in fields)
    assert not any("/AP" in f or "/AA" in f for f in fields)
    form = reader.trailer["/Root"]["/AcroForm"]
    assert form["/NeedAppearances"] and "/CO" not in form


def _tagged(html: str) -> object:
    """``html`` written by WeasyPrint's own writer as PDF/UA-1, read by pypdf."""
    import pypdf
    import weasyprint

    return pypdf.PdfReader(io.BytesIO(weasyprint.HTML(string=f"<html lang=en><title>T</title>{html}").write_pdf(
        pdf_variant="pdf/ua-1")))


def _elements(reader: object) -> list:
    """Every structure element reachable from the root, in tree order."""
    found, stack = [], [reader.trailer["/Root"]["/StructTreeRoot"]]
    while stack:
        node = stack.pop()
        kids = node.get("/K", [])
        kids = kids if isinstance(kids, list) else [kids]
        children = [kid.get_object() for kid in kids if hasattr(kid, "get_object")]
        children = [child for child in children if hasattr(child, "get") and child.get("/S")]
        found.extend(children)
        stack.extend(reversed(children))
    return found


def table_headers_without_scope() -> None:
    """WeasyPrint writes no /Scope on a TH, and a column group's header heads only the first column it spans."""
    reader = _tagged("<table><thead><tr><th scope=colgroup colspan=2>Player</th></tr><tr><th scope=col>Hand</th>"
                     "<th scope=col>Total</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>")
    elements = _elements(reader)
    headers = [e for e in elements if e["/S"] == "/TH"]
    assert len(headers) == 3 and not any("/Scope" in e.get("/A", {}) for e in headers)
    group = headers[0]["/ID"]
    cells = [e for e in elements if e["/S"] == "/TD"]
    assert group in cells[0]["/A"]["/Headers"] and group not in cells[1]["/A"]["/Headers"]


def margin_boxes_tagged_as_content() -> None:
    """A running head (a page-margin box) is painted inside a /Span sequence, not an artifact."""
    import pypdf

    reader = _tagged("<style>@page { @top-center { content: 'Running head' } }</style><div></div>")
    operations = pypdf.generic.ContentStream(reader.pages[0].get_contents(), reader).operations
    marks: list[bytes] = []
    shown = []
    for operands, operator in operations:
        if operator in (b"BDC", b"BMC"):
            marks.append(operands[0])
        elif operator == b"EMC":
            marks.pop()
        elif operator in (b"Tj", b"TJ"):
            shown.append(list(marks))
    assert shown and all(marks and marks[-1] == "/Span" for marks in shown), shown


def empty_span_kept_as_element() -> None:
    """An empty span (a place marked for a measure) becomes a structure element that holds nothing."""
    reader = _tagged("<p>One <span id=here></span>two</p>")
    assert [e for e in _elements(reader) if e["/S"] == "/Span" and not e.get("/K")]


def links_without_print_flag() -> None:
    reader = _tagged("<p><a href='#end'>To the end</a></p><p id=end>End</p>")
    links = [a.get_object() for a in reader.pages[0]["/Annots"] if a.get_object()["/Subtype"] == "/Link"]
    assert links and not any("/F" in link for link in links)


def page_has_no_public_layout() -> None:
    import weasyprint

    page = weasyprint.HTML(string="<p>Text</p>").render().pages[0]
    public = {name for name in vars(page) if not name.startswith("_")}
    assert public == {"width", "height", "bleed", "anchors", "links", "bookmarks", "forms"}, public
    assert "_page_box" in vars(page)


def no_public_pango_version() -> None:
    import weasyprint

    assert not [name for name in dir(weasyprint) if "pango" in name.lower()]
    assert hasattr(__import__("weasyprint.text.ffi", fromlist=["pango"]).pango, "pango_version")


def no_public_way_to_add_an_object() -> None:
    import pypdf

    named = {name for name in dir(pypdf.PdfWriter) if "object" in name and not name.startswith("_")}
    assert named == {"add_named_destination_object", "compress_identical_objects", "get_object",
                     "list_objects_in_increment", "remove_objects_from_page", "root_object"}, named
    assert callable(pypdf.PdfWriter._add_object)


def file_identifier_only_at_random() -> None:
    import inspect

    import pypdf

    assert list(inspect.signature(pypdf.PdfWriter.generate_file_identifiers).parameters) == ["self"]
    first, second = pypdf.PdfWriter(), pypdf.PdfWriter()
    first.generate_file_identifiers()
    second.generate_file_identifiers()
    assert first._ID != second._ID
    out = io.BytesIO()
    pypdf.PdfWriter().write(out)
    assert b"/ID" not in out.getvalue()  # none unless one is set


def mkdocs_lists_a_folder_in_our_order() -> None:
    from mkdocs.structure.files import _file_sort_key

    from generator.render.site.docs import _file_sort_key as ours

    names = ["rules.md", "index.md", "README.md", "Zebra.md", "a.md", "index.html", "readme.md", "z/index.md"]
    assert sorted(names, key=_file_sort_key) == sorted(names, key=ours)


def mkdocs_prints_a_failed_rebuild_as_a_traceback() -> None:
    """The server's build loop calls its builder attribute on a change, and prints what it raises as a traceback."""
    import contextlib
    import io
    import tempfile
    import threading

    from mkdocs.livereload import LiveReloadServer

    def fails() -> None:
        raise ValueError("the canary's rebuild")

    err = io.StringIO()
    with tempfile.TemporaryDirectory() as root:
        server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=root)
        server.builder = fails  # what the plugin's on_serve sets: called at the next rebuild
        try:
            with contextlib.redirect_stderr(err):
                loop = threading.Thread(target=server._build_loop, daemon=True)
                loop.start()
                with server._rebuild_cond:  # a change seen, as the server's file watcher says it
                    server._want_rebuild = True
                    server._rebuild_cond.notify_all()
                end = time.monotonic() + 20
                while "canary's" not in err.getvalue() and time.monotonic() < end:
                    time.sleep(0.05)
                with server._rebuild_cond:
                    server._shutdown = True
                    server._rebuild_cond.notify_all()
                loop.join(20)
        finally:
            server.server_close()
    assert "Traceback (most recent call last)" in err.getvalue()
    assert "ValueError: the canary's rebuild" in err.getvalue()


CANARIES: dict[str, tuple[Callable[[], None], ...]] = {
    "float-break-inside": (float_split_at_page_foot, float_pushed_without_its_heading),
    "page-references": (page_references_rebuilt_on_every_read,),
    "deflate-once": (same_payload_deflated_again,),
    "page-writer": (writer_needs_every_layout_until_the_end,),
    "form-fields": (fields_without_appearance_or_totals,),
    "table-scope": (table_headers_without_scope,),
    "margin-artifacts": (margin_boxes_tagged_as_content,),
    "empty-elements": (empty_span_kept_as_element,),
    "link-print-flag": (links_without_print_flag,),
    "page-box": (page_has_no_public_layout,),
    "pango-version": (no_public_pango_version,),
    "pypdf-add-object": (no_public_way_to_add_an_object,),
    "pypdf-file-id": (file_identifier_only_at_random,),
    "mkdocs-file-order": (mkdocs_lists_a_folder_in_our_order,),
    "mkdocs-serve-builder": (mkdocs_prints_a_failed_rebuild_as_a_traceback,),
}


@pytest.mark.parametrize("canary", [pytest.param(canary, id=f"{name}:{canary.__name__}")
                                    for name, canaries in CANARIES.items() for canary in canaries])
def test_upstream_still_needs_it(canary):
    canary()


def test_every_entry_has_a_canary_and_says_why():
    assert [entry.name for entry in patches.REGISTER] == list(CANARIES)
    for entry in patches.REGISTER:
        assert entry.kind in patches.KINDS, entry.name
        assert (entry.apply is not None) == (entry.kind == "patch"), entry.name
        assert entry.reaches and entry.does and entry.unavoidable, entry.name
        assert "github.com" in entry.upstream or "#" in entry.upstream or "would ask" in entry.upstream, entry.name
        if entry.upstream.startswith("none"):
            assert "would ask" in entry.upstream, entry.name
        assert all((GENERATOR / where).is_file() for where in entry.where), entry.name


# --- what the entries' own code must give: the bytes and answers upstream gives ------------------------------------

def test_cached_page_references_give_pydyf_answer():
    import pydyf

    pdf = patches.new_pdf()
    for _ in range(4):
        assert pdf.page_references == pydyf.PDF.page_references.fget(pdf)  # read before and after each page is added
        pdf.add_page(pydyf.Dictionary({"Type": "/Page"}))
        assert pdf.page_references == pydyf.PDF.page_references.fget(pdf)
        assert len(pdf.page_references) == pdf.pages["Count"]
    kids = pdf.pages["Kids"]
    kids[:] = kids[3:] + kids[:3]  # as the writer puts the contents first
    pdf.reordered()
    assert pdf.page_references == pydyf.PDF.page_references.fget(pdf)


@pytest.mark.parametrize("sizes", [(10,), (200_000,), (200_000, 200_000), (100, 200_000, 300_000, 200_000),
                                   (5_000_000, 5_000_000)])
def test_remembered_deflate_gives_pydyfs_bytes(sizes):
    """A stream's data through ``stream_data``, remembering large payloads, is what pydyf gives, every time."""
    import pydyf

    rng, five_bits = random.Random(7), bytes(i & 31 for i in range(256))
    payloads = {n: rng.randbytes(n).translate(five_bits) for n in set(sizes)}
    for i, n in enumerate(sizes):  # a dictionary of its own every other time: the same payload, other bytes
        stream = pydyf.Stream([payloads[n]], pydyf.Dictionary({"Type": "/XObject"} if i % 2 else None), compress=True)
        expected = stream.data
        assert patches.stream_data(stream) == expected == patches.stream_data(stream), n
        plain = pydyf.Stream([payloads[n]], compress=False)
        assert patches.stream_data(plain) == plain.data, n


@pytest.mark.parametrize("operations", [10, 3_000])  # a small page, and one past LARGE_STREAM
def test_remembered_deflate_of_a_drawn_stream_gives_pydyfs_bytes(operations):
    """A content stream of many items of every kind (names, numbers, strings, a property list) as a page's is."""
    import pydyf

    for attempt in range(2):
        stream = pydyf.Stream(compress=True)
        for i in range(operations):
            stream.begin_marked_content("P", pydyf.Dictionary({"MCID": i}))
            stream.begin_text()
            stream.set_font_size("F1", 9.5 + i % 3)
            stream.move_text_to(72, 700 - i / 7)
            stream.show_text(pydyf.String(f"Line {i} of the rules").data)
            stream.end_text()
            stream.end_marked_content()
        assert patches.stream_data(stream) == stream.data, (operations, attempt)
    assert (len(pydyf.Stream(stream.stream).data) >= patches.LARGE_STREAM) == (operations > 10)


def test_a_large_payload_is_deflated_once_per_process():
    import pydyf

    payload = random.Random(11).randbytes(100_000)
    with mock.patch.object(pydyf.zlib, "compressobj", wraps=zlib.compressobj) as deflate:
        first = patches.stream_data(pydyf.Stream([payload], compress=True))
        assert patches.stream_data(pydyf.Stream([payload], compress=True)) == first
    assert deflate.call_count == 1


def test_a_canary_runs_upstream_and_puts_the_patch_back():
    from weasyprint.layout import block

    patches.apply()
    patched = block._out_of_flow_layout
    with patches.unpatched():
        assert not getattr(block._out_of_flow_layout, "rulebook_patched", False)
    assert block._out_of_flow_layout is patched and patched.rulebook_patched


# --- nothing reaches into those projects outside the register -----------------------------------------------------

GOVERNED = ("weasyprint", "pydyf", "pypdf", "mkdocs", "material", "mike")  # whose internals the register covers
PROJECT = ("generator", "tests")


def _third_party(qualified: str) -> bool:
    root = qualified.split(".")[0]
    return bool(root) and root not in PROJECT and root not in sys.stdlib_module_names


def _bindings(tree: ast.AST) -> dict[str, str]:
    """Each name a module binds by importing, and what it names (``block`` -> ``weasyprint.layout.block``)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


@functools.cache
def _modules() -> dict[str, ast.AST]:
    """Every module of generator/, parsed, by its path under generator/."""
    return {path.relative_to(GENERATOR).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(GENERATOR.rglob("*.py"))}


def _project_names() -> set[str]:
    """Every name this project defines: its own private names are not reaches."""
    names: set[str] = set()
    for tree in _modules().values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update(alias.asname for alias in node.names if alias.asname)
    return names


def _qualified(node: ast.expr, bound: dict[str, str]) -> str | None:
    """``a.b.c`` with ``a`` bound by an import: the dotted name it stands for; else None."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in bound:
        return ".".join([bound[node.id], *reversed(attrs)])
    return None


def reaches(tree: ast.AST, own: set[str]) -> set[tuple[str, str]]:
    """The reaches in a module: (what kind, the upstream name, or '?._name' for a private attribute of an object
    whose origin the module does not say)."""
    bound = _bindings(tree)
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if node.module.split(".")[0] in GOVERNED and (
                        alias.name.startswith("_") or (node.module.startswith("weasyprint") and alias.name
                                                       not in patches.WEASYPRINT_PUBLIC.get(node.module, ()))):
                    found.add(("import", name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("weasyprint.") and alias.name not in patches.WEASYPRINT_PUBLIC:
                    found.add(("import", alias.name))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for item in target.elts if isinstance(target, ast.Tuple) else [target]:
                    name = _qualified(item, bound) if isinstance(item, ast.Attribute) else None
                    if name and _third_party(name):
                        found.add(("assign", name))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            name = _qualified(node.args[0], bound) if node.args else None
            if name and _third_party(name):
                found.add(("assign", f"{name}.?"))
        elif isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = _qualified(base.value if isinstance(base, ast.Subscript) else base, bound)
                if name and name.split(".")[0] in GOVERNED and name not in patches.EXTENSION_POINTS:
                    found.add(("subclass", name))
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            name = _qualified(node, bound)
            if name is not None:
                if _third_party(name):
                    found.add(("private", name))
            elif node.attr not in own:
                found.add(("private", f"?.{node.attr}"))
    return found


def _covers(entry: patches.Entry, kind: str, name: str) -> bool:
    if kind == "assign" and entry.kind != "patch":
        return False
    if name.startswith("?."):
        return any(reach.endswith(name[1:]) for reach in entry.reaches)
    name = name.removesuffix(".?")
    return any(reach == name or reach.startswith(name + ".") or name.startswith(reach + ".")
               for reach in entry.reaches)


@functools.cache
def _module_reaches() -> dict[str, set[tuple[str, str]]]:
    own = _project_names()
    return {module: reaches(tree, own) for module, tree in _modules().items()}


def test_the_register_names_every_reach():
    unnamed = [f"generator/{module}: {kind} {name}" for module, found in _module_reaches().items()
               for kind, name in sorted(found)
               if not any(module in entry.where and _covers(entry, kind, name) for entry in patches.REGISTER)]
    assert unnamed == [], "add each to generator/render/patches.py's REGISTER, or avoid it:\n" + "\n".join(unnamed)


def test_every_entry_is_where_it_says():
    """An entry that patches, subclasses or reads names a reach the scan finds in each module it lists."""
    found = _module_reaches()
    for entry in patches.REGISTER:
        if entry.kind in ("patch", "subclass", "private"):
            for module in entry.where:
                assert any(_covers(entry, kind, name) for kind, name in found[module]), (entry.name, module)


@pytest.mark.parametrize(("source", "expected"), [
    ("import pydyf\npydyf.zlib = None", {("assign", "pydyf.zlib")}),
    ("from weasyprint.layout import block\nblock.f, x = 1, 2", {("assign", "weasyprint.layout.block.f"),
                                                               ("import", "weasyprint.layout.block")}),
    ("import markdown\nsetattr(markdown.util, 'x', 1)", {("assign", "markdown.util.?")}),
    ("def f(page):\n    return page._page_box", {("private", "?._page_box")}),
    ("from pydyf import _to_bytes", {("import", "pydyf._to_bytes")}),
    ("import weasyprint.layout.float", {("import", "weasyprint.layout.float")}),
    ("from weasyprint.pdf.fonts import build_fonts_dictionary",
     {("import", "weasyprint.pdf.fonts.build_fonts_dictionary")}),
    ("import pypdf\nclass W(pypdf.PdfWriter): pass", {("subclass", "pypdf.PdfWriter")}),
    ("from mkdocs.plugins import BasePlugin\nclass P(BasePlugin[int]): pass", set()),  # documented extension point
    ("from weasyprint import HTML\nfrom weasyprint.text.fonts import FontConfiguration", set()),  # public
    ("import os\nos._exit(0)", set()),  # the standard library's
    ("class A:\n    def _own(self): pass\nA()._own()", set()),  # this project's own private name
])
def test_the_scan_sees_each_kind_of_reach(source, expected):
    assert reaches(ast.parse(source), {"_own", "A"}) == expected
