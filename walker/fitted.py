"""Judgements fitted on labelled sentences: one logistic model per judgement, read from a JSON file.

Each judgement reads one field of a hypothesis and says how likely that field is bad:

- ``sensitive``: a sentence says or infers something about a person's health, mind, body, gender, age,
  origin, faith, sexuality, politics, family role or disability;
- ``unfalsifiable``: a claim says nothing anyone could check ("both point to a deeper unity");
- ``vague_situation``: an ``applies_when`` names no moment anyone could recognise ("whenever it comes up");
- ``vague_falsifier``: a ``disconfirm_if`` names no observation ("if later reflection suggests otherwise");
- ``refused_impact``: an ``impact_reason`` gives no reason ("hard to say, it could go either way");
- ``outside_fact``: a claim brings in what neither of its passages says (general knowledge, a proverb,
  a named method, the reader's earlier conclusion). It reads the claim's pieces that its passages lack. It is
  fitted and measured, and the gate does not use it: right on three items in four written apart, it refused
  most good paraphrases a person writes (``walk.facts`` finds outside facts by their shape instead);
- ``outside_source``: a claim leans on a source neither of its passages holds (an earlier conclusion, a review,
  a study, an expert, what everyone knows). It reads what the claim adds to its passages, whatever its length
  (``additions``).

The models are fitted by ``bench/judgement/fit.py`` on sentences in English and Chinese written for walker
(``tests/data/judgement/``) and checked once on sentences written apart (``bench/judgement/check/``; the
figures are in ``bench/README.md``). A model is data (weights of pieces), never code.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from walker.turns import letter_runs, pieces
from walker.words import stem, words, zipf

JUDGEMENTS = ("sensitive", "unfalsifiable", "vague_situation", "vague_falsifier", "refused_impact", "outside_fact",
              "outside_source")
SHAPED = frozenset(JUDGEMENTS) - {"sensitive"}  # judgements of how specific a text is: they read its shape too
NOVEL = "<novel>"  # the share of a claim's pieces its passages lack (outside_fact, outside_source)
SPECIFIC = "<specific share>"
_NAME = re.compile(r"(?<=[\w,;] )[A-Z][\w'-]+")  # a capitalised word that does not open a sentence
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
MAX_CHARS = 4000  # a field is read this far


def features(text: str, passages: Sequence[str] = (), shaped: bool = True) -> dict[str, float]:
    """What a model reads of a text:

    - its pieces (``walker.turns``): words and pairs of words, and runs of three to five letters inside each
      word, so a word the fit never saw is read by its parts; in Chinese, runs of one to three characters;
    - when ``shaped``, its shape: how many words it has, and how many of them are rare, middling or common in the language
      (wordfreq): a situation anyone could recognise, or an observation that would show a claim wrong, names
      specific things, and specific things have rare names, whatever the subject.

    Given passages, only what they lack: the pieces, the shape of the words no passage uses in any form, and
    the share of the text that is."""
    text = text[:MAX_CHARS]
    found = pieces(text) | letter_runs(text)
    if not shaped:
        return found
    said = words(text)
    if not passages:
        return found | _shape(said)
    known: set[str] = set()
    stems: set[str] = set()
    for passage in passages:
        known.update(pieces(passage[:MAX_CHARS]) | letter_runs(passage[:MAX_CHARS]))
        stems.update(stem(w) for w in words(passage[:MAX_CHARS]))
    novel = {piece: 1.0 for piece in found if piece not in known and not piece.startswith("<")}
    held = [piece for piece in found if not piece.startswith("<")]
    novel[NOVEL] = len(novel) / len(held) if held else 0.0
    lowered = " ".join(passages).lower()
    names = [n for n in _NAME.findall(text) if n.lower() not in lowered]
    numbers = [n for n in _NUMBER.findall(text) if n not in lowered]
    return novel | _shape([w for w in said if stem(w) not in stems]) | {"<names>": math.log1p(len(names)),
                                                                         "<numbers>": math.log1p(len(numbers))}


def additions(text: str, passages: Sequence[str]) -> dict[str, float]:
    """What a claim adds to its passages, whatever its length: the pieces no passage holds, weighing one together (a
    unit vector), the share of the claim's pieces they are, and the share of its added words that are specific. Read
    by their counts, a long faithful paraphrase reads as bad: each word it adds is a little more evidence. Numbers
    are left to ``walk.facts``, which reckons with the passages' own ("leaving 55 of the 180")."""
    found = features(text, passages)
    added = [piece for piece in found if not piece.startswith("<") and not any(c.isdigit() for c in piece)]
    weight = 1 / math.sqrt(len(added)) if added else 0.0
    return {piece: weight for piece in added} | {key: found[key] for key in (NOVEL, SPECIFIC) if key in found}


# A falsifier is a condition by nature: its leading "if" tells nothing of whether it names an observation (people
# writing examples open good ones with the observation itself, bad ones with "if"; fields always open with "if").
_CONDITION = re.compile(r"^\s*(?:(?:if|should|in case|unless)\b|如果|若是|若|假如|要是|倘若|万一|萬一)[\s,，]*", re.IGNORECASE)


def reading(name: str, text: str, passages: Sequence[str] = ()) -> dict[str, float]:
    """What the model of ``name`` reads of ``text`` (and of the passages a claim is judged against)."""
    if name == "outside_source":
        return additions(text, passages)
    if name == "vague_falsifier":
        text = _CONDITION.sub("", text, count=1)
    return features(text, passages, name in SHAPED)


def _shape(said: list[str]) -> dict[str, float]:
    bands = [zipf(w) for w in said]
    return {"<words>": math.log1p(len(said)), "<rare>": math.log1p(sum(1 for z in bands if z < 3.5)),
            "<middling>": math.log1p(sum(1 for z in bands if 3.5 <= z < 5)),
            "<common>": math.log1p(sum(1 for z in bands if z >= 5)),
            SPECIFIC: sum(1 for z in bands if z < 4) / len(said) if said else 0.0}


def chance(name: str, text: str, passages: Sequence[str] = ()) -> float | None:
    """How likely the fitted model of ``name`` finds ``text`` bad, or None when walker has no such model."""
    model = _model(name)
    if not model:
        return None
    weights = model["weights"]
    total = model["bias"] + sum(value * weights.get(piece, 0.0) for piece, value in reading(name, text, passages).items())
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, total))))


def bad_chance(name: str, text: str, passages: Sequence[str] = ()) -> float | None:
    """How likely ``text`` is bad, when the model of ``name`` reads it as bad at its threshold (even odds, since its
    classes were weighed equally when fitted, unless the fit chose a lower one for a judgement that errs on the side
    of refusing); None when it does not, or when walker has no such model."""
    found = chance(name, text, passages)
    return found if found is not None and found >= _model(name).get("threshold", 0.5) else None


def is_bad(name: str, text: str, passages: Sequence[str] = ()) -> bool:
    """The model of ``name`` reads ``text`` as bad at its threshold."""
    return bad_chance(name, text, passages) is not None


@lru_cache(maxsize=None)
def _model(name: str) -> dict[str, Any]:
    if name not in JUDGEMENTS:
        raise KeyError(f"no judgement named {name!r}")
    try:
        return json.loads(resources.files("walker").joinpath("models", f"{name}.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
