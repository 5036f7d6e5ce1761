"""What the vault says about a pair of passages: the few measured signals one score is built from.

Every signal is a number a reader could check by hand:

- ``specific``: how specific the words both passages share are, weighed twice: against the whole
  vault (idf) and against the notes of each note's own genre (its folder, or the daily notes). What
  every paper summary or every newsletter issue says ("the authors introduce", "a bunch of fixes")
  is common in its genre, however rare in the vault: it counts for almost nothing.
- ``salience``: how central a shared word is to one of the notes (its TF-IDF weight over the note's
  strongest word's, the larger of the two): one note is about the subject the other passage speaks of
  ("X uses the method Y describes"), not a word each happens to use.
- ``context``: how close the two passages are in meaning once the shared words are left out
  (latent semantic axes): a word in two senses sits among different words in each.
- ``topic``: the same for the two whole notes.
- ``phrase``: the passages share a phrase of two words or more, side by side in both.
- ``joined``: the vault already joins the notes: a note both link to, or a chain of two links.
- ``side_by_side``: a third note lists both, their links within two lines of each other (an index note's
  items 18 and 19, two links in one line): co-citation at its closest, the vault's own statement that the two
  go together.
- ``mentioned``: one note names the other (its title, in prose) without linking it: Obsidian's "unlinked
  mention", a link its author has not made yet.
- ``apart``: how far apart the notes' top-level folders are in meaning (1 - domain closeness).
- ``question``: one passage asks what the other may answer.
- ``coherence``: how much the notes that use the shared words are about one thing (the length of the
  mean of their unit vectors on the latent axes, averaged over the words): a term of art gathers notes
  on one subject; "handle", "record" or "partition" are spread over unrelated ones.
- ``everyday``: how common in everyday language the rarest word both passages share is (wordfreq's Zipf scale, in
  that word's own language: 3 is once in a million words, 0 a word no list holds). Two passages that share only
  everyday words ("data", "remote server", 可能, 材料) seldom share a subject; a term of art is rare in speech
  however often one vault uses it.
- ``meaning``: how close the two passages are in meaning as a sentence-embedding model reads them
  (``walker.meaning``), or None where that model is not installed.

``walker.walk.scorer`` turns them into one probability that a reader finds the pair useful.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from walker.corpus.model import Corpus
from walker.corpus.text import Paragraph
from walker.daily import is_daily
from walker.graph import Adjacency
from walker.similarity import TextIndex
from walker.words import has_cjk, stem, zipf

EVERYDAY_UNMEASURED = 4.0  # the Zipf value evidence without ``everyday`` reads: about the development pairs' mean
MIN_GENRE = 10  # a genre's document frequencies mean something once it holds this many notes
SIDE_BY_SIDE = 2  # lines apart, at most, of two links a note lists together (one list item after the other)


@dataclass(frozen=True)
class Evidence:
    specific: float
    salience: float
    context: float
    topic: float
    phrase: float
    joined: float
    apart: float
    question: float
    coherence: float
    side_by_side: float = 0.0  # (records written before these two were measured read 0)
    mentioned: float = 0.0
    everyday: float = EVERYDAY_UNMEASURED
    meaning: float | None = None

    def as_dict(self) -> dict[str, float]:
        return {name: round(value, 4) for name, value in asdict(self).items() if value is not None}

    @classmethod
    def of(cls, found: dict[str, Any]) -> Evidence:
        """The evidence as ``as_dict`` wrote it (a signal missing from it reads 0, ``everyday`` its default, an
        unmeasured meaning None)."""
        meaning = found.get("meaning")
        return cls(**{name: float(found.get(name) or 0.0) for name in SIGNALS if name not in ("meaning", "everyday")},
                   everyday=float(found.get("everyday", EVERYDAY_UNMEASURED)),
                   meaning=None if meaning is None else float(meaning))


SIGNALS = tuple(Evidence.__dataclass_fields__)


class Genres:
    """Each note's genre (its folder, or the daily notes wherever they sit) and how specific a word is in it."""

    def __init__(self, corpus: Corpus, index: TextIndex) -> None:
        self._index = index
        self._of: dict[str, str] = {}
        members: dict[str, list[int]] = {}
        for row, path in enumerate(index.paths):
            note = corpus.notes.get(path)
            key = "daily notes" if note is not None and is_daily(note.title) else path.rpartition("/")[0]
            self._of[path] = key
            members.setdefault(key, []).append(row)
        self._members = members
        self._frequency: dict[str, np.ndarray] = {}

    def genre(self, path: str) -> str | None:
        """The note's genre, or None when it has too few notes for its words' frequencies to mean anything."""
        key = self._of.get(path)
        return key if key is not None and len(self._members[key]) >= MIN_GENRE else None

    def specificity(self, path: str, column: int) -> float:
        """How few notes of this note's genre use the word: 1 for this note alone, near 0 for all of them."""
        key = self.genre(path)
        if key is None:
            return 1.0
        if key not in self._frequency:
            self._frequency[key] = self._index.notes[self._members[key]].getnnz(axis=0)
        size = len(self._members[key])
        used = int(self._frequency[key][column])
        return max(0.0, math.log((size + 1) / (used + 1)) / math.log(size + 1)) if used > 1 else 1.0


class Lexicon:
    """The index's words by form and by stem, and where the vault uses them; read once per walk."""

    def __init__(self, index: TextIndex) -> None:
        self._index = index
        self.column = {str(term): i for i, term in enumerate(index.terms)}
        self.by_stem: dict[str, list[int]] = {}
        for i, term in enumerate(index.terms):
            self.by_stem.setdefault(stem(str(term)), []).append(i)
        self._users = index.notes.tocsc()
        projected = np.asarray(index.notes @ index.concepts) if index.concepts.shape[1] else np.zeros((len(index.paths), 0))
        norms = np.linalg.norm(projected, axis=1, keepdims=True)
        self._unit = np.divide(projected, norms, out=np.zeros_like(projected), where=norms > 0)
        self._coherence: dict[str, float] = {}

    def coherence(self, word_stem: str) -> float:
        """The length of the mean unit vector of the notes that use the word: 1 when they all point one way."""
        if word_stem not in self._coherence:
            columns = self.by_stem.get(word_stem, [])
            rows = np.unique(self._users[:, columns].indices) if columns else np.array([], dtype=int)
            self._coherence[word_stem] = float(np.linalg.norm(self._unit[rows].mean(axis=0))) if len(rows) else 0.0
        return self._coherence[word_stem]


def side_by_side(corpus: Corpus, links: Adjacency, a: str, b: str) -> bool:
    """Whether a third note links both within ``SIDE_BY_SIDE`` lines of each other."""
    for other in (links.get(a, set()) & links.get(b, set())) - {a, b}:
        note = corpus.notes.get(other)
        if note is None:
            continue
        lines: dict[str, list[int]] = {a: [], b: []}
        for raw, (target, _) in zip(note.links, corpus.resolutions.get(other, ())):
            if target in lines:
                lines[target].append(raw.line)
        if any(abs(x - y) <= SIDE_BY_SIDE for x in lines[a] for y in lines[b]):
            return True
    return False


class Mentions:
    """Where a note names another in its prose: the other's title as a whole word (two characters of Chinese or
    Japanese, four letters otherwise, at least), in any case."""

    def __init__(self, corpus: Corpus, paragraphs: Mapping[str, list[Paragraph]]) -> None:
        self._corpus = corpus
        self._paragraphs = paragraphs
        self._text: dict[str, str] = {}

    def names(self, path: str, other: str) -> bool:
        note = self._corpus.notes.get(other)
        title = note.title.lower() if note is not None else ""
        if len(title) < (2 if has_cjk(title) else 4):
            return False
        if path not in self._text:
            self._text[path] = "\n".join(p.text for p in self._paragraphs.get(path, ())).lower()
        text = self._text[path]
        if has_cjk(title):
            return title in text
        return title in text and re.search(rf"(?<!\w){re.escape(title)}(?!\w)", text) is not None

    def either(self, a: str, b: str) -> bool:
        return self.names(a, b) or self.names(b, a)


def everyday(shared: Iterable[str], latin: str = "en") -> float:
    """The Zipf value of the rarest of the shared words (or phrases), each in its own language (``latin``: the
    passages' language, for words of the Latin alphabet)."""
    return min((zipf(word, latin) for word in shared), default=0.0)


def salience(index: TextIndex, lexicon: Lexicon, path: str, stems: Iterable[str]) -> float:
    """How central the shared words are to the note: the weight of the strongest of them in the note's TF-IDF
    vector, over the weight of the note's own strongest word (1: a shared word is what the note is most about)."""
    columns = [c for s in stems for c in lexicon.by_stem.get(s, ())]
    row = index.row.get(path)
    if row is None or not columns:
        return 0.0
    vector = index.notes[row]
    top = float(vector.max()) if vector.nnz else 0.0
    return float(vector[0, columns].toarray().max()) / top if top else 0.0

