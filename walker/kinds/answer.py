"""Answer: an open question in one note, and a passage elsewhere that speaks to it."""

from __future__ import annotations

from walker.kinds.base import THREAD_WORDS, Kind, Pair, content_stems, is_question


def fits(pair: Pair) -> bool:
    return is_question(pair.text_a) and not is_question(pair.text_b) and not pair.mention  # (one names the other)


def disconfirmed(pair: Pair) -> bool:
    return not is_question(pair.text_a) or len(content_stems(pair.text_a) & content_stems(pair.text_b)) < THREAD_WORDS


KIND = Kind(
    name="answer",
    label="Answer",
    plural="Answers",
    meaning="an open question, and a passage elsewhere that may answer it",
    rank=10,
    fits=fits,
    disconfirmed=disconfirmed,
    wording={
        "en": {
            "claim": "The question {a} asks, “{text_a}”, has an answer about {thread} in {b}: “{text_b}”",
            "impact": "add",
            "impact_reason": "the question in {a} has no answer linked to it; {b} may hold one",
            "applies_when": ("Coming back to the open question about {about_a}.",
                             "Reading about {about_b} with an unanswered question in mind."),
            "never_applies_when": ("Reading {about_b} for its own sake, with no question about {thread} in mind.",),
            "disconfirm_if": ("The passage in {b} does not speak of {thread}, the subject of the question in {a}.",
                              "Read in full, {b} answers a different question about {thread} than the one {a} asks."),
            "why_it_matters": "An open question stays open until someone sees that the vault already holds a "
                              "reply; the reply in {b} is {thread}-shaped.",
        },
        "zh": {
            "claim": "{a}问道：“{text_a}”{b}里有一个关于{thread}的回答：“{text_b}”",
            "impact": "add",
            "impact_reason": "{a}里的问题还没有链接到任何答案，{b}可能就是答案",
            "applies_when": ("回到关于{about_a}的那个悬而未决的问题时。",
                             "带着未解决的问题阅读关于{about_b}的内容时。"),
            "never_applies_when": ("只是为了{about_b}本身而阅读、心里并没有关于{thread}的问题时。",),
            "disconfirm_if": ("{b}里的这段话并没有谈到{thread}，而那正是{a}提问的对象。",
                              "通读全文后发现，{b}回答的是另一个关于{thread}的问题，而不是{a}问的那个。"),
            "why_it_matters": "一个问题会一直悬着，直到有人发现笔记库里早已有了回答；{b}里的这段话正好对得上{thread}。",
        },
    },
    confirmed={
        "en": ("answer", "{b} answers the question in {a}."),
        "zh": ("回答", "{b}回答了{a}里的问题。"),
    },
)
