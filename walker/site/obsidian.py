"""A note's Markdown as Obsidian shows it, rewritten so Python-Markdown renders it the same way.

Obsidian hides ``%% comments %%`` and ``<!-- HTML comments -->``, draws ``> [!note]`` callouts as boxes
(nested ones too, and inside quotes and lists), numbers footnotes at the end of the note, typesets math,
starts a list right after a paragraph line, reads raw HTML, and shows ``#tag`` as a tag (never a heading).
The site shows the same note:

- comments gone; HTML tags reduced to their text (``<br>`` to a space, a one-line ``<script>`` or ``<style>``
  to nothing; the sanitiser still runs after);
- callouts as admonitions, at any depth;
- footnotes (``[^1]``, ``^[inline]``) as numbered links to a list at the end of the page;
- math as readable TeX in code: the site has no math renderer offline, and raw ``$…$`` would be read as
  Markdown (``_`` and ``*`` as emphasis);
- a tag as a link to Obsidian's search for it (``tag_link``), or as text that cannot turn into a heading;
- a blank line put before a list that follows a paragraph line, one H1 a page, and remote pictures as a
  labelled link (the site works offline).

Code, fenced (also inside quotes and lists) or indented, is left exactly as written.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from walker.corpus.parse import ALL_DIGITS_RE, TAG_RE

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S")
ADMONITION = re.compile(r"^( *)(?:!!!|\?\?\?\+?) [a-z]")
CALLOUT = re.compile(r"^\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)$")
QUOTE_MARKER = re.compile(r"[ \t]*>[ \t]?")
TICKS = re.compile(r"`+")
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
SCRIPT = re.compile(r"<(script|style)\b[^<>]*>.*?</\1\s*>", re.IGNORECASE)  # Obsidian drops these, text and all
LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
REMOTE_PICTURE = re.compile(r"!\[([^\[\]\n]*)\]\((https?://[^()\s]+)(?:\s+\"[^\"\n]*\")?\)")
FOOTNOTE_DEFINITION = re.compile(r"^\[\^([^\[\]\s^]+)\]:[ \t]?(.*)$")
# What a line's inline text holds that must be taken whole, leftmost first: a wikilink, math, a Markdown
# link or picture, an autolink or a bare URL (a "#" in them is no tag), a footnote reference.
_INLINE = re.compile(
    r"(?P<wikilink>!?\[\[(?:[^\[\]\n]|\[(?!\[))+?]])"
    r"|(?P<display>(?<![\\$])\$\$(?P<display_tex>[^$\n]+)\$\$)"
    r"|(?P<math>(?<![\\$])\$(?P<tex>[^\s$](?:[^$\n]*?[^\s$\\])?)\$(?![0-9$]))"
    r"|(?P<inline_note>\^\[(?P<inline_text>(?:[^\[\]\n]|\[\[[^\[\]\n]*\]\]|\[[^\[\]\n]*\])+)\])"
    r"|(?P<reference>\[\^(?P<label>[^\[\]\s^]+)\](?!:))"
    r"|(?P<link>!?\[[^\[\]\n]*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))"
    r"|(?P<url><?(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s<>]*>?)"
)
# The same without its URLs, for text with no "://" (most of it): every match of it starts with one of
# _INLINE_STARTS, so only those places are tried (_INLINE tries a URL at every word, and backs off each one).
_NO_URL = re.compile(_INLINE.pattern[: _INLINE.pattern.index("|(?P<url>")])
_INLINE_STARTS = re.compile(r"[!\[$^]")
# A tag starts a text run: at the start, after whitespace or an emphasis mark (**#tag**), never after a
# letter (foo#bar), "(", "/" (a URL) or "&" (an entity).
# Written "#" first, so a text is searched for its "#" and only those are tried.
_TAG = re.compile(r"#(?:(?<=^#)|(?<=[\s*_=~]#))" + TAG_RE.pattern.removeprefix("#"))
# Where Python-Markdown reads a "#" as a heading that Obsidian reads as text (#tag, #1984): the start of a
# line or of a quote's or a list item's content, the "#" not followed by a space.
_NOT_A_HEADING = re.compile(r"^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)#(?=#*[^\s#])")
_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
CALLOUT_DEPTH = 8  # callouts nested deeper than this are shown as the quotes they are
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# Obsidian's callout types and their aliases, as Material for MkDocs names its admonitions.
CALLOUT_TYPES = {
    "note": "note", "abstract": "abstract", "summary": "abstract", "tldr": "abstract", "info": "info",
    "todo": "todo", "tip": "tip", "hint": "tip", "important": "tip", "success": "success", "check": "success",
    "done": "success", "question": "question", "help": "question", "faq": "question", "warning": "warning",
    "caution": "warning", "attention": "warning", "failure": "failure", "fail": "failure", "missing": "failure",
    "danger": "danger", "error": "danger", "bug": "bug", "example": "example", "quote": "quote", "cite": "quote",
}

TagLink = Callable[[str], str]  # a tag ("#a/b") -> the Markdown link the site shows for it


def regions(markdown: str) -> Iterator[tuple[str, bool]]:
    """Each line, and whether it is code (in a fence, or an indented code block).

    A fence may sit in a quote (``> ```​``), a list item or an admonition's body; it ends with its closing
    fence or with the quote or admonition holding it. The body of an admonition (``!!! note``, written for
    a callout) is indented four spaces a level; it is read as if it were not.
    """
    lines = markdown.split("\n")
    fences = "```" in markdown or "~~~" in markdown
    indents = markdown.startswith(("    ", "\t")) or "\n    " in markdown or "\n\t" in markdown
    if not fences and not indents:
        return iter([(line, False) for line in lines])  # no fence and no indented line: no code
    return _regions(lines, fences, indents, "!!!" in markdown or "???" in markdown)


def _regions(lines: list[str], fences: bool, indents: bool, admonitions: bool) -> Iterator[tuple[str, bool]]:
    """``regions`` of the lines of a text, told whether it holds a fence's mark, a line indented as code would
    be, and an admonition's mark: a test whose mark the text does not hold is never made."""
    fence: tuple[str, int, int] | None = None  # marker, quote depth, admonition level of the open fence
    previous_blank, in_list, in_indented, indented = True, False, False, False
    levels = [0]  # the body indentation of each admonition open here
    for line in lines:
        blank = not line.strip()
        if levels[-1] and not blank:
            while levels[-1] and not line.startswith(" " * levels[-1]):
                levels.pop()
        text = line[levels[-1]:] if levels[-1] else line
        if fence:
            marker, depth, level = fence
            found, rest = _unquote(text, depth)
            if levels[-1] >= level and found == depth and not (blank and depth):
                closing = FENCE.match(rest)
                if closing and closing.group(1)[0] == marker[0] and len(closing.group(1)) >= len(marker):
                    fence = None
                yield line, True
                continue
            fence = None  # the quote or admonition holding the fence ended: so did the fence
        if indents:  # else no line is indented, and whether one is in a list never matters
            indented = text.startswith(("    ", "\t"))
            if indented and not blank and not in_list and (previous_blank or in_indented):
                in_indented = True
                yield line, True
                previous_blank = False
                continue
        if fences and ("```" in text or "~~~" in text):  # what a fence opens with, after any quote markers
            depth, rest = _unquote(text)
            if opened := FENCE.match(rest):
                fence = (opened.group(1), depth, levels[-1])
                yield line, True
                continue
        if not blank:
            in_indented = False
            if indents:  # a list item opens a list; a line not indented under it ends it
                in_list = LIST_ITEM.match(text) is not None or indented and in_list
            if admonitions and (admonition := ADMONITION.match(text)):
                levels.append(levels[-1] + len(admonition.group(1)) + 4)
                previous_blank, in_list = True, False
                yield line, False
                continue
        yield line, False
        previous_blank = blank


def _unquote(text: str, most: int = 1 << 30) -> tuple[int, str]:
    """How many quote markers (``>``) open the line, up to ``most``, and the text after them."""
    depth = 0
    while depth < most and (marker := QUOTE_MARKER.match(text)):
        depth, text = depth + 1, text[marker.end():]
    return depth, text


def as_obsidian_shows(markdown: str, titled: bool = False, tag_link: TagLink | None = None,
                      footnote_ids: str = "fn") -> str:
    """The note body rewritten so the page shows what Obsidian shows. ``titled``: the page already has its
    H1, so every H1 in the body reads as a section. ``tag_link``: what a tag links to (default: plain text).
    ``footnote_ids``: the prefix of the footnotes' anchors, unique on the page (a note embedded in another
    numbers its own)."""
    shower = _Shower(tag_link, footnote_ids, _defined_footnotes(markdown))
    lines = shower.show(markdown, titled)
    return "\n".join(lines + shower.footnotes())


def shown_heading(text: str) -> str:
    """A heading's text as the note page shows it (comments, HTML, footnote marks gone, math as code):
    the text whose slug is the heading's id."""
    visible, _ = _without_comments(text, None)
    return _Shower(None, "fn", set()).inline(visible or "", heading=True).strip()


def code_span(text: str) -> str:
    """``text`` as one inline code span, whatever backticks it holds."""
    longest = max((len(m.group(0)) for m in TICKS.finditer(text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip(" ") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _math_end(line: str, lines: list[tuple[str, bool]], at: int) -> int | None:
    """The index of the line that closes the ``$$`` this line opens (``at - 1`` when it closes on the same
    line); None when nothing closes it before the block ends, so it is text."""
    opened = line[line.index("$$") + 2:]
    if "$$" in opened:  # one line: a block only if the line is nothing else (else its math is inline)
        return at - 1 if opened.rstrip().endswith("$$") and opened.count("$$") == 1 else None
    for number in range(at, len(lines)):
        text, code = lines[number]
        if code:
            return None
        if "$$" in text:
            return number
    return None


def _defined_footnotes(markdown: str) -> set[str]:
    """The labels of the footnotes a note defines (``[^label]: text`` outside code)."""
    if "[^" not in markdown:
        return set()
    return {m.group(1).lower() for line, code in regions(markdown)
            if not code and (m := FOOTNOTE_DEFINITION.match(line))}


@dataclass
class _Footnote:
    number: int
    label: str = ""  # as the note defines it, lower-cased ("" for an inline footnote)
    text: list[str] = field(default_factory=list)  # an inline footnote's Markdown
    referenced: bool = False  # a reference in the text has the back link's anchor


class _Shower:
    """One note's rewrite: the footnotes found so far are shared by the note and the callouts in it."""

    def __init__(self, tag_link: TagLink | None, ids: str, defined: set[str]) -> None:
        self.tag_link = tag_link
        self.ids = ids
        self.defined = defined
        self.by_label: dict[str, _Footnote] = {}  # a label defined in the note, once referenced
        self.texts: dict[str, list[str]] = {}  # a definition's lines, by label
        self.inline_notes: list[_Footnote] = []

    def show(self, markdown: str, titled: bool, depth: int = 0) -> list[str]:
        out: list[str] = []
        closer: str | None = None  # of the comment open here: ``%%`` or ``-->``
        seen_h1 = titled
        previous = ""
        lines = list(regions(markdown))
        add, list_item = out.append, LIST_ITEM.match
        at = 0
        while at < len(lines):
            line, code = lines[at]
            at += 1
            # A comment hides the code inside it too.
            if closer or not code and ("%%" in line or "<!--" in line):
                visible, closer = _without_comments(line, closer)
                if visible is None:
                    continue
                line = visible
            if code:
                add(line)
                previous = line
                continue
            rest = line.lstrip(" \t")
            if not rest:  # a blank line: nothing in it to show otherwise
                add(line)
                previous = line
                continue
            indent = line[: len(line) - len(rest)]
            quotes = 0
            if rest.startswith(">"):
                quotes, rest = _unquote(rest)
            if quotes and depth < CALLOUT_DEPTH and (callout := CALLOUT.match(rest)):
                at = self._callout(callout, lines, at, indent, quotes, depth, out)
                previous = ""
                continue
            if rest.startswith("$$") and not closer and (end := _math_end(line, lines, at)) is not None:
                at = self._math_block(line, lines, at, end, out)
                previous = ""
                continue
            if depth == 0 and line.startswith("[^") and (definition := FOOTNOTE_DEFINITION.match(line)):
                at = self._definition(definition, lines, at)
                continue
            heading = rest.startswith("#") and _HEADING.match(rest) is not None
            if line.startswith("# "):
                if seen_h1:
                    line = "#" + line  # one H1 a page: later ones read as sections
                seen_h1 = True
            if list_item(line) and previous.strip() and not list_item(previous) \
                    and not previous.startswith((" ", "\t", ">", "|")):
                add("")  # Obsidian starts a list right after a paragraph line; Python-Markdown needs a blank line
            elif (heading and not indent and not quotes or line.startswith(">") and not previous.lstrip().startswith(">")
                  and (list_item(previous) or previous.startswith((" ", "\t")))) and previous.strip():
                add("")  # a heading or a quote ends a list in Obsidian; Python-Markdown would nest it
            line = self.inline(line, heading)
            add(line)
            previous = line
        return out

    def inline(self, line: str, heading: bool = False) -> str:
        """The line's inline text as Obsidian shows it; code spans stay as written."""
        if "`" not in line:  # no code span: the line is one text
            shown = self._text(line, heading)
        else:
            spans, pieces, at = _CodeSpans(line), [], 0
            while at < len(line):
                span = spans.next(at)
                end = span[0] if span else len(line)
                pieces.append(self._text(line[at:end], heading))
                if span:
                    pieces.append(line[span[0]:span[1]])
                at = span[1] if span else len(line)
            shown = "".join(pieces)
        if not heading and "#" in shown:
            shown = _NOT_A_HEADING.sub(r"\1\\#", shown)
        return shown

    def _text(self, text: str, heading: bool) -> str:
        """Text outside code spans: HTML to its text, math to code, footnote marks to links, tags."""
        if "<" in text:
            text = HTML_TAG.sub("", LINE_BREAK.sub(" ", SCRIPT.sub("", text)))
        if "![" in text:
            text = REMOTE_PICTURE.sub(lambda m: f"[Picture (online): {m.group(1) or m.group(2)}]({m.group(2)})", text)
        if "[" not in text and "$" not in text and "://" not in text:
            return self._tags(text, heading)  # nothing to take whole: each match needs one of these
        out, at = [], 0
        for match in _inline_matches(text):
            out.append(self._tags(text[at:match.start()], heading))
            out.append(self._taken(match, heading))
            at = match.end()
        out.append(self._tags(text[at:], heading))
        return "".join(out)

    def _taken(self, match: re.Match[str], heading: bool) -> str:
        if match.group("display") or match.group("math"):
            tex = (match.group("display_tex") or match.group("tex")).strip()
            return code_span(tex) if tex else match.group(0)
        if match.group("reference"):
            footnote = self._referenced(match.group("label"))
            if heading:
                return ""  # a heading shows no footnote mark: its id is made from its text alone
            return match.group(0) if footnote is None else self._mark(footnote)
        if match.group("inline_note"):
            footnote = _Footnote(len(self.by_label) + len(self.inline_notes) + 1, text=[match.group("inline_text")])
            self.inline_notes.append(footnote)
            return "" if heading else self._mark(footnote)
        return match.group(0)

    def _tags(self, text: str, heading: bool) -> str:
        if "#" not in text or self.tag_link is None or heading:
            return text  # a heading's tags stay text: the id is made from its text

        def shown(match: re.Match[str]) -> str:
            tag = match.group(0)
            return tag if ALL_DIGITS_RE.fullmatch(tag, 1) or self.tag_link is None else self.tag_link(tag)

        return _TAG.sub(shown, text)

    def _referenced(self, label: str) -> _Footnote | None:
        key = label.lower()
        if key not in self.defined:
            return None  # Obsidian shows a reference to no definition as it is written
        if key not in self.by_label:
            self.by_label[key] = _Footnote(len(self.by_label) + len(self.inline_notes) + 1, key)
        return self.by_label[key]

    def _mark(self, footnote: _Footnote) -> str:
        n = footnote.number
        anchor = "" if footnote.referenced else f"{{: #{self.ids}-ref-{n} }}"
        footnote.referenced = True
        return f'[{str(n).translate(SUPERSCRIPT)}](#{self.ids}-{n} "Footnote {n}"){anchor}'

    def _definition(self, definition: re.Match[str], lines: list[tuple[str, bool]], at: int) -> int:
        """A footnote's definition and the lines that continue it (indented, or right after it), kept for the
        list at the end of the page."""
        text = [definition.group(2)]
        while at < len(lines):
            line = lines[at][0]
            if not line.strip():
                following = next((n for n, _ in lines[at:] if n.strip()), "")
                if not following.startswith(("    ", "\t")):
                    break
            elif not line.startswith((" ", "\t")) and (not text[-1].strip() or FOOTNOTE_DEFINITION.match(line)
                                                      or LIST_ITEM.match(line) or line.startswith(("#", ">"))):
                break
            text.append(line[4:] if line.startswith("    ") else line.lstrip(" \t"))
            at += 1
        self.texts.setdefault(definition.group(1).lower(), text)
        return at

    def footnotes(self) -> list[str]:
        """The footnotes referenced in the note, numbered in the order of their first reference (one
        referenced only in another footnote's text comes after it)."""
        out: list[str] = []
        done: set[int] = set()
        while pending := sorted((f for f in [*self.by_label.values(), *self.inline_notes] if f.number not in done),
                                key=lambda f: f.number):
            for footnote in pending:
                n = footnote.number
                done.add(n)
                text = footnote.text or self.texts.get(footnote.label, [""])
                body = self.show("\n".join(text), titled=True, depth=1) or [""]
                if footnote.referenced:  # the way back, at the end of the footnote's text
                    back = f'[↩](#{self.ids}-ref-{n} "Back to the text")'
                    last = max(at for at, line in enumerate(body) if line.strip()) if "".join(body).strip() else 0
                    if FENCE.match(body[last]) or body[last].startswith(("    ", "\t")):
                        body += ["", back]
                    else:
                        body[last] = f"{body[last]} {back}"
                out.append(f"{n}. {body[0]}".rstrip())
                out += [("    " + line) if line.strip() else "" for line in body[1:]]
                out.append(f"    {{: #{self.ids}-{n} }}")
        return ["", "---", "", *out] if out else []

    def _callout(self, callout: re.Match[str], lines: list[tuple[str, bool]], at: int, indent: str,
                 quotes: int, depth: int, out: list[str]) -> int:
        """A callout and its body (the lines quoted as deep as its marker), as an admonition, nested
        callouts included. Returns where the next line starts."""
        body = []
        while at < len(lines):
            line = lines[at][0]
            if not line.startswith(indent) or not line[len(indent):].lstrip(" \t").startswith(">"):
                break
            found, rest = _unquote(line[len(indent):], quotes)
            if found < quotes:
                break
            body.append(rest)
            at += 1
        lead = indent + "> " * (quotes - 1)
        kind = CALLOUT_TYPES.get(callout.group(1).lower(), "note")
        title = self.inline(HTML_TAG.sub("", callout.group(3)).replace('"', "'").strip()) \
            or callout.group(1).capitalize()
        marker = {"-": "???", "+": "???+"}.get(callout.group(2), "!!!")
        shown = self.show("\n".join(body), titled=True, depth=depth + 1)
        out += [lead.rstrip(), f'{lead}{marker} {kind} "{title}"',
                *((f"{lead}    {line}") if line.strip() else lead.rstrip() for line in shown), lead.rstrip()]
        return at

    def _math_block(self, line: str, lines: list[tuple[str, bool]], at: int, end: int, out: list[str]) -> int:
        """``$$ … $$`` (from this line to line ``end``) as a fenced block of TeX: the site draws no math.
        Returns where the next line starts."""
        lead = line[: line.index("$$")]
        written = [line[len(lead) + 2:]]
        for next_line, _ in lines[at:end + 1]:
            written.append(next_line[len(lead):] if next_line.startswith(lead) else next_line.lstrip(" \t>"))
        joined = "\n".join(written)
        tex = joined[: joined.index("$$")].strip("\n").split("\n")
        after = joined[joined.index("$$") + 2:].strip()  # what the closing line holds after the math
        if len(tex) == 1:
            tex = [tex[0].strip()]
        at = end + 1
        fence = "`" * max(3, 1 + max((len(m.group(0)) for t in tex for m in TICKS.finditer(t)), default=0))
        out += [lead.rstrip(), f"{lead}{fence}latex", *(f"{lead}{t}".rstrip() if t.strip() else lead.rstrip()
                                                        for t in tex), f"{lead}{fence}", lead.rstrip()]
        if after:
            out += [f"{lead}{self.inline(after)}", lead.rstrip()]
        return at


def _inline_matches(text: str) -> Iterator[re.Match[str]]:
    """``_INLINE.finditer(text)``, found the quickest way for the text."""
    if "://" in text:
        return _INLINE.finditer(text)
    if 4 * text.count("[") > len(text):  # brackets all along ("[[[[…"): the regex's own scan is quicker
        return _NO_URL.finditer(text)
    return _from_starts(text)


def _from_starts(text: str) -> Iterator[re.Match[str]]:
    """``_NO_URL.finditer(text)``, leftmost first, each tried only where a match can start (a lookbehind
    still sees the text before it)."""
    at = 0
    while start := _INLINE_STARTS.search(text, at):
        if match := _NO_URL.match(text, start.start()):
            yield match
            at = match.end()
        else:
            at = start.start() + 1


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
