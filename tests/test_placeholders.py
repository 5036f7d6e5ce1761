"""A command copied from the review site and run unedited does not record the example text as a decision."""

import pytest
from conftest import SAMPLE_VAULT, cli, copy_vault_files

from walker.pool.lifecycle import PLACEHOLDERS
from walker.site.decide import _choices


@pytest.fixture
def kept(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    result = cli("walk", vault, "--now", "2026-12-04T07:50", "--seed-note", "Autoscaler Oscillation", "--json")
    import json

    (record_id, *_) = json.loads(result.output)["hypotheses"]
    return vault, record_id


@pytest.mark.parametrize("action, options", [
    ("reject", ["--evidence", PLACEHOLDERS["--evidence"]]),
    ("reject", ["--evidence", "  What shows it IS wrong "]),
    ("discharge", ["--source", PLACEHOLDERS["--source"], "--statement", "Slow sensors make loops overshoot."]),
    ("discharge", ["--source", "the incident review", "--statement", PLACEHOLDERS["--statement"]]),
])
def test_the_example_text_of_a_copied_command_is_refused_and_nothing_moves(kept, action, options):
    vault, record_id = kept
    result = cli(action, record_id, vault, *options)
    assert result.exit_code != 0 and "example text" in result.output
    assert (vault / "walks" / "active" / f"{record_id}.md").exists()
    assert not any((vault / "Inbox").glob("*.md"))


def test_real_evidence_is_taken_and_the_site_shows_the_same_examples(kept):
    vault, record_id = kept
    assert cli("reject", record_id, vault, "--evidence", "the autoscaler had no dead time").exit_code == 0
    shown = "\n".join(_choices("active", False))
    assert all(f'"{text}"' in shown for text in PLACEHOLDERS.values())
