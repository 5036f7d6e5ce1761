"""The cadence (protocol §5.4, §18 item 12): `walker run`, its period, the timer and concurrent runs."""

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files

from walker.cadence import period_of, run_lock
from walker.cli import main
from walker.pool.store import PoolStore
from walker.schedule import ScheduleError, make_units

MONDAY = datetime(2026, 11, 30, 7, 50, tzinfo=timezone.utc)


def run(vault, *args):
    return CliRunner().invoke(main, ["run", str(vault), *args, "--json"])


@pytest.fixture
def vault(tmp_path):
    return copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")


def test_weekly_walks_once_a_week(vault):
    first = run(vault, "--cadence", "weekly", "--now", MONDAY.isoformat())
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["skipped"] is None and len(data["walks"]) == 3  # deep: three single-seed passes
    assert len({w["seed"]["path"] for w in data["walks"]}) == 3  # each pass its own seed
    again = json.loads(run(vault, "--cadence", "weekly", "--now", (MONDAY + timedelta(days=4)).isoformat()).output)
    assert again["skipped"] and "2026-W49" in again["skipped"]
    assert len(PoolStore(vault).runs()) == 3
    next_week = json.loads(run(vault, "--cadence", "weekly", "--now", (MONDAY + timedelta(days=7)).isoformat()).output)
    assert next_week["skipped"] is None and len(next_week["walks"]) == 3
    forced = json.loads(run(vault, "--cadence", "weekly", "--force", "--now", (MONDAY + timedelta(days=8)).isoformat()).output)
    assert forced["skipped"] is None
    assert CliRunner().invoke(main, ["check", str(vault)]).exit_code == 0


def test_daily_is_light(vault):
    data = json.loads(run(vault, "--cadence", "daily", "--now", MONDAY.isoformat()).output)
    assert len(data["walks"]) == 1
    assert json.loads(run(vault, "--cadence", "daily", "--now", MONDAY.replace(hour=20).isoformat()).output)["skipped"]
    assert not json.loads(run(vault, "--cadence", "daily", "--now", (MONDAY + timedelta(days=1)).isoformat()).output)["skipped"]


def test_periods():
    assert period_of("weekly", MONDAY) == "2026-W49" == period_of("weekly", MONDAY + timedelta(days=6))
    assert period_of("daily", MONDAY) == "2026-11-30"


def test_run_rebuilds_the_site_when_configured(vault):
    (vault / "walker.toml").write_text('[run]\nsite_dir = "../site"\n', encoding="utf-8")
    data = json.loads(run(vault, "--cadence", "daily", "--now", MONDAY.isoformat()).output)
    assert data["site"] and (vault.parent / "site" / "index.html").is_file()


def test_a_second_run_while_one_is_working_changes_nothing(vault):
    store = PoolStore(vault)
    with run_lock(store):
        result = CliRunner().invoke(main, ["run", str(vault), "--now", MONDAY.isoformat()])
    assert result.exit_code == 0 and "skipped" in result.output and "another `walker run`" in result.output
    assert "Traceback" not in result.output
    assert store.runs() == []


def test_two_processes_at_once_leave_a_consistent_pool(vault):
    walker = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")
    command = [walker, "run", str(vault), "--cadence", "daily", "--force", "--now", MONDAY.isoformat()]
    first, second = (subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2))
    results = [p.communicate(timeout=300) + (p.returncode,) for p in (first, second)]
    codes = sorted(code for _, _, code in results)
    assert codes in ([0, 0], [0, 1]), results
    if codes == [0, 1]:
        assert any("another `walker run`" in err for _, err, code in results if code == 1)
    ids = [r.id for r in PoolStore(vault).records()]
    assert len(ids) == len(set(ids))
    assert CliRunner().invoke(main, ["check", str(vault)]).exit_code == 0


def test_units_text(tmp_path):
    vault = tmp_path / "My Vault"
    vault.mkdir()
    units = make_units(vault, "weekly", "Fri 07:50", walker="/opt/walker/bin/walker")
    assert units.name.startswith("walker-my-vault-")
    assert "OnCalendar=Fri *-*-* 07:50:00" in units.timer
    assert "Persistent=true" in units.timer and "RandomizedDelaySec=15min" in units.timer
    assert f"Unit={units.name}.service" in units.timer and "WantedBy=timers.target" in units.timer
    assert f'ExecStart=/opt/walker/bin/walker run --cadence weekly "{vault.resolve()}"' in units.service
    assert "Type=oneshot" in units.service
    assert units.crontab == f"50 7 * * 5 /opt/walker/bin/walker run --cadence weekly '{vault.resolve()}'"
    daily = make_units(vault, "daily", "06:05", walker="/w")
    assert "OnCalendar=*-*-* 06:05:00" in daily.timer and daily.crontab.startswith("5 6 * * * ")
    with pytest.raises(ScheduleError):
        make_units(vault, "daily", "Mon 06:05")
    with pytest.raises(ScheduleError):
        make_units(vault, "weekly", "Someday 25:00")


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_units_pass_systemd_analyze_verify(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    walker = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")
    units = make_units(vault, "weekly", None, walker=walker)
    for name, text in units.files.items():
        (tmp_path / name).write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", *(str(tmp_path / n) for n in units.files)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_schedule_show_and_install_without_systemd(vault, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    shown = CliRunner().invoke(main, ["schedule", "show", str(vault), "--on", "Sat 09:00"])
    assert shown.exit_code == 0 and "OnCalendar=Sat *-*-* 09:00:00" in shown.output and "crontab" in shown.output
    monkeypatch.setattr("walker.schedule._systemd_running", lambda: False)
    installed = CliRunner().invoke(main, ["schedule", "install", str(vault)])
    assert installed.exit_code == 0 and "systemctl --user enable --now" in installed.output
    assert list((tmp_path / "home" / ".config" / "systemd" / "user").glob("walker-*.timer"))
    removed = CliRunner().invoke(main, ["schedule", "remove", str(vault)])
    assert removed.exit_code == 0 and not list((tmp_path / "home" / ".config" / "systemd" / "user").glob("walker-*"))
