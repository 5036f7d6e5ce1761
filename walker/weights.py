"""TF-IDF weights for notes and sections from texts tokenised once (each paragraph counted one time)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse

from walker.words import words


class Pieces:
    """Texts tokenised once each, then summed into note rows and section rows. TfidfVectorizer would read
    every paragraph twice (once in its note, once in its section); the weights come out the same."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.notes: list[tuple[int, int]] = []  # (note row, piece)
        self.sections: list[tuple[int, int]] = []  # (section row, piece)

    def add(self, text: str, note: int | None = None, section: int | None = None) -> None:
        if note is not None:
            self.notes.append((note, len(self.texts)))
        if section is not None:
            self.sections.append((section, len(self.texts)))
        self.texts.append(text)

    def weigh(self, note_count: int, section_count: int, max_df: float) -> tuple[Any, Any, np.ndarray, np.ndarray]:
        from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

        counter = CountVectorizer(tokenizer=words, token_pattern=None, lowercase=False, stop_words="english",
                                  dtype=np.float32)
        counts = counter.fit_transform(self.texts).tocsr()
        note_counts = (self._sum(self.notes, note_count) @ counts).tocsr()
        section_counts = (self._sum(self.sections, section_count) @ counts).tocsr()
        document_frequency = np.bincount(note_counts.indices, minlength=counts.shape[1])
        keep = np.flatnonzero((document_frequency > 0) & (document_frequency <= max_df * note_count))
        if not len(keep):
            raise ValueError("no terms remain")
        weigh = TfidfTransformer(sublinear_tf=True).fit(note_counts[:, keep])
        notes = weigh.transform(note_counts[:, keep]).astype(np.float32).tocsr()
        sections = weigh.transform(section_counts[:, keep]).astype(np.float32).tocsr()
        return notes, sections, counter.get_feature_names_out()[keep], weigh.idf_.astype(np.float32)

    def _sum(self, pairs: list[tuple[int, int]], rows: int) -> Any:
        """A 0/1 matrix that adds up each row's pieces."""
        data = np.ones(len(pairs), dtype=np.float32)
        return sparse.csr_matrix((data, ([r for r, _ in pairs], [p for _, p in pairs])), shape=(rows, len(self.texts)))
