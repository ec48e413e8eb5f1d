"""``rulebook build``: validate, render into a staging folder, check the result, then switch to it.

The pipeline: load (``library.py``), check (``checks/``), then each output made from the views both share
(``render/views/``): print (``render/pdf/``, in a child process under limits: ``worker.render_pdfs``) and the site
(``render/site/``, built by the site engine: ``engine.render_site``). Print comes first: the site prints the book's
page numbers. Both are made in a staging folder of the output folder and switched in whole, or not at all
(``render/output.py``); the renders lay out the bytes that were validated, and a source that changed meanwhile stops
the build.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path

from ..book.files import recording
from ..book.library import CHANGED, Library, changed_since, load_library
from ..book.words import _
from ..checks import run_checks
from ..errors import BuildError, Problem, RulebookError, problem_line
from ..progress import Report, quiet
from ..render.output import HALVES, claim_out, staging, switch_in
from ..render.pdf.worker import render_pdfs
from ..render.site.engine import render_site

RECORD = ".made-from"  # in a build: a digest of what it was made from and how (``made_from``)
# What another verb may use: the build itself, and the digest of the code every build reads (publish keeps a version
# whose build would read what its deployed build read).
__all__ = ["build", "code_digest", "run"]


def default_out(root: Path, lib: Library) -> Path:
    """build/ for the current edition, build/editions/<id>/ for the others."""
    return root / "build" if lib.is_current else root / "build" / "editions" / lib.edition.id


def code_digest(root: Path, *fields: object) -> hashlib._Hash:
    """A digest of the code, templates, dependencies, versions and text libraries (``render/pdf/cache.py``), the
    project's site configuration and theme overrides, and ``fields``: what every build reads besides the sources."""
    from ..render.pdf import cache
    from ..render.site.engine import CONFIG

    digest = cache.new_digest(*fields)
    cache.add_files(digest, root, (CONFIG, "templates"))
    return digest


def made_from(lib: Library, paper: str = "letter", duplex: bool = False, site: bool = True, pdf: bool = True,
              booklet: bool = False) -> str:
    """A digest of everything a build of ``lib``'s edition reads (``code_digest``, the project's sources, the
    repository its pages link) and of what it was asked to make: two builds of equal digests are the same, byte for
    byte (the suite reads the build `make` made when its digest is the one it would build)."""
    from ..render.pdf import cache
    from ..render.site.repository import repository

    digest = code_digest(lib.root, "build", lib.edition.id, paper, duplex, site, pdf, booklet, repository(lib.root))
    cache.add_files(digest, lib.root, ("rules_data", "content"))
    return digest.hexdigest()


def booklet_name(lib: Library) -> str:
    """The booklet PDF's file name, beside the book's."""
    from ..render.views.describe import pdf_name

    return pdf_name(lib).removesuffix(".pdf") + "-booklet.pdf"


def build(root: Path, edition_id: str | None = None, out: Path | None = None, site: bool = True,
          pdf: bool = True, paper: str = "letter", duplex: bool = False, booklet: bool = False,
          report: Callable[[list[Problem], int], None] | None = None, progress: Report = quiet,
          done: Callable[[Library, Path], None] | None = None) -> Path:
    """Validate and build one edition; return the output folder. ``report`` is given the current edition's
    findings and its number of games before anything is built (``rulebook build`` prints them, as validate does);
    ``progress`` each stage as it goes (``progress.py``); ``done`` the library and the output folder once built."""
    progress("validate")
    with recording() as validated:  # the bytes validated: the renders lay out these, or stop (library.load_library)
        lib = load_library(root, edition_id)  # load
        if lib.is_current:  # an earlier edition is built as it was published, not checked
            findings = run_checks(lib)  # check
    lib.validated = validated  # what it loads besides, and every render's load, is held to them
    progress("validate", final=True)
    if lib.is_current:
        if report is not None:
            report(findings, len(lib.games))
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            listing = "\n".join(problem_line(f) for f in errors)
            raise BuildError(_("validation failed; nothing was built:") + f"\n{listing}")
    out = (out or default_out(root, lib)).resolve()
    claim_out(root, out)
    with staging(root, out) as staged:
        keep = out / ".cache"  # the last builds' renders, copied while nothing changes, and their sheets, one by one
        # Each output makes the views it prints in its own process; print first, for the pages the site names.
        anchors = render_pdfs(lib, staged / "pdf", paper=paper, duplex=duplex, keep=keep,
                              progress=progress) if pdf else None
        if pdf and booklet:
            from ..render.pdf.book import render_booklet  # in this process: only a booklet build needs it

            render_booklet(lib, staged / "pdf" / booklet_name(lib), paper, staged, progress)
        if site:
            render_site(lib, staged / "site", staged, staged / "pdf" if pdf else None, anchors, progress)
        changed = changed_since(root, validated)
        if changed:  # the build laid out what was validated, but the sources are not that any more
            raise BuildError(f"{changed[0]}: {_(CHANGED)}" if len(changed) == 1 else
                             _("%(file)s (and %(more)s more): %(problem)s", file=changed[0], more=len(changed) - 1,
                               problem=_(CHANGED)))
        # A build of one half carries the other over as it was: no record says what it holds.
        record = (RECORD, made_from(lib, paper, duplex, site, pdf, booklet) + "\n") if site and pdf else None
        switch_in(root, out, staged, tuple(half for half, made in zip(HALVES, (site, pdf), strict=True) if made),
                  record)
    if done is not None:
        done(lib, out)
    return out


def outputs(lib: Library, out: Path, site: bool = True, pdf: bool = True, booklet: bool = False) -> list[str]:
    """What a build in ``out`` made, one line each, as a reader opens it: the site's home page, the book PDF (and
    its booklet); a path under the current folder is given from there."""
    from ..render.views.describe import pdf_name

    def shown(path: Path) -> str:
        with contextlib.suppress(ValueError, OSError):
            return str(path.relative_to(Path.cwd()))
        return str(path)

    lines = [_("site: %(path)s", path=shown(out / 'site' / 'index.html'))] if site else []
    if pdf:
        lines.append(_("PDF: %(path)s", path=shown(out / 'pdf' / pdf_name(lib))))
        if booklet:
            lines.append(_("booklet: %(path)s", path=shown(out / 'pdf' / booklet_name(lib))))
    return lines


def run(root: Path, edition: str | None = None, out: Path | None = None, site: bool = True, pdf: bool = True,
        paper: str = "letter", duplex: bool = False, booklet: bool = False) -> int:
    """``rulebook build``: the findings as ``rulebook validate`` prints them (so that `make` validates once), then
    the build, its stages shown as they run."""
    from ..progress import shown
    from .validate import as_text

    if booklet and not pdf:
        raise RulebookError("--booklet is made from the book PDF; leave out --site-only")
    made: list[str] = []
    with shown() as progress:
        out = build(root, edition_id=edition, out=out, site=site, pdf=pdf, paper=paper, duplex=duplex,
                    booklet=booklet, progress=progress,
                    # the accepted warnings counted, not listed: validate lists them, and errors and warnings alike
                    report=lambda found, games: print(as_text(found, games, listed=False), flush=True),
                    done=lambda lib, folder: made.extend(outputs(lib, folder, site, pdf, booklet)))
    print(_("built %(folder)s", folder=out))
    print("\n".join(made))
    return 0
