"""MiniLM's BERT encoder in NumPy: the arithmetic of all-MiniLM-L6-v2, read from its safetensors weights (never a
pickle), for ``walker.meaning``, which imports it only when a model is installed and a text is to be read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from scipy.special import erf
from threadpoolctl import threadpool_limits

MAX_PIECES = 256  # the model's own limit (its sentence_bert_config.json)
MAX_WEIGHTS = 200 * 1024 * 1024  # the model file is 91 MB; anything much larger is not this model


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
