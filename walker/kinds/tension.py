"""Tension: two passages on one subject, one advising against what the other does."""

from __future__ import annotations

from walker.kinds.base import Kind, Pair, opposed


def fits(pair: Pair) -> bool:
    return pair.same_concept and opposed(pair.text_a, pair.text_b, pair.thread.terms) and not pair.mention


def disconfirmed(pair: Pair) -> bool:
    return not fits(pair)


KIND = Kind(
    name="tension",
    label="Tension",
    plural="Tensions",
    meaning="two passages on one subject, one denying what the other says",
    rank=30,
    fits=fits,
    disconfirmed=disconfirmed,
    wording={
        "en": {
            "claim": "On {thread}, {a} says “{text_a}”, while {b} says “{text_b}”: one says not to do what the "
                     "other does, and neither says when each holds.",
            "impact": "rewrite",
            "impact_reason": "if both passages hold, {a} or {b} needs a condition that says when each applies",
            "applies_when": ("Deciding what to do about {thread}, with advice from more than one note.",
                             "Revising what the vault says about {about_b}."),
            "never_applies_when": ("Working inside {about_a} alone, where the other passage's conditions do not hold.",),
            "disconfirm_if": ("Both passages affirm {thread}, or both deny it: the disagreement is only in the "
                              "wording.",
                              "The two passages speak of {thread} under conditions that never meet."),
            "why_it_matters": "Two notes that disagree without knowing it give different advice depending on which "
                              "one is opened first.",
        },
        "zh": {
            "claim": "关于{thread}，{a}说“{text_a}”，而{b}说“{text_b}”：一边叫人别做另一边在做的事，两边都没说各自何时成立。",
            "impact": "rewrite",
            "impact_reason": "如果两段话都成立，{a}或{b}就需要写明各自适用的条件",
            "applies_when": ("要就{thread}做决定、手头有不止一篇笔记的建议时。",
                             "修改笔记库里关于{about_b}的内容时。"),
            "never_applies_when": ("只在{about_a}范围内工作、另一段话的条件并不成立时。",),
            "disconfirm_if": ("两段话对{thread}的态度其实一致，分歧只在措辞上。",
                              "两段话谈论{thread}的前提条件从来不会同时出现。"),
            "why_it_matters": "两篇互相矛盾却不自知的笔记，会因为先打开哪一篇而给出不同的建议。",
        },
    },
    confirmed={
        "en": ("tension", "{a} and {b} disagree: each needs to say when it holds."),
        "zh": ("矛盾", "{a}和{b}说法相反：两篇都需要写明各自何时成立。"),
    },
)
