"""A note's prose as plain text, paragraph by paragraph, with the line range and block id of each.

Similarity, seed propositions and the walk's quotations all need the words a
person wrote without the markup around them. Code blocks, math blocks,
tables, embeds and HTML comments are dropped; a wikilink becomes the words a
reader sees (its alias, or the note's name).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from walker.config import MAX_NOTE_MB
from walker.corpus.files import read_note
from walker.corpus.model import ParsedNote
from walker.corpus.parse import ALL_DIGITS_RE, TAG_RE, decode
from walker.words import HAN, has_cjk, has_verb, word_count

_FENCE = re.compile(r"^\s*(?:>\s*)*(?:[-*+]\s+)?(`{3,}|~{3,})")  # also inside quotes and list items
_MATH_FENCE = re.compile(r"^\s*\$\$")
# No class below may cross the bracket that opens another match, so a line of "[[[[…" stays linear.
_EMBED = re.compile(r"!\[\[[^\[\]\n]*]]|!\[[^\[\]\n]*]\([^()\n]*\)")
_WIKILINK = re.compile(r"\[\[([^\[\]|\n]*?)(?:\\?\|([^\[\]\n]*))?]]")
_MD_LINK = re.compile(r"\[([^\[\]\n]*)]\([^()\n]*\)")
# A link to a page outside the vault, as Markdown writes one ([title](https://…)) or bare (<https://…>, https://…).
# Only web schemes: a pattern that reads any scheme would try every start of a word, in time in the square of a line.
_OUTSIDE_LINK = re.compile(r"!?\[[^\[\]\n]*]\(\s*<?(?:https?|ftp)://[^()\n]*\)|<?\b(?:https?|ftp)://[^\s>]+>?", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
_PLACEHOLDER = re.compile(r"\{\{[^{}\n]*\}\}|<%[^%\n]*%>")
_SCRIPT_OPEN = re.compile(r"<(script|style)\b[^<>]*>", re.IGNORECASE)
_BLOCK_ID = re.compile(r"\s\^([A-Za-z0-9-]+)\s*$")
_LINE_PREFIX = re.compile(r"^\s*(?:>\s*)*(?:\[![^\]]*][+-]?\s*)?(?:[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+)?")
_CODE_SPAN = re.compile(r"(`[^`]+`)")  # one backtick each side: a pattern with runs of them backtracks quadratically
_EMPHASIS = re.compile(r"(\*\*|__|==|~~|\*|`)")
# A sentence ends at . ! ? before a capital; in Chinese and Japanese at 。！？； (after any closing quote), with
# or without a space, and at a plain ! or ? that Chinese follows. The second pattern is four times slower, and
# only a text with Chinese or Japanese in it needs it.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_SENTENCE_END_WIDE = re.compile(rf"{_SENTENCE_END.pattern}|(?<=[。！？；])(?![”’」』）)])\s*|"
                                rf"(?<=[。！？；][”’」』）)])\s*|(?<=[!?])\s*(?=[{HAN}])")
_TAG = re.compile(r"(?:(?<=\s)|^)#([^\s#]+)")


class Paragraph(NamedTuple):
    line: int  # 1-based, first line
    end_line: int
    text: str  # plain text
    block_id: str | None
    is_task: bool = False
    is_reference: bool = False  # nothing but links to pages outside the vault: their titles, not the note's words

    @property
    def prose(self) -> bool:
        """Whether the paragraph is the note's own words: not a task, not a list of outside references."""
        return not (self.is_task or self.is_reference)


def read_paragraphs(root: Path | str, note: ParsedNote) -> list[Paragraph]:
    """The note's paragraphs and list items as plain text. Unreadable files give no paragraphs, and so
    does a note that is no longer a regular file (or a link to one in the vault): it is not opened."""
    try:
        text, _ = decode(read_note(root, note.path, MAX_NOTE_MB * 1024 * 1024))
    except (OSError, ValueError):
        return []
    return paragraphs_of(text, note)


def paragraphs_of(text: str, note: ParsedNote) -> list[Paragraph]:
    visible = _blank_comments(text.replace("\r\n", "\n"), "<!--", "-->")
    lines = _blank_comments(visible, "%%", "%%").split("\n")  # Obsidian's own comments: hidden in reading view
    start = note.sections[0].line if note.sections else 1
    heading_lines = {h.line for h in note.headings}
    out: list[Paragraph] = []
    buffer: list[tuple[int, str]] = []
    fence: str | None = None

    def flush() -> None:
        if buffer:
            out.append(_paragraph(buffer))
            buffer.clear()

    for number, line in enumerate(lines[start - 1 :], start):
        if fence:
            if line.strip().startswith(fence):
                fence = None
            continue
        opened = _FENCE.match(line) or _MATH_FENCE.match(line)
        if opened:
            flush()
            fence = opened.group(1) if _FENCE.match(line) else "$$"
            if fence == "$$" and line.strip().endswith("$$") and len(line.strip()) > 2:
                fence = None
            continue
        stripped = line.strip()
        if not stripped or number in heading_lines or stripped.startswith("|") or stripped == "---":
            flush()
            continue
        if re.match(r"^\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s", line):
            flush()  # each list item stands alone
        buffer.append((number, line))
    flush()
    return [p for p in out if p.text]


def _paragraph(lines: list[tuple[int, str]]) -> Paragraph:
    # A line that ends in a colon leads into what follows it (a formula, a picture, a list): the next line starts a
    # sentence of its own, as reading view shows it on a line of its own. The text keeps that break as its one "\n".
    parts = [_LINE_PREFIX.sub("", line, count=1) for _, line in lines]
    raw = " ".join(parts)
    if len(parts) > 1 and (":" in raw or "：" in raw):
        raw = "".join(part + ("\n" if part.rstrip().endswith((":", "：")) else " ") for part in parts)
    first = lines[0][1]
    is_task = bool(re.match(r"^\s*(?:>\s*)*[-*+]\s+\[.\]", first))
    block = _BLOCK_ID.search(raw)
    if block:
        raw = raw[: block.start()]
    text = "\n".join(filter(None, map(plain, raw.split("\n")))) if "\n" in raw else plain(raw)
    return Paragraph(lines[0][0], lines[-1][0], text, block.group(1).lower() if block else None, is_task,
                     _only_outside_links(raw))


def _only_outside_links(markdown: str) -> bool:
    """Whether a paragraph is nothing but links to outside pages (a reference list's item): no letter is left once
    they are taken out."""
    if "://" not in markdown:
        return False
    left = _OUTSIDE_LINK.sub(" ", markdown)
    return left != markdown and not _LETTER.search(left)


def plain(markdown: str) -> str:
    """One line of Markdown as the words a reader sees. Each pass runs only when its mark is present:
    most paragraphs are plain prose, and this runs on every paragraph of the vault."""
    text = markdown
    if "<" in text:
        text = _HTML_TAG.sub(" ", _drop_scripts(text))  # a reader of the note sees the text, not the tags
        text = _PLACEHOLDER.sub(" ", text)  # <% tp.file.title %>: filled in when a template is used
    if "![" in text:
        text = _EMBED.sub(" ", text)
    if "{{" in text:
        text = _PLACEHOLDER.sub(" ", text)  # {{date}}
    if "[[" in text:
        text = _WIKILINK.sub(lambda m: (m.group(2) or m.group(1).split("#")[0].split("/")[-1] or m.group(1).lstrip("#")),
                             text)
    if "](" in text:
        text = _MD_LINK.sub(r"\1", text)
    if "#" in text:  # "#garden" is filing, not prose: quotes and propositions read without it; `#task` is code
        text = "".join(part if part.startswith("`") else _drop_tags(part) for part in _CODE_SPAN.split(text))
    text = _EMPHASIS.sub("", text)
    if "\\" in text:
        text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", text)
    return " ".join(text.split())


def _blank_comments(text: str, opener: str, closer: str) -> str:
    """Comments become blank lines (line numbers stay). One pass with ``find``: a note of many
    unclosed ``<!--`` would make a lazy regex quadratic."""
    out, at = [], 0
    while (start := text.find(opener, at)) >= 0:
        end = text.find(closer, start + len(opener))
        if end < 0:
            break
        out += [text[at:start], "\n" * text.count("\n", start, end)]
        at = end + len(closer)
    return "".join(out) + text[at:]


def _drop_scripts(text: str) -> str:
    """``<script>`` and ``<style>`` elements with their content, found without backtracking."""
    if "<" not in text:
        return text
    out, at, lower = [], 0, text.lower()
    while opened := _SCRIPT_OPEN.search(text, at):
        close = lower.find(f"</{opened.group(1).lower()}", opened.end())
        if close < 0:
            break
        end = lower.find(">", close)
        end = len(text) if end < 0 else end + 1
        out += [text[at : opened.start()], " "]
        at = end
    return "".join(out) + text[at:]


def _drop_tags(text: str) -> str:
    """Remove inline tags as Obsidian reads them (after a space or at the start; not all digits)."""

    def drop(match: re.Match[str]) -> str:
        return match.group(0) if ALL_DIGITS_RE.fullmatch(match.group(0), 1) else " "

    return re.sub(r"(?:(?<=\s)|^)" + TAG_RE.pattern, drop, text)


WIDE_STOPS = "。！？；"  # how a sentence of Chinese or Japanese ends (before any closing quote)
CLOSERS = "”’」』）\"')"


def ends_wide(text: str) -> bool:
    """Whether a sentence ends as Chinese and Japanese end one: the next is written with no space before it."""
    return text.rstrip(CLOSERS).endswith(tuple(WIDE_STOPS))

_COMPLETE = re.compile(r"[.!?…。！？；][\"'”’)*_」』）]*$")  # a sentence that ends as a sentence does
_GAP = re.compile(r"\s[,.](?:\s|$)")
_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")  # a word, not a number or a symbol
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_SYMBOL = re.compile(r"[{}\[\]<>=|\\#]")
LIST_LIKE = 8  # digits, commas, colons and code symbols (``_listiness``) that make a line a list, not a claim
_URL = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|www\.)\S+", re.IGNORECASE)
_KEY_VALUE = re.compile(r"^[\w\s-]{1,30}::?\s")  # "Status: done", Dataview's "key:: value"
_SHELL = re.compile(r"^(?:\$|>>>|#!|sudo |pip |npm |git |cd )")
# A sentence about the document it sits in ("these examples demonstrate…", "view this page in…") says
# nothing about its subject: the same words in two notes are two documents describing themselves. So does a
# note's purpose line ("For experimenting with happens date with invalid dates.") or a pointer ("See …").
_ABOUT_ITSELF = re.compile(
    r"\b(?:this|these|the following|the next|the previous) (?:page|file|note|section|document|examples?|steps?|"
    r"guide|tutorial|chapter|article|post|demo|tests?|scenarios?|table|list)\b|"
    r"\b(?:see|shown|listed|described|explained) (?:below|above)\b|"
    r"本文|本篇|本页|本节|本章|如下|下文|上文|下面(?:是|介绍|列出)|以下(?:是|为)|参见|详见|见下")
_ABOUT_ITSELF_WORDS = ("this ", "these ", "the following ", "the next ", "the previous ", " below", " above", "本",
                       "如下", "下文", "上文", "下面", "以下", "参见", "详见", "见下")
_OPENS_ABOUT_ITSELF = re.compile(
    r"(?:here (?:is|are)|for (?:experimenting|testing|trying|checking|demonstrating|exploring|reproducing)|see)\b")


def is_proposition(sentence: str, title: str = "") -> bool:
    """Whether a sentence is worth quoting as what a note says: a whole sentence of prose, not a comment, a URL,
    a template placeholder, a ``Key: value`` property line, a shell line, a sentence about the document
    itself ("this page shows…"), a sentence with link brackets left in it (a link written inside code, which
    a quote would turn into a live one), a list or table row, a heading or lead-in that says half a thing, or
    the note's bare title."""
    text = sentence.strip()
    if not text or "%%" in text or "{{" in text or "<%" in text or "[[" in text or "]]" in text:
        return False
    lowered = text.lower()
    if ("://" in text or "www." in lowered) and _URL.search(text):
        return False
    if not _complete(text) or _listiness(text) >= LIST_LIKE:
        return False  # "Divider to create a new section", "…is MMM D YYYY:", "flour 500 g, water 350 g, salt 10 g."
    if _GAP.search(text):
        return False  # "it searches for , but": a tag or comment in a code span left a hole the quote would show
    if _KEY_VALUE.match(text) or _SHELL.match(text) or _about_itself(lowered):
        return False
    if title and lowered.rstrip(".!").strip() == title.strip().lower():
        return False
    if has_cjk(text):  # no spaces: at least ten characters, mostly letters rather than digits and symbols
        return word_count(text) >= 5 and len(_LETTER.findall(text)) >= 0.7 * len(text.replace(" ", ""))
    words = text.split()
    return len(words) >= 4 and sum(1 for w in words if _TWO_LETTERS.search(w)) >= 0.7 * len(words)


def _complete(text: str) -> bool:
    """A sentence ends as a sentence does. Chinese notes often leave the last full stop out: there a clause that
    does not lead into something else (a colon, a comma) and holds a verb is a whole statement."""
    if _COMPLETE.search(text):
        return True
    return has_cjk(text) and not text.endswith(_LEADS_IN) and has_verb(text)


_LEADS_IN = (":", "：", ",", "，", "、", "-", "—", "(", "（", "[", "【")


def _about_itself(lowered: str) -> bool:
    if _OPENS_ABOUT_ITSELF.match(lowered):
        return True
    # The search is the slowest step of this test, and most sentences hold none of its words.
    return any(word in lowered for word in _ABOUT_ITSELF_WORDS) and bool(_ABOUT_ITSELF.search(lowered))


def _listiness(sentence: str) -> int:
    """Digits, commas, colons and code symbols: high for lists, table rows and syntax; low for prose."""
    commas = sentence.count(",") + sentence.count("、")  # "，" is Chinese prose's clause mark, not a list's
    colons = sentence.count(":") + sentence.count("：")
    return len(_DIGIT.findall(sentence)) + commas + 2 * colons + 2 * len(_SYMBOL.findall(sentence))


def sentences(text: str) -> list[str]:
    pattern = _SENTENCE_END_WIDE if has_cjk(text) else _SENTENCE_END
    parts = text.split("\n") if "\n" in text else (text,)  # a lead-in line ends where its colon does
    return [s.strip() for part in parts for s in pattern.split(part) if s.strip()]


def join_sentences(parts: list[str] | tuple[str, ...]) -> str:
    """Sentences written one after another, as ``sentences`` took them apart: a space after a sentence of an
    alphabetic script, none after 。！？； (Chinese and Japanese write none)."""
    return "".join(part if not at or ends_wide(parts[at - 1]) else f" {part}" for at, part in enumerate(parts))


def strip_tags(text: str) -> str:
    """Inline #tags read as words ("#garden" -> "garden")."""
    return _TAG.sub(r"\1", text) if "#" in text else text
