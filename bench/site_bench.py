"""Site benchmark: build the review site for a pool of 2,000 hypotheses and 200 reports.

    python bench/site_bench.py --hypotheses 2000 --reports 200 [--before CHECKOUT [--rounds N]]

The pool is written through walker's own store (records, reports, run records)
over a synthetic vault, then `walker site build` is timed in its own process (peak memory: the larger
of that process and the one it forks to render half the pages),
next to the scan baseline (read every file, regex out [[...]]) of the same vault. CPU is the build's
processor time (user and system, its fork included, and the imports before the build starts): on a machine
other work loads, it moves less than the wall time does.
``--before`` names an older checkout of walker whose build is timed in turn with this one, over
the same pool: with the checkout's own ``.venv`` when it has one (run from the checkout, so its code and
its site templates are the ones imported), else with this Python and the checkout first on the path.
``--rounds N`` times the two N times over the one pool (a line a round), the one built first changing
each round, and the disk synced after each build: a burst of other work on the machine falls on both, and
neither pays for writing out the other's pages.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_vault import make_vault  # noqa: E402
from scan_bench import measure as measure_scan  # noqa: E402

FROM_CHECKOUT = r"""
import importlib.util, sys
sys.meta_path = [f for f in sys.meta_path if "Editable" not in repr(f)]
sys.path = [p for p in sys.path if "__editable__" not in p]
checkout = sys.argv.pop()
sys.path.insert(0, checkout)
# The site templates are a package only an install maps (pyproject's package-dir): map the checkout's.
templates = importlib.util.spec_from_file_location("walker.site_templates", f"{checkout}/site-templates/__init__.py",
                                                   submodule_search_locations=[f"{checkout}/site-templates"])
sys.modules["walker.site_templates"] = importlib.util.module_from_spec(templates)
templates.loader.exec_module(sys.modules["walker.site_templates"])
"""

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from walker.site.build import build_site
start = time.perf_counter()
build_site(Path(sys.argv[1]), Path(sys.argv[2]))
seconds = time.perf_counter() - start
usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print(json.dumps({"seconds": seconds, "peak_mb": max(u.ru_maxrss for u in usage) / 1024,
                  "cpu": sum(u.ru_utime + u.ru_stime for u in usage)}))
"""


def fill_pool(vault: Path, hypotheses: int, reports: int, seed: int = 1) -> None:
    from walker.corpus import load_corpus
    from walker.pool.store import PoolStore
    from walker.walk.candidate import Candidate, End, hypothesis_record

    rng = random.Random(seed)
    corpus = load_corpus(vault)
    notes = [p for p in corpus.notes if not p.startswith("Daily/")]
    store = PoolStore(vault)
    store.ensure()
    per_report = hypotheses // reports
    number = 0
    for r in range(reports):
        day = f"2026-{1 + r // 28 % 12:02d}-{1 + r % 28:02d}"
        walk_id = f"{day}-{r // 336 + 1:03d}"
        ids = []
        for _ in range(per_report):
            number += 1
            a, b = rng.sample(notes, 2)
            candidate = Candidate(
                claim=f"{Path(a).stem} and {Path(b).stem} may be two views of one pattern.",
                supporting_refs=(f"{a}#Notes", f"{b}#Notes"), confidence="low", impact="add",
                impact_reason="the two notes are not linked yet", applies_when=(f"Working on {Path(a).stem}.",),
                never_applies_when=("During an outage.",), disconfirm_if=("The passages disagree.",),
                bridge=(End(a), End(b)), title=f"{Path(a).stem} ↔ {Path(b).stem}")
            record_id = f"hyp-{day}-{len(ids) + 1 + (r // 336) * 100:03d}"
            status = rng.choice(["active"] * 6 + ["archived", "rejected", "discharged"])
            record = hypothesis_record(candidate, id=record_id, created=day, seed="s", walk_id=walk_id,
                                       engine="extractive", expires_after_walks=12) | {"status": status}
            store.write_record("active" if status == "active" else status, record)
            ids.append(record_id)
        links = "\n".join(f"- [[{i}]]" for i in ids)
        seed_note = rng.choice(notes)
        report = (f"---\ntitle: Walk {walk_id}\n---\n# Walk {walk_id}\n\n## Seed\n\nFrom [[{seed_note[:-3]}#Notes]].\n\n"
                  f"## Candidate associations\n\n{links}\n")
        run = {"walk_id": walk_id, "started": f"{day}T07:00:00", "seed": {"path": seed_note},
               "hypotheses": ids, "phases": {"roam": ids}}
        store.commit_walk(walk_id, {f"reports/{walk_id}.md": report, f"runs/{walk_id}.yaml": yaml.safe_dump(run)},
                          f"walk {walk_id}", [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hypotheses", type=int, default=2000)
    parser.add_argument("--reports", type=int, default=200)
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--before", help="an older checkout of walker to time in turn with this one")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to time the builds in turn")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = make_vault(Path(tmp) / "vault", args.notes)
        cache = str(Path(tmp) / "cache")
        os.environ["WALKER_CACHE_DIR"] = cache
        fill_pool(vault, args.hypotheses, args.reports)
        baseline = measure_scan("baseline", vault, cache)
        for number in range(args.rounds):
            _time_builds(args, vault, Path(tmp), baseline["seconds"], now_first=number % 2 == 1)


def _time_builds(args: argparse.Namespace, vault: Path, tmp: Path, baseline: float, now_first: bool) -> None:
    """One build of each checkout in turn over the pool, and the line that says how long each took."""
    builds: dict[str, str] = {}
    codes = ([("before", args.before)] if args.before else []) + [("now", None)]
    for code, checkout in reversed(codes) if now_first else codes:
        python = Path(checkout).resolve() / ".venv" / "bin" / "python" if checkout else None
        if python and python.is_file():
            child = [str(python), "-c", CHILD, str(vault), str(tmp / "site")]
        else:
            child = [sys.executable, "-c", (FROM_CHECKOUT if checkout else "") + CHILD, str(vault),
                     str(tmp / "site")] + ([str(Path(checkout).resolve())] if checkout else [])
        out = subprocess.run(child, check=True, capture_output=True, text=True, cwd=checkout or None,
                             env=dict(os.environ, NO_MKDOCS_2_WARNING="1")).stdout
        result = json.loads(out.strip().splitlines()[-1])
        pages = sum(1 for _ in (tmp / "site").rglob("*.html"))
        shutil.rmtree(tmp / "site", ignore_errors=True)
        os.sync()
        builds[code] = (f"{code}: {result['seconds']:.1f} s ({pages:,} pages, peak {result['peak_mb']:.0f} MB, "
                        f"CPU {result['cpu']:.1f} s)")
    order = " (now built first)" if now_first and args.before else ""
    print(f"site with {args.hypotheses:,} hypotheses and {args.reports} reports over {args.notes:,} notes: "
          f"{'; '.join(builds[code] for code, _ in codes)}{order}; scan baseline of the same vault {baseline:.2f} s",
          flush=True)


if __name__ == "__main__":
    main()
