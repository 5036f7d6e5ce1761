"""Refs: how a record points into a note, and how a link names a place inside one.

A ref is a note's vault path, optionally followed by ``#`` and an anchor: a heading chain
(``Note.md#Heading#Sub``), a block (``Note.md#^id``) or a line range (``Note.md#L3`` or
``Note.md#L3-L9``). This module only reads and writes that form; ``walker.corpus.resolve.span`` says
which lines a ref opens in a parsed note. Every consumer (critic, pool, check, site, report,
discharge) goes through here, so they cannot disagree on what a ref is.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_LINES = re.compile(r"L(\d+)(?:-L(\d+))?")
_WIKILINK = re.compile(r"!?\[\[([^\[\]|\n]*?)(?:\\?\|([^\[\]\n]*))?]]")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)]\([^()\n]*\)")
_MARKUP = re.compile(r"\*\*|__|==|~~|[*`|\[\]]")


class Ref(NamedTuple):
    path: str  # the note's path in the vault, with ``.md``
    anchor: str = ""  # heading chain, ^block or line range; empty for the whole note

    @classmethod
    def parse(cls, text: object) -> Ref:
        path, anchor = split_subpath(str(text))
        return cls(path, (anchor or "#")[1:])

    def __str__(self) -> str:
        return f"{self.path}#{self.anchor}" if self.anchor else self.path

    @property
    def title(self) -> str:
        """The note's name as Obsidian shows it: the file name without ``.md``."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".md")

    @property
    def lines(self) -> tuple[int, int] | None:
        """The line range a ``#L3`` or ``#L3-L9`` anchor names (not yet checked against the note)."""
        match = _LINES.fullmatch(self.anchor)
        if match is None:
            return None
        first = int(match.group(1))
        return first, int(match.group(2) or first)

    @property
    def block(self) -> str | None:
        return self.anchor[1:] if self.anchor.startswith("^") else None


def split_subpath(target: str) -> tuple[str, str | None]:
    """``Note#Heading`` -> (``Note``, ``#Heading``); no ``#``: (target, None). For refs and link targets alike."""
    head, sep, tail = target.partition("#")
    return head, (sep + tail if sep else None)


def note_of(ref: object) -> str:
    """The note path a ref points into."""
    return split_subpath(str(ref))[0]


def heading_label(anchor: str) -> str:
    """A heading (or heading chain ``A#B``) as a link alias shows it: its plain text, never a nested link.
    A wikilink reads as its alias, else its target's name; a Markdown link as its text; emphasis, code
    marks, ``|``, ``[`` and ``]`` go, and the chain's parts are joined with `` › ``."""
    text = _WIKILINK.sub(lambda m: (m.group(2) or "").strip() or m.group(1).split("#")[0].rsplit("/", 1)[-1]
                        or m.group(1).lstrip("#"), anchor)
    text = _MARKUP.sub("", _MD_LINK.sub(r"\1", text))
    return " › ".join(" ".join(part.split()) for part in text.split("#") if part.strip())
