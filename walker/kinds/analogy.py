"""Analogy: one mechanism in two domains, joined by words both use in one sense."""

from __future__ import annotations

from walker.kinds.base import APART, Kind, Pair


def fits(pair: Pair) -> bool:
    # A passage that names the other note draws the analogy itself ("as in Acid"): what is new is the link.
    return pair.domains == APART and not pair.same_concept and not pair.mention


def disconfirmed(pair: Pair) -> bool:
    return not fits(pair)


KIND = Kind(
    name="analogy",
    label="Analogy",
    plural="Analogies",
    meaning="one mechanism in different domains of the vault",
    rank=40,
    fits=fits,
    disconfirmed=disconfirmed,
    wording={
        "en": {
            "claim": "{A} and {b} describe one mechanism, {thread}, in two fields: “{text_a}” and “{text_b}”",
            "impact": "add",
            "impact_reason": "{a} and {b} sit in different subjects and are not linked, so the bridge adds what "
                             "neither has",
            "applies_when": ("Working out how {about_a} behaves, and open to a mechanism from another subject.",
                             "Stuck on {about_b} and open to how {about_a} handles the same thing."),
            "never_applies_when": ("Following the steps for {about_b} to get something done today, where an "
                                   "analogy would only distract.",),
            "disconfirm_if": ("Read side by side, {thread} mean different things in {a} and in {b}: the words "
                              "match, the mechanisms do not.",
                              "The passage in {b} depends on a condition that {a} does not share."),
            "why_it_matters": "If {thread} work the same way in both, what the vault knows about {a} is a "
                              "ready-made question to ask of {b}.",
        },
        "zh": {
            "claim": "{a}和{b}在两个领域里描述同一种机制，{thread}：“{text_a}”与“{text_b}”",
            "impact": "add",
            "impact_reason": "{a}和{b}属于不同的主题，彼此没有链接，这座桥能补上两边都没有的东西",
            "applies_when": ("琢磨{about_a}如何运作、愿意借鉴另一个领域的机制时。",
                             "卡在{about_b}上，想看看{about_a}如何处理同样的问题时。"),
            "never_applies_when": ("照着步骤完成今天关于{about_b}的事情时，类比只会让人分心。",),
            "disconfirm_if": ("把两段并排读，{thread}在{a}和{b}里意思不同：字面相同，机制不同。",
                              "{b}里的这段话依赖一个{a}并不具备的条件。"),
            "why_it_matters": "如果{thread}在两边的作用方式相同，那么笔记库对{a}的了解，就是可以拿去问{b}的现成问题。",
        },
    },
    confirmed={
        "en": ("analogy", "{a} and {b} describe one mechanism in two fields."),
        "zh": ("类比", "{a}和{b}在两个领域里描述同一种机制。"),
    },
)
