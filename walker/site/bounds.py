"""Markdown that Python-Markdown renders in linear time and without deep recursion.

Python-Markdown recurses once per level of nesting (lists, quotes, emphasis, links), scans from every
``[`` to its partner (or to the paragraph's end), and parses a block (lines without a blank one between)
by taking its first heading or rule and testing all the rest again. So 2,000 nested ``*`` stopped a
build with RecursionError, 20,000 nested brackets took it a minute and a block of 20,000 headings more.

- ``flatten``: past MAX_NESTING levels, container markers are dropped and the brackets and emphasis marks
  of deeper pairs are shown as look-alikes (［ ∗ ＿ ＝), which read the same and mean nothing to Markdown;
  so are the brackets of the longest scans past SCAN_BUDGET, and many ``(`` that never close.
- ``split_long_block``: a long block is cut where a heading, a rule or an admonition parts it anyway.
- ``cap_toc``: the theme and the search index walk a page's table of contents once per heading, so it
  lists the first TOC_ENTRIES.

Ordinary text is left as it is, found so with a few counts.
"""

from __future__ import annotations

import heapq
import re
from typing import Any

from walker.site.obsidian import _CodeSpans

MAX_NESTING = 16  # levels of lists, quotes, brackets or emphasis a page shows as written
UNCLOSED_BRACKETS = 32  # more "(" than this that never close in a paragraph are shown as look-alikes
SCAN_BUDGET = 2  # Python-Markdown may scan from "[" to "]" at most this many times a paragraph's length

BLOCK_LINES = 200  # a block of more lines is cut where a heading, a rule or an admonition parts it anyway
TOC_ENTRIES = 200  # a page's table of contents lists at most this many headings

LOOKALIKES = str.maketrans({"[": "［", "]": "］", "(": "（", ")": "）", "*": "∗", "_": "＿", "=": "＝"})
_CONTAINER = re.compile(r"[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))")
_PARAGRAPH = re.compile(r"(\n[ \t]*\n)")
_TOKEN = re.compile(r"\\.|`+|[\[\]()]|\*+|_+|=+")

_ENDS_A_BLOCK = re.compile(r" {0,3}(?:#{1,6}(?:[ \t].*)?|(?:[-*_][ \t]*){3,}|=+[ \t]*)")  # heading, rule, underline
_STARTS_A_BLOCK = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]")  # an admonition or a folded one

Span = tuple[int, int]


def flatten(markdown: str) -> tuple[str, int]:
    """The text with nesting past MAX_NESTING flattened, and in how many places (lines or paragraphs) it was."""
    text, places = _cap_containers(markdown)
    pieces = _PARAGRAPH.split(text)
    for at in range(0, len(pieces), 2):  # the odd ones are the blank lines between
        pieces[at], deep = _cap_inline(pieces[at])
        places += deep
    return "".join(pieces), places


def flattened_notice(places: int) -> list[str]:
    """The admonition a flattened page opens with."""
    return ['!!! warning "Flattened"',
            f"    In {places} {'place' if places == 1 else 'places'} this page nests lists, quotes, brackets or "
            f"emphasis deeper than {MAX_NESTING} levels; past that depth they are shown flat. Obsidian shows "
            "the note as written."]


def _cap_containers(text: str) -> tuple[str, int]:
    """Lists and quotes nested deeper than MAX_NESTING are shown at that depth."""
    capped = 0
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if len(line) - len(line.lstrip()) <= 4 * MAX_NESTING and line.count(">") + line.count("-") < MAX_NESTING:
            continue  # the common case, decided without a regex
        markers: list[str] = []
        at = 0
        while match := _CONTAINER.match(line, at):
            markers.append(match.group(0).strip())
            at = match.end()
        indent = len(line) - len(line.lstrip(" \t"))
        if len(markers) > MAX_NESTING or indent > 4 * MAX_NESTING:
            kept = " ".join(markers[:MAX_NESTING])
            lines[number] = " " * min(indent, 4 * MAX_NESTING) + kept + " " + line[at:].lstrip()
            capped += 1
    return "\n".join(lines), capped


def _cap_inline(text: str) -> tuple[str, int]:
    """One paragraph with brackets and emphasis nested past MAX_NESTING, or brackets that would cost more
    scanning than SCAN_BUDGET, shown as look-alikes; returns it and 1 if a pair was flattened (0 if none
    was: brackets that never close look the same either way)."""
    budget = SCAN_BUDGET * len(text) + 20_000
    if (text.count("[") * len(text) <= budget and text.count("(") < UNCLOSED_BRACKETS
            and sum(map(text.count, "[*_=")) <= MAX_NESTING):
        return text, 0
    pairs, unclosed, parens = _pairs(text)
    deep = _too_deep(pairs)
    defuse = [span for pair in deep for span in pair[:2]]
    if len(parens) >= UNCLOSED_BRACKETS:
        defuse += parens
    # Python-Markdown scans from each "[" to its partner, or to the paragraph's end: the longest scans go first.
    flat = {pair[0] for pair in deep}
    scans: list[tuple[int, Span, Span | None]] = [(len(text) - opener[0], opener, None) for opener in unclosed]
    scans += [(closer[1] - opener[0], opener, closer) for opener, closer, _ in pairs
              if opener not in flat and text[opener[0]] == "["]
    cost = sum(scan[0] for scan in scans)
    flattened = bool(deep)
    for length, opener, closer in sorted(scans, key=lambda scan: scan[0], reverse=True):
        if cost <= budget:
            break
        cost -= length
        defuse += [opener] if closer is None else [opener, closer]
        flattened = flattened or closer is not None
    if not defuse:
        return text, 0
    pieces, start = [], 0
    for left, right in sorted(defuse):
        pieces += [text[start:left], text[left:right].translate(LOOKALIKES)]
        start = right
    return "".join(pieces) + text[start:], int(flattened)


def _pairs(text: str) -> tuple[list[tuple[Span, Span, int]], list[Span], list[Span]]:
    """Brackets and emphasis runs paired as Python-Markdown would near enough (each kind on its own stack,
    code spans and escapes skipped), each pair with how many levels it nests; and the "[" and the "(" left
    open."""
    stacks: dict[str, list[Span]] = {char: [] for char in "[(*_="}
    pairs: list[tuple[Span, Span, int]] = []
    spans = _CodeSpans(text)
    at = 0
    while match := _TOKEN.search(text, at):
        start, end = match.span()
        at = end
        char = match.group()[0]
        if char == "\\":
            continue
        if char == "`":
            code = spans.next(start)
            if code and code[0] == start:
                at = code[1]
            continue
        if char in "[(":
            stacks[char].append((start, end))
            continue
        if char in "])":
            stack = stacks["[" if char == "]" else "("]
            if stack:
                opener = stack.pop()
                if char == "]":
                    pairs.append((opener, (start, end), 1))
            continue
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if (char == "=" and end - start < 2) or (char == "_" and before.isalnum() and after.isalnum()):
            continue  # "a = b", snake_case: no emphasis
        stack = stacks[char]
        if not before.isspace() and stack:
            opener = stack.pop()
            pairs.append((opener, (start, end), max(1, min(opener[1] - opener[0], end - start) // 2)))
        elif not after.isspace():
            stack.append((start, end))
    return pairs, stacks["["], stacks["("]


def _too_deep(pairs: list[tuple[Span, Span, int]]) -> list[tuple[Span, Span, int]]:
    """The pairs that open more than MAX_NESTING levels deep, counting every pair open around them."""
    deep = []
    open_ends: list[tuple[int, int]] = []  # (where an open pair closes, its levels), soonest first
    depth = 0
    for pair in sorted(pairs):
        opener, closer, levels = pair
        while open_ends and open_ends[0][0] <= opener[0]:
            depth -= heapq.heappop(open_ends)[1]
        if depth + levels > MAX_NESTING:
            deep.append(pair)
        heapq.heappush(open_ends, (closer[1], levels))
        depth += levels
    return deep


def split_long_block(block: str) -> list[str]:
    """A block of more than BLOCK_LINES lines as the blocks it holds: cut after each heading, rule or
    setext underline and before each admonition (not indented: code is never cut). A short block, or
    one with nowhere to cut, is returned whole."""
    if block.count("\n") < BLOCK_LINES:
        return [block]
    pieces, start = [], 0
    lines = block.split("\n")
    for at, line in enumerate(lines):
        if at > start and _STARTS_A_BLOCK.match(line):
            pieces.append("\n".join(lines[start:at]))
            start = at
        if _ENDS_A_BLOCK.fullmatch(line):
            pieces.append("\n".join(lines[start:at + 1]))
            start = at + 1
    if start < len(lines):
        pieces.append("\n".join(lines[start:]))
    return pieces


def cap_toc(items: list[Any], room: int = TOC_ENTRIES) -> int:
    """Keep the first ``room`` entries of a table of contents (depth first), in place; returns how many
    were kept. The headings stay on the page, with their anchors; only the list of them is shorter."""
    kept = 0
    for at, item in enumerate(items):
        if kept >= room:
            del items[at:]
            break
        kept += 1 + cap_toc(item.children, room - kept - 1)
    return kept
