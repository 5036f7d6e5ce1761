"""Hook benchmark: `walker hook claude-code` on a 10k-note vault with a warm cache, end to end.

    python bench/hook_bench.py --notes 10000 --hypotheses 300

Each call is a fresh process, as a client runs it (Python start-up and imports included). The
baselines, measured in the same run: a bare `python -c pass`, and the scan baseline (read every
file, regex out [[...]]) of the same vault.
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
from site_bench import fill_pool  # noqa: E402

TURNS = [
    "I've been wondering how fast to feed a sourdough starter. Any ideas?",
    "Thinking about quorum and consensus in the garden of leaders: what if they relate?",
    'Traceback (most recent call last):\n  File "app.py", line 3\nValueError: nope',
    "fix the failing test please",
    "walk note: compost and mulch",
]


def timed(command: list[str], stdin: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--hypotheses", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    walker = shutil.which("walker") or str(Path(sys.executable).with_name("walker"))
    with tempfile.TemporaryDirectory() as tmp:
        vault = make_vault(Path(tmp) / "vault", args.notes)
        env = dict(os.environ, WALKER_CACHE_DIR=str(Path(tmp) / "cache"))
        os.environ["WALKER_CACHE_DIR"] = env["WALKER_CACHE_DIR"]
        fill_pool(vault, args.hypotheses, max(1, args.hypotheses // 10))
        subprocess.run([walker, "neighbors", sorted(p.stem for p in (vault / "Garden").glob("*.md"))[0], str(vault)],
                       capture_output=True, env=env, check=True)  # warms the parse cache and the vocabulary
        baseline_python = min(timed([sys.executable, "-c", "pass"], "", env) for _ in range(args.repeat))
        baseline_scan = min(measure_scan("baseline", vault, env["WALKER_CACHE_DIR"])["seconds"] for _ in range(3))
        times = []
        for turn in TURNS:
            payload = json.dumps({"session_id": "bench", "hook_event_name": "UserPromptSubmit", "prompt": turn})
            times += [timed([walker, "hook", "claude-code", str(vault)], payload, env) for _ in range(args.repeat)]
    print(f"hook on {args.notes:,} notes, {args.hypotheses} active hypotheses, warm cache: median "
          f"{statistics.median(times):.2f} s, worst {max(times):.2f} s over {len(times)} calls; bare Python start "
          f"{baseline_python:.2f} s; scan baseline {baseline_scan:.2f} s")


if __name__ == "__main__":
    main()
