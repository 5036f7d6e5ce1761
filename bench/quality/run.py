"""Score the offline engine on the labelled passage pairs in labels.yaml.

For each pair, the engine is asked what hypothesis the two passages make (both pinned, so the
score measures its judgement, not which sentences it happened to pick), then the critic gate
and the fitted score decide whether a walk would keep it. These pairs are among the dev labels the
score is fitted on (fit.py): the figures describe the fit, not how it generalises. Reports precision of kept pairs,
homonym survivors and recall of useful pairs, per vault and overall. A pair whose notes already
link is counted apart and not scored: a walk's roam never pairs them, whatever their label.

    python bench/quality/run.py [--vaults DIR]   (DIR holds the two real vaults; default $WALKER_REAL_VAULTS,
                                                 else shared/vaults beside the clone, as for the tests)
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path

import yaml

from walker.walk.candidate import Candidate
from walker.walk.critic import CriticContext
from walker.walk.engines.base import InventoryEntry, WalkContext
from walker.walk.engines.extractive import ExtractiveEngine, Propositions
from walker.wander import Neighbourhood, Seed, find_hubs
from walker.workspace import Workspace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def pinned(ws: Workspace, a: str, b: str, texts: tuple[str, str]) -> tuple[WalkContext, Candidate | None]:
    """A walk's context for two notes, and the candidate the engine makes of these two passages of them."""
    critic = CriticContext(ws.corpus, ws.index, {a, b}, [])
    hood = Neighbourhood(Seed(a, texts[0], a, "given", ""), (), (), (), tuple(find_hubs(ws.links, ws.wander_settings)), ())
    context = WalkContext(ws.corpus, ws.index, ws.links, hood, critic, {})
    ends = [InventoryEntry(path, ws.corpus.notes[path].title, group, path, (), text, path)
            for path, group, text in ((a, "seed", texts[0]), (b, "far", texts[1]))]
    return context, ExtractiveEngine().hypothesis(context, Propositions(context), ends[0], ends[1], texts)


def kept(ws: Workspace, a: str, b: str, texts: tuple[str, str]) -> Candidate | None:
    """The candidate a walk would keep for these two passages, or None."""
    context, candidate = pinned(ws, a, b, texts)
    if candidate is None:
        return None
    return candidate if ExtractiveEngine().critique(context, [candidate])[0].accepted else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vaults", type=Path,
                        default=Path(os.environ.get("WALKER_REAL_VAULTS") or ROOT.parent / "shared" / "vaults"))
    args = parser.parse_args()
    pairs = yaml.safe_load((HERE / "labels.yaml").read_text(encoding="utf-8"))
    places = {"sample-vault": ROOT / "sample-vault"}
    totals: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    print("| vault | pairs | useful | kept | kept useful | precision | homonym kept | recall of useful | linked, not scored |")
    print("|---|---|---|---|---|---|---|---|---|")
    for vault in dict.fromkeys(p["vault"] for p in pairs):
        folder = places.get(vault, args.vaults / vault)
        if not folder.is_dir():
            print(f"| {vault} | skipped: {folder} not found | | | | | | | |")
            continue
        ws = Workspace.open(folder)
        count: Counter[str] = Counter()
        for pair in (p for p in pairs if p["vault"] == vault):
            if pair["b"]["path"] in ws.links.get(pair["a"]["path"], ()):
                count["linked"] += 1  # a walk's roam never pairs two notes that already link: no discovery to score
                continue
            count["pairs"] += 1
            count[pair["label"]] += 1
            candidate = kept(ws, pair["a"]["path"], pair["b"]["path"], (pair["a"]["text"], pair["b"]["text"]))
            if candidate is not None:
                count["kept"] += 1
                count[f"kept {pair['label']}"] += 1
                kinds[candidate.kind] += 1
        totals.update(count)
        print(_row(vault, count))
    print(_row("all", totals))
    print(f"\nkinds kept: {dict(kinds)}")


def _row(name: str, c: Counter[str]) -> str:
    precision = f"{c['kept useful'] / c['kept']:.0%}" if c["kept"] else "–"
    recall = f"{c['kept useful'] / c['useful']:.0%}" if c["useful"] else "–"
    return (f"| {name} | {c['pairs']} | {c['useful']} | {c['kept']} | {c['kept useful']} | {precision} | "
            f"{c['kept homonym']} | {recall} | {c['linked']} |")


if __name__ == "__main__":
    main()
