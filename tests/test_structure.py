"""The package's shape: imports flow one way, with no cycle among walker's modules."""

import ast
import os
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent / "walker"


def imports() -> nx.DiGraph:
    """Module -> walker module it imports, at the top or inside a function alike."""
    modules = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(("walker", *path.relative_to(ROOT).with_suffix("").parts))
        modules[name.removesuffix(".__init__")] = path
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            graph.add_edges_from((name, target) for target in targets if target in modules and target != name)
    return graph


def test_no_import_cycle():
    graph = imports()
    assert graph.number_of_edges() > 50  # the graph was read, not empty
    assert list(nx.simple_cycles(graph)) == []


def test_the_corpus_and_refs_know_nothing_of_walks_pools_or_sites():
    graph = imports()
    for module in [m for m in graph if m.startswith("walker.corpus") or m == "walker.refs"]:
        reached = nx.descendants(graph, module)
        assert not any(m.startswith(("walker.walk", "walker.pool", "walker.site")) for m in reached), module


# --- the layers, as import-linter checks them (pyproject.toml, [tool.importlinter]) ---------------------------

PYPROJECT = ROOT.parent / "pyproject.toml"


def lint_imports(package: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """import-linter over a copy of walker: Python without its site hook (``-S``), so the editable install's
    finder cannot hand it the real package instead, and with the installed libraries on the path."""
    libraries = os.pathsep.join(site.getsitepackages())
    command = [sys.executable, "-S", "-c", "import sys; from importlinter.cli import lint_imports_command; "
               "sys.exit(lint_imports_command())", str(PYPROJECT), "--no-cache"]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join((str(package), libraries))})


def test_every_part_of_walker_has_a_layer():
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    layered = {name.strip() for contract in contracts if contract["type"] == "layers" and "containers" not in contract
               for layer in contract["layers"] for name in layer.split("|")}
    parts = {f"walker.{p.stem if p.suffix == '.py' else p.name}" for p in ROOT.iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    assert parts == layered  # a new module is placed in a layer, or the contract says nothing of it


def test_the_layers_hold(tmp_path):
    checked = lint_imports(ROOT.parent, tmp_path)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize("module, line", [
    ("walk/report.py", "from walker.walk import runner"),  # the report renders the walk's result, never runs one
    ("pool/lifecycle.py", "from walker.walk import kinds"),  # the pool reads records, never a walk's code
    ("inbox.py", "from walker.pool import records"),  # the inbox builds its own links (walker.refs)
    ("wander.py", "from walker.walk import critic"),  # neighbours come before the walk
    ("site/pages.py", "from walker import schedule"),  # the site never asks systemd; its callers pass the timer in
    ("corpus/parse.py", "from walker.site import markup"),  # the corpus knows nothing of what reads it
    ("similarity.py", "import pickle"),  # nothing walker keeps can run code
])
def test_putting_a_break_back_fails_the_contracts(tmp_path, module, line):
    copy = tmp_path / "copy"
    shutil.copytree(ROOT, copy / "walker", ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "walker" / module).open("a", encoding="utf-8") as file:
        file.write(f"\n{line}  # put back by the test\n")
    checked = lint_imports(copy, tmp_path)
    assert checked.returncode != 0 and "BROKEN" in checked.stdout, checked.stdout


# Every module that writes a file, and what it writes: a module not named here that opens a file for writing,
# creates, renames or removes one, or imports walker's writer, fails the test.
WRITERS = {
    "walker.pool.store": "everything under walks/: records, reports, run records, the log, locks",
    "walker.pool.lifecycle": "removes a conclusion note it started and could not finish",
    "walker.inbox": "a new conclusion note in the inbox, never over another",
    "walker.config": "walker.toml, by `walker init`, where there is none",
    "walker.corpus.cache": "the parse cache (SQLite) in the cache folder",
    "walker.similarity": "the index cache (NumPy arrays, JSON) in the cache folder",
    "walker.vocabulary": "the vocabulary cache in the cache folder",
    "walker.site.build": "the site folder, swapped in whole",
    "walker.site.parallel": "the site's last pages, rendered on a second core into the new site folder",
    "walker.schedule": "the systemd units in the user's unit folder",
    "walker.hooks": "a coding agent's settings file, by `walker hooks install`",
    "walker.graph": "the file `walker graph export -o` names",
    "walker.cli.app": "a crash log in the cache folder",
    "walker.cli.conformance": "a scratch copy of the vault in a temporary folder",
    "walker.safewrite": "(how every write is made)",
}
_WRITES = {"write_text", "write_bytes", "mkdir", "unlink", "rename", "touch", "rmtree", "copytree", "copy2",
           "copyfile", "move", "mkstemp", "mkdtemp", "symlink_to", "rmdir"}
_WRITES_OF = {"os": {"replace", "remove", "link", "makedirs"}, "sqlite3": {"connect"}}  # os.replace, not str.replace


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            owner = getattr(func.value, "id", "") if isinstance(func, ast.Attribute) else ""
            flags = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            modes = [a.value for a in [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "mode")]
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if (name in _WRITES or name in _WRITES_OF.get(owner, ())
                    or (owner == "os" and name == "open" and flags & {"O_WRONLY", "O_RDWR", "O_CREAT"})
                    or (name == "open" and any(set(mode) & set("wax+") for mode in modes))):
                found.append(f"{owner}.{name}" if owner else name)
        elif isinstance(node, ast.ImportFrom) and (node.module == "walker.safewrite" or (
                node.module == "walker" and any(a.name == "safewrite" for a in node.names))):
            found.append("imports safewrite")
    return found


def test_only_the_named_modules_write_files():
    writing = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(("walker", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__")
        if found := _writes(ast.parse(path.read_text(encoding="utf-8"))):
            writing[name] = sorted(set(found))
    assert set(writing) == set(WRITERS), {name: writing.get(name) for name in set(writing) ^ set(WRITERS)}
