"""walker never harms the user's notes: each attack below was seen working once, on a copy of
sample-vault/, and is now held. A test hashes every file outside walker's own folders before and
after, and checks that no command prints a traceback."""

import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files

from walker.cli import main
from walker.pool import store as store_module
from walker.pool.store import PoolStore

NOW = datetime(2026, 12, 3, 7, 50, tzinfo=UTC)
WALKER = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")
OUTSIDE_WALKER = ("walks", "Inbox")  # what walker may write in a vault


def cli(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def hashes(root: Path, skip=OUTSIDE_WALKER) -> dict[str, str]:
    """Every file under ``root`` but walker's own folders, by content."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip or path.is_symlink() or not path.is_file():
            continue
        found[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture
def vault(tmp_path):
    return copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")


@pytest.fixture
def walked(vault):
    result = cli("walk", vault, "--now", NOW.isoformat(), "--seed-note", "Autoscaler Oscillation", "--json")
    assert result.exit_code == 0, result.output
    ids = json.loads(result.output)["hypotheses"]
    assert ids
    return vault, ids


MEASURE = ("import resource, subprocess, sys\n"
           "code = subprocess.run(sys.argv[1:]).returncode\n"
           "sys.stderr.write(f'\\npeak-kb {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}')\n"
           "sys.exit(code)\n")


def run(*args, cwd=None, timeout=60, input=None):
    """A walker command in its own process, as a user runs it: (result, seconds, its peak memory in MB).

    The timeout only catches a hang (the attacks below took minutes before); bench/hostile_bench.py
    times the same inputs against the 10 s budget, away from a busy test run."""
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", MEASURE, WALKER, *map(str, args)], cwd=cwd, capture_output=True,
                            text=True, timeout=timeout, input=input, env={**os.environ, "WALKER_LOCK_WAIT": "0.3"})
    seconds = time.perf_counter() - started
    stderr, _, peak = result.stderr.rpartition("\npeak-kb ")
    result.stderr = stderr
    assert "Traceback" not in stderr, stderr
    return result, seconds, int(peak) / 1024


# --- output folders --------------------------------------------------------------------------


@pytest.mark.parametrize("target", [".", "walks", "..", "Garden"])
def test_the_site_is_never_built_into_the_vault_or_around_it(walked, target):
    vault, _ = walked
    before = hashes(vault, skip=())
    result = cli("site", "build", vault, "-o", vault / target)
    assert result.exit_code == 2 and ("inside the vault" in result.output or "holds the vault" in result.output)
    assert hashes(vault, skip=()) == before


def test_a_folder_walker_did_not_build_is_never_emptied(walked, tmp_path):
    vault, _ = walked
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "thesis.md").write_text("years of work", encoding="utf-8")
    result = cli("site", "build", vault, "-o", theirs)
    assert result.exit_code == 2 and "walker did not build it" in result.output
    assert (theirs / "thesis.md").read_text() == "years of work"


def test_a_site_walker_built_is_rebuilt_in_place(walked, tmp_path, monkeypatch):
    vault, _ = walked
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second build replaces the first, which carries walker's marker
        result = cli("site", "build", "vault", "-o", "site")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "site" / ".walker-site").is_file() and (tmp_path / "site" / "index.html").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".walker-site")]


def test_run_with_the_vault_as_site_dir_deletes_nothing(vault):
    (vault / "walker.toml").write_text('[run]\nsite_dir = "."\n', encoding="utf-8")
    before = hashes(vault)
    result = cli("run", vault, "--cadence", "daily", "--now", NOW.isoformat(), "--json")
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["walks"] and any("site was not rebuilt" in p for p in report["problems"])
    assert hashes(vault) == before


# --- symlinks and hard links under walks/ --------------------------------------------------------


@pytest.mark.parametrize("name", [".lock", "log.md", "surface.jsonl"])
def test_no_write_through_a_symlink_planted_in_walks(walked, name):
    vault, ids = walked
    victim = vault / "Garden" / "Compost.md"
    original = victim.read_bytes()
    planted = vault / "walks" / name
    planted.unlink(missing_ok=True)
    planted.symlink_to(victim)
    for args in (("mute", ids[0], vault), ("walk", vault, "--now", NOW.isoformat()),
                 ("feedback", ids[0], "ignored", vault)):
        result = cli(*args)
        assert result.exit_code in (0, 2), result.output
    assert victim.read_bytes() == original


def test_no_append_to_a_hard_link_of_a_note(walked):
    vault, ids = walked
    victim = vault / "Garden" / "Compost.md"
    original = victim.read_bytes()
    (vault / "walks" / "log.md").unlink()
    os.link(victim, vault / "walks" / "log.md")
    result = cli("mute", ids[0], vault)
    assert result.exit_code == 2 and "hard link" in result.output
    assert victim.read_bytes() == original


@pytest.mark.parametrize("which", ["walks", "walks/active"])
def test_walks_must_be_a_real_folder(walked, tmp_path, which):
    vault, ids = walked
    elsewhere = tmp_path / "elsewhere"
    shutil.move(vault / which, elsewhere)
    (vault / which).symlink_to(elsewhere, target_is_directory=True)
    before = hashes(elsewhere, skip=())
    for args in (("walk", vault, "--now", NOW.isoformat()), ("mute", ids[0], vault)):
        result = cli(*args)
        assert result.exit_code == 2 and "symlink" in result.output
    assert hashes(elsewhere, skip=()) == before


# --- the inbox ----------------------------------------------------------------------------------


@pytest.mark.parametrize("folder", ["../elsewhere", "walks/active", ".hidden", "{vault}-evil", "/tmp"])
def test_the_inbox_must_be_a_folder_of_the_vault(walked, folder):
    vault, ids = walked
    (vault / "walker.toml").write_text(f"inbox_folder = {json.dumps(folder.format(vault=vault))}\n", encoding="utf-8")
    before = hashes(vault.parent, skip=())
    result = cli("discharge", ids[0], vault, "--source", "my own test on 2026-12-01", "--statement", "It holds.")
    assert result.exit_code == 2 and "inbox_folder" in result.output
    assert hashes(vault.parent, skip=()) == before


def test_the_inbox_may_not_lead_out_through_a_symlink(walked, tmp_path):
    vault, ids = walked
    (tmp_path / "out").mkdir()
    shutil.rmtree(vault / "Inbox")
    (vault / "Inbox").symlink_to(tmp_path / "out", target_is_directory=True)
    result = cli("discharge", ids[0], vault, "--source", "my own test on 2026-12-01", "--statement", "It holds.")
    assert result.exit_code == 2 and not list((tmp_path / "out").iterdir())


# --- discharge ----------------------------------------------------------------------------------


def test_discharge_from_inside_the_vault_with_no_vault_argument(walked, monkeypatch):
    vault, ids = walked
    monkeypatch.chdir(vault)
    result = cli("discharge", ids[0], "--source", "my own test on 2026-12-01", "--statement", "It holds.")
    assert result.exit_code == 0, result.output
    assert (vault / "walks" / "discharged" / f"{ids[0]}.md").is_file()
    assert len(list((vault / "Inbox").glob("*.md"))) == 1


def test_discharge_with_a_relative_vault_path(walked, monkeypatch):
    vault, ids = walked
    monkeypatch.chdir(vault.parent)
    result = cli("discharge", ids[0], "vault", "--source", "my own test on 2026-12-01", "--statement", "It holds.")
    assert result.exit_code == 0, result.output
    record = (vault / "walks" / "discharged" / f"{ids[0]}.md").read_text()
    assert "[[Inbox/It holds|It holds]]" in record


def test_a_discharge_cut_short_and_retried_leaves_one_conclusion(walked, monkeypatch):
    vault, ids = walked
    from walker.pool import lifecycle

    def crash(*args, **kwargs):
        raise KeyboardInterrupt  # the process dies after the note is written
    real = lifecycle.finish_discharge
    monkeypatch.setattr(lifecycle, "finish_discharge", crash)
    with pytest.raises(KeyboardInterrupt):
        lifecycle.discharge(PoolStore(vault), "Inbox", ids[0], source="my own test on 2026-12-01",
                            statement="It holds.", now=NOW)
    assert len(list((vault / "Inbox").glob("*.md"))) == 1
    monkeypatch.setattr(lifecycle, "finish_discharge", real)
    for _ in range(2):  # the retry, then a review pass: neither writes a second note
        cli("discharge", ids[0], vault, "--source", "my own test on 2026-12-01", "--statement", "It holds.")
        cli("review", vault)
    assert len(list((vault / "Inbox").glob("*.md"))) == 1
    assert (vault / "walks" / "discharged" / f"{ids[0]}.md").is_file()
    assert cli("check", vault).exit_code == 0


def test_check_reports_two_conclusions_for_one_hypothesis(walked):
    vault, ids = walked
    from walker.inbox import Conclusion, capture

    for statement in ("It holds.", "It holds, again."):
        capture(vault, "Inbox", Conclusion(created="2026-12-03", source="my own test on 2026-12-01",
                                           statement=statement, inspired_by=ids[0]))
    result = cli("check", vault, "--json")
    kinds = [p["kind"] for p in json.loads(result.output)["problems"]]
    assert result.exit_code == 1 and "duplicate-conclusion" in kinds


def test_repair_ignores_a_conclusion_shown_in_a_code_block(walked):
    vault, ids = walked
    (vault / "Inbox" / "How conclusions look.md").write_text(
        f"# Example\n\n```yaml\nid: conclusion-2026-12-03-001\ninspired_by: {ids[0]}\nsource: {ids[0]}\n```\n",
        encoding="utf-8")
    assert cli("check", vault).exit_code == 0
    cli("check", vault, "--repair")
    assert (vault / "walks" / "active" / f"{ids[0]}.md").is_file()


def test_repair_will_not_finish_a_laundered_discharge(walked):
    vault, ids = walked
    from walker.inbox import Conclusion, capture

    note = capture(vault, "Inbox", Conclusion(created="2026-12-03", source=f"the hypothesis {ids[0]}",
                                              statement="It holds.", inspired_by=ids[0]))
    # as if a discharge had written it (a discharge refuses such a source before it writes anything)
    from walker.inbox import read_note
    from walker.pool.lifecycle import digest

    front, text = read_note(note)
    PoolStore(vault).mark_pending(ids[0], str(front["id"]), digest(text))
    result = cli("check", vault, "--repair")
    assert "no evidence" in result.output and (vault / "walks" / "active" / f"{ids[0]}.md").is_file()


# --- a walk commits as a whole ------------------------------------------------------------------


class Killed(BaseException):
    """Stands for SIGKILL: nothing catches it."""


def _walk_steps(vault, monkeypatch, kill_at=None):
    steps = []

    def step(name):
        steps.append(name)
        if kill_at is not None and len(steps) == kill_at:
            raise Killed(name)

    monkeypatch.setattr(store_module, "_step", step)
    from walker.walk.runner import WalkOptions, run_walk
    from walker.workspace import Workspace

    try:
        run_walk(Workspace.open(vault), WalkOptions(now=NOW, random_seed=3))
    except Killed:
        pass
    monkeypatch.setattr(store_module, "_step", lambda name: None)
    return steps


def _pool_state(vault):
    walks = vault / "walks"
    return {p.relative_to(walks).as_posix() for p in walks.rglob("*") if p.is_file() and ".staging-" not in str(p)}


def test_a_kill_between_any_two_file_operations_of_a_commit_leaves_the_pool_consistent(tmp_path, monkeypatch):
    template = copy_vault_files(SAMPLE_VAULT, tmp_path / "template")
    complete = copy_vault_files(template, tmp_path / "complete")
    steps = _walk_steps(complete, monkeypatch)
    finished = _pool_state(complete)
    assert len(steps) >= 6 and any(s.startswith("moved") for s in steps)
    for kill_at in range(1, len(steps) + 1):
        vault = copy_vault_files(template, tmp_path / f"kill-{kill_at}")
        _walk_steps(vault, monkeypatch, kill_at)
        result = cli("check", vault, "--repair", "--json")
        assert result.exit_code == 0, (steps[kill_at - 1], result.output)
        state = _pool_state(vault)
        committed = kill_at > steps.index("marked ready")
        if committed:  # the rest of the commit was finished: exactly what an uninterrupted walk leaves
            assert state - {"log.md", "README.md"} == finished - {"log.md", "README.md"}, steps[kill_at - 1]
            assert (vault / "walks" / "log.md").read_text().count("walk-end") == 1
            assert "recover: finished" in result.output
        else:  # nothing of the walk was kept, and its id is free
            assert not [s for s in state if s.startswith(("active/", "reports/", "runs/"))], steps[kill_at - 1]
        assert cli("check", vault).exit_code == 0


def test_a_full_disk_leaves_the_pool_as_it_was(walked, monkeypatch):
    vault, _ = walked
    before = _pool_state(vault)
    real = store_module.write_atomic
    calls = []

    def full(path, text):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, text)

    monkeypatch.setattr(store_module, "write_atomic", full)
    result = cli("walk", vault, "--now", NOW.replace(hour=9).isoformat(), "--random-seed", "5")
    assert result.exit_code == 1 and "the disk is full" in result.output and "as it was" in result.output
    monkeypatch.setattr(store_module, "write_atomic", real)
    assert _pool_state(vault) == before and cli("check", vault).exit_code == 0


# --- reading stays inside the vault ---------------------------------------------------------------


def test_symlinks_out_of_the_vault_are_not_followed(vault, tmp_path):
    secret = tmp_path / "id_ed25519"
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY----- compost quorum sourdough\n", encoding="utf-8")
    private = tmp_path / "private"
    private.mkdir()
    (private / "Diary.md").write_text("Secret diary about compost and quorum.\n", encoding="utf-8")
    (vault / "key.md").symlink_to(secret)
    (vault / "picture.png").symlink_to(secret)
    (vault / "Private").symlink_to(private, target_is_directory=True)
    (vault / "up").symlink_to("..", target_is_directory=True)
    (vault / "root").symlink_to("/", target_is_directory=True)
    scan = json.loads(cli("scan", vault, "--json").output)
    skipped = {s["path"]: s["reason"] for s in scan["skipped"]}
    for name in ("key.md", "picture.png", "Private/", "up/", "root/"):
        assert "outside the vault" in skipped[name], name
    for n in range(3):
        cli("walk", vault, "--now", NOW.replace(hour=7 + n).isoformat(), "--random-seed", n)
    cli("site", "build", vault, "-o", tmp_path / "site")
    written = [p for p in [*(vault / "walks").rglob("*"), *(tmp_path / "site").rglob("*")] if p.is_file()]
    assert written and not [p for p in written if b"PRIVATE KEY" in p.read_bytes() or b"Secret diary" in p.read_bytes()]


# --- bounded work on hostile input ------------------------------------------------------------------

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))


def test_alias_bombs_in_notes_and_records_are_refused_quickly(walked):
    vault, ids = walked
    (vault / "Bomb.md").write_text(f"---\n{BOMB}---\nA note about compost.\n", encoding="utf-8")
    record = vault / "walks" / "active" / f"{ids[0]}.md"
    record.write_text(f"---\n{BOMB}---\n", encoding="utf-8")
    for args in (("scan", vault, "--json"), ("pool", "list", vault), ("check", vault), ("walk", vault),
                 ("site", "build", vault, "-o", vault.parent / "site")):
        result, seconds, peak = run(*args)
        assert peak < 500, (args, seconds, peak)
    scan = json.loads(run("scan", vault, "--json")[0].stdout)
    assert any("alias" in w["message"] for w in scan["warnings"] if w["path"] == "Bomb.md")


@pytest.mark.parametrize("text", ["[[" * 100_000, "\n".join(f"line {i} [[Note {i}]]" for i in range(100_000)),
                                  "![[" * 60_000, "[x](" * 50_000])
def test_hostile_notes_parse_in_linear_time(tmp_path, text):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Hostile.md").write_text(text, encoding="utf-8")
    result, seconds, peak = run("scan", vault)
    assert result.returncode == 0 and peak < 500, (seconds, peak)


def test_a_note_nested_a_thousand_deep_still_renders(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    deep = "\n".join("  " * i + "- the starter needs feeding" for i in range(1000))
    quotes = ">" * 2000 + " compost"
    (vault / "Deep.md").write_text(f"# Deep\n\nSourdough starters need regular feeding.\n\n{deep}\n\n{quotes}\n",
                                   encoding="utf-8")
    cli("walk", vault, "--seed-note", "Deep", "--now", NOW.isoformat())
    result, seconds, peak = run("site", "build", vault, "-o", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert peak < 500, (seconds, peak)
    assert "Flattened" in (tmp_path / "site" / "notes" / "Deep.html").read_text()


def test_a_backtracking_exclude_filter_cannot_hang_the_scan(tmp_path):
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / ".obsidian" / "app.json").write_text(json.dumps({"userIgnoreFilters": ["/^(a+)+$/", "/(x+x+)+y/"]}))
    (vault / ("a" * 60 + "!.md")).write_text("note")
    (vault / ("x" * 60 + ".md")).write_text("note")
    result, seconds, _ = run("scan", vault)
    assert result.returncode == 0


def test_the_hook_stays_silent_on_a_huge_prompt(walked):
    vault, _ = walked
    prompt = json.dumps({"prompt": "any other angle? " * 6_000_000, "session_id": "s"})
    result, seconds, peak = run("hook", "claude-code", vault, input=prompt)
    assert result.returncode == 0 and result.stdout == "" and peak < 500, (seconds, peak)


# --- concurrency, settings, names -----------------------------------------------------------------


def test_a_busy_pool_gives_one_line_not_a_traceback(walked):
    vault, ids = walked
    with PoolStore(vault).lock():
        result, _, _ = run("mute", ids[0], vault)
        assert result.returncode == 2 and result.stderr.strip().count("\n") == 0
        assert "another walker command is running" in result.stderr
        again, _, _ = run("run", vault, "--force", "--now", NOW.isoformat())
        assert again.returncode == 0 and "skipped" in again.stdout


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0"])
def test_numeric_settings_are_checked(vault, value):
    (vault / "walker.toml").write_text(f"max_note_mb = {value}\n", encoding="utf-8")
    result = cli("scan", vault)
    assert result.exit_code == 2 and "max_note_mb" in result.output


def test_a_table_setting_out_of_range_is_refused(vault):
    (vault / "walker.toml").write_text("[walk]\nmax_hypotheses = -3\n", encoding="utf-8")
    result = cli("walk", vault)
    assert result.exit_code == 2 and "max_hypotheses" in result.output


def test_settings_that_change_parsing_are_part_of_the_cache(vault):
    (vault / "walker.toml").write_text("max_note_mb = 0.0001\n", encoding="utf-8")
    small = json.loads(cli("scan", vault, "--json").output)
    (vault / "walker.toml").write_text("max_note_mb = 5\n", encoding="utf-8")
    fixed = json.loads(cli("scan", vault, "--json").output)
    assert small["notes"] < fixed["notes"] and fixed["notes"] > 50


def test_two_names_that_differ_only_in_unicode_form_are_both_kept(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    composed, decomposed = unicodedata.normalize("NFC", "Café.md"), unicodedata.normalize("NFD", "Café.md")
    (vault / composed).write_text("Composed note.\n", encoding="utf-8")
    try:
        (vault / decomposed).write_text("Decomposed note.\n", encoding="utf-8")
    except OSError:
        pytest.skip("this file system stores one form only")
    if len(list(vault.iterdir())) != 2:
        pytest.skip("this file system normalises names")
    for _ in range(2):
        scan = json.loads(cli("scan", vault, "--json").output)
        assert scan["notes"] == 2
        assert any("conflict" in w["message"] for w in scan["warnings"])
    assert scan["cache_hits"] == 2  # neither file is parsed again on every scan


# --- the schedule --------------------------------------------------------------------------------


def test_a_vault_path_with_a_newline_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    vault = tmp_path / "va\nult"
    vault.mkdir()
    result = cli("schedule", "install", vault)
    assert result.exit_code == 2 and "line break" in result.output
    assert not (tmp_path / "home" / ".config" / "systemd").exists()


def test_dollar_and_percent_are_escaped_for_systemd_and_cron(tmp_path):
    from walker.schedule import make_units, verify

    vault = tmp_path / "va$HOME 100% ${X}"
    vault.mkdir()
    units = make_units(vault, "weekly", walker=WALKER)
    assert '"' + str(vault.resolve()).replace("$", "$$").replace("%", "%%") + '"' in units.service
    assert str(vault.resolve()).replace("%", "\\%") in units.crontab
    if shutil.which("systemd-analyze"):
        verify(units)  # raises when systemd cannot read them
