"""Run `walker critique` on the candidates written blind in critique-cases.yaml and score the gate: each good one
must pass, each bad one must be rejected by the rule for its defect.

    python bench/judgement/critique.py [CASES.yaml] [VAULT]     (default: critique-cases.yaml, sample-vault/)
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml
from click.testing import CliRunner

from walker.cli import main as walker

HERE = Path(__file__).resolve().parent
RULE = {"sensitive": "sensitive-attribute", "outside_fact": "facts-absent-from-refs",
        "unfalsifiable": "unfalsifiable-claim", "vague_situation": "applies-when-vague",
        "vague_falsifier": "no-falsifiable-disconfirm", "refused_impact": "impact-unjustified", "homonym": "homonym",
        "single_source": "single-source"}


def score(cases: list[dict], vault: Path) -> Counter[tuple[str, bool]]:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "candidates.yaml"
        path.write_text(yaml.safe_dump([{"id": c["case"], **c["candidate"]} for c in cases], allow_unicode=True), "utf-8")
        result = CliRunner().invoke(walker, ["critique", str(path), str(vault), "--json"])
    verdicts = {v["id"]: v for v in json.loads(result.stdout)["verdicts"]}
    found: Counter[tuple[str, bool]] = Counter()
    for case in cases:
        verdict = verdicts[case["case"]]
        right = verdict["accepted"] if case["defect"] == "good" else RULE[case["defect"]] in verdict["rules"]
        found[(case["defect"], right)] += 1
        if not right:
            print(f"wrong: {case['defect']} {case['case']}: {', '.join(verdict['rules']) or 'accepted'}")
    return found


def main() -> None:
    cases_path = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "critique-cases.yaml"
    vault = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE.parents[1] / "sample-vault"
    found = score(yaml.safe_load(cases_path.read_text("utf-8")), vault)
    for defect in sorted({d for d, _ in found}):
        print(f"{defect}: {found[(defect, True)]} of {found[(defect, True)] + found[(defect, False)]} right")


if __name__ == "__main__":
    main()
