"""Every command is in the README and has help; the README's two commands are what CI runs."""

import re

import click
from click.testing import CliRunner
from conftest import ROOT

from walker.cli import main


def commands(group: click.Group, prefix: str = "walker") -> list[str]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += commands(command, f"{prefix} {name}")
        else:
            found.append(f"{prefix} {name}")
    return found


def test_every_command_is_documented_and_has_help():
    readme = (ROOT / "README.md").read_text()
    for command in commands(main):
        assert f"`{command}" in readme, command
        args = command.split()[1:] + ["--help"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and len(result.output.splitlines()) > 3, command


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"<!-- test-command -->\n```bash\n.+pytest", readme)
    assert re.search(r"<!-- main-command -->\n```bash\n.+walker run sample-vault.+walker site build", readme)
    assert "<!-- test-command -->" in (ROOT / ".ci" / "run").read_text()
