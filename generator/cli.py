"""The ``rulebook`` command: argument parsing only; errors are caught once and printed."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import RulebookError, SourceErrors, clean, os_problem


def _root(args: argparse.Namespace) -> Path:
    return Path(args.root).resolve()


def cmd_validate(args: argparse.Namespace) -> int:
    from . import report
    from .checks import run_checks
    from .library import load_library

    lib = load_library(_root(args), args.edition, allow_missing=args.allow_missing)
    findings = run_checks(lib)
    if args.format == "json":
        print(report.as_json(findings))
    elif args.format == "github":
        print(report.as_github(findings, len(lib.games)))
    else:
        print(report.as_text(findings, len(lib.games)))
    return 1 if any(f.severity == "error" for f in findings) else 0


@contextlib.contextmanager
def _progress() -> Iterator[Any]:
    """The stages of a long command, shown as they run (``progress.py``); closed quietly if it fails."""
    from .progress import Progress

    shown = Progress()
    try:
        yield shown
    except BaseException:
        shown.close(quietly=True)
        raise
    shown.close()


def cmd_build(args: argparse.Namespace) -> int:
    from . import report
    from .build import build

    if args.booklet and args.site_only:
        raise RulebookError("--booklet is made from the book PDF; leave out --site-only")
    # The findings as `rulebook validate` prints them (warnings too), so that `make` validates only once.
    with _progress() as progress:
        out = build(_root(args), edition_id=args.edition, out=Path(args.out) if args.out else None,
                    site=not args.pdf_only, pdf=not args.site_only, paper=args.paper, duplex=args.duplex,
                    booklet=args.booklet, report=lambda found, games: print(report.as_text(found, games), flush=True),
                    progress=progress)
    print(f"built {out}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .render.site.engine import serve

    serve(_root(args), args.addr, args.edition)
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from .preview import Preview, watch

    root = _root(args)
    target = Path(args.out) if args.out else root / "preview" / "book.pdf"  # not build/: a build replaces it
    preview = Preview(root, target, edition=args.edition, paper=args.paper, duplex=args.duplex)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a preview ends
        watch(preview, report=lambda line: print(line, flush=True))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from .schema import write_schemas

    for path in write_schemas(_root(args)):
        print(f"wrote {path.relative_to(_root(args))}")
    return 0


def cmd_publish(args: argparse.Namespace) -> int:
    from .publish import publish

    with _progress() as progress:
        done = publish(_root(args), args.branch, progress, allow_dirty=args.allow_dirty)
    deployed = f"deployed {', '.join(done.deployed)}" if done.deployed else "deployed nothing"
    kept = f"; kept {', '.join(done.kept)} as deployed (unchanged since)" if done.kept else ""
    print(f"{deployed}{kept} to the local '{args.branch}' branch, built from commit {done.commit} (push it to publish)")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from .diff import render

    print(render(args.old, args.new, _root(args), args.format))
    return 0


def cmd_check_pr(args: argparse.Namespace) -> int:
    from .prcheck import check_pr

    with _progress() as progress:
        code, annotations, summary = check_pr(_root(args), args.base, progress,
                                              Path(args.pictures).resolve() if args.pictures else None)
    print("\n".join(annotations), flush=True)
    if args.summary:
        with open(args.summary, "a", encoding="utf-8") as out:
            out.write(summary + "\n")
    else:
        print(summary)
    return code


def cmd_freeze(args: argparse.Namespace) -> int:
    from .freeze import freeze_unsealed
    from .library import load_library

    written = freeze_unsealed(load_library(_root(args), args.edition))
    print(f"wrote {len(written)} files under {written[0].parent.relative_to(_root(args))}, sealed in "
          "rules_data/book.yaml (record:): commit them together; the diff shows a reviewer what it records")
    return 0


def cmd_edition_new(args: argparse.Namespace) -> int:
    from . import report
    from .checks import run_checks
    from .release import new_edition

    with _progress() as progress:
        lib = new_edition(_root(args), args.id, args.label, args.date, progress=progress)
    print(report.as_text(run_checks(lib), len(lib.games)))
    previous = lib.previous()
    print(f"opened {lib.edition.id} ({lib.edition.label}) as the current edition; {previous.id if previous else ''} "
          f"is frozen as published (rules_data/frozen/{previous.id if previous else ''}/): commit rules_data/. "
          "Record corrections of mistakes in rules_data/errata.yaml and the family's decisions in "
          "rules_data/revisions.yaml")
    return 0


def cmd_new_game(args: argparse.Namespace) -> int:
    from .library import load_library
    from .scaffold import new_game, slugify

    book = load_library(_root(args)).book
    for path in new_game(_root(args), args.name, book.current, args.section, args.source,
                         [d.seed for d in book.sources]):
        print(f"wrote {path.relative_to(_root(args))}")
    print("next: fill in the rules" + ("" if args.source else ", record the family's decision to add it in "
          f"rules_data/revisions.yaml (kind: game_added, game: {slugify(args.name)}, edition: \"{book.current}\", "
          "why: …)") + ", then run `make validate`")
    return 0


def parser() -> argparse.ArgumentParser:
    """The argument parser (also used to document the commands)."""
    p = argparse.ArgumentParser(prog="rulebook", description="Build and check the Metzker Book of Card Game Rules.")
    p.add_argument("--root", default=".", help="project folder (default: current folder)")
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="check the rules data; exit 1 on any error")
    v.add_argument("--edition", help="edition id, e.g. 2026.1 (default: current)")
    v.add_argument("--format", choices=("text", "json", "github"), default="text")
    v.add_argument("--allow-missing", action="store_true", help="skip listed games that have no file yet")
    v.set_defaults(func=cmd_validate)

    b = sub.add_parser("build", help="validate, then build the site and the PDF")
    b.add_argument("--edition", help="edition id (default: current)")
    b.add_argument("--out", help="output folder (default: build/)")
    b.add_argument("--site-only", action="store_true", help="skip the PDF")
    b.add_argument("--pdf-only", action="store_true", help="skip the site")
    b.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size of the PDFs")
    b.add_argument("--duplex", action="store_true", help="start every game on a right-hand page")
    b.add_argument("--booklet", action="store_true", help="also write the book imposed as a fold-and-staple "
                                                          "booklet (half-letter; A5 with --paper a4)")
    b.set_defaults(func=cmd_build)

    c = sub.add_parser("check-pr", help="the pull-request check: validate, annotate the findings the change "
                                        "brings, and summarise errors then the change in words")
    c.add_argument("--base", required=True, help="git ref the change is compared with, e.g. origin/main")
    c.add_argument("--summary", help="append the summary (Markdown) to this file, e.g. $GITHUB_STEP_SUMMARY")
    c.add_argument("--pictures", metavar="DIR", help="draw each book and site page the change alters, before and "
                                                     "after, into DIR (replaced), with DIR/index.html")
    c.set_defaults(func=cmd_check_pr)

    f = sub.add_parser("freeze", help="write and seal the record of an edition published before records were "
                                      "sealed (rules_data/frozen/ID/); a sealed record is refused: `edition new` "
                                      "writes it, once")
    f.add_argument("edition", help="the published edition, e.g. 2026.1")
    f.set_defaults(func=cmd_freeze)

    s = sub.add_parser("serve", help="live preview of the site (rebuilds when a source changes)")
    s.add_argument("--edition", help="edition id (default: current)")
    s.add_argument("--addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    s.set_defaults(func=cmd_serve)

    pv = sub.add_parser("preview", help="rebuild the book PDF whenever a source changes (only what changed is "
                                         "laid out again)")
    pv.add_argument("--edition", help="edition id (default: current)")
    pv.add_argument("--out", help="PDF to write (default: preview/book.pdf)")
    pv.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size")
    pv.add_argument("--duplex", action="store_true", help="start every game on a right-hand page")
    pv.set_defaults(func=cmd_preview)

    pb = sub.add_parser("publish", help="deploy every edition with mike to the local gh-pages branch")
    pb.add_argument("--branch", default="gh-pages")
    pb.add_argument("--allow-dirty", action="store_true", help="publish uncommitted changes to the book's sources "
                                                                "too (the deploy messages say so)")
    pb.set_defaults(func=cmd_publish)

    d = sub.add_parser("diff", help="what a change does to the rules, as Markdown (git refs or folders)")
    d.add_argument("old", help="git ref or project folder before the change, e.g. origin/main")
    d.add_argument("new", help="git ref or project folder after the change, e.g. HEAD")
    d.add_argument("--format", choices=("markdown", "text", "json"), default="markdown",
                   help="Markdown (default), one plain line per change, or the change records as JSON")
    d.set_defaults(func=cmd_diff)

    ed = sub.add_parser("edition", help="release the current edition and open the next (rulebook edition new ID)")
    ed_sub = ed.add_subparsers(dest="edition_command", required=True)
    en = ed_sub.add_parser("new", help="freeze the current edition as published, append ID as the current "
                                       "edition, and validate")
    en.add_argument("id", help="the new edition's id, later than the current one, e.g. 2026.3")
    en.add_argument("--label", required=True, help="as the cover prints it, e.g. \"Revision 3 (Dec/2026)\"")
    en.add_argument("--date", help="its date, YYYY-MM-DD (default: today)")
    en.set_defaults(func=cmd_edition_new)

    n = sub.add_parser("new-game", help="scaffold rules_data/<game>.yaml and content/<game>.md")
    n.add_argument("name", help="the game's name, e.g. \"Crazy Eights\"")
    n.add_argument("--section", choices=("cards", "equipment", "tournament"), default="cards")
    n.add_argument("--source", help="the document it comes from, as book.yaml's sources name it (default: none, "
                                     "the family's own game: record the decision in revisions.yaml)")
    n.set_defaults(func=cmd_new_game)

    sc = sub.add_parser("schema", help="write the JSON Schemas in schema/ from the data model")
    sc.set_defaults(func=cmd_schema)
    return p


def main(argv: list[str] | None = None, quick_exit: bool = False) -> int:
    """Run the command line; print 'error: ...' and exit non-zero on failure.

    ``quick_exit`` (the ``rulebook`` command itself, not a caller in Python): ``validate``, run on
    every save, ends the process as soon as its report is printed.
    """
    args = parser().parse_args(argv)
    quick = quick_exit and args.func is cmd_validate
    if quick:
        # As mypy does: the collector walked the data model's many objects again and again while they
        # were made (10 ms), and tearing the interpreter down at exit freed each one (30 ms of 0.33 s).
        gc.set_threshold(200_000, 30, 30)
    code = _run(args)
    if quick:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)  # nothing is left to clean up: validate starts no process and leaves no file open
    return code


class Stopped(KeyboardInterrupt):
    """The command was asked to stop (SIGTERM, SIGHUP): unwound like Ctrl-C, so that what it made is cleaned up."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped(signal.Signals(signum).name)


def _run(args: argparse.Namespace) -> int:
    before = {}
    if threading.current_thread() is threading.main_thread():  # (only the main thread may set them)
        before = {signum: signal.signal(signum, _stop) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        return _command(args)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _command(args: argparse.Namespace) -> int:
    try:
        return args.func(args)
    except SourceErrors as exc:
        for err in exc.errors:
            print(f"{err.where}: {err.problem}", file=sys.stderr)
        print(f"error: {exc.summary}", file=sys.stderr)
        return 1
    except RulebookError as exc:
        print("error: " + "\n".join(map(clean, str(exc).split("\n"))), file=sys.stderr)
        return 1
    except OSError as exc:  # a folder where a file should be, a full disk, a missing program: where, and what
        print(f"error: {clean(os_problem(exc, root=_root(args)))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        print(f"error: stopped ({exc})" if isinstance(exc, Stopped) else "error: interrupted", file=sys.stderr)
        return 130


def command() -> None:
    """The ``rulebook`` console script."""
    # pydantic looks for plugins among every installed package's entry points when it makes the first model
    # (4-8 ms of the 0.3 s validate may take); the project uses none. Its own switch, for this process and its children.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    sys.exit(main(quick_exit=True))
