"""A first walk on a vault of thousands of notes finishes: the command a new user runs first."""

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
