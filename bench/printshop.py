"""The print shop's files (issue 53) against the letter book, as a ratio: `python bench/run.py print-shop`.

Each run is a fresh process, interleaved pair by pair, best of ``repeat``: `rulebook print-shop --trim 6x9` as the
command does it (the interior laid out at the trim, as often as its gutter asks, the cover, the preflight reading
both back) against the letter book rendered as a build renders it (``render_book``, no cache). The ratio is the
whole command's time over the letter book's; its parts (interior, cover, preflight) are recorded too, and the pages
of each, since the 6x9 interior has about half again as many pages as the letter book.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRINT_SHOP = """
import json, time
from pathlib import Path
from generator.book.library import load_library
from generator.commands import print_shop
from generator.render.pdf import printshop
lib = load_library(Path({root!r}))
out = Path({out!r})
trim = printshop.TRIMS["6x9"]
t0 = time.perf_counter()
service = printshop.SERVICES["kdp"]
pages, _ = printshop.render_interior(lib, out / "interior.pdf", trim, service)
t1 = time.perf_counter()
printshop.render_cover(lib, out / "cover.pdf", trim, pages, "white", service)
t2 = time.perf_counter()
items = print_shop.preflight(out / "interior.pdf", out / "cover.pdf", "6x9", "white", "kdp")
t3 = time.perf_counter()
print(json.dumps({{"s": t3 - t0, "interior_s": t1 - t0, "cover_s": t2 - t1, "preflight_s": t3 - t2, "pages": pages,
                  "failed": sum(item.severity == "error" for item in items)}}))
"""

LETTER = """
import json, time
from pathlib import Path
import pypdf
from generator.book.library import load_library
from generator.render.pdf.book import Layout, render_book
from generator.render.pdf.weasy import Engine
lib = load_library(Path({root!r}))
t = time.perf_counter(); render_book(lib, Path({out!r}), layout=Layout(Engine(), keep=False)); t = time.perf_counter() - t
print(json.dumps({{"s": t, "pages": len(pypdf.PdfReader({out!r}).pages)}}))
"""


def _child(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_shop(results: dict, tmp: Path, root: Path, repeat: int) -> None:
    """The print shop at 6x9 against the letter book: best of ``repeat`` interleaved pairs, into ``results``."""
    shop, letter = [], []
    for _ in range(repeat):
        folder = tmp / "print-shop"
        folder.mkdir(exist_ok=True)
        shop.append(_child(PRINT_SHOP.format(root=str(root), out=str(folder))))
        letter.append(_child(LETTER.format(root=str(root), out=str(tmp / "letter.pdf"))))
    s, b = (min(runs, key=lambda r: r["s"]) for runs in (shop, letter))
    results.update(print_shop_6x9_s=s["s"], print_shop_6x9_interior_s=s["interior_s"],
                   print_shop_6x9_cover_s=s["cover_s"], print_shop_6x9_preflight_s=s["preflight_s"],
                   print_shop_6x9_pages=s["pages"], print_shop_6x9_failed_items=s["failed"],
                   print_shop_letter_s=b["s"], print_shop_letter_pages=b["pages"],
                   print_shop_6x9_vs_letter=s["s"] / b["s"],
                   print_shop_6x9_vs_letter_per_page=(s["s"] / s["pages"]) / (b["s"] / b["pages"]))
