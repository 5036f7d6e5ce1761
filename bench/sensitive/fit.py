"""Fit the sensitive-inference model (walker/sensitive_model.json) on labelled sentences; check it on others.

A logistic model over a sentence's pieces, the same pieces the turn classifier reads (``walker.turns.pieces``: its
words and pairs of words; in Chinese, runs of one to three characters). One setting, the regularisation STRENGTH,
chosen by five-fold cross-validation on the fit set. The files given with --check were written apart, by someone
who saw neither the fit set nor the rules, and are read once, after the fit, and only scored.

    python bench/sensitive/fit.py --fit tests/data/sensitive.yaml --background sample-vault tests/fixtures/zh-notes \
        --check TEST.yaml [--scan VAULT ...] [--write]

Each file is a list of {text, label: sensitive | innocent, category, lang}. --write puts the model into
walker/sensitive_model.json. --background names vaults of the project's own whose every sentence is read as
innocent: the labelled sets are half sensitive, a vault almost never is, and without them the model takes plain
first-person prose ("Baked a rye loaf for a friend's birthday") for a diary of symptoms. --scan counts the
sentences of other vaults (read, never fitted on) that the guard would refuse. The report gives precision and recall of "sensitive" for the phrase lexicon alone,
the model alone, and the guard as walker applies it (either one refuses).
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

from walker.turns import pieces

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "walker" / "sensitive_model.json"
STRENGTH = 3.0  # scikit-learn's C, chosen by cross-validation on the fit set (--strengths lists the others)
SMALLEST = 0.02  # weights nearer zero than this are left out of the file: they never change a decision


def read(paths: list[Path]) -> list[dict[str, str]]:
    return [row for path in paths for row in yaml.safe_load(path.read_text("utf-8"))]


def report(name: str, rows: list[dict[str, str]], said: list[bool]) -> None:
    truth = [r["label"] == "sensitive" for r in rows]
    hit = sum(t and s for t, s in zip(truth, said))
    flagged, real = sum(said), sum(truth)
    precision = f"{hit / flagged:.0%}" if flagged else "–"
    print(f"{name}: precision {precision} ({hit}/{flagged}), recall {hit / real:.0%} ({hit}/{real}) of {len(rows)}")
    for lang in sorted({r["lang"] for r in rows}):
        sub = [(t, s) for r, t, s in zip(rows, truth, said) if r["lang"] == lang]
        missed = sum(t and not s for t, s in sub)
        false = sum(s and not t for t, s in sub)
        print(f"  {lang}: {len(sub)} sentences, {missed} sensitive missed, {false} innocent refused")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--background", type=Path, nargs="*", default=[], help="vaults read as innocent sentences")
    parser.add_argument("--scan", type=Path, nargs="*", default=[], help="vaults whose refused sentences are counted")
    parser.add_argument("--strengths", action="store_true", help="cross-validate each strength on the fit set")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    train = read(args.fit) + [{"text": t, "label": "innocent", "category": "vault", "lang": "vault"}
                              for vault in args.background for t in vault_sentences(vault)]
    vectors = DictVectorizer()
    x = vectors.fit_transform([pieces(r["text"]) for r in train])
    y = [r["label"] == "sensitive" for r in train]
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    for strength in ((0.3, 1.0, 3.0, 10.0, 30.0) if args.strengths else (STRENGTH,)):
        chances = cross_val_predict(LogisticRegression(C=strength, max_iter=3000, class_weight="balanced"), x, y, cv=folds,
                                    method="predict_proba")[:, 1]
        report(f"fit set, 5-fold cross-validated, C={strength}", train, [p >= 0.5 for p in chances])
    model = LogisticRegression(C=STRENGTH, max_iter=3000, class_weight="balanced").fit(x, y)
    names = vectors.get_feature_names_out()
    weights = {str(names[i]): round(float(w), 3) for i, w in enumerate(model.coef_[0]) if abs(w) >= SMALLEST}
    if args.write:
        data = {"sentences": len(train), "strength": STRENGTH, "bias": round(float(model.intercept_[0]), 3),
                "weights": weights}
        MODEL.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
        print(f"wrote {len(weights)} weights to {MODEL.relative_to(ROOT)}")
    from walker import sensitive

    sensitive._model.cache_clear()
    for path in args.check:
        rows = read([path])
        print(f"\ncheck {path.name} (written apart), {dict(Counter(r['label'] for r in rows))}")
        report("  the phrase lexicon alone", rows, [sensitive.lexicon_inference(r["text"]) is not None for r in rows])
        report("  the model alone", rows, [sensitive.model_inference(r["text"]) is not None for r in rows])
        report("  walker's guard (either)", rows, [sensitive.sensitive_inference(r["text"]) is not None for r in rows])
    for vault in args.scan:
        found = vault_sentences(vault)
        refused = [t for t in found if sensitive.sensitive_inference(t)]
        by_model = [t for t in found if sensitive.model_inference(t) and not sensitive.lexicon_inference(t)]
        print(f"\nscan {vault.name}: {len(refused)} of {len(found)} sentences refused ({len(by_model)} by the model only)")
        for text in by_model[:8]:
            print(f"  model: {text[:110]}")


def vault_sentences(vault: Path) -> list[str]:
    """Every sentence of a vault's notes, as the walk reads them."""
    from walker.corpus.text import sentences
    from walker.workspace import Workspace

    ws = Workspace.open(vault)
    return [s for paragraphs in ws.index.paragraphs.values() for p in paragraphs for s in sentences(p.text)]


if __name__ == "__main__":
    main()
