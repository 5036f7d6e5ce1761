"""Fit one of walker's judgements (walker/models/NAME.json) on labelled sentences; check it on others, once.

A logistic model over the pieces ``walker.fitted.reading`` reads: a sentence's words and pairs of words, in
Chinese its runs of one to three characters; for ``outside_fact`` and ``outside_source`` only the pieces of the
claim its two passages lack, and their share (``outside_source``: weighing one together, whatever the claim's
length). One setting per judgement, the regularisation strength (scikit-learn's C), chosen by five-fold
cross-validation on the fit files (``--strengths`` prints each). The --check files were written
apart, by an author who saw neither the fit files nor walker's rules; they are read after the fit and only scored.

    python bench/judgement/fit.py NAME --fit tests/data/judgement/NAME*.yaml [--check bench/judgement/check/NAME.yaml]
        [--background VAULT ...] [--fields FILE ...] [--scan VAULT ...] [--strengths] [--write]

Each file is a list of {text, label, lang[, passages]}; the label is bad/good (sensitive/innocent for
``sensitive``). --background names vaults of the project's own read as good: for ``sensitive`` every sentence
(the labelled sets are half bad, a vault almost never is, and the guard also reads the passages a walk quotes);
and for every judgement what the offline engine writes in the fields the gate judges, on WALKS walks of each (at
most BACKGROUND distinct texts a vault, shared out between the kinds of hypothesis: its fixed wordings filled in
with the notes' own words, which the labelled sets, written about free text, never saw). For ``sensitive``,
--fields adds every sentence of the labelled sets of the other judgements (``field_sentences``): hypothesis fields
as people write them. --scan counts the sentences of other vaults, never fitted on, that the judgement refuses.
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

from walker import fitted
from walker.words import has_cjk

ROOT = Path(__file__).resolve().parents[2]
BAD = frozenset({"bad", "sensitive"})
STRENGTHS = {"sensitive": 0.3, "unfalsifiable": 1.0, "vague_situation": 1.0, "vague_falsifier": 0.3,
             "refused_impact": 1.0, "outside_fact": 3.0, "outside_source": 30.0}  # each chosen by cross-validation on its fit files
PRECISION = {"sensitive": 0.85}  # a judgement that errs on the side of refusing: the lowest threshold at which the
# cross-validated precision of "bad" is still this high, instead of even odds
THRESHOLDS = (0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1)
SMALLEST = 0.02
FIELDS = {"unfalsifiable": ("claim",), "vague_situation": ("applies_when",), "vague_falsifier": ("disconfirm_if",),
          "refused_impact": ("impact_reason",),
          "sensitive": ("claim", "why_it_matters", "applies_when", "never_applies_when"),
          "outside_fact": ("claim",), "outside_source": ("claim",)}  # what the gate reads
AGAINST_PASSAGES = frozenset({"outside_fact", "outside_source"})  # judgements of a claim against its two passages
BACKGROUND = 40
WALKS = 60
VAULT_SENTENCES = 800  # at most this many sentences of each background vault, drawn at random  # weights nearer zero than this are left out of the file: they never change a decision


def read(paths: list[Path]) -> list[dict]:
    return [row for path in paths for row in yaml.safe_load(path.read_text("utf-8"))]


FIELDS = ("claim", "impact_reason", "why_it_matters", "applies_when", "never_applies_when", "disconfirm_if")


def good_fields(paths: list[Path]) -> list[dict]:
    """Every field of the good candidates of critique-case sets (``critique-cases*.yaml``), as innocent items: what a
    hypothesis's fields look like when they infer nothing about anyone, the note-keeper practising and planning among
    them ("when the author plans the week…"). Chinese fields are labelled so (``lang``)."""
    items = []
    for case in read(paths):
        if case.get("defect") != "good":
            continue
        for field in FIELDS:
            value = case["candidate"].get(field) or []
            for text in [value] if isinstance(value, str) else value:
                items.append({"text": str(text), "label": "innocent", "lang": "zh" if has_cjk(str(text)) else "en"})
    return items


def report(name: str, rows: list[dict], said: list[bool]) -> None:
    truth = [r["label"] in BAD for r in rows]
    hit = sum(t and s for t, s in zip(truth, said))
    flagged, real = sum(said), sum(truth)
    right = sum(t == s for t, s in zip(truth, said))
    precision = f"{hit / flagged:.0%}" if flagged else "–"
    print(f"{name}: {right}/{len(rows)} right ({right / len(rows):.0%}); bad: precision {precision} ({hit}/{flagged}), "
          f"recall {hit / max(1, real):.0%} ({hit}/{real})")
    for lang in sorted({r.get("lang", "?") for r in rows}):
        sub = [(t, s) for r, t, s in zip(rows, truth, said) if r.get("lang", "?") == lang]
        missed = sum(t and not s for t, s in sub)
        false = sum(s and not t for t, s in sub)
        print(f"  {lang}: {len(sub)} items, {missed} bad passed, {false} good refused")


def lowest_threshold(chances, truth: list[bool], precision: float, thresholds: tuple[float, ...] = THRESHOLDS) -> float:
    """The lowest of ``thresholds`` (from the highest down) at which the precision of "bad" is still ``precision``."""
    best = thresholds[0]
    for threshold in thresholds:
        said = [p >= threshold for p in chances]
        flagged = sum(said)
        if flagged and sum(s and t for s, t in zip(said, truth)) / flagged >= precision:
            best = threshold
        else:
            break
    return best


def engine_fields(vault: Path, name: str, most: int = BACKGROUND) -> list[dict]:
    """What the offline engine writes in the fields ``name`` judges, as the gate reads it, over dry-run walks from
    WALKS of the notes of ``vault``: each text, and for a judgement of AGAINST_PASSAGES the passages and titles it is
    read against. At most ``most`` texts (BACKGROUND), shared out between the kinds of hypothesis, so a kind the walks
    seldom make (an answer) is read as often as the commonest."""
    import random

    from click.testing import CliRunner

    from walker.cli import main as walker
    from walker.walk import critic

    found: dict[str, tuple[str, ...]] = {}
    kinds: dict[str, str] = {}
    judge = critic.judge

    def spy(candidate, context):
        haystack = critic._haystack(candidate, context)
        for field in FIELDS[name]:
            value = getattr(candidate, field)
            for text in [value] if isinstance(value, str) else value:
                if name == "sensitive":  # the guard reads what is not quoted from the cited passages
                    key, passages = critic._unquoted(text, haystack), ()
                elif name in AGAINST_PASSAGES:  # as walk.facts reads a claim: no quotes, against passages and titles
                    titles = [context.corpus.notes[p].title for p in critic._ref_paths(candidate)
                              if p in context.corpus.notes]
                    key, passages = critic.QUOTED.sub(" ", text), (haystack, *titles)
                else:
                    key, passages = text, ()
                found[key] = passages
                kinds.setdefault(key, candidate.kind)
        return judge(candidate, context)

    critic.judge = spy
    try:
        notes = sorted(p for p in vault.rglob("*.md") if "walks" not in p.relative_to(vault).parts)
        for note in random.Random(0).sample(notes, min(WALKS, len(notes))):  # a walk from each: questions too
            CliRunner().invoke(walker, ["walk", str(vault), "--dry-run", "--seed-note", note.stem])
    finally:
        critic.judge = judge
    texts = sorted(found)
    random.Random(0).shuffle(texts)
    share = most // max(1, len(set(kinds.values())))
    taken = [text for kind in sorted(set(kinds.values())) for text in [t for t in texts if kinds[t] == kind][:share]]
    return [{"text": text, "passages": list(found[text])} for text in taken]


def vault_sentences(vault: Path, most: int | None = None) -> list[str]:
    """The sentences of a vault's notes, as the walk reads them: every one, or ``most`` drawn at random."""
    import random

    from walker.corpus.text import sentences
    from walker.workspace import Workspace

    ws = Workspace.open(vault)
    found = [s for paragraphs in ws.index.paragraphs.values() for p in paragraphs for s in sentences(p.text)]
    return found if most is None or len(found) <= most else random.Random(0).sample(found, most)


def field_sentences(paths: list[Path]) -> list[str]:
    """Every sentence of the labelled sets of the other judgements (``--fields``), as the guard splits them: what
    hypothesis fields look like, written by people, read as innocent by the sensitive guard. Their authors were asked
    for medicine-free, parenting-free subjects; a sentence the lexicon names an attribute in is left out all the same."""
    from walker import sensitive

    texts = [row["text"] for row in read(paths)]
    found = dict.fromkeys(s.strip() for t in texts for s in sensitive._sentences(t))
    return [s for s in found if s and sensitive.lexicon_inference(s) is None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=fitted.JUDGEMENTS)
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--background", type=Path, nargs="*", default=[], help="vaults read as good sentences")
    parser.add_argument("--fields", type=Path, nargs="*", default=[],
                        help="labelled sets of other judgements, whose sentences the sensitive guard reads as innocent")
    parser.add_argument("--scan", type=Path, nargs="*", default=[], help="vaults whose refused sentences are counted")
    parser.add_argument("--strengths", action="store_true", help="cross-validate each strength on the fit files")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    labelled = read(args.fit)
    background = [row for vault in args.background for row in engine_fields(vault, args.name)]
    if args.name == "sensitive":
        background += [{"text": t} for vault in args.background for t in vault_sentences(vault, VAULT_SENTENCES)]
        background += [{"text": t} for t in field_sentences(args.fields)]
    train = labelled + [{**row, "label": "good", "lang": "vault"} for row in background]
    vectors = DictVectorizer()
    x = vectors.fit_transform([fitted.reading(args.name, r["text"], r.get("passages") or ()) for r in train])
    y = [r["label"] in BAD for r in train]
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    strength = STRENGTHS[args.name]
    print(f"{args.name}: {len(labelled)} labelled items {dict(Counter(r['label'] for r in labelled))}, "
          f"{len(train) - len(labelled)} background sentences")
    threshold = 0.5
    for c in ((0.1, 0.3, 1.0, 3.0, 10.0, 30.0) if args.strengths else (strength,)):
        chances = cross_val_predict(LogisticRegression(C=c, max_iter=5000, class_weight="balanced"), x, y, cv=folds,
                                    method="predict_proba")[:, 1]
        if c == strength and args.name in PRECISION:
            threshold = lowest_threshold(chances, y, PRECISION[args.name])
            refused = sum(p >= threshold for p in chances[len(labelled):])
            print(f"threshold {threshold}: the lowest with cross-validated precision {PRECISION[args.name]:.0%} or more; "
                  f"{refused} of {len(train) - len(labelled)} background sentences refused")
        report(f"fit files, 5-fold cross-validated, C={c}", labelled, [p >= threshold for p in chances[: len(labelled)]])
    model = LogisticRegression(C=strength, max_iter=5000, class_weight="balanced").fit(x, y)
    names = vectors.get_feature_names_out()
    weights = {str(names[i]): round(float(w), 3) for i, w in enumerate(model.coef_[0]) if abs(w) >= SMALLEST}
    if args.write:
        data = {"judgement": args.name, "items": len(train), "strength": strength, "threshold": threshold,
                "bias": round(float(model.intercept_[0]), 3), "weights": weights}
        path = ROOT / "walker" / "models" / f"{args.name}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
        print(f"wrote {len(weights)} weights to {path.relative_to(ROOT)}")
        fitted._model.cache_clear()
    for path in args.check:
        rows = read([path])
        print(f"\ncheck {path} (written apart), {dict(Counter(r['label'] for r in rows))}")
        report("  the fitted model", rows, [fitted.is_bad(args.name, r["text"], r.get("passages") or ()) for r in rows])
        if args.name in AGAINST_PASSAGES:
            from walker.walk.facts import absent_facts
            from walker.words import normal

            report("  walker's reading (facts by their shape, then the model)", rows,
                   [absent_facts(r["text"], normal(" ".join(r["passages"])), set()) is not None for r in rows])
        if args.name == "sensitive":
            from walker import sensitive

            report("  the phrase lexicon alone", rows, [sensitive.lexicon_inference(r["text"]) is not None for r in rows])
            report("  walker's guard (either)", rows, [sensitive.sensitive_inference(r["text"]) is not None for r in rows])
    for vault in args.scan:
        found = vault_sentences(vault)
        refused = [t for t in found if fitted.is_bad(args.name, t)]
        print(f"\nscan {vault.name}: {len(refused)} of {len(found)} sentences refused")
        for text in refused[:8]:
            print(f"  {text[:110]}")


if __name__ == "__main__":
    main()
