"""Wikilinks to site links, with walker's own resolver.

A link to something the site has (a report, a record, a cited note, a picture)
becomes a relative Markdown link that MkDocs checks with ``--strict``; a link to
anything else opens the note in Obsidian (``obsidian://open``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from urllib.parse import quote

from markdown import Markdown

from walker.corpus import Resolver, find_subpath
from walker.corpus.model import Block, Corpus, Heading
from walker.corpus.parse import decode_uri, is_internal_url
from walker.corpus.parse import markdown as parser
from walker.refs import heading_label, split_subpath
from walker.site.obsidian import regions

# No class below may cross the "[" that opens another match: a line of "[[[[…" stays linear.
WIKILINK = re.compile(r"(!?)\[\[((?:[^\[\]\n]|\[(?!\[))+?)]]")
MARKDOWN_LINK = re.compile(r"(!?)\[([^\[\]\n]*)]\((<[^<>\n]+>|[^()\[\s]+)(\s+\"[^\"\n]*\")?\)")
BLOCK_ID_AT_END = re.compile(r"(?<=\s)\^([A-Za-z0-9-]+)[ \t]*$", re.MULTILINE)
_CODE_OR_WIKILINK = re.compile(r"(!?\[\[(?:[^\[\]\n]|\[(?!\[))+?]]|`+[^`]*`+)")


LEAVES = "Opens the note in Obsidian: the site has no page for it"


def obsidian_url(vault_name: str, vault_path: str) -> str:
    """Opens a vault file in Obsidian: ``obsidian://open?vault=…&file=…`` with ``/`` encoded."""
    return f"obsidian://open?vault={quote(vault_name, safe='')}&file={quote(vault_path.removesuffix('.md'), safe='')}"


def block_anchor(block_id: str) -> str:
    return f"block-{block_id.lower()}"


@cache
def heading_anchor(text: str) -> str:
    """The id the site's page gives a heading: rendered as the page renders it (links, emphasis, code and an
    attribute list read as they show, HTML made inert), then the toc's own slug, so the two always agree."""
    _HEADINGS.reset()
    found = _HEADING_ID.search(_HEADINGS.convert("# " + plain_heading(text).replace("\n", " ")))
    # A heading with no ASCII word (Chinese, say) gets the toc's "_1", "_2"… by its place on the page, which the
    # heading alone cannot tell: the link opens the page.
    return "" if not found or _PLACE_ID.fullmatch(found.group(1)) else found.group(1)


# The inline part of the site's Markdown (walker.site.build.EXTENSIONS): what a one-line heading can hold.
_HEADINGS = Markdown(extensions=["toc", "attr_list", "pymdownx.mark", "walker.site.markdown_ext"])
_HEADING_ID = re.compile(r'^<h1 id="([^"]*)"')
_PLACE_ID = re.compile(r"_\d+")


def plain_heading(text: str) -> str:
    """Heading text as the page shows it: wikilinks read as their alias, a trailing block id gone."""
    text = BLOCK_ID_AT_END.sub("", text).strip()
    return WIKILINK.sub(lambda m: _label(m.group(2)), text)


class SiteLinks:
    """Knows which vault files have a page or an asset in the site, and where."""

    def __init__(self, corpus: Corpus, vault_name: str, pages: dict[str, str],
                 inline_blocks: dict[str, set[str]]) -> None:
        self.corpus = corpus
        self.vault_name = vault_name
        self.pages = pages  # vault path -> site path (pages and assets)
        self.inline_blocks = inline_blocks  # note path -> block ids that end a paragraph or list item
        self.resolver = Resolver(f.path for f in corpus.files)

    def obsidian_url(self, vault_path: str) -> str:
        return obsidian_url(self.vault_name, vault_path)

    def convert(self, markdown: str, vault_source: str, site_page: str) -> str:
        """Rewrite every wikilink outside code in ``markdown`` written in ``vault_source``."""
        def rewrite(text: str) -> str:
            if "[" not in text:  # most of a note's text: no link can start here
                return text
            # Markdown links first: the links written for wikilinks must not be rewritten again.
            text = MARKDOWN_LINK.sub(lambda m: self._markdown_link(m, vault_source, site_page), text)
            return WIKILINK.sub(lambda m: self._link(m, vault_source, site_page), text)

        return _outside_code(markdown, rewrite)

    def _markdown_link(self, match: re.Match[str], source: str, page: str) -> str:
        """A relative Markdown link or image in a note, pointed at the site or at Obsidian."""
        embed, label, url = match.group(1) == "!", match.group(2), match.group(3).strip("<>")
        if not is_internal_url(url) or url.startswith("#"):
            return match.group(0)
        decoded = decode_uri(url)
        if decoded is None:
            return match.group(0)
        linkpath, subpath = split_subpath(decoded)
        resolved = self.resolver.resolve(linkpath, source).path
        if resolved is None:
            return f"*{_escape(label) or _escape(linkpath)}*"
        site = self.pages.get(resolved)
        if site is None:
            return f"[{_escape(label) or _escape(linkpath)}]({self.obsidian_url(resolved)} \"{LEAVES}\")"
        anchor = self._anchor(resolved, subpath) if subpath else ""
        return f"{'!' if embed else ''}[{label}]({self.relative(page, site)}{anchor})"

    def _link(self, match: re.Match[str], source: str, page: str) -> str:
        embed, inner = match.group(1) == "!", match.group(2)
        target, _, alias = inner.replace("\\|", "|").partition("|")
        linkpath, subpath = split_subpath(target.strip())
        resolved = self.resolver.resolve(linkpath.strip(), source).path
        label = alias.strip() or _label(inner)
        if resolved is None:
            return f"*{_escape(label)}*"
        site = self.pages.get(resolved)
        if embed and site and not resolved.endswith(".md"):
            return f"![{_escape(alias.strip() if alias.strip() and not alias.strip().isdigit() else '')}]({self.relative(page, site)})"
        if site is None:
            return f"[{_escape(label)}]({self.obsidian_url(resolved)} \"{LEAVES}\")"
        anchor = self._anchor(resolved, subpath) if subpath else ""
        return f"[{_escape(label)}]({self.relative(page, site)}{anchor})"

    def _anchor(self, path: str, subpath: str) -> str:
        """The page anchor for a ``#Heading`` or ``#^block`` subpath of a note, or "" when it has none."""
        note = self.corpus.notes.get(path)
        if note is None:
            return ""
        found = find_subpath(note, subpath)
        if isinstance(found, Block) and self.has_block_anchor(path, found.id):
            return "#" + block_anchor(found.id)
        if isinstance(found, Heading) and (anchor := heading_anchor(found.text)):
            return "#" + anchor
        return ""

    def has_block_anchor(self, path: str, block_id: str) -> bool:
        """Inline block ids become anchors; a standalone ``^id`` under a table cannot carry one."""
        return block_id in self.inline_blocks.get(path, set())

    @staticmethod
    def relative(page: str, target: str) -> str:
        """The link from one site page to another. Both are clean relative paths (walker made them), so
        this is a walk up and down their folders; posixpath.relpath's absolute paths took 1 s a big build."""
        start, to = page.split("/")[:-1], target.split("/")
        common = 0
        while common < min(len(start), len(to) - 1) and start[common] == to[common]:
            common += 1
        return quote("/".join([".."] * (len(start) - common) + to[common:]))


def _label(inner: str) -> str:
    target, _, alias = inner.replace("\\|", "|").partition("|")
    if alias.strip():
        return alias.strip()
    parts = [p for p in target.split("#") if p]
    name = parts[0].rsplit("/", 1)[-1] if parts and not target.startswith("#") else ""
    rest = [shown for p in (parts[1:] if name else parts) if (shown := heading_label(p).lstrip("^"))]
    return " › ".join([name, *rest] if name else rest) or target


def _escape(label: str) -> str:
    return label.replace("[", "\\[").replace("]", "\\]")


# Blocks the corpus reads no link in, found by the corpus's own parser: a fence inside a quote, an HTML
# block (comments included), $$ math. Indented code is left to ``regions``, which knows that an admonition's
# indented body is not code.
_LINKLESS_BLOCKS = frozenset({"fence", "html_block", "math_block", "math_block_eqno"})


_MAY_HOLD_LINKLESS = re.compile(r"^[ \t]*(?:>[ \t]*)+(?:`{3}|~{3})|^ {0,3}(?:<|\$\$)", re.MULTILINE)


def _linkless_lines(markdown: str) -> set[int]:
    """Line numbers (from 0) that markdown-it puts in a block without links. Most pages have no line that
    could open such a block, and are not parsed."""
    lines: set[int] = set()
    if not _MAY_HOLD_LINKLESS.search(markdown):
        return lines
    for token in parser().parse(markdown, {"links": []}):
        if token.type in _LINKLESS_BLOCKS and token.map:
            lines.update(range(token.map[0], token.map[1]))
    return lines


def _outside_code(markdown: str, rewrite: Callable[[str], str]) -> str:
    """Apply ``rewrite`` to every line outside code (fenced, indented, HTML blocks, math) and outside inline
    code spans."""
    out = []
    linkless = _linkless_lines(markdown)
    for number, (line, code) in enumerate(regions(markdown)):
        if code or number in linkless:
            out.append(line)
            continue
        # A wikilink may hold code in its label ([[Note#`id`|the `id` rules]]): it is taken whole first.
        parts = _CODE_OR_WIKILINK.split(line)
        out.append("".join(p if p.startswith("`") else rewrite(p) for p in parts))
    return "\n".join(out)
