"""Walker's NumPy encoder (walker/meaning.py) against sentence-transformers on the same model, and its speed.

    python bench/meaning.py        (where walker[meaning] is installed; sentence-transformers comes with it)

Prints the largest difference between the two embeddings of each text (they agree to about 1e-6) and the
time to load the model and embed a walk's worth of passages.
"""

from __future__ import annotations

import time

import numpy as np

from walker import meaning

TEXTS = [
    "A heap that goes anaerobic ferments instead of rotting: sour, wet, sulphurous.",
    "The autoscaler overshoots because its sensor reads the queue a minute late, so it oscillates.",
    "Backpressure lets a slow consumer tell the producer to wait instead of dropping messages.",
    "免揉面包靠时间让面筋自己形成，水合越充分，面团越有弹性。",
    "short",
    "word " * 400,
]


def main() -> None:
    started = time.perf_counter()
    model = meaning.encoder()
    if model is None:
        raise SystemExit("walker[meaning] is not installed here")
    loaded = time.perf_counter() - started
    ours = model(TEXTS)
    from sentence_transformers import SentenceTransformer

    folder = meaning.model_folder()
    theirs = SentenceTransformer(str(folder), device="cpu").encode(TEXTS, normalize_embeddings=True)
    print(f"largest difference per text: {np.abs(ours - theirs).max(axis=1).round(7).tolist()}")
    print(f"cosine of each pair of embeddings: {(ours * theirs).sum(axis=1).round(6).tolist()}")
    passages = [f"{t} ({i})" for i in range(200) for t in TEXTS[:3]][:200]
    started = time.perf_counter()
    meaning.Meaning().embed(passages)
    print(f"model read in {loaded:.2f} s; 200 passages embedded in {time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()
