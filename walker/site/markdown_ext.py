"""The site's one sanitiser boundary, and the Python-Markdown extension that applies it.

Every page's text, from notes and from walker's own text alike, is untrusted. Raw HTML is shown as
text, never parsed. Everything that writes an id, a class or an attribute goes through one rule,
``allowed_attribute``, at two points of every render:

- a tree pass right after ``attr_list`` and before ``toc``: a heading keeps at most a safe id (slug
  characters only), so the table of contents, which MkDocs' theme prints unescaped, only ever sees
  safe ids; every other element keeps only allowlisted attributes, ids and classes of slug characters;
- nh3 on the HTML Markdown produced, with the same rule as its attribute filter, against an allowlist
  of tags and URL schemes: no ``<script>``, no ``on…`` handler, no ``javascript:`` link.

What the theme prints outside the page's HTML goes through the same rule in the plugin
(``safe_toc``, ``safe_meta``). Before the first block is parsed, ``walker.site.bounds`` flattens what
Python-Markdown would take quadratic time or unbounded recursion on, and a long block is cut where it
parts anyway. Written as a Markdown extension, not an MkDocs hook, so it runs under any Python-Markdown
site generator.

Two tree passes there serve a screen reader and the Tab key: a task's checkbox is named by its task,
and a page's title gets no permalink.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any
from xml.etree.ElementTree import Element

import nh3
from markdown import Extension, Markdown, util
from markdown.blockprocessors import BlockProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from walker.site.bounds import BLOCK_LINES, flatten, flattened_notice, split_long_block

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "ol", "p", "pre",
    "s", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
ATTRIBUTES = {
    "*": {"class", "id", "title"},
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "input": {"type", "name", "id", "checked", "disabled", "aria-label"},
    "label": {"for"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto", "obsidian"}
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

SAFE_ID = re.compile(r"[A-Za-z0-9_-]+")  # slug characters: nothing any HTML, CSS or URL context reads
_NAMES_AN_ID = frozenset({"id", "for", "name"})


def safe_id(value: str) -> str | None:
    """``value`` when it is made of slug characters only, else None."""
    return value if SAFE_ID.fullmatch(value) else None


def safe_classes(value: str) -> str | None:
    """The class names of ``value`` made of slug characters; None when none is."""
    kept = [name for name in value.split() if SAFE_ID.fullmatch(name)]
    return " ".join(kept) or None


def allowed_attribute(tag: str, name: str, value: str) -> str | None:
    """The one rule for an attribute that reaches the site's HTML: its value as it may stay, or None to
    drop it. Names outside the allowlist go; ids and classes keep slug characters only; other values are
    escaped by the serialiser and URLs checked against URL_SCHEMES by nh3."""
    if name not in ATTRIBUTES["*"] and name not in ATTRIBUTES.get(tag, ()):
        return None
    if name in _NAMES_AN_ID:
        return safe_id(value)
    if name == "class":
        return safe_classes(value)
    return value


_MARKUP = re.compile(r"[<>&\r\x00\xa0\ufeff]")  # what the HTML parser would read as more than plain text


def sanitize(html: str) -> str:
    if not _MARKUP.search(html):  # a heading's text, as the table of contents asks: nothing to clean
        return html
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, attribute_filter=allowed_attribute,
                     url_schemes=URL_SCHEMES, link_rel=None, strip_comments=True)


def plain_text(html: str) -> str:
    """HTML reduced to its text, escaped: for places the theme prints as HTML (a TOC entry's title)."""
    return nh3.clean(html, tags=set(), attributes={}, strip_comments=True) if _MARKUP.search(html) else html


def safe_toc(items: Any) -> None:
    """Make a page's table of contents safe in place: the theme prints each entry's id (in an href) and
    title unescaped. An entry whose id is not safe loses its link target; an empty heading's entry (a link
    with no words, which a screen reader reads as nothing) gives its place to the headings under it."""
    for item in items:
        item.id = safe_id(item.id) or ""
        item.title = plain_text(item.title)
        safe_toc(item.children)
    at = 0
    while at < len(items):
        if items[at].title.strip():
            at += 1
        else:
            items[at:at + 1] = items[at].children


def safe_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The page metadata the theme may see. A page's front matter (a walk report's, hand-editable) is
    printed raw by the theme (``description``, ``author``…) or picks a template (``template``), so only
    a title (made inert by the plugin) and the search exclusion walker writes stay."""
    kept: dict[str, Any] = {}
    if meta.get("title") is not None:
        kept["title"] = str(meta["title"])
    search = meta.get("search")
    if isinstance(search, dict) and search.get("exclude") is True:
        kept["search"] = {"exclude": True}
    return kept


class AttributeTreeprocessor(Treeprocessor):
    """``allowed_attribute`` on the tree, before the table of contents reads it: a heading keeps at most
    a safe id (its attribute list may only name an anchor), other elements what the rule allows."""

    def run(self, root: Element) -> None:
        for element in root.iter():
            if not element.attrib or not isinstance(element.tag, str):
                continue
            heading = element.tag in HEADINGS
            for name, value in list(element.attrib.items()):
                kept = (safe_id(value) if name == "id" else None) if heading else \
                    allowed_attribute(element.tag, name, value)
                if kept is None:
                    del element.attrib[name]
                else:
                    element.attrib[name] = kept


class TaskLabelTreeprocessor(Treeprocessor):
    """A task's checkbox named by the task's words (``aria-label``): the tasklist extension draws it
    with an empty label, which a screen reader reads as an unnamed checkbox. The checkbox is raw HTML in
    the stash by now; it is named there, and the sanitiser escapes the name like any attribute."""

    def run(self, root: Element) -> None:
        for item in root.iter("li"):
            if "task-list-item" not in item.get("class", "").split():
                continue
            holder = item if (item.text or "").strip() else next(iter(item), None)  # a loose list's item: its paragraph
            found = util.HTML_PLACEHOLDER_RE.match(holder.text or "") if holder is not None else None
            if holder is None or found is None:
                continue
            words = " ".join(util.HTML_PLACEHOLDER_RE.sub(" ", _task_words(holder)).split())
            stash = self.md.htmlStash.rawHtmlBlocks
            index = int(found.group(1))
            name = html.escape(words[:120] or "task", quote=True)
            stash[index] = str(stash[index]).replace("<input ", f'<input aria-label="{name}" ', 1)


def _task_words(element: Element) -> str:
    """An element's words without those of the lists nested in it (the subtasks name their own boxes)."""
    words = [element.text or ""]
    for child in element:
        if child.tag not in ("ul", "ol"):
            words.append(_task_words(child))
        words.append(child.tail or "")
    return " ".join(words)


class HeadingLinkTreeprocessor(Treeprocessor):
    """No permalink on a page's title: it links to the top of the page, and was one more stop for the Tab
    key on every page before the first thing to read."""

    def run(self, root: Element) -> None:
        for heading in root.iter("h1"):
            for link in [c for c in heading if c.tag == "a" and "headerlink" in c.get("class", "").split()]:
                heading.remove(link)


class FlattenPreprocessor(Preprocessor):
    """Nesting Python-Markdown would render in quadratic time or recurse on, flattened past a depth (the
    page says so). Runs after fenced code is set aside, so code is shown as written."""

    def run(self, lines: list[str]) -> list[str]:
        text, flattened = flatten("\n".join(lines))
        lines = text.split("\n")
        if flattened:
            at = 1 if lines and lines[0].startswith("# ") else 0
            lines[at:at] = ["", *flattened_notice(flattened), ""]
        return lines


class LongBlockProcessor(BlockProcessor):
    """A long block cut into the blocks it holds before any other processor reads it (``split_long_block``):
    each of them took the first heading or rule of the block and tested all the rest again."""

    def test(self, parent: Element, block: str) -> bool:
        return block.count("\n") >= BLOCK_LINES

    def run(self, parent: Element, blocks: list[str]) -> bool:
        pieces = split_long_block(blocks[0])
        if len(pieces) == 1:
            return False  # nowhere to cut: the other processors take it as it is
        blocks[0:1] = pieces
        return True


class SanitizePostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return sanitize(text)


class SafeHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        if "html_block" in md.preprocessors:
            md.preprocessors.deregister("html_block")
        if "html" in md.inlinePatterns:
            md.inlinePatterns.deregister("html")
        # Priority 20: after superfences set fenced code aside (25), before any block is parsed.
        md.preprocessors.register(FlattenPreprocessor(md), "walker_flatten", 20)
        # Priority 200: before admonition and details (105), the first to see a block.
        md.parser.blockprocessors.register(LongBlockProcessor(md.parser), "walker_long_block", 200)
        # Priority 7: after attr_list (8) wrote what a note asked for, before toc (5) reads the headings.
        md.treeprocessors.register(AttributeTreeprocessor(md), "walker_attributes", 7)
        # Priority 6: after tasklist (25) drew the checkboxes and the inline patterns (20) the words.
        md.treeprocessors.register(TaskLabelTreeprocessor(md), "walker_task_labels", 6)
        # Priority 4: after toc (5) gave every heading its permalink.
        md.treeprocessors.register(HeadingLinkTreeprocessor(md), "walker_heading_links", 4)
        # Priority 0: after raw_html (30) and everything else that writes HTML.
        md.postprocessors.register(SanitizePostprocessor(md), "walker_sanitize", 0)


def makeExtension(**kwargs: Any) -> SafeHtmlExtension:  # noqa: N802 (the name Python-Markdown looks for)
    return SafeHtmlExtension(**kwargs)
