"""The pool store: ids, folder and status agreement, atomic writes, round-trip edits, the lock."""

import pytest

from walker.pool.records import RecordError
from walker.pool.store import PoolBusy, PoolStore, read_record
from walker.walk.candidate import Candidate, End, hypothesis_record, noteworthy_record

CANDIDATE = Candidate(
    claim="Two notes may share a pattern.", supporting_refs=("A.md#^x", "B.md#Y"), confidence="low", impact="add",
    impact_reason="they are not linked yet, so this adds", applies_when=("When someone is working on A.",),
    never_applies_when=("During an outage.",), disconfirm_if=("The passages disagree about the word.",),
    bridge=(End("A.md"), End("B.md")), title="A ↔ B",
)


def record(id):
    return hypothesis_record(CANDIDATE, id=id, created="2026-11-30", seed="s", walk_id="2026-11-30-001",
                             engine="extractive", expires_after_walks=12)


def test_ids_are_max_plus_one_per_namespace_per_day_across_folders(tmp_path):
    store = PoolStore(tmp_path)
    store.ensure()
    store.write_record("active", record("hyp-2026-11-30-001"))
    archived = dict(record("hyp-2026-11-30-007"), status="archived")
    store.write_record("archived", archived)
    store.write_record("noteworthy", noteworthy_record(CANDIDATE, id="hyp-2026-11-30-noteworthy-002", created="2026-11-30",
                                                       seed="s", walk_id="w", engine="e", rejection_reason="single-source",
                                                       flagged_value_reason="why"))
    assert store.next_hypothesis_id("2026-11-30") == "hyp-2026-11-30-008"
    assert store.next_hypothesis_id("2026-12-01") == "hyp-2026-12-01-001"
    assert store.next_noteworthy_id("2026-11-30") == "hyp-2026-11-30-noteworthy-003"
    assert store.next_hypothesis_id("2026-11-30", {"hyp-2026-11-30-008"}) == "hyp-2026-11-30-009"


def test_folder_and_status_must_agree(tmp_path):
    store = PoolStore(tmp_path)
    with pytest.raises(RecordError):
        store.write_record("archived", record("hyp-2026-11-30-001"))
    with pytest.raises(RecordError):
        store.write_record("active", dict(record("hyp-2026-11-30-001"), confidence="certain"))


def test_rewrite_keeps_reviewer_edits_comments_and_notes(tmp_path):
    store = PoolStore(tmp_path)
    path = store.write_record("active", record("hyp-2026-11-30-001"))
    text = path.read_text()
    text = text.replace("confidence: low\n", "confidence: low  # reviewer: fair\nmy_tag: keep me\n")
    text += "I think this is about pacing.\n"
    path.write_text(text)
    stored = read_record(path, "active")
    moved = store.update_record(stored, {"status": "archived"}, folder="archived")
    assert not path.exists() and moved.parent.name == "archived"
    after = moved.read_text()
    assert "# reviewer: fair" in after and "my_tag: keep me" in after
    assert after.index("id:") < after.index("claim:") < after.index("my_tag:")
    assert after.endswith("## Reviewer notes\n\nI think this is about pacing.\n")
    assert "status **archived**" in after
    assert read_record(moved, "archived").data["status"] == "archived"


def test_writes_leave_no_temporary_files(tmp_path):
    store = PoolStore(tmp_path)
    store.ensure()
    store.write_record("active", record("hyp-2026-11-30-001"))
    assert not [p for p in (tmp_path / "walks").rglob("*.tmp")]


def test_lock_refuses_a_second_writer(tmp_path):
    store = PoolStore(tmp_path)
    with store.lock():
        with pytest.raises(PoolBusy):
            with PoolStore(tmp_path).lock():
                pass
    with store.lock():
        pass


def test_log_is_append_only(tmp_path):
    store = PoolStore(tmp_path)
    store.ensure()
    store.log("first", ["walk-start: a"])
    before = (tmp_path / "walks" / "log.md").read_text()
    store.log("second", ["walk-start: b"])
    assert (tmp_path / "walks" / "log.md").read_text().startswith(before)


def test_ref_digests_survive_a_round_trip_rewrite(tmp_path):
    from walker.pool.lifecycle import digest

    store = PoolStore(tmp_path)
    data = dict(record("hyp-2026-11-30-001"), ref_digests=[digest("some text that hashes to digits"), ""])
    path = store.write_record("active", data)
    store.update_record(read_record(path, "active"), {"idle_walks": 1})
    again = read_record(path, "active").data["ref_digests"]
    assert again == data["ref_digests"] and all(isinstance(d, str) for d in again)


def test_record_properties_are_flat_for_obsidian(tmp_path):
    candidate = Candidate(
        claim="c", supporting_refs=("A.md#^x", "B.md#Y"), confidence="low", impact="add", impact_reason="r",
        applies_when=("a",), never_applies_when=("n",), disconfirm_if=("d",),
        bridge=(End("B.md", group="far", ref="B.md#Y", passage="Work is taken no faster than it is done.", terms=("faster",)),
                End("A.md", group="seed", ref="A.md#^x", passage="A starter fed faster turns soupy.", terms=("faster",))),
        grounding={"rare_terms": ["faster"], "via": "C.md"})
    data = hypothesis_record(candidate, id="hyp-2026-11-30-001", created="2026-11-30", seed="s", walk_id="w",
                             engine="e", expires_after_walks=12)
    assert data["bridge"] == ["far: B.md#Y", "seed: A.md#^x"] and data["thread"] == ["faster"]
    # One passage per supporting ref, in the refs' order (not the bridge's), right after the refs.
    assert data["passages"] == ["A starter fed faster turns soupy.", "Work is taken no faster than it is done."]
    assert list(data)[list(data).index("supporting_refs") + 1] == "passages"
    assert data["via"] == "[[C|C]]"
    for value in data.values():
        assert not isinstance(value, dict) and not (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value))


def test_records_are_read_once_into_types_and_hand_edits_never_crash_the_reader():
    from walker.pool.records import Hypothesis, NoteworthyEntry, read_properties

    written = {"id": "hyp-2026-12-01-001", "status": "active", "claim": "A and B.", "kind": "analogy",
               "supporting_refs": ["A.md#^x", "B.md#^y"], "confidence": "low", "impact": "add",
               "applies_when": ["Working on A."], "expires_after_walks": 12, "idle_walks": 3,
               "review": " Confirm ", "review_evidence": "seen on 2026-12-01", "thread": ["warm", "peak"]}
    hypothesis = read_properties(written)
    assert isinstance(hypothesis, Hypothesis) and not hypothesis.noteworthy
    assert hypothesis.supporting_refs == ("A.md#^x", "B.md#^y") and hypothesis.idle_walks == 3
    assert hypothesis.review == "confirm" and hypothesis.review_evidence == ("seen on 2026-12-01",)
    assert hypothesis.as_dict() == written  # every property as written, for --json and the record page

    edited = read_properties({"id": "hyp-2026-12-01-002", "supporting_refs": "A.md", "idle_walks": "many",
                              "expires_after_walks": None, "applies_when": None, "claim": None})
    assert isinstance(edited, Hypothesis)
    assert edited.supporting_refs == ("A.md",) and edited.idle_walks == 0 and edited.expires_after_walks == 12
    assert edited.applies_when == () and edited.claim == "" and edited.status == ""

    entry = read_properties({"id": "hyp-2026-12-01-noteworthy-001", "status": "archived",
                             "human_review_outcome": "Rewrite", "rejection_reason": "single source"})
    assert isinstance(entry, NoteworthyEntry) and entry.noteworthy and entry.human_review_outcome == "rewrite"


def test_a_record_keeps_its_passages_one_per_ref():
    """The passages a walk quoted are read as data; an older record without them, or a hand edit that changed the
    refs, reads as none (which passage was whose is lost), never as a misaligned quote."""
    from walker.pool.records import read_properties, validate

    refs = ["A.md#^x", "B.md#^y"]
    written = read_properties({"id": "hyp-2026-12-01-001", "supporting_refs": refs, "passages": ["one", "two"]})
    assert written.passages == ("one", "two")
    assert read_properties({"id": "hyp-2026-12-01-001", "supporting_refs": refs}).passages == ()
    added = read_properties({"id": "hyp-2026-12-01-001", "supporting_refs": [*refs, "C.md"], "passages": ["one", "two"]})
    assert added.passages == ()
    record = dict(hypothesis_record(CANDIDATE, id="hyp-2026-12-01-001", created="2026-12-01", seed="s", walk_id="w",
                                    engine="e", expires_after_walks=12), passages={"a": "map"})
    assert any(problem.startswith("passages ") for problem in validate(record))  # a list of text, as Obsidian shows
