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
