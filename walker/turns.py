"""What kind of moment a conversation turn is, in English or Chinese, and why.

- **executive**: something is to be done now: run, fix, implement; a pasted error, code or a command;
- **convergent**: a choice or a decision is being made, often against a deadline ("which one",
  "should I", "we ship tomorrow", "选哪个", "要不要");
- **exploratory**: the person is wondering, brainstorming or thinking aloud ("what if", "I've been
  thinking", "聊聊", "有没有别的角度").

A side note from the walks helps only in the last kind: in the other two it is a distraction.

Pasted code or an error is executive by its shape. Anything else is read by a logistic model over the turn's
pieces (its words and pairs of words; in Chinese, which has no spaces, its runs of one to three characters),
fitted on labelled turns by ``bench/turns/fit.py`` and checked on turns it never saw. Doing or deciding beats
wondering: a turn is executive or convergent (the likelier of the two) when the model finds either likelier than
chance (one in three); it is exploratory only when that is likelier than not. Otherwise it is ``unclear``, and
unclear is "not now". Plain Python, no numpy: a hook reads every turn with it.

Read deeply (``deep=True``, where ``walker[meaning]`` is installed), a turn is read by a second model over its
pieces and its meaning (the all-MiniLM-L6-v2 embedding, ``walker.meaning``; a Chinese turn as the English glosses
of its words, ``walker.glosses``), fitted by the same script: "what else might cause this?" around a pasted task
reads as a task by what it means, not by its words. It costs the model's load and an embedding (about 0.15 s, and
NumPy; a Chinese turn a second or two more, for the dictionaries), so surfacing asks for it only when a record would
be shown beside the turn unasked. Japanese has no deep reading.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

from walker.glosses import english_gloss
from walker.meaning import model_folder, vectors
from walker.words import has_cjk, has_kana

EXECUTIVE, CONVERGENT, EXPLORATORY, UNCLEAR = "executive", "convergent", "exploratory", "unclear"
KINDS = (EXECUTIVE, CONVERGENT, EXPLORATORY)
_WHAT = {EXECUTIVE: "a task", CONVERGENT: "a choice or a decision", EXPLORATORY: "wondering aloud"}

_ERROR_OR_CODE = re.compile(
    r"traceback \(most recent call last\)|^\s+at [\w.$<>]+\(|\b\w+(?:error|exception)\b|exit (?:code|status) \d+|"
    r"\.(?:py|js|ts|go|rs|java|rb|c|cpp):\d+|^\s*\$ |```|报错|错误信息",
    re.IGNORECASE | re.MULTILINE,
)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
MAX_CHARS = 4000  # a turn is read this far: a pasted page says what kind of turn it is in its first lines


class Turn(NamedTuple):
    kind: str
    reason: str


def pieces(text: str) -> dict[str, float]:
    """The turn as the model reads it: which pieces it holds."""
    lowered = text[:MAX_CHARS].lower()
    found: dict[str, float] = {}
    for run in _CJK_RUN.findall(lowered):
        for size in (1, 2, 3):
            for at in range(len(run) - size + 1):
                found[run[at : at + size]] = 1.0
    latin = _WORD.findall(_CJK_RUN.sub(" ", lowered))
    for word in latin:
        found[word] = 1.0
    for first, second in zip(latin, latin[1:]):
        found[f"{first} {second}"] = 1.0
    if text.rstrip().endswith(("?", "？")):
        found["<asks>"] = 1.0
    return found


def letter_runs(text: str) -> dict[str, float]:
    """Runs of three to five letters inside each word of an alphabetic script ("#medic" in "medication" and
    "medicine"): a word never seen is read by its parts. (Tried for turns too: better cross-validated, worse on
    turns written apart, so the turn model reads ``pieces`` alone.)"""
    found: dict[str, float] = {}
    for word in _WORD.findall(_CJK_RUN.sub(" ", text[:MAX_CHARS].lower())):
        marked = f"<{word}>"
        for size in (3, 4, 5):
            for at in range(len(marked) - size + 1):
                found["#" + marked[at : at + size]] = 1.0
    return found


def classify_turn(text: str, deep: bool = False) -> Turn:
    """The kind of moment a turn is, and the words that say so; ``deep``: by its meaning too, where it can be."""
    code_lines = sum(1 for line in text[:MAX_CHARS].splitlines()
                     if re.search(r"[;{}]\s*$|^\s{4,}\S|^\s*(?:def|class|import|return) ", line))
    if code_lines >= 3:
        return Turn(EXECUTIVE, "the turn is code")
    if shape := _ERROR_OR_CODE.search(text[:MAX_CHARS]):
        return Turn(EXECUTIVE, f"an error or code: “{shape.group(0).strip()}”")
    held = pieces(text)
    deeply = _deep_chances(text, held) if deep else None
    found = deeply or chances(held)
    kind = decide(found)
    if kind == UNCLEAR:
        return Turn(UNCLEAR, "nothing says whether this is a task, a decision or a thought")
    weights = ((deeply and _meaning_model()) or _model())["weights"]  # the words of the model that decided
    telling = sorted((p for p in held if not p.startswith("<") and len(p) > 1),
                     key=lambda p: -(weights[kind].get(p, 0.0) - max(weights[k].get(p, 0.0) for k in KINDS if k != kind)))
    said = ", ".join(f"“{p}”" for p in telling[:2])
    return Turn(kind, f"{_WHAT[kind]} ({found[kind]:.0%}): {said}" if said else f"{_WHAT[kind]} ({found[kind]:.0%})")


def request(text: str) -> Turn | None:
    """The text asks for a decision, or is a task by its shape (code, an error, a file and line), else None.

    What a walk may start from: a statement or a wondering. The fitted model's "a task" is not used here: it
    was fitted on conversation turns, where a plain statement is most often an instruction, and a seed is a
    statement by nature."""
    found = classify_turn(text)
    return found if found.kind == CONVERGENT or shaped_task(found) else None


def shaped_task(turn: Turn) -> bool:
    """Whether the turn is a task by its shape (code, an error, a file and line), not by its words: what no
    request for another angle turns into wondering ("what else might cause this KeyError in a.py:12?")."""
    return turn.kind == EXECUTIVE and not turn.reason.startswith(_WHAT[EXECUTIVE])


def chances(held: dict[str, float]) -> dict[str, float]:
    """How likely the turn is each kind, as the fitted model reads its pieces."""
    return _softmax(_scores(_model(), held))


def _scores(model: dict[str, Any], held: dict[str, float]) -> dict[str, float]:
    """Each kind's logit from a model's bias and the weights of the pieces the turn holds."""
    return {kind: model["bias"][kind] + sum(model["weights"][kind].get(p, 0.0) for p in held) for kind in KINDS}


def _softmax(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values())
    total = sum(math.exp(s - top) for s in scores.values())
    return {kind: math.exp(s - top) / total for kind, s in scores.items()}


def decide(found: dict[str, float]) -> str:
    """Doing or deciding beats wondering (the likelier of the two, once either is as likely as a guess); wondering
    must be likelier than not."""
    if max(found[EXECUTIVE], found[CONVERGENT]) >= 1 / len(KINDS):
        return EXECUTIVE if found[EXECUTIVE] >= found[CONVERGENT] else CONVERGENT
    return EXPLORATORY if found[EXPLORATORY] >= 0.5 else UNCLEAR


def _deep_chances(text: str, held: dict[str, float]) -> dict[str, float] | None:
    """How likely the turn is each kind, by its pieces and its meaning; None for a turn in Japanese, or where the
    model is not installed."""
    if has_kana(text) or model_folder() is None or (model := _meaning_model()) is None:
        return None
    found = vectors([shown]) if (shown := meaning_text(text)) else None
    if found is None or len(found[0]) != len(model["axes"][EXECUTIVE]):
        return None
    (vector,) = found
    return _softmax({kind: score + model["axis_scale"] * float(vector @ model["axes"][kind])
                     for kind, score in _scores(model, held).items()})


def meaning_text(text: str) -> str | None:
    """What the encoder reads of a turn: an English one as written, a Chinese one as the English glosses of its words
    (None where the dictionary is not installed)."""
    return english_gloss(text[:MAX_CHARS]) if has_cjk(text) else text[:MAX_CHARS]


@lru_cache(maxsize=1)
def _meaning_model() -> dict[str, Any] | None:
    """The deep reading's weights (bench/turns/fit.py --meaning), or None when the package holds none."""
    path = resources.files("walker").joinpath("models", MEANING_MODEL_FILE)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


@lru_cache(maxsize=1)
def _model() -> dict[str, Any]:
    """The fitted weights, a JSON file in the package (written by bench/turns/fit.py): data, never code."""
    return json.loads(resources.files("walker").joinpath("models", MODEL_FILE).read_text(encoding="utf-8"))


MODEL_FILE = "turns.json"
MEANING_MODEL_FILE = "turns_meaning.json"
