"""A newcomer's first hour: every command ends by saying what happened and what to do next, and its
output carries no noise (a wrong estimate of time left, warnings split into false kinds, walker's own
files listed as the user's)."""

import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, write_vault

from walker.cli import main
from walker.cli.app import open_workspace, progress_bar, time_left

NOW = "2026-12-04T07:50"


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


@pytest.fixture
def vault(tmp_path):
    return copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")


# --- 1. init -------------------------------------------------------------------------------------


def test_init_says_what_it_made_and_what_to_run_next(tmp_path):
    folder = write_vault(tmp_path / "notes", {"A.md": "# A\n"})
    result = cli("init", folder)
    assert result.exit_code == 0, result.output
    shown = lines(result.output)
    assert len(shown) <= 3, result.output  # not one line per folder made under walks/
    assert "walker.toml" in result.output and "walks/" in result.output
    for command in (f"walker run {folder}", f"walker site build {folder}", f"walker schedule install {folder}"):
        assert command in result.output
    again = cli("init", folder)
    assert again.exit_code == 0 and "nothing changed" in again.output and f"walker run {folder}" in again.output


def test_init_in_the_current_folder_suggests_commands_without_a_folder(tmp_path, monkeypatch):
    folder = write_vault(tmp_path / "notes", {"A.md": "# A\n"})
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["init"])
    assert result.exit_code == 0 and "`walker run`" in result.output and "`walker site build`" in result.output


# --- 2. review -----------------------------------------------------------------------------------


def test_review_with_nothing_to_apply_says_so_in_one_line(vault):
    assert cli("init", vault).exit_code == 0
    result = cli("review", vault, "--now", NOW)
    assert result.exit_code == 0, result.output
    assert len(lines(result.output)) == 1 and "nothing to apply" in result.output.lower()
    assert json.loads(cli("review", vault, "--now", NOW, "--json").output)["events"] == []


# --- 3. run --------------------------------------------------------------------------------------


def test_run_says_where_the_reports_are_and_how_to_build_the_site(vault):
    result = cli("run", vault, "--now", NOW)
    assert result.exit_code == 0, result.output
    reports = sorted((vault / "walks" / "reports").glob("*.md"))
    assert reports and str(vault / "walks" / "reports") in result.output
    assert all(report.name in result.output for report in reports)
    assert f"walker site build {vault}" in result.output and "site_dir" in result.output


def test_run_says_where_the_site_is_when_it_rebuilt_it(vault, tmp_path):
    (vault / "walker.toml").write_text('[run]\nsite_dir = "../site"\n', encoding="utf-8")
    result = cli("run", vault, "--now", NOW)
    assert result.exit_code == 0, result.output
    assert "index.html" in lines(result.output)[-1] and "walker site build" not in result.output


def test_run_on_a_folder_without_notes_says_so_once(tmp_path):
    folder = write_vault(tmp_path / "empty", {"readme.txt": "not a note"})
    result = cli("run", folder, "--now", NOW)
    assert result.output.count("no notes in") == 1, result.output
    assert "walker site build" not in result.output


# --- 4. schedule show ----------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr("walker.schedule._crontab", lambda: "")  # and no crontab line
    return tmp_path / "home"


def test_schedule_show_says_no_timer_is_installed_and_how_to_install_one(vault, home):
    result = cli("schedule", "show", vault)
    assert result.exit_code == 0, result.output
    assert "OnCalendar=" in result.output  # the units are still shown
    last = lines(result.output)[-1].lower()
    assert "not installed" in last and f"walker schedule install {vault}" in lines(result.output)[-1]


def test_schedule_show_without_systemd_says_it_cannot_tell_when_it_fires(vault, home, monkeypatch):
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: False)
    assert cli("schedule", "install", vault).exit_code == 0
    result = cli("schedule", "show", vault)
    assert result.exit_code == 0, result.output
    last = lines(result.output)[-1].lower()
    assert "installed" in last and "systemd is not running" in last and "cannot tell when it runs next" in last


class Done:
    def __init__(self, returncode=0, stdout="", stderr=""):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def test_schedule_show_says_when_the_timer_fires_next(vault, home, monkeypatch):
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: False)
    assert cli("schedule", "install", vault).exit_code == 0
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: True)
    shown = "UnitFileState=enabled\nActiveState=active\nNextElapseUSecRealtime=Fri 2026-12-04 07:58:12 UTC\n"
    monkeypatch.setattr("walker.schedule.subprocess.run", lambda *a, **k: Done(stdout=shown))
    result = cli("schedule", "show", vault)
    assert result.exit_code == 0, result.output
    assert "next run Fri 2026-12-04 07:58:12 UTC" in lines(result.output)[-1]


@pytest.mark.parametrize("failure", ["no bus", "no program", "hangs"])
def test_schedule_show_never_fails_when_systemctl_does(vault, home, monkeypatch, failure):
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: False)
    assert cli("schedule", "install", vault).exit_code == 0
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: True)

    def systemctl(*args, **kwargs):
        if failure == "no program":
            raise FileNotFoundError(2, "No such file or directory", "systemctl")
        if failure == "hangs":
            raise subprocess.TimeoutExpired("systemctl", 10)
        return Done(1, stderr="Failed to connect to bus: No medium found\n")

    monkeypatch.setattr("walker.schedule.subprocess.run", systemctl)
    result = cli("schedule", "show", vault)
    assert result.exit_code == 0, result.output
    last = lines(result.output)[-1].lower()
    assert "installed" in last and "cannot tell when it runs next" in last
    if failure == "no bus":
        assert "failed to connect to bus" in last


def test_schedule_show_names_a_crontab_line_that_runs_the_vault(vault, home, monkeypatch):
    from walker.schedule import make_units

    monkeypatch.setattr("walker.schedule._crontab", lambda: "# mine\n" + make_units(vault, "daily").crontab + "\n")
    result = cli("schedule", "show", vault)
    assert result.exit_code == 0 and "crontab" in lines(result.output)[-1] and "not installed" not in result.output


# --- 5. walk on a folder without notes -----------------------------------------------------------


def test_walk_on_a_folder_without_notes_says_no_notes(tmp_path):
    folder = write_vault(tmp_path / "empty", {"picture.png": b"\x89PNG"})
    result = cli("walk", folder)
    assert result.exit_code == 2
    assert f"no notes in {folder}" in result.output and "last 8 walks" not in result.output


def test_walk_where_every_note_is_left_out_says_why(tmp_path):
    folder = write_vault(tmp_path / "templated", {"Templates/Daily.md": "# {{date}}\n"})
    result = cli("walk", folder)
    assert result.exit_code == 2 and f"no notes in {folder}" in result.output and "walker scan" in result.output


# --- 6. progress ---------------------------------------------------------------------------------


def test_no_estimate_of_time_left_before_it_means_something():
    assert time_left(1, 13000, 0.9) is None  # the first note, after the workers started: no rate yet
    assert time_left(2600, 13000, 2.0) is None  # a fifth done, but too little time measured
    assert time_left(2600, 13000, 3.0) == "about 10 s left"
    assert time_left(8000, 13000, 8.0) == "about 5 s left"
    assert time_left(12990, 13000, 8.0) == "a few seconds left"
    assert time_left(1300, 13000, 60.0) == "about 9 min left"
    assert time_left(13000, 13000, 10.0) is None


class Terminal(io.StringIO):
    def isatty(self):
        return True


def as_terminal(monkeypatch) -> Terminal:
    """stdout and stderr as a terminal; set in the test itself (pytest puts its capture back after a fixture)."""
    err = Terminal()
    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", err)
    return err


def test_the_read_shows_time_left_only_once_the_rate_is_measured(monkeypatch):
    terminal = as_terminal(monkeypatch)
    clock = [0.0]
    with progress_bar(True, clock=lambda: clock[0]) as advance:
        assert advance is not None
        advance(0, 1000)  # what the cache held: nothing
        clock[0] = 1.0  # the workers took a second to start
        advance(1, 1000)
        early = terminal.getvalue()
        for _ in range(299):
            clock[0] += 0.01
            advance(1, 1000)
        clock[0] = 6.0
        advance(1, 1000)
    assert "Reading notes" in early and "left" not in early and ":" not in early.split("Reading notes")[-1]
    assert "about 10 s left" in terminal.getvalue()  # 300 notes in 5 s: 700 more take about 12 s


def test_indexing_has_a_phase_line_of_its_own(monkeypatch, vault):
    terminal = as_terminal(monkeypatch)
    ws = open_workspace(vault, index=True)
    assert ws.index is not None and "Indexing" in terminal.getvalue()


def test_no_progress_off_a_terminal(vault, capsys):
    open_workspace(vault, index=True)
    assert capsys.readouterr().err == ""


# --- 7. pool list --------------------------------------------------------------------------------


def test_pool_list_has_a_header_and_a_kind_column_and_its_help_agrees(vault):
    walked = cli("walk", vault, "--now", NOW, "--seed-note", "Autoscaler Oscillation", "--json")
    assert walked.exit_code == 0, walked.output
    result = cli("pool", "list", vault)
    assert result.exit_code == 0, result.output
    header, *rows = lines(result.output)
    assert header.split() == ["id", "status", "kind", "confidence", "impact", "title"]
    records = json.loads(cli("pool", "list", vault, "--json").output)["records"]
    for record in records:
        row = next(r for r in rows if r.startswith(record["id"]))
        assert (record["kind"] or "-") in row and record["title"] in row
    assert "pool show" in rows[-1]  # the last line says how to read one in full
    described = cli("pool", "list", "--help").output.split("Options")[0]
    assert "kind" in described and "title" in described and "claim" not in described


# --- 8. scan -------------------------------------------------------------------------------------


def test_scan_groups_warnings_of_one_kind_whatever_the_names(tmp_path):
    notes = {
        "Daily/Morning Pages.md": "# Morning Pages\n\n[[Garden/Soil Notes#Missing heading]]\n",
        "Daily/Evening Review.md": "# Evening Review\n\n[[Kitchen/Bread Log#Another one]]\n",
        "Daily/Don't Forget.md": "# Don't\n\n[[Music/Scale \"Modes\"#Gone]]\n",
        "Garden/Soil Notes.md": "# Soil\n", "Kitchen/Bread Log.md": "# Bread\n", "Music/Scale \"Modes\".md": "# Modes\n",
        "Broken one.md": "---\na: b: c\n---\nText.\n", "Broken two.md": "---\na: [1\n---\nText.\n",
        "Broken three.md": "---\na: 'x\n---\nText.\n",
    }
    result = cli("scan", write_vault(tmp_path / "v", notes))
    assert result.exit_code == 0, result.output
    assert "warnings: 6, of 2 kinds" in result.output
    kinds = [line for line in result.output.splitlines() if " × " in line]
    assert len(kinds) == 2 and all(line.strip().startswith("3 × ") for line in kinds)
    for leak in ("Garden", "Soil", "Bread", "Modes", "Kitchen"):
        assert not any(leak in line for line in kinds), kinds


def test_scan_never_lists_walkers_own_files_as_the_users(vault):
    assert cli("init", vault).exit_code == 0 and cli("run", vault, "--now", NOW).exit_code == 0
    assert list((vault / "walks" / "runs").glob("*.yaml")) and (vault / "walker.toml").is_file()
    result = cli("scan", vault)
    assert "not a file type" not in result.output and "walks/" not in result.output
    skipped = json.loads(cli("scan", vault, "--json").output)["skipped"]
    assert not [s for s in skipped if s["path"] == "walker.toml" or s["path"].endswith(".yaml")]
