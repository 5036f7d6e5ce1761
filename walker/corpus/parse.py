"""Parse one Obsidian note: links, embeds, tags, block ids, headings, sections.

Parsing runs on markdown-it-py tokens, never on raw text, so code spans, code
blocks, math, HTML blocks and HTML comments are excluded by construction
(reference/obsidian-syntax.md §4). The block pass runs on every note; the
inline pass runs only on inline runs that contain ``[`` or ``#``, the two
characters every link and tag needs. That keeps a cold scan close to the cost
of reading the files without giving up the tokenizer.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt, rules_inline
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from walker.corpus.model import Block, Heading, ParsedNote, RawLink, Section
from walker.corpus.properties import (
    frontmatter_aliases,
    frontmatter_tags,
    load_frontmatter,
    split_frontmatter,
)

# Obsidian's tag tokenizer (§6.1), ported: [0-9] not \d, and JavaScript's \s includes U+FEFF.
TAG_RE = re.compile(
    r"#[^\u2000-\u206F\u2E00-\u2E7F'!\"#$%&()*+,.:;<=>?@^`{|}~\[\]\\\s\ufeff]+"
)
ALL_DIGITS_RE = re.compile(r"[0-9]+")
BLOCK_ID_END_RE = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)$")
BLOCK_ID_ALONE_RE = re.compile(r"\^([A-Za-z0-9-]+)")
URL_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
PERCENT_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
COMMENT_RE = re.compile(r"%%.*?%%", re.DOTALL)
# decodeURI leaves escapes of these characters encoded.
URI_RESERVED = set(";/?:@&=+$,#")


class BinaryFileError(ValueError):
    """The file is not text (it holds NUL bytes)."""


def decode(raw: bytes) -> tuple[str, list[str]]:
    """Bytes to text: BOM dropped, invalid UTF-8 replaced with a warning, binary refused."""
    if b"\x00" in raw[:8192]:
        raise BinaryFileError("binary content (NUL bytes), not a text note")
    warnings = []
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8-sig", errors="replace")
        warnings.append(f"not valid UTF-8 (first bad byte at offset {exc.start}); decoded with replacement characters")
    return text, warnings


def clean_target(text: str) -> str:
    """Obsidian's cleanString: NBSP to space, trim, NFC."""
    return unicodedata.normalize("NFC", text.replace("\u00a0", " ").strip())


def split_alias(inner: str) -> tuple[str, str | None]:
    """Obsidian's parseAliasLink: split ``target|display`` on the first pipe past index 0."""
    pipe = inner.find("|")
    if pipe > 0:
        target, display = inner[:pipe].strip(), inner[pipe + 1 :].strip()
    else:
        target, display = inner.strip(), None
    if target.endswith("\\"):
        target = target[:-1]
    return clean_target(target), display


def decode_uri(url: str) -> str | None:
    """JavaScript's decodeURI: reserved escapes stay encoded; a malformed escape gives None."""

    def replace(match: re.Match[str]) -> str:
        chunk = match.group(0)
        try:
            decoded = bytes.fromhex(chunk.replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(chunk) from None
        out, i = [], 0
        for ch in decoded:
            width = len(ch.encode("utf-8")) * 3
            out.append(chunk[i : i + width] if ch in URI_RESERVED else ch)
            i += width
        return "".join(out)

    if re.search(r"%(?![0-9A-Fa-f]{2})", url):
        return None
    try:
        return PERCENT_RE.sub(replace, url)
    except ValueError:
        return None


def is_internal_url(url: str) -> bool:
    return bool(url) and not URL_SCHEME_RE.match(url) and not url.startswith("//")


# --- markdown-it rules ------------------------------------------------------


def _line_at(state: StateInline, pos: int) -> int:
    """The source line of ``pos``. Newline offsets are found once per inline run (a bisect per link),
    so a paragraph of many lines with a link on each stays linear."""
    cached = state.env.get("_newlines")
    if cached is None or cached[0] is not state.src:
        cached = state.env["_newlines"] = (state.src, [m.start() for m in re.finditer("\n", state.src)])
    return int(state.env["line"]) + bisect.bisect_left(cached[1], pos)


def _find_after(state: StateInline, needle: str, start: int) -> int:
    """``state.src.find(needle, start)``, remembered per inline run: a run of a thousand ``[[`` with
    no ``]]`` costs one search, not a thousand."""
    key = "_find" + needle
    cached = state.env.get(key)
    if cached is not None and cached[0] is state.src and cached[1] <= start and (cached[2] < 0 or cached[2] >= start):
        return int(cached[2])
    found = state.src.find(needle, start)
    state.env[key] = (state.src, start, found)
    return found


def _wikilink_rule(state: StateInline, silent: bool) -> bool:
    """Obsidian's wikilink tokenizer (§2.1), tried before ``link`` and ``image``: ``[[`` then at least
    one character and ``]]`` on the same line, with no ``[[`` in between."""
    src, pos = state.src, state.pos
    if src[pos] not in "![":
        return False
    start = pos + (src[pos] == "!")
    if not src.startswith("[[", start):
        return False
    close = _find_after(state, "]]", start + 3)
    if close < 0:
        return False
    newline = _find_after(state, "\n", start + 2)
    if 0 <= newline < close or src.find("[[", start + 2, close) >= 0:
        return False
    if not silent:
        target, display = split_alias(src[start + 2 : close])
        kind = "embed" if pos != start else "link"
        state.env["links"].append(RawLink(kind, target, _line_at(state, pos), display))
        token = state.push("wikilink", "", 0)
        token.content = src[pos : close + 2]
    state.pos = close + 2
    return True


def _tag_rule(state: StateInline, silent: bool) -> bool:
    """A ``#tag`` at the start of a text run or after whitespace (§6.1)."""
    if state.src[state.pos] != "#":
        return False
    pending = state.pending
    if pending and not pending[-1].isspace():
        return False
    match = TAG_RE.match(state.src, state.pos)
    if not match or ALL_DIGITS_RE.fullmatch(match.group(0), 1):
        return False
    if not silent:
        state.env["tags"].append(match.group(0)[1:])
        state.append_pending(match.group(0))
    state.pos = match.end()
    return True


def _capture_links(rule: Any, attr: str, kind: str) -> Any:
    """Wrap markdown-it's link or image rule to record internal destinations with their line."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        pos, count = state.pos, len(state.tokens)
        if _find_after(state, "]", pos + 1) < 0:
            return False  # no label can close: skip markdown-it's scan, which a line of "[[[[" makes slow
        if not rule(state, silent):
            return False
        if not silent:
            for token in state.tokens[count:]:
                if token.type in ("link_open", "image"):
                    _record_url(state, str(token.attrGet(attr) or ""), kind, pos)
                    break
        return True

    return wrapped


def _record_url(state: StateInline, url: str, kind: str, pos: int) -> None:
    if not is_internal_url(url):
        return
    decoded = decode_uri(url)
    if decoded is None:  # Obsidian leaves a malformed URL as an external link
        return
    state.env["links"].append(RawLink(kind, clean_target(decoded), _line_at(state, pos)))


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The one configured parser: block pass by ``parse``, inline pass driven by ``parse_note``."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.use(dollarmath_plugin, allow_space=False, double_inline=True)
    md.use(footnote_plugin)
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]  # keep destinations as written
    md.inline.ruler.before("link", "wikilink", _wikilink_rule)
    md.inline.ruler.before("link", "tag", _tag_rule)
    md.inline.ruler.at("link", _capture_links(rules_inline.link, "href", "markdown"))
    md.inline.ruler.at("image", _capture_links(rules_inline.image, "src", "embed"))
    for rule in ("inline", "text_join", "footnote_tail"):  # the tail drops definitions it saw no ref to
        md.core.ruler.disable(rule)
    return md


# --- links in properties ----------------------------------------------------


def frontmatter_links(data: dict[str, object], raw: str) -> list[RawLink]:
    """Whole-string ``"[[…]]"`` values anywhere in the properties, with dotted key paths (§7)."""
    links: list[RawLink] = []

    def walk(value: object, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{key}.{k}" if key else k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{key}.{i}")
        elif isinstance(value, str) and value.startswith("[[") and value.endswith("]]"):
            target, display = split_alias(value[2:-2])
            offset = raw.find(value)
            line = 1 + (raw.count("\n", 0, offset) if offset >= 0 else 0)
            links.append(RawLink("frontmatter", target, line, display, key))

    walk(data, "")
    return links


# --- the note ---------------------------------------------------------------


def parse_note(path: str, text: str, *, index_comments: bool = True) -> ParsedNote:
    """Parse one note's text. Never raises on content; problems become warnings."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    warnings: list[str] = []
    raw_fm, body, offset = split_frontmatter(text)
    data: dict[str, object] = {}
    links: list[RawLink] = []
    if raw_fm is not None:
        data, fm_warnings = load_frontmatter(raw_fm)
        warnings += fm_warnings
        links += frontmatter_links(data, raw_fm)
    if not index_comments:
        body = COMMENT_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)

    body_tags: list[str] = []
    env: dict[str, Any] = {"links": links, "tags": body_tags, "line": 0}
    md = markdown()
    tokens = md.parse(body, env)
    headings, blocks = _walk_blocks(md, tokens, env, offset)
    open_tasks = sum(1 for t in tokens if t.type == "inline" and t.level > 1 and t.content.startswith("[ ] "))
    line_count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return ParsedNote(
        path=path,
        frontmatter=data,
        tags=_unique_ci(frontmatter_tags(data) + body_tags),
        aliases=tuple(frontmatter_aliases(data)),
        links=tuple(links),
        headings=_heading_ranges(headings, line_count),
        blocks=tuple(blocks),
        # With frontmatter, the body's first line is the rest of the closing fence line.
        sections=_sections(headings, offset + (2 if raw_fm is not None else 1), line_count),
        line_count=line_count,
        warnings=tuple(warnings),
        open_tasks=open_tasks,
    )


def _walk_blocks(
    md: MarkdownIt, tokens: list[Token], env: dict[str, Any], offset: int
) -> tuple[list[tuple[int, str, int]], list[Block]]:
    """Run the inline pass where it can find something; collect headings and block ids."""
    headings: list[tuple[int, str, int]] = []
    blocks: list[Block] = []
    open_maps: list[list[int] | None] = []
    last_closed: dict[int, list[int]] = {}
    for i, token in enumerate(tokens):
        if token.nesting == 1:
            open_maps.append(token.map)
        elif token.nesting == -1:
            opened = open_maps.pop() if open_maps else None
            if opened:
                last_closed[token.level] = opened
        elif token.map and token.type != "inline":
            last_closed[token.level] = token.map  # fence, code block, hr, html block, math
        if token.type != "inline" or not token.map:
            continue
        first, last = token.map[0] + offset + 1, token.map[1] + offset
        content = token.content
        parent = tokens[i - 1] if i else None
        if parent is not None and parent.type == "heading_open" and parent.level == 0:
            headings.append((int(parent.tag[1]), content.strip(), first))
        if "[" in content or "#" in content:
            env["line"] = first
            md.inline.parse(content, md, env, token.children or [])
        if "^" in content:
            block = _block_id(content, first, last, parent, last_closed, offset)
            if block:
                blocks.append(block)
    return headings, blocks


def _block_id(
    content: str,
    first: int,
    last: int,
    parent: Token | None,
    last_closed: dict[int, list[int]],
    offset: int,
) -> Block | None:
    stripped = content.strip()
    alone = BLOCK_ID_ALONE_RE.fullmatch(stripped)
    if alone and parent is not None and parent.type == "paragraph_open":
        sibling = last_closed.get(parent.level)
        if sibling and sibling[1] <= first - offset:
            return Block(alone.group(1).lower(), sibling[0] + offset + 1, sibling[1] + offset)
        return Block(alone.group(1).lower(), first, last)
    match = BLOCK_ID_END_RE.search(stripped)
    return Block(match.group(1).lower(), first, last) if match else None


def _heading_ranges(headings: list[tuple[int, str, int]], line_count: int) -> tuple[Heading, ...]:
    out = []
    for i, (level, text, line) in enumerate(headings):
        end = line_count
        for next_level, _, next_line in headings[i + 1 :]:
            if next_level <= level:
                end = next_line - 1
                break
        out.append(Heading(level, text, line, end))
    return tuple(out)


def _sections(headings: list[tuple[int, str, int]], body_start: int, line_count: int) -> tuple[Section, ...]:
    sections = []
    starts = [(None, 0, body_start)] + [(text, level, line) for level, text, line in headings]
    for i, (heading, level, line) in enumerate(starts):
        end = starts[i + 1][2] - 1 if i + 1 < len(starts) else line_count
        if heading is None and end < line:
            continue
        sections.append(Section(heading, level, line, max(end, line)))
    return tuple(sections)


def _unique_ci(tags: list[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for tag in tags:
        seen.setdefault(tag.lower(), tag)
    return tuple(seen.values())
