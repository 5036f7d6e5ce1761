"""The vault as a networkx graph: typed nodes, edges with counts, kinds and subpaths."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

from walker import safewrite
from walker.corpus.load import broken_subpaths
from walker.corpus.model import Corpus
from walker.refs import split_subpath

UNRESOLVED_PREFIX = "unresolved:"
EXPORT_FORMATS = ("json", "graphml", "gexf")


Adjacency = dict[str, set[str]]


def note_links(corpus: Corpus) -> Adjacency:
    """Links and backlinks between corpus notes, as plain sets: what walks measure distances on.

    Plain dictionaries rather than networkx views: a walk on a large vault does one breadth-first
    search and a few neighbour look-ups, and building a networkx graph would cost more than all of it.
    """
    adjacency: Adjacency = {path: set() for path in corpus.notes}
    for source, resolved in corpus.resolutions.items():
        linked = adjacency[source]
        for target, _ in resolved:
            if target is not None and target != source and target in adjacency:
                linked.add(target)
                adjacency[target].add(source)
    return adjacency


def shortest_distances(adjacency: Adjacency, start: str, avoid: set[str]) -> dict[str, int]:
    """Hops from ``start`` to every note it reaches without passing through ``avoid``."""
    distance = {start: 0}
    frontier = [start]
    hops = 0
    while frontier:
        hops += 1
        reached = []
        for node in frontier:
            for neighbour in adjacency.get(node, ()):
                if neighbour not in distance and neighbour not in avoid:
                    distance[neighbour] = hops
                    reached.append(neighbour)
        frontier = reached
    return distance


def build_graph(corpus: Corpus) -> nx.DiGraph:
    """Corpus notes, the attachments and excluded files they reach, and their unresolved targets.

    One directed edge per (source, target) pair. Self-links (``[[#Heading]]``) are left out:
    they say nothing about how notes connect.
    """
    import networkx as nx  # only when a command needs the whole graph: walks use plain adjacency sets

    graph = nx.DiGraph()
    files = {f.path: f for f in corpus.files}
    graph.add_nodes_from((path, {"type": "note", "title": note.title, "in_corpus": True, "tags": list(note.tags)})
                         for path, note in corpus.notes.items())
    edges: dict[tuple[str, str], tuple[int, set[str], set[str]]] = {}
    targets: dict[str, dict[str, object]] = {}
    for link in corpus.links:
        if link.resolved == link.source:
            continue
        if link.resolved is None:
            name = split_subpath(link.target)[0]
            target = UNRESOLVED_PREFIX + name
            targets.setdefault(target, {"type": "unresolved", "title": name, "in_corpus": False})
        else:
            target = link.resolved
            if target not in corpus.notes and target not in targets:
                kind = "note" if files[target].is_note else "attachment"
                targets[target] = {"type": kind, "title": Path(target).stem, "in_corpus": False}
        count, kinds, subpaths = edges.setdefault((link.source, target), (0, set(), set()))
        kinds.add(link.kind)
        if link.subpath:
            subpaths.add(link.subpath)
        edges[link.source, target] = (count + 1, kinds, subpaths)
    graph.add_nodes_from(targets.items())
    graph.add_edges_from((a, b, {"count": count, "kinds": sorted(kinds), "subpaths": sorted(subpaths)})
                         for (a, b), (count, kinds, subpaths) in edges.items())
    return graph


def export_graph(graph: nx.DiGraph, fmt: str, out: Path) -> None:
    import networkx as nx

    if fmt == "json":
        import json

        data = nx.node_link_data(graph, edges="links")
        safewrite.write_atomic(out, json.dumps(data, ensure_ascii=False, indent=1))
        return
    flat = graph.copy()
    for _, data in flat.nodes(data=True):
        _flatten(data)
    for _, _, data in flat.edges(data=True):
        _flatten(data)
    buffer = io.BytesIO()
    if fmt == "graphml":
        nx.write_graphml(flat, buffer)
    elif fmt == "gexf":
        nx.write_gexf(flat, buffer)
    else:
        raise ValueError(f"unknown graph format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    safewrite.write_atomic(out, buffer.getvalue())


def _flatten(data: dict[str, object]) -> None:
    """GraphML and GEXF hold scalars only: lists become space-separated text."""
    for key, value in data.items():
        if isinstance(value, list):
            data[key] = " ".join(str(v) for v in value)


def vault_summary(corpus: Corpus) -> dict[str, object]:
    """What `walker scan` reports: counts, link health, orphans, components, tags, skips, warnings.
    From the plain adjacency sets walks use: no networkx graph (it cost seconds and most of the memory
    of a scan on a large vault)."""
    adjacency = note_links(corpus)
    sizes = sorted((len(c) for c in _components(adjacency)), reverse=True)
    unresolved = [l for l in corpus.links if l.resolved is None]
    ambiguous = [l for l in corpus.links if l.ambiguous]
    tag_counts: dict[str, int] = {}
    for note in corpus.notes.values():
        for tag in note.tags:
            tag_counts[tag.lower()] = tag_counts.get(tag.lower(), 0) + 1
    return {
        "vault": corpus.root,
        "notes": len(corpus.notes),
        "attachments": len(corpus.attachments),
        "links": {
            "total": len(corpus.links),
            "resolved": len(corpus.links) - len(unresolved),
            "unresolved": len(unresolved),
            "ambiguous": len(ambiguous),
        },
        "unresolved": [{"source": l.source, "line": l.line, "target": l.target} for l in unresolved],
        "ambiguous": [
            {"source": l.source, "line": l.line, "target": l.target, "resolved": l.resolved, "candidates": list(l.ambiguous)}
            for l in ambiguous
        ],
        "orphans": sorted(set(adjacency) - _linked_to_a_note(corpus)),
        "components": len(sizes),
        "largest_component": sizes[0] if sizes else 0,
        "tags": dict(sorted(tag_counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        "skipped": [{"path": s.path, "reason": s.reason} for s in corpus.skipped],
        "warnings": [{"path": p, "message": m} for p, m in sorted(list(corpus.warnings) + broken_subpaths(corpus))],
        **corpus.stats,
    }


def _components(adjacency: Adjacency) -> list[set[str]]:
    """The groups of notes that links join, links and backlinks alike."""
    seen: set[str] = set()
    groups = []
    for start in adjacency:
        if start not in seen:
            group = set(shortest_distances(adjacency, start, set()))
            seen |= group
            groups.append(group)
    return groups


def _linked_to_a_note(corpus: Corpus) -> set[str]:
    """Corpus notes with a link to or from any note, one outside the corpus (excluded) included."""
    is_note = {f.path for f in corpus.files if f.is_note}
    linked: set[str] = set()
    for source, resolved in corpus.resolutions.items():
        for target, _ in resolved:
            if target is not None and target != source and target in is_note:
                linked.add(source)
                linked.add(target)
    return linked
