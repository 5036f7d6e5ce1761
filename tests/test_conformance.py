"""`walker conformance`: the protocol's checklist on a scratch copy, with evidence; a broken rule fails its item."""

import hashlib
import json

from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files

from walker.cli import main
from walker.walk import critic


def digest(vault):
    return {p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(vault.rglob("*")) if p.is_file()}


def test_sample_vault_passes_all_thirteen_items_and_the_vault_is_untouched(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    before = digest(vault)
    result = CliRunner().invoke(main, ["conformance", str(vault), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [i["item"] for i in data["items"]] == list(range(1, 14))
    assert all(i["passed"] and i["evidence"] for i in data["items"])
    assert data["level"] == "L4"
    assert any(line.startswith("$ walker walk COPY --seed") for line in data["items"][2]["evidence"])  # the bad seed
    assert digest(vault) == before and not (vault / "walks").exists()


def test_a_gate_without_its_no_refs_rule_fails_item_2_and_reaches_no_level(tmp_path, monkeypatch):
    monkeypatch.setattr(critic, "RULES", tuple(r for r in critic.RULES if r[0] != "no-refs"))
    result = CliRunner().invoke(main, ["conformance", str(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"))])
    assert result.exit_code == 1
    assert "FAIL   2. [L0] A walk pass rejects candidates lacking supporting_refs" in result.output
    assert "level reached: none (an L0 item fails)" in result.output
