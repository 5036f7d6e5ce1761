"""Every candidate that passes the critic gate in N walks of each vault, scored or not, for a blind reader to label.

Walks a temporary copy of each vault one walk after another (seeds rotate as in use) and keeps every
candidate the gate passes, whether or not the score and the cap would keep it: the score is fitted on
these labels (fit.py), so it must not choose what gets labelled. Writes two files:

- OUT.yaml: each candidate's vault, notes, refs, passages, kind, claim and evidence (for fit.py);
- OUT.md: the same candidates as a blind reader sees them (claim and refs only, no score, no evidence).

    python bench/quality/candidates.py OUT VAULT... [--walks 8] [--per-walk 4] [--every KIND]

``--every analogy`` keeps every candidate of that kind besides the draw (a kind the walks seldom make, so that a fit
can weigh it: sampling on the kind leaves what the signals say within each kind unbiased).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import yaml

SCORE_RULES = {"below-the-floor", "beyond-the-few", "same-refs-in-walk"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="OUT.yaml and OUT.md are written")
    parser.add_argument("vaults", type=Path, nargs="+")
    parser.add_argument("--walks", type=int, default=8)
    parser.add_argument("--per-walk", type=int, default=4, help="at most this many candidates per walk, drawn at random")
    parser.add_argument("--every", action="append", default=[], help="keep every candidate of this kind as well")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WALKER_CACHE_DIR"] = str(Path(tmp) / "cache")
        from walker.walk.runner import WalkOptions, run_walk
        from walker.workspace import Workspace

        for source in args.vaults:
            vault = Path(tmp) / source.name
            shutil.copytree(source, vault, ignore=shutil.ignore_patterns("walks", ".git"), symlinks=True)
            rng = random.Random(source.name)
            for n in range(args.walks):
                ws = Workspace.open(vault)
                now = datetime(2026, 12, 4, 7, 50) + timedelta(days=7 * n)
                try:
                    result = run_walk(ws, WalkOptions(now=now, random_seed=n))
                except Exception as exc:  # a vault that cannot walk is reported, not fatal
                    print(f"{source.name} walk {n}: {exc}")
                    continue
                outcome = result.outcome
                passed = [c for c, v in zip(outcome.candidates, outcome.verdicts)
                          if v.accepted or set(v.rules) <= SCORE_RULES]
                every = [c for c in passed if c.kind in args.every]
                rest = [c for c in passed if c.kind not in args.every]
                for candidate in every + rng.sample(rest, min(args.per_walk, len(rest))):
                    grounding = candidate.grounding or {}
                    rows.append({
                        "vault": source.name, "walk": outcome.walk_id, "kind": candidate.kind,
                        "drawn": "every" if candidate.kind in args.every else "at random",
                        "claim": candidate.claim, "refs": list(candidate.supporting_refs),
                        "a": {"path": candidate.bridge[0].path, "text": candidate.bridge[0].passage},
                        "b": {"path": candidate.bridge[1].path, "text": candidate.bridge[1].passage},
                        "evidence": grounding.get("evidence"), "score": grounding.get("score"),
                    })
    for number, row in enumerate(rows, 1):
        row["id"] = f"c{number:03d}"
    args.out.with_suffix(".yaml").write_text(yaml.safe_dump(rows, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with args.out.with_suffix(".md").open("w", encoding="utf-8") as out:
        for vault in dict.fromkeys(r["vault"] for r in rows):
            out.write(f"# {vault}\n\n")
            for row in (r for r in rows if r["vault"] == vault):
                refs = "\n".join(f"- {ref}" for ref in row["refs"])
                out.write(f"## {row['id']} ({row['kind']})\n\n{row['claim']}\n\n{refs}\n\nverdict (useful / shallow / wrong), and why: \n\n")
    print(f"{len(rows)} candidates from {len(args.vaults)} vaults: {args.out.with_suffix('.yaml')}, {args.out.with_suffix('.md')}")


if __name__ == "__main__":
    main()
