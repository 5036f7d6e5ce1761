"""Wikilinks to site links, with walker's own resolver.

A link to something the site has (a report, a record, a cited note, a picture)
becomes a relative Markdown link that MkDocs checks with ``--strict``; a link to
anything else opens the note in Obsidian (``obsidian://open``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from urllib.parse import quote

from markdown import Markdown

from walker.corpus import Resolver, find_subpath
from walker.corpus.model import Block, Corpus, Heading, ParsedNote
from walker.corpus.parse import decode_uri, is_internal_url
from walker.corpus.parse import markdown as parser
from walker.refs import heading_label, split_subpath
from walker.site.obsidian import HTML_TAG, regions, shown_heading

# No class below may cross the "[" that opens another match: a line of "[[[[…" stays linear.
WIKILINK = re.compile(r"(!?)\[\[((?:[^\[\]\n]|\[(?!\[))+?)]]")
MARKDOWN_LINK = re.compile(r"(!?)\[([^\[\]\n]*)]\((<[^<>\n]+>|[^()\[\s]+)(\s+\"[^\"\n]*\")?\)")
BLOCK_ID_AT_END = re.compile(r"(?<=\s)\^([A-Za-z0-9-]+)[ \t]*$", re.MULTILINE)
_CODE_OR_WIKILINK = re.compile(r"(!?\[\[(?:[^\[\]\n]|\[(?!\[))+?]]|`+[^`]*`+)")


LEAVES = "Opens the note in Obsidian: the site has no page for it"
TAG_SEARCH = "Searches this tag in Obsidian"
PICTURE_SIZE = re.compile(r"\s*([0-9]+)\s*(?:x\s*([0-9]+)\s*)?")


@lru_cache(maxsize=1 << 16)  # a note is linked from many pages
def obsidian_url(vault_name: str, vault_path: str) -> str:
    """Opens a vault file in Obsidian: ``obsidian://open?vault=…&file=…`` with ``/`` encoded."""
    return f"obsidian://open?vault={quote(vault_name, safe='')}&file={quote(vault_path.removesuffix('.md'), safe='')}"


def block_anchor(block_id: str) -> str:
    return f"block-{block_id.lower()}"


@cache
def heading_anchor(text: str) -> str:
    """The id the site's page gives a heading: rendered as the page renders it (as Obsidian shows it: comments,
    HTML and footnote marks gone, math as code; links, emphasis, code and an attribute list read as they show),
    then the toc's own slug, so the two always agree."""
    _HEADINGS.reset()
    found = _HEADING_ID.search(_HEADINGS.convert("# " + shown_heading(plain_heading(text).replace("\n", " "))))
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
                 inline_blocks: Mapping[str, set[str]]) -> None:
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
            if "](" in text:
                text = MARKDOWN_LINK.sub(lambda m: self._markdown_link(m, vault_source, site_page), text)
            if "[[" not in text:
                return text
            return WIKILINK.sub(lambda m: self._link(m, vault_source, site_page), text)

        return _outside_code(markdown, rewrite, "[")

    def _markdown_link(self, match: re.Match[str], source: str, page: str) -> str:
        """A relative Markdown link or image in a note, pointed at the site or at Obsidian."""
        embed, label, url = match.group(1) == "!", match.group(2), match.group(3).strip("<>")
        if url.startswith("#") and not embed:
            return self._own_anchor(match, source, page)
        if not is_internal_url(url) or url.startswith("#"):
            return match.group(0)
        decoded = decode_uri(url)
        if decoded is None:
            return match.group(0)
        linkpath, subpath = split_subpath(decoded)
        resolved = self.resolver.resolve(linkpath, source).path
        size = ""
        if embed:
            label, size = picture_size(label)
        if resolved is None:
            return f"*{_escape(label) or _escape(linkpath)}*"
        site = self.pages.get(resolved)
        if site is None:
            return f"[{_escape(label) or _escape(linkpath)}]({self.obsidian_url(resolved)} \"{LEAVES}\")"
        anchor = self._anchor(resolved, subpath) if subpath else ""
        return f"{'!' if embed else ''}[{label}]({self.relative(page, site)}{anchor}){size}"

    def _link(self, match: re.Match[str], source: str, page: str) -> str:
        embed, inner = match.group(1) == "!", match.group(2)
        target, _, alias = inner.replace("\\|", "|").partition("|")
        linkpath, subpath = split_subpath(target.strip())
        resolved = self.resolver.resolve(linkpath.strip(), source).path
        alias = HTML_TAG.sub("", alias).strip()  # Obsidian renders an alias's HTML; the page shows its text
        label = alias or _label(inner)
        if resolved is None:
            return f"*{_escape(label)}*"
        site = self.pages.get(resolved)
        if embed and site and not resolved.endswith(".md"):
            alt, size = picture_size(alias)
            return f"![{_escape(alt)}]({self.relative(page, site)}){size}"
        if site is None:
            return f"[{_escape(label)}]({self.obsidian_url(resolved)} \"{LEAVES}\")"
        anchor = self._anchor(resolved, subpath) if subpath else ""
        return f"[{_escape(label)}]({self.relative(page, site)}{anchor})"

    def _own_anchor(self, match: re.Match[str], source: str, page: str) -> str:
        """``[text](#Heading)``: a link to a heading or block of the note it is written in, as Obsidian reads
        it (the heading's text), or to a heading holding an HTML anchor of that name. One that finds nothing
        stays as written (the build reports it); so does one written anywhere but in a note."""
        decoded = decode_uri(match.group(3).strip("<>"))
        note = self.corpus.notes.get(source)
        if decoded is None or note is None or _find(note, decoded) is None:
            return match.group(0)
        site = self.pages.get(source)
        if site is None:
            return f"[{_escape(match.group(2))}]({self.obsidian_url(source)} \"{LEAVES}\")"
        return f"[{match.group(2)}]({self.relative(page, site)}{self._anchor(source, decoded)})"

    def _anchor(self, path: str, subpath: str) -> str:
        """The page anchor for a ``#Heading`` or ``#^block`` subpath of a note, or "" when it has none."""
        note = self.corpus.notes.get(path)
        if note is None:
            return ""
        found = _find(note, subpath)
        if isinstance(found, Block):
            # A heading keeps its own id on the page (links to its text need it): its block id leads there.
            found = next((h for h in note.headings if h.line == found.line), found)
        if isinstance(found, Block) and self.has_block_anchor(path, found.id):
            return "#" + block_anchor(found.id)
        if isinstance(found, Heading) and (anchor := heading_anchor(found.text)):
            return "#" + anchor
        return ""

    def has_block_anchor(self, path: str, block_id: str) -> bool:
        """Inline block ids become anchors; a standalone ``^id`` under a table cannot carry one."""
        return block_id in self.inline_blocks.get(path, set())

    def tag_link(self, tag: str) -> str:
        """A ``#tag`` as a link to Obsidian's search for it, as clicking a tag in Obsidian does."""
        return _tag_link(self.vault_name, tag)

    @staticmethod
    def relative(page: str, target: str) -> str:
        """The link from one site page to another. Both are clean relative paths (walker made them), so
        this is a walk up and down their folders; posixpath.relpath's absolute paths took 1 s a big build.
        MkDocs writes a folder's ``README.md`` as its ``index.html``: a link to the HTML page says so."""
        return _relative(page[: page.rfind("/") + 1], target)  # the same from every page of a folder


@lru_cache(maxsize=1 << 12)  # a vault has few tags, each on many pages
def _tag_link(vault_name: str, tag: str) -> str:
    query = quote(f"tag:{tag}", safe="")
    label = _escape(tag).replace("_", "\\_")  # a_b_c must not read as emphasis
    return f"[{label}](obsidian://search?vault={quote(vault_name, safe='')}&query={query} \"{TAG_SEARCH}\"){{: .tag }}"


@lru_cache(maxsize=1 << 16)
def _relative(folder: str, target: str) -> str:
    """``SiteLinks.relative`` from a page in ``folder`` (its path up to and with its last "/")."""
    if target.rsplit("/", 1)[-1] == "README.html":
        target = target[: -len("README.html")] + "index.html"
    start, to = folder.split("/")[:-1], target.split("/")
    common = 0
    while common < min(len(start), len(to) - 1) and start[common] == to[common]:
        common += 1
    return quote("/".join([".."] * (len(start) - common) + to[common:]))


def _find(note: ParsedNote, subpath: str) -> Heading | Block | None:
    """What a subpath names in a note: Obsidian's match (a heading's text, a block id), else a heading that
    holds an HTML anchor of that name (``## Setup <a name="setup"></a>``, which a browser scrolls to in
    Obsidian's reading view) or that the site's page gives that id."""
    found = find_subpath(note, subpath)
    if found is not None:
        return found
    name = subpath.lstrip("#")
    if not name or name.startswith("^"):
        return None
    named = re.compile(r"<a\b[^>]*\b(?:name|id)\s*=\s*[\"']?" + re.escape(name) + r"[\"'\s/>]")
    return next((h for h in note.headings if "<" in h.text and named.search(h.text)), None) or \
        next((h for h in note.headings if heading_anchor(h.text) == name), None)


def _label(inner: str) -> str:
    target, _, alias = inner.replace("\\|", "|").partition("|")
    if alias.strip():
        return alias.strip()
    parts = [p for p in target.split("#") if p]
    name = parts[0].rsplit("/", 1)[-1] if parts and not target.startswith("#") else ""
    rest = [shown for p in (parts[1:] if name else parts) if (shown := heading_label(p).lstrip("^"))]
    return " › ".join([name, *rest] if name else rest) or target


def picture_size(alias: str) -> tuple[str, str]:
    """An embedded picture's alias split into its alt text and the attribute list of its size: Obsidian
    reads ``300`` or ``300x200`` after the last ``|`` (``![[a.png|alt|300]]``, ``![alt|300](a.png)``)."""
    alt, _, last = alias.rpartition("|")
    size = PICTURE_SIZE.fullmatch(last)
    if not size:
        return alias.strip(), ""
    height = f' height="{size.group(2)}"' if size.group(2) else ""
    return alt.strip(), f'{{: width="{size.group(1)}"{height} }}'


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


def _outside_code(markdown: str, rewrite: Callable[[str], str], mark: str = "") -> str:
    """Apply ``rewrite`` to every line outside code (fenced, indented, HTML blocks, math) and outside inline
    code spans. ``mark``: what a text must hold for ``rewrite`` to change it (a line without it is kept as it
    is, and a text without it is returned as it is)."""
    if mark and mark not in markdown:
        return markdown
    out = []
    linkless = _linkless_lines(markdown)
    for number, (line, code) in enumerate(regions(markdown)):
        if code or number in linkless or mark and mark not in line:
            out.append(line)
            continue
        if "`" not in line and "[[" not in line:  # no code span and no wikilink: the line is one text
            out.append(rewrite(line))
            continue
        # A wikilink may hold code in its label ([[Note#`id`|the `id` rules]]): it is taken whole first.
        parts = _CODE_OR_WIKILINK.split(line)
        out.append("".join(p if p.startswith("`") else rewrite(p) for p in parts))
    return "\n".join(out)
