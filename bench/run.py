"""Benchmarks, reported as ratios (never as pass/fail timings): `make bench` or `python bench/run.py`.

1. validation: the whole book, and generated books of 200 and 1000 games (time per game);
2. PDF: the book against WeasyPrint alone on the same number of plain pages; one game alone
   against the whole book (can a one-game change avoid re-rendering everything?); growth with
   generated books of 100 and 300 games (time and peak memory);
3. site: our build against a bare `mkdocs build` of the same generated pages, and a generated
   1000-game book with and without Material's navigation.prune.

A generated book repeats the real games under new ids (bench/synthetic.py), so its data are
realistic and valid. Results go to bench/results/latest.json and are printed as a table.
"""

from __future__ import annotations

import json
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.synthetic import make_book  # noqa: E402
from generator.checks import run_checks  # noqa: E402
from generator.library import load_library  # noqa: E402


def timed(fn, repeat: int = 3) -> float:
    """Best of ``repeat`` wall-clock runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def validation(results: dict, tmp: Path) -> None:
    real = timed(lambda: run_checks(load_library(ROOT)))
    games = len(load_library(ROOT).games)
    results["validate_book_s"] = real
    results["validate_book_ms_per_game"] = 1000 * real / games
    for n in (200, 1000):
        book = make_book(tmp / f"val{n}", n)
        t = timed(lambda b=book: run_checks(load_library(b)), repeat=1)
        results[f"validate_{n}_s"] = t
        results[f"validate_{n}_ms_per_game"] = 1000 * t / n


def _child(code: str) -> dict:
    """Run a measurement in a fresh process; return its JSON answer (time and peak memory)."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


PDF_BOOK = """
import json, resource, sys, time
from pathlib import Path
from generator.library import load_library
from generator.render.pdf import render_book
lib = load_library(Path({root!r}))
t = time.perf_counter(); anchors = render_book(lib, Path({out!r})); t = time.perf_counter() - t
import pypdf
pages = len(pypdf.PdfReader({out!r}).pages)
print(json.dumps({{"s": t, "pages": pages, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

PDF_BASELINE = """
import json, time
from weasyprint import HTML
html = "<style>@page {{ size: letter; margin: 20mm }} section {{ break-after: page }}</style>" + "".join(
    "<section><h2>Game %d</h2>" % i + "<p>" + "The player to the left of the dealer leads. " * 40 + "</p>"
    + "<table>" + "<tr><td>K-10</td><td>10 points</td></tr>" * 8 + "</table></section>" for i in range({pages}))
t = time.perf_counter(); doc = HTML(string=html).render(); doc.write_pdf({out!r}); t = time.perf_counter() - t
print(json.dumps({{"s": t, "pages": len(doc.pages)}}))
"""

PDF_ONE_GAME = """
import json, time
from pathlib import Path
from generator.library import load_library
from generator.render.pdf import _document, _weasy, game_pages, _env
lib = load_library(Path({root!r}))
page = [p for p in game_pages(lib) if p.id == "hand-and-foot"][0]
env = _env(lib)
html = env.get_template("print/book.html.j2").render(
    games=[page], sections=[s for s in lib.book.sections if s.id == "cards"], by_section={{"cards": [page]}},
    pages={{}}, page_range=lambda g: "", index_rows=lambda s: [], duplex=False, front_pages=[],
    after_pages={{"cards": []}}, page_prose={{}}, errata=[])
t = time.perf_counter(); doc = _document(html, "letter"); doc.write_pdf({out!r}); t = time.perf_counter() - t
print(json.dumps({{"s": t, "pages": len(doc.pages)}}))
"""


def pdf(results: dict, tmp: Path) -> None:
    book = _child(PDF_BOOK.format(root=str(ROOT), out=str(tmp / "book.pdf")))
    base = _child(PDF_BASELINE.format(pages=book["pages"] // 2, out=str(tmp / "base.pdf")))
    one = _child(PDF_ONE_GAME.format(root=str(ROOT), out=str(tmp / "one.pdf")))
    results.update(pdf_book_s=book["s"], pdf_book_pages=book["pages"], pdf_book_rss_mb=book["rss_mb"],
                   pdf_ms_per_page=1000 * book["s"] / book["pages"],
                   # The book is laid out twice (page numbers), so one pass is compared with the baseline.
                   weasyprint_ms_per_page=1000 * base["s"] / base["pages"],
                   pdf_vs_weasyprint_per_pass=(book["s"] / 2 / book["pages"]) / (base["s"] / base["pages"]),
                   pdf_one_game_s=one["s"], pdf_one_game_vs_book=one["s"] / book["s"])
    for n in (100, 300):
        gen = make_book(tmp / f"pdf{n}", n)
        r = _child(PDF_BOOK.format(root=str(gen), out=str(tmp / f"book{n}.pdf")))
        results[f"pdf_{n}_games_s"] = r["s"]
        results[f"pdf_{n}_games_pages"] = r["pages"]
        results[f"pdf_{n}_games_rss_mb"] = r["rss_mb"]
        results[f"pdf_{n}_games_ms_per_page"] = 1000 * r["s"] / r["pages"]


def _mkdocs_build(config: Path, site: Path, env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "-q", "-f", str(config), "-d", str(site)],
                   check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def _bare_config(docs: Path, nav: list, prune: bool, target: Path) -> Path:
    import yaml

    features = ["navigation.sections"] + (["navigation.prune"] if prune else [])
    cfg = {"site_name": "bench", "docs_dir": str(docs), "theme": {"name": "material", "features": features,
                                                                  "font": False},
           "plugins": ["search"], "nav": nav, "markdown_extensions": ["admonition", "tables"]}
    target.write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    return target


def site(results: dict, tmp: Path) -> None:
    from generator.render.site import write_docs

    ours = timed(lambda: _mkdocs_build(ROOT / "mkdocs.yml", tmp / "site-ours"), repeat=2)
    docs = tmp / "docs"
    nav = write_docs(load_library(ROOT), docs)["nav"]
    bare = timed(lambda: _mkdocs_build(_bare_config(docs, nav, True, tmp / "bare.yml"), tmp / "site-bare"), repeat=2)
    results.update(site_build_s=ours, site_bare_mkdocs_s=bare, site_vs_bare=ours / bare)
    for n in (200, 1000):
        gen = make_book(tmp / f"site{n}", n)
        gen_docs = tmp / f"docs{n}"
        nav = write_docs(load_library(gen), gen_docs)["nav"]
        for prune in (True, False):
            t = _mkdocs_build(_bare_config(gen_docs, nav, prune, tmp / f"c{n}{prune}.yml"), tmp / f"s{n}{prune}")
            results[f"site_{n}_games_{'prune' if prune else 'full_nav'}_s"] = t
        shutil.copy(ROOT / "mkdocs.yml", gen / "mkdocs.yml")
        results[f"site_{n}_games_ours_s"] = _mkdocs_build(gen / "mkdocs.yml", tmp / f"o{n}")


def main() -> int:
    """Run every benchmark; print and save the ratios."""
    results: dict = {"python": platform.python_version(), "machine": platform.machine()}
    with tempfile.TemporaryDirectory(prefix="rulebook-bench-") as tmp:
        for name, fn in (("validation", validation), ("pdf", pdf), ("site", site)):
            if len(sys.argv) > 1 and name not in sys.argv[1:]:
                continue
            print(f"running {name} ...", flush=True)
            fn(results, Path(tmp))
            (ROOT / "bench" / "results").mkdir(exist_ok=True)
            (ROOT / "bench" / "results" / "partial.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    results["peak_rss_mb_parent"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=2, sort_keys=True), encoding="utf-8")
    width = max(len(k) for k in results)
    for key, value in sorted(results.items()):
        print(f"{key:<{width}}  {value:.3f}" if isinstance(value, float) else f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
