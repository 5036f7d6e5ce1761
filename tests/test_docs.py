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


def test_the_command_line_starts_light_and_knows_what_the_heavy_modules_offer():
    """`walker --help` and a chat hook (run on every turn) load no parser, numpy or scikit-learn;
    the names the options offer stay in step with the modules that implement them."""
    import subprocess
    import sys

    from walker.cli import EXPORT_FORMATS
    from walker.graph import EXPORT_FORMATS as WRITTEN

    code = "import sys, walker.cli; print(sorted(m for m in ('numpy', 'sklearn', 'markdown_it') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"
    assert EXPORT_FORMATS == WRITTEN


def test_no_section_numbers_in_what_walker_writes_for_users(tmp_path):
    """Users do not have the protocol: no "§" in help, reports, records or site pages."""
    import click
    from click.testing import CliRunner
    from conftest import SAMPLE_VAULT, copy_vault_files

    from walker.cli import main
    from walker.site.build import build_site

    def helps(group: click.Group, path: list[str]):
        for name, command in group.commands.items():
            yield CliRunner().invoke(main, [*path, name, "--help"]).output
            if isinstance(command, click.Group):
                yield from helps(command, [*path, name])

    assert all("§" not in text for text in helps(main, []))
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    assert CliRunner().invoke(main, ["run", str(vault), "--now", "2026-12-07T07:00:00"]).exit_code == 0
    build_site(vault, tmp_path / "site")
    written = [*(vault / "walks").rglob("*.md"), *(vault / "walks").rglob("*.yaml"), *(tmp_path / "site").rglob("*.html")]
    assert written and [p for p in written if "§" in p.read_text(encoding="utf-8")] == []


def test_the_documentation_builds_with_mkdocs_strict(tmp_path):
    """docs/ builds as its own site (mkdocs-docs.yml), apart from the review site's mkdocs.yml."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(ROOT / "mkdocs-docs.yml"), "--strict",
                             "-d", str(tmp_path / "docs")], capture_output=True, text=True, cwd=ROOT,
                            env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "docs" / "reading-a-vault.html").is_file() and (tmp_path / "docs" / "protocol.html").is_file()


def test_the_obsidian_rules_page_lists_exactly_the_cases_the_tests_check():
    page = (ROOT / "docs" / "reading-a-vault.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| ([PTHBR]\d+) \|", page, re.MULTILINE))
    tests = (ROOT / "tests" / "test_parse.py").read_text() + (ROOT / "tests" / "test_resolve.py").read_text()
    tested = {case.upper() for case in re.findall(r"(?<![\w])\(?\"?([PTHBR]\d+)\b", tests, re.IGNORECASE)
              if re.fullmatch(r"[PTHBR]\d+", case, re.IGNORECASE)}
    tested |= {m.upper() for m in re.findall(r"def test_([ptbhr]\d+)_", tests)}
    assert documented == tested, (sorted(documented - tested), sorted(tested - documented))
