import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REAL_VAULTS = ROOT / "tests" / "fixtures" / "vaults"  # two real vaults by other people (see its README.md)
SAMPLE_VAULT = ROOT / "sample-vault"


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory, monkeypatch):
    """Each test gets its own parse cache; nothing touches the user's cache folder."""
    monkeypatch.setenv("WALKER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("WALKER_VAULT", raising=False)
    monkeypatch.setenv("WALKER_LOCK_WAIT", "0.3")  # a busy pool is reported in a moment, not after 10 s


def copy_vault_files(source: Path, destination: Path) -> Path:
    """A copy of a vault without walker's output (a demo run may have left walks/ in sample-vault)."""
    return Path(shutil.copytree(source, destination, symlinks=True, ignore=shutil.ignore_patterns("walks")))


def write_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root
