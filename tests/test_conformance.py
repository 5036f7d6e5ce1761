"""`walker conformance`: the protocol's checklist on a scratch copy, with evidence; a broken rule fails its item.

tests/test_conformance_mutations.py breaks walker in one place at a time and shows that the item that should
notice does. Here: the checklist on sample-vault/ as walker stands, and what keeps the checklist honest (its
probes are no list the critic was built from).
"""

import hashlib
import json
import re
from pathlib import Path

from click.testing import CliRunner
from conftest import ROOT, SAMPLE_VAULT, copy_vault_files

from walker.cli import main
from walker.cli.conformance import FACT_PROBES, HEADERS, LEVELS, SENSITIVE_PROBES, Item, level_reached
from walker.walk import critic

# What walker itself does not do yet, by the item and check that says so (each is a finding, not a fault of the
# checklist); the rest of the checklist must pass on sample-vault/.
KNOWN_GAPS = {
    # Without walker[meaning] (as the tests run), the guard reading deeply rejects 11 of the check's 14 fresh probes in
    # a claim (bench/README.md); each seed probe and the scripted model's candidate are refused.
    (3, "critique: an inference about a person is rejected by sensitive-attribute"),
}


def digest(vault):
    return {p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(vault.rglob("*")) if p.is_file()}


def test_sample_vault_passes_every_check_but_the_known_gaps_and_the_vault_is_untouched(tmp_path):
    """All thirteen items on a copy of sample-vault/, each with its evidence; every check passes but exactly the
    ones in KNOWN_GAPS (a gap that closes is taken out of it, so with none left this is the full pass: L4), no
    level is claimed above a failing item, and the vault is only read."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    before = digest(vault)
    result = CliRunner().invoke(main, ["conformance", str(vault), "--json"])
    data = json.loads(result.stdout)
    assert [i["item"] for i in data["items"]] == list(range(1, 14))
    assert all(i["evidence"] and i["checks"] for i in data["items"])
    assert any(line.startswith("$ walker walk COPY --seed") for line in data["items"][2]["evidence"])  # the bad seed
    failed = {(i["item"], name) for i in data["items"] for name in i["failed"]}
    assert failed - KNOWN_GAPS == set(), [e for i in data["items"] if not i["passed"] for e in i["evidence"]]
    assert KNOWN_GAPS - failed == set(), "walker does these now: take them out of KNOWN_GAPS"
    failing = [LEVELS.index(i["level"]) for i in data["items"] if not i["passed"]]
    reached = -1 if data["level"] is None else LEVELS.index(data["level"])
    assert reached < min(failing, default=len(LEVELS))
    assert result.exit_code == 1 if failing else (result.exit_code, data["level"]) == (0, "L4")
    assert digest(vault) == before and not (vault / "walks").exists()


def test_a_level_counts_only_when_every_item_of_it_and_below_passes():
    def items(failing):
        found = []
        for number, (level, title) in HEADERS.items():
            item = Item(number, level, title)
            item.check("what it checks", number not in failing)
            found.append(item)
        return found

    assert level_reached(items(set())) == "L4"
    assert [level_reached(items({n})) for n in (10, 6, 12, 13, 11, 3)] == ["L3", "L2", "L1", "L0", None, None]
    assert level_reached(items({10, 13})) == "L0"  # an L4 item passing does not lift a failed L1
    nothing = Item(1, "L0", "a title")
    assert not nothing.passed  # an item that checked nothing verified nothing
    nothing.check("one thing", True)
    nothing.check("one thing", False)
    nothing.check("one thing", True)
    assert not nothing.passed and nothing.as_dict()["failed"] == ["one thing"]  # a check failed once stays failed


def test_a_gate_without_its_no_refs_rule_fails_item_2_and_reaches_no_level(tmp_path, monkeypatch):
    monkeypatch.setattr(critic, "RULES", tuple(r for r in critic.RULES if r[0] != "no-refs"))
    result = CliRunner().invoke(main, ["conformance", str(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"))])
    assert result.exit_code == 1
    assert "FAIL   2. [L0] A walk pass rejects candidates lacking supporting_refs" in result.output
    assert "FAILED: critique: a candidate without supporting_refs is rejected by no-refs" in result.output
    assert "level reached: none (an L0 item fails)" in result.output


def runs(text):
    """What a list copied from a probe would hold: runs of six words (of six characters, in Chinese)."""
    lowered = text.lower()
    latin = re.findall(r"[^\W\d_]+", re.sub(r"[\u3400-\u9fff]", " ", lowered))
    cjk = "".join(re.findall(r"[\u3400-\u9fff]", lowered))
    return ({" ".join(latin[i:i + 6]) for i in range(len(latin) - 5)}
            | {cjk[i:i + 6] for i in range(len(cjk) - 5)})


def test_the_probes_are_in_no_list_the_critic_is_built_from():
    """The critic's word lists, test cases and training sets hold none of the probes, nor six words of one in a
    row: a critic taught the checklist's sentences would pass it without reading what it was never shown. (The
    check sets under bench/judgement/check/ are only ever scored, never fitted on: nothing is built from them.)"""
    sources = [p for folder in ("walker", "tests/data", "bench") for p in (ROOT / folder).rglob("*")
               if p.is_file() and p.suffix in (".py", ".yaml", ".yml", ".json", ".txt", ".md", ".csv")
               and p != ROOT / "walker" / "cli" / "conformance.py"
               and ROOT / "bench" / "judgement" / "check" not in p.parents]
    assert len(sources) > 20
    token = re.compile(r"[^\W\d_\u3400-\u9fff]+|[\u3400-\u9fff]")  # a word, or one Chinese character
    text = {p: " ".join(token.findall(p.read_text(encoding="utf-8", errors="replace").lower())) for p in sources}
    for probe in SENSITIVE_PROBES + FACT_PROBES:
        for run in runs(probe):
            spaced = run if " " in run else " ".join(run)  # Chinese characters, one token each above
            found = [Path(p).relative_to(ROOT).as_posix() for p, t in text.items() if spaced in t]
            assert not found, f"{probe!r}: “{run}” is in {found}"
