"""The library API is what `walker` names, and the README's Python example runs from it alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import walker

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_name_of_the_api_resolves_and_nothing_else_does():
    for name in walker.__all__:
        assert getattr(walker, name) is not None, name
    assert not hasattr(walker, "TextIndex")


def test_importing_walker_loads_none_of_its_parts():
    done = subprocess.run([sys.executable, "-c", "import sys, walker; print(sorted(m for m in sys.modules "
                           "if m.startswith('walker.')))"], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]"  # hooks and every command stay as fast as what they import


def test_the_readme_python_example_runs_from_the_api_alone(sample_vault, monkeypatch):
    (example,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert re.findall(r"^from walker[.\w]* import", example, re.M) == ["from walker import"]
    monkeypatch.chdir(sample_vault.parent)
    code = example.replace('"sample-vault"', repr(sample_vault.name))
    printed: list[object] = []
    exec(compile(code, "README.md", "exec"), {"print": printed.append})
    assert str(printed[0]).startswith("---\n")  # the report, with its properties first
