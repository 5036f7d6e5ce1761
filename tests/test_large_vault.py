"""Vaults big enough to be parsed by worker processes: the first walk finishes, and library use is safe."""

import os
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from make_vault import make_vault  # noqa: E402


def test_first_walk_on_six_thousand_notes_finishes(tmp_path):
    # Parsing forks worker processes. Forked from a process that had loaded numpy, they once left
    # OpenBLAS waiting forever in the index's SVD: a first walk on 6,000 notes hung with no output.
    vault = make_vault(tmp_path / "vault", 6000)
    walker = os.path.join(os.path.dirname(sys.executable), "walker")
    done = subprocess.run([walker, "walk", str(vault), "--dry-run", "--now", "2026-12-04T07:50:00"],
                          env=dict(os.environ, WALKER_CACHE_DIR=str(tmp_path / "cache")),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "This walk read" in done.stdout


def test_a_script_without_a_main_guard_reads_a_vault_once(tmp_path):
    """Library use: parsing several hundred notes in worker processes must not run the caller's script again."""
    vault = make_vault(tmp_path / "vault", 300)
    script = tmp_path / "script.py"
    script.write_text("import sys\nfrom walker.corpus import load_corpus\n"
                      "open(sys.argv[2], 'a').write('ran\\n')\n"
                      "print(len(load_corpus(sys.argv[1], use_cache=False).notes))\n", encoding="utf-8")
    marks = tmp_path / "ran.txt"
    done = subprocess.run([sys.executable, str(script), str(vault), str(marks)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "300" and marks.read_text() == "ran\n"
