"""Issue 28, the pool's part: a hand edit, a special file, a full disk or a planted note under walks/
and in the inbox is a finding for `walker check`, never a crash, a hang or a trusted fact; every other
command goes on with the records it can read."""

import errno
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files

from walker.cli import main
from walker.pool import lifecycle
from walker.pool.store import PoolStore

NOW = datetime(2026, 12, 3, 7, 50, tzinfo=UTC)
LATER = "2026-12-10T07:00:00+00:00"  # a week on: the weekly run is due
WALKER = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")
SOURCE = "my own test on 2026-12-01"


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "failed unexpectedly" not in result.output, result.output
    return result


MEASURE = ("import resource, subprocess, sys\n"
           "code = subprocess.run(sys.argv[1:]).returncode\n"
           "sys.stderr.write(f'\\npeak-kb {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}')\n"
           "sys.exit(code)\n")


def run(*args, timeout=60):
    """A walker command in its own process, bounded in time (an old walker hung here) and in memory (an old
    walker read /dev/zero until the machine ran out): (result, its peak memory in MB)."""
    def cap_memory():
        import resource
        resource.setrlimit(resource.RLIMIT_DATA, (1500 * 1024 * 1024, 1500 * 1024 * 1024))

    result = subprocess.run([sys.executable, "-c", MEASURE, WALKER, *map(str, args)], capture_output=True, text=True,
                            timeout=timeout, preexec_fn=cap_memory, env={**os.environ, "WALKER_LOCK_WAIT": "0.3"})
    stderr, _, peak = result.stderr.rpartition("\npeak-kb ")
    result.stderr = stderr
    assert "Traceback" not in stderr and "failed unexpectedly" not in stderr, stderr
    return result, int(peak) / 1024


@pytest.fixture
def walked(tmp_path):
    """A vault after two walks: two active records, one to break and one that must go on working."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    ids = []
    for seed in ("Autoscaler Oscillation", "Companion Planting"):  # an analogy and a missing link: one record each
        result = cli("walk", vault, "--now", NOW.isoformat(), "--seed-note", seed, "--json")
        assert result.exit_code == 0, result.output
        ids += json.loads(result.output)["hypotheses"]
    assert len(ids) >= 2
    return vault, ids


def record_path(vault: Path, record_id: str, folder: str = "active") -> Path:
    return vault / "walks" / folder / f"{record_id}.md"


def edit(vault: Path, record_id: str, **changes: str):
    """What a reviewer does in Obsidian's Properties panel or a text editor: set properties by hand, each
    given as the YAML text written after ``key:``."""
    path = record_path(vault, record_id)
    _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
    data = {k: v for k, v in yaml.safe_load(front).items() if k not in changes}
    front = yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "".join(f"{k}: {v}\n" for k, v in changes.items())
    path.write_text("---\n" + front + "---\n" + body, encoding="utf-8")


def problems(vault: Path) -> tuple[int, list[dict]]:
    result = cli("check", vault, "--json")
    return result.exit_code, json.loads(result.stdout)["problems"]


def log_text(vault: Path) -> str:
    return (vault / "walks" / "log.md").read_text(encoding="utf-8")


# --- hand edits: a property of the wrong shape ----------------------------------------------------

HAND_EDITS = {  # case: (property, what the hand edit wrote after it)
    "number-for-refs": ("supporting_refs", "5"),  # the issue's example
    "map-for-a-list": ("applies_when", "{when: always}"),
    "list-for-text": ("claim", "[one, two]"),
    "nested-list": ("never_applies_when", "[[deep], {a: 1}]"),
    "text-for-a-number": ("idle_walks", "many"),
    "map-for-a-number": ("expires_after_walks", "{n: 3}"),
    "nul-in-text": ("title", '"Retries\\0and backoff"'),
    "escape-in-a-list": ("thread", '[warm, "\\e[2J"]'),
    "huge-text": ("why_it_matters", "word " * 60_000),
    "nested-deep": ("my_own", "[" * 600 + "]" * 600),  # a reviewer's own property, 600 deep
}


@pytest.mark.parametrize("case", list(HAND_EDITS))
def test_a_property_of_the_wrong_shape_is_a_finding_and_every_other_command_goes_on(walked, case, tmp_path):
    vault, (broken, fine, *_) = walked
    field, value = HAND_EDITS[case]
    edit(vault, broken, **{field: value})

    code, found = problems(vault)
    assert code == 1 and any(broken in p["path"] and field in p["message"] for p in found), found

    listed = cli("pool", "list", vault, "--json")
    assert listed.exit_code == 0
    ids = [r["id"] for r in json.loads(listed.stdout)["records"]]
    assert fine in ids and broken not in ids and listed.stderr.count(broken) == 1

    surfaced = cli("surface", vault, "--turn", "walk note: show me every walk note", "--json")
    assert surfaced.exit_code == 0, surfaced.output
    assert cli("site", "build", vault, "-o", tmp_path / "site").exit_code == 0

    shown = cli("pool", "show", broken, vault)
    assert shown.exit_code == 2 and field in shown.output and "walker check" in shown.output
    rejected = cli("reject", broken, vault, "--evidence", "measured on 2026-12-01: it fails")
    assert rejected.exit_code == 2 and field in rejected.output
    assert record_path(vault, broken).is_file()  # left exactly where it was, for the reviewer to mend


@pytest.mark.parametrize("case", ["number-for-refs", "nul-in-text"])
def test_the_weekly_run_walks_past_a_broken_record(walked, case):
    vault, (broken, fine, *_) = walked
    field, value = HAND_EDITS[case]
    edit(vault, broken, **{field: value})
    before = record_path(vault, broken).read_bytes()
    result = cli("run", vault, "--cadence", "weekly", "--now", LATER, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["walks"]) == 3  # the weekly job did its work
    assert sum(broken in p for p in report["problems"]) == 1  # and said once what it left alone
    assert record_path(vault, broken).read_bytes() == before  # never rewritten while it cannot be read


def test_a_record_whose_claim_was_deleted_by_hand_is_a_finding_and_the_run_goes_on(walked):
    vault, (broken, *_) = walked
    path = record_path(vault, broken)
    _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
    data = {k: v for k, v in yaml.safe_load(front).items() if k not in ("claim", "title")}
    path.write_text("---\n" + yaml.safe_dump(data, sort_keys=False) + "---\n" + body, encoding="utf-8")
    result = cli("run", vault, "--cadence", "weekly", "--now", LATER, "--json")
    assert result.exit_code == 0 and len(json.loads(result.stdout)["walks"]) == 3
    code, found = problems(vault)
    assert code == 1 and any(broken in p["path"] and "missing claim" in p["message"] for p in found)


def test_a_nul_in_review_statement_set_in_obsidian_leaves_the_run_going(walked):
    """The issue's example: a confirm set in Obsidian whose statement holds a NUL byte."""
    vault, (broken, fine, *_) = walked
    edit(vault, broken, review="confirm", review_source=f'"{SOURCE}"', review_statement='"It \\0holds."')
    result = cli("run", vault, "--cadence", "weekly", "--now", LATER, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["walks"]) == 3 and any(broken in p and "review_statement" in p for p in report["problems"])
    assert not list((vault / "Inbox").glob("*.md"))  # nothing was discharged from a statement walker cannot read
    reviewed = cli("review", vault)
    assert reviewed.exit_code == 1 and broken in reviewed.output and "review_statement" in reviewed.output


def test_a_control_character_in_a_confirm_from_the_command_line_is_refused_before_anything_is_written(walked):
    vault, (record_id, *_) = walked
    before = record_path(vault, record_id).read_bytes()
    result = cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It\x1b[2J holds.")
    assert result.exit_code == 2 and "control character" in result.output
    assert record_path(vault, record_id).read_bytes() == before and not list((vault / "Inbox").glob("*.md"))


# --- text from users is never a format string ------------------------------------------------------


def test_braces_in_reject_evidence_are_logged_as_written(walked):
    vault, (record_id, *_) = walked
    result = cli("reject", record_id, vault, "--evidence", "measured on 2026-12-01: {} and {0} failed")
    assert result.exit_code == 0, result.output
    assert f"reject: [[{record_id}]] evidence: measured on 2026-12-01: {{}} and {{0}} failed" in log_text(vault)
    assert record_path(vault, record_id, "rejected").is_file()
    assert cli("check", vault).exit_code == 0


def test_braces_in_an_archive_reason_and_a_rejecting_turn_are_kept(walked):
    vault, (first, second, *_) = walked
    assert cli("archive", first, vault, "--reason", "not now {id} {").exit_code == 0
    assert f"archive: [[{first}]] (not now {{id}} {{)" in log_text(vault)
    cli("surface", vault, "--turn", "walk note", "--mode", "pull")  # feedback answers a note walker showed
    result = cli("feedback", second, "rejected", vault, "--turn", "no: {self.__class__} is {{wrong}}")
    assert result.exit_code == 0, result.output
    assert "{self.__class__} is {{wrong}}" in log_text(vault)
    assert record_path(vault, second, "rejected").is_file()


def test_a_line_break_in_evidence_cannot_write_a_log_line_of_its_own(walked):
    vault, (first, second, *_) = walked
    forged = f"measured on 2026-12-01\n- discharge: [[{second}]] → conclusion-2026-12-01-001 (source: me)"
    assert cli("reject", first, vault, "--evidence", forged).exit_code == 0
    assert f"\n- discharge: [[{second}]]" not in log_text(vault)
    assert f"evidence: measured on 2026-12-01 - discharge: [[{second}]]" in log_text(vault)


# --- special files under walks/ -----------------------------------------------------------------------


def test_a_fifo_record_hangs_nothing(walked):
    vault, (record_id, *_) = walked
    os.mkfifo(vault / "walks" / "active" / "hyp-2026-12-03-099.md")
    listed, _ = run("pool", "list", vault, timeout=30)
    assert listed.returncode == 0 and record_id in listed.stdout
    assert listed.stderr.count("hyp-2026-12-03-099") == 1 and "FIFO" in listed.stderr
    surfaced, _ = run("surface", vault, "--turn", "walk note: show me every walk note", timeout=30)
    assert surfaced.returncode == 0
    checked, _ = run("check", vault, "--json", timeout=30)
    assert checked.returncode == 1
    assert any("hyp-2026-12-03-099" in p["path"] and "FIFO" in p["message"]
               for p in json.loads(checked.stdout)["problems"])


def test_a_fifo_in_runs_or_a_folder_named_like_a_record_hangs_no_walk(walked):
    vault, _ = walked
    os.mkfifo(vault / "walks" / "runs" / "2026-12-03-050.yaml")
    (vault / "walks" / "active" / "hyp-2026-12-03-098.md").mkdir()
    walked_again, _ = run("walk", vault, "--now", NOW.replace(hour=9).isoformat(), timeout=60)
    assert walked_again.returncode == 0, walked_again.stderr
    ran, _ = run("run", vault, "--cadence", "daily", "--now", LATER, timeout=90)
    assert ran.returncode == 0, ran.stderr
    checked, _ = run("check", vault, "--json", timeout=30)
    paths = {p["path"] for p in json.loads(checked.stdout)["problems"]}
    assert checked.returncode == 1 and {"walks/runs/2026-12-03-050.yaml", "walks/active/hyp-2026-12-03-098.md"} <= paths


def test_a_fifo_for_the_lock_file_hangs_no_command(walked):
    vault, (record_id, *_) = walked
    (vault / "walks" / ".lock").unlink()
    os.mkfifo(vault / "walks" / ".lock")
    muted, _ = run("mute", record_id, vault, timeout=30)
    assert muted.returncode == 2 and ".lock is not a plain file" in muted.stderr
    assert record_path(vault, record_id).is_file()


def test_a_report_linked_to_dev_zero_is_a_finding_not_gigabytes(walked):
    vault, _ = walked
    (vault / "walks" / "reports" / "x.md").symlink_to("/dev/zero")
    checked, peak = run("check", vault, "--json", timeout=60)
    assert peak < 500 and checked.returncode == 1
    assert any(p["path"] == "walks/reports/x.md" for p in json.loads(checked.stdout)["problems"])


def test_a_report_too_large_to_read_or_a_fifo_report_is_a_finding(walked):
    vault, _ = walked
    os.mkfifo(vault / "walks" / "reports" / "2026-12-03-077.md")
    with open(vault / "walks" / "reports" / "2026-12-03-078.md", "wb") as handle:
        handle.truncate(40 * 1024 * 1024)  # sparse: 40 MB of nothing
    checked, peak = run("check", vault, "--json", timeout=60)
    assert peak < 500 and checked.returncode == 1
    paths = {p["path"] for p in json.loads(checked.stdout)["problems"]}
    assert {"walks/reports/2026-12-03-077.md", "walks/reports/2026-12-03-078.md"} <= paths


# --- a full disk ------------------------------------------------------------------------------------


def _full_disk_after(monkeypatch, allowed: int):
    """os.write writes ``allowed`` bytes in all, then the disk is full."""
    real = os.write
    left = [allowed]

    def write(fd, data):
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        done = real(fd, bytes(data[: left[0]]))
        left[0] -= done
        return done

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize("allowed", [0, 40])
def test_a_full_disk_leaves_no_conclusion_note_and_exits_1(walked, monkeypatch, allowed):
    vault, (record_id, *_) = walked
    before = record_path(vault, record_id).read_bytes()
    _full_disk_after(monkeypatch, allowed)
    result = cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It holds.")
    monkeypatch.undo()
    assert result.exit_code == 1 and "the disk is full" in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    assert [p.name for p in (vault / "Inbox").iterdir()] == [".gitkeep"]  # not even a hidden temporary file
    assert record_path(vault, record_id).read_bytes() == before
    assert cli("check", vault).exit_code == 0


def test_a_disk_that_fills_at_fsync_leaves_no_conclusion_note(walked, monkeypatch):
    vault, (record_id, *_) = walked
    real = os.fsync

    def fsync(fd):
        if "Inbox" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It holds.")
    monkeypatch.undo()
    assert result.exit_code == 1 and "the disk is full" in result.output
    assert [p.name for p in (vault / "Inbox").iterdir()] == [".gitkeep"] and record_path(vault, record_id).is_file()


def test_a_disk_that_fills_while_the_record_moves_takes_back_the_conclusion_note(walked, monkeypatch):
    from walker.pool import store as store_module

    vault, (record_id, *_) = walked
    before = record_path(vault, record_id).read_bytes()
    real = store_module.write_atomic

    def full(path, text, *args):
        if path.parent.name == "discharged":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, text, *args)

    monkeypatch.setattr(store_module, "write_atomic", full)
    result = cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It holds.")
    monkeypatch.undo()
    assert result.exit_code == 1 and "the disk is full" in result.output
    assert [p.name for p in (vault / "Inbox").iterdir()] == [".gitkeep"]  # no half discharge: no note
    assert record_path(vault, record_id).read_bytes() == before and cli("check", vault).exit_code == 0


def test_check_finds_an_empty_or_truncated_conclusion_note(walked):
    vault, (first, second, *_) = walked
    assert cli("discharge", first, vault, "--source", SOURCE, "--statement", "It holds.").exit_code == 0
    whole = (vault / "Inbox" / "It holds.md").read_text(encoding="utf-8")
    (vault / "Inbox" / "It holds, too.md").write_text(whole[: len(whole) // 3], encoding="utf-8")  # cut mid-way
    (vault / "Inbox" / "Starters need feeding.md").write_bytes(b"")  # what a full disk left before
    code, found = problems(vault)
    paths = {p["path"] for p in found}
    assert code == 1 and {"Inbox/It holds, too.md", "Inbox/Starters need feeding.md"} <= paths, found
    assert "Inbox/It holds.md" not in paths


# --- a discharge cut short between its move and its log line ----------------------------------------


class Killed(BaseException):
    """Stands for SIGKILL: nothing catches it."""


def _killed_before_logging(monkeypatch, vault, record_id, **kwargs):
    def killed(self, heading, events):
        raise Killed()

    monkeypatch.setattr(PoolStore, "log", killed)
    with pytest.raises(Killed):
        lifecycle.discharge(PoolStore(vault), "Inbox", record_id, source=SOURCE, now=NOW, **kwargs)
    monkeypatch.undo()


def test_a_discharge_killed_before_its_log_line_is_found_and_logged(walked, monkeypatch):
    vault, (record_id, *_) = walked
    _killed_before_logging(monkeypatch, vault, record_id, statement="It holds.")
    assert record_path(vault, record_id, "discharged").is_file() and f"discharge: [[{record_id}]]" not in log_text(vault)
    code, found = problems(vault)
    assert code == 1 and any(record_id in p["path"] and "log" in p["message"] for p in found), found
    assert cli("check", vault, "--repair").exit_code == 0
    assert log_text(vault).count(f"discharge: [[{record_id}]]") == 1 and SOURCE in log_text(vault)
    assert cli("check", vault).exit_code == 0


def test_a_confirm_from_obsidian_killed_before_its_log_line_is_found(walked, monkeypatch):
    vault, (record_id, *_) = walked
    edit(vault, record_id, review="confirm", review_source=f'"{SOURCE}"', review_statement="It holds.")
    monkeypatch.setattr(PoolStore, "log", lambda self, heading, events: (_ for _ in ()).throw(Killed()))
    with pytest.raises(Killed):
        CliRunner().invoke(main, ["review", str(vault)], catch_exceptions=False)
    monkeypatch.undo()
    code, found = problems(vault)
    assert code == 1 and any(record_id in p["path"] for p in found)
    assert cli("check", vault, "--repair").exit_code == 0 and cli("check", vault).exit_code == 0


# --- a planted conclusion note is not trusted ----------------------------------------------------------


def _plant(vault: Path, name: str, record_id: str, conclusion_id: str, refs=(), source=SOURCE) -> Path:
    from walker.refs import ref_link

    front = {"id": conclusion_id, "created": "2026-12-03", "source": source,
             "corroborating_refs": [ref_link(r) for r in refs], "inspired_by": f"[[{record_id}]]",
             "tags": ["conclusion"]}
    path = vault / "Inbox" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("---\n" + yaml.safe_dump(front, sort_keys=False) + "---\nIt is settled, trust me.\n",
                    encoding="utf-8")
    return path


def test_repair_does_not_discharge_a_record_on_a_planted_note(walked):
    vault, (record_id, *_) = walked
    refs = yaml.safe_load(record_path(vault, record_id).read_text().split("---\n")[1])["supporting_refs"]
    _plant(vault, "Settled.md", record_id, "conclusion-2026-12-03-001", refs)  # even with the record's own refs
    result = cli("check", vault, "--repair")
    assert result.exit_code == 1
    assert record_path(vault, record_id).is_file() and not record_path(vault, record_id, "discharged").exists()
    assert f"discharge: [[{record_id}]]" not in log_text(vault)


def test_a_discharge_does_not_adopt_a_planted_note(walked):
    vault, (record_id, *_) = walked
    planted = _plant(vault, "Settled.md", record_id, "conclusion-2026-12-03-001", source="user statement on 2026-11-01")
    result = cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It holds.", "--json")
    assert result.exit_code == 0, result.output
    record = yaml.safe_load(record_path(vault, record_id, "discharged").read_text().split("---\n")[1])
    assert record["discharge_source"] == SOURCE and "Settled" not in record["conclusion"]
    assert record["conclusion_id"] != "conclusion-2026-12-03-001"
    assert planted.read_text().endswith("trust me.\n")


def test_repair_does_not_point_a_record_at_a_note_claiming_its_conclusion_id(walked):
    vault, (record_id, *_) = walked
    assert cli("discharge", record_id, vault, "--source", SOURCE, "--statement", "It holds.",
               "--now", NOW.isoformat()).exit_code == 0
    record = yaml.safe_load(record_path(vault, record_id, "discharged").read_text().split("---\n")[1])
    (vault / "Inbox" / "It holds.md").unlink()  # the real note is gone (deleted, or not synced yet)
    _plant(vault, "Forged.md", record_id, record["conclusion_id"], source="someone else's words")
    code, found = problems(vault)
    assert code == 1
    cli("check", vault, "--repair")
    after = yaml.safe_load(record_path(vault, record_id, "discharged").read_text().split("---\n")[1])
    assert after["conclusion"] == record["conclusion"]  # not pointed at the forgery


def test_a_discharge_cut_short_is_still_finished_by_repair(walked, monkeypatch):
    """The repair a real interruption needs still works: the note walker wrote is recognised."""
    vault, (record_id, *_) = walked

    def killed(*args, **kwargs):
        raise Killed()

    monkeypatch.setattr(lifecycle, "finish_discharge", killed)
    with pytest.raises(Killed):
        lifecycle.discharge(PoolStore(vault), "Inbox", record_id, source=SOURCE, statement="It holds.", now=NOW)
    monkeypatch.undo()
    code, found = problems(vault)
    assert code == 1 and any(p["kind"] == "half-discharged" for p in found)
    assert cli("check", vault, "--repair").exit_code == 0
    assert record_path(vault, record_id, "discharged").is_file()
    assert len(list((vault / "Inbox").glob("*.md"))) == 1
