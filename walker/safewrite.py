"""Every file walker writes goes through here: never through a symlink or into a special file, dangling links
included; the text goes to a temporary file beside the target, is synced, and is renamed over it, so a crash or
a full disk leaves the old file or the new one, never a half. A module that may write imports this one; the
import contracts in pyproject.toml name the ones that never may (the walk, the corpus, neighbours, surfacing).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from walker.safefile import NotAFile, file_mode, kind_name


def refuse_unsafe_target(path: Path) -> None:
    """Raise NotAFile when ``path`` exists as anything but a regular file: a symlink (dangling or
    not), a FIFO, a device, a folder."""
    try:
        kind = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(kind):
        raise NotAFile(errno.EEXIST, f"refusing to write over {kind_name(kind)}", str(path))


def write_atomic(path: Path, text: str | bytes, mode: int | None = None) -> None:
    """Replace ``path`` by ``text`` whole: a temporary file beside it, synced, renamed over it. ``mode``
    defaults to ``file_mode()``."""
    refuse_unsafe_target(path)
    mode = file_mode() if mode is None else mode
    data = text.encode("utf-8") if isinstance(text, str) else text
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        _write_synced(descriptor, data, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


TEMPORARY_PREFIX = ".walker-"  # a new file being written (create_new): hidden in Obsidian, found by `check`


def create_new(path: Path, text: str | bytes, mode: int | None = None) -> None:
    """Write a file that must not exist yet, whole or not at all: a temporary file beside it, synced, then
    hard-linked to its name, which is atomic and never replaces a name (FileExistsError when it is taken,
    even by a dangling symlink). A file system without hard links gets a create-only write that removes
    what it started on a failure (a full disk). ``mode`` defaults to ``file_mode()``."""
    mode = file_mode() if mode is None else mode
    data = text.encode("utf-8") if isinstance(text, str) else text
    descriptor, temporary = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".tmp", dir=path.parent)
    try:
        _write_synced(descriptor, data, mode)
        try:
            os.link(temporary, path, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
                raise
            _create_in_place(path, data, mode)
    finally:
        Path(temporary).unlink(missing_ok=True)


def _create_in_place(path: Path, data: bytes, mode: int) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        _write_synced(descriptor, data, mode)
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise


def _write_synced(descriptor: int, data: bytes, mode: int) -> None:
    """Give the file exactly ``mode`` (creating it took the umask off), write all of ``data``, sync it to
    disk, and close the descriptor whatever happens."""
    try:
        os.fchmod(descriptor, mode)
        write_all(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_all(descriptor: int, data: bytes) -> None:
    """Write all of ``data`` (``os.write`` may write less than it was given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]
