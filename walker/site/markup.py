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


LABEL_LIMIT = 30  # a note's title in a heading or a queue row: two of them fit about three lines of a phone
_CUT_AT = " ,;:–—-(/"  # what a cut label does not end (or, cut from the end, begin) with


def label(title: str, limit: int = LABEL_LIMIT) -> str:
    """A note's title cut to a short label at a word boundary (``…`` says it was cut); short titles stay."""
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    cut = title[:limit]
    at = cut.rfind(" ")
    return (cut[:at] if at >= limit // 2 else cut[:limit - 1]).rstrip(_CUT_AT) + "…"


def _tail(title: str, limit: int = LABEL_LIMIT) -> str:
    """The end of a title as a label: what tells it from another title that starts the same."""
    cut = title[-limit:]
    at = cut.find(" ")
    return "…" + (cut[at + 1:] if 0 <= at < limit // 2 else cut[1:]).lstrip(_CUT_AT)


def note_labels(title: str) -> list[tuple[str, str]]:
    """The notes a record's title names ("A ↔ B", as walks write it): each full title and its short label.
    Two labels that would read the same keep the end of their titles instead."""
    names = [" ".join(n.split()) for n in title.split(" ↔ ")]
    labels = [label(name) for name in names]
    if len(set(labels)) < len(set(names)):
        labels = [short if short == name else _tail(name) for name, short in zip(names, labels)]
    return list(zip(names, labels))


def short_title(title: str) -> str:
    """A record's title with each long note name cut to its label: "A ↔ B" fits a line of the queue."""
    if " ↔ " not in title:
        return label(title, 2 * LABEL_LIMIT)
    return " ↔ ".join(short for _, short in note_labels(title))
