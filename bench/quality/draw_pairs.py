"""Draw passage pairs for labelling: the pairs a walk weighs, including the ones it should reject.

For a few seeds per vault, every pair among the seed and its neighbourhood whose quotable
sentences share at least one rare word gives its best-sharing sentence pair (one shared word
is allowed here, so homonyms are drawn too). Prints YAML entries with an empty label, to be
read and labelled by hand into labels.yaml.

    python bench/quality/draw_pairs.py sample-vault 8 > /tmp/pairs.yaml
"""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

import yaml

from walker.walk.critic import CriticContext
from walker.walk.engines.base import WalkContext
from walker.walk.engines.extractive import Propositions
from walker.wander import Seed, neighbourhood, propose
from walker.workspace import Workspace


def draw(vault: Path, seeds: int, per_seed: int = 8) -> list[dict[str, object]]:
    ws = Workspace.open(vault)
    rng = random.Random(7)
    paths = sorted(p for p in ws.corpus.notes if "template" not in p.lower())
    drawn: dict[tuple[str, str], dict[str, object]] = {}
    for seed_path in rng.sample(paths, min(seeds, len(paths))):
        proposition, ref = propose(ws.index, ws.corpus.notes[seed_path])
        hood = neighbourhood(ws.corpus, ws.index, ws.links, Seed(seed_path, proposition, ref, "given", ""),
                             ws.wander_settings, rng.randrange(1000))
        context = WalkContext(ws.corpus, ws.index, ws.links, hood, CriticContext(ws.corpus, ws.index, set()), {})
        quotable = Propositions(context)
        found = []
        for a, b in combinations([seed_path, *(i.path for i in hood.items)], 2):
            if b in ws.links.get(a, ()):
                continue
            best = None
            for qa in quotable(a):
                for qb in quotable(b):
                    shared = qa.rare.keys() & qb.rare.keys()
                    if shared and (best is None or len(shared) > best[0]):
                        best = (len(shared), qa, qb)
            if best is not None:
                found.append(best)
        rng.shuffle(found)
        found.sort(key=lambda f: -f[0])  # the strongest first, then a few one-word pairs
        for _, qa, qb in found[: per_seed // 2] + [f for f in found if f[0] == 1][: per_seed // 2]:
            key = (qa.ref, qb.ref)
            drawn.setdefault(key, {"vault": vault.name, "a": {"path": qa.ref.partition("#")[0], "text": qa.text},
                                   "b": {"path": qb.ref.partition("#")[0], "text": qb.text},
                                   "label": "", "reason": ""})
    return list(drawn.values())


if __name__ == "__main__":
    pairs = draw(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
    sys.stdout.write(yaml.safe_dump(pairs, sort_keys=False, allow_unicode=True, width=120))
