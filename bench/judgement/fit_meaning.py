"""Fit the sensitive guard's reader of meaning (walker/models/sensitive_meaning.json); check it on others, once.

A logistic model over the all-MiniLM-L6-v2 embedding of a sentence (``walker.meaning``, the ``walker[meaning]``
extra), fitted on the English sentences of the fit files, with the English sentences of the --background vaults
and what the offline engine writes in the fields the gate reads (up to ENGINE_FIELDS texts a vault) as innocent. It reads what no piece of a sentence
says ("lies awake most nights", "keeps one day a week holy"). Its threshold follows the rule of the model of pieces
(``fit.py``): the lowest at which its cross-validated precision is still 85%. One reader per language: ``--language
zh`` fits the reader of Chinese sentences, which the encoder reads as the English glosses of their words
(``walker.glosses``), on the Chinese sentences of the same files and vaults. Japanese is left to the other two readers.

    python bench/judgement/fit_meaning.py --fit tests/data/judgement/sensitive-*.yaml [--language zh]
        [--background VAULT ...] [--fields FILE ...] [--check FILE ...] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np
from fit import (
    PRECISION,
    ROOT,
    VAULT_SENTENCES,
    engine_fields,
    field_sentences,
    lowest_threshold,
    read,
    report,
    vault_sentences,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from walker import meaning, sensitive
from walker.glosses import english_gloss
from walker.words import has_cjk, is_chinese

STRENGTH = 1.0  # scikit-learn's C: 0.3, 1 and 3 cross-validated within a point of each other
ENGINE_FIELDS = 400  # of what the offline engine writes, per vault: the texts this reader reads most (40 let it
# refuse the engine's own "Reading … for its own sake" once the quotes were taken out)
THRESHOLDS = (0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3)


def in_language(text: str, language: str) -> bool:
    return is_chinese(text) if language == "zh" else not has_cjk(text)


def embed(texts: list[str], language: str) -> np.ndarray:
    found = meaning.vectors([english_gloss(t) or "" for t in texts] if language == "zh" else texts)
    if found is None:
        raise SystemExit("the reader of meaning needs walker[meaning] installed (and WALKER_MEANING not 0)")
    return np.array(found)


def innocent_texts(vaults: list[Path], fields: list[Path]) -> list[str]:
    """What a reader of meaning is fitted to read as innocent: what the offline engine writes in the fields the gate
    reads, sentences of each vault, and the sentences of the other judgements' labelled sets."""
    texts = [r["text"] for vault in vaults for r in engine_fields(vault, "sensitive", ENGINE_FIELDS)]
    texts += [t for vault in vaults for t in vault_sentences(vault, VAULT_SENTENCES)]
    return texts + field_sentences(fields)


def training_set(fit: list[Path], innocent: list[str], language: str) -> tuple[list[dict], list[str], list[bool]]:
    """The labelled sentences in ``language``, then the innocent ones read as the guard reads a text (sentence by
    sentence, split at ; too): the labelled rows, every text, and whether each is sensitive."""
    labelled = [r for r in read(fit) if in_language(r["text"], language)]
    background = [t for t in dict.fromkeys(s.strip() for t in innocent for s in sensitive._sentences(t))
                  if t and in_language(t, language)]
    return labelled, [r["text"] for r in labelled] + background, [r["label"] == "sensitive" for r in labelled] + \
        [False] * len(background)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--background", type=Path, nargs="*", default=[], help="vaults read as innocent sentences")
    parser.add_argument("--fields", type=Path, nargs="*", default=[],
                        help="labelled sets of other judgements, whose sentences are read as innocent")
    parser.add_argument("--language", choices=sorted(sensitive.MEANING_MODELS), default="en")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    os.environ.pop("WALKER_MEANING", None)
    labelled, texts, truth = training_set(args.fit, innocent_texts(args.background, args.fields), args.language)
    x = embed(texts, args.language)
    print(f"reader of meaning ({args.language}): {len(labelled)} labelled sentences, "
          f"{len(texts) - len(labelled)} background")
    model = LogisticRegression(C=STRENGTH, max_iter=5000, class_weight="balanced")
    chances = cross_val_predict(model, x, truth, cv=StratifiedKFold(5, shuffle=True, random_state=0),
                                method="predict_proba")[:, 1]
    threshold = lowest_threshold(chances, truth, PRECISION["sensitive"], THRESHOLDS)
    refused = sum(p >= threshold for p in chances[len(labelled):])
    print(f"threshold {threshold}: the lowest with cross-validated precision {PRECISION['sensitive']:.0%} or more; "
          f"{refused} of {len(texts) - len(labelled)} background sentences refused")
    report("fit files, 5-fold cross-validated", labelled, [p >= threshold for p in chances[: len(labelled)]])
    model.fit(x, truth)
    if args.write:
        data = {"judgement": "sensitive, by meaning", "language": args.language, "encoder": meaning.MODEL_PACKAGE,
                "read_as": "the English glosses of its words" if args.language == "zh" else "written", "items": len(texts),
                "strength": STRENGTH, "threshold": threshold, "bias": round(float(model.intercept_[0]), 4),
                "weights": [round(float(w), 4) for w in model.coef_[0]]}
        path = ROOT / "walker" / "models" / sensitive.MEANING_MODELS[args.language]
        path.write_text(json.dumps(data) + "\n", "utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
        sensitive.meaning_model.cache_clear()
    for path in args.check:
        rows = read([path])
        print(f"\ncheck {path} (written apart)")
        report("  the reader of meaning", rows, [sensitive.meaning_inference(r["text"]) is not None for r in rows])
        report("  walker's guard, reading deeply (any of the three)", rows,
               [sensitive.sensitive_inference(r["text"], deep=True) is not None for r in rows])
        report("  walker's guard, reading fast (lexicon or pieces)", rows,
               [sensitive.sensitive_inference(r["text"]) is not None for r in rows])


if __name__ == "__main__":
    main()
