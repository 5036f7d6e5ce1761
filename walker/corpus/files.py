"""Reading one note's bytes as the scan lists it: a regular file, or a symlink to one inside the vault.
Apart from the scan, so that the parse rules (text.py) can read a note without depending on how a vault
is listed."""

from __future__ import annotations

import errno
import os
import unicodedata
from pathlib import Path

from walker import safefile


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def read_note(root: Path | str, path: str, limit: int) -> bytes:
    """The bytes of the note at vault-relative ``path``, read as scan lists it: a regular file, or a
    symlink to one inside the vault (read at its target, so no link is followed). NotAFile otherwise,
    TooLarge past ``limit``: the file may have changed since the scan."""
    full = on_disk(root, path)
    try:
        return safefile.read_bytes(full, limit)
    except safefile.NotAFile as exc:
        if exc.errno != errno.ELOOP:
            raise
    target = os.path.realpath(full)
    if not inside(target, os.path.realpath(root)):
        raise safefile.NotAFile(errno.EXDEV, "a symlink to outside the vault, not followed", full)
    return safefile.read_bytes(target, limit)


def on_disk(root: Path | str, path: str) -> str:
    """Where the file at vault-relative ``path`` is on disk. The scan names a file in composed Unicode, as Obsidian
    links to it; a vault synced from a Mac may write the name decomposed ("Küche" as u and a combining diaeresis),
    which is another name on most file systems but this one. Each part of the path missing as written is looked
    for in its folder in either form, and a name with no such twin stays as written, so reading it fails as usual."""
    full = os.path.join(root, path)
    if path.isascii() or os.path.lexists(full):
        return full
    found = os.fspath(root)
    for part in path.split("/"):
        here = os.path.join(found, part)
        if not os.path.lexists(here):
            try:
                twins = sorted(n for n in os.listdir(found) if unicodedata.normalize("NFC", n) == part)
            except OSError:
                return full
            if not twins:
                return full
            here = os.path.join(found, twins[0])
        found = here
    return found
