"""A generated book: the real games repeated under new ids, to measure how the pipeline scales."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_book(dest: Path, games: int) -> Path:
    """A project folder with ``games`` games (copies of the real ones, renamed), all in the book."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "rules_data").mkdir(parents=True)
    (dest / "content").mkdir()
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", dest / "templates")  # mkdocs.yml watches it
    originals = sorted(p for p in (ROOT / "rules_data").glob("*.yaml") if p.stem not in ("book", "errata"))
    sections: dict[str, list[str]] = {"cards": [], "equipment": [], "tournament": []}
    for i in range(games):
        source = originals[i % len(originals)]
        new_id = f"{source.stem}-{i:04d}"
        text = source.read_text(encoding="utf-8").replace(f"id: {source.stem}", f"id: {new_id}", 1)
        text = re.sub(r"^title: (.*)$", lambda m, i=i: f"title: {m.group(1).strip(chr(39))} {i}"
                      if not m.group(1).startswith(("'", '"')) else m.group(0), text, count=1, flags=re.M)
        (dest / "rules_data" / f"{new_id}.yaml").write_text(text, encoding="utf-8")
        for prose in (ROOT / "content").glob(f"{source.stem}*.md"):
            suffix = prose.name[len(source.stem):]
            shutil.copy(prose, dest / "content" / f"{new_id}{suffix}")
        category = re.search(r"^category: (\w+)", text, re.M).group(1)
        sections[category].append(new_id)
    book = (ROOT / "rules_data" / "book.yaml").read_text(encoding="utf-8")
    book = book.split("sections:")[0] + "sections:\n" + "".join(
        f"  - id: {sid}\n    title: {title}\n    games:\n" + "".join(f"      - {g}\n" for g in sections[sid])
        for sid, title in (("cards", "Cards required"), ("equipment", "Equipment required"), ("tournament", "Tournament")))
    (dest / "rules_data" / "book.yaml").write_text(book, encoding="utf-8")
    shutil.copy(ROOT / "rules_data" / "dictionary.txt", dest / "rules_data" / "dictionary.txt")
    (dest / "rules_data" / "errata.yaml").write_text("errata: []\n", encoding="utf-8")
    for page in ("general-rules", "game-board-layouts", "about"):
        shutil.copy(ROOT / "content" / f"{page}.md", dest / "content" / f"{page}.md")
    return dest
