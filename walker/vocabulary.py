"""A vault's words and their weights, for matching a short text (a chat turn) against the pool fast.

Plain Python, no numpy: a hook imports this on every turn. ``walker.similarity`` builds the
index and writes the vocabulary this module reads. Both live in the cache folder, which
``config.cache_folder`` checks first: a cache holds data only (JSON, NumPy arrays), never anything that
runs when read, and a folder someone else could write to is not used at all.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from walker.config import cache_folder
from walker.safefile import MB, read_text
from walker.safewrite import write_atomic
from walker.words import known_words

INDEX_VERSION = 15  # 15: words of Chinese and Japanese; 14: JSON and NumPy arrays (the pickles of 13 and before are never read)
VOCABULARY_LIMIT = 64 * MB

def cache_name(vault: Path | str, kind: str, suffix: str) -> Path | None:
    """Where this vault's cache file of ``kind`` lives, or None when there is no usable cache folder."""
    folder = cache_folder()
    if folder is None:
        return None
    return folder / f"{kind}-{hashlib.sha1(str(Path(vault).resolve()).encode()).hexdigest()[:16]}.{suffix}"


def load_vocabulary(vault: Path | str) -> dict[str, float] | None:
    """The last index's words and their idf weights, for quick matching of short texts (a chat turn).

    Read without checking that the vault is unchanged: a vocabulary drifts slowly, and a
    per-turn hook cannot afford to read the whole vault. Anything but a vocabulary this version
    wrote reads as none.
    """
    path = cache_name(vault, "vocab", "json")
    if path is None:
        return None
    try:
        data = json.loads(read_text(path, VOCABULARY_LIMIT))
        if data.get("version") != INDEX_VERSION:
            return None
        words = data["words"]
        if not all(isinstance(w, str) and type(v) in (int, float) for w, v in words.items()):
            return None
        return {w: float(v) for w, v in words.items()}
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return None


def save_vocabulary(vault: Path | str, vocabulary: dict[str, float]) -> None:
    path = cache_name(vault, "vocab", "json")
    if path is not None:
        write_atomic(path, json.dumps({"version": INDEX_VERSION, "words": vocabulary}, ensure_ascii=False), 0o600)


def weigh(text: str, vocabulary: dict[str, float]) -> dict[str, float]:
    """``text`` as an L2-normalised TF-IDF vector over ``vocabulary``, the way the index weighs notes."""
    counts: dict[str, int] = {}
    for word in known_words(text, vocabulary):
        counts[word] = counts.get(word, 0) + 1
    weights = {w: (1 + math.log(n)) * vocabulary[w] for w, n in counts.items()}
    norm = math.sqrt(sum(v * v for v in weights.values())) or 1.0
    return {w: v / norm for w, v in weights.items()}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())
