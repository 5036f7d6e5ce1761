"""Every file walker reads goes through here, and the modes of every file it writes (``walker.safewrite``
writes them).

Reading: only a regular file, opened without blocking (a FIFO named ``x.md`` never hangs a command)
and, unless asked, without following a symlink; never more than a size cap (a note linked to
``/dev/zero`` never fills the memory).

Modes: a file walker writes gets what any new file of this process would, ``0o666`` less the umask
(``file_mode``), so a vault shared between accounts or synced for someone else stays readable to them;
its folders get ``0o777`` less the umask, which is what ``os.mkdir`` gives. What only this user may
read (the caches) is written ``PRIVATE`` whatever the umask.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
from pathlib import Path

MB = 1024 * 1024
SETTINGS_LIMIT = 1 * MB   # walker.toml, .obsidian/app.json, .gitignore, a client's settings file
RECORD_LIMIT = 4 * MB     # one pool record, run record or log line file read whole
REPORT_LIMIT = 16 * MB    # a walk report or walks/log.md


PRIVATE = 0o600  # a cache file: read and written by this user only


@functools.cache
def umask() -> int:
    """The process umask, read once. Linux shows it in /proc; elsewhere it can only be read by setting
    it, so it is set to the strictest mask for that instant (a file another thread creates meanwhile is
    too private, never too open) and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            if found := re.search(r"^Umask:\s*([0-7]+)$", status.read(), re.MULTILINE):
                return int(found.group(1), 8)
    except OSError:
        pass
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of a new file under the umask: 0644 under umask 022, 0600 under 077."""
    return 0o666 & ~umask()


def folder_mode() -> int:
    """The mode of a new folder under the umask: 0755 under umask 022, 0700 under 077."""
    return 0o777 & ~umask()


class NotAFile(OSError):
    """The path is a FIFO, a device, a socket or a folder, or a symlink where none may be."""


class TooLarge(OSError):
    """The file holds more than the reader's cap."""


def read_bytes(path: Path | str, limit: int, follow: bool = False) -> bytes:
    """The whole content of a regular file of at most ``limit`` bytes."""
    descriptor = _open_regular(path, follow)
    with os.fdopen(descriptor, "rb") as handle:
        # As much as the file holds, not as much as the cap allows: a read sets its buffer aside first.
        size = os.fstat(descriptor).st_size
        data = handle.read(min(limit, size) + 1)
        if size < len(data) <= limit:  # it grew since the stat (or it is a /proc file that says 0): read on
            data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise TooLarge(errno.EFBIG, f"larger than {limit / MB:g} MB", str(path))
    return data


def _open_regular(path: Path | str, follow: bool) -> int:
    """A descriptor on a regular file. A special file is refused before it is opened (opening some
    devices does something) and checked again once open (it may have been swapped in between)."""
    kind = (os.stat if follow else os.lstat)(path).st_mode
    if not stat.S_ISREG(kind):
        raise NotAFile(errno.EINVAL, f"not a regular file ({kind_name(kind)})", str(path))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotAFile(errno.ELOOP, "a symlink, not followed", str(path)) from None
        raise
    kind = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(kind):
        os.close(descriptor)
        raise NotAFile(errno.EINVAL, f"not a regular file ({kind_name(kind)})", str(path))
    return descriptor


def read_text(path: Path | str, limit: int, follow: bool = False, errors: str = "strict") -> str:
    return read_bytes(path, limit, follow).decode("utf-8", errors=errors)


def read_tail(path: Path | str, limit: int, follow: bool = True) -> bytes:
    """The last ``limit`` bytes of a regular file (a chat transcript can hold gigabytes)."""
    descriptor = _open_regular(path, follow)
    with os.fdopen(descriptor, "rb") as handle:
        handle.seek(max(0, os.fstat(descriptor).st_size - limit))
        return handle.read(limit)


def is_regular(path: Path | str) -> bool:
    """A regular file itself, not a symlink to one."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def kind_name(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a symlink"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"
