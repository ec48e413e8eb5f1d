"""What publish finds deployed, and what it builds again: the branch mike will deploy to (local, or origin's when CI
has only that), and after `rulebook edition new` the new edition alone (issue 50).

One small book is published once for the module (two editions, their PDFs from a cache of the module's); each test
works on a copy of it. What is rendered is counted (``render_pdfs`` and ``engine.deploy`` calls), not timed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands import publish
from generator.render.site import engine
from tests.test_publish import _commit, _tiny_book

EDITIONS = ("2026.1", "2026.2")
WHO = {"GIT_AUTHOR_NAME": "t", "GIT_COMMITTER_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost",
       "GIT_COMMITTER_EMAIL": "t@localhost"}


def _git(repo: Path, *args: str, input_text: str | None = None, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False,
                          input=input_text, env={**os.environ, **WHO, **(env or {})}).stdout


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """The small book of tests/test_publish.py, published to its local gh-pages once."""
    folder = tmp_path_factory.mktemp("published")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEBOOK_PDF_JOBS", "1")
        mp.setenv("RULEBOOK_PDF_CACHE", str(folder / "renders"))
        root = _tiny_book(folder / "book")
        assert main(["--root", str(root), "publish"]) == 0
    return root


@pytest.fixture()
def counted(monkeypatch, tmp_path) -> dict[str, list[str]]:
    """The editions rendered (``render_pdfs``) and deployed (``engine.deploy``) while the test runs."""
    monkeypatch.setenv("RULEBOOK_PDF_JOBS", "1")
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "renders"))
    calls: dict[str, list[str]] = {"rendered": [], "deployed": []}
    render, deploy = publish.render_pdfs, engine.deploy

    def rendering(lib, *args, **kwargs):
        calls["rendered"].append(lib.edition.id)
        return render(lib, *args, **kwargs)

    def deploying(root, env, branch, edition, *args, **kwargs):
        calls["deployed"].append(edition)
        return deploy(root, env, branch, edition, *args, **kwargs)

    monkeypatch.setattr(publish, "render_pdfs", rendering)
    monkeypatch.setattr(engine, "deploy", deploying)
    return calls


def _copy(published: Path, dest: Path) -> Path:
    shutil.copytree(published, dest, symlinks=True)
    return dest


def _refs(repo: Path) -> str:
    return _git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


def _versions(repo: Path, ref: str = "gh-pages") -> dict[str, dict]:
    return {v["version"]: v for v in json.loads(_git(repo, "show", f"{ref}:versions.json"))}


def _clone_of(published: Path, tmp_path: Path) -> Path:
    """A clone whose gh-pages is only its remote's, as CI's checkout is: the book pushed to a bare repository of the
    test's, with its gh-pages, and cloned (a clone checks out the default branch alone)."""
    work = _copy(published, tmp_path / "work")
    bare = tmp_path / "origin.git"
    _git(tmp_path, "init", "-q", "--bare", str(bare))
    _git(work, "push", "-q", str(bare), "HEAD:refs/heads/main", "gh-pages:refs/heads/gh-pages")
    _git(bare, "symbolic-ref", "HEAD", "refs/heads/main")
    _git(tmp_path, "clone", "-q", str(bare), str(tmp_path / "clone"))
    clone = tmp_path / "clone"
    assert not _git(clone, "branch", "--list", "gh-pages").strip() and _git(clone, "rev-parse", "origin/gh-pages")
    return clone


def test_a_gh_pages_only_on_the_remote_is_what_is_deployed(published, tmp_path, counted, capsys):
    """In a clone whose gh-pages is only origin's, publishing with nothing changed builds and deploys nothing, and
    commits nothing: no local branch made, no ref moved."""
    clone = _clone_of(published, tmp_path)
    refs = _refs(clone)
    assert main(["--root", str(clone), "publish"]) == 0
    assert "deployed nothing; kept 2026.1, 2026.2 as deployed" in capsys.readouterr().out
    assert counted == {"rendered": [], "deployed": []}
    assert _refs(clone) == refs


def test_a_local_branch_behind_the_remote_is_read_as_the_remote(published, tmp_path, counted, capsys):
    """A local gh-pages left behind (an older publish; the remote has the newer deploys): mike deploys on the remote's,
    and so publish reads it: nothing to build. A local branch ahead (deploys not pushed) is read as it is."""
    clone = _clone_of(published, tmp_path)
    _git(clone, "branch", "gh-pages", "origin/gh-pages~3")  # before 2026.2 was deployed and the default set
    assert "2026.2" not in _versions(clone)
    assert main(["--root", str(clone), "publish"]) == 0
    assert "deployed nothing; kept 2026.1, 2026.2" in capsys.readouterr().out
    assert counted["rendered"] == []
    # Ahead: the local branch has a deploy the remote lacks (2026.1 as it was, deployed again by hand).
    _git(clone, "branch", "-f", "gh-pages", "origin/gh-pages")
    versions = json.loads(_git(clone, "show", "gh-pages:versions.json"))
    for v in versions:
        if v["version"] == "2026.1":
            v["properties"][publish.DIGEST] = "0" * 64  # built from something else: built again
    _rewrite(clone, "gh-pages", "versions.json", json.dumps(versions))
    assert engine.deployed_ref(clone, "gh-pages") == "gh-pages"
    assert main(["--root", str(clone), "publish"]) == 0
    assert "deployed 2026.1; kept 2026.2" in capsys.readouterr().out
    assert counted["rendered"] == ["2026.1"]


def _rewrite(repo: Path, branch: str, path: str, text: str) -> None:
    """A commit on ``branch`` with ``path`` holding ``text`` (git's plumbing: no work tree touched)."""
    blob = _git(repo, "hash-object", "-w", "--stdin", input_text=text).strip()
    _git(repo, "read-tree", f"--index-output={repo / '.git' / 'alt-index'}", branch)
    env = {"GIT_INDEX_FILE": str(repo / ".git" / "alt-index")}
    _git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
    tree = _git(repo, "write-tree", env=env).strip()
    commit = _git(repo, "commit-tree", tree, "-p", branch, "-m", f"{path} by hand").strip()
    _git(repo, "update-ref", f"refs/heads/{branch}", commit)


def _remove(repo: Path, branch: str, path: str) -> None:
    """A commit on ``branch`` without ``path``: a foreign commit (by hand, by another tool), no work tree touched."""
    _git(repo, "read-tree", f"--index-output={repo / '.git' / 'alt-index'}", branch)
    env = {"GIT_INDEX_FILE": str(repo / ".git" / "alt-index")}
    _git(repo, "update-index", "--force-remove", path, env=env)
    tree = _git(repo, "write-tree", env=env).strip()
    commit = _git(repo, "commit-tree", tree, "-p", branch, "-m", f"{path} removed by hand").strip()
    _git(repo, "update-ref", f"refs/heads/{branch}", commit)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def _folders(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_dir() and ".git" not in p.relative_to(root).parts)


def test_publish_builds_in_its_own_folder_and_rebuilds_what_a_foreign_commit_removed(published, tmp_path, counted,
                                                                                    capsys):
    """issue 60, in one publish (one build): a fresh clone (gh-pages the remote's), with a site/ folder of the user's
    (publish once built there, emptying it first), and a commit on gh-pages that removed a file of 2026.1 (its digest
    unchanged). 2026.1 is built again, and only it; the book's folder is as it was, site/ and all, and nothing is left
    in it (once build/generated/, which `rulebook build` then refused as not its own). Published again: kept."""
    clone = _clone_of(published, tmp_path)
    (clone / "site").mkdir()
    (clone / "site" / "notes.txt").write_text("the user's own notes\n", encoding="utf-8")
    _git(clone, "branch", "gh-pages", "origin/gh-pages")
    _remove(clone, "gh-pages", "2026.1/index.html")
    before, folders = _files(clone), _folders(clone)
    assert main(["--root", str(clone), "publish"]) == 0
    assert "deployed 2026.1; kept 2026.2" in capsys.readouterr().out
    assert counted["deployed"] == ["2026.1"]
    assert _git(clone, "cat-file", "-t", "gh-pages:2026.1/index.html").strip() == "blob"
    assert _files(clone) == before, "publish wrote or removed a file of the book's folder"
    assert _folders(clone) == folders, "publish left a folder behind"
    counted["deployed"].clear()
    assert main(["--root", str(clone), "publish"]) == 0  # its tree recorded: kept
    assert counted["deployed"] == []


def test_a_local_branch_diverged_from_the_remote_is_refused_before_anything_is_built(published, tmp_path, counted,
                                                                                       capsys):
    clone = _clone_of(published, tmp_path)
    _git(clone, "branch", "gh-pages", "origin/gh-pages~1")
    _rewrite(clone, "gh-pages", "notes.txt", "a deploy never pushed\n")
    refs = _refs(clone)
    assert main(["--root", str(clone), "publish"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "diverged" in err and "origin/gh-pages" in err and "Traceback" not in err
    assert counted["rendered"] == [] and _refs(clone) == refs


def test_opening_an_edition_builds_the_new_edition_alone(published, tmp_path, counted, capsys):
    """`rulebook edition new` (a new edition listed and made current, the last one frozen and its record sealed in
    book.yaml), committed, then publish: 2026.3 is rendered and deployed, and only it; 2026.1 and 2026.2 keep their
    deployed trees byte for byte, and `latest` moves to 2026.3. Opened again (2027.1): the same."""
    from generator.commands.edition import new_edition

    root = _copy(published, tmp_path / "book")
    before = {ed: _git(root, "rev-parse", f"gh-pages:{ed}").strip() for ed in EDITIONS}
    for opened, label, date in (("2026.3", "Revision 3 (Dec/2026)", "2026-12-01"),
                                ("2027.1", "Revision 1 (Jan/2027)", "2027-01-15")):
        counted["rendered"].clear()
        counted["deployed"].clear()
        new_edition(root, opened, label, date)
        _commit(root, f"open {opened}")
        assert main(["--root", str(root), "publish"]) == 0
        out = capsys.readouterr().out
        assert f"deployed {opened}; kept" in out, out
        assert counted == {"rendered": [opened], "deployed": [opened]}
        assert {ed: _git(root, "rev-parse", f"gh-pages:{ed}").strip() for ed in EDITIONS} == before
        versions = _versions(root)
        assert versions[opened]["aliases"] == ["latest"] and not any(
            v["aliases"] for ed, v in versions.items() if ed != opened)
    # Nothing changed since: nothing built, no commit.
    counted["deployed"].clear()
    tip = _git(root, "rev-parse", "gh-pages")
    assert main(["--root", str(root), "publish"]) == 0
    assert "deployed nothing" in capsys.readouterr().out and counted["deployed"] == []
    assert _git(root, "rev-parse", "gh-pages") == tip


def test_a_kept_current_edition_without_its_alias_gets_it_back_without_a_build(published, tmp_path, counted, capsys):
    """`latest` on an earlier edition (set by hand, say): publish points it at the current edition again, as deployed."""
    root = _copy(published, tmp_path / "book")
    env = engine.versioned({**os.environ, **WHO})
    engine.alias(root, env, "gh-pages", "2026.1", ("latest",), "latest by hand")
    assert _versions(root)["2026.1"]["aliases"] == ["latest"]
    assert main(["--root", str(root), "publish"]) == 0
    assert "deployed nothing; kept 2026.1, 2026.2" in capsys.readouterr().out
    assert counted == {"rendered": [], "deployed": []}
    versions = _versions(root)
    assert versions["2026.2"]["aliases"] == ["latest"] and versions["2026.1"]["aliases"] == []


def test_opening_editions_leaves_the_digest_of_every_earlier_edition_of_the_book(tmp_path):
    """The book itself (its printed index, which `edition new` extends to the new edition, and two editions): opened
    twice, each earlier edition's build digest stays what it was, and the new one's differs from the last's."""
    from generator.book.library import load_library
    from generator.commands.edition import new_edition
    from generator.commands.publish import build_digest
    from tests.conftest import copy_project

    root = copy_project(tmp_path / "book")
    code = publish.code_digest(root, "publish")
    digests = {e.id: build_digest(load_library(root, e.id), code) for e in load_library(root).book.editions}
    assert len(digests) >= 2 and load_library(root).book.printed_index is not None
    for opened, label, date in (("2026.3", "Revision 3 (Dec/2026)", "2026-12-20"),
                                ("2027.1", "Revision 1 (Jan/2027)", "2027-01-20")):
        lib = new_edition(root, opened, label, date)
        assert opened in lib.book.printed_index.editions  # book.yaml edited where the earlier editions read it
        now = {e.id: build_digest(load_library(root, e.id), code) for e in lib.book.editions}
        assert {ed: now[ed] for ed in digests} == digests
        assert now[opened] not in digests.values()
        digests[opened] = now[opened]
