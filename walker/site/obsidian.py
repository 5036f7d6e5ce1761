"""A note's Markdown as Obsidian shows it, rewritten so Python-Markdown renders it the same way.

Obsidian hides ``%% comments %%`` and ``<!-- HTML comments -->``, draws ``> [!note]`` callouts
as boxes, starts a list right after a paragraph line, and reads raw HTML. The site shows the same note: comments
gone, callouts as admonitions, a blank line put before such lists, HTML tags reduced to
their text (the sanitiser still runs after), one H1 per page, and remote pictures as a
labelled link (the site works offline). Code, fenced or indented, is left exactly as written.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S")
ADMONITION = re.compile(r"^(?:!!!|\?\?\?\+?) [a-z]")
CALLOUT = re.compile(r"^>[ \t]?\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)$")
TICKS = re.compile(r"`+")
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
REMOTE_PICTURE = re.compile(r"!\[([^\[\]\n]*)\]\((https?://[^()\s]+)(?:\s+\"[^\"\n]*\")?\)")
# Obsidian's callout types and their aliases, as Material for MkDocs names its admonitions.
CALLOUT_TYPES = {
    "note": "note", "abstract": "abstract", "summary": "abstract", "tldr": "abstract", "info": "info",
    "todo": "todo", "tip": "tip", "hint": "tip", "important": "tip", "success": "success", "check": "success",
    "done": "success", "question": "question", "help": "question", "faq": "question", "warning": "warning",
    "caution": "warning", "attention": "warning", "failure": "failure", "fail": "failure", "missing": "failure",
    "danger": "danger", "error": "danger", "bug": "bug", "example": "example", "quote": "quote", "cite": "quote",
}


def regions(markdown: str) -> Iterator[tuple[str, bool]]:
    """Each line, and whether it is code (in a fence, or an indented code block).

    The body of an admonition (``!!! note``, written for a callout) is indented four spaces;
    it is read as if it were not.
    """
    fence: str | None = None
    previous_blank, in_list, in_indented, in_admonition = True, False, False, False
    for line in markdown.split("\n"):
        if in_admonition and line.strip() and not line.startswith("    "):
            in_admonition = False
        text = line[4:] if in_admonition else line
        opened = FENCE.match(text)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            yield line, True
            continue
        if opened:
            fence = opened.group(1)
            yield line, True
            continue
        blank = not text.strip()
        indented = text.startswith(("    ", "\t"))
        if indented and not blank and not in_list and (previous_blank or in_indented):
            in_indented = True
            yield line, True
            previous_blank = False
            continue
        if not blank:
            in_indented = False
            if LIST_ITEM.match(text):
                in_list = True
            elif not indented:
                in_list = False
            if ADMONITION.match(text):
                in_admonition, previous_blank, in_list = True, True, False
                yield line, False
                continue
        yield line, False
        previous_blank = blank


def as_obsidian_shows(markdown: str, titled: bool = False) -> str:
    """The note body rewritten so the page shows what Obsidian shows. ``titled``: the page already
    has its H1, so every H1 in the body reads as a section."""
    out: list[str] = []
    closer: str | None = None  # of the comment open here: ``%%`` or ``-->``
    seen_h1 = titled
    previous = ""
    lines = list(regions(markdown))
    at = 0
    while at < len(lines):
        line, code = lines[at]
        at += 1
        if not code or closer:  # a comment hides the code inside it too
            visible, closer = _without_comments(line, closer)
            if visible is None:
                continue
            line = visible
        if code:
            out.append(line)
            previous = line
            continue
        if callout := CALLOUT.match(line):
            body = []
            while at < len(lines) and not lines[at][1] and lines[at][0].startswith(">"):
                body.append(re.sub(r"^>[ \t]?", "", lines[at][0]))
                at += 1
            out += ["", *_admonition(callout, body), ""]
            previous = ""
            continue
        if line.startswith("# "):
            if seen_h1:
                line = "#" + line  # one H1 a page: later ones read as sections
            seen_h1 = True
        if LIST_ITEM.match(line) and previous.strip() and not LIST_ITEM.match(previous) \
                and not previous.startswith((" ", "\t", ">", "|")):
            out.append("")  # Obsidian starts a list right after a paragraph line; Python-Markdown needs a blank line
        line = HTML_TAG.sub("", line)
        line = REMOTE_PICTURE.sub(lambda m: f"[Picture (online): {m.group(1) or m.group(2)}]({m.group(2)})", line)
        out.append(line)
        previous = line
    return "\n".join(out)


def _without_comments(line: str, closer: str | None) -> tuple[str | None, str | None]:
    """The line with ``%% … %%`` and ``<!-- … -->`` removed, and the closer of a comment still open after it
    (``%%`` or ``-->``). None: the whole line was hidden. An opener inside a code span (`` `%%` ``) or inside
    the other kind of comment is text, as Obsidian shows it; ``<!-->`` is an empty comment, as in HTML."""
    if closer is None and "%%" not in line and "<!--" not in line:
        return line, None
    started, kept, at = closer is not None, [], 0
    found = {mark: line.find(mark) for mark in ("%%", "<!--", "-->")}
    spans = _CodeSpans(line)

    def after(mark: str) -> int:  # the next mark at or after ``at``: found again only once passed (a line of many)
        if 0 <= found[mark] < at:
            found[mark] = line.find(mark, at)
        return found[mark]

    while at < len(line):
        if closer:
            end = after(closer)
            if end < 0:
                break
            at, closer = end + len(closer), None
            continue
        code = spans.next(at)
        mark = min((where for where in (after("%%"), after("<!--")) if where >= 0), default=-1)
        if mark < 0 or (code and code[0] < mark):
            end = code[1] if code and mark >= 0 else len(line)
            kept.append(line[at:end])
            at = end
            continue
        kept.append(line[at:mark])
        closer, at = "%%" if line.startswith("%%", mark) else "-->", mark + 2
    text = "".join(kept)
    if not text.strip() and (started or closer or line.strip().startswith(("%%", "<!--"))):
        return None, closer
    return text.rstrip() if text.strip() else text, closer


class _CodeSpans:
    """The code spans of one line, found left to right as CommonMark pairs them: a run of backticks closes at
    the next run of the same length; a run with none is text. Asked in order, so each run is looked at once
    (a regex with a backreference took minutes on a line of runs of every length)."""

    def __init__(self, line: str) -> None:
        self.runs = [(m.start(), m.end()) for m in TICKS.finditer(line)]
        self.by_length: dict[int, list[int]] = {}
        for start, end in self.runs:
            self.by_length.setdefault(end - start, []).append(start)
        self.at = 0  # the first run not yet passed

    def next(self, position: int) -> tuple[int, int] | None:
        """The first code span that opens at or after ``position`` (positions only grow), or None."""
        while self.at < len(self.runs):
            start, end = self.runs[self.at]
            if start < position:
                self.at += 1
                continue
            same = self.by_length[end - start]
            after = bisect.bisect_right(same, start)
            if after < len(same):
                return start, same[after] + (end - start)
            self.at += 1  # no run of this length follows: these backticks are text
        return None


def _admonition(callout: re.Match[str], body: list[str]) -> list[str]:
    kind = CALLOUT_TYPES.get(callout.group(1).lower(), "note")
    title = HTML_TAG.sub("", callout.group(3)).replace('"', "'").strip() or callout.group(1).capitalize()
    marker = {"-": "???", "+": "???+"}.get(callout.group(2), "!!!")
    return [f'{marker} {kind} "{title}"', *(("    " + line) if line.strip() else "" for line in body)]
