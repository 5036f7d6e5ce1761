"""Site benchmark: build the review site for a pool of 2,000 hypotheses and 200 reports.

    python bench/site_bench.py --hypotheses 2000 --reports 200 [--before CHECKOUT]

The pool is written through walker's own store (records, reports, run records)
over a synthetic vault, then `walker site build` is timed in its own process (peak memory: the larger
of that process and the one it forks to render half the pages),
next to the scan baseline (read every file, regex out [[...]]) of the same vault.
``--before`` names an older checkout of walker whose build is timed in turn with this one, over
the same pool.
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
import sys
sys.meta_path = [f for f in sys.meta_path if "Editable" not in repr(f)]
sys.path = [p for p in sys.path if "__editable__" not in p]
sys.path.insert(0, sys.argv.pop())
"""

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from walker.site.build import build_site
start = time.perf_counter()
build_site(Path(sys.argv[1]), Path(sys.argv[2]))
peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"seconds": time.perf_counter() - start, "peak_mb": peak / 1024}))
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = make_vault(Path(tmp) / "vault", args.notes)
        cache = str(Path(tmp) / "cache")
        os.environ["WALKER_CACHE_DIR"] = cache
        fill_pool(vault, args.hypotheses, args.reports)
        baseline = measure_scan("baseline", vault, cache)
        builds = []
        for code, checkout in ([("before", args.before)] if args.before else []) + [("now", None)]:
            child = [sys.executable, "-c", (FROM_CHECKOUT if checkout else "") + CHILD, str(vault), str(Path(tmp) / "site")]
            out = subprocess.run(child + ([str(Path(checkout).resolve())] if checkout else []), check=True,
                                 capture_output=True, text=True, env=dict(os.environ, NO_MKDOCS_2_WARNING="1")).stdout
            result = json.loads(out.strip().splitlines()[-1])
            pages = sum(1 for _ in (Path(tmp) / "site").rglob("*.html"))
            shutil.rmtree(Path(tmp) / "site", ignore_errors=True)
            builds.append(f"{code}: {result['seconds']:.1f} s ({pages:,} pages, peak {result['peak_mb']:.0f} MB)")
    print(f"site with {args.hypotheses:,} hypotheses and {args.reports} reports over {args.notes:,} notes: "
          f"{'; '.join(builds)}; scan baseline of the same vault {baseline['seconds']:.2f} s")


if __name__ == "__main__":
    main()
