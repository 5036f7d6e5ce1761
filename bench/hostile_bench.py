"""Hostile-input benchmark: every attack input from the safety work, timed as a user runs it.

    python bench/hostile_bench.py

Each command runs in its own process on a fresh copy of sample-vault/ with one hostile input
added, and is paired with `walker scan` of the plain copy in the same run (machines are noisy).
The budget is 10 s and 500 MB per command; a row over it is marked.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WALKER = shutil.which("walker") or str(Path(sys.executable).with_name("walker"))
MEASURE = ("import resource, subprocess, sys\n"
           "code = subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)\n")
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9))

NOTES = {
    "[[ x100k on one line": "[[" * 100_000,
    "100k lines, a link each": "\n".join(f"line {i} [[Note {i}]]" for i in range(100_000)),
    "![[ x60k": "![[" * 60_000,
    "[x]( x50k": "[x](" * 50_000,
    "YAML alias bomb": f"---\n{BOMB}---\nA note about compost.\n",
    "list nested 1,000 deep": "\n".join("  " * i + "- item" for i in range(1000)),
    "indentation 2,000 deep": "\n".join(" " * (2 * i) + "text" for i in range(2000)),
    "backtick runs of every length, then %%": "".join("`" * k + "x" for k in range(1, 450)) + " %% comment",
    "a tag, then 50k backticks": "#tag " + "`" * 50_000,
}


def measure(args: list[str], stdin: str | None = None) -> tuple[float, float, int]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MEASURE, *args], input=stdin, capture_output=True, text=True,
                          timeout=600)
    seconds = time.perf_counter() - started
    peak_kb, code = done.stdout.split()
    return seconds, int(peak_kb) / 1024, int(code)


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        shutil.copytree(ROOT / "sample-vault", base, ignore=shutil.ignore_patterns("walks"))
        env_cache = Path(tmp) / "cache"
        os.environ["WALKER_CACHE_DIR"] = str(env_cache)
        for name, text in NOTES.items():
            vault = Path(tmp) / f"v{len(rows)}"
            shutil.copytree(base, vault)
            (vault / "Hostile.md").write_text(text, encoding="utf-8")
            for command in (["scan", str(vault)], ["walk", str(vault), "--seed-note", "Hostile"],
                            ["site", "build", str(vault), "-o", str(vault) + "-site"]):
                baseline = measure([WALKER, "scan", str(base)])
                rows.append((name, command[0] + (" build" if command[0] == "site" else ""), *measure([WALKER, *command]),
                             baseline[0]))
        vault = Path(tmp) / "filters"
        shutil.copytree(base, vault)
        (vault / ".obsidian").mkdir(exist_ok=True)
        (vault / ".obsidian" / "app.json").write_text(json.dumps({"userIgnoreFilters": ["/^(a+)+$/"]}))
        (vault / ("a" * 60 + "!.md")).write_text("note")
        rows.append(("backtracking exclude filter", "scan", *measure([WALKER, "scan", str(vault)]),
                     measure([WALKER, "scan", str(base)])[0]))
        prompt = json.dumps({"prompt": "any other angle? " * 6_000_000, "session_id": "s"})
        rows.append(("100 MB hook prompt", "hook", *measure([WALKER, "hook", "claude-code", str(base)], prompt),
                     measure([WALKER, "scan", str(base)])[0]))
    print("| input | command | seconds | peak MB | exit | baseline scan s |")
    print("|---|---|--:|--:|--:|--:|")
    for name, command, seconds, peak, code, baseline in rows:
        over = " **over budget**" if seconds > 10 or peak > 500 else ""
        print(f"| {name} | {command} | {seconds:.2f} | {peak:.0f} | {code} | {baseline:.2f} |{over}")


if __name__ == "__main__":
    main()
