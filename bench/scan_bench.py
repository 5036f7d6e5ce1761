"""Scan benchmark: walker's cold and warm scan against a naive baseline, in the same run.

    python bench/scan_bench.py --notes 1000 10000 50000

The baseline reads every .md file and regexes out [[...]]: the least any
scanner must do, with none of the correctness. Each measurement runs in its own
process, so peak memory (ru_maxrss, plus the parse workers for a cold scan)
belongs to it alone. Figures are ratios to the baseline: these machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_vault import make_vault  # noqa: E402

CHILD = r"""
import json, os, re, resource, sys, time
mode, vault = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if mode == "baseline":
    pattern = re.compile(r"\[\[([^\]]+)\]\]")
    count = 0
    for folder, _, names in os.walk(vault):
        for name in names:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    count += len(pattern.findall(f.read()))
else:
    from walker.corpus import load_corpus
    corpus = load_corpus(vault)
    count = len(corpus.links)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak, "worker_peak_mb": workers, "links": count}))
"""


def measure(mode: str, vault: Path, cache: str) -> dict[str, float]:
    env = dict(os.environ, WALKER_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(vault)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def bench(notes: int, vaults: Path, repeat: int) -> dict[str, object]:
    vault = vaults / f"{notes}"
    if not vault.is_dir():
        make_vault(vault, notes)
    best: dict[str, dict[str, float]] = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache:
            runs = {
                "baseline": measure("baseline", vault, cache),
                "cold": measure("walker", vault, cache),
                "warm": measure("walker", vault, cache),
            }
        for name, run in runs.items():
            if name not in best or run["seconds"] < best[name]["seconds"]:
                best[name] = run
    base = best["baseline"]["seconds"]
    return {
        "notes": notes,
        "baseline_s": round(base, 2),
        "cold_s": round(best["cold"]["seconds"], 2),
        "warm_s": round(best["warm"]["seconds"], 2),
        "cold_ratio": round(best["cold"]["seconds"] / base, 2),
        "warm_ratio": round(best["warm"]["seconds"] / base, 2),
        "cold_peak_mb": round(best["cold"]["peak_mb"]),
        "cold_worker_peak_mb": round(best["cold"]["worker_peak_mb"]),
        "warm_peak_mb": round(best["warm"]["peak_mb"]),
        "links": best["cold"]["links"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--vaults", type=Path, default=HERE / "vaults")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args()
    print("| notes | baseline s | cold s | cold ÷ base | warm s | warm ÷ base | cold peak MB (workers) | warm peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for notes in args.notes:
        r = bench(notes, args.vaults, args.repeat)
        print(f"| {r['notes']:,} | {r['baseline_s']} | {r['cold_s']} | {r['cold_ratio']}× | {r['warm_s']} | "
              f"{r['warm_ratio']}× | {r['cold_peak_mb']} ({r['cold_worker_peak_mb']}) | {r['warm_peak_mb']} |", flush=True)


if __name__ == "__main__":
    main()
