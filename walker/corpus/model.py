"""The corpus layer's data: what a note is after parsing and after resolution.

Two stages, two types: ``ParsedNote`` holds what one file says on its own
(cacheable per file); ``Link`` after resolution knows where it points, which
needs the whole vault. The small records a vault holds by the hundred thousand
are NamedTuples: immutable like frozen dataclasses, and several times cheaper
to build when a warm run loads them from the cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from walker.refs import split_subpath


class RawLink(NamedTuple):
    """A link as written: kind, the cleaned target text and its 1-based line."""

    kind: str
    target: str  # linkpath plus subpath, as Obsidian's Reference.link
    line: int
    display: str | None = None
    key: str | None = None  # frontmatter key path, e.g. "related.0"

    @property
    def linkpath(self) -> str:
        return split_subpath(self.target)[0]

    @property
    def subpath(self) -> str | None:
        return split_subpath(self.target)[1]


class Heading(NamedTuple):
    level: int
    text: str  # raw heading text, as Obsidian links it
    line: int  # 1-based
    end_line: int  # last line of the heading's section (until a heading of level <= this one)


class Block(NamedTuple):
    """A block id (``^id``) and the lines of the block it names."""

    id: str  # lower-cased, as Obsidian's blocks map
    line: int
    end_line: int


class Section(NamedTuple):
    """A flat slice of a note: the text before the first heading, or one heading to the next."""

    heading: str | None
    level: int
    line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class ParsedNote:
    """Everything one Markdown file says on its own, before any link is resolved."""

    path: str
    frontmatter: dict[str, object]
    tags: tuple[str, ...]  # lower-cased, without '#'; frontmatter first, then body
    aliases: tuple[str, ...]
    links: tuple[RawLink, ...]
    headings: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...]
    line_count: int
    warnings: tuple[str, ...] = ()
    open_tasks: int = 0  # unchecked "- [ ]" items outside code

    @property
    def title(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return name[:-3] if name.endswith(".md") else name


class Link(NamedTuple):
    """A resolved link: where it was written and which file (if any) it reaches."""

    source: str
    line: int
    kind: str
    target: str
    subpath: str | None
    resolved: str | None
    ambiguous: tuple[str, ...] = ()  # other candidates when the choice was not unique
    display: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The `walker links --json` shape."""
        return {
            "source": self.source,
            "line": self.line,
            "kind": self.kind,
            "target": self.target,
            "subpath": self.subpath,
            "resolved": self.resolved,
        }


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str


class VaultFile(NamedTuple):
    """A file Obsidian can see. ``in_corpus`` is false for excluded files, which still resolve."""

    path: str  # vault-relative, '/', NFC
    abspath: str  # where to read it: a regular file (for a symlink in the vault, its target)
    mtime_ns: int
    size: int
    is_note: bool
    in_corpus: bool


@dataclass(frozen=True)
class Corpus:
    """The read-only view of a vault that every later stage consumes."""

    root: str
    files: tuple[VaultFile, ...]
    notes: dict[str, ParsedNote]  # corpus notes only, by path
    # Where each note's links lead, in the order of its ``links``: (resolved path or None, candidates).
    resolutions: dict[str, list[tuple[str | None, tuple[str, ...]]]]
    skipped: tuple[Skipped, ...]
    warnings: tuple[tuple[str, str], ...]  # (path, message)
    stats: dict[str, float] = field(default_factory=dict)
    cache_file: str | None = None  # the parse cache this corpus was read with: it also holds the paragraphs

    @cached_property
    def links(self) -> tuple[Link, ...]:
        """Every link as a record, built the first time something asks: a walk needs only where
        notes link (``resolutions``), and a large vault holds half a million links."""
        new = tuple.__new__  # the record without a Python-level call per link
        records = []
        for path, note in self.notes.items():
            for (kind, text, line, display, _), (target, candidates) in zip(note.links, self.resolutions.get(path, ())):
                records.append(new(Link, (path, line, kind, text, split_subpath(text)[1], target, candidates, display)))
        return tuple(records)

    @property
    def attachments(self) -> list[VaultFile]:
        """Files other than notes that are part of the corpus (not under walks/ or excluded)."""
        return [f for f in self.files if not f.is_note and f.in_corpus]
