"""Every vault file the site reads (reports, the log, notes, pictures), through ``walker.safefile``.

Only a regular file is read, never past a cap: a FIFO, a device, a socket or a link to ``/dev/zero``
among the reports or the notes is skipped with one warning on the ``walker.site`` logger (the build
reports it as a problem of the vault's content), never read.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from walker import safefile

log = logging.getLogger("walker.site")

PICTURE_LIMIT = 5 * safefile.MB  # an SVG walker draws or a note embeds; larger ones are not inlined


def read_bytes(path: Path, limit: int, vault: Path, links: bool = False) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes, or None (with a warning) when it is anything
    else. ``links``: a symlink to a file inside ``vault`` is followed, as the corpus reads a linked note
    (walker's own files under walks/ are never links)."""
    try:
        return safefile.read_bytes(path, limit, follow=links and _inside(path, vault))
    except OSError as exc:
        log.warning("Skipped %s: %s", _shown(path, vault), exc.strerror or exc)
        return None


def read_text(path: Path, limit: int, vault: Path, links: bool = False) -> str | None:
    data = read_bytes(path, limit, vault, links)
    return None if data is None else data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def _inside(path: Path, vault: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(vault))


def _shown(path: Path, vault: Path) -> str:
    try:
        return path.relative_to(vault).as_posix()
    except ValueError:
        return str(path)
