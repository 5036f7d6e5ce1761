"""One score per candidate: the probability that a reader finds the pair useful, from its evidence.

A logistic model over the signals of ``walker.walk.evidence`` (two: one with the sentence-embedding
model's reading of the passages, where it is installed, and one without), fitted by ``bench/quality/fit.py`` on
labelled pairs of the development vaults only and checked on vaults no rule was chosen on
(``bench/README.md``, walk quality). A walk keeps a candidate whose score reaches its model's floor
(``floor``): even odds (``KEEP``), where "useful" becomes the likelier answer, unless the model was fitted with a
floor of its own (``fit.py --floor``: the lowest score at which, each vault scored by a fit without it, at most one
pair in ten was read wrong).
"""

from __future__ import annotations

import math
from dataclasses import asdict

from walker.walk.evidence import SIGNALS, Evidence

KEEP = 0.5

# The signals of each model: "meaning" where the sentence-embedding model is installed (walker.meaning), which
# reads what the latent axes, the thread's specificity and its salience read, better; "plain" without it.
MODEL_SIGNALS = {
    "plain": tuple(name for name in SIGNALS if name != "meaning"),
    "meaning": ("meaning", "topic", "joined", "side_by_side", "mentioned", "apart", "everyday"),
}

# MODEL BEGIN: written by bench/quality/fit.py --write (bench/README.md has its output); signals centred and scaled.
MODELS: dict[str, dict[str, dict[str, float]]] = {"plain": {
    "mean": {"specific": 0.7571, "salience": 0.7157, "context": 0.3165, "topic": 0.4048, "phrase": 0.2109, "joined": 0.2045, "side_by_side": 0.06709, "mentioned": 0.05431, "apart": 0.2239, "question": 0.05112, "coherence": 0.613, "everyday": 3.609},
    "scale": {"specific": 0.1923, "salience": 0.2016, "context": 0.2442, "topic": 0.2379, "phrase": 0.4079, "joined": 0.4033, "side_by_side": 0.2502, "mentioned": 0.2266, "apart": 0.3024, "question": 0.2202, "coherence": 0.1084, "everyday": 1.079},
    "weight": {"specific": -0.1465, "salience": 0.3035, "context": 0.2399, "topic": 0.7138, "phrase": 0.2235, "joined": -0.3274, "side_by_side": -0.2768, "mentioned": 0.1407, "apart": 0.3684, "question": 0.05142, "coherence": 0.1261, "everyday": -0.4671},
    "bias": {"bias": -1.802},
}, "meaning": {
    "mean": {"meaning": 0.4169, "topic": 0.421, "joined": 0.2276, "side_by_side": 0.07463, "mentioned": 0.0597, "apart": 0.2209, "everyday": 3.725},
    "scale": {"meaning": 0.1822, "topic": 0.2396, "joined": 0.4193, "side_by_side": 0.2628, "mentioned": 0.2369, "apart": 0.3041, "everyday": 0.8645},
    "weight": {"meaning": 0.4981, "topic": 0.7756, "joined": -0.4668, "side_by_side": -0.2042, "mentioned": 0.107, "apart": 0.3296, "everyday": -0.3757},
    "bias": {"bias": -1.745},
}}
# MODEL END

# How a person reads each signal's value, low and high, in each language the walk writes in: a signal counts
# against a pair from whichever side of its mean the fitted weight says (rare shared words count against it when
# the fit gave them a weight below zero).
_READ: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "specific": ("the shared words are common in the vault or in these notes' genre",
                     "the shared words are rare even in these notes' genre, and pairs like that were seldom useful"),
        "salience": ("neither note is much about the shared words", "both notes are mostly about the shared words"),
        "context": ("the passages differ in meaning once the shared words are left out",
                    "the passages say much the same once the shared words are left out"),
        "topic": ("the notes differ in meaning once the shared words are left out",
                  "the notes are about one thing even without the shared words"),
        "phrase": ("the passages share no phrase, only single words", "the passages share a phrase"),
        "joined": ("no note links both", "a note both link to already joins them"),
        "side_by_side": ("no note lists them together", "a note already lists them side by side"),
        "mentioned": ("neither note names the other", "one note names the other without linking it"),
        "apart": ("the notes sit in folders of one subject", "the notes sit in subjects far apart"),
        "question": ("neither passage asks a question", "one passage asks a question"),
        "coherence": ("the notes that use the shared words are about unrelated things",
                      "the notes that use the shared words are all about one thing"),
        "meaning": ("the passages say different things", "the passages say nearly the same thing"),
        "everyday": ("the shared words are rare in everyday language", "even the rarest shared word is an everyday word"),
    },
    "zh": {
        "specific": ("共同的词在整个笔记库或这类笔记里很常见", "共同的词即使在这类笔记里也很少见，这样的配对很少有用"),
        "salience": ("两篇笔记都不怎么谈这些共同的词", "两篇笔记几乎都在谈这些共同的词"),
        "context": ("去掉共同的词以后，两段话的意思相差很远", "去掉共同的词以后，两段话说的差不多"),
        "topic": ("去掉共同的词以后，两篇笔记的意思相差很远", "即使去掉共同的词，两篇笔记也在谈同一件事"),
        "phrase": ("两段话只共用单个的词，没有共同的短语", "两段话共用一个短语"),
        "joined": ("没有笔记同时链接两者", "已经有一篇两者都链接的笔记把它们连在一起"),
        "side_by_side": ("没有笔记把它们列在一起", "已经有一篇笔记把它们并排列在一起"),
        "mentioned": ("两篇笔记都没有提到对方", "一篇笔记提到了另一篇的标题，却没有链接"),
        "apart": ("两篇笔记在同一主题的文件夹里", "两篇笔记的主题相距很远"),
        "question": ("两段话都没有提问", "其中一段话在提问"),
        "coherence": ("用到这些共同词的笔记各谈各的", "用到这些共同词的笔记都在谈同一件事"),
        "meaning": ("两段话说的是不同的事", "两段话说的几乎是同一件事"),
        "everyday": ("共同的词在日常语言里很少见", "连最少见的共同词也是日常用语"),
    },
}


def model_name(evidence: Evidence) -> str:
    """The model for what the evidence holds: with the passages' meaning where it was measured (and fitted)."""
    return "meaning" if evidence.meaning is not None and "meaning" in MODELS else "plain"


def features(evidence: Evidence, model: str | None = None) -> dict[str, float]:
    """The signals a model reads (the evidence's own model by default): the thread's specificity on a log scale,
    the rest as measured."""
    values = asdict(evidence)
    values["specific"] = math.log1p(evidence.specific)
    return {name: values[name] for name in MODEL_SIGNALS[model or model_name(evidence)]}


def _terms(evidence: Evidence) -> dict[str, float]:
    model = MODELS[model_name(evidence)]
    return {name: model["weight"][name] * (value - model["mean"][name]) / model["scale"][name]
            for name, value in features(evidence).items() if name in model["weight"]}  # (a signal it was not fitted on: none)


def score(evidence: Evidence) -> float:
    total = MODELS[model_name(evidence)]["bias"]["bias"] + sum(_terms(evidence).values())
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, total))))


def floor(evidence: Evidence) -> float:
    """The least score a walk keeps, for the model that reads this evidence."""
    return MODELS[model_name(evidence)].get("keep", {}).get("keep", KEEP)


def explain(evidence: Evidence, language: str = "en") -> str:
    """The two signals that count most against the pair, in words of ``language`` ("en" or "zh")."""
    model, values = MODELS[model_name(evidence)], features(evidence)
    terms = sorted(_terms(evidence).items(), key=lambda kv: kv[1])
    read = _READ[language]
    against = [read[name][1 if values[name] > model["mean"][name] else 0] for name, value in terms[:2] if value < 0]
    return ("；" if language == "zh" else "; ").join(against) or \
        ("没有哪个信号足够强" if language == "zh" else "no signal is strong enough")
