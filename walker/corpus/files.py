"""Reading one note's bytes as the scan lists it: a regular file, or a symlink to one inside the vault.
Apart from the scan, so that the parse rules (text.py) can read a note without depending on how a vault
is listed."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from walker import safefile


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def read_note(root: Path | str, path: str, limit: int, expected: int = 256 * 1024) -> bytes:
    """The bytes of the note at vault-relative ``path``, read as scan lists it: a regular file, or a
    symlink to one inside the vault (read at its target, so no link is followed). NotAFile otherwise,
    TooLarge past ``limit``: the file may have changed since the scan."""
    full = os.path.join(root, path)
    try:
        return read_regular(full, limit, expected)
    except safefile.NotAFile as exc:
        if exc.errno != errno.ELOOP:
            raise
    target = os.path.realpath(full)
    if not inside(target, os.path.realpath(root)):
        raise safefile.NotAFile(errno.EXDEV, "a symlink to outside the vault, not followed", full)
    return read_regular(target, limit, expected)


def read_regular(path: str, limit: int, expected: int) -> bytes:
    """``safefile.read_bytes(path, limit)``, asking first for ``expected`` bytes at most: it sets aside
    as much memory as it may read, and a 5 MB buffer for each small note made a cold scan's reads four
    times slower."""
    if expected < limit:
        try:
            return safefile.read_bytes(path, expected)
        except safefile.TooLarge:
            pass
    return safefile.read_bytes(path, limit)
