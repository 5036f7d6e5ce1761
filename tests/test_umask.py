"""Files walker writes into the vault and the site follow the umask; the caches stay private whatever it is."""

import errno
import os
import stat
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, write_vault

from walker import safefile, safewrite
from walker.cli import main
from walker.config import cache_dir
from walker.inbox import Conclusion, capture
from walker.pool.store import PoolStore
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace

NOW = datetime(2026, 11, 30, 7, 0, tzinfo=timezone.utc)


@pytest.fixture
def umask():
    """Set the process umask for one test (``umask(0o077)``); the one before is back afterwards."""
    before = os.umask(0o022)
    os.umask(before)

    def set_umask(mask: int) -> None:
        os.umask(mask)
        safefile.umask.cache_clear()  # walker reads the umask once per process

    yield set_umask
    os.umask(before)
    safefile.umask.cache_clear()


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_umask_is_read_without_being_changed(umask, monkeypatch):
    umask(0o027)
    assert safefile.umask() == 0o027 and (safefile.file_mode(), safefile.folder_mode()) == (0o640, 0o750)
    real_open = open

    def no_proc(path, *args, **kwargs):  # a system without /proc/self/status: the umask is set and put back
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(errno.ENOENT, "no /proc", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", no_proc)
    safefile.umask.cache_clear()
    assert safefile.umask() == 0o027
    assert os.umask(0o027) == 0o027  # what it was before walker read it


@pytest.mark.parametrize("mask, file, folder", [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)])
def test_a_walk_writes_its_files_under_the_umask_and_its_caches_private(tmp_path, umask, mask, file, folder):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    umask(mask)
    result = run_walk(Workspace.open(vault), WalkOptions(now=NOW, random_seed=1, seed_note="Autoscaler Oscillation"))
    walks = vault / "walks"
    records = [r.path for r in PoolStore(vault).records()]
    assert records, "the walk kept a hypothesis"
    written = [*records, walks / "reports" / f"{result.outcome.walk_id}.md",
               walks / "runs" / f"{result.outcome.walk_id}.yaml", walks / "log.md", walks / "README.md", walks / ".lock"]
    assert {p.relative_to(vault).as_posix(): mode(p) for p in written} == {
        p.relative_to(vault).as_posix(): file for p in written}
    folders = [walks, *(p for p in walks.iterdir() if p.is_dir())]
    assert {p.name: mode(p) for p in folders} == {p.name: folder for p in folders}
    cache = cache_dir()
    cached = [p for p in cache.rglob("*") if p.is_file()]
    assert cached and {p.name: mode(p) for p in cached} == {p.name: safefile.PRIVATE for p in cached}
    assert mode(cache) == 0o700


def test_the_parse_cache_is_private_under_an_open_umask_and_an_older_one_is_made_so(tmp_path, umask):
    vault = write_vault(tmp_path / "vault", {"A.md": "# A\n\nSee [[B]].\n", "B.md": "# B\n"})
    umask(0o000)
    Workspace.open(vault)
    (database,) = cache_dir().glob("vault-*.sqlite")
    assert mode(database) == 0o600 and mode(cache_dir()) == 0o700
    database.chmod(0o644)  # as walker left it before the cache was made private
    Workspace.open(vault)
    assert mode(database) == 0o600


@pytest.mark.parametrize("hard_links", [True, False])
def test_a_conclusion_note_follows_the_umask_with_or_without_hard_links(tmp_path, umask, monkeypatch, hard_links):
    if not hard_links:  # a file system without hard links: the create-only write in place
        def no_link(*args, **kwargs):
            raise OSError(errno.EPERM, "hard links not supported")
        monkeypatch.setattr(os, "link", no_link)
    vault = write_vault(tmp_path / "vault", {"A.md": "# A\n"})
    umask(0o002)
    note = capture(vault, "Inbox", Conclusion(created="2026-11-30", source="user statement on 2026-11-29",
                                              statement="Starters and queues both fail when overfed.",
                                              inspired_by="hyp-2026-11-30-001"))
    assert (mode(note), mode(vault / "Inbox")) == (0o664, 0o775)
    umask(0o000)
    private = vault / "Inbox" / "private.md"
    safewrite.create_new(private, "only mine", safefile.PRIVATE)
    assert mode(private) == 0o600


def test_a_replaced_file_gets_the_umask_mode_and_a_symlink_is_still_refused(tmp_path, umask):
    umask(0o077)
    path = tmp_path / "log.md"
    path.write_text("old")
    path.chmod(0o644)
    safewrite.write_atomic(path, "new")
    assert (path.read_text(), mode(path)) == ("new", 0o600)
    (tmp_path / "link.md").symlink_to(path)
    with pytest.raises(safefile.NotAFile):
        safewrite.write_atomic(tmp_path / "link.md", "through the link")
    assert path.read_text() == "new"


def test_the_site_folder_follows_the_umask(tmp_path, umask):
    from walker.site.build import build_site

    vault = write_vault(tmp_path / "vault", {"A.md": "# A\n\nSee [[B]].\n", "B.md": "# B\n"})
    umask(0o027)
    site = build_site(vault, tmp_path / "site").index.parent
    assert (mode(site), mode(site / "index.html")) == (0o750, 0o640)


def test_a_crash_log_is_private_whatever_the_umask(tmp_path, umask, monkeypatch):
    monkeypatch.setenv("WALKER_CACHE_DIR", str(tmp_path / "cache"))

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in walker")

    monkeypatch.setattr("walker.graph.vault_summary", broken)
    vault = write_vault(tmp_path / "vault", {"A.md": "# A\n"})
    umask(0o000)
    assert CliRunner().invoke(main, ["scan", str(vault)]).exit_code == 3
    (log,) = (tmp_path / "cache").glob("crash-*.log")
    assert (mode(log), mode(tmp_path / "cache")) == (0o600, 0o700)
