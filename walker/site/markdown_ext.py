"""Python-Markdown extension that makes note text inert: no raw HTML, then an nh3 allowlist.

Note text is untrusted. Raw HTML in a note is shown as text, never parsed; the
HTML that Markdown produces is cleaned by nh3 against an allowlist of tags,
attributes and URL schemes, so `<script>`, `on…` handlers (including those an
`attr_list` `{: onclick=…}` would add) and `javascript:` links never reach a
page. Written as a Markdown extension, not an MkDocs hook, so it runs under any
Python-Markdown site generator.
"""

from __future__ import annotations

import re
from typing import Any

import nh3
from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "ol", "p", "pre",
    "s", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
ATTRIBUTES = {
    "*": {"class", "id", "title"},
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "input": {"type", "name", "id", "checked", "disabled"},
    "label": {"for"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto", "obsidian"}


_MARKUP = re.compile(r"[<>&\r\x00\xa0\ufeff]")  # what the HTML parser would read as more than plain text


def sanitize(html: str) -> str:
    if not _MARKUP.search(html):  # a heading's text, as the table of contents asks: nothing to clean
        return html
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, link_rel=None,
                     strip_comments=True)


class SanitizePostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return sanitize(text)


class SafeHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        if "html_block" in md.preprocessors:
            md.preprocessors.deregister("html_block")
        if "html" in md.inlinePatterns:
            md.inlinePatterns.deregister("html")
        # Priority 0: after raw_html (30) and everything else that writes HTML.
        md.postprocessors.register(SanitizePostprocessor(md), "walker_sanitize", 0)


def makeExtension(**kwargs: Any) -> SafeHtmlExtension:  # noqa: N802 (the name Python-Markdown looks for)
    return SafeHtmlExtension(**kwargs)
