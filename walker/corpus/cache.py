"""SQLite parse cache, one file per vault in the user cache folder, never inside the vault.

A row is keyed by (path, mtime_ns, size) and holds what ``parse_note`` returned
for that file (or why it was skipped). The parser version and the settings
that change parsing are part of the database name, so a new parser never reads
an old parser's rows.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from walker.corpus.model import Block, Heading, ParsedNote, RawLink, Section

PARSER_VERSION = 2

Entry = ParsedNote | str  # a parsed note, or the reason the file was skipped


class ParseCache:
    def __init__(self, folder: Path, vault: Path, flavour: str) -> None:
        key = hashlib.sha1(f"{vault.resolve()}|{PARSER_VERSION}|{flavour}".encode()).hexdigest()[:16]
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"vault-{key}.sqlite"
        self._db = sqlite3.connect(self.path)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, data TEXT)"
        )

    def load(self) -> dict[str, tuple[int, int, str]]:
        """All rows as path -> (mtime_ns, size, serialized entry); decoded lazily by ``entry``."""
        rows = self._db.execute("SELECT path, mtime_ns, size, data FROM files")
        return {path: (mtime, size, data) for path, mtime, size, data in rows}

    def store(self, entries: dict[str, tuple[int, int, Entry]], keep: set[str]) -> None:
        """Write new entries and forget files that are gone, in one transaction."""
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)",
                [(path, mtime, size, dumps(entry)) for path, (mtime, size, entry) in entries.items()],
            )
            stale = [(p,) for (p,) in self._db.execute("SELECT path FROM files") if p not in keep]
            self._db.executemany("DELETE FROM files WHERE path = ?", stale)

    def close(self) -> None:
        self._db.close()


def dumps(entry: Entry) -> str:
    if isinstance(entry, str):
        return json.dumps({"skipped": entry})
    return json.dumps(
        {
            "fm": entry.frontmatter,
            "tags": entry.tags,
            "aliases": entry.aliases,
            "links": [[l.kind, l.target, l.line, l.display, l.key] for l in entry.links],
            "headings": [[h.level, h.text, h.line, h.end_line] for h in entry.headings],
            "blocks": [[b.id, b.line, b.end_line] for b in entry.blocks],
            "sections": [[s.heading, s.level, s.line, s.end_line] for s in entry.sections],
            "lines": entry.line_count,
            "warnings": entry.warnings,
            "open_tasks": entry.open_tasks,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def loads(path: str, data: str) -> Entry:
    raw: dict[str, Any] = json.loads(data)
    if "skipped" in raw:
        return str(raw["skipped"])
    return ParsedNote(
        path=path,
        frontmatter=raw["fm"],
        tags=tuple(raw["tags"]),
        aliases=tuple(raw["aliases"]),
        links=tuple(RawLink(*l) for l in raw["links"]),
        headings=tuple(Heading(*h) for h in raw["headings"]),
        blocks=tuple(Block(*b) for b in raw["blocks"]),
        sections=tuple(Section(*s) for s in raw["sections"]),
        line_count=raw["lines"],
        warnings=tuple(raw["warnings"]),
        open_tasks=raw["open_tasks"],
    )
