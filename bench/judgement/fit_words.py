"""Fit the sensitive guard's reader of words (walker/models/sensitive_words.json): meaning without the extra.

all-MiniLM-L6-v2 (``walker[meaning]``) reads what no piece of a sentence says ("lies awake most nights"), but it
needs PyTorch's package to install, so most installs go without it. This distils it into one number per word: each
of the VOCABULARY commonest English words (wordfreq) is embedded alone, a sentence is read as the mean of its words'
vectors, each weighed by how rare the word is (Arora, Liang and Ma's smooth inverse frequency, a / (a + p(word))),
and a logistic model per language over that mean (its axes scaled) is fitted on the same sentences and background as
the reader of meaning (``fit_meaning.py``), what the offline engine writes in the fields among the innocent ones. A
linear model of a weighed mean is a weighed mean of each word's own product with the model's direction, so the file
holds, per word, its weight and its score in each language: reading a sentence costs a dictionary look-up per word,
and words no labelled sentence used are scored by what the encoder makes of them (a "stick", a "funeral", a "mosque").
Chinese is read as the English glosses of its words (``walker.glosses``). Its threshold follows the rule of the
other readers (the lowest at which its cross-validated precision is still 85%); the guard itself weighs it with the
model of pieces (``fit_deep.py --reader words``). The strongest word's score is read beside the mean (a second
logistic model over the two): one word can say it ("mosque" among eight ordinary ones).

    python bench/judgement/fit_words.py --fit tests/data/judgement/sensitive-{1..14}.yaml
        --background VAULT... --fields FILE... [--check FILE ...] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np
from fit import PRECISION, ROOT, lowest_threshold, read, report
from fit_meaning import THRESHOLDS, innocent_texts, training_set
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from wordfreq import top_n_list, word_frequency

from walker import meaning, sensitive

VOCABULARY = 20_000  # the commonest English words (50,000 refused more good fields: bench/README.md)
SMOOTH = 1e-3  # a in a / (a + p(word)): the value Arora, Liang and Ma found good across tasks
STRENGTH = 1.0


def vocabulary() -> list[str]:
    return [w for w in top_n_list("en", VOCABULARY) if sensitive.WORD.fullmatch(w)]


def word_vectors(words: list[str]) -> np.ndarray:
    found = []
    for start in range(0, len(words), 256):
        got = meaning.vectors(words[start:start + 256])
        if got is None:
            raise SystemExit("the reader of words is distilled from walker[meaning]: install it (WALKER_MEANING not 0)")
        found.extend(got)
    return np.array(found, dtype=np.float64)


def sentence_means(texts: list[str], index: dict[str, int], vectors: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each text's weighed mean word vector (zero where it has no known word), as the reader of words reads it."""
    out = np.zeros((len(texts), vectors.shape[1]))
    for row, text in enumerate(texts):
        ids = [index[w] for w in sensitive.WORD.findall(text.lower()) if w in index]
        if ids:
            out[row] = weights[ids] @ vectors[ids] / weights[ids].sum()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--background", type=Path, nargs="*", default=[], help="vaults read as innocent sentences")
    parser.add_argument("--fields", type=Path, nargs="*", default=[],
                        help="labelled sets of other judgements, whose sentences are read as innocent")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    os.environ.pop("WALKER_MEANING", None)
    words = vocabulary()
    index = {w: i for i, w in enumerate(words)}
    vectors = word_vectors(words)
    weights = np.array([SMOOTH / (SMOOTH + word_frequency(w, "en")) for w in words])
    innocent = innocent_texts(args.background, args.fields)
    data: dict[str, object] = {"judgement": "sensitive, by words", "encoder": meaning.MODEL_PACKAGE,
                               "smooth": SMOOTH, "strength": STRENGTH, "words": words,
                               "weights": [round(float(w), 4) for w in weights]}
    for language in sensitive.MEANING_MODELS:
        labelled, texts, truth = training_set(args.fit, innocent, language)
        shown = [sensitive.read_in_english(t, language) or "" for t in texts]
        x = sentence_means(shown, index, vectors, weights)
        model = make_pipeline(StandardScaler(), LogisticRegression(C=STRENGTH, max_iter=5000, class_weight="balanced"))
        chances = cross_val_predict(model, x, truth, cv=StratifiedKFold(5, shuffle=True, random_state=0),
                                    method="predict_proba")[:, 1]
        threshold = lowest_threshold(chances, truth, PRECISION["sensitive"], THRESHOLDS)
        print(f"reader of words ({language}): {len(labelled)} labelled sentences, {len(texts) - len(labelled)} background; "
              f"threshold {threshold}")
        report("  fit files, 5-fold cross-validated", labelled, [p >= threshold for p in chances[: len(labelled)]])
        model.fit(x, truth)
        scaler, logistic = model[0], model[1]
        direction = logistic.coef_[0] / scaler.scale_
        scores = vectors @ direction
        bias = float(logistic.intercept_[0] - direction @ scaler.mean_)
        # The strongest word beside the mean: a second logistic model over the two, on the same sentences.
        pooled_x = np.array([_mean_and_top(text, index, scores, weights, bias) for text in shown])
        pooled = LogisticRegression(max_iter=1000, class_weight="balanced")
        pooled_chances = cross_val_predict(pooled, pooled_x, truth, cv=StratifiedKFold(5, shuffle=True, random_state=0),
                                           method="predict_proba")[:, 1]
        pooled_threshold = lowest_threshold(pooled_chances, truth, PRECISION["sensitive"], THRESHOLDS)
        report(f"  with the strongest word (threshold {pooled_threshold}), 5-fold cross-validated", labelled,
               [p >= pooled_threshold for p in pooled_chances[: len(labelled)]])
        pooled.fit(pooled_x, truth)
        data[language] = {"bias": round(bias, 4), "threshold": pooled_threshold, "items": len(texts),
                          "pooled": {"mean": round(float(pooled.coef_[0][0]), 4), "top": round(float(pooled.coef_[0][1]), 4),
                                     "bias": round(float(pooled.intercept_[0]), 4)},
                          "scores": [round(float(s), 3) for s in scores]}
    if args.write:
        path = ROOT / "walker" / "models" / sensitive.WORDS_MODEL
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
        sensitive.words_model.cache_clear()
    os.environ["WALKER_MEANING"] = "0"  # the checks read as an install without the extra does
    thresholds = {language: data[language]["threshold"] for language in sensitive.MEANING_MODELS}  # type: ignore[index]
    for path in args.check:
        rows = read([path])
        print(f"\ncheck {path} (written apart)")
        report("  the reader of words alone", rows, [_refused(r["text"], thresholds) for r in rows])
        report("  walker's guard, reading fast", rows, [sensitive.sensitive_inference(r["text"]) is not None for r in rows])


def _mean_and_top(text: str, index: dict[str, int], scores: np.ndarray, weights: np.ndarray,
                  bias: float) -> tuple[float, float]:
    """The weighed mean of a text's word scores and its strongest word's score, each with the bias (0, 0 where it knows
    none of its words)."""
    ids = [index[w] for w in sensitive.WORD.findall(text.lower()) if w in index]
    if not ids:
        return 0.0, 0.0
    return float(weights[ids] @ scores[ids] / weights[ids].sum()) + bias, float(scores[ids].max()) + bias


def _refused(text: str, thresholds: dict[str, float]) -> bool:
    """Whether the reader of words alone, at its own threshold, refuses a sentence of ``text``."""
    for sentence in sensitive._sentences(text):
        language = sensitive.language_of(sentence.strip())
        found = sensitive.words_logit(sentence.strip(), language) if language else None
        if found is not None and found >= sensitive._logit(thresholds[language]):
            return True
    return False


if __name__ == "__main__":
    main()
