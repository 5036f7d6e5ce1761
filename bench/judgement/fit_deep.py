"""Fit how the sensitive guard weighs its two readers of a sentence read deeply (walker/models/sensitive_deep.json).

Reading deeply, a sentence a reader of meaning reads (English; Chinese through its glosses) is judged by that reader
and the model of pieces together: one logistic model per language over the two readers' log-odds (three weights).
Each reader alone refuses at its own threshold, chosen for it alone; two readers each refusing on its own refuse
more innocent sentences and miss more sensitive ones than the two weighed. The weights are fitted on labelled
sentences neither reader was fitted on (the check sets, ``--fit``), so the two log-odds are what the readers make of
sentences they never saw. Its threshold follows the rule of the readers: the lowest at which its cross-validated
precision is still 85%. An item of several sentences is read by the largest log-odds of each reader over its sentences.

Reading fast (``--reader words``), the reader of words takes the reader of meaning's place: every install has it.

    python bench/judgement/fit_deep.py --fit bench/judgement/check/sensitive*.yaml [--reader words] [--check FILE ...]
        [--write]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np
from fit import PRECISION, ROOT, good_fields, lowest_threshold, read, report
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from walker import sensitive
from walker.meaning import vectors

STRENGTH = 1.0
THRESHOLDS = tuple(round(0.95 - 0.05 * i, 2) for i in range(19))  # 0.95 down to 0.05


def log_odds(text: str, reader: str = "") -> tuple[str, float, float] | None:
    """The sentence's language and the two readers' largest log-odds over its sentences; None where no reader of
    meaning (with ``reader`` WORDS, of words) reads any of them."""
    if reader == sensitive.WORDS:
        return _words_log_odds(text)
    shown = sensitive._read_by_meaning(text)
    embedded = vectors([seen for _, seen, _ in shown]) if shown else None
    if embedded is None:
        return None
    pieces, meaning = [], []
    for (sentence, _, language), vector in zip(shown, embedded):
        model = sensitive.meaning_model(language)
        meaning.append(float(vector @ model.weights) + model.bias)
        pieces.append(sensitive._logit(sensitive._piece_chance(sentence)))
    return shown[0][2], max(pieces), max(meaning)


def _words_log_odds(text: str) -> tuple[str, float, float] | None:
    found = []
    for sentence in (s.strip() for s in sensitive._sentences(text)):
        language = sensitive.language_of(sentence)
        words = sensitive.words_logit(sentence, language) if language else None
        if words is not None:
            found.append((language, sensitive._logit(sensitive._piece_chance(sentence)), words))
    if not found:
        return None
    return found[0][0], max(p for _, p, _ in found), max(w for _, _, w in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--reader", choices=["meaning", sensitive.WORDS], default="meaning",
                        help="weigh the model of pieces with the reader of meaning (reading deeply) or of words (fast)")
    parser.add_argument("--fields", type=Path, nargs="*", default=[],
                        help="critique-case sets whose good candidates' fields are read as innocent")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    words = args.reader == sensitive.WORDS
    os.environ.pop("WALKER_MEANING", None)
    if not words and sensitive.model_folder() is None:
        raise SystemExit("the readers of meaning need walker[meaning] installed (and WALKER_MEANING not 0)")
    weighed = {}
    for language in sensitive.MEANING_MODELS:
        rows, x = [], []
        for row in read(args.fit) + good_fields(args.fields):
            found = log_odds(row["text"], sensitive.WORDS if words else "")
            if found and found[0] == language:
                rows.append(row)
                x.append(found[1:])
        truth = [r["label"] == "sensitive" for r in rows]
        model = LogisticRegression(C=STRENGTH, class_weight="balanced")
        chances = cross_val_predict(model, np.array(x), truth, cv=StratifiedKFold(5, shuffle=True, random_state=0),
                                    method="predict_proba")[:, 1]
        threshold = lowest_threshold(chances, truth, PRECISION["sensitive"], THRESHOLDS)
        print(f"\n{language}: {len(rows)} sentences read by meaning; threshold {threshold}, the lowest with "
              f"cross-validated precision {PRECISION['sensitive']:.0%} or more")
        report("  weighed, 5-fold cross-validated", rows, [p >= threshold for p in chances])
        if not words:
            report("  either reader alone refusing (as before)", rows,
                   [p >= 0 or m >= sensitive._logit(sensitive.meaning_model(language).threshold) for p, m in x])
        model.fit(np.array(x), truth)
        (pieces, meaning), bias = model.coef_[0], model.intercept_[0]
        weighed[language] = {"pieces": round(float(pieces), 4), "meaning": round(float(meaning), 4),
                              "bias": round(float(bias), 4), "threshold": threshold, "items": len(rows)}
        print(f"  weights: pieces {pieces:.2f}, meaning {meaning:.2f}, bias {bias:.2f}")
    if args.write:
        path = ROOT / "walker" / "models" / sensitive.WEIGHING
        entry = {"fitted_on": [p.name for p in args.fit + args.fields], "strength": STRENGTH, **weighed}
        data = json.loads(path.read_text("utf-8"))
        if words:
            data[sensitive.WORDS] = {"judgement": "sensitive, read fast: the reader of words and the model of pieces "
                                                  "weighed (in each language, 'meaning' weighs the reader of words)", **entry}
        else:
            data = {"judgement": "sensitive, read deeply: the two readers weighed", **entry,
                    **({sensitive.WORDS: data[sensitive.WORDS]} if sensitive.WORDS in data else {})}
        path.write_text(json.dumps(data) + "\n", "utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
        sensitive.weighing.cache_clear()
    for path in args.check:
        rows = read([path])
        print(f"\ncheck {path} (written apart)")
        report("  walker's guard, reading deeply", rows,
               [sensitive.sensitive_inference(r["text"], deep=True) is not None for r in rows])
        report("  walker's guard, reading fast", rows, [sensitive.sensitive_inference(r["text"]) is not None for r in rows])


if __name__ == "__main__":
    main()
