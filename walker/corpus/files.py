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


def read_note(root: Path | str, path: str, limit: int) -> bytes:
    """The bytes of the note at vault-relative ``path``, read as scan lists it: a regular file, or a
    symlink to one inside the vault (read at its target, so no link is followed). NotAFile otherwise,
    TooLarge past ``limit``: the file may have changed since the scan."""
    full = os.path.join(root, path)
    try:
        return safefile.read_bytes(full, limit)
    except safefile.NotAFile as exc:
        if exc.errno != errno.ELOOP:
            raise
    target = os.path.realpath(full)
    if not inside(target, os.path.realpath(root)):
        raise safefile.NotAFile(errno.EXDEV, "a symlink to outside the vault, not followed", full)
    return safefile.read_bytes(target, limit)
