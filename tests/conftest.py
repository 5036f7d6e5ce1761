import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from walker.config import CONFIG_FILE
from walker.corpus.scan import POOL_FOLDER
from walker.safefile import TEMPORARY_PREFIX

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"  # vaults written for these tests (see its README.md)
SAMPLE_VAULT = ROOT / "sample-vault"  # the demo's vault: a user's `walker run sample-vault` writes into it; copy it
REAL_VAULT_NAMES = ("obsidian-tasks-docs", "tasks-demo")  # by other people: kept outside the repository
OBSIDIAN_SETTINGS = ("app.json", "daily-notes.json", "templates.json")  # what a vault commits of .obsidian/


@pytest.fixture(autouse=True, scope="session")
def quiet_session(tmp_path_factory):
    """What isolated_cache sets, for the fixtures of a module or a session too (they run before it): their own
    cache, and the engine without the sentence-embedding model."""
    saved = {name: os.environ.get(name) for name in ("WALKER_CACHE_DIR", "WALKER_MEANING")}
    os.environ["WALKER_CACHE_DIR"] = str(tmp_path_factory.mktemp("session-cache"))
    os.environ["WALKER_MEANING"] = "0"
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory, monkeypatch):
    """Each test gets its own parse cache; nothing touches the user's cache folder."""
    monkeypatch.setenv("WALKER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("WALKER_VAULT", raising=False)
    monkeypatch.setenv("WALKER_LOCK_WAIT", "0.3")  # a busy pool is reported in a moment, not after 10 s
    # The walks under test are the engine without the sentence-embedding model, whether or not walker[meaning] is
    # installed here, so their outcomes are the same on every machine; tests/test_meaning.py switches it on.
    monkeypatch.setenv("WALKER_MEANING", "0")


def _leftovers(root: Path) -> Callable[[str, list[str]], set[str]]:
    """What walker and Obsidian write into a vault, which no fixture holds: walker's pool, the walker.toml that
    `walker init` writes (sample-vault/ ships none, see .gitignore), a file walker was writing, Obsidian's trash,
    and Obsidian's per-device state (window layout, plugins, themes) beside the settings a vault commits."""
    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder)
        left = {n for n in names if n == POOL_FOLDER or n.startswith(TEMPORARY_PREFIX)}
        if here == root:
            left |= {n for n in names if n in (CONFIG_FILE, ".trash")}
        elif here == root / ".obsidian":
            left |= {n for n in names if n not in OBSIDIAN_SETTINGS}
        return left
    return ignore


def copy_vault_files(source: Path, destination: Path) -> Path:
    """A copy of a vault without walker's output or Obsidian's state (a demo run may have left walks/ in sample-vault)."""
    return Path(shutil.copytree(source, destination, symlinks=True, ignore=_leftovers(Path(source))))


def copy_sample_vault(destination: Path) -> Path:
    """sample-vault/ as the repository holds it, whatever a demo run left in the real folder."""
    return copy_vault_files(SAMPLE_VAULT, destination)


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


@pytest.fixture(scope="session")
def sample_vault(tmp_path_factory) -> Iterator[Path]:
    """One clean copy of sample-vault/ per session, to read only: a test that writes copies it first
    (copy_vault_files). The copy is checked unchanged at the end of the session."""
    vault = copy_sample_vault(tmp_path_factory.mktemp("sample") / "sample-vault")
    before = _snapshot(vault)
    yield vault
    assert _snapshot(vault) == before, "a test wrote into the shared sample_vault copy; copy it first"


def real_vaults_folder() -> Path:
    """Where the real vaults are: $WALKER_REAL_VAULTS, else shared/vaults beside the clone (where CI has them)."""
    return Path(os.environ.get("WALKER_REAL_VAULTS") or ROOT.parent / "shared" / "vaults")


def real_vault(name: str) -> Path:
    """A real vault by other people, to read only (copy it before writing). Without it the test is skipped, except
    where someone named the folder (WALKER_REAL_VAULTS): there it fails. ``.ci/run`` says whether it found them."""
    folder = real_vaults_folder() / name
    if not folder.is_dir():
        why = (f"real vault {name} not found in {folder.parent}: set WALKER_REAL_VAULTS to a folder holding "
               f"{' and '.join(n + '/' for n in REAL_VAULT_NAMES)}")
        if os.environ.get("WALKER_REAL_VAULTS"):
            pytest.fail(why)
        pytest.skip(why)
    return folder


def write_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def need_chromium() -> None:
    """Skip the calling test module without Debian's chromium, except under CI, where a missing one is an error."""
    if not CHROMIUM:
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser tests")
        pytest.skip("no chromium on this machine", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        yield launched
        launched.close()

