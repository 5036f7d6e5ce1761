"""Wander and walk benchmarks on the synthetic vault, warm cache, each step in its own process.

    python bench/walk_bench.py --neighbors 50000 --walk 10000

Reports the TF-IDF fit (cold: time and peak memory), `neighbors` with a warm
cache, and a whole `walk` with a warm cache, next to the scan baseline (read
every file, regex out [[...]]) measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_vault import make_vault  # noqa: E402
from scan_bench import measure as measure_scan  # noqa: E402

CHILD = r"""
import json, resource, sys, time
from datetime import datetime, timezone
mode, vault = sys.argv[1], sys.argv[2]
start = time.perf_counter()
from walker.workspace import Workspace
ws = Workspace.open(vault)
loaded = time.perf_counter()
if mode == "fit":
    from walker.similarity import build_index
    index = build_index(ws.corpus)
    detail = {"terms": int(index.notes.shape[1]), "sections": int(index.sections.shape[0])}
elif mode == "index":
    ws.index
    detail = {}
elif mode == "neighbors":
    from walker.wander import Seed, neighbourhood, propose
    path = sorted(ws.corpus.notes)[len(ws.corpus.notes) // 3]
    proposition, ref = propose(ws.index, ws.corpus.notes[path])
    hood = neighbourhood(ws.corpus, ws.index, ws.links, Seed(path, proposition, ref, "given", ""), ws.wander_settings, 1)
    detail = {"near": len(hood.near), "middle": len(hood.middle), "far": len(hood.far)}
else:
    from walker.walk.runner import WalkOptions, run_walk
    result = run_walk(ws, WalkOptions(now=datetime(2026, 11, 30, tzinfo=timezone.utc), random_seed=1))
    detail = {"kept": len(result.outcome.hypothesis_ids), "candidates": len(result.outcome.candidates)}
end = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": end - start, "corpus_seconds": loaded - start, "peak_mb": peak, **detail}))
"""


def run(mode: str, vault: Path, cache: str) -> dict[str, float]:
    env = dict(os.environ, WALKER_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(vault)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def vault_of(notes: int, vaults: Path) -> Path:
    vault = vaults / f"{notes}"
    if not vault.is_dir():
        make_vault(vault, notes)
    shutil.rmtree(vault / "walks", ignore_errors=True)
    return vault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neighbors", type=int, default=50000, help="notes for the neighbors benchmark")
    parser.add_argument("--walk", type=int, default=10000, help="notes for the walk benchmark")
    parser.add_argument("--vaults", type=Path, default=HERE / "vaults")
    args = parser.parse_args()
    for notes, mode in ((args.neighbors, "neighbors"), (args.walk, "walk")):
        vault = vault_of(notes, args.vaults)
        with tempfile.TemporaryDirectory() as cache:
            baseline = min((measure_scan("baseline", vault, cache) for _ in range(3)), key=lambda r: r["seconds"])
            run("index", vault, cache)  # warm the parse cache and the TF-IDF cache
            fit = run("fit", vault, cache)
            warm = min((run(mode, vault, cache) for _ in range(3)), key=lambda r: r["seconds"])  # best of 3
        shutil.rmtree(vault / "walks", ignore_errors=True)
        print(f"{mode} on {notes:,} notes: {warm['seconds']:.2f} s warm "
              f"({warm['seconds'] / baseline['seconds']:.1f}× the {baseline['seconds']:.2f} s scan baseline; "
              f"corpus load {warm['corpus_seconds']:.2f} s), peak {warm['peak_mb']:.0f} MB; "
              f"TF-IDF fit {fit['seconds'] - fit['corpus_seconds']:.2f} s, peak {fit['peak_mb']:.0f} MB, "
              f"{fit['terms']:,} terms, {fit['sections']:,} sections", flush=True)


if __name__ == "__main__":
    main()
