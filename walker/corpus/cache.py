"""SQLite parse cache, one file per vault in the user cache folder, never inside the vault.

A row is keyed by (path, mtime_ns, size) and holds what ``parse_note`` returned
for that file (or why it was skipped). The parser version and the settings
that change parsing are part of the database name, so a new parser never reads
an old parser's rows.

Rows are data to check, not to trust: marshal builds only plain values (never an object of a
class, never running code), and every row is checked for the shape walker writes before it is
used; a row that is not is a cache miss, and a file that is not a database is started afresh. A
folder ``cache_folder`` refuses (another user could write there) is not used: the cache is then
in memory, for this run only.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import sqlite3
import sys
from itertools import product
from pathlib import Path
from typing import Any

from walker.config import cache_folder
from walker.corpus.model import Block, Heading, ParsedNote, RawLink, Section
from walker.corpus.text import Paragraph
from walker.safefile import PRIVATE, is_regular

PARSER_VERSION = 3
# The code that decides what a row holds. Its source is part of the cache's name, so a change to how a
# link, tag, heading, block or paragraph is read (or how a row is stored) starts a fresh cache without
# anyone remembering to bump PARSER_VERSION.
PARSE_RULES = ("parse.py", "properties.py", "resolve.py", "model.py", "cache.py", "text.py", "files.py")


def source_digest(folder: Path, names: tuple[str, ...]) -> str:
    """A short hash of these source files: changes whenever one of them does."""
    digest = hashlib.sha1()
    for name in names:
        try:
            digest.update((folder / name).read_bytes())
        except OSError:
            digest.update(f"missing {name}".encode())
    return digest.hexdigest()[:12]

Entry = ParsedNote | str  # a parsed note, or the reason the file was skipped
_new = tuple.__new__


class ParseCache:
    def __init__(self, folder: Path, vault: Path, flavour: str) -> None:
        # marshal's format belongs to one Python version, so the version is part of the name too.
        version = f"{PARSER_VERSION}|{source_digest(Path(__file__).parent, PARSE_RULES)}|{sys.version_info[:2]}"
        key = hashlib.sha1(f"{vault.resolve()}|{version}|{flavour}".encode()).hexdigest()[:16]
        self.path = folder / f"vault-{key}.sqlite"
        usable = cache_folder(folder) is not None and (is_regular(self.path) or not os.path.lexists(self.path))
        try:
            self._db = self._open(self.path if usable else ":memory:")
        except sqlite3.DatabaseError:  # not a database (damaged, or something else under its name): start afresh
            self.path.unlink(missing_ok=True)
            self._db = self._open(self.path)

    @staticmethod
    def _open(where: Path | str) -> sqlite3.Connection:
        if where != ":memory:":
            try:
                _make_private(Path(where))
            except OSError as exc:  # not a file walker may use as its own: this run's cache is in memory
                _not_stored(Path(where), exc)
                where = ":memory:"
        db = sqlite3.connect(where)
        try:
            db.execute(
                "CREATE TABLE IF NOT EXISTS files "
                "(path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, data BLOB, paragraphs BLOB)"
            )
            # Where each note's links lead. Valid while the note is unchanged and the vault holds exactly
            # the same set of paths (``digest``): resolution depends on nothing else.
            db.execute(
                "CREATE TABLE IF NOT EXISTS resolved "
                "(path TEXT PRIMARY KEY, digest TEXT, mtime_ns INTEGER, size INTEGER, data BLOB)"
            )
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def load(self) -> dict[str, tuple[int, int, bytes]]:
        """Every row of the shape walker writes, as path -> (mtime_ns, size, serialized entry for ``loads``)."""
        return {path: (mtime, size, data) for path, mtime, size, data in
                self._rows("SELECT path, mtime_ns, size, data FROM files") if _is_entry(data)}

    def store(self, entries: dict[str, tuple[int, int, Entry]], keep: set[str],
              paragraphs: dict[str, list[Paragraph]] | None = None) -> None:
        """Write new entries (and the paragraphs read with them) and forget files that are gone, in one
        transaction."""
        paragraphs = paragraphs or {}
        try:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                    [(path, mtime, size, dumps(entry),
                      marshal.dumps(tuple(tuple(p) for p in paragraphs[path])) if path in paragraphs else None)
                     for path, (mtime, size, entry) in entries.items()],
                )
                stale = [(p,) for (p,) in self._db.execute("SELECT path FROM files") if p not in keep]
                self._db.executemany("DELETE FROM files WHERE path = ?", stale)
        except sqlite3.Error as exc:
            _not_stored(self.path, exc)

    def load_resolutions(self, digest: str) -> dict[str, tuple[int, int, bytes]]:
        """The link resolutions stored for this set of paths, each of the shape walker writes."""
        rows = self._rows("SELECT path, mtime_ns, size, data FROM resolved WHERE digest = ?", (digest,))
        return {path: (mtime, size, data) for path, mtime, size, data in rows if _resolutions(data) is not None}

    def store_resolutions(self, digest: str, entries: dict[str, tuple[int, int, list[Any]]]) -> None:
        try:
            with self._db:
                self._db.execute("DELETE FROM resolved WHERE digest != ?", (digest,))
                self._db.executemany(
                    "INSERT OR REPLACE INTO resolved VALUES (?, ?, ?, ?, ?)",
                    [(path, digest, mtime, size, marshal.dumps(data)) for path, (mtime, size, data) in entries.items()],
                )
        except sqlite3.Error as exc:
            _not_stored(self.path, exc)

    def _rows(self, query: str, parameters: tuple[str, ...] = ()) -> list[tuple[str, int, int, bytes]]:
        """Rows whose path, time and size are of the types walker stores; none from a damaged database."""
        try:
            found = self._db.execute(query, parameters).fetchall()
        except sqlite3.DatabaseError:
            return []
        return [row for row in found if isinstance(row[0], str) and type(row[1]) is int and type(row[2]) is int]

    def close(self) -> None:
        self._db.close()


def _make_private(path: Path) -> None:
    """Create the database file ``PRIVATE`` before SQLite would (under the umask), or make an older one so.
    SQLite gives its journal the database's mode. Never through a symlink, never blocking on a FIFO."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, PRIVATE)
    try:
        os.fchmod(descriptor, PRIVATE)
    finally:
        os.close(descriptor)


def stored_paragraphs(cache_file: Path, stamps: dict[str, tuple[int, int]]) -> dict[str, list[Paragraph]]:
    """The paragraphs an earlier load stored, for the notes whose (mtime_ns, size) still match ``stamps``.
    Opened read-only: this is a reader of a cache some load already wrote."""
    if cache_folder(cache_file.parent) is None or not is_regular(cache_file):
        return {}
    db = sqlite3.connect(f"{cache_file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT path, mtime_ns, size, paragraphs FROM files WHERE paragraphs IS NOT NULL")
        found = {path: _paragraphs(data) for path, mtime, size, data in rows if stamps.get(path) == (mtime, size)}
        return {path: paragraphs for path, paragraphs in found.items() if paragraphs is not None}
    finally:
        db.close()


def dumps(entry: Entry) -> bytes:
    """marshal, not JSON: several times faster to read back, and rows never leave this machine."""
    if isinstance(entry, str):
        return marshal.dumps(("skipped", entry))
    return marshal.dumps((
        entry.frontmatter,
        entry.tags,
        entry.aliases,
        tuple(tuple(l) for l in entry.links),
        tuple(tuple(h) for h in entry.headings),
        tuple(tuple(b) for b in entry.blocks),
        tuple(tuple(x) for x in entry.sections),
        entry.line_count,
        entry.warnings,
        entry.open_tasks,
    ))


def loads(path: str, data: bytes) -> Entry:
    """A row ``load`` returned (so already checked), as its entry."""
    raw = marshal.loads(data)
    if raw[0] == "skipped":
        return str(raw[1])
    fm, tags, aliases, links, headings, blocks, sections, lines, warnings, open_tasks = raw
    return ParsedNote(
        path=path,
        frontmatter=fm,
        tags=tags,
        aliases=aliases,
        # tuple.__new__ straight from the stored tuples, whose shape ``load`` checked: a large vault holds
        # a million of these records.
        links=tuple([_new(RawLink, x) for x in links]),
        headings=tuple([_new(Heading, x) for x in headings]),
        blocks=tuple([_new(Block, x) for x in blocks]),
        sections=tuple([_new(Section, x) for x in sections]),
        line_count=lines,
        warnings=warnings,
        open_tasks=open_tasks,
    )


def _shapes(*fields: tuple[type, ...]) -> frozenset[tuple[type, ...]]:
    """Every sequence of field types a record may have: one type per field, or a choice of types."""
    return frozenset(product(*fields))


# What each stored record holds, field by field (see model.py): a row of any other shape is a miss.
_TEXT_OR_NONE = (str, type(None))
_LINK = _shapes((str,), (str,), (int,), _TEXT_OR_NONE, _TEXT_OR_NONE)
_HEADING = _shapes((int,), (str,), (int,), (int,))
_BLOCK = _shapes((str,), (int,), (int,))
_SECTION = _shapes(_TEXT_OR_NONE, (int,), (int,), (int,))
_PARAGRAPH = _shapes((int,), (int,), (str,), _TEXT_OR_NONE, (bool,), (bool,))
_PLAIN = (str, int, float, bytes, type(None))  # what YAML properties hold once read (dates stay text)


def _is_entry(data: object) -> bool:
    """Whether ``data`` is a row ``dumps`` wrote: a skipped file's reason, or a note's ten fields."""
    raw = _unmarshal(data)
    if type(raw) is not tuple:
        return False
    if len(raw) == 2:
        return raw[0] == "skipped" and type(raw[1]) is str
    if len(raw) != 10:
        return False
    fm, tags, aliases, links, headings, blocks, sections, lines, warnings, open_tasks = raw
    try:
        plain = type(fm) is dict and _plain(fm)
    except RecursionError:
        return False
    return (plain and _texts(tags) and _texts(aliases) and _texts(warnings) and type(lines) is int
            and type(open_tasks) is int and _records(links, _LINK) and _records(headings, _HEADING)
            and _records(blocks, _BLOCK) and _records(sections, _SECTION))


def _paragraphs(data: object) -> list[Paragraph] | None:
    raw = _unmarshal(data)
    return [_new(Paragraph, p) for p in raw] if _records(raw, _PARAGRAPH) else None


def _resolutions(data: object) -> list[tuple[str | None, tuple[str, ...]]] | None:
    raw = _unmarshal(data)
    fits = type(raw) is list and all(type(r) is tuple and len(r) == 2 and isinstance(r[0], _TEXT_OR_NONE)
                                     and _texts(r[1]) for r in raw)
    return raw if fits else None


def _unmarshal(data: object) -> Any:
    if type(data) is not bytes:
        return None
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None


def _records(rows: object, shapes: frozenset[tuple[type, ...]]) -> bool:
    """A tuple of records whose field types are one of ``shapes`` (so ``tuple.__new__`` gives a whole record)."""
    return type(rows) is tuple and {tuple(map(type, r)) for r in rows} <= shapes


def _texts(values: object) -> bool:
    return type(values) is tuple and all(type(v) is str for v in values)


def _plain(value: object) -> bool:
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    return isinstance(value, dict) and all(_plain(k) and _plain(v) for k, v in value.items())


def _not_stored(path: Path, exc: Exception) -> None:
    logging.getLogger("walker").warning("walker: the parse cache %s was not updated (%s)", path, exc)
