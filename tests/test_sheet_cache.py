"""Score sheets kept between builds: the cache holds exactly the built sheets, keyed so that an edit misses it."""

from __future__ import annotations

import pytest

from generator.library import load_library
from generator.render.pdf import game_pages
from generator.render.sheet_cache import sheet_key
from tests.conftest import CURRENT, copy_project, edit_one_word


def _keys(lib) -> dict[str, str]:
    """Every sheet the build writes (the game's, and a variant's with a sheet of its own) -> its key."""
    out = {}
    for page in game_pages(lib):
        for variant in [None] + [v for v, _ in page.variants if "score_sheet" in v.model_fields_set]:
            out[f"{page.id}.{variant.id}.pdf" if variant else f"{page.id}.pdf"] = sheet_key(lib, page, variant, "letter")
    return out


def test_cache_holds_the_built_sheets(built, library):
    """Each sheet in the cache is byte for byte the one the build wrote, and nothing else is kept."""
    out = built[CURRENT]
    keys = _keys(library)
    cached = {p.stem: p.read_bytes() for p in (out / ".cache" / "score-sheets").glob("*.pdf")}
    assert set(cached) == set(keys.values())
    for name, key in keys.items():
        assert cached[key] == (out / "pdf" / "score-sheets" / name).read_bytes(), name


# Each edit and the sheets whose key it must change (every other key must stay).
EDITS = {
    "euchre's title": (lambda p: _replace(p / "rules_data" / "euchre.yaml", "title: Euchre", "title: Euchra"),
                       {"euchre.pdf"}),
    "a word of euchre's prose": (edit_one_word, set()),
    "the sheet template": (None, "all"),
}


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("edit", EDITS)
def test_key_changes_with_what_the_sheet_shows(tmp_path, monkeypatch, library, edit):
    change, expected = EDITS[edit]
    before = _keys(library)
    if change is None:  # the code and templates: a change there reaches every sheet
        from generator.render import sheet_cache

        monkeypatch.setattr(sheet_cache, "_code_digest", lambda: "another code digest")
        after = _keys(library)
    else:
        project = copy_project(tmp_path / "p")
        change(project)
        after = _keys(load_library(project))
    changed = {name for name in before if before[name] != after[name]}
    assert changed == (set(before) if expected == "all" else expected)
