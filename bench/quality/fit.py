"""Fit the walk's score (walker/walk/scorer.py) on labelled passage pairs of development vaults only.

Each labelled pair is put to the engine with both passages pinned; a pair the engine makes no
candidate of (fewer than two shared words, a subject that has its own note, a passage naming the
other note) or the critic gate rejects is counted apart, because no walk would ever score it. For the rest, the evidence the
engine measured and the label (useful, or not: shallow, homonym, wrong) fit one logistic model
with few weights. The fit is checked by leaving one vault out at a time: precision, wrong ones and
yield of the pairs scored at or above the floor on the vault the fit did not see. The floor (the least score a walk
keeps) is KEEP, even odds; with ``--floor`` it is fitted with the model: the lowest score at which, over those
held-out scores, at most WRONG_AT_MOST of the pairs scored at or above it were read wrong.

    python bench/quality/fit.py LABELS.yaml... [--vault NAME=PATH ...] [--stack SIGNAL] [--kinds] [--floor] [--write]

LABELS.yaml: a list of {vault, a: {path, text}, b: {path, text}, label}; ``labels.yaml`` beside this
script holds the pairs of sample-vault/ and the two shared vaults. An end may give ``sha`` (the first 16 hex
digits of the passage's SHA-1) in place of ``text``: the passage is then found in the note, so that labels of
vaults whose text may not be copied here (``dev-labels.yaml``, the pool's vaults) carry no text of theirs. --write puts the fitted model
into walker/walk/scorer.py (between its MODEL markers). Two models are fitted, each on its own signals
(``MODEL_SIGNALS``): "plain", and "meaning" with the sentence-embedding model's reading of the passages;
run this where ``walker[meaning]`` is installed, or only "plain" is fitted and written.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
from collections import Counter
from pathlib import Path

import numpy as np
import yaml
from run import pinned  # beside this script
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

from walker.corpus.text import join_sentences, sentences
from walker.walk.critic import gate
from walker.walk.engines.extractive import MAX_QUOTED
from walker.walk.evidence import Evidence
from walker.walk.scorer import KEEP, MODEL_SIGNALS, MODELS, features, score
from walker.workspace import Workspace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCORER = ROOT / "walker" / "walk" / "scorer.py"
STRENGTH = 1.0  # the model's one setting: L2 regularisation (scikit-learn's C), left at its default
# --kinds: an indicator for each of these kinds beside the signals (a missing link is the baseline; a duplicate is not
# scored). Tried on 2026-12-02 and not adopted: held-out AUC 0.76 -> 0.74 (bench/quality/pool.md).
KIND_TERMS = ("answer", "analogy", "tension")
WRONG_AT_MOST = 0.1  # the product's target: at most one kept record in ten read wrong
FEWEST = 20  # a floor is read from at least this many held-out pairs above it


def evidence_of(ws: Workspace, a: str, b: str, texts: tuple[str, str]) -> tuple[Evidence, str] | None:
    """What the engine measures of two pinned passages, and the kind it gives them."""
    context, candidate = pinned(ws, a, b, texts)
    if candidate is None or not gate([candidate], context.critic, noteworthy_limit=0)[0].accepted:
        return None  # no walk would score it: the gate runs first
    return Evidence.of((candidate.grounding or {})["evidence"]), candidate.kind


def passage(ws: Workspace, end: dict[str, str]) -> str | None:
    """An end's passage: its ``text``, or the run of a paragraph's sentences in its note whose digest is ``sha``."""
    if "text" in end:
        return end["text"]
    for paragraph in ws.index.paragraphs.get(end["path"], []):
        said = sentences(paragraph.text)
        for start in range(len(said)):
            for stop in range(start + 1, min(start + MAX_QUOTED, len(said)) + 1):
                text = join_sentences(said[start:stop])
                if digest(text) == end["sha"]:
                    return text
    return None


def digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", type=Path, nargs="+")
    parser.add_argument("--vault", action="append", default=[], help="NAME=PATH of a vault the labels name")
    parser.add_argument("--write", action="store_true", help="write the fitted model into walker/walk/scorer.py")
    parser.add_argument("--stack", metavar="SIGNAL", help="keep every fitted weight and fit only this signal's weight "
                        "and a shift of the bias, the model as it is read as a fixed offset")
    parser.add_argument("--floor", action="store_true", help="fit the floor with the model (at most one held-out "
                        "pair in ten above it read wrong) instead of even odds")
    parser.add_argument("--kinds", action="store_true", help="weigh each kind of KIND_TERMS by an indicator of its own "
                        "(not writable: the scorer has no such terms)")
    args = parser.parse_args()
    # the two real vaults, outside the repository, found as the tests find them (tests/conftest.py)
    shared = Path(os.environ.get("WALKER_REAL_VAULTS") or ROOT.parent / "shared" / "vaults")
    places = {"sample-vault": ROOT / "sample-vault",
              **{p.name: p for p in (shared.iterdir() if shared.is_dir() else ()) if p.is_dir()},
              **{name: Path(path) for name, _, path in (v.partition("=") for v in args.vault)}}
    pairs = [pair for path in args.labels for pair in yaml.safe_load(path.read_text(encoding="utf-8"))]
    found_rows: list[tuple[str, Evidence, str, int]] = []
    unscored: Counter[str] = Counter()
    for vault in dict.fromkeys(p["vault"] for p in pairs):
        ws = Workspace.open(places[vault])
        for pair in (p for p in pairs if p["vault"] == vault):
            a, b = pair["a"]["path"], pair["b"]["path"]
            if a not in ws.corpus.notes or b not in ws.corpus.notes or b in ws.links.get(a, ()):
                unscored[f"{pair['label']} (linked or gone)"] += 1
                continue
            texts = passage(ws, pair["a"]), passage(ws, pair["b"])
            if texts[0] is None or texts[1] is None:
                unscored[f"{pair['label']} (passage not found)"] += 1
                continue
            found = evidence_of(ws, a, b, (texts[0], texts[1]))
            if found is None:
                unscored[pair["label"]] += 1
                continue
            label = {"useful": 1, "wrong": -1, "homonym": -1}.get(pair["label"], 0)  # -1: wrong, 0: shallow
            found_rows.append((vault, *found, label))
    print(f"{len(found_rows)} pairs scored ({sum(r[3] == 1 for r in found_rows)} useful); "
          f"no candidate made of: {dict(unscored)}")
    models = dict(MODELS)
    for name in MODEL_SIGNALS:
        # The meaning model reads the pairs the sentence-embedding model measured (not those in Chinese, say).
        rows = [r for r in found_rows if name == "plain" or r[1].meaning is not None]
        if not rows:
            print("\nno sentence-embedding model here (pip install 'walker[meaning]'): the meaning model is kept as it is")
            continue
        print(f"\n## model {name}: {', '.join(MODEL_SIGNALS[name])} ({len(rows)} pairs)\n")
        if args.stack:
            models[name] = _stack(name, args.stack, rows)
            continue
        signals = MODEL_SIGNALS[name] + (KIND_TERMS if args.kinds else ())
        print(f"the model as shipped ranks these pairs with ROC AUC "
              f"{roc_auc_score([r[3] == 1 for r in rows], [score(e) for _, e, _, _ in rows]):.2f}\n")
        print("| kind | pairs | useful |\n|---|---|---|")
        for kind, count in Counter(r[2] for r in rows).most_common():
            print(f"| {kind} | {count} | {sum(r[3] == 1 for r in rows if r[2] == kind)} |")
        print()
        fitted = _check_and_fit(signals, args.floor, [(v, [{**features(e, name), **{t: float(k == t) for t in KIND_TERMS}}[s]
                                               for s in signals], y) for v, e, k, y in rows])
        models[name] = fitted or models[name]
    if args.write and not args.kinds:
        text = SCORER.read_text(encoding="utf-8")
        literal = "MODELS: dict[str, dict[str, dict[str, float]]] = {" + ", ".join(
            f'"{name}": {_literal(model)}' for name, model in models.items()) + "}"
        SCORER.write_text(re.sub(r"(# MODEL BEGIN[^\n]*\n).*?(\n# MODEL END)", lambda m: m.group(1) + literal + m.group(2),
                                 text, flags=re.DOTALL), encoding="utf-8")
        print(f"written to {SCORER.relative_to(ROOT)}")


def _check_and_fit(signals: tuple[str, ...], fit_floor: bool,
                   rows: list[tuple[str, list[float], int]]) -> dict[str, dict[str, float]] | None:
    """Leave each vault out in turn and score it by a fit without it; then the fit on all rows (None for one vault)."""
    vaults = sorted({r[0] for r in rows})
    if len(vaults) < 2:
        print(f"one vault only ({', '.join(vaults)}): nothing to hold out, so no fit is checked or made\n")
        return None
    by_vault = {v: (_predict(_fit([r for r in rows if r[0] != v], signals), [r for r in rows if r[0] == v]),
                    np.array([r[2] for r in rows if r[0] == v])) for v in vaults}
    held_out = np.concatenate([p for p, _ in by_vault.values()])
    labels = np.concatenate([y for _, y in by_vault.values()])
    keep = _floor(held_out, labels) if fit_floor else KEEP
    print(f"the floor: {keep:.2f}, " + (f"the lowest held-out score at which at most {WRONG_AT_MOST:.0%} of the pairs "
          "at or above it were read wrong\n" if fit_floor else "even odds\n"))
    print("| vault left out | pairs | useful | kept | kept useful | kept wrong | precision |\n|---|---|---|---|---|---|---|")
    total: Counter[str] = Counter()
    for held, (predicted, truth) in by_vault.items():
        kept = predicted >= keep
        count = Counter(pairs=len(truth), useful=int(sum(truth == 1)), kept=int(sum(kept)),
                        kept_useful=int(sum(kept & (truth == 1))), kept_wrong=int(sum(kept & (truth == -1))))
        total.update(count)
        print(_row(held, count))
    print(_row("all", total))
    print(f"\nheld-out ranking of useful pairs (ROC AUC, each vault scored by a fit without it): "
          f"{roc_auc_score(labels == 1, held_out):.3f}; held-out log loss {log_loss(labels == 1, held_out):.3f}")
    model = _fit(rows, signals)
    print("\nweights on centred, scaled signals:", {k: round(v, 3) for k, v in model["weight"].items()},
          "bias", round(model["bias"]["bias"], 3))
    return {**model, "keep": {"keep": keep}} if fit_floor else model


def _floor(scores: np.ndarray, labels: np.ndarray) -> float:
    """The lowest score (in hundredths) at which at most WRONG_AT_MOST of the pairs scored at or above it are wrong,
    read from at least FEWEST pairs; KEEP (even odds) when there is none."""
    for step in range(1, 100):
        kept = scores >= step / 100
        if kept.sum() >= FEWEST and (labels[kept] == -1).mean() <= WRONG_AT_MOST:
            return step / 100
    return KEEP


def _stack(name: str, signal: str, rows: list[tuple[str, Evidence, str, int]]) -> dict[str, dict[str, float]]:
    """The model as shipped, plus one signal: its weight and a shift of the bias fitted with the shipped model's
    logit as a fixed offset, so the labels that fitted the other weights (lost or not) keep their say. Checked by
    leaving one vault out at a time against the shipped model with its bias alone refitted the same way."""
    shipped = {part: {k: v for k, v in values.items() if k != signal} for part, values in MODELS[name].items()}
    offset = np.array([_logit(shipped, {k: v for k, v in features(e, name).items() if k != signal}) for _, e, _, _ in rows])
    x = np.array([features(e, name)[signal] for _, e, _, _ in rows])
    y = np.array([r[3] == 1 for r in rows], dtype=float)
    mean, scale = float(x.mean()), float(x.std()) or 1.0
    columns = {"bias only": np.ones((len(rows), 1)), f"with {signal}": np.column_stack([(x - mean) / scale, np.ones(len(rows))])}
    vaults = np.array([r[0] for r in rows])
    for label, z in columns.items():
        held = np.zeros(len(rows))
        for vault in sorted(set(vaults)):
            train, test = vaults != vault, vaults == vault
            held[test] = _sigmoid(offset[test] + z[test] @ _offset_fit(z[train], offset[train], y[train]))
        print(f"{label}: held-out ROC AUC {roc_auc_score(y, held):.3f}, log loss {log_loss(y, held):.3f}")
    weight, shift = _offset_fit(columns[f"with {signal}"], offset, y)
    print(f"{signal}: weight {weight:.3f} on the centred, scaled signal (mean {mean:.3f}, scale {scale:.3f}); bias "
          f"{shipped['bias']['bias']:.3f} -> {shipped['bias']['bias'] + shift:.3f}")
    return {"mean": {**shipped["mean"], signal: mean}, "scale": {**shipped["scale"], signal: scale},
            "weight": {**shipped["weight"], signal: float(weight)}, "bias": {"bias": shipped["bias"]["bias"] + float(shift)}}


def _offset_fit(z: np.ndarray, offset: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with a fixed offset, by Newton's method, with scikit-learn's default L2 penalty (C=1)
    on every coefficient but the last (the bias)."""
    w = np.zeros(z.shape[1])
    penalty = np.eye(len(w)) / STRENGTH
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = _sigmoid(offset + z @ w)
        step = np.linalg.solve((z * (p * (1 - p))[:, None]).T @ z + penalty, z.T @ (y - p) - penalty @ w)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _logit(model: dict[str, dict[str, float]], values: dict[str, float]) -> float:
    return model["bias"]["bias"] + sum(model["weight"][n] * (v - model["mean"][n]) / model["scale"][n]
                                       for n, v in values.items())


def _sigmoid(t: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(t, -30, 30)))


def _fit(rows: list[tuple[str, list[float], int]], signals: tuple[str, ...]) -> dict[str, dict[str, float]]:
    x = np.array([r[1] for r in rows])
    y = np.array([r[2] == 1 for r in rows])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    fitted = LogisticRegression(C=STRENGTH, max_iter=1000).fit((x - mean) / scale, y)
    return {"mean": dict(zip(signals, map(float, mean))), "scale": dict(zip(signals, map(float, scale))),
            "weight": dict(zip(signals, map(float, fitted.coef_[0]))), "bias": {"bias": float(fitted.intercept_[0])}}


def _predict(model: dict[str, dict[str, float]], rows: list[tuple[str, list[float], int]]) -> np.ndarray:
    return _sigmoid(np.array([_logit(model, dict(zip(model["weight"], x))) for _, x, _ in rows]))


def _literal(model: dict[str, dict[str, float]]) -> str:
    parts = ",\n    ".join(f'"{part}": {{' + ", ".join(f'"{k}": {v:.4g}' for k, v in values.items()) + "}"
                          for part, values in model.items())
    return "{\n    " + parts + ",\n}"


def _row(name: str, c: Counter[str]) -> str:
    precision = f"{c['kept_useful'] / c['kept']:.0%}" if c["kept"] else "–"
    return f"| {name} | {c['pairs']} | {c['useful']} | {c['kept']} | {c['kept_useful']} | {c['kept_wrong']} | {precision} |"


if __name__ == "__main__":
    main()
