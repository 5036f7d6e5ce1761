"""Obsidian's link resolution (reference/obsidian-syntax.md §9), and heading and block lookup.

Order: an empty linkpath is the source itself; a bare unique name wins; then
``./`` and ``../`` relative to the source; then an exact vault path (so a root
file wins for bare names); a leading ``/`` never falls back; then every path
ending in the link, the source's folder first, shortest first, ties by path.

R7, the suffix quirk: Obsidian's suffix test has no folder boundary, so
``[[b/Note]]`` can reach ``ab/Note.md`` before ``a/b/Note.md``. walker mirrors
it, because a walk must follow the link the user sees when they click it in
Obsidian, and reports such a link as ambiguous so the surprise is visible.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from walker.corpus.model import Block, Heading, ParsedNote
from walker.refs import Ref

_HEADING_PUNCTUATION = re.compile(r"[!\"#$%&()*+,.:;<=>?@^`{|}~/\[\]\\\r\n]")


@dataclass(frozen=True, slots=True)
class Resolution:
    path: str | None
    candidates: tuple[str, ...] = ()  # set when more than one file could have been meant

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


class Resolver:
    """Resolves linkpaths against every file Obsidian can see (notes, attachments, excluded files)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._by_name: dict[str, list[str]] = {}
        for path in sorted(paths):
            self._by_name.setdefault(path.rsplit("/", 1)[-1].lower(), []).append(path)
        self._memo: dict[tuple[str, str], Resolution] = {}

    def resolve(self, linkpath: str, source: str) -> Resolution:
        """The file a linkpath (subpath already removed) reaches from ``source``."""
        if not linkpath:
            return Resolution(source)
        # The answer depends on the source only through its folder.
        key = (linkpath, source.rsplit("/", 1)[0] if "/" in source else "")
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._resolve(linkpath, source)
        return found

    def _resolve(self, linkpath: str, source: str) -> Resolution:
        if not linkpath:
            return Resolution(source)
        wanted = linkpath.lower()
        name = wanted.rsplit("/", 1)[-1]
        candidates = self._by_name.get(name, []) if "." in name else []
        if not candidates:
            wanted = (linkpath + ".md").lower()
            name = wanted.rsplit("/", 1)[-1]
            candidates = self._by_name.get(name, [])
        if not candidates:
            return Resolution(None)
        if name == wanted and len(candidates) == 1:
            return Resolution(candidates[0])

        folder = source.rsplit("/", 1)[0].lower() if "/" in source else ""
        if wanted.startswith(("./", "../")):
            wanted = _join_relative(folder, wanted)
            exact = _find_exact(candidates, wanted)
            if exact:
                return Resolution(exact)
        wanted = wanted.removeprefix("/")
        exact = _find_exact(candidates, wanted)
        if exact:
            return Resolution(exact)
        if linkpath.startswith("/"):
            return Resolution(None)

        matching = [c for c in candidates if c.lower().endswith(wanted)]
        near = sorted((c for c in matching if c.lower().startswith(folder)), key=len)
        rest = sorted((c for c in matching if not c.lower().startswith(folder)), key=len)
        ranked = near + rest
        if not ranked:
            return Resolution(None)
        return Resolution(ranked[0], tuple(ranked) if len(ranked) > 1 else ())


def _find_exact(candidates: list[str], wanted: str) -> str | None:
    return next((c for c in candidates if c.lower() == wanted), None)


def _join_relative(folder: str, relative: str) -> str:
    parts = folder.split("/") if folder else []
    while relative.startswith(("./", "../")):
        if relative.startswith("./"):
            relative = relative[2:]
        else:
            relative = relative[3:]
            if parts:
                parts.pop()
    return "/".join(parts + [relative])


@lru_cache(maxsize=65536)
def strip_heading(text: str) -> str:
    """Obsidian's stripHeading, lower-cased: punctuation to spaces, whitespace collapsed."""
    return " ".join(_HEADING_PUNCTUATION.sub(" ", text).split()).lower()


def find_subpath(note: ParsedNote, subpath: str) -> Heading | Block | None:
    """The heading chain (``#A#C``) or block (``#^id``) a subpath names inside a note."""
    parts = [p for p in subpath.split("#") if p]
    if not parts:
        return None
    if parts[0].startswith("^"):
        if len(parts) != 1:
            return None
        wanted_id = parts[0][1:].lower()
        return next((b for b in note.blocks if b.id == wanted_id), None)
    wanted = [strip_heading(p) for p in parts]
    found: Heading | None = None
    index = 0
    for heading in note.headings:
        if found is not None and heading.level <= found.level:
            return None
        if strip_heading(heading.text) == wanted[index]:
            found, index = heading, index + 1
            if index == len(wanted):
                return found
    return None


def span(ref: Ref, note: ParsedNote) -> tuple[int, int] | None:
    """The first and last line a ref opens in its note, or None when it does not resolve there
    (a heading or block the note lacks, a line range outside it)."""
    if not ref.anchor:
        return 1, note.line_count
    if (lines := ref.lines) is not None:
        return lines if 1 <= lines[0] <= lines[1] <= note.line_count else None
    target = find_subpath(note, "#" + ref.anchor)
    return None if target is None else (target.line, target.end_line)
