"""Refs: how a record points into a note, and how a link names a place inside one.

A ref is a note's vault path, optionally followed by ``#`` and an anchor: a heading chain
(``Note.md#Heading#Sub``), a block (``Note.md#^id``) or a line range (``Note.md#L3`` or
``Note.md#L3-L9``). This module reads and writes that form, and turns a ref into the one wikilink Obsidian
opens for it (``ref_link``: records, reports and conclusion notes alike); ``walker.corpus.resolve.span`` says
which lines a ref opens in a parsed note. Every consumer (critic, pool, check, site, report,
discharge) goes through here, so they cannot disagree on what a ref is.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from walker.words import is_chinese

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


def note_link(path: str) -> str:
    """A wikilink Obsidian resolves from anywhere: the full path without ``.md``, the title shown."""
    stem = path[:-3] if path.endswith(".md") else path
    return f"[[{stem}|{stem.rsplit('/', 1)[-1]}]]"


def lines_label(first: int, last: int, chinese: bool) -> str:
    """Lines of a note as a reader names them: "line 3", "lines 3–5", "第 3 行", "第 3–5 行"."""
    if chinese:
        return f"第 {first}" + ("" if first == last else f"–{last}") + " 行"
    return f"line {first}" if first == last else f"lines {first}–{last}"


def ref_link(ref: str, chinese: bool | None = None) -> str:
    """A ref as one wikilink Obsidian resolves, fit to be the whole value of a property: the note by its
    path, the heading or block the ref names as the subpath, and its title (› the place) shown. A line
    range, which no link can open, links the note and names the lines in the text shown, in Chinese when
    ``chinese`` says so (by default, when the title is Chinese). A path no wikilink can hold (``#``, ``|``,
    ``%%``, ``[[`` or ``]]`` in it) stays the plain ref."""
    parsed = Ref.parse(ref)
    stem, title = parsed.path.removesuffix(".md"), parsed.title
    if _UNLINKABLE.search(stem):
        return ref
    subpath, place = "", ""
    if (lines := parsed.lines) is not None:
        chinese = is_chinese(title) if chinese is None else chinese
        return f"[[{stem}|{_link_text(title)}{'，' if chinese else ', '}{lines_label(*lines, chinese)}]]"
    if (block := parsed.block) is not None:
        if _BLOCK_ID.fullmatch(block):
            subpath, place = "#^" + block, block.replace("-", " ")
    elif parsed.anchor:
        # Obsidian's stripHeadingForLink, and brackets too: the heading still matches, since Obsidian
        # compares headings with all of these read as spaces (reference/obsidian-syntax.md §8.1).
        parts = [" ".join(_HEADING_UNSAFE.sub(" ", part).split()) for part in parsed.anchor.split("#")]
        if parts := [part for part in parts if part]:
            subpath, place = "#" + "#".join(parts), heading_label(parsed.anchor)
    shown = title if not place or place.lower() == title.lower() else f"{title} › {place}"
    return f"[[{stem}{subpath}|{_link_text(shown)}]]"


_UNLINKABLE = re.compile(r"[#|\n]|\[\[|]]|%%")
_HEADING_UNSAFE = re.compile(r"%%|[:#|^\\\[\]\r\n]")
_BLOCK_ID = re.compile(r"[A-Za-z0-9-]+")


def _link_text(text: str) -> str:
    """A link's text, free of what would end the link, split it or open a comment."""
    return " ".join(re.sub(r"[\[\]|]|%%", " ", text).split())
