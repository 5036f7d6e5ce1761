"""The README's two commands in either order: the demo's `walker run sample-vault` writes walks/ into the real folder,
and the tests that follow never read it. They read sample-vault/ through a copy without walker's output
(conftest.copy_vault_files, the session's sample_vault), never the folder itself."""

import ast
import json
import re
import subprocess
from pathlib import Path

import conftest
import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT, copy_sample_vault

from walker.cli import main

FRONT_MATTER = re.compile(r"^---\n(.*?)\n---\n", re.DOTALL)


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def critique(record: dict, vault: Path, tmp_path: Path) -> dict:
    candidates = tmp_path / "candidates.yaml"
    candidates.write_text(yaml.safe_dump([json.loads(json.dumps(record, default=str))], allow_unicode=True),
                          encoding="utf-8")
    result = CliRunner().invoke(main, ["critique", str(candidates), str(vault), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["verdicts"][0]


def test_what_a_demo_run_leaves_in_sample_vault_never_reaches_a_test(tmp_path, monkeypatch):
    """A sample-vault/ after the README's main command (and `walker init`, and a look in Obsidian) gives the tests
    the same files as a fresh clone; on the walked folder itself, a walk's own kept bridge is a duplicate."""
    fresh = copy_sample_vault(tmp_path / "fresh")
    demo = copy_sample_vault(tmp_path / "demo" / "sample-vault")
    vault, site = str(demo), str(tmp_path / "site")
    for args in (["run", vault, "--now", "2026-12-07T07:00:00"], ["site", "build", vault, "-o", site], ["init", vault]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
    conftest.write_vault(demo, {".obsidian/workspace.json": "{}", ".obsidian/plugins/templater-obsidian/data.json": "{}",
                                ".trash/Old.md": "# Old\n"})
    kept = sorted((demo / "walks" / "active").glob("hyp-*.md"))
    assert kept and (demo / "walker.toml").is_file(), "the demo run kept no hypothesis: nothing to leave behind"

    monkeypatch.setattr(conftest, "SAMPLE_VAULT", demo)
    copy = copy_sample_vault(tmp_path / "copy")
    assert files(copy) == files(fresh)

    record = {**yaml.safe_load(FRONT_MATTER.match(kept[0].read_text(encoding="utf-8")).group(1)), "id": "again"}
    assert "duplicate-of-pool" in critique(record, demo, tmp_path)["rules"]  # what test_critic once saw
    assert "duplicate-of-pool" not in critique(record, copy, tmp_path)["rules"]


def test_the_copy_holds_what_the_repository_holds_and_nothing_it_ignores(sample_vault):
    def listed(*options: str) -> set[str]:
        try:
            found = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", *options, "--", "sample-vault"],
                                   capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            pytest.skip("not a git checkout: nothing says what the repository holds")
        return {name.removeprefix("sample-vault/") for name in found.split("\0")
                if name and (ROOT / name).exists()}

    copied = set(files(sample_vault))
    assert listed() <= copied
    assert not listed("--others", "--ignored", "--exclude-standard") & copied


def _reads_the_real_folder(node: ast.Name, parents: dict[ast.AST, ast.AST]) -> bool:
    """True when SAMPLE_VAULT itself is handed to code (an argument, a CLI argument list, an alias, a method);
    copy_vault_files(SAMPLE_VAULT, …), a default, a comparison and a path to one note are fine."""
    child, parent = node, parents[node]
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("str", "Path"):
        child, parent = parent, parents[parent]  # str(SAMPLE_VAULT) in a CLI argument list
    if isinstance(parent, ast.Call) and parent.args[:1] == [child]:
        return not (isinstance(parent.func, ast.Name) and parent.func.id == "copy_vault_files")
    if isinstance(parent, ast.BinOp) and isinstance(parent.right, ast.Constant):
        return str(parent.right.value).split("/")[0] == "walks"
    return not isinstance(parent, (ast.arguments, ast.Compare))


def test_no_test_reads_the_real_sample_vault_folder():
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        found += [f"{path.name}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.Name) and node.id == "SAMPLE_VAULT" and _reads_the_real_folder(node, parents)]
    assert not found, f"use the sample_vault fixture or copy_vault_files(SAMPLE_VAULT, …) at {', '.join(found)}"


def test_the_static_check_finds_the_ways_a_test_reaches_the_real_folder():
    def flagged(source: str) -> bool:
        tree = ast.parse(source)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        return any(_reads_the_real_folder(n, parents) for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and n.id == "SAMPLE_VAULT")

    for bad in ("Workspace.open(SAMPLE_VAULT)", "runner.invoke(main, ['scan', str(SAMPLE_VAULT)])",
                "shutil.copytree(SAMPLE_VAULT, vault)", "VAULT = SAMPLE_VAULT", "SAMPLE_VAULT.rglob('*.md')",
                "load(SAMPLE_VAULT / 'walks' / 'active')", "site_config(vault=SAMPLE_VAULT)"):
        assert flagged(bad), bad
    for good in ("copy_vault_files(SAMPLE_VAULT, tmp_path / 'vault')", "def f(source=SAMPLE_VAULT): pass",
                 "x = source == SAMPLE_VAULT", "(SAMPLE_VAULT / 'Home.md').read_text()"):
        assert not flagged(good), good
