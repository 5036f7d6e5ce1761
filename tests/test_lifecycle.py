"""Discharge, reject, archive, mute, expiry, supersede, reviews, check (protocol §13, §18 items 10–12)."""

import hashlib
import json
from datetime import datetime, timedelta, timezone

import pytest
import yaml
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, cli, copy_vault_files, edit_record, pool_records

from walker.cli import main
from walker.pool import lifecycle
from walker.pool.store import PoolStore
from walker.walk.candidate import Candidate, End, hypothesis_record, noteworthy_record

NOW = datetime(2026, 11, 30, 7, 0, tzinfo=timezone.utc)




def digest_outside(vault, *skip):
    return {p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(vault.rglob("*")) if p.is_file() and p.relative_to(vault).parts[0] not in skip}


@pytest.fixture
def walked(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    ids = []
    for seed in ("Autoscaler Oscillation", "Companion Planting", "Brining"):  # an analogy, a missing link, a duplicate
        result = cli("walk", vault, "--now", NOW.isoformat(), "--seed-note", seed, "--random-seed", "0", "--json")
        assert result.exit_code == 0, result.output
        ids += json.loads(result.output)["hypotheses"]
    # Written after the walks: a note of the vault's own changes what the walks weigh, and the missing link is close
    # to the score a walk keeps.
    (vault / "Inbox" / "Mine.md").write_text("# my own inbox note\n", encoding="utf-8")
    active = pool_records(vault, "active")
    return vault, [i for i in ids if i in active]  # a later walk may widen, and so supersede, an earlier pair




def test_discharge_spawns_a_conclusion_note_and_retires_the_record(walked):
    vault, ids = walked
    before = digest_outside(vault, "walks", "Inbox")
    inbox_before = digest_outside(vault / "Inbox")
    result = cli("discharge", ids[0], vault, "--source", "user statement on 2026-11-29",
                 "--statement", "Quorum sizes and read/write quorums are the same trade-off.",
                 "--evidence", "talked it through with the team", "--now", NOW.isoformat())
    assert result.exit_code == 0, result.output
    assert digest_outside(vault, "walks", "Inbox") == before  # nothing outside walks/ and the inbox changed
    inbox_after = digest_outside(vault / "Inbox")
    assert {k: v for k, v in inbox_after.items() if k in inbox_before} == inbox_before  # the inbox only gained
    (new_note,) = [vault / "Inbox" / k for k in inbox_after if k not in inbox_before]
    front = yaml.safe_load(new_note.read_text().split("---")[1])
    assert front["source"] == "user statement on 2026-11-29"
    assert front["inspired_by"] == f"[[{ids[0]}]]" and ids[0] not in front["source"]  # a link Obsidian opens
    assert front["corroborating_refs"] and all(r.startswith("[[") for r in front["corroborating_refs"])
    assert not any(r in front["source"] for r in front["corroborating_refs"])
    assert new_note.stem == "Quorum sizes and read/write quorums are the same trade-off".replace("/", " ")
    assert front["id"].startswith("conclusion-2026-11-30-")
    assert "Quorum sizes and read/write quorums" in new_note.read_text()
    record = pool_records(vault, "discharged")[ids[0]]
    assert record.data["status"] == "discharged" and new_note.stem in record.data["conclusion"]
    assert ids[0] not in pool_records(vault, "active")
    log = (vault / "walks" / "log.md").read_text()
    assert f"discharge: [[{ids[0]}]] → {front['id']} [[Inbox/{new_note.stem}" in log
    assert record.data["conclusion_id"] == front["id"]


def test_laundering_check_with_file_only_refs():
    from walker.pool.store import StoredRecord

    record = StoredRecord(None, "active", {"id": "hyp-2026-11-30-001", "supporting_refs": ["Garden/Soil.md"]}, "")
    assert lifecycle.laundering("Garden/Soil.md", record)
    assert lifecycle.laundering("the Soil note says so", record)
    assert lifecycle.laundering("user statement on 2026-11-29", record) is None


@pytest.mark.parametrize("source, why", [
    ("{id}", "names only the hypothesis or its refs"),
    ("{ref}", "names only the hypothesis or its refs"),
    ("the hypothesis and its refs", "names only the hypothesis or its refs"),
    ("per {ref} and {id}", "names only the hypothesis or its refs"),
    ("the docs say so", "vague appeal"),
    ("it's known", "vague appeal"),
    ("everyone in the team agrees", "vague appeal"),
    ("confirmed by walker's hypothesis", "vouching for itself"),
    ("the hypothesis held up on 2026-11-29", "vouching for itself"),
])
def test_laundering_a_guess_into_evidence_is_refused(walked, source, why):
    vault, ids = walked
    ref = pool_records(vault, "active")[ids[0]].data["supporting_refs"][0]
    before = digest_outside(vault)
    result = cli("discharge", ids[0], vault, "--source", source.format(id=ids[0], ref=ref), "--statement", "It holds.")
    assert result.exit_code == 2 and why in result.output
    assert "e.g. 'user statement on 2026-11-29'" in " ".join(result.output.split())  # says what is needed
    assert digest_outside(vault) == before


def test_a_dated_rereading_of_the_hypothesis_own_ref_is_no_evidence(walked):
    vault, ids = walked
    ref = pool_records(vault, "active")[ids[0]].data["supporting_refs"][0]
    result = cli("discharge", ids[0], vault, "--source", f"{ref}, read again on 2026-12-05", "--statement", "It holds.")
    assert result.exit_code == 2 and "one of the hypothesis's own refs" in " ".join(result.output.split())


@pytest.mark.parametrize("statement, why", [
    ("{claim}", "repeats the hypothesis's claim"),
    ("{claim_start}", "repeats the hypothesis's claim"),
    ("The two notes may describe the same thing.", "“may”"),
    ("Perhaps dead time is what makes both swing.", "“Perhaps”"),
    ("两篇笔记可能说的是同一件事。", "“可能”"),
])
def test_a_conclusion_is_the_reviewers_assertion_not_the_claim_copied_or_hedged(walked, statement, why):
    vault, ids = walked
    claim = pool_records(vault, "active")[ids[0]].data["claim"]
    text = statement.format(claim=claim, claim_start=" ".join(claim.split()[:14]))
    before = digest_outside(vault)
    result = cli("discharge", ids[0], vault, "--source", "user statement on 2026-11-29", "--statement", text)
    assert result.exit_code == 2 and why in " ".join(result.output.split()), result.output
    assert digest_outside(vault) == before


@pytest.mark.parametrize("statement", [
    "In May the heap stayed cold until I turned it twice a week; after that it held 55 °C.",
    "The thermometer could not keep up: it read 4 °C behind the air for twenty minutes.",
    "Moved the sensor into the sun and the vent stopped overshooting.",
    "把温度计挪到向阳处以后，通风口不再过冲了。",
    "It holds.",
    "Yes, they are the same thing.",
    "Confirmed: both notes describe one loop.",
    "They are connected; I linked them.",
    "两篇笔记说的是同一件事。",
    "Merged the shorter note into the longer one.",
])
def test_a_plain_finding_is_a_conclusion_even_with_a_word_a_hedge_uses(walked, statement):
    vault, ids = walked
    result = cli("discharge", ids[0], vault, "--source", "user statement on 2026-11-29", "--statement", statement,
                 "--now", NOW.isoformat())
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("source", ["user statement on 2026-11-29", "measured on 28 November 2026: the heap stayed cold",
                                    "https://example.org/compost-study", "my notes in [[Garden Plan 2026]]",
                                    "talked with Anna on Nov 3, 2026"])
def test_evidence_outside_the_hypothesis_discharges(walked, source):
    vault, ids = walked
    result = cli("discharge", ids[0], vault, "--source", source, "--statement", "It holds.", "--now", NOW.isoformat())
    assert result.exit_code == 0, result.output
    assert pool_records(vault, "discharged")[ids[0]].data["discharge_source"] == source


def test_reject_archive_mute_unmute_keep_folder_and_status_in_step(walked):
    vault, ids = walked
    assert cli("mute", ids[0], vault).exit_code == 0
    assert pool_records(vault, "active")[ids[0]].data["status"] == "muted"
    assert cli("unmute", ids[0], vault).exit_code == 0
    assert pool_records(vault, "active")[ids[0]].data["status"] == "active"
    assert cli("reject", ids[0], vault, "--evidence", "the two passages mean different things").exit_code == 0
    assert pool_records(vault, "rejected")[ids[0]].data["rejection_evidence"] == "the two passages mean different things"
    assert cli("archive", ids[1], vault).exit_code == 0
    assert pool_records(vault, "archived")[ids[1]].data["status"] == "archived"
    again = cli("reject", ids[0], vault, "--evidence", "the same reason, again")
    assert again.exit_code == 2 and "rejected" in again.output
    log = (vault / "walks" / "log.md").read_text()
    for event in ("mute:", "unmute:", "reject:", "archive:"):
        assert event in log
    assert cli("check", vault).exit_code == 0


def test_expiry_after_n_walks(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    (vault / "walker.toml").write_text("[walk]\nexpires_after_walks = 2\n", encoding="utf-8")
    first = json.loads(cli("walk", vault, "--now", NOW.isoformat(), "--seed-note", "Autoscaler Oscillation", "--json").output)["hypotheses"]
    assert first
    cli("walk", vault, "--now", (NOW + timedelta(days=7)).isoformat())
    assert all(pool_records(vault, "active")[i].data["idle_walks"] == 1 for i in first)
    cli("walk", vault, "--now", (NOW + timedelta(days=14)).isoformat())
    archived = pool_records(vault, "archived")
    assert set(first) <= set(archived)
    assert all("expired after 2 walks" in archived[i].data["archive_reason"] for i in first)
    assert "expired after 2 walks" in (vault / "walks" / "log.md").read_text()


def candidate(refs, claim):
    return Candidate(claim=claim, supporting_refs=tuple(refs), confidence="low", impact="add",
                     impact_reason="not linked yet; a link would put the two passages side by side in both notes", applies_when=("When working on soil.",),
                     never_applies_when=("During an outage.",), disconfirm_if=("The passages disagree about soil.",))


RADIATOR_VALVE = """---
tags: [house]
created: 2026-12-08
---
# Radiator Valve

The thermostatic valve on the bedroom radiator fought me all last winter. Its wax capsule is slow to heat through, so \
the valve stayed open while the room was already warm: dead time between the radiator heating and the valve reacting. \
By the time it closed, the room had overshot to 25 °C, and the valve then stayed shut long after the room cooled, so the \
bedroom swung from too hot to too cold in a slow oscillation every night. ^valve-lag

Moving the valve's sensor off the hot pipe, onto the far wall, settled it.
"""


def test_a_later_walk_that_finds_the_pattern_again_supersedes_the_pair(tmp_path):
    """Real walks: a proofing box and an autoscaler both oscillate from dead time; then a note written since, on a
    radiator valve that does the same, widens the pair."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    first = json.loads(cli("walk", vault, "--now", "2026-12-04T07:50", "--seed-note", "Autoscaler Oscillation",
                           "--json").output)
    (pair_id,) = first["hypotheses"]
    pair = pool_records(vault, "active")[pair_id]
    (vault / "House").mkdir()
    (vault / "House" / "Radiator Valve.md").write_text(RADIATOR_VALVE, encoding="utf-8")
    second = json.loads(cli("walk", vault, "--now", "2026-12-11T07:50", "--seed-note", "Radiator Valve", "--json").output)
    (wide_id,) = second["hypotheses"]
    wide = pool_records(vault, "active")[wide_id]
    assert set(pair.data["supporting_refs"]) < set(wide.data["supporting_refs"])
    assert "House/Radiator Valve.md#^valve-lag" in wide.data["supporting_refs"]
    assert "three places of one pattern" in wide.data["claim"] and pair_id in wide.data["impact_reason"]
    old = pool_records(vault, "archived")[pair_id]
    assert old.data["status"] == "superseded" and old.data["superseded_by"] == wide_id
    assert f"archive: [[{pair_id}]] superseded by [[{wide_id}]]" in (vault / "walks" / "log.md").read_text()
    picture = (vault / "walks" / "reports" / f"{second['walk_id']}.svg").read_text()
    assert picture.count('class="kept"') >= 1 and '>1</text>' in picture  # the widened bridge is drawn, numbered
    assert cli("check", vault).exit_code == 0


def test_supersede_archives_the_narrower_hypothesis(tmp_path):
    store = PoolStore(tmp_path)
    store.ensure()
    claim = "Compost heat and soil structure may be two views of one pattern around aerobic life."
    for record_id, refs in (("hyp-2026-11-01-001", ["A.md#x", "B.md#y"]), ("hyp-2026-11-02-001", ["A.md#x", "B.md#y", "C.md#z"]),
                            ("hyp-2026-11-02-002", ["A.md#x", "D.md#w", "B.md#y"])):
        store.write_record("active", hypothesis_record(candidate(refs, claim), id=record_id, created="2026-11-02", seed="s",
                                                       walk_id="w", engine="e", expires_after_walks=12))
    outcome = lifecycle.supersede(store, ["hyp-2026-11-02-001"], NOW, lambda old, new: old == new)
    (old,) = PoolStore(tmp_path).records("archived")
    assert old.id == "hyp-2026-11-01-001" and old.data["status"] == "superseded"
    assert old.data["superseded_by"] == "hyp-2026-11-02-001"
    assert outcome.events == ["archive: [[hyp-2026-11-01-001]] superseded by [[hyp-2026-11-02-001]]"]
    disagree = lifecycle.supersede(store, ["hyp-2026-11-02-002"], NOW, lambda old, new: False)
    assert disagree.events == []




def test_reviews_made_in_the_vault(walked):
    vault, ids = walked
    active = pool_records(vault, "active")
    edit_record(active[ids[0]].path, review="confirm", review_source="user statement on 2026-11-30",
         review_statement="It holds for our cluster.")
    edit_record(active[ids[1]].path, review="confirm", review_source="user statement on 2026-11-30")  # incomplete
    edit_record(active[ids[2]].path, review="reject", review_evidence="different meanings of the word")
    result = cli("review", vault, "--now", NOW.isoformat(), "--json")
    assert result.exit_code == 1, result.output  # the complete edits are applied; the incomplete one is an error
    data = json.loads(result.output)
    assert ids[0] in pool_records(vault, "discharged") and ids[2] in pool_records(vault, "rejected")
    assert ids[1] in pool_records(vault, "active")  # left as it is
    assert any(ids[1] in p and "review_statement" in p for p in data["problems"])


def test_noteworthy_outcomes(walked):
    vault, _ = walked
    store = PoolStore(vault)
    bridge = (End("Kitchen/Sourdough Starter.md"), End("Systems/Backpressure.md"))
    for n in (1, 2, 3):
        entry = noteworthy_record(
            Candidate(claim="Backpressure may state a rule that holds well beyond its own domain: “Never accept work "
                            "faster than you can finish it.”", supporting_refs=("Systems/Backpressure.md#^never-faster",),
                      confidence="low", impact="add", impact_reason="", applies_when=(), never_applies_when=(),
                      disconfirm_if=(), bridge=bridge, title=f"entry {n}"),
            id=f"hyp-2026-11-30-noteworthy-{n:03d}", created="2026-11-30", seed="s", walk_id="2026-11-30-001",
            engine="extractive", rejection_reason="single-source", flagged_value_reason="joins two folders")
        store.write_record("noteworthy", entry)
    edit_record(vault / "walks" / "noteworthy" / "hyp-2026-11-30-noteworthy-001.md", human_review_outcome="archive")
    edit_record(vault / "walks" / "noteworthy" / "hyp-2026-11-30-noteworthy-002.md", human_review_outcome="maybe")
    data = json.loads(cli("review", vault, "--now", NOW.isoformat(), "--json").output)
    archived = pool_records(vault, "archived")
    assert archived["hyp-2026-11-30-noteworthy-001"].data["status"] == "archived"
    assert "hyp-2026-11-30-noteworthy-002" in pool_records(vault, "noteworthy")
    assert any("maybe" in p for p in data["problems"])
    checked = cli("check", vault)
    assert checked.exit_code == 1 and "noteworthy-002.md: human_review_outcome must be one of" in checked.output


def noteworthy_entry(vault, n, claim, ref):
    entry = noteworthy_record(
        Candidate(claim=claim, supporting_refs=(ref,), confidence="low", impact="add", impact_reason="",
                  applies_when=(), never_applies_when=(), disconfirm_if=(), bridge=(End(ref.partition("#")[0]),),
                  title=f"entry {n}"),
        id=f"hyp-2026-11-30-noteworthy-{n:03d}", created="2026-11-30", seed="s", walk_id="2026-11-30-001",
        engine="extractive", rejection_reason="single-source", flagged_value_reason="may cross domains")
    PoolStore(vault).write_record("noteworthy", entry)
    edit_record(vault / "walks" / "noteworthy" / f"{entry['id']}.md", human_review_outcome="rewrite")
    return entry["id"]


def test_a_rewrite_walks_from_the_entrys_refs_and_keeps_only_what_cites_them(tmp_path):
    """Real walks: the autoscaler entry is rewritten into the bridge that cites its passage; the salt entry's
    walk keeps only a bridge between the two brining notes, so that entry is not archived as rewritten into it."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    autoscaler = noteworthy_entry(vault, 1, "Autoscaler Oscillation may state a rule beyond its own domain: “Averaging "
                                  "over five minutes builds dead time into the loop, since the metric reports how busy "
                                  "the fleet was minutes ago, not now.”", "Systems/Autoscaler Oscillation.md#What went wrong")
    salt = noteworthy_entry(vault, 2, "Salt may state a rule beyond its own domain: “Salt meat well ahead: a dry brine "
                            "of 1% by weight, a day in the fridge.”", "Kitchen/Salt.md#^dry-brine")
    data = json.loads(cli("review", vault, "--now", NOW.isoformat(), "--json").output)
    rewritten = pool_records(vault, "archived")[autoscaler].data
    (survivor,) = rewritten["rewritten_as"]
    assert "Systems/Autoscaler Oscillation.md#What went wrong" in pool_records(vault, "active")[survivor].data["supporting_refs"]
    assert salt in pool_records(vault, "noteworthy")
    assert any(salt in p and "the rewrite found nothing: the walk kept 1 hypothesis" in p
               and "none citing the entry's refs" in p for p in data["problems"]), data["problems"]
    runs = [yaml.safe_load(p.read_text()) for p in sorted((vault / "walks" / "runs").glob("*.yaml"))]
    assert [(r["seed"]["path"], r["seed"]["source"]) for r in runs] == [
        ("Systems/Autoscaler Oscillation.md", "rewrite"), ("Kitchen/Salt.md", "rewrite")]


def test_check_finds_and_repairs(walked):
    vault, ids = walked
    assert cli("check", vault).exit_code == 0
    active = pool_records(vault, "active")
    (vault / "walks" / "archived" / f"{ids[0]}.md").write_bytes(active[ids[0]].path.read_bytes())  # half-finished move
    text = active[ids[1]].path.read_text().replace("status: active", "status: rejected")
    active[ids[1]].path.write_text(text)  # folder and status disagree
    (vault / "walks" / "active" / ".hyp-x.md.123.tmp").write_text("half")
    result = cli("check", vault, "--json")
    assert result.exit_code == 1
    kinds = {p["kind"] for p in json.loads(result.output)["problems"]}
    assert {"duplicate", "folder", "temporary"} <= kinds
    assert cli("check", vault, "--repair").exit_code == 0
    assert ids[1] in pool_records(vault, "rejected") and ids[0] in pool_records(vault, "active")


def test_check_mends_a_discharge_cut_short(walked, monkeypatch):
    vault, ids = walked

    def cut_short(*args, **kwargs):
        raise KeyboardInterrupt  # the process dies after the note is written, before the record moves
    monkeypatch.setattr(lifecycle, "finish_discharge", cut_short)
    with pytest.raises(KeyboardInterrupt):
        lifecycle.discharge(PoolStore(vault), "Inbox", ids[0], source="user statement on 2026-11-30",
                            statement="It holds.", now=NOW)
    monkeypatch.undo()
    result = cli("check", vault)
    assert result.exit_code == 1 and "half-discharged" in result.output
    repaired = cli("check", vault, "--repair")
    assert repaired.exit_code == 0 and ids[0] in pool_records(vault, "discharged")
    assert f"mended: discharge: {ids[0]} → conclusion-2026-11-30-001 It holds" in repaired.output  # in plain words
    assert "1 mended; the pool is healthy" in repaired.output and "[[" not in repaired.output


def test_a_conclusion_is_found_by_its_id_wherever_it_moved(walked):
    """Record and log point at the conclusion by its id; a rename outside Obsidian is found and mended."""
    vault, ids = walked
    assert cli("discharge", ids[0], vault, "--source", "user statement on 2026-11-29", "--statement",
               "Retries need a budget.", "--now", NOW.isoformat()).exit_code == 0
    record = pool_records(vault, "discharged")[ids[0]]
    conclusion_id = record.data["conclusion_id"]
    assert conclusion_id.startswith("conclusion-2026-11-30-")
    assert f"[[{ids[0]}]] → {conclusion_id} [[Inbox/Retries need a budget" in (vault / "walks" / "log.md").read_text()
    (vault / "Systems" / "Settled").mkdir()
    (vault / "Inbox" / "Retries need a budget.md").rename(vault / "Systems" / "Settled" / "Retry budgets.md")
    result = cli("check", vault)
    assert result.exit_code == 1 and f"{conclusion_id} is now Systems/Settled/Retry budgets.md" in result.output
    assert cli("check", vault, "--repair").exit_code == 0
    moved = pool_records(vault, "discharged")[ids[0]]
    assert moved.data["conclusion"] == "[[Systems/Settled/Retry budgets|Retry budgets]]"
    assert moved.data["conclusion_id"] == conclusion_id
    (vault / "Systems" / "Settled" / "Retry budgets.md").unlink()
    lost = cli("check", vault)
    assert lost.exit_code == 1 and f"{conclusion_id} is nowhere in the vault" in lost.output


def test_check_names_dead_refs_and_reports_pointing_nowhere(walked):
    vault, ids = walked
    record = pool_records(vault, "active")[ids[0]]
    cited = record.data["supporting_refs"][0].partition("#")[0]
    (vault / cited).unlink()
    (vault / "walks" / "reports" / "2026-11-30-001.md").write_text("see [[hyp-2026-01-01-999]]\n")
    result = cli("check", vault, "--json")
    kinds = {p["kind"] for p in json.loads(result.output)["problems"]}
    assert result.exit_code == 1 and {"dead-ref", "missing-record"} <= kinds


def test_leave_keeps_the_entry_and_run_archives_records_whose_refs_died(walked):
    vault, ids = walked
    store = PoolStore(vault)
    entry = noteworthy_record(
        Candidate(claim="Backpressure may state a rule that holds well beyond its own domain.",
                  supporting_refs=("Systems/Backpressure.md#^never-faster",), confidence="low", impact="add",
                  impact_reason="", applies_when=(), never_applies_when=(), disconfirm_if=(), title="left"),
        id="hyp-2026-11-30-noteworthy-009", created="2026-11-30", seed="s", walk_id="w", engine="e",
        rejection_reason="single-source", flagged_value_reason="joins two folders")
    store.write_record("noteworthy", dict(entry, human_review_outcome="leave"))
    record = pool_records(vault, "active")[ids[0]]
    (vault / record.data["supporting_refs"][0].partition("#")[0]).unlink()
    result = CliRunner().invoke(main, ["run", str(vault), "--cadence", "daily", "--now", NOW.isoformat(), "--json"])
    assert result.exit_code == 0, result.output
    assert "hyp-2026-11-30-noteworthy-009" in pool_records(vault, "noteworthy")
    archived = pool_records(vault, "archived")[ids[0]]
    assert "refs no longer resolve" in archived.data["archive_reason"]


def test_the_inbox_a_vault_already_has_is_used(tmp_path):
    from walker.config import load_settings
    from walker.inbox import note_title

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    (vault / "06 - Inbox").mkdir()
    assert load_settings(vault).inbox_folder == "06 - Inbox"
    assert cli("init", vault).exit_code == 0
    assert 'inbox_folder = "06 - Inbox"' in (vault / "walker.toml").read_text()
    long = "The Google Effect is the argument for a shared memory that nobody owns and everybody reads daily. More."
    assert note_title(long) == "The Google Effect is the argument for a shared memory that"  # cut at a word, no "…"
    assert note_title("Short and whole. Then more.") == "Short and whole"


def test_an_app_json_that_points_outside_the_vault_is_not_the_inbox(tmp_path):
    import json as jsonlib

    from walker.config import find_inbox

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    (vault / ".obsidian").mkdir(exist_ok=True)
    (tmp_path / "elsewhere").mkdir()
    (vault / "Away").symlink_to(tmp_path / "elsewhere")
    for folder in ("../elsewhere", "Away", ".trash"):
        (vault / ".obsidian" / "app.json").write_text(jsonlib.dumps({"newFileLocation": "folder", "newFileFolderPath": folder}))
        assert find_inbox(vault) in (None, "Inbox"), folder
    (vault / "Notes In").mkdir()
    (vault / ".obsidian" / "app.json").write_text(jsonlib.dumps({"newFileLocation": "folder", "newFileFolderPath": "Notes In"}))
    assert find_inbox(vault) == "Notes In"


@pytest.mark.parametrize("evidence", ["x", "no", "wrong!", "不对"])
def test_a_rejection_whose_evidence_says_nothing_is_refused(walked, evidence):
    vault, (record_id, *_) = walked
    result = cli("reject", record_id, vault, "--evidence", evidence)
    assert result.exit_code == 2 and "says too little" in result.output
    assert record_id in pool_records(vault, "active")

