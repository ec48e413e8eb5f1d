"""The ``rulebook`` command: argument parsing only. Each verb is run by its module in ``commands/``; errors are
caught here once and printed in one line."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from pathlib import Path

from .commands import Words, _, use
from .errors import Problems, RulebookError, clean, os_problem, problem_line


def _root(args: argparse.Namespace) -> Path:
    return Path(args.root).resolve()


def _book(args: argparse.Namespace) -> Path:
    """The book's folder (--root), or one line saying where the command looked and how to name it."""
    from .commands import book_root

    verb = " ".join(filter(None, (args.command, getattr(args, "edition_command", None))))
    return book_root(_root(args), verb)


def cmd_validate(args: argparse.Namespace) -> int:
    from .commands import validate

    return validate.run(_book(args), args.edition, args.allow_missing, args.format)


def cmd_build(args: argparse.Namespace) -> int:
    from .commands import build

    return build.run(_book(args), args.edition, Path(args.out) if args.out else None, site=not args.pdf_only,
                     pdf=not args.site_only, paper=args.paper, duplex=args.duplex, booklet=args.booklet)


def cmd_serve(args: argparse.Namespace) -> int:
    from .commands import serve

    return serve.run(_book(args), args.addr, args.edition)


def cmd_preview(args: argparse.Namespace) -> int:
    from .commands import preview

    return preview.run(_book(args), args.edition, Path(args.out) if args.out else None, args.paper, args.duplex)


def cmd_schema(args: argparse.Namespace) -> int:
    from .commands import schema

    return schema.run(_book(args))


def cmd_publish(args: argparse.Namespace) -> int:
    from .commands import publish

    return publish.run(_book(args), args.branch, args.allow_dirty)


def cmd_diff(args: argparse.Namespace) -> int:
    from .commands import diff

    # git refs are read from the book's repository; two folders need no book here
    folders = all((Path(side) / "rules_data").is_dir() for side in (args.old, args.new))
    return diff.run(args.old, args.new, _root(args) if folders else _book(args), args.format)


def cmd_check_pr(args: argparse.Namespace) -> int:
    from .commands import check_pr

    return check_pr.run(_book(args), args.base, Path(args.summary) if args.summary else None,
                        Path(args.pictures).resolve() if args.pictures else None,
                        Path(args.change).resolve() if args.change else None, args.head,
                        Path(args.whole).resolve() if args.whole else None)


def cmd_freeze(args: argparse.Namespace) -> int:
    from .commands import freeze

    return freeze.run(_book(args), args.edition)


def cmd_edition_new(args: argparse.Namespace) -> int:
    from .commands import edition

    return edition.run(_book(args), args.id, args.label, args.date)


def cmd_init(args: argparse.Namespace) -> int:
    from .commands import init

    return init.run(Path(args.dir).resolve(), args.title, args.author, args.pipeline, args.language)


def cmd_print_shop(args: argparse.Namespace) -> int:
    from .commands import print_shop

    if args.check:
        return print_shop.check(Path(args.check[0]), Path(args.check[1]), args.trim, args.service, args.paper_stock,
                                args.barcode == "service", args.interior == "grey")
    return print_shop.run(_root(args), args.trim, args.edition, args.paper_stock, Path(args.out) if args.out else None,
                          args.service, args.barcode == "service", args.interior == "grey")


def cmd_new_game(args: argparse.Namespace) -> int:
    from .commands import new_game

    return new_game.run(_book(args), args.name, args.section, args.source, args.kind)


# Where each command is documented: a page of docs/ (shipped with the tool, beside its templates), and its section.
DOCS = {
    "validate": ("maintaining.md", "The `rulebook` command"), "build": ("own-book.md", "Build, look, publish"),
    "print-shop": ("printing.md", ""), "check-pr": ("own-book.md", "The book's CI"),
    "freeze": ("maintaining.md", "Editions"), "serve": ("own-book.md", "Build, look, publish"),
    "preview": ("own-book.md", "Build, look, publish"), "publish": ("own-book.md", "Build, look, publish"),
    "diff": ("maintaining.md", "The `rulebook` command"), "edition": ("maintaining.md", "Editions"),
    "init": ("own-book.md", "Start the book"), "new-game": ("own-book.md", "Add games"),
    "schema": ("maintaining.md", "The `rulebook` command"),
}


def _documented(name: str) -> str:
    """The line a command's --help ends with: the page that documents it, and where that page is on this machine."""
    page, section = DOCS[name]
    here = _docs_folder() / page
    where = f"; on this machine: {here}" if here.is_file() else ""
    return f"Documentation: docs/{page}" + (f", “{section}”" if section else "") + f" (in the rulebook repository{where})."


def _docs_folder() -> Path:
    """The tool's docs/: shipped in the package (generator/docs), or at the top of the checkout it runs from."""
    package = Path(__file__).resolve().parent
    return package / "docs" if (package / "docs").is_dir() else package.parent / "docs"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulebook")
    except PackageNotFoundError:
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    """The argument parser (also used to document the commands)."""
    p = argparse.ArgumentParser(prog="rulebook", description="Build and check a book of game rules (the one in --root): "
                                                          "validate its data, build its site and PDF, publish its editions.",
                                epilog="`rulebook COMMAND --help` describes a command and names the page that documents "
                                       "it. Start a book: `rulebook init DIR --title TITLE` (docs/own-book.md).")
    p.add_argument("--root", default=".", help="project folder (default: current folder)")
    p.add_argument("--version", action="version", version=f"rulebook {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="check the rules data; exit 1 on any error", epilog=_documented("validate"))
    v.add_argument("--edition", help="edition id, e.g. 2026.1 (default: current)")
    v.add_argument("--format", choices=("text", "json", "github"), default="text")
    v.add_argument("--allow-missing", action="store_true", help="skip listed games that have no file yet")
    v.set_defaults(func=cmd_validate)

    b = sub.add_parser("build", help="validate, then build the site and the PDF", epilog=_documented("build"))
    b.add_argument("--edition", help="edition id (default: current)")
    b.add_argument("--out", help="output folder (default: build/)")
    b.add_argument("--site-only", action="store_true", help="skip the PDF")
    b.add_argument("--pdf-only", action="store_true", help="skip the site")
    b.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size of the PDFs")
    b.add_argument("--duplex", action="store_true", help="start every game on a right-hand page")
    b.add_argument("--booklet", action="store_true", help="also write the book imposed as a fold-and-staple "
                                                          "booklet (half-letter; A5 with --paper a4)")
    b.set_defaults(func=cmd_build)

    ps = sub.add_parser("print-shop", help="an interior and a cover a print-on-demand service takes (PDF/X-4, "
                                           "bleed, a spine from the page count), checked as the service checks them", epilog=_documented("print-shop"))
    ps.add_argument("--trim", required=True, choices=("5.5x8.5", "6x9", "7x10", "8.5x11", "A5"),
                    help="the trim size, inches (or A5)")
    ps.add_argument("--edition", help="edition id (default: current)")
    ps.add_argument("--paper-stock", choices=("white", "cream"), default="white",
                    help="the interior's paper, for the spine's width (default: white)")
    ps.add_argument("--service", choices=("kdp", "lulu", "ingram"), default="kdp",
                    help="the print-on-demand service whose figures the files follow (default: kdp)")
    ps.add_argument("--barcode", choices=("service", "none"), default="service",
                    help="keep the service's barcode zone clear on the back (default), or reserve none")
    ps.add_argument("--interior", choices=("grey", "colour"), default="grey",
                    help="a black-and-white interior in greys (default), or a colour one (colour-managed sRGB)")
    ps.add_argument("--check", nargs=2, metavar=("INTERIOR", "COVER"),
                    help="only run the preflight on these two files, made anywhere")
    ps.add_argument("--out", help="output folder (default: build/print-shop/<service>/<trim>/)")
    ps.set_defaults(func=cmd_print_shop)

    c = sub.add_parser("check-pr", help="the pull-request check: validate, annotate the findings the change "
                                        "brings, and summarise errors then the change in words", epilog=_documented("check-pr"))
    c.add_argument("--base", required=True, help="git ref the change is compared with, e.g. origin/main")
    c.add_argument("--summary", help="append the summary (Markdown) to this file, e.g. $GITHUB_STEP_SUMMARY")
    c.add_argument("--pictures", metavar="DIR", help="draw each book and site page the change alters, before and "
                                                     "after, into DIR (replaced), with DIR/index.html")
    c.add_argument("--change", metavar="BUNDLE", help="judge, as data, the commit --head read from this git bundle (a "
                                                      "pull request's, handed over by its own run), against where it "
                                                      "leaves --base: nothing of the change's is run")
    c.add_argument("--head", metavar="COMMIT", help="the full commit id of the change in --change")
    c.add_argument("--whole", metavar="DIR", help="write the whole summary (summary.md, which --summary cuts under "
                                                  "GitHub's 1 MiB) and every file the change touches (files.txt) "
                                                  "into DIR")
    c.set_defaults(func=cmd_check_pr)

    f = sub.add_parser("freeze", help="write and seal the record of an edition published before records were "
                                      "sealed (rules_data/frozen/ID/); a sealed record is refused: `edition new` "
                                      "writes it, once", epilog=_documented("freeze"))
    f.add_argument("edition", help="the published edition, e.g. 2026.1")
    f.set_defaults(func=cmd_freeze)

    s = sub.add_parser("serve", help="live preview of the site (rebuilds when a source changes)", epilog=_documented("serve"))
    s.add_argument("--edition", help="edition id (default: current)")
    s.add_argument("--addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    s.set_defaults(func=cmd_serve)

    pv = sub.add_parser("preview", help="rebuild the book PDF whenever a source changes (only what changed is "
                                         "laid out again)", epilog=_documented("preview"))
    pv.add_argument("--edition", help="edition id (default: current)")
    pv.add_argument("--out", help="PDF to write (default: preview/book.pdf)")
    pv.add_argument("--paper", choices=("letter", "a4"), default="letter", help="paper size")
    pv.add_argument("--duplex", action="store_true", help="start every game on a right-hand page")
    pv.set_defaults(func=cmd_preview)

    pb = sub.add_parser("publish", help="deploy every edition with mike to the local gh-pages branch", epilog=_documented("publish"))
    pb.add_argument("--branch", default="gh-pages")
    pb.add_argument("--allow-dirty", action="store_true", help="publish uncommitted changes to the book's sources "
                                                                "too (the deploy messages say so)")
    pb.set_defaults(func=cmd_publish)

    d = sub.add_parser("diff", help="what a change does to the rules, as Markdown (git refs or folders)", epilog=_documented("diff"))
    d.add_argument("old", help="git ref or project folder before the change, e.g. origin/main")
    d.add_argument("new", help="git ref or project folder after the change, e.g. HEAD")
    d.add_argument("--format", choices=("markdown", "text", "json"), default="markdown",
                   help="Markdown (default), one plain line per change, or the change records as JSON")
    d.set_defaults(func=cmd_diff)

    ed = sub.add_parser("edition", help="release the current edition and open the next (rulebook edition new ID)", epilog=_documented("edition"))
    ed_sub = ed.add_subparsers(dest="edition_command", required=True)
    en = ed_sub.add_parser("new", help="freeze the current edition as published, append ID as the current "
                                       "edition, and validate", epilog=_documented("edition"))
    en.add_argument("id", help="the new edition's id, later than the current one, e.g. 2026.3")
    en.add_argument("--label", required=True, help="as the cover prints it, e.g. \"Revision 3 (Dec/2026)\"")
    en.add_argument("--date", help="its date, YYYY-MM-DD (default: today)")
    en.set_defaults(func=cmd_edition_new)

    i = sub.add_parser("init", help="start a new book in DIR (new or empty): its data, pages, site configuration, "
                                    "README, Makefile and CI workflows", epilog=_documented("init"))
    i.add_argument("dir", help="the folder to start the book in")
    i.add_argument("--title", required=True, help="the book's title, as its cover prints it")
    i.add_argument("--author", help="who keeps the book (default: The editors)")
    i.add_argument("--pipeline", help="the requirement line its Makefile and CI install the pipeline with (default: "
                                      "this pipeline's repository and commit, when installed from git)")
    i.add_argument("--language", default="en", help="the book's language, a BCP 47 tag such as de, fr or en-GB: "
                                                    "its site's, its PDFs', its spelling's and the tool's words "
                                                    "(default: en)")
    i.set_defaults(func=cmd_init)

    n = sub.add_parser("new-game", help="scaffold rules_data/<game>.yaml and content/<game>.md", epilog=_documented("new-game"))
    n.add_argument("name", help="the game's name, e.g. \"Crazy Eights\"")
    n.add_argument("--section", help="the id of the book's section to list it in (book.yaml sections; default: the "
                                     "first); the game is of the section's kind")
    from .commands.new_game import EQUIPMENT_KINDS  # the model's: parsed as the book reads it

    n.add_argument("--kind", choices=EQUIPMENT_KINDS,
                   help="what the game is played with, in a section of several kinds of equipment")
    n.add_argument("--source", help="the document it comes from, as book.yaml's sources name it (default: none, "
                                     "the book's own game: record the decision in revisions.yaml)")
    n.set_defaults(func=cmd_new_game)

    sc = sub.add_parser("schema", help="write the JSON Schemas in schema/ from the data model", epilog=_documented("schema"))
    sc.set_defaults(func=cmd_schema)
    return p


def main(argv: list[str] | None = None, quick_exit: bool = False) -> int:
    """Run the command line; print 'error: ...' and exit non-zero on failure.

    ``quick_exit`` (the ``rulebook`` command itself, not a caller in Python): ``validate``, run on
    every save, ends the process as soon as its report is printed.
    """
    for stream in (sys.stdout, sys.stderr):
        # A terminal or a pipe that cannot write every character (Windows' cp1252, a C locale): a character it cannot
        # is written as an escape, never a traceback at the first Greek word a finding quotes
        if hasattr(stream, "reconfigure") and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    quick = quick_exit and args.func is cmd_validate
    if quick:
        # As mypy does: the collector would walk the data model's many objects again and again while they
        # are made, and tearing the interpreter down at exit would free each one (bench/README.md measures both).
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
    except Problems as exc:
        for problem in exc.problems:
            print(problem_line(problem), file=sys.stderr)
        summary = exc.summary or _("%(count)s problem(s) in the source files", count=len(exc.problems))
        print(_("error: %(problem)s", problem=summary), file=sys.stderr)
        return 1
    except RulebookError as exc:
        print(_("error: %(problem)s", problem="\n".join(map(clean, str(exc).split("\n")))), file=sys.stderr)
        return 1
    except OSError as exc:  # a folder where a file should be, a full disk, a missing program: where, and what
        print(_("error: %(problem)s", problem=clean(os_problem(exc, root=_root(args)))), file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        # Stopped by a signal (here, or by a command's own handler, which names it): which one
        print(_("error: stopped (%(signal)s)", signal=exc) if isinstance(exc, Stopped) or exc.args
              else _("error: interrupted"),
              file=sys.stderr)
        return 130
    except MemoryError:
        print(_("error: %(problem)s", problem=out_of_memory()), file=sys.stderr)
        return 1
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] == __package__:
            raise  # a module of the tool itself: a fault of the tool, not of the environment
        use(Words())  # in English, which needs no module: the one missing may be the one that reads a catalogue
        print(_("error: %(problem)s", problem=missing_package(exc)), file=sys.stderr)
        return 1


def missing_package(exc: ModuleNotFoundError) -> str:
    """A module the tool needs that this environment lacks (an environment made before the tool asked for it)."""
    return _("the Python module '%(module)s' (a dependency) is not installed in this environment (%(prefix)s): the tool "
             "needs it since it was installed; run `make` again (it installs requirements.lock anew), or `pip install "
             "-r requirements.lock` in this environment", module=exc.name, prefix=sys.prefix)


def out_of_memory() -> str:
    """What ran out of memory, and the limit that made it, in one line."""
    import resource

    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return _("out of memory: the machine has no more to give; close other programs, or build on a larger machine")
    return _("out of memory: this shell limits a process to %(megabytes)s MB of address space (`ulimit -v`): raise the "
             "limit (`ulimit -v unlimited`), or run on a machine without one", megabytes=limit // 1024 // 1024)


def command() -> None:
    """The ``rulebook`` console script."""
    # pydantic looks for plugins among every installed package's entry points when it makes the first model
    # (4-8 ms of the 0.3 s validate may take); the project uses none. Its own switch, for this process and its children.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        code = main(quick_exit=True)
    except MemoryError:  # before a command runs (its imports), or while one prints
        print(f"error: {out_of_memory()}", file=sys.stderr)
        code = 1
    except ModuleNotFoundError as exc:  # the command line's own imports, in an environment made before they were needed
        if (exc.name or "").split(".")[0] == __package__:
            raise
        print(f"error: {missing_package(exc)}", file=sys.stderr)
        code = 1
    sys.exit(code)
