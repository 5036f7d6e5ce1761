"""Text from notes and hand-edited records, made safe for where it lands on a site page."""

from __future__ import annotations

import html
import re

STATUS_TITLES = {
    "active": "Active", "muted": "Muted", "discharged": "Discharged", "rejected": "Rejected",
    "archived": "Archived", "superseded": "Superseded", "rejected-but-noteworthy": "Noteworthy",
}


def inert(title: str) -> str:
    """A title as plain characters that no HTML context reads as markup (the theme prints titles
    escaped in some places and raw in others, so escaping once would show ``&lt;`` in the rest)."""
    return title.translate(_LOOKALIKES)


_LOOKALIKES = str.maketrans({"<": "‹", ">": "›", '"': "”", "`": "ˋ"})


def as_text(value: str) -> str:
    """Untrusted text as inert Markdown: HTML escaped, link and emphasis syntax neutralised."""
    escaped = html.escape(value, quote=False)
    return re.sub(r"([\\`*_\[\]<>|{}])", r"\\\1", escaped)


def as_code(value: str) -> str:
    """Untrusted text as a code span: Markdown escapes its content once, so "&" shows as "&"."""
    return f"`` {value.replace('`', 'ˋ').replace(chr(10), ' ')} ``"


def keep_markup(value: str) -> str:
    return html.escape(value, quote=False)


def as_cell(value: str) -> str:
    return as_text(value).replace("\n", " ")


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
