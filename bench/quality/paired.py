"""A paired blind reading of two engines: walk each vault with both, merge what they kept, read it blind, score it.

    python bench/quality/paired.py walk OUT A=CHECKOUT B=CHECKOUT VAULT...
    python bench/quality/paired.py merge OUT VAULT... [--parts N] [--known EARLIER_OUT...]
    python bench/quality/paired.py score OUT LABELS.yaml...

``walk``: for each engine (a checkout of walker: this one, or a ``git worktree`` of another commit) and each vault,
walks a fresh copy as ``read-walks`` does (three weekly runs, three walks), with that checkout's code and a cache of
its own, without the sentence-embedding model unless WALKER_MEANING says otherwise. Copies go to OUT/ENGINE/VAULT. Each
step imports the checkout's code as it starts (``python -P`` from OUT, and the run stops if it imported another):
give it a ``git worktree``, never a checkout being edited meanwhile.
``merge``: every active record both engines kept, per vault, the same claim and refs once, shuffled under anonymous
ids (r001…), in ``read-walks``' format: OUT/read-K.md, whole vaults per part, for K blind readers, and OUT/key.yaml,
which says which engine kept what (readers never see it). ``--known``: earlier readings (their OUT folders, with
key.yaml and labels-*.yaml); a record with the same vault, claim and refs as one read there keeps its label
(OUT/known.yaml) and is not read again, so a change is judged by what it drops and what it adds, record by record.
``score``: with the readers' labels (a list of ``{id, label}``) and OUT/known.yaml, kept / useful / wrong per vault and
engine, useful records per weekly run, and the labels of the records each engine keeps and the other does not.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import yaml

WEEKS = ("2026-12-04", "2026-12-11", "2026-12-18")  # read-walks' weekly runs
LABELS = ("useful", "shallow", "wrong")


def walk(out: Path, engines: dict[str, Path], vaults: list[Path]) -> None:
    out, vaults = out.resolve(), [v.resolve() for v in vaults]  # each step runs from out
    out.mkdir(parents=True, exist_ok=True)
    for name, checkout in engines.items():
        env = {**os.environ, "PYTHONPATH": str(checkout.resolve()), "WALKER_MEANING": os.environ.get("WALKER_MEANING", "0")}
        for vault in vaults:
            copy = out / name / vault.name
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(vault, copy, symlinks=True)
            env["WALKER_CACHE_DIR"] = str(out / name / f".cache-{vault.name}")
            steps = [["init", copy]] + [["run", copy, "--cadence", "weekly", "--force", "--now", f"{day}T07:50:00"]
                                        for day in WEEKS] + \
                    [["walk", copy, "--random-seed", str(s), "--now", f"2026-12-2{s}T07:50:00"] for s in (1, 2, 3)]
            failed = 0
            for step in steps:
                # -P and a neutral folder: the folder this runs from (a checkout of walker, say) never comes before the
                # engine's checkout on the path, which would walk both engines with its code.
                done = subprocess.run([sys.executable, "-P", "-c", "from walker.cli import main; main()", *map(str, step)],
                                      env=env, cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                failed += done.returncode != 0
            imported = subprocess.run([sys.executable, "-P", "-c", "import walker; print(walker.__file__)"], env=env,
                                      cwd=out, capture_output=True, text=True).stdout.strip()
            if not imported.startswith(str(checkout.resolve())):
                raise SystemExit(f"{name} imported walker from {imported}, not from {checkout}")
            # A step that fails (a crash, or a walk with no seed) is said: a vault whose walks crash reads as one that
            # keeps nothing.
            print(f"{name} {vault.name}: {len(list((copy / 'walks' / 'active').glob('*.md')))} kept"
                  + (f", {failed} of {len(steps)} steps failed (see {env['WALKER_CACHE_DIR']})" if failed else ""))


def _kept(folder: Path) -> dict[tuple[str, tuple[str, ...]], dict]:
    found = {}
    for path in sorted((folder / "walks" / "active").glob("*.md")):
        front = re.match(r"^---\n(.*?)\n---\n", path.read_text(encoding="utf-8"), re.S)
        record = yaml.safe_load(front.group(1)) if front else {}
        found[(str(record.get("claim", "")).strip(), tuple(record.get("supporting_refs") or ()))] = record
    return found


def merge(out: Path, vaults: list[str], parts: int, earlier: Sequence[Path] = ()) -> None:
    engines = sorted(p.name for p in out.iterdir() if p.is_dir())
    said = _read_before(earlier)
    rng, groups = random.Random(0), []
    key: dict[str, dict] = {}
    known: dict[str, str] = {}
    for vault in vaults:
        kept = {engine: _kept(out / engine / vault) for engine in engines}
        merged = list(dict.fromkeys(k for engine in engines for k in kept[engine]))
        rng.shuffle(merged)
        items = []
        for claim_refs in merged:
            rid = f"r{len(key) + 1:03d}"
            record = next(kept[e][claim_refs] for e in engines if claim_refs in kept[e])
            key[rid] = {"vault": vault, "ids": {e: kept[e][claim_refs]["id"] for e in engines if claim_refs in kept[e]}}
            if (vault, *claim_refs) in said:
                known[rid] = said[(vault, *claim_refs)]
            else:
                items.append((rid, record))
        groups.append((vault, items))
    (out / "known.yaml").write_text(yaml.safe_dump(known, sort_keys=True, allow_unicode=True), encoding="utf-8")
    if known:
        print(f"{len(known)} records read before keep their labels (known.yaml)")
    shares: list[list[tuple[str, list]]] = [[] for _ in range(parts)]
    for group in sorted(groups, key=lambda g: -len(g[1])):
        min(shares, key=lambda share: sum(len(items) for _, items in share)).append(group)
    for number, share in enumerate(shares, 1):
        lines = []
        for vault, items in share:
            lines.append(f"# {vault}\n")
            for rid, record in items:
                kind = f", {record['kind']}" if record.get("kind") else ""
                lines += [f"## {rid} (active{kind})\n", str(record.get("claim", "")).strip() + "\n"]
                lines += [f"- {ref}" for ref in record.get("supporting_refs") or ()]
                lines.append("\nverdict (useful / shallow / wrong), and why: \n")
        (out / f"read-{number}.md").write_text("\n".join(lines), encoding="utf-8")
        print(f"read-{number}.md: {', '.join(f'{v} ({len(i)})' for v, i in share)}")
    (out / "key.yaml").write_text(yaml.safe_dump(key, sort_keys=True, allow_unicode=True), encoding="utf-8")


def _read_before(earlier: Sequence[Path]) -> dict[tuple[str, str, tuple[str, ...]], str]:
    """(vault, claim, refs) → label, for every record read in the earlier readings (the first label where two differ)."""
    found: dict[tuple[str, str, tuple[str, ...]], str] = {}
    for folder in earlier:
        said = _labels(folder, sorted(folder.glob("labels-*.yaml")))
        for rid, entry in yaml.safe_load((folder / "key.yaml").read_text(encoding="utf-8")).items():
            for engine, record_id in entry["ids"].items():
                for claim_refs, record in _kept(folder / engine / entry["vault"]).items():
                    if record.get("id") == record_id and rid in said:
                        found.setdefault((entry["vault"], *claim_refs), said[rid])
    return found


def _labels(out: Path, labels: list[Path]) -> dict[str, str]:
    said = {str(row["id"]): str(row["label"]).strip().lower() for path in labels
            for row in yaml.safe_load(path.read_text(encoding="utf-8"))}
    known = out / "known.yaml"
    return {**(yaml.safe_load(known.read_text(encoding="utf-8")) or {} if known.is_file() else {}), **said}


def score(out: Path, labels: list[Path]) -> None:
    key = yaml.safe_load((out / "key.yaml").read_text(encoding="utf-8"))
    said = _labels(out, labels)
    if missing := sorted(set(key) - set(said)):
        raise SystemExit(f"no label for {', '.join(missing)}")
    engines = sorted({e for entry in key.values() for e in entry["ids"]})
    counts: Counter[tuple[str, str, str]] = Counter()
    for rid, entry in key.items():
        for engine, record_id in entry["ids"].items():
            for vault in (entry["vault"], "all"):
                counts[(vault, engine, "kept")] += 1
                counts[(vault, engine, said[rid])] += 1
                weekly = said[rid] == "useful" and any(day in record_id for day in WEEKS)
                counts[(vault, engine, "weekly useful")] += weekly
    print("| vault | " + " | ".join(f"{e}: kept / useful / wrong | {e}: useful per weekly run" for e in engines) + " |")
    print("|---|" + "--:|--:|" * len(engines))
    for vault in [*dict.fromkeys(entry["vault"] for entry in key.values()), "all"]:
        cells = []
        for e in engines:
            kept, useful, wrong = (counts[(vault, e, k)] for k in ("kept", "useful", "wrong"))
            cells += [f"{kept} / {useful} ({useful / max(1, kept):.0%}) / {wrong} ({wrong / max(1, kept):.0%})",
                      f"{counts[(vault, e, 'weekly useful')] / len(WEEKS):.2f}" if vault != "all" else ""]
        print(f"| {vault} | " + " | ".join(cells) + " |")
    for engine in engines:  # what each engine keeps that no other does: where a change shows, record by record
        alone = Counter(said[rid] for rid, entry in key.items() if set(entry["ids"]) == {engine})
        print(f"\nkept by {engine} alone: " + ", ".join(f"{alone[label]} {label}" for label in LABELS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    walking = commands.add_parser("walk")
    walking.add_argument("out", type=Path)
    walking.add_argument("engines", nargs="+", help="NAME=CHECKOUT for each engine, then the vaults")
    merging = commands.add_parser("merge")
    merging.add_argument("out", type=Path)
    merging.add_argument("vaults", nargs="+")
    merging.add_argument("--parts", type=int, default=1)
    merging.add_argument("--known", type=Path, nargs="*", default=[], help="earlier readings whose labels carry over")
    scoring = commands.add_parser("score")
    scoring.add_argument("out", type=Path)
    scoring.add_argument("labels", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "walk":
        named = [a for a in args.engines if "=" in a]
        engines = {name: Path(path) for name, _, path in (a.partition("=") for a in named)}
        vaults = [Path(a) for a in args.engines if "=" not in a]
        if not engines or not vaults:
            parser.error("walk needs NAME=CHECKOUT for each engine and at least one vault")
        walk(args.out, engines, vaults)
    elif args.command == "merge":
        merge(args.out, args.vaults, args.parts, args.known)
    else:
        score(args.out, args.labels)


if __name__ == "__main__":
    main()
