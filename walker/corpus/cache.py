"""SQLite parse cache, one file per vault in the user cache folder, never inside the vault.

A row is keyed by (path, mtime_ns, size) and holds what ``parse_note`` returned
for that file (or why it was skipped). The parser version and the settings
that change parsing are part of the database name, so a new parser never reads
an old parser's rows.
"""

from __future__ import annotations

import hashlib
import marshal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from walker.corpus.model import Block, Heading, ParsedNote, RawLink, Section
from walker.corpus.text import Paragraph

PARSER_VERSION = 3
# The code that decides what a row holds. Its source is part of the cache's name, so a change to how a
# link, tag, heading, block or paragraph is read (or how a row is stored) starts a fresh cache without
# anyone remembering to bump PARSER_VERSION.
PARSE_RULES = ("parse.py", "properties.py", "resolve.py", "model.py", "cache.py", "text.py")


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
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"vault-{key}.sqlite"
        self._db = sqlite3.connect(self.path)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS files "
            "(path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, data BLOB, paragraphs BLOB)"
        )
        # Where each note's links lead. Valid while the note is unchanged and the vault holds exactly
        # the same set of paths (``digest``): resolution depends on nothing else.
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS resolved "
            "(path TEXT PRIMARY KEY, digest TEXT, mtime_ns INTEGER, size INTEGER, data BLOB)"
        )

    def load(self) -> dict[str, tuple[int, int, bytes]]:
        """All rows as path -> (mtime_ns, size, serialized entry); decoded lazily by ``entry``."""
        rows = self._db.execute("SELECT path, mtime_ns, size, data FROM files")
        return {path: (mtime, size, data) for path, mtime, size, data in rows}

    def store(self, entries: dict[str, tuple[int, int, Entry]], keep: set[str],
              paragraphs: dict[str, list[Paragraph]] | None = None) -> None:
        """Write new entries (and the paragraphs read with them) and forget files that are gone, in one
        transaction."""
        paragraphs = paragraphs or {}
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                [(path, mtime, size, dumps(entry),
                  marshal.dumps(tuple(tuple(p) for p in paragraphs[path])) if path in paragraphs else None)
                 for path, (mtime, size, entry) in entries.items()],
            )
            stale = [(p,) for (p,) in self._db.execute("SELECT path FROM files") if p not in keep]
            self._db.executemany("DELETE FROM files WHERE path = ?", stale)

    def load_resolutions(self, digest: str) -> dict[str, tuple[int, int, bytes]]:
        rows = self._db.execute("SELECT path, mtime_ns, size, data FROM resolved WHERE digest = ?", (digest,))
        return {path: (mtime, size, data) for path, mtime, size, data in rows}

    def store_resolutions(self, digest: str, entries: dict[str, tuple[int, int, list[Any]]]) -> None:
        with self._db:
            self._db.execute("DELETE FROM resolved WHERE digest != ?", (digest,))
            self._db.executemany(
                "INSERT OR REPLACE INTO resolved VALUES (?, ?, ?, ?, ?)",
                [(path, digest, mtime, size, marshal.dumps(data)) for path, (mtime, size, data) in entries.items()],
            )

    def close(self) -> None:
        self._db.close()


def stored_paragraphs(cache_file: Path, stamps: dict[str, tuple[int, int]]) -> dict[str, list[Paragraph]]:
    """The paragraphs an earlier load stored, for the notes whose (mtime_ns, size) still match ``stamps``.
    Opened read-only: this is a reader of a cache some load already wrote."""
    db = sqlite3.connect(f"{cache_file.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT path, mtime_ns, size, paragraphs FROM files WHERE paragraphs IS NOT NULL")
        return {path: [_new(Paragraph, p) for p in marshal.loads(data)]
                for path, mtime, size, data in rows if stamps.get(path) == (mtime, size)}
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
    raw = marshal.loads(data)
    if raw[0] == "skipped":
        return str(raw[1])
    fm, tags, aliases, links, headings, blocks, sections, lines, warnings, open_tasks = raw
    return ParsedNote(
        path=path,
        frontmatter=fm,
        tags=tags,
        aliases=aliases,
        # tuple.__new__ straight from the stored tuples: the rows are walker's own, already the right
        # shape, and a large vault holds a million of these records.
        links=tuple([_new(RawLink, x) for x in links]),
        headings=tuple([_new(Heading, x) for x in headings]),
        blocks=tuple([_new(Block, x) for x in blocks]),
        sections=tuple([_new(Section, x) for x in sections]),
        line_count=lines,
        warnings=warnings,
        open_tasks=open_tasks,
    )
