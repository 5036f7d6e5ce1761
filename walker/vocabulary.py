"""A vault's words and their weights, for matching a short text (a chat turn) against the pool fast.

Plain Python, no numpy: a hook imports this on every turn. ``walker.similarity`` builds the
index and writes the vocabulary this module reads.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import re
from pathlib import Path

from walker.config import cache_dir

INDEX_VERSION = 13
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W\d_'-]{2,}\b"  # words of three letters or more, no numbers


def cache_name(vault: Path | str, kind: str) -> Path:
    return cache_dir() / f"{kind}-{hashlib.sha1(str(Path(vault).resolve()).encode()).hexdigest()[:16]}.pickle"


def load_vocabulary(vault: Path | str) -> dict[str, float] | None:
    """The last index's words and their idf weights, for quick matching of short texts (a chat turn).

    Read without checking that the vault is unchanged: a vocabulary drifts slowly, and a
    per-turn hook cannot afford to read the whole vault.
    """
    try:
        with cache_name(vault, "vocab").open("rb") as handle:
            version, vocabulary = pickle.load(handle)
    except Exception:
        return None
    return vocabulary if version == INDEX_VERSION else None


def weigh(text: str, vocabulary: dict[str, float]) -> dict[str, float]:
    """``text`` as an L2-normalised TF-IDF vector over ``vocabulary``, the way the index weighs notes."""
    counts: dict[str, int] = {}
    for word in re.findall(TOKEN_PATTERN, text.lower()):
        if word in vocabulary:
            counts[word] = counts.get(word, 0) + 1
    weights = {w: (1 + math.log(n)) * vocabulary[w] for w, n in counts.items()}
    norm = math.sqrt(sum(v * v for v in weights.values())) or 1.0
    return {w: v / norm for w, v in weights.items()}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())
