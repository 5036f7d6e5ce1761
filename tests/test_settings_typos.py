"""An unknown key or table in walker.toml is a warning naming the closest known one, and a finding of
`walker check`; it never stops a command."""

import dataclasses
import json
import logging
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import write_vault

from walker.cli import main
from walker.config import DEFAULT_CONFIG, KEYS, TABLES, ConfigError, Settings, load_settings, table

WALKER = shutil.which("walker") or str(Path(sys.executable).with_name("walker"))  # the command a user runs
NOTES = {"A.md": "# A\n\nSee [[B]].\n", "B.md": "# B\n"}


def vault_with(tmp_path: Path, toml: str) -> Path:
    return write_vault(tmp_path / "vault", {**NOTES, "walker.toml": toml})


@pytest.mark.parametrize("toml, says", [
    ('exlude = ["Archive/**"]\n', "unknown key exlude (did you mean exclude?)"),
    ("[wandr]\nfar = 2\n", "unknown table [wandr] (did you mean [wander]?)"),
    ("[wander]\nfra = 2\n", "unknown key fra in [wander] (did you mean far?)"),
    ("[engine.lml]\nmodel = 'x'\n", "unknown table [engine.lml] (did you mean [engine.llm]?)"),
    ("[llm]\nmodel = 'x'\n", "unknown table [llm] (did you mean [engine.llm]?)"),
    ("[engine.llm]\nmodle = 'x'\n", "unknown key modle in [engine.llm] (did you mean model?)"),
    # The template ends with [engine.llm]: a top-level setting added at the end of the file lands in it.
    ('[engine.llm]\nexclude = ["Archive/**"]\n',
     "unknown key exclude in [engine.llm] (exclude is a top-level setting: move it above the first [table] line)"),
    ("far = 2\n", "unknown key far (far is a setting of [wander]: move it below the [wander] line)"),
    ("colour = 'red'\n", "unknown key colour (known: exclude, templates_folder, inbox_folder"),
    ("[theme]\n", "unknown table [theme] (known: [wander], [walk], [run], [surface], [engine.llm])"),
])
def test_an_unknown_name_is_a_warning_naming_the_closest_known_one(tmp_path, toml, says):
    (warning,) = load_settings(vault_with(tmp_path, toml)).warnings
    assert warning.startswith(says)


def test_known_names_and_the_environment_give_no_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("WALKER_WARNINGS", "x")  # not a setting: no variable sets the warnings
    every = re.sub(r"^# (\w+ = )", r"\1", DEFAULT_CONFIG, flags=re.MULTILINE)  # the template, all uncommented
    assert every.count("\n# ") < DEFAULT_CONFIG.count("\n# ") - 20
    assert load_settings(vault_with(tmp_path, every)).warnings == ()


def test_the_known_tables_keep_in_step_with_the_settings_walker_reads():
    from walker.cadence import RunSettings
    from walker.surface import SurfaceSettings
    from walker.walk.engines.llm import LLMSettings
    from walker.walk.runner import WalkSettings
    from walker.wander import WanderSettings

    read = {"wander": WanderSettings, "walk": WalkSettings, "run": RunSettings, "surface": SurfaceSettings,
            "engine.llm": LLMSettings}
    assert {name: tuple(f.name for f in dataclasses.fields(cls)) for name, cls in read.items()} == TABLES
    assert KEYS == tuple(f.name for f in dataclasses.fields(Settings) if f.name not in ("extra", "warnings"))
    assert all(f"\n[{name}]" in DEFAULT_CONFIG for name in TABLES)  # `walker init` writes every table


def test_a_typo_never_stops_a_command_and_the_rest_of_the_table_still_counts(tmp_path):
    vault = vault_with(tmp_path, "[wander]\nfra = 2\nnear = 3\n[walk]\nengin = 'llm'\n")
    settings = load_settings(vault)
    from walker.walk.runner import WalkSettings
    from walker.wander import WanderSettings

    assert table(WanderSettings, settings.extra, "wander") == WanderSettings(near=3)
    assert table(WalkSettings, settings.extra, "walk") == WalkSettings()
    result = CliRunner().invoke(main, ["scan", str(vault)])
    assert result.exit_code == 0, result.output


def test_each_warning_is_logged_once_per_command_even_before_a_wrong_value(tmp_path, caplog):
    vault = vault_with(tmp_path, "workrs = 2\nmax_note_mb = 0\n")
    with caplog.at_level(logging.WARNING, logger="walker"):
        for _ in range(2):
            with pytest.raises(ConfigError, match="max_note_mb"):
                load_settings(vault)
    assert [r.getMessage() for r in caplog.records] == [
        "warning: walker.toml: unknown key workrs (did you mean workers?); walker ignores it"]


def test_the_warnings_reach_stderr_once(tmp_path):
    vault = vault_with(tmp_path, 'exlude = ["B.md"]\n[wandr]\nfar = 2\n')
    result = subprocess.run([WALKER, "scan", str(vault)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "walker.toml" in line]
    assert warnings == ["warning: walker.toml: unknown key exlude (did you mean exclude?); walker ignores it",
                        "warning: walker.toml: unknown table [wandr] (did you mean [wander]?); walker ignores it"]


def test_walker_check_lists_them_among_its_findings(tmp_path, caplog):
    vault = vault_with(tmp_path, 'exlude = ["B.md"]\n[wandr]\nfar = 2\n')
    with caplog.at_level(logging.WARNING, logger="walker"):
        shown = CliRunner().invoke(main, ["check", str(vault)])
        data = json.loads(CliRunner().invoke(main, ["check", str(vault), "--json"]).stdout)
    assert shown.exit_code == 1
    assert shown.stdout.splitlines() == ["settings: walker.toml: unknown key exlude (did you mean exclude?)",
                                         "settings: walker.toml: unknown table [wandr] (did you mean [wander]?)",
                                         "2 problems found"]
    assert [(p["kind"], p["path"], p["message"]) for p in data["problems"]] == [
        ("settings", "walker.toml", "unknown key exlude (did you mean exclude?)"),
        ("settings", "walker.toml", "unknown table [wandr] (did you mean [wander]?)")]
    assert not [r for r in caplog.records if "walker.toml" in r.getMessage()]  # findings here, not warnings too
    (vault / "walker.toml").write_text('exclude = ["B.md"]\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(vault)]).exit_code == 0
