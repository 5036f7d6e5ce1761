"""Surfacing (protocol §12; §18 items 6–10 and 13) on a pool with known hypotheses, and a tuning set."""

import json
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, SURFACE_TURNS, copy_vault_files, surface_record

from walker.cli import main
from walker.pool.store import PoolStore
from walker.surface import detect_mode, side_note, surface
from walker.turns import classify_turn
from walker.walk.candidate import Candidate, noteworthy_record
from walker.workspace import Workspace

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)




@pytest.fixture(scope="module")
def vault(tmp_path_factory):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path_factory.mktemp("surface") / "vault")
    Workspace.open(vault).build_index()  # the vocabulary surfacing reads
    store = PoolStore(vault)
    store.ensure()
    store.write_record("active", surface_record(
        "hyp-2026-11-30-001",
        "A sourdough starter fed faster than it can ferment and a queue fed faster than its consumer fail the same way.",
        applies=["Someone wonders how fast to feed a sourdough starter, or why it collapses after feeding."],
        never=["Debugging a production outage, a failing deploy or a stack trace."]))
    store.write_record("active", surface_record(
        "hyp-2026-11-30-002", "Compost heat and bread fermentation may be one microbial pattern seen from two sides.",
        impact="rewrite", applies=["A conversation about compost heat or fermentation."]))
    store.write_record("active", surface_record(
        "hyp-2026-11-30-003", "Cadences in music and tension and release may mirror acid balancing richness in cooking.",
        status="muted", applies=["Talking about cadences, tension and release in music."]))
    store.write_record("noteworthy", noteworthy_record(
        Candidate(claim="Worm bin feeding rhythm may rule every sourdough starter feeding schedule.",
                  supporting_refs=("Garden/Worm Bin.md#^feeding-rhythm",), confidence="low", impact="add",
                  impact_reason="", applies_when=(), never_applies_when=(), disconfirm_if=()),
        id="hyp-2026-11-30-noteworthy-001", created="2026-11-30", seed="s", walk_id="2026-11-30-001",
        engine="extractive", rejection_reason="single-source", flagged_value_reason="cross-domain"))
    return vault





@pytest.mark.parametrize("turn, mode, expected", SURFACE_TURNS)
def test_tuning_set(vault, turn, mode, expected):
    assert detect_mode(turn) == mode
    result = surface(vault, turn)
    ids = [e["id"] for e in result.surfaced]
    if mode == "auto":
        assert ids == expected, (result.silent_reason, result.scores)
    else:
        assert ids[: len(expected)] == expected, result.scores
    assert "hyp-2026-11-30-noteworthy-001" not in ids


def test_item_6_silent_on_a_stack_trace(vault):
    result = surface(vault, 'Traceback (most recent call last):\n  File "x.py", line 1\nKeyError: starter')
    assert result.surfaced == [] and "executive" in result.silent_reason
    assert classify_turn("please implement the feeding scheduler").kind == "executive"
    assert classify_turn("what if feeding were slower?").kind == "exploratory"


def test_item_8_rewrite_never_surfaces_in_auto_but_pull_returns_it_item_9(vault):
    auto = surface(vault, "Thinking about compost heat and fermentation, how might they relate?", "auto")
    assert "hyp-2026-11-30-002" not in [e["id"] for e in auto.surfaced]
    pulled = surface(vault, "compost heat and fermentation and sourdough starter and cadences", "pull")
    assert {"hyp-2026-11-30-001", "hyp-2026-11-30-002", "hyp-2026-11-30-003"} <= {e["id"] for e in pulled.surfaced}


def test_item_13_noteworthy_never_surfaces(vault):
    for mode in ("auto", "pull"):
        result = surface(vault, "worm bin feeding rhythm and every sourdough starter feeding schedule?", mode)
        assert "hyp-2026-11-30-noteworthy-001" not in [e["id"] for e in result.surfaced]


def test_off_switch(vault, monkeypatch):
    monkeypatch.setenv("WALKER_SURFACE", "off")
    result = surface(vault, SURFACE_TURNS[0][0])
    assert result.surfaced == [] and "switched off" in result.silent_reason


def test_side_note_shape(vault):
    (entry,) = surface(vault, SURFACE_TURNS[0][0]).surfaced
    note = side_note(entry)
    lines = note.splitlines()
    assert lines[0] == "---" and lines[1] == "Walk note (hyp-2026-11-30-001, confidence low)"
    assert lines[-1].startswith('Refs: "Kitchen/Sourdough Starter.md#^feeding-schedule"')  # each ref quoted
    assert "Why it may matter" in note  # as the record, the report and the site name it


def test_cli_json_contract(vault):
    result = CliRunner().invoke(main, ["surface", str(vault), "--turn", SURFACE_TURNS[0][0], "--json", "--now", NOW.isoformat()])
    data = json.loads(result.output)
    assert set(data) == {"mode", "surfaced", "silent_reason"} and data["mode"] == "auto"
    assert set(data["surfaced"][0]) >= {"id", "claim", "supporting_refs", "confidence", "impact"}
    assert "surface: [[hyp-2026-11-30-001]]" in (vault / "walks" / "log.md").read_text()
    (event,) = [json.loads(line) for line in (vault / "walks" / "surface.jsonl").read_text().splitlines()]
    assert event["hypothesis_id"] == "hyp-2026-11-30-001" and event["surfaced_at"].startswith("2026-11-30")


def test_item_10_three_ignores_mute_and_engagement_resets(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    store = PoolStore(vault)
    store.write_record("active", surface_record("hyp-2026-11-30-001", "A claim about feeding a sourdough starter slowly.",
                                            applies=["feeding a starter"]))

    def fb(outcome, *extra):
        shown = CliRunner().invoke(main, ["surface", str(vault), "--turn", "walk note", "--mode", "pull", "--json"])
        assert "hyp-2026-11-30-001" in shown.output
        result = CliRunner().invoke(main, ["feedback", "hyp-2026-11-30-001", outcome, str(vault), *extra])
        assert result.exit_code == 0, result.output

    fb("ignored")
    fb("ignored")
    fb("engaged")  # resets the count
    fb("ignored")
    fb("ignored")
    assert store.records("active")[0].data["status"] == "active"
    fb("ignored")
    (record,) = store.records("active")
    assert record.data["status"] == "muted" and record.data["ignored_in_a_row"] == 3
    log = (vault / "walks" / "log.md").read_text()
    assert "surface-ignored" in log and "surface-engaged" in log and "mute:" in log
    fb("rejected", "--turn", "no, feeding speed has nothing to do with queues")
    (rejected,) = store.records("rejected")
    assert "nothing to do with queues" in rejected.data["rejection_evidence"]


def test_feedback_counts_only_for_a_note_walker_showed(tmp_path):
    """Three "ignored" for a note never surfaced would mute it; one surfacing takes one outcome."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    store = PoolStore(vault)
    store.write_record("active", surface_record("hyp-2026-11-30-001", "A claim about feeding a sourdough starter slowly.",
                                            applies=["feeding a starter"]))
    never = CliRunner().invoke(main, ["feedback", "hyp-2026-11-30-001", "ignored", str(vault)])
    assert never.exit_code != 0 and "was not surfaced" in never.output
    CliRunner().invoke(main, ["surface", str(vault), "--turn", "walk note", "--mode", "pull"])
    assert CliRunner().invoke(main, ["feedback", "hyp-2026-11-30-001", "ignored", str(vault)]).exit_code == 0
    again = CliRunner().invoke(main, ["feedback", "hyp-2026-11-30-001", "ignored", str(vault)])
    assert again.exit_code != 0 and "was not surfaced since its last feedback" in again.output
    assert store.records("active")[0].data["ignored_in_a_row"] == 1


def test_on_a_walked_vault_exploratory_turns_surface_each_record_and_decisions_do_not(tmp_path):
    """Records from the walk engine: a turn written from a record's applies_when speaks when it wonders,
    not when it decides; its never_applies_when names the same notes and must not keep it back."""
    from walker.walk.runner import WalkOptions, run_walk

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    for seed in ("Dry Brining Meat", "Cache Warming"):  # an analogy, a missing link (and a duplicate: rewrite)
        run_walk(Workspace.open(vault), WalkOptions(now=NOW, random_seed=0, seed_note=seed))
    records = [r for r in PoolStore(vault).records("active") if r.data.get("impact") == "add"]
    assert len(records) >= 2
    for record in records:
        situation = record.data["applies_when"][0]
        wondering = surface(vault, f"Let's brainstorm a bit. {situation}", "auto")
        # A decision about the same notes. (Not the situation pasted after "we have to decide": a reader of that
        # turn hears twenty words of wondering and five of deciding, and so does the classifier.)
        subject = " or ".join(record.data["title"].split(" ↔ ")[:2])
        deciding = surface(vault, f"We have to decide today: {subject}? Which one should we keep?", "auto")
        assert [e["id"] for e in wondering.surfaced] == [record.id], (situation, wondering.silent_reason)
        assert deciding.surfaced == [] and "convergent" in deciding.silent_reason


def test_a_never_applies_when_still_keeps_a_record_back_in_its_own_situation(vault):
    turn = "I wonder about a production outage and a failing deploy: how fast to feed a sourdough starter?"
    result = surface(vault, turn, "auto")
    assert result.surfaced == [] and "never_applies_when" in result.silent_reason


def test_pull_returns_every_eligible_hypothesis_and_a_bare_pull_lists_the_pool(vault):
    topic = surface(vault, "any other angle on sourdough starter feeding, compost heat and cadences?", "pull")
    assert {"hyp-2026-11-30-001", "hyp-2026-11-30-002", "hyp-2026-11-30-003"} <= {e["id"] for e in topic.surfaced}
    bare = surface(vault, "散步看看")
    assert bare.mode == "pull" and len(bare.surfaced) == 3  # every active one, muted and rewrite included
    assert len(surface(vault, "any other angle?", limit=1).surfaced) == 1
    assert "hyp-2026-11-30-noteworthy-001" not in {e["id"] for e in bare.surfaced}


def test_a_surfaced_record_counts_as_used_and_settings_tune_the_gate(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    Workspace.open(vault).build_index()
    store = PoolStore(vault)
    store.write_record("active", dict(surface_record("hyp-2026-11-30-001", "A sourdough starter fed faster than it can "
                                                 "ferment and a queue fed faster than its consumer fail the same way.",
                                                 applies=["Someone wonders how fast to feed a sourdough starter."]),
                                      idle_walks=7))
    turn = "I've been wondering how fast to feed a sourdough starter."
    result = surface(vault, turn, "auto")
    assert [e["id"] for e in result.surfaced] == ["hyp-2026-11-30-001"]
    from walker.surface import log_surfaced
    log_surfaced(vault, result, NOW, "t1")
    assert PoolStore(vault).records("active")[0].data["idle_walks"] == 0  # used: it stops ageing
    assert "counts as use" in (vault / "walks" / "log.md").read_text()
    (vault / "walker.toml").write_text("[surface]\nmatch_auto = 0.99\n", encoding="utf-8")
    assert surface(vault, turn, "auto").surfaced == []  # a stricter gate from walker.toml


@pytest.mark.parametrize("turn", ["What else might cause this KeyError in compost.py:12? Any other angle?",
                                  "Traceback (most recent call last): walk note"])
def test_a_pull_on_a_task_by_its_shape_stays_silent(tmp_path, turn):
    """Error text, code or a file and line are a task even when they ask for another angle."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    PoolStore(vault).write_record("active", surface_record("hyp-2026-11-30-001", "A claim about compost going sour.",
                                                       applies=["compost going sour"]))
    result = surface(vault, turn, mode="pull")
    assert result.surfaced == [] and "task" in (result.silent_reason or "")
    assert surface(vault, "walk note", mode="pull").surfaced  # a plain pull still lists it


def test_a_record_that_quotes_what_a_note_says_of_a_person_never_surfaces_unasked(tmp_path):
    """A walk kept a record quoting "The new pills leave me foggy all afternoon"; it surfaced on an ordinary turn."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    PoolStore(vault).write_record("active", surface_record(
        "hyp-2026-11-30-001", "Daily says “the new pills leave me foggy all afternoon, and I sleep badly since”, and "
        "Compost adds “a heap left alone goes sour”.", applies=["thinking about afternoons in the garden"]))
    result = surface(vault, "I've been wondering about slow afternoons in the garden", mode="auto")
    assert result.surfaced == []


def test_a_task_worded_as_wondering_is_read_again_deeply_and_stays_silent(vault, model_on):
    turn = "Hmm, maybe the sourdough starter notes should be split in two, what do you reckon, could you sort that?"
    assert classify_turn(turn).kind == "exploratory"  # the fast reading alone would let walker speak
    result = surface(vault, turn)
    assert result.surfaced == [] and "executive" in result.silent_reason


def test_a_turn_is_read_deeply_only_when_a_record_would_be_shown_beside_it(vault, monkeypatch):
    import walker.surface as surfacing

    deep = []
    read = surfacing.classify_turn
    monkeypatch.setattr(surfacing, "classify_turn", lambda turn, deep_=False, **kw: (
        deep.append(kw.get("deep", deep_)), read(turn, **kw))[1])
    # It matches the muted record: nothing would be shown, so no seconds are spent on the model (and, for a Chinese
    # turn, on its dictionaries).
    result = surface(vault, "I keep wondering about cadences, tension and release in music.")
    assert result.surfaced == [] and result.scores["hyp-2026-11-30-003"] >= 0.3 and not any(deep)
    result = surface(vault, "I wonder how fast to feed a sourdough starter, and why it collapses after feeding.")
    assert [e["id"] for e in result.surfaced] == ["hyp-2026-11-30-001"] and any(deep)


def test_a_record_too_long_for_a_side_note_is_never_read_whole_on_a_turn(tmp_path):
    """A hand-edited record may hold 100 situations of 19,000 characters each (about 3 MB written); the hook reads every record on
    every turn, so such a record must cost no more than an ordinary one, and is never shown unasked."""
    import time

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    situation = "feeding a sourdough starter twice a day and watching it collapse " * 300
    PoolStore(vault).write_record("active", surface_record("hyp-2026-11-30-001", "A claim about starter feeding.",
                                                       applies=[situation[:19_000]] * 100))
    surface(vault, "What is the capital of France?")  # models and dictionaries loaded once
    started = time.perf_counter()
    result = surface(vault, "I've been wondering why my sourdough starter collapses after I feed it twice a day.")
    assert time.perf_counter() - started < 2.0
    assert result.surfaced == [] and "too long" in (result.silent_reason or "")
