"""The words a ref opens: the passage a record cites, as the critic reads it and `walker check` digests it."""

from __future__ import annotations

from walker.corpus.model import Corpus
from walker.corpus.resolve import span
from walker.refs import Ref
from walker.similarity import TextIndex


def ref_text(corpus: Corpus, index: TextIndex, ref: str) -> str | None:
    """The note's title, the heading the ref opens (if any) and the paragraphs inside it; None when the
    ref does not resolve inside the vault."""
    parsed = Ref.parse(ref)
    note = corpus.notes.get(parsed.path)
    lines = span(parsed, note) if note is not None else None
    if note is None or lines is None:
        return None
    first, last = lines
    paragraphs = index.paragraphs.get(parsed.path, [])
    heading = next((h.text for h in note.headings if h.line == first), "")
    return " ".join([note.title, heading, *(p.text for p in paragraphs if first <= p.line <= last)])
