"""TF-IDF over notes and sections (scikit-learn), cached against the corpus fingerprint.

Rows are L2-normalised, so one sparse product gives a seed's cosine similarity
to every note. Titles count three times: a note's name is its author's own
summary of it. Inline tags read as words; markup, code and embeds are gone
(corpus/text.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from scipy import sparse

from walker.corpus.cache import source_digest
from walker.corpus.load import note_paragraphs
from walker.corpus.model import Corpus
from walker.corpus.text import Paragraph, read_paragraphs, sentences, strip_tags
from walker.safefile import MB, read_bytes
from walker.safewrite import write_atomic
from walker.vocabulary import INDEX_VERSION, cache_name, save_vocabulary
from walker.weights import Pieces
from walker.words import PLAIN_WORDS, has_cjk, is_grammar, is_short, stem, words

TITLE_WEIGHT = 3
CONCEPT_AXES = 100
MAX_PROSE = 10  # sentences counted per note (TextIndex.prose): past this, a note has plenty to say
# Everyday words that are rare in a small vault only by chance: never a thread between two notes.


class Paragraphs(Mapping[str, list[Paragraph]]):
    """Each note's paragraphs, read from the vault the first time they are asked for.

    Never cached with the index: a warm walk reads the few notes it quotes, not the whole vault.
    """

    def __init__(self, corpus: Corpus, known: dict[str, list[Paragraph]] | None = None) -> None:
        self._corpus = corpus
        self._known = dict(known or {})

    def __getitem__(self, path: str) -> list[Paragraph]:
        if path not in self._known:
            self._known[path] = read_paragraphs(self._corpus.root, self._corpus.notes[path])
        return self._known[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._corpus.notes)

    def __len__(self) -> int:
        return len(self._corpus.notes)


class SectionKey(NamedTuple):
    path: str
    section: int  # index into ParsedNote.sections


@dataclass
class TextIndex:
    """Note and section vectors over one vocabulary."""

    paths: list[str]
    row: dict[str, int]
    notes: sparse.csr_matrix
    sections: sparse.csr_matrix
    section_note: np.ndarray  # per section row: the row of its note in ``paths``
    section_number: np.ndarray  # per section row: its index in the note's sections
    section_rows: dict[str, tuple[int, int]]  # a note's sections are contiguous rows
    terms: np.ndarray
    idf: np.ndarray
    rare: np.ndarray  # bool per term: used by at most max(3, √notes) notes
    concepts: np.ndarray  # terms × k: latent semantic axes (truncated SVD of the note matrix)
    copied: frozenset[str] = frozenset()  # paragraphs (as paragraph_key gives them) in more than one note
    prose: Mapping[str, int] = field(default_factory=dict)  # per note: sentences of prose in its own paragraphs
    paragraphs: Mapping[str, list[Paragraph]] = field(default_factory=dict)

    def transform(self, texts: list[str]) -> sparse.csr_matrix:
        """New text (a claim, a seed in the user's words) as vectors in the same space as the notes."""
        if len(self.terms) == 0:
            return sparse.csr_matrix((len(texts), 0), dtype=np.float32)
        vectorizer = self.__dict__.get("_vectorizer")
        if vectorizer is None:
            # Rebuilt from the stored vocabulary and weights, so loading an index never imports scikit-learn.
            vectorizer = _vectorizer(vocabulary={str(t): i for i, t in enumerate(self.terms)})
            vectorizer.idf_ = self.idf
            self.__dict__["_vectorizer"] = vectorizer
        return vectorizer.transform(texts).tocsr()

    def vocabulary(self) -> frozenset[str]:
        """Every word the index knows (stop words and single-use words are not in it)."""
        known = self.__dict__.get("_vocabulary")
        if known is None:
            known = self.__dict__["_vocabulary"] = frozenset(str(t) for t in self.terms)
        return known

    def closeness(self, a: str, b: str, leave_out: frozenset[str] = frozenset()) -> float:
        """How near two passages are in meaning, measured by which words the vault uses together.

        Words in ``leave_out`` (stems) are dropped first, so the shared words of a bridge cannot
        vouch for themselves: what is left says whether the two passages are about one thing.
        """
        return self._closeness(self.transform([a, b]), leave_out)

    def note_closeness(self, a: str, b: str, leave_out: frozenset[str] = frozenset()) -> float:
        """How near two notes are in meaning: about 0.5 and above, they are about one subject."""
        return self._closeness(self.notes[[self.row[a], self.row[b]]].copy(), leave_out)

    def _closeness(self, vectors: sparse.csr_matrix, leave_out: frozenset[str]) -> float:
        if self.concepts.shape[1] == 0:
            return 0.0
        if leave_out:
            vectors.data[[stem(str(self.terms[i])) in leave_out for i in vectors.indices]] = 0
        projected = vectors @ self.concepts
        norms = np.linalg.norm(projected, axis=1)
        if norms[0] == 0 or norms[1] == 0:
            return 0.0
        return float(projected[0] @ projected[1] / (norms[0] * norms[1]))

    def domain_closeness(self, a: str, b: str) -> float:
        """How near the subjects of two notes' top-level folders are: below about 0.3, two domains.

        A note at the vault's top level is its own domain.
        """
        return float(self._domain(a) @ self._domain(b))

    def _domain(self, path: str) -> np.ndarray:
        domains = self.__dict__.get("_domains")
        if domains is None:
            projected = self._projected()
            folders: dict[str, list[int]] = {}
            for row, note in enumerate(self.paths):
                folders.setdefault(_folder(note), []).append(row)
            domains = self.__dict__["_domains"] = {folder: _unit(projected[rows].mean(axis=0))
                                                   for folder, rows in folders.items()}
        nowhere = np.zeros(self.concepts.shape[1], dtype=np.float32)  # a note the index does not hold
        return domains.get(_folder(path), nowhere)

    def word_closeness(self, a: str, b: str) -> float:
        """How much the vault uses two words (stems, all their forms) in the same notes: 1 for one concept."""
        vectors = [self._stem_vector(word) for word in (a, b)]
        return float(vectors[0] @ vectors[1])

    def _stem_vector(self, word: str) -> np.ndarray:
        rows = self.__dict__.get("_stem_rows")
        if rows is None:
            rows = self.__dict__["_stem_rows"] = {}
            for row, term in enumerate(self.terms):
                rows.setdefault(stem(str(term)), []).append(row)
        # Each axis weighted by its singular value (the length of the notes along it), so the vault's main
        # themes decide and the last, noisiest axes barely count: one note more or less moves little.
        weights = self.__dict__.get("_axis_weights")
        if weights is None:
            weights = self.__dict__["_axis_weights"] = np.linalg.norm(self._projected(), axis=0)
        return _unit(self.concepts[rows.get(word, [])].sum(axis=0) * weights)

    def _projected(self) -> np.ndarray:
        """Every note on the latent semantic axes (notes × axes), computed once."""
        projected = self.__dict__.get("_projected_notes")
        if projected is None:
            projected = self.__dict__["_projected_notes"] = np.asarray(self.notes @ self.concepts)
        return projected

    def rare_words(self) -> frozenset[str]:
        """The words few notes use (see ``rare``): the only ones a thread between two notes may run through."""
        known = self.__dict__.get("_rare_words")
        if known is None:
            known = self.__dict__["_rare_words"] = frozenset(str(t) for t in self.terms[self.rare])
        return known

    def weight(self, word: str) -> float:
        """A word's idf: how few notes use it (0 for a word the index does not know)."""
        weights = self.__dict__.get("_weights")
        if weights is None:
            weights = self.__dict__["_weights"] = {str(t): float(w) for t, w in zip(self.terms, self.idf)}
        return weights.get(word, 0.0)

    def similarity(self, path: str) -> np.ndarray:
        """Cosine similarity of one note to every note, in ``paths`` order."""
        vector = self.notes[self.row[path]]
        return np.asarray((self.notes @ vector.T).todense()).ravel()

    def similarity_to_text(self, vector: sparse.csr_matrix) -> np.ndarray:
        return np.asarray((self.notes @ vector.T).todense()).ravel()

    def best_section(self, path: str, query: sparse.csr_matrix) -> int:
        """Index (into the note's sections) of the section closest to ``query``."""
        start, end = self.section_rows.get(path, (0, 0))
        if start == end or query.shape[1] == 0:
            return 0
        scores = np.asarray((self.sections[start:end] @ query.T).todense()).ravel()
        return int(self.section_number[start + int(np.argmax(scores))])

    def section_key(self, row: int) -> SectionKey:
        return SectionKey(self.paths[int(self.section_note[row])], int(self.section_number[row]))

    def shared_rare_terms(self, a: str, b: str, limit: int = 5) -> list[str]:
        """Words both notes use that few other notes do, strongest first."""
        va, vb = self.notes[self.row[a]], self.notes[self.row[b]]
        both = va.multiply(vb).tocoo()
        if both.nnz == 0:
            return []
        rare = self.rare[both.col]
        order = np.argsort(-both.data[rare])
        return [str(self.terms[i]) for i in both.col[rare][order][:limit]]

    def partners(self, paths: list[str], shared: int) -> dict[str, int]:
        """For each note, how many other notes use at least ``shared`` of the rare words it uses: what a walk from it
        has to find. Bounded: a rare word is used by at most max(3, √notes) notes, so each note has few partners."""
        rows = [self.row[p] for p in paths if p in self.row]
        if not rows or not self.rare.any():
            return dict.fromkeys(paths, 0)
        uses = self.__dict__.get("_rare_uses")
        if uses is None:  # notes × rare words, 1 where a note uses one: computed once per index
            uses = self.__dict__["_rare_uses"] = self.notes[:, np.flatnonzero(self.rare)].tocsr()
            uses.data[:] = 1
        counts = (uses[rows] @ uses.T).tocsr()
        counts.data = (counts.data >= shared).astype(np.int32)
        found = np.asarray(counts.sum(axis=1)).ravel() - 1  # every note shares its own words with itself
        by_path = {self.paths[r]: max(0, int(n)) for r, n in zip(rows, found)}
        return {p: by_path.get(p, 0) for p in paths}

    def term_weights(self, path: str) -> dict[str, float]:
        vector = self.notes[self.row[path]].tocoo()
        return {str(self.terms[i]): float(w) for i, w in zip(vector.col, vector.data)}

    def top_terms(self, path: str, limit: int = 8) -> list[str]:
        vector = self.notes[self.row[path]].tocoo()
        order = np.argsort(-vector.data)[:limit]
        return [str(self.terms[i]) for i in vector.col[order]]


def fingerprint(corpus: Corpus) -> str:
    """The index's cache key: its version, the code that builds it, and every note's path, time and size."""
    digest = hashlib.sha1(f"{INDEX_VERSION}|{_INDEX_RULES}".encode())
    for file in corpus.files:
        if file.path in corpus.notes:
            digest.update(f"{file.path}\0{file.mtime_ns}\0{file.size}\n".encode())
    return digest.hexdigest()


# The code that decides what the index holds, words.py (what a word is) among it: a change to any starts a fresh index.
_INDEX_RULES = "|".join([source_digest(Path(__file__).parent, ("similarity.py", "vocabulary.py", "weights.py", "words.py")),
                         source_digest(Path(__file__).parent / "corpus", ("text.py",))])


def load_index(corpus: Corpus, use_cache: bool = True) -> TextIndex:
    """The TF-IDF index of a corpus, from the cache when nothing changed since it was built."""
    key = fingerprint(corpus)
    path = cache_name(corpus.root, "tfidf", "npz") if use_cache else None
    cached = _read_index(path, key, corpus) if path else None
    if cached is not None:
        return cached
    index = build_index(corpus)
    if path:
        try:
            write_atomic(path, _index_bytes(key, index), 0o600)
            save_vocabulary(corpus.root, {str(t): float(w) for t, w in zip(index.terms, index.idf)})
        except OSError as exc:  # a cache that cannot be written only makes the next run slower
            logging.getLogger("walker").warning("walker: the index cache %s was not written (%s)", path, exc)
    return index


# The index on disk: plain NumPy arrays and one JSON document, read with allow_pickle=False, so a cache
# file can hold data only; whoever could write one runs nothing by it.
ARRAYS = ("section_note", "section_number", "section_start", "section_end", "idf", "rare", "concepts")
INDEX_LIMIT = 4096 * MB


def _index_bytes(key: str, index: TextIndex) -> bytes:
    words = {"paths": index.paths, "terms": [str(t) for t in index.terms],
             "copied": sorted(index.copied), "prose": dict(index.prose)}
    rows = [index.section_rows[p] for p in index.paths]
    arrays: dict[str, Any] = {"key": np.array(key), "words": np.frombuffer(json.dumps(words, ensure_ascii=False).encode(), np.uint8),
              "section_note": index.section_note, "section_number": index.section_number,
              "section_start": np.array([r[0] for r in rows], dtype=np.int64),
              "section_end": np.array([r[1] for r in rows], dtype=np.int64),
              "idf": index.idf, "rare": index.rare, "concepts": index.concepts}
    for name in ("notes", "sections"):
        matrix = getattr(index, name)
        arrays |= {f"{name}_data": matrix.data, f"{name}_indices": matrix.indices, f"{name}_indptr": matrix.indptr,
                   f"{name}_shape": np.array(matrix.shape, dtype=np.int64)}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _read_index(path: Path, key: str, corpus: Corpus) -> TextIndex | None:
    """The cached index, or None when the file is missing, stale, damaged or anything but what
    ``_index_bytes`` wrote: a cache file is checked like any input, and never trusted to run."""
    try:
        stored = np.load(io.BytesIO(read_bytes(path, INDEX_LIMIT)), allow_pickle=False)
        if str(stored["key"]) != key:
            return None
        words = json.loads(stored["words"].tobytes())
        paths, terms = _strings(words["paths"]), _strings(words["terms"])
        notes, sections = (_matrix(stored, name) for name in ("notes", "sections"))
        a = {name: stored[name] for name in ARRAYS}
        prose = {str(p): int(n) for p, n in words["prose"].items()}
        if not _consistent(len(paths), len(terms), notes, sections, a):
            return None
    except Exception:  # whatever is wrong with a cache file, it is a miss: the index is rebuilt
        return None
    return TextIndex(
        paths, {p: i for i, p in enumerate(paths)}, notes, sections, a["section_note"], a["section_number"],
        {p: (int(s), int(e)) for p, s, e in zip(paths, a["section_start"], a["section_end"])},
        np.array(terms, dtype=object), a["idf"], a["rare"], a["concepts"],
        frozenset(_strings(words["copied"])), prose, Paragraphs(corpus),
    )


def _consistent(notes_count: int, terms: int, notes: sparse.csr_matrix, sections: sparse.csr_matrix,
                a: dict[str, np.ndarray]) -> bool:
    """Every array has the shape and kind the index's methods index with."""
    rows = sections.shape[0]
    section_note = a["section_note"]
    return (notes.shape == (notes_count, terms) and sections.shape[1] == terms
            and all(a[n].ndim == 1 and a[n].dtype.kind == "i" for n in ARRAYS[:4])
            and len(section_note) == len(a["section_number"]) == rows
            and len(a["section_start"]) == len(a["section_end"]) == notes_count
            and a["idf"].shape == a["rare"].shape == (terms,) and a["rare"].dtype == bool
            and a["concepts"].ndim == 2 and a["concepts"].shape[0] == terms
            and (rows == 0 or 0 <= section_note.min() <= section_note.max() < notes_count))


def _strings(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a list of strings")
    return value


def _matrix(stored: Any, name: str) -> sparse.csr_matrix:
    shape = tuple(int(n) for n in stored[f"{name}_shape"])
    matrix = sparse.csr_matrix((stored[f"{name}_data"], stored[f"{name}_indices"], stored[f"{name}_indptr"]), shape=shape)
    matrix.check_format(full_check=True)  # every index in range: scipy's C code trusts them from here on
    return matrix


def build_index(corpus: Corpus) -> TextIndex:
    paths = list(corpus.notes)
    paragraphs = note_paragraphs(corpus)
    pieces = Pieces()
    section_keys: list[tuple[int, int]] = []
    section_rows: dict[str, tuple[int, int]] = {}
    for row, path in enumerate(paths):
        first_row = len(section_keys)
        note = corpus.notes[path]
        # A note is its title (weighted), tags, headings and body; a section is its heading and body.
        pieces.add(" ".join([" ".join([note.title] * TITLE_WEIGHT), *note.tags, *(h.text for h in note.headings)]),
                   note=row)
        for index, section in enumerate(note.sections):
            body = [p.text for p in paragraphs[path] if section.line <= p.line <= section.end_line]
            pieces.add(strip_tags(section.heading or note.title), section=len(section_keys))
            pieces.add(strip_tags(" ".join(body)), note=row, section=len(section_keys))
            section_keys.append((row, index))
        section_rows[path] = (first_row, len(section_keys))
    try:
        notes, sections, terms, idf = pieces.weigh(len(paths), len(section_keys), 0.5 if len(paths) >= 20 else 1.0)
    except ValueError:  # no words at all: an empty vault, or only stop words
        notes = sparse.csr_matrix((len(paths), 0), dtype=np.float32)
        sections = sparse.csr_matrix((len(section_keys), 0), dtype=np.float32)
        terms, idf = np.array([], dtype=object), np.array([], dtype=np.float32)
    document_frequency = np.bincount(notes.indices, minlength=len(terms))
    plain = np.array([term in PLAIN_WORDS or is_short(term) or (has_cjk(term) and is_grammar(term)) for term in terms],
                     dtype=bool)
    rare = (document_frequency <= max(3, round(len(paths) ** 0.5))) & ~plain
    copied = _copied(paragraphs)
    return TextIndex(
        paths, {p: i for i, p in enumerate(paths)}, notes, sections,
        np.array([n for n, _ in section_keys], dtype=np.int32), np.array([k for _, k in section_keys], dtype=np.int32),
        section_rows, terms, idf, rare, _concepts(notes),
        copied, _prose(paragraphs, copied), Paragraphs(corpus, paragraphs),
    )


def paragraph_key(text: str) -> str:
    """A paragraph's words, to tell the same text in two notes apart from case and spacing."""
    return " ".join(text.lower().split())


def _prose(paragraphs: Mapping[str, list[Paragraph]], copied: frozenset[str]) -> dict[str, int]:
    """How much each note says in its own words: its sentences of six words or more that end as sentences do,
    tasks and copied paragraphs aside, up to MAX_PROSE. A rough count, not ``is_proposition`` on each sentence,
    which took a 10,000-note fit from 4 to 6 s; the draw it weights measured the same with either."""

    def count(found: list[Paragraph]) -> int:
        own = (s for p in found if p.prose and paragraph_key(p.text) not in copied for s in sentences(p.text))
        return sum(1 for _ in islice((s for s in own if s[-1] in ".!" and len(s.split()) >= 6), MAX_PROSE))

    return {path: count(found) for path, found in paragraphs.items()}


def _copied(paragraphs: Mapping[str, list[Paragraph]]) -> frozenset[str]:
    """Paragraphs that stand word for word in more than one note: a template's or a stock text, no note's own.
    Found while the fit has every paragraph at hand; a warm walk reads it with the index."""
    seen: set[str] = set()
    copied: set[str] = set()
    for note in paragraphs.values():
        for key in {paragraph_key(p.text) for p in note}:
            (copied if key in seen else seen).add(key)
    return frozenset(copied)


def _folder(path: str) -> str:
    return path.partition("/")[0] + "/" if "/" in path else path


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def _concepts(notes: sparse.csr_matrix) -> np.ndarray:
    """Latent semantic axes: words the vault's notes use together load on the same axes.

    A quarter as many axes as notes (at most CONCEPT_AXES), so that small vaults still
    generalise instead of reproducing each note.
    """
    count, words = notes.shape
    axes = min(CONCEPT_AXES, count // 4, words - 1)
    if axes < 2:
        return np.zeros((words, 0), dtype=np.float32)
    from sklearn.decomposition import TruncatedSVD

    svd = TruncatedSVD(n_components=axes, n_iter=4, random_state=0).fit(notes)
    return np.ascontiguousarray(svd.components_.T, dtype=np.float32)


def _vectorizer(**options: object) -> Any:
    from sklearn.feature_extraction.text import (
        TfidfVectorizer,  # only when fitting or placing new text
    )

    return TfidfVectorizer(tokenizer=words, token_pattern=None, lowercase=False, stop_words="english", sublinear_tf=True, dtype=np.float32,
                           **options)
