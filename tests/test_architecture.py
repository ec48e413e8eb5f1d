"""The house in order, read off the code's own imports (nothing is imported, built or run).

The import layers are stated, not scanned for: pyproject.toml's import-linter contracts, which ``lint-imports``
checks (every import in a module counts, a lazy one in a function too):

- generator/ is read off its folders, in the order the pipeline runs: ``book`` (the book as data: its files read,
  the model, one edition assembled), ``checks``, ``render``, ``commands`` (one module a verb). A stage imports only
  the stages before it (no stage imports a command); ``errors``, ``progress`` and ``settings``, beside the stages,
  import none of them; ``cli`` parses the arguments and hands each verb to its command (it imports commands and
  errors only). (Contracts ``stages`` and ``cli``.)
- render/ is split by what it makes: ``views`` (what both outputs say), ``site`` and ``pdf``. The site and print
  use the views, never each other; the views use neither; render/'s own modules use none of them, and each is named
  in the contract. (Contract ``render``; its container's own __init__, which a contract leaves out, is held here
  to importing none of them.)

Each contract is proven on a broken copy of generator/ (``BROKEN_CONTRACTS``), where lint-imports fails. The rules
no contract states are read here off the modules' sources (ast):

- generator/ keeps at most six modules of its own; render/ at most five.
- No two modules of generator/ import each other, directly or round a longer loop (lazy imports in a function
  count: they are the same tie, made later). import-linter's ``acyclic_siblings`` looks at siblings alone, and
  misses a loop through a package's own __init__.
- Only the site package knows the site engine: no other module imports MkDocs, Material or mike, or names the
  engine's commands or its configuration file (docs/site-engine.md).
- The environment is read in one place, ``settings`` (one typed object of every setting a user may set): no other
  module reads a variable, names a ``RULEBOOK_`` one or tells another process or itself anything by writing one.
  The environment may be handed on whole to a child, and another project's own switch set where it is used
  (``OTHER_PROJECTS``).
- commands/ holds only verbs: each of its modules (or packages) has the ``run`` its verb calls, none is over
  ``VERB_LINES`` lines, and a verb takes from another only the names that one declares public (``__all__``), never its
  module whole.
- Every import of ours names a module that exists (a relative import counts its dots from the module's package).
- Every module named by a string (a worker run with -m, a Markdown extension, the MkDocs entry point) exists, and
  every package is in pyproject.toml's list (a package missing there is not installed).

Each of these rules is a function of the modules' sources, so that the broken trees in ``BROKEN`` prove it finds
what it is for; the last tests apply them to generator/ as it is.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "generator"
RENDER = "generator.render"
PARTS = ("views", "site", "pdf")  # render/'s packages
# render/'s own modules besides its packages, __init__.py counted: what both outputs' renders share, none of them a
# render (the register of patches, the renders' processes, the output folder's transaction and its leaks check).
OWN_MODULES = 5
ENGINE = ("mkdocs", "material", "mike")  # the site engine's packages
ENGINE_WORDS = {"mkdocs", "mike", "mkdocs.yml"}  # a string naming its commands or its configuration
ENGINE_HOME = f"{RENDER}.site"
STAGES = ("book", "checks", "render", "commands")  # generator/'s packages, in the order the pipeline runs
# generator/'s own modules besides its packages, __init__.py counted: those beside the stages (errors, progress,
# settings: any stage may use them, they use none), the command line and __main__.
TOP_MODULES = 6
COMMANDS = "generator.commands"  # one module (or package) a verb
VERB_LINES = 300  # the most lines a module of commands/ has: a verb is thin, over the stages' shared mechanism
DOTTED = re.compile(r"^generator(?:\.\w+)+(?::\w+)?$")  # a module of ours named by a string ("a.b" or "a.b:Name")
SETTINGS_HOME = "generator.settings"  # where the environment is read
# Other projects' switches that are read from the environment alone, set (and put back) where they are used: not a
# setting of ours, and nothing of ours reads them.
OTHER_PROJECTS = {"PYDANTIC_DISABLE_PLUGINS": "pydantic skips looking for plugins among every installed package",
                  "SOURCE_DATE_EPOCH": "fontTools dates the fonts it subsets by it (render/pdf/writer.py)"}

Sources = dict[str, str]  # module name -> source; a package is its __init__, by the package's name


def _modules(folder: Path = GENERATOR) -> Sources:
    """Every module of ``folder`` (generator/ itself), by dotted name."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path.read_text(encoding="utf-8")
    return found


@functools.cache
def _parsed(source: str) -> ast.Module:
    return ast.parse(source)


@functools.cache
def _nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of a module, walked once (each rule reads them all)."""
    return tuple(ast.walk(_parsed(source)))


def _packages(sources: Sources) -> set[str]:
    return {name.rpartition(".")[0] for name in sources if "." in name}


def imports(name: str, sources: Sources) -> set[str]:
    """The modules of ``sources`` that module ``name`` imports (``from pkg import mod`` is mod; a package's own
    name only where a name defined in it is taken)."""
    package = name if name in _packages(sources) else name.rpartition(".")[0]
    found = set()
    for node in _nodes(sources[name]):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in sources:  # `import generator.render.pdf.book as pdf`: the module itself
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def unresolved(sources: Sources) -> list[str]:
    """Imports of ours that name no module or package of ``sources`` (a relative import a level short, say)."""
    found = []
    for name in sorted(sources):
        package = name if name in _packages(sources) else name.rpartition(".")[0]
        for node in _nodes(sources[name]):
            if isinstance(node, ast.ImportFrom) and node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, node.module] if node.module else up)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "generator":
                base = node.module
            elif isinstance(node, ast.Import):
                base = next((a.name for a in node.names if a.name.split(".")[0] == "generator"), None)
            else:
                continue
            if base is not None and base not in sources:
                found.append(f"{name}:{node.lineno}: {base} is no module of ours")
            elif isinstance(node, ast.ImportFrom) and base is not None:  # and each name it takes is there
                defined = _top_names(sources[base])
                found += [f"{name}:{node.lineno}: {base} defines no {alias.name}" for alias in node.names
                          if alias.name != "*" and alias.name not in defined and f"{base}.{alias.name}" not in sources]
    return found


def _top_names(source: str) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments, what it imports), ``if`` and
    ``try`` blocks included."""
    names: set[str] = set()
    body = list(_parsed(source).body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            body += [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                     *(n for handler in getattr(node, "handlers", []) for n in handler.body)]
    return names


def cycles(sources: Sources) -> list[list[str]]:
    """Every loop of imports: each strongly connected set of two modules or more, sorted (Tarjan's algorithm)."""
    graph = {name: sorted(imports(name, sources)) for name in sources}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def top_modules(sources: Sources) -> list[str]:
    """generator/'s modules that are in none of its packages (its __init__ counted)."""
    return sorted(name for name in sources if name == "generator" or (name.count(".") == 1 and name not in
                                                                       {f"generator.{s}" for s in STAGES}))


def _constants(source: str) -> list[str]:
    return [node.value for node in _nodes(source) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def engine_uses(sources: Sources) -> list[tuple[str, str]]:
    """Each module that imports the site engine, loads it by name or names its commands: (module, what it does)."""
    found = []
    for name in sorted(sources):
        for node in _nodes(sources[name]):
            named = []
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                named = [node.module or ""]
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if func in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                    named = [node.args[0].value]
            found += [(name, f"imports {module}") for module in named if module.split(".")[0] in ENGINE]
        found += [(name, f"names {word!r}") for word in _constants(sources[name]) if word in ENGINE_WORDS]
    return found


def engine_outside(sources: Sources) -> list[str]:
    """``engine_uses`` outside the site package."""
    return [f"{name} {what}" for name, what in engine_uses(sources)
            if name != ENGINE_HOME and not name.startswith(ENGINE_HOME + ".")]


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of a module's docstrings (its own, its classes' and its functions')."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


def _environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and getattr(node.value, "id", "") == "os"


def _environment_uses(source: str) -> list[tuple[int, str | None, str]]:
    """Each use of the environment in a module: (line, the variable it names or None, "read", "write" or "copy")."""
    tree = _parsed(source)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                getattr(node.func.value, "id", "") == "os" and node.func.attr in ("getenv", "putenv", "unsetenv"):
            key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            found.append((node.lineno, key, "read" if node.func.attr == "getenv" else "write"))
        if not _environ(node):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Subscript):
            key = parent.slice.value if isinstance(parent.slice, ast.Constant) else None
            found.append((node.lineno, key, "read" if isinstance(parent.ctx, ast.Load) else "write"))
        elif isinstance(parent, ast.Attribute) and isinstance(parents.get(id(parent)), ast.Call):
            call = parents[id(parent)]
            key = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
            found.append((node.lineno, key, "copy" if parent.attr == "copy" else "read" if parent.attr == "get"
                          else "write"))
        elif isinstance(parent, ast.Compare):
            key = parent.left.value if isinstance(parent.left, ast.Constant) else None
            found.append((node.lineno, key, "read"))
        elif isinstance(parent, ast.Dict) or (isinstance(parent, ast.Call) and getattr(parent.func, "id", "") == "dict"):
            found.append((node.lineno, None, "copy"))  # {**os.environ, ...}, dict(os.environ): handed on whole
        else:
            found.append((node.lineno, None, "read"))  # the environment itself, to read later: what, none can tell
    return found


def environment_outside(sources: Sources) -> list[str]:
    """Reads of the environment outside ``SETTINGS_HOME``, writes anywhere (but another project's switch:
    ``OTHER_PROJECTS``), and ``RULEBOOK_`` variables named outside it in anything but documentation."""
    found = []
    for name in sorted(sources):
        home = name == SETTINGS_HOME
        for line, key, use in _environment_uses(sources[name]):
            if use == "copy" or key in OTHER_PROJECTS or (home and use == "read"):
                continue
            found.append(f"{name}:{line}: {'writes' if use == 'write' else 'reads'} the environment"
                         + (f" ({key})" if key else ""))
        if not home:
            tree = _parsed(sources[name])
            documented = _docstrings(tree)
            found += [f"{name}:{node.lineno}: names {node.value!r}" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str) and "RULEBOOK_" in node.value
                      and id(node) not in documented]
    return found


def own_modules(sources: Sources) -> list[str]:
    """render/'s modules that are not in one of its packages (its __init__ counted)."""
    packages = {f"{RENDER}.{part}" for part in PARTS}
    return sorted(name for name in sources if name == RENDER or (name.startswith(RENDER + ".")
                                                                  and ".".join(name.split(".")[:3]) not in packages))


def render_init_uses(sources: Sources) -> list[str]:
    """The modules of render/ its own __init__ imports: none (the ``render`` contract leaves its container out)."""
    return sorted(target for target in imports(RENDER, sources) if target.startswith(RENDER + "."))


def _verb(name: str) -> str | None:
    """The verb (``generator.commands.X``) module ``name`` is, or is part of; None outside commands/."""
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 and ".".join(parts[:2]) == COMMANDS else None


def _public(source: str) -> set[str]:
    """The names a module declares public: its ``__all__``."""
    return {element.value for node in _parsed(source).body if isinstance(node, ast.Assign)
            and any(getattr(target, "id", "") == "__all__" for target in node.targets)
            for element in getattr(node.value, "elts", []) if isinstance(element, ast.Constant)}


def verb_breaches(sources: Sources) -> list[str]:
    """A module of commands/ that is no verb (no ``run``), one over ``VERB_LINES`` lines, and a verb taking from
    another a name that one does not declare public (``__all__``), or its module whole."""
    verbs = {verb for name in sources if (verb := _verb(name)) is not None}
    found = [f"{verb} is no verb: it has no run()" for verb in sorted(verbs)
             if "run" not in {node.name for node in _parsed(sources[verb]).body if isinstance(node, ast.FunctionDef)}]
    found += [f"{name} has {lines} lines (a verb's module has at most {VERB_LINES})" for name in sorted(sources)
              if _verb(name) is not None and (lines := len(sources[name].splitlines())) > VERB_LINES]
    for name in sorted(sources):
        mine = _verb(name)
        package = name if name in _packages(sources) else name.rpartition(".")[0]
        for node in _nodes(sources[name]) if mine is not None else ():
            if isinstance(node, ast.Import):
                taken = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                taken = [(f"{base}.{alias.name}", None) if f"{base}.{alias.name}" in sources else (base, alias.name)
                         for alias in node.names]
            else:
                continue
            for module, attribute in taken:
                theirs = _verb(module)
                if theirs is None or theirs == mine:
                    continue
                if attribute is None:
                    found.append(f"{name}:{node.lineno} imports the verb {module} whole: import the names it declares "
                                 "public (__all__)")
                elif module != theirs or attribute not in _public(sources[theirs]):
                    found.append(f"{name}:{node.lineno} takes {attribute} from {module}, which {theirs} does not declare "
                                 "public (__all__)")
    return found


def missing_modules(sources: Sources, named: list[tuple[str, str]]) -> list[str]:
    """Of ``named`` (where, the string), the ones that name no module of ``sources`` (or a name it does not define)."""
    found = []
    for where, text in named:
        module, _, attribute = text.partition(":")
        if module not in sources:
            found.append(f"{where}: {text}: no such module")
        elif attribute and not any(isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == attribute
                                   for node in _parsed(sources[module]).body):
            found.append(f"{where}: {text}: {module} defines no {attribute}")
    return found


def _named_modules(sources: Sources) -> list[tuple[str, str]]:
    """The modules of ours that strings name: in generator/'s code, and pyproject.toml's entry points."""
    named = [(name, word) for name in sorted(sources) for word in _constants(sources[name])
             if DOTTED.match(word)]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for group, points in {**project.get("entry-points", {}), "scripts": project.get("scripts", {})}.items():
        named += [(f"pyproject.toml [{group}] {key}", value) for key, value in points.items()]
    return named


# ---- the rules find what they are for: a broken tree per case ---------------------------------------------------

def _tree(**modules: str) -> Sources:
    """A small tree: keyword ``render__site__docs`` is module generator.render.site.docs (the packages are there)."""
    sources = {"generator": "", RENDER: "", f"{RENDER}.views": "", f"{RENDER}.site": "", f"{RENDER}.pdf": "",
               **{f"generator.{stage}": "" for stage in STAGES if stage != "render"}}
    for key, source in modules.items():
        sources[".".join(["generator", *key.split("__")])] = source
    return sources


BROKEN = {
    "a relative import a level short": (unresolved, _tree(render__pdf__weasy="def f():\n    from ..errors import E")),
    "an import of a module moved away": (unresolved, _tree(build="from .render.pdf_worker import WARNING")),
    "an import of a name moved away": (
        unresolved, _tree(commands__check_pr="from ..book.compare import compare, checkout",
                          book__compare="import re\ndef compare(): pass\nclass Change: pass")),
    "an absolute import of a name moved away": (
        unresolved, _tree(cli="def f():\n    from generator.book.frozen import freeze_unsealed",
                          book__frozen="FROZEN_DIR = 'x'\nif True:\n    def write(): pass")),
    "two modules import each other": (
        cycles, _tree(render__site__offline="from .verify import WORKER",
                      render__site__verify="def f():\n    from .offline import attributes")),
    "a loop of three, through a package": (
        cycles, _tree(a="from .render.views import pages", render__views__pages="from ...b import x",
                      b="import generator.a")),
    "render/'s own __init__ uses a package": (render_init_uses, _tree(render="from .site import docs",
                                                                      render__site__docs="")),
    "the build imports MkDocs": (engine_outside, _tree(build="def f():\n    from mkdocs.commands.build import build")),
    "a view imports Material": (engine_outside, _tree(render__views__markup="import material.extensions.emoji")),
    "the command loads MkDocs by name": (
        engine_outside, _tree(cli="import importlib\nserve = importlib.import_module('mkdocs.commands.serve')")),
    "publish runs mike": (engine_outside, _tree(publish="import subprocess\nsubprocess.run(['mike', 'deploy'])")),
    "the build reads mkdocs.yml": (engine_outside, _tree(build="CONFIG = 'mkdocs.yml'")),
    "generator/ holds seven modules of its own": (
        lambda s: top_modules(s)[TOP_MODULES:],
        _tree(cli="", errors="", progress="", settings="", build="", report="")),
    "render/ holds six modules of its own": (
        lambda s: own_modules(s)[OWN_MODULES:],
        _tree(render__a="", render__b="", render__c="", render__d="", render__e="")),
    "a module reads a setting of its own": (
        environment_outside, _tree(render__pdf__worker="import os\nJOBS = os.environ.get('RULEBOOK_PDF_JOBS')")),
    "a module reads the user's folder": (environment_outside, _tree(book__files="import os\nos.getenv('HOME')")),
    "a module asks whether a variable is set": (
        environment_outside, _tree(render__site__plugin="import os\nVERSIONED = 'MIKE_DOCS_VERSION' in os.environ")),
    "the environment used as a channel within the process": (
        environment_outside, _tree(book__library="import os\ndef pinned(s):\n    os.environ['RULEBOOK_SOURCES'] = s")),
    "the environment written for the next step": (
        environment_outside, _tree(render__site__engine="import os\ndef serve(e):\n    os.environ.update(e)")),
    "a child told its work in the environment": (
        environment_outside, _tree(render__site__engine="def deploy(env, e):\n    run({**env, 'RULEBOOK_EDITION': e})")),
    "a module of commands/ that is no verb": (
        verb_breaches, _tree(commands__pictures="def draw(): pass", commands__check_pr="def run(): pass")),
    "a verb's module over its lines": (
        verb_breaches, _tree(commands__check_pr__judge="x = 1\n" * (VERB_LINES + 1), commands__check_pr="def run(): pass")),
    "a verb takes another's private name": (
        verb_breaches, _tree(commands__check_pr="from ..commands.diff import _checkout\ndef run(): pass",
                             commands__diff="__all__ = ['run']\ndef run(): pass\ndef _checkout(): pass")),
    "a verb takes a name another does not declare public": (
        verb_breaches, _tree(commands__check_pr__judge="def f():\n    from ..validate import annotation",
                             commands__check_pr="def run(): pass",
                             commands__validate="__all__ = ['run']\ndef run(): pass\ndef annotation(): pass")),
    "a verb imports another whole": (
        verb_breaches, _tree(commands__preview="def run():\n    from . import validate",
                             commands__validate="__all__ = ['as_text']\ndef run(): pass")),
    "the environment kept to read later": (
        environment_outside, _tree(render__site__repository="import os\ndef f(env=None):\n    env = env or os.environ")),
}


@pytest.mark.parametrize("case", BROKEN)
def test_each_rule_finds_its_broken_tree(case):
    rule, sources = BROKEN[case]
    assert rule(sources), case


def test_a_sound_tree_passes_every_rule():
    sources = _tree(render__site__offline="from .verify import WORKER\nfrom ..views.markup import environment",
                    render__site__verify="WORKER = 'sw.js'",
                    render__views__markup="from ...book.loader import x\ndef environment(): pass",
                    render__site__engine="import mkdocs\nCONFIG = 'mkdocs.yml'\ndef render(): pass",
                    book__loader="x: int = 1",
                    render__pdf__worker="from ..process import die_with_parent\nfrom ..views.describe import pdf_name",
                    render__views__describe="pdf_name = str",
                    commands__build="from ..render.site.engine import render\nfrom ..checks import run_checks\n"
                                    "from ..book.library import load_library\nfrom .validate import as_text\n"
                                    "def run(): pass",
                    commands__validate="from ..errors import clean\n__all__ = ['as_text', 'run']\ndef run(): pass\n"
                                       "def as_text(): pass",
                    commands__check_pr="from .judge import judge\nfrom . import summary\ndef run(): pass",
                    commands__check_pr__judge="from ..validate import as_text\ndef judge(): pass",
                    commands__check_pr__summary="from .judge import judge",
                    errors="def clean(): pass\nclass Location: pass",
                    progress="", checks="def run_checks(): pass",
                    checks__edition="from ..book.frozen import stored\nfrom ..errors import Location as SourceError",
                    book__frozen="from .library import DATA_DIR\nfrom ..errors import Location\ntry:\n"
                                 "    import fcntl\nexcept ImportError:\n    pass\nelse:\n    def stored(): pass",
                    book__library="DATA_DIR, CONTENT = 'rules_data', 'content'\ndef load_library(): pass",
                    render__site__plugin="def f():\n    from ...checks import run_checks",
                    cli="from .errors import clean\ndef cmd():\n    from .commands import build",
                    settings="import os\ndef read(environ=None):\n    environ = os.environ if environ is None else "
                             "environ\n    return environ.get('RULEBOOK_PDF_JOBS')",
                    render__process="import os\ndef die_with_parent(): pass\ndef env():\n    return {**os.environ, "
                                    "'TMPDIR': '/t'}\ndef run():\n    \"\"\"Told by RULEBOOK_REQUEST.\"\"\"",
                    render__pdf__writer="import os\ndef dated():\n    os.environ['SOURCE_DATE_EPOCH'] = '1'")
    assert not cycles(sources) and not engine_outside(sources) and not unresolved(sources)
    assert not environment_outside(sources) and not render_init_uses(sources) and not verb_breaches(sources)
    assert len(own_modules(sources)) <= OWN_MODULES and len(top_modules(sources)) <= TOP_MODULES


def test_a_missing_module_named_by_a_string_is_found():
    sources = _tree(render__pdf__worker="", render__site__plugin="class RulebookPlugin: pass")
    named = [("build", "generator.render.pdf.worker"), ("markup", "generator.render.listindent"),
             ("entry", "generator.render.site.plugin:RulebookPlugin"), ("old", "generator.render.site.plugin:Gone")]
    assert missing_modules(sources, named) == ["markup: generator.render.listindent: no such module",
                                               "old: generator.render.site.plugin:Gone: "
                                               "generator.render.site.plugin defines no Gone"]


# ---- the import contracts (pyproject.toml), each failing on a broken copy of generator/ ---------------------------

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree: Path, contract: str | None = None) -> subprocess.CompletedProcess:
    """`lint-imports` on the generator/ package in the folder ``tree``, with the contracts pyproject.toml states (all,
    or the one named): it finds the package where Python would, ``tree`` first."""
    only = ["--contract", contract] if contract else []
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", *only, str(ROOT / "pyproject.toml")],
                          cwd=tree, env={**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200"},
                          capture_output=True, text=True, timeout=120)


def _broken_copy(folder: Path, modules: dict[str, str]) -> Path:
    """A copy of generator/ in ``folder`` with ``modules`` ("render/site/x.py": source) written in, or added at the
    end of the module already there."""
    tree = folder / "generator"
    shutil.copytree(GENERATOR, tree, ignore=shutil.ignore_patterns("__pycache__"))
    for name, source in modules.items():
        path = tree / name
        path.write_text((path.read_text(encoding="utf-8") + "\n" if path.exists() else "") + source, encoding="utf-8")
    return folder


# Each contract's broken copies: (the contract's id, the modules written in).
BROKEN_CONTRACTS = {
    "a check imports a command": ("stages", {"checks/frozen.py": "from ..commands.freeze import freeze_unsealed\n"}),
    "the book imports a check, lazily": ("stages", {"book/library.py": "def f():\n    from ..checks import run_checks\n"}),
    "the book imports the render": ("stages", {"book/model.py": "import generator.render.views.describe\n"}),
    "a view imports a command": ("stages", {"render/views/changes.py": "from ...commands.diff import run\n"}),
    "the checks import the render": ("stages", {"checks/sheets.py": "from ..render.views import sheets\n"}),
    "progress imports the render": ("stages", {"progress.py": "from .render.process import die_with_parent\n"}),
    "the errors import the book": ("stages", {"errors.py": "def f():\n    from .book.files import read_source\n"}),
    "the settings import the book": ("stages", {"settings.py": "def f():\n    from .book import files\n"}),
    "the command line does a command's work": (
        "cli", {"cli.py": "def cmd():\n    from .book.library import load_library\n"}),
    "the command line reads the settings": ("cli", {"cli.py": "from . import settings\n"}),
    "print reaches into the site": ("render", {"render/pdf/worker.py": "def task():\n    from ..site import docs\n"}),
    "the site uses print": ("render", {"render/site/worker.py": "from ..pdf import worker\n"}),
    "a view uses an output": ("render", {"render/views/pages.py": "from ..site import docs\n"}),
    "a module of render/ uses a package": ("render", {"render/process.py": "def f():\n    from .pdf import worker\n"}),
    "a module of render/ the contract does not name": ("render", {"render/report.py": "X = 1\n"}),
}


def test_every_contract_holds_on_generator_as_it_is():
    done = lint_imports(ROOT)
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout, done.stdout
    assert {contract for contract, _ in BROKEN_CONTRACTS.values()} == {c["id"] for c in contracts}  # each proven below


@pytest.mark.parametrize("case", BROKEN_CONTRACTS)
def test_each_contract_fails_on_its_broken_copy(case, tmp_path):
    contract, modules = BROKEN_CONTRACTS[case]
    done = lint_imports(_broken_copy(tmp_path, modules), contract)
    assert done.returncode == 1 and "Contracts: 0 kept, 1 broken." in done.stdout, done.stdout + done.stderr


# ---- the house as it is ------------------------------------------------------------------------------------------

def test_every_import_of_ours_names_a_module():
    assert unresolved(_modules()) == []


def test_no_import_cycle():
    assert cycles(_modules()) == []


def test_render_s_own_init_imports_none_of_its_packages():
    sources = _modules()
    assert RENDER in sources and render_init_uses(sources) == []


def test_only_the_site_package_knows_the_site_engine():
    sources = _modules()
    assert {what for _, what in engine_uses(sources)} >= {"imports mkdocs.plugins", "names 'mike'"}  # it is read
    assert engine_outside(sources) == []


def test_generator_keeps_at_most_six_modules_of_its_own():
    assert len(top_modules(_modules())) <= TOP_MODULES, top_modules(_modules())


def test_the_environment_is_read_in_the_settings_alone():
    sources = _modules()
    assert {use for _, _, use in _environment_uses(sources[SETTINGS_HOME])} == {"read"}  # it is read there
    assert {key for name in sources for _, key, use in _environment_uses(sources[name]) if use == "write"} <= \
        set(OTHER_PROJECTS)  # and, of another project's switches, written where they are used (this test reads them)
    assert environment_outside(sources) == []


def test_render_keeps_at_most_five_modules_of_its_own():
    assert len(own_modules(_modules())) <= OWN_MODULES, own_modules(_modules())


def test_commands_holds_thin_verbs_each_using_only_what_another_declares_public():
    sources = _modules()
    assert {_verb(name) for name in sources} >= {f"{COMMANDS}.check_pr", f"{COMMANDS}.validate"}  # the verbs are read
    assert verb_breaches(sources) == []


def test_every_module_named_by_a_string_exists():
    sources = _modules()
    named = _named_modules(sources)
    assert {text for _, text in named} >= {"generator.render.pdf.worker", "generator.book.listindent",
                                            "generator.render.site.plugin:RulebookPlugin"}
    assert missing_modules(sources, named) == []


def test_every_package_is_installed():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    # The folders shipped into the package as data (templates/ as generator.templates) are not code packages.
    data = setuptools.get("package-dir", {})
    assert all((ROOT / folder).is_dir() for folder in data.values()), data
    assert sorted(set(setuptools["packages"]) - set(data)) == sorted(_packages(_modules()) | {"generator"})
