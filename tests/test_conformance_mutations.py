"""`walker conformance` cannot be fooled: each test breaks walker in one place (monkeypatched into the real code,
the way a regression would break it) and the item that checks that behaviour fails, with the check that saw it.

No level above a failed item's is ever claimed. Each check named here passes on sample-vault/ when walker is
not broken (tests/test_conformance.py), so the failure is the break's.
"""

import json
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files
from test_conformance import KNOWN_GAPS

import walker.cli.agents
import walker.hooks
import walker.surface
from walker.cli import main
from walker.cli.conformance import LEVELS
from walker.pool import lifecycle
from walker.turns import EXECUTIVE, classify_turn
from walker.walk import critic, runner
from walker.walk.engines import extractive

# The item and the check of it that each break must fail (none is a gap walker has without the break).
CAUGHT = {
    # the offline walks may reject nothing by a gate rule, and then only the scripted model's walk shows it
    "no critic": (2, ("every walk's critique phase holds the gate's verdict on each candidate",
                      "the scripted model's walk ran")),
    "copied claim": (11, "a statement that copies the claim word for word is refused"),
    "rewrite in auto": (8, "no rewrite-impact hypothesis surfaced in auto mode"),
    "ignores not in a row": (10, "ignores broken by an engagement do not mute it"),
    "pull of one": (9, "a question about the notes they cite returns every active hypothesis, rewrite included"),
    "walk on an error": (12, "errors and requests for help start no walk (surface, and a chat hook)"),
    "walk off the cadence": (12, "every walk of the copy ran on the cadence (or was one this check started)"),
    "noteworthy fields": (13, "the entry has the noteworthy schema: its own fields, none of a hypothesis's"),
}


def conformance(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    result = CliRunner().invoke(main, ["conformance", str(vault), "--json"])
    return result.exit_code, json.loads(result.stdout)


def assert_caught(code, data, *breaks):
    """Exit 1; the item of each break failed, and so did its check; no level above a failed item's."""
    assert code == 1
    for number, names in (CAUGHT[b] for b in breaks):
        item = data["items"][number - 1]
        names = (names,) if isinstance(names, str) else names
        assert not item["passed"] and set(names) & set(item["failed"]), (names, item["evidence"])
    failing = [LEVELS.index(i["level"]) for i in data["items"] if not i["passed"]]
    reached = -1 if data["level"] is None else LEVELS.index(data["level"])
    assert reached < min(failing) <= min(LEVELS.index(data["items"][CAUGHT[b][0] - 1]["level"]) for b in breaks)


def test_what_each_break_must_fail_passes_when_walker_is_not_broken():
    checks = {(number, name) for number, names in CAUGHT.values() for name in ((names,) if isinstance(names, str) else names)}
    assert not checks & KNOWN_GAPS  # tests/test_conformance.py: on sample-vault/ only those fail


def test_walks_with_no_critic(tmp_path, monkeypatch):
    """The walk keeps whatever its engine's own scoring keeps: no rule of the gate runs (`walker critique` still
    has every rule, so only the walks' own verdicts can show it)."""
    def no_critic(candidates, ctx, engine_verdicts=None, noteworthy_limit=1):
        candidates = list(candidates)
        before = list(engine_verdicts) if engine_verdicts is not None else [None] * len(candidates)
        return [v if v is not None and not v.accepted else critic.Verdict(True, (), ()) for v in before]

    monkeypatch.setattr(runner, "gate", no_critic)
    monkeypatch.setattr(extractive, "gate", no_critic)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "no critic")
    assert not data["items"][3]["passed"]  # the model's invented fact is kept too (or the walk cannot write it)


def test_a_discharge_that_copies_the_claim(tmp_path, monkeypatch):
    """A statement that repeats the hypothesis's claim is taken as the reviewer's conclusion."""
    monkeypatch.setattr(lifecycle, "restated", lambda statement, record: None)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "copied claim")


def test_rewrites_leaking_into_auto_mode(tmp_path, monkeypatch):
    """Auto mode forgets the impact gate: a rewrite-impact hypothesis is judged as if it were an add."""
    blocked = walker.surface._blocked

    def as_add(record, *args):
        return blocked(SimpleNamespace(id=record.id, data={**record.data, "impact": "add"}), *args)

    monkeypatch.setattr(walker.surface, "_blocked", as_add)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "rewrite in auto")


def test_muting_on_non_consecutive_ignores(tmp_path, monkeypatch):
    """An engagement no longer resets the count of ignores: three ignores in all mute, in a row or not."""
    feedback = lifecycle.conversation_feedback

    def every_ignore_counts(store, record_id, outcome, now, *args, **kwargs):
        count = store.find(record_id).data.get("ignored_in_a_row") or 0
        done = feedback(store, record_id, outcome, now, *args, **kwargs)
        if outcome == "engaged":
            with store.lock():
                store.update_record(store.find(record_id), {"ignored_in_a_row": count})
        return done

    monkeypatch.setattr(lifecycle, "conversation_feedback", every_ignore_counts)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "ignores not in a row")


def test_a_topic_pull_returning_one_record(tmp_path, monkeypatch):
    """A pull that names a subject returns only its best match (a bare "walk note" still lists the pool)."""
    surface = walker.surface.surface

    def best_only(vault, turn, mode=None, limit=None):
        result = surface(vault, turn, mode, limit)
        if result.mode == "pull" and walker.surface._without_pull_phrases(turn).strip():
            result.surfaced = result.surfaced[:1]
        return result

    for module in (walker.surface, walker.cli.agents, walker.hooks):
        monkeypatch.setattr(module, "surface", best_only)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "pull of one")


def test_walks_triggered_by_error_turns(tmp_path, monkeypatch):
    """A turn with an error in it starts a walk, as if walker walked to help with a stuck task."""
    surface = walker.surface.surface

    def walks_on_errors(vault, turn, mode=None, limit=None):
        if classify_turn(turn).kind == EXECUTIVE:
            from walker.walk.runner import WalkOptions, run_walk
            from walker.workspace import Workspace

            run_walk(Workspace.open(Path(vault)), WalkOptions(now=datetime(2026, 12, 4, 9, tzinfo=timezone.utc)))
        return surface(vault, turn, mode, limit)

    for module in (walker.surface, walker.cli.agents, walker.hooks):
        monkeypatch.setattr(module, "surface", walks_on_errors)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "walk on an error", "walk off the cadence")


def test_noteworthy_entries_with_wrong_fields(tmp_path, monkeypatch):
    """The walk writes a noteworthy entry in a hypothesis's shape: the context fields that make a record one to
    surface, and no word of why it may be worth a look (every field the store requires is still there: the store
    refuses an entry without one, so the walk would not write it at all)."""
    pytest.importorskip("httpx")  # the walk that writes one is the model engine's (the offline engine flags none)
    pytest.importorskip("pydantic")
    entry_of = runner.noteworthy_record

    def wrong_fields(candidate, **fields):
        return {**entry_of(candidate, **fields), "flagged_value_reason": "", "confidence": "low", "impact": "add",
                "applies_when": ["A conversation about either note."]}

    monkeypatch.setattr(runner, "noteworthy_record", wrong_fields)
    code, data = conformance(tmp_path)
    assert_caught(code, data, "noteworthy fields")
