"""Whole commands as a user runs them, timed next to the scan baseline in the same run.

    python bench/commands_bench.py [--notes 10000 50000] [--before WALKER] [VAULT ...]

For each vault (synthetic ones are made under bench/vaults/; real ones are copied to a temporary
folder first, so nothing in them changes): `walker scan` cold (empty cache) and warm, the first
`walker walk --dry-run` on an empty cache, and `walker neighbors` warm. Each command runs in its
own process with its own cache folder (warm figures: the median of three runs); peak memory is that process's (and its parse workers') peak.
The baseline reads every .md file and regexes out [[...]]. ``--before`` names another walker
executable (an older checkout) whose commands are timed in turn with this one's, vault by vault.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_vault import make_vault  # noqa: E402
from scan_bench import measure as measure_scan  # noqa: E402

WALKER = str(Path(sys.executable).parent / "walker")


PEAK = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); " \
       "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def timed(args: list[str], cache: str, walker: str) -> tuple[float, float]:
    """Seconds and peak MB of one walker command (the largest of its process and its parse workers)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PEAK, walker, *args], env=dict(os.environ, WALKER_CACHE_DIR=cache),
                         check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, int(out.split()[-1]) / 1024


def median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The run with the median time (and its peak)."""
    return sorted(runs)[len(runs) // 2]


def measure(vault: Path, walker: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        baseline = statistics.median(measure_scan("baseline", vault, tmp)["seconds"] for _ in range(3))
        row: dict[str, object] = {"vault": vault.name, "baseline": baseline}
        cold_cache, walk_cache = f"{tmp}/scan", f"{tmp}/walk"
        row["scan cold"] = timed(["scan", str(vault)], cold_cache, walker)
        row["scan warm"] = median([timed(["scan", str(vault)], cold_cache, walker) for _ in range(3)])
        now = "2026-12-04T07:50:00"
        row["first walk"] = timed(["walk", str(vault), "--dry-run", "--now", now], walk_cache, walker)
        note = json.loads(subprocess.run([walker, "walk", str(vault), "--dry-run", "--json", "--now", now],
                                         env=dict(os.environ, WALKER_CACHE_DIR=walk_cache), check=True,
                                         capture_output=True, text=True).stdout)["seed"]["path"]
        row["neighbors warm"] = median([timed(["neighbors", note, str(vault)], walk_cache, walker) for _ in range(3)])
        return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vaults", nargs="*", type=Path, help="real vaults (copied first)")
    parser.add_argument("--notes", type=int, nargs="*", default=[10000, 50000], help="synthetic vault sizes")
    parser.add_argument("--before", help="an older walker executable to time in turn with this one")
    args = parser.parse_args()
    walkers = [("before", args.before), ("now", WALKER)] if args.before else [("now", WALKER)]
    print("| vault | code | baseline | scan cold | scan warm | first walk --dry-run | neighbors warm |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as copies:
        places = []
        for real in args.vaults:
            places.append(Path(copies) / real.name)
            shutil.copytree(real, places[-1], ignore=shutil.ignore_patterns("walks"))
        for notes in args.notes:
            vault = HERE / "vaults" / str(notes)
            if not vault.is_dir():
                make_vault(vault, notes)
            shutil.rmtree(vault / "walks", ignore_errors=True)
            places.append(vault)
        for vault in places:
            for code, walker in walkers:
                row = measure(vault, walker)
                base = float(row["baseline"])  # type: ignore[arg-type]
                cells = []
                for key in ("scan cold", "scan warm", "first walk", "neighbors warm"):
                    seconds, peak = row[key]  # type: ignore[misc]
                    cells.append(f"{seconds:.2f} s = {seconds / base:.0f}×, {peak:.0f} MB")
                print(f"| {row['vault']} | {code} | {base:.2f} s | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
