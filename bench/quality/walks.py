"""Yield of whole walks: N walks of a fresh copy of each vault, as `walker walk` runs them one after another
(`--random-seed 0…N-1`, or from `--first`), and every record they keep matched to a labelled pair of `labels.yaml` by its two
notes. Prints how many kept records are useful, shallow, homonym or wrong, and the kept records nobody has
labelled yet (label them, then run again). A record superseded by a wider one is not counted; the wider one is.

    python bench/quality/walks.py [--walks 10] [--first 0] [--vaults DIR] [--only VAULT] [-v]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FRONT_MATTER = re.compile(r"^---\n(.*?)\n---\n", re.DOTALL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walks", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first walk's --random-seed (and day): another draw")
    parser.add_argument("--vaults", type=Path,
                        default=Path(os.environ.get("WALKER_REAL_VAULTS") or ROOT.parent / "shared" / "vaults"))
    parser.add_argument("-v", action="store_true", help="print every kept record, not only unlabelled ones")
    parser.add_argument("--only", help="walk only the vault of this name (sample-vault, obsidian-tasks-docs, tasks-demo)")
    args = parser.parse_args()
    walker = Path(sys.executable).parent / "walker"
    labels: dict[tuple[str, frozenset[str]], list[str]] = defaultdict(list)
    for pair in yaml.safe_load((HERE / "labels.yaml").read_text(encoding="utf-8")):
        labels[(pair["vault"], frozenset((pair["a"]["path"], pair["b"]["path"])))].append(pair["label"])
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, WALKER_CACHE_DIR=str(Path(tmp) / "cache"))
        for source in (ROOT / "sample-vault", args.vaults / "obsidian-tasks-docs", args.vaults / "tasks-demo"):
            if args.only and source.name != args.only:
                continue
            vault = Path(tmp) / source.name
            shutil.copytree(source, vault, ignore=shutil.ignore_patterns("walks"))
            for n in range(args.first, args.first + args.walks):
                now = f"2026-{1 + n // 28:02d}-{n % 28 + 1:02d}T07:50:00"
                subprocess.run([str(walker), "walk", str(vault), "--now", now, "--random-seed", str(n)],
                               capture_output=True, env=env, check=False)
            count: Counter[str] = Counter()
            for record in sorted((vault / "walks").glob("*/hyp-*.md")):
                found = FRONT_MATTER.match(record.read_text(encoding="utf-8"))
                data = yaml.safe_load(found.group(1)) if found else {}
                if data.get("status") == "superseded":
                    continue  # the wider record that replaced it is counted
                notes = [str(ref).split("#")[0] for ref in data.get("supporting_refs") or []][:2]
                said = labels.get((source.name, frozenset(notes)))
                label = max(set(said), key=said.count) if said else "unlabelled"
                count[label] += 1
                if label == "unlabelled" or args.v:
                    print(f"  {label} [{data.get('kind')}] {notes}: {str(data.get('claim'))[:240]}")
            print(f"{source.name}: {args.walks} walks kept {sum(count.values())}: {dict(count)}")


if __name__ == "__main__":
    main()
