"""Fit the turn classifier (walker/models/turns.json) on labelled turns, and check it on turns it never saw.

A logistic model over a turn's pieces (its words and pairs of words; in Chinese, which has no spaces, its runs of
one to three characters). One setting, the regularisation STRENGTH, chosen by five-fold cross-validation on the fit
set (0.3 to 30 tried; 3 to 10 do best). Fitted on the files given with --fit; the files given with --check are read
once, after the fit, and only scored.

    python bench/turns/fit.py --fit tests/data/turns.yaml DEV.yaml --check TEST.yaml [--write]

Each file maps executive / convergent / exploratory to a list of turns. --write puts the model into
walker/models/turns.json.

--meaning also fits the deep reading (walker/models/turns_meaning.json, ``walker[meaning]``): one logistic model
over a turn's pieces and its all-MiniLM-L6-v2 embedding (a Chinese turn's as the English glosses of its words,
``walker.turns.meaning_text``; Japanese turns are left out), whose axes are multiplied by AXIS_SCALE so one
strength suits both (1, 3 and 10 tried, cross-validated on the fit set: 3 does best).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import yaml
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from walker.turns import KINDS, MODEL_FILE, decide, pieces

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "walker" / "models" / MODEL_FILE
STRENGTH = 10.0  # scikit-learn's C
SMALLEST = 0.02  # weights nearer zero than this are left out of the module: they never change a decision
AXIS_SCALE = 3.0
MEANING_MODEL = ROOT / "walker" / "models" / "turns_meaning.json"


def read(paths: list[Path]) -> list[tuple[str, str]]:
    return [(kind, str(turn)) for path in paths for kind, turns in yaml.safe_load(path.read_text("utf-8")).items()
            for turn in turns]


def report(name: str, labelled: list[tuple[str, str]], predicted: list[str]) -> None:
    right = sum(p == k for (k, _), p in zip(labelled, predicted))
    loud = sum(p == "exploratory" for (k, _), p in zip(labelled, predicted) if k != "exploratory")
    quiet = sum(1 for k, _ in labelled if k != "exploratory")
    print(f"{name}: {right}/{len(labelled)} right; {quiet - loud}/{quiet} tasks and decisions stay silent")
    for kind in KINDS:
        print(f"  {kind}: {dict(Counter(p for (k, _), p in zip(labelled, predicted) if k == kind))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--meaning", action="store_true", help="also fit the deep reading")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    train = read(args.fit)
    vectors = DictVectorizer()
    x = vectors.fit_transform([pieces(turn) for _, turn in train])
    y = [kind for kind, _ in train]
    model = LogisticRegression(C=STRENGTH, max_iter=3000)
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    chances = cross_val_predict(model, x, y, cv=folds, method="predict_proba")
    report("fit set, 5-fold cross-validated", train,
           [decide(dict(zip(sorted(set(y)), map(float, row)))) for row in chances])
    model.fit(x, y)
    names = vectors.get_feature_names_out()
    weights = {kind: {str(names[i]): round(float(w), 3) for i, w in enumerate(row) if abs(w) >= SMALLEST}
               for kind, row in zip(model.classes_, model.coef_)}
    bias = {kind: round(float(b), 3) for kind, b in zip(model.classes_, model.intercept_)}
    if args.write:
        data = {"turns": len(train), "strength": STRENGTH, "bias": bias, "weights": weights}
        MODEL.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
        print(f"wrote {sum(map(len, weights.values()))} weights to {MODEL.relative_to(ROOT)}")
    if args.meaning:
        fit_meaning(train, folds, args.write)
    from walker.turns import _meaning_model, _model, classify_turn

    _model.cache_clear()
    _meaning_model.cache_clear()
    report("fit set, the module as written", train, [classify_turn(t).kind for _, t in train])
    for path in args.check:
        labelled = read([path])
        report(f"check {path.name}, the module as written", labelled, [classify_turn(t).kind for _, t in labelled])
        if args.meaning:
            report(f"check {path.name}, the module reading deeply", labelled,
                   [classify_turn(t, deep=True).kind for _, t in labelled])


def fit_meaning(train: list[tuple[str, str]], folds: StratifiedKFold, write: bool) -> None:
    """The deep reading: pieces and meaning of the turns, in one model."""
    import numpy as np
    from scipy import sparse

    from walker.meaning import vectors
    from walker.turns import meaning_text
    from walker.words import has_kana

    read = [(kind, turn) for kind, turn in train if not has_kana(turn)]
    embedded = vectors([meaning_text(turn) or "" for _, turn in read])
    if embedded is None:
        raise SystemExit("--meaning needs walker[meaning] installed (and WALKER_MEANING not 0)")
    words = DictVectorizer()
    x = sparse.hstack([words.fit_transform([pieces(turn) for _, turn in read]),
                       sparse.csr_matrix(np.array(embedded) * AXIS_SCALE)]).tocsr()
    y = [kind for kind, _ in read]
    model = LogisticRegression(C=STRENGTH, max_iter=5000)
    chances = cross_val_predict(model, x, y, cv=folds, method="predict_proba")
    report("pieces and meaning, 5-fold cross-validated", read,
           [decide(dict(zip(sorted(set(y)), map(float, row)))) for row in chances])
    model.fit(x, y)
    names, width = words.get_feature_names_out(), len(words.get_feature_names_out())
    if write:
        data = {"turns": len(read), "strength": STRENGTH, "axis_scale": AXIS_SCALE,
                "bias": {kind: round(float(b), 4) for kind, b in zip(model.classes_, model.intercept_)},
                "weights": {kind: {str(names[i]): round(float(w), 3) for i, w in enumerate(row[:width])
                                   if abs(w) >= SMALLEST} for kind, row in zip(model.classes_, model.coef_)},
                "axes": {kind: [round(float(w), 4) for w in row[width:]] for kind, row in zip(model.classes_, model.coef_)}}
        MEANING_MODEL.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
        print(f"wrote the deep reading to {MEANING_MODEL.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
