"""A PDF file read back as the facts a reader or a screen reader meets, for comparing two writers' files.

Pages (boxes, drawn content), links and form fields, named destinations, the outline, the structure
tree (roles, marked contents, alternate text, table headers), fonts (the embedded bytes), metadata.
Object numbers and the structure tree's keys are left out: they name, they do not say.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pypdf
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject


def _plain(value: Any, pages: dict[int, int], seen: frozenset = frozenset()) -> Any:
    """A PDF value with references to pages as ('page', n) and other objects followed (not structure parents)."""
    if isinstance(value, IndirectObject):
        if value.idnum in pages:
            return ("page", pages[value.idnum])
        if value.idnum in seen:
            return ("seen",)
        return _plain(value.get_object(), pages, seen | {value.idnum})
    if isinstance(value, DictionaryObject):
        facts = {str(k): _plain(v, pages, seen) for k, v in sorted(value.items())
                 if k not in ("/P", "/Parent", "/StructParent", "/StructParents", "/ParentTree", "/ParentTreeNextKey")}
        if hasattr(value, "get_data"):  # a stream (an XObject, a font file): its dictionary and what it holds
            facts["stream"] = hashlib.sha256(value.get_data()).hexdigest()
        return facts
    if isinstance(value, ArrayObject):
        return [_plain(v, pages, seen) for v in value]
    return str(value)


def pdf_facts(path: Path) -> dict[str, Any]:
    """Everything in ``path`` that a reader of the file meets (see the module's docstring)."""
    reader = pypdf.PdfReader(path)
    pages = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages)}
    root = reader.trailer["/Root"]
    paths, parents = _structure(root), _parent_tree(root)
    facts: dict[str, Any] = {"info": _plain(reader.trailer["/Info"], pages), "pages": []}
    for page in reader.pages:
        annotations = [a.get_object() for a in page.get("/Annots", [])]
        facts["pages"].append({
            "boxes": [str(page.get(k)) for k in ("/MediaBox", "/TrimBox", "/BleedBox")],
            "content": hashlib.sha256(page.get_contents().get_data()).hexdigest(),
            "annotations": [_plain(a, pages) for a in annotations],
            # Which structure element (by its place in the tree) each marked content and annotation belongs to.
            "marked": [paths.get(ref.idnum) for ref in parents.get(page.get("/StructParents"), [])],
            "annotated": [paths.get(parents[a["/StructParent"]].idnum) if "/StructParent" in a else None
                          for a in annotations],
        })
    for key in sorted(root.keys()):
        if key not in ("/Pages", "/Type"):
            facts[key] = _plain(root[key], pages)
    return _renamed_ids(facts, {})


def _structure(root: Any) -> dict[int, str]:
    """Every structure element's place in the tree ('0/3/1'), by object number."""
    paths: dict[int, str] = {}

    def walk(ref: Any, path: str) -> None:
        if not isinstance(ref, IndirectObject) or ref.idnum in paths:
            return
        paths[ref.idnum] = path
        kids = ref.get_object().get("/K", [])
        for i, kid in enumerate(kids if isinstance(kids, list) else [kids]):
            walk(kid, f"{path}/{i}")

    if "/StructTreeRoot" in root:
        walk(root.raw_get("/StructTreeRoot"), "")
    return paths


def _parent_tree(root: Any) -> dict[int, Any]:
    """The structure parent tree as a dict (key -> an array of element references, or one reference)."""
    if "/StructTreeRoot" not in root:
        return {}
    found: dict[int, Any] = {}

    def walk(node: Any) -> None:
        nums = node.get("/Nums", [])
        for i in range(0, len(nums), 2):
            value = nums[i + 1]
            found[int(nums[i])] = list(value.get_object()) if isinstance(value.get_object(), list) else value
        for kid in node.get("/Kids", []):
            walk(kid.get_object())

    walk(root["/StructTreeRoot"]["/ParentTree"].get_object())
    return found


def _renamed_ids(value: Any, names: dict[str, str]) -> Any:
    """Table header ids (WeasyPrint makes them of an object number) renamed in the order they are met."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "/ID":
                v = names.setdefault(v, f"id{len(names)}")
            elif k == "/Headers":
                v = [names.setdefault(h, f"id{len(names)}") for h in v]
            out[k] = _renamed_ids(v, names)
        return out
    if isinstance(value, list):
        return [_renamed_ids(v, names) for v in value]
    return value


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two fact trees differ (empty when they are the same)."""
    if type(a) is not type(b):
        return [f"{where}: {str(a)[:80]} != {str(b)[:80]}"]
    if isinstance(a, dict):
        out = [f"{where}/{k}: only in one" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            out += differences(a[k], b[k], f"{where}/{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{where}[{i}]")]
    return [] if a == b else [f"{where}: {str(a)[:80]} != {str(b)[:80]}"]
