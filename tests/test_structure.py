"""The package's shape: imports flow one way, with no cycle among walker's modules."""

import ast
from pathlib import Path

import networkx as nx

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
