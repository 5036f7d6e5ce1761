import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from walker.cli import main
from walker.config import CONFIG_FILE
from walker.corpus.scan import POOL_FOLDER
from walker.pool.store import PoolStore, read_record
from walker.safewrite import TEMPORARY_PREFIX
from walker.walk.candidate import Candidate, hypothesis_record
from walker.walk.critic import CriticContext
from walker.walk.engines.base import InventoryEntry, WalkContext
from walker.walk.engines.extractive import ExtractiveEngine, Propositions
from walker.wander import Neighbourhood, Seed, find_hubs

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"  # vaults written for these tests (see its README.md)
SAMPLE_VAULT = ROOT / "sample-vault"  # the demo's vault: a user's `walker run sample-vault` writes into it; copy it
REAL_VAULT_NAMES = ("obsidian-tasks-docs", "tasks-demo")  # by other people: kept outside the repository
OBSIDIAN_SETTINGS = ("app.json", "daily-notes.json", "templates.json")  # what a vault commits of .obsidian/


@pytest.fixture
def model_on(monkeypatch):
    monkeypatch.delenv("WALKER_MEANING", raising=False)
    from walker import meaning

    if meaning.model_folder() is None:
        if os.environ.get("CI"):
            pytest.fail("walker[meaning] is part of the test extra; CI must have it")
        pytest.skip("walker[meaning] is not installed here (pip install -e '.[meaning]')")


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

# --- helpers shared by test modules (a module never imports another's) ------------------------------------------

def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])

def pool_records(vault, folder):
    return {r.id: r for r in PoolStore(vault).records(folder)}

def edit_record(path, **fields):
    record = read_record(path, path.parent.name)
    PoolStore(path.parents[2]).update_record(record, fields)

def surface_record(record_id, claim, impact="add", status="active", applies=(), never=()):
    candidate = Candidate(claim=claim, supporting_refs=("Kitchen/Sourdough Starter.md#^feeding-schedule",
                                                        "Systems/Backpressure.md#^never-faster"),
                          confidence="low", impact=impact, impact_reason="not linked yet; a link would put the two passages side by side in both notes",
                          applies_when=tuple(applies), never_applies_when=tuple(never),
                          disconfirm_if=("The passages give opposite advice about feeding.",),
                          why_it_matters="A queue and a starter may fail the same way.")
    record = hypothesis_record(candidate, id=record_id, created="2026-11-30", seed="starter feeding",
                               walk_id="2026-11-30-001", engine="extractive", expires_after_walks=12)
    return dict(record, status=status)

# Surfacing's tuning set, for the pool surface_record writes: (turn, mode expected from the turn, ids surfaced in auto mode). Add the turns that fool it.
SURFACE_TURNS = [
    ("I've been wondering why my sourdough starter collapses after I feed it twice a day. Any ideas?", "auto",
     ["hyp-2026-11-30-001"]),
    ("Thinking about how fast to feed a sourdough starter: is slower feeding better?", "auto", ["hyp-2026-11-30-001"]),
    ("聊聊 how fast to feed a sourdough starter 这个想法", "auto", ["hyp-2026-11-30-001"]),  # §18 item 7
    ('Traceback (most recent call last):\n  File "feed.py", line 3, in <module>\nValueError: starter overfed', "auto", []),
    ("fix the failing test for the sourdough starter feeding schedule", "auto", []),
    ("Our deploy failed during the outage; how fast should the queue feed the consumer?", "auto", []),
    ("What is the capital of France?", "auto", []),
    ("Thinking about compost heat and fermentation, how might they relate?", "auto", []),  # rewrite: pull only
    ("I wonder how cadences create tension and release?", "auto", []),  # muted
    ("any other angle on compost heat and fermentation?", "pull", ["hyp-2026-11-30-002"]),
    ("walk note: cadences and tension", "pull", ["hyp-2026-11-30-003"]),
    ("散步看看 sourdough starter", "pull", ["hyp-2026-11-30-001"]),
    ("我是不是漏了什么? compost fermentation", "pull", ["hyp-2026-11-30-002"]),
]

def pair_context(ws, a, b):
    critic = CriticContext(ws.corpus, ws.index, {a, b}, [])
    hood = Neighbourhood(Seed(a, "", a, "given", ""), (), (), (), tuple(find_hubs(ws.links, ws.wander_settings)), ())
    return WalkContext(ws.corpus, ws.index, ws.links, hood, critic, {})


def pair_candidate(ws, a, b):
    """The candidate a walk's roam makes of two notes, or None."""
    context = pair_context(ws, a, b)
    ends = [InventoryEntry(p, ws.corpus.notes[p].title, g, p, (), "x", p) for p, g in ((a, "seed"), (b, "far"))]
    return ExtractiveEngine().hypothesis(context, Propositions(context), *ends)


def kept_candidate(ws, a, b):
    """The record a walk would keep of two notes (after the gate, the score and the cap), or None."""
    candidate = pair_candidate(ws, a, b)
    if candidate is None:
        return None
    (verdict,) = ExtractiveEngine().critique(pair_context(ws, a, b), [candidate])
    return candidate if verdict.accepted else None
