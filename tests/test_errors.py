"""What a user sees when something goes wrong: one line and an exit code, never a traceback."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files

from walker.cli import main

WALKER = shutil.which("walker") or str(Path(sys.executable).with_name("walker"))  # the command a user runs


def test_a_bug_prints_one_line_naming_a_crash_log_and_exits_3(tmp_path, monkeypatch, sample_vault):
    monkeypatch.setenv("WALKER_CACHE_DIR", str(tmp_path / "cache"))

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in walker")

    monkeypatch.setattr("walker.graph.vault_summary", broken)
    result = CliRunner().invoke(main, ["scan", str(sample_vault)])
    assert result.exit_code == 3
    (line,) = result.output.strip().splitlines()
    assert "RuntimeError: a bug in walker" in line and "Traceback" not in result.output
    (log,) = (tmp_path / "cache").glob("crash-*.log")
    assert str(log) in line and "Traceback" in log.read_text() and "a bug in walker" in log.read_text()


def test_hook_install_with_a_bad_client_or_a_broken_settings_file_says_so(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    bogus = subprocess.run([WALKER, "hook", "install", "bogus", str(vault)],
                           capture_output=True, text=True, cwd=tmp_path)
    assert bogus.returncode == 2 and "bogus" in bogus.stderr and "Traceback" not in bogus.stderr
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{not json", encoding="utf-8")
    broken = subprocess.run([WALKER, "hook", "install", "claude-code", str(vault)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert broken.stderr.strip().count("\n") == 0 and "is not valid JSON" in broken.stderr
    assert (tmp_path / ".claude" / "settings.json").read_text() == "{not json"  # left as it was


def test_a_hand_broken_record_is_named_not_a_traceback(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    walked = CliRunner().invoke(main, ["walk", str(vault), "--seed-note", "Cache Warming", "--json",
                                       "--now", "2026-12-01T07:00"])
    (hyp,) = json.loads(walked.output)["hypotheses"]
    record = vault / "walks" / "active" / f"{hyp}.md"
    record.write_text(record.read_text().replace("status: active", "status: [oops"), encoding="utf-8")
    result = subprocess.run([WALKER, "reject", hyp, str(vault), "--evidence", "x"],
                            capture_output=True, text=True)
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr and result.stderr.strip()
