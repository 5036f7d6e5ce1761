"""A hypothesis's proposed fields are defined once (pool.records.PROPOSED): a field added there reaches the
written record, its validation and the model engine's answer schema and instructions, with no other edit."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "walker"
LAST = """    Proposed("why_it_matters", "Why it may matter", TEXT, '"…"', required=False, label_zh="为什么可能重要"),\n)"""
ADDED = LAST.replace("\n)", """\n    Proposed("counterexample", "Counterexample", TEXT, '"…"'),\n)""")

CHECK = '''
import json, sys
from pathlib import Path

from walker.pool.records import validate
from walker.pool.store import PoolStore
from walker.walk.candidate import Candidate, hypothesis_record
from walker.walk.engines.llm import CRITIQUE, _models

_, _, answer = _models(1, 1, 1)
kept = {"candidate": 0, "claim": "A starter and a queue fail alike.", "connects": [0, 1],
        "confidence": "low", "impact": "add", "applies_when": ["a"], "never_applies_when": ["n"],
        "disconfirm_if": ["d"], "counterexample": "A starter fed slowly still collapses."}
try:
    answer.model_validate({"hypotheses": [{k: v for k, v in kept.items() if k != "counterexample"}]})
    refused = False
except ValueError:
    refused = True
(said,) = answer.model_validate({"hypotheses": [kept]}).hypotheses
candidate = Candidate.proposing({**said.model_dump(exclude={"candidate", "connects"}), "supporting_refs": ["A.md", "B.md"]},
                               title="A ↔ B")  # as the engine makes it
record = hypothesis_record(candidate, id="hyp-2026-12-01-001", created="2026-12-01", seed="s", walk_id="w",
                           engine="llm", expires_after_walks=12)
PoolStore(Path(sys.argv[1])).write_record("active", record)
(stored,) = PoolStore(Path(sys.argv[1])).records("active")
print(json.dumps({
    "prompt": '"counterexample": "…"' in CRITIQUE,
    "refused without it": refused,
    "written": stored.data.get("counterexample"),
    "valid": validate(stored.data),
    "invalid without it": validate({k: v for k, v in stored.data.items() if k != "counterexample"}),
}))
'''


def test_a_field_added_to_the_schema_reaches_record_validation_and_the_model(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "walker", ignore=shutil.ignore_patterns("__pycache__"))
    records = copy / "walker" / "pool" / "records.py"
    text = records.read_text(encoding="utf-8")
    assert text.count(LAST) == 1
    records.write_text(text.replace(LAST, ADDED), encoding="utf-8")
    vault = tmp_path / "vault"
    (vault / "walks").mkdir(parents=True)
    path = os.pathsep.join((str(copy), *site.getsitepackages()))
    # Python without its site hook (-S), so the editable install cannot hand it the real package instead.
    done = subprocess.run([sys.executable, "-S", "-c", CHECK, str(vault)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"prompt": True, "refused without it": True,
                                       "written": "A starter fed slowly still collapses.", "valid": [],
                                       "invalid without it": ["missing counterexample"]}
