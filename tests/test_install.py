"""The install holds whatever the index publishes later (issue 57): the Makefile's own venv rule installs exactly the
lock, each file checked against its digest, when a pinned package has a newer release that another pinned package
asks for with an extra (pip's resolver otherwise goes after the newer release in hash-checking mode and refuses the
lock: pypa/pip#9644)."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _wheel(folder: Path, name: str, version: str, requires: tuple[str, ...] = (), extras: dict | None = None) -> Path:
    """A minimal pure-Python wheel of ``name`` ``version`` (one module), its metadata asking for ``requires`` and
    offering ``extras`` ({extra: [requirements]})."""
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    for extra, wanted in (extras or {}).items():
        meta.append(f"Provides-Extra: {extra}")
        meta += [f'Requires-Dist: {r}; extra == "{extra}"' for r in wanted]
    info = f"{name}-{version}.dist-info"
    files = {f"{name}.py": f"VERSION = {version!r}\n", f"{info}/METADATA": "\n".join(meta) + "\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}

    def digest(text: str) -> str:
        raw = hashlib.sha256(text.encode()).digest()
        return "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    record = "".join(f"{path},{digest(text)},{len(text.encode())}\n" for path, text in files.items())
    files[f"{info}/RECORD"] = record + f"{info}/RECORD,,\n"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for member, text in files.items():
            whl.writestr(member, text)
    return path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel_pin(index: Path) -> str:
    """The real lock's pins of ``wheel`` and what it needs (the venv's setuptools builds the editable install with
    it), their files put in ``index``: downloaded by their digests, as the Makefile installs them."""
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pins = [re.search(rf"^{name}==\S+(?: \\\n\s+--hash=sha256:\w+)+\n", lock, re.M) for name in ("wheel", "packaging")]
    assert all(pins), "requirements.lock pins wheel and packaging"
    pin = ["".join(p[0] for p in pins)]
    (index / "wheel.txt").write_text(pin[0], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
                           "--only-binary", ":all:", "-d", str(index), "-r", str(index / "wheel.txt")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"the pinned wheel could not be downloaded: {done.stderr.strip()[-300:]}")
    (index / "wheel.txt").unlink()
    return pin[0]


def _project(tmp: Path, makefile: str) -> tuple[Path, Path, dict[str, Path]]:
    """A project with ``makefile`` and a lock of three pins, and an index (a folder of wheels) that also holds a newer
    release of one of them: beta asks for alpha[x], and alpha 1.1 is out."""
    index = tmp / "index"
    index.mkdir()
    wheels = {"alpha": _wheel(index, "alpha", "1.0", extras={"x": ["gamma"]}),
              "beta": _wheel(index, "beta", "1.0", requires=("alpha[x]>=1.0",)),
              "gamma": _wheel(index, "gamma", "1.0")}
    _wheel(index, "alpha", "1.1", extras={"x": ["gamma"]})  # published after the lock was written
    project = tmp / "project"
    (project / "generator").mkdir(parents=True)
    (project / "generator" / "__init__.py").write_text("", encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "fixture-tool"\nversion = "1.0"\ndependencies = ["beta"]\n'
        '[tool.setuptools]\npackages = ["generator"]\n', encoding="utf-8")
    (project / "requirements.lock").write_text(
        "".join(f"{name}=={'1.0'} \\\n    --hash=sha256:{_sha256(path)}\n" for name, path in sorted(wheels.items()))
        + _wheel_pin(index), encoding="utf-8")
    (project / "Makefile").write_text(makefile, encoding="utf-8")
    return project, index, wheels


def _make_venv(project: Path, index: Path) -> subprocess.CompletedProcess:
    """The Makefile's own venv rule, with the machine's Python and the pip its venv brings, reading only ``index``."""
    python = shutil.which("python3")
    if python is None:
        pytest.skip("no python3 on PATH to make a fresh venv with")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(index), PIP_NO_CACHE_DIR="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    return subprocess.run(["make", "-C", str(project), "venv", f"PYTHON={python}"], capture_output=True, text=True,
                          env=env, timeout=300)


def _installed(project: Path) -> dict[str, str]:
    done = subprocess.run([str(project / ".venv/bin/python"), "-m", "pip", "list", "--format=freeze"],
                          capture_output=True, text=True, check=True, env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    return dict(line.split("==", 1) for line in done.stdout.split() if "==" in line)


MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def test_the_makefile_installs_the_pinned_release_when_a_newer_one_is_wanted_with_an_extra(tmp_path):
    """beta==1.0 asks for alpha[x]>=1.0, the lock pins alpha==1.0 and the index has alpha 1.1: `make venv` installs
    alpha 1.0, as pinned (with the venv's own pip; the rule before this issue was refused by pip 23.2)."""
    project, index, _ = _project(tmp_path, MAKEFILE)
    done = _make_venv(project, index)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = _installed(project)
    assert (installed.get("alpha"), installed.get("beta"), installed.get("gamma")) == ("1.0", "1.0", "1.0"), installed


def test_a_file_that_is_not_the_one_pinned_is_still_refused(tmp_path):
    """The lock's digests still hold: a file whose digest is not the lock's is refused, and nothing is marked
    installed."""
    project, index, wheels = _project(tmp_path, MAKEFILE)
    lock = project / "requirements.lock"
    lock.write_text(lock.read_text(encoding="utf-8").replace(_sha256(wheels["gamma"]), "0" * 64), encoding="utf-8")
    done = _make_venv(project, index)
    assert done.returncode != 0
    assert "THESE PACKAGES DO NOT MATCH THE HASHES" in done.stdout + done.stderr
    assert not list((project / ".venv").glob(".installed-*"))


def test_a_lock_that_leaves_out_a_dependency_is_refused(tmp_path):
    """Installing the lock alone (no dependency resolved by pip) must not hide a lock that misses one: pip check
    refuses it, and nothing is marked installed."""
    project, index, _ = _project(tmp_path, MAKEFILE)
    lock = project / "requirements.lock"
    lock.write_text(re.sub(r"alpha==1\.0 \\\n\s+--hash=sha256:\w+\n", "", lock.read_text(encoding="utf-8")),
                    encoding="utf-8")
    done = _make_venv(project, index)
    assert done.returncode != 0 and "beta 1.0 requires alpha" in done.stdout + done.stderr, done.stdout + done.stderr
    assert not list((project / ".venv").glob(".installed-*"))


def _requirements(dist) -> list:
    from packaging.requirements import Requirement

    return [Requirement(r) for r in dist.requires or []]


def unmet(lock: str) -> list[str]:
    """Each requirement of a package ``lock`` pins, with the extras other pinned packages ask of it, that no pin meets
    (pip check reads each package's own requirements but not those of an extra another package asks for)."""
    from importlib.metadata import distributions

    from packaging.utils import canonicalize_name

    pinned = {canonicalize_name(n): v for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock, re.M)}
    dists = {canonicalize_name(d.metadata["Name"]): d for d in distributions()}
    asked: dict[str, set[str]] = {name: set() for name in pinned}
    for name in pinned:
        for req in _requirements(dists[name]):
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                asked.setdefault(canonicalize_name(req.name), set()).update(req.extras)
    missing = []
    for name in pinned:
        for req in _requirements(dists[name]):
            wanted = [e for e in asked.get(name, ()) if req.marker is not None and req.marker.evaluate({"extra": e})]
            if not (req.marker is None or req.marker.evaluate({"extra": ""}) or wanted):
                continue
            have = pinned.get(canonicalize_name(req.name))
            if have is None or not req.specifier.contains(have, prereleases=True):
                missing.append(f"{name} needs {req} ({have or 'not in the lock'})")
    return missing


LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", ["as it is", "brotli left out", "fonttools older than weasyprint takes"])
def test_the_lock_holds_every_dependency_of_every_pin_with_the_extras_asked_for(case):
    """Every requirement of every locked package, with the extras asked of it (weasyprint's fonttools[woff] wants
    brotli), is met by a pin of a version it accepts; a lock that leaves one out, or pins one too old, is found."""
    if case == "as it is":
        assert unmet(LOCK) == []
    elif case == "brotli left out":
        assert any(m.startswith("fonttools needs brotli") for m in unmet(re.sub(r"(?m)^brotli==", "# brotli==", LOCK)))
    else:
        found = unmet(re.sub(r"(?m)^fonttools==\S+", "fonttools==1.0", LOCK))
        assert any(m.startswith("weasyprint needs fonttools") for m in found), found


# -- the tool as a user gets it: from its repository's address, at a release tag, into a fresh venv --------------------

def _tool_version() -> str:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def _fresh_env() -> dict[str, str]:
    """The environment of a user's shell: no venv of ours active, pip's settings the machine's own, and the versions
    the tool is tested with chosen among those its declared dependencies accept (a constraint, not a dependency: a
    newer release of one of them on the day the suite runs cannot change what is tested)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "RULEBOOK_"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    return env


@pytest.fixture(scope="module")
def tool_address(tmp_path_factory):
    """This tool's repository at its release tag (v + pyproject's version), served over http on loopback as a plain
    git server serves it: the address a user has, and nothing else of this machine."""
    import functools
    import http.server
    import threading

    version = _tool_version()
    top = tmp_path_factory.mktemp("tool")
    work = top / "work"
    for name in ("generator", "templates", "docs"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "CHANGELOG.md"):
        shutil.copy(ROOT / name, work / name)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", str(work)], check=True)
    subprocess.run([*git, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-q", "-m", f"rulebook {version}"], check=True)
    subprocess.run([*git, "-C", str(work), "tag", f"v{version}"], check=True)
    served = top / "served"
    served.mkdir()
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(served / "rulebook.git")], check=True)
    subprocess.run(["git", "-C", str(served / "rulebook.git"), "update-server-info"], check=True)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    constraints = top / "constraints.txt"  # the lock's versions, no digests: pip resolves the declared dependencies
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)",
                                                                      LOCK, re.M)), encoding="utf-8")
    yield f"http://127.0.0.1:{server.server_address[1]}/rulebook.git", version, constraints
    server.shutdown()


def _readme_install_lines() -> list[str]:
    """The README's lines that install the tool for a book of one's own (the block under 'Start your own book')."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Start your own book.*?```sh\n(.*?)```", readme, re.S)
    assert block, "README.md has a 'Start your own book' section with a sh block"
    return [line.split("#", 1)[0].strip() for line in block[1].splitlines() if line.strip()]


def _run(cmd: list[str] | str, cwd: Path, env: dict, timeout: int = 600, shell: bool = False) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, shell=shell)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done.stdout + done.stderr


def _until(process: subprocess.Popen, pattern: str, timeout: float = 300) -> str:
    """What ``process`` prints until a line matches ``pattern`` (the process still runs)."""
    import selectors
    import time

    sel = selectors.DefaultSelector()
    sel.register(process.stdout, selectors.EVENT_READ)
    said, end = "", time.monotonic() + timeout
    while time.monotonic() < end and process.poll() is None:
        if sel.select(timeout=1):
            line = process.stdout.readline()
            said += line
            if re.search(pattern, line):
                return said
    raise AssertionError(f"no line like {pattern!r} in {timeout} s: {said[-2000:]}")


def test_a_user_with_the_address_installs_the_tool_and_makes_a_book_that_builds_from_a_fresh_clone(tool_address,
                                                                                                    tmp_path):
    """The README's own lines, the repository's address put in: the tool installs into a fresh venv with only what
    pyproject.toml declares (not editable), takes a new book through init, new-game, validate, build, print-shop and
    preview; the book pins the tool by its release from that address (no path of this machine), is a repository on
    the branch its workflows watch, and a fresh clone of it runs its README's two commands."""
    address, version, constraints = tool_address
    # PIP_COMPILE=0 (pip install --no-compile; PIP_NO_COMPILE=1 would read as --compile): pip leaves compiling the
    # installed modules to Python, which compiles those a command imports as it first imports them (no
    # PYTHONDONTWRITEBYTECODE here). What is installed, and what runs, is the same; pip compiled every module of every
    # package twice over (the tool's install, then the fresh clone's), most of them never imported by any command.
    env = {**_fresh_env(), "PIP_CONSTRAINT": str(constraints), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_COMPILE": "0"}
    home = tmp_path / "home"
    home.mkdir()
    lines = _readme_install_lines()
    install = [line for line in lines if "pip install" in line]
    assert install and all("@v" in line and "ADDRESS" in line for line in install), lines
    assert all(f"@v{version}" in line for line in install), "the README installs the version pyproject.toml names"
    for line in lines:
        if "rulebook init" in line:
            break
        _run(line.replace("ADDRESS", address), home, env, shell=True)
    rulebook = str(home / ".venv/bin/rulebook")
    assert _run([rulebook, "--version"], home, env).strip() == f"rulebook {version}"
    # Nothing the tool imports is missing from what it declares: every command of a book's life runs.
    _run([rulebook, "init", "book", "--title", "The Pine Street Book of Games", "--author", "The Pine Street Club"],
         home, env)
    book = home / "book"
    _run([rulebook, "--root", "book", "new-game", "Yacht", "--section", "dice"], home, env)
    _run([rulebook, "--root", "book", "validate"], home, env)
    _run([rulebook, "--root", "book", "print-shop", "--trim", "6x9"], home, env)
    preview = subprocess.Popen([rulebook, "--root", "book", "preview"], cwd=home, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        _until(preview, r"wrote .*book\.pdf")
    finally:
        preview.terminate()
        preview.wait(timeout=60)
    review = subprocess.run([rulebook, "--root", "book", "check-pr", "--base", "HEAD", "--pictures", "pics"], cwd=home,
                            env=env, capture_output=True, text=True)
    assert review.returncode == 1 and "pip install 'rulebook[review]'" in review.stderr, review.stderr
    # The book pins this release from its repository's address, by the commit its tag names.
    commit = subprocess.run(["git", "ls-remote", address, f"refs/tags/v{version}"], capture_output=True, text=True,
                            check=True).stdout.split()[0]
    pins = [line for line in (book / "requirements.txt").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert pins == [f"rulebook @ git+{address}@{commit}  # v{version}"], pins
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in book.rglob("*")
                      if p.is_file() and ".git" not in p.relative_to(book).parts[:1] and "build" not in p.parts)
    assert str(home) not in written and str(tmp_path) not in written and "file:" not in written
    assert _run(["git", "-C", "book", "branch", "--show-current"], home, env).strip() == "main"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    _run([*git, "-C", "book", "add", "-A"], home, env)
    _run([*git, "-C", "book", "commit", "-q", "-m", "a new book"], home, env)
    # A fresh clone, as a club member or the book's CI gets it: the README's two commands.
    clone = tmp_path / "clone"
    _run(["git", "clone", "-q", str(book), str(clone)], tmp_path, env)
    commands = re.findall(r"^(make[^\n#]*?)\s+#", (clone / "README.md").read_text(encoding="utf-8"), re.M)
    assert commands[:2] == ["make", "make serve"], commands
    said = _run(["make"], clone, {k: v for k, v in env.items() if k != "PIP_CONSTRAINT"}, timeout=900)
    assert (clone / "build/site/index.html").is_file() and list((clone / "build/pdf").glob("*.pdf")), said
    import socket

    with socket.socket() as free:  # a port of its own: another suite's serve may hold 8000
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    serve = subprocess.Popen(["make", "serve", f"ADDR=127.0.0.1:{port}"], cwd=clone, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        said = _until(serve, r"http://127\.0\.0\.1:\d+/")
        import urllib.request

        url = re.search(r"http://127\.0\.0\.1:\d+/", said)[0]
        with urllib.request.urlopen(url, timeout=30) as page:
            assert "The Pine Street Book of Games" in page.read().decode("utf-8")
    finally:
        import contextlib
        import signal

        os.killpg(serve.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            serve.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):  # whatever is left of the group: no server outlives the test
            os.killpg(serve.pid, signal.SIGKILL)
        serve.wait(timeout=30)


# -- the package declares what it imports; a book installs what the tool runs on ------------------------------------

def undeclared(tree: Path, pyproject: str) -> list[str]:
    """Each package a module of ``tree`` imports (at the top or inside a function) that no dependency pyproject.toml
    declares provides (its distributions read from the installed metadata), as 'module: package (file)'."""
    import ast
    import sys
    import tomllib
    from importlib.metadata import packages_distributions

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads(pyproject)["project"]
    declared = {canonicalize_name(Requirement(r).name) for r in project.get("dependencies", [])}
    declared |= {canonicalize_name(Requirement(r).name) for extra in project.get("optional-dependencies", {}).values()
                 for r in extra}
    provided = packages_distributions()
    out = []
    for path in sorted(tree.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == tree.name:
                    continue
                dists = {canonicalize_name(d) for d in provided.get(top, [])}
                if not dists & declared:
                    out.append(f"{top}: {', '.join(sorted(dists)) or 'no installed package'} "
                               f"({path.relative_to(tree.parent)})")
    return sorted(set(out))


PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", ["the tool as it is", "pikepdf undeclared", "an import no package provides"])
def test_every_import_of_the_tool_is_a_declared_dependency(case, tmp_path):
    """Read off the imports, not a list kept by hand: a package imported by generator/ and declared by no
    dependency (the pikepdf import that a pip-installed tool could not run) is found."""
    if case == "the tool as it is":
        assert undeclared(ROOT / "generator", PYPROJECT) == []
    elif case == "pikepdf undeclared":
        found = undeclared(ROOT / "generator", PYPROJECT.replace('"pikepdf", ', ""))
        assert any(f.startswith("pikepdf: pikepdf (generator/render/leaks.py)") for f in found), found
    else:
        tree = tmp_path / "generator"
        (tree / "render").mkdir(parents=True)
        (tree / "render" / "late.py").write_text("def f():\n    import no_such_package_here.sub\n", encoding="utf-8")
        assert undeclared(tree, PYPROJECT) == ["no_such_package_here: no installed package (generator/render/late.py)"]


def test_the_lock_a_book_installs_is_the_tools_runtime_part_of_its_own():
    """templates/init/requirements.lock (what `rulebook init` gives a book) is requirements.lock's pins of what the tool
    needs to run and to be built, as `make book-lock` writes it."""
    from tests.booklock import runtime_lock

    shipped = (ROOT / "templates" / "init" / "requirements.lock").read_text(encoding="utf-8")
    assert shipped == runtime_lock(LOCK, PYPROJECT), "run `make book-lock`"
    assert "pytest==" not in shipped and "playwright==" not in shipped and "weasyprint==" in shipped
