"""A vault's words and their weights, for matching a short text (a chat turn) against the pool fast.

Plain Python, no numpy: a hook imports this on every turn. ``walker.similarity`` builds the
index and writes the vocabulary this module reads. Both live in the cache folder, which
``cache_folder`` checks first: a cache holds data only (JSON, NumPy arrays), never anything that
runs when read, and a folder someone else could write to is not used at all.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import stat
from pathlib import Path

from walker.config import cache_dir
from walker.safefile import MB, read_text, write_atomic

INDEX_VERSION = 14  # 14: JSON and NumPy arrays; the pickles of 13 and before are never read
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W\d_'-]{2,}\b"  # words of three letters or more, no numbers
VOCABULARY_LIMIT = 64 * MB

log = logging.getLogger("walker")
_warned: set[str] = set()


def cache_folder(folder: Path | None = None) -> Path | None:
    """The cache folder (``cache_dir()`` unless given), created ``0700``; None, with one warning per
    process, when walker must not use it.

    Refused: a symlink (a cache linked into a synced vault), anything but a folder, a folder owned
    by another user or writable by group or others. Whoever can write there could plant a cache file.
    """
    folder = folder or cache_dir()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        problem = _unsafe(os.lstat(folder))
    except OSError as exc:
        problem = f"cannot be created ({exc.strerror or exc})"
    if problem is None:
        return folder
    if str(folder) not in _warned:
        _warned.add(str(folder))
        log.warning("walker: the cache folder %s %s; working without a cache (slower). Set WALKER_CACHE_DIR to "
                    "a folder only you can write to.", folder, problem)
    return None


def _unsafe(info: os.stat_result) -> str | None:
    if stat.S_ISLNK(info.st_mode):
        return "is a symlink"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.geteuid():
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by group or others (mode {stat.S_IMODE(info.st_mode):o})"
    return None


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
