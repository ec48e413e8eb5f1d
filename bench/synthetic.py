"""A generated book: the real games repeated under new ids, to measure how the pipeline scales."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def sections_of_games(book_text: str) -> dict[str, str]:
    """Each game of the real book and the id of the section book.yaml lists it in."""
    book = yaml.safe_load(book_text)
    return {game: section["id"] for section in book["sections"] for game in section["games"]}


def make_book(dest: Path, games: int, only: str | None = None) -> Path:
    """A project folder with ``games`` games (copies of the real ones, renamed, or of the one game ``only`` names),
    all in the book, each in the section its original is in."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "rules_data").mkdir(parents=True)
    (dest / "content").mkdir()
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", dest / "templates")  # mkdocs.yml watches it
    book = (ROOT / "rules_data" / "book.yaml").read_text(encoding="utf-8")
    section_of = sections_of_games(book)
    originals = sorted(p for p in (ROOT / "rules_data").glob("*.yaml") if p.stem in section_of and only in (None, p.stem))
    sections: dict[str, list[str]] = {sid: [] for sid in dict.fromkeys(section_of.values())}
    for i in range(games):
        source = originals[i % len(originals)]
        new_id = f"{source.stem}-{i:04d}"
        text = source.read_text(encoding="utf-8").replace(f"id: {source.stem}", f"id: {new_id}", 1)
        title = re.search(r"^title: (.*)$", text, re.M)  # as YAML reads it, quoted or not; written quoted
        text = text[:title.start(1)] + json.dumps(f"{yaml.safe_load(title.group(1))} {i}") + text[title.end(1):]
        (dest / "rules_data" / f"{new_id}.yaml").write_text(text, encoding="utf-8")
        # The game's prose and its variants' (gin-rummy.md, gin-rummy.*.md), not another game's whose id starts
        # alike (gin-rummy-tournament.md): that copy was a file no game reads (file.unread).
        for prose in [ROOT / "content" / f"{source.stem}.md", *(ROOT / "content").glob(f"{source.stem}.*.md")]:
            suffix = prose.name[len(source.stem):]
            shutil.copy(prose, dest / "content" / f"{new_id}{suffix}")
        sections[section_of[source.stem]].append(new_id)
    titles = {s["id"]: s["title"] for s in yaml.safe_load(book)["sections"]}
    book = book.split("sections:")[0] + "sections:\n" + "".join(
        f"  - id: {sid}\n    title: {titles[sid]}\n    games:\n" + "".join(f"      - {g}\n" for g in ids)
        for sid, ids in sections.items() if ids)
    (dest / "rules_data" / "book.yaml").write_text(book, encoding="utf-8")
    shutil.copy(ROOT / "rules_data" / "dictionary.txt", dest / "rules_data" / "dictionary.txt")
    (dest / "rules_data" / "errata.yaml").write_text("errata: []\n", encoding="utf-8")
    for page in ("general-rules", "game-board-layouts", "about"):
        shutil.copy(ROOT / "content" / f"{page}.md", dest / "content" / f"{page}.md")
    # Its earlier editions as published (`rulebook freeze`), as the real book's are: the frozen check compares them.
    from generator.book.frozen import write
    from generator.book.library import load_library

    data = yaml.safe_load(book)
    ids = [edition["id"] for edition in data["editions"]]
    for edition in ids[:ids.index(data["current"])]:
        write(load_library(dest, edition))
    return dest
