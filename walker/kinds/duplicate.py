"""Duplicate: two notes that cover one thing, in mostly the same words: one should be merged into the
other (the record's ``merge_into``)."""

from __future__ import annotations

import re

from walker.kinds.base import Kind, Pair
from walker.words import stems

_CJK_NUMERAL = "一二三四五六七八九十百千零〇两"
# A number in a title: a run of digits, a Chinese numeral alone in brackets ("(二)"), or one after 第 ("第三章").
_NUMBER = re.compile(rf"\d+|[(（【\[]\s*([{_CJK_NUMERAL}]+)\s*[)）】\]]|第\s*([{_CJK_NUMERAL}]+|\d+)")


def one_name(a: str, b: str) -> bool:
    """Two titles that name one thing: every word of one is a word of the other, and they carry the same numbers
    ("Brining" and "Dry Brining Meat"). Notes on two chapters, two lessons or two body parts of one course share
    their words, not their names ("Programación Lineal" and "Simplex", 胸部训练 and 腿部训练); a number marks one part
    of a series ("Reading plan year 3" and "year 6", an article and its "(二)")."""
    first, second = stems(a), stems(b)
    return bool(first and second) and (first <= second or second <= first) and _numbers(a) == _numbers(b)


def _numbers(title: str) -> frozenset[str]:
    found = (m.group(1) or m.group(2) or m.group(0) for m in _NUMBER.finditer(title))
    return frozenset(n.lstrip("0") or "0" if n.isdigit() else n for n in found)  # "03" is 3 (int() refuses 5,000 digits)


def fits(pair: Pair) -> bool:
    return pair.duplicate


def disconfirmed(pair: Pair) -> bool:
    return not pair.duplicate


KIND = Kind(
    name="duplicate",
    label="Duplicate",
    plural="Duplicates",
    meaning="two notes on one thing, to merge into one",
    rank=20,
    fits=fits,
    disconfirmed=disconfirmed,
    wording={
        "en": {
            "claim": "{A} and {b} are two notes on one thing, {thread}, in mostly the same words: merge {other} "
                     "into {into}, the fuller one. “{text_a}” and “{text_b}”",
            "impact": "rewrite",
            "impact_reason": "two notes on one thing split what the vault knows of it; {into} says more of it",
            "applies_when": ("Tidying the notes about {about_a}.",
                             "Adding something new about {thread}, with two notes to choose from."),
            "never_applies_when": ("Keeping {a} and {b} apart on purpose, as two stages of one piece of work.",),
            "disconfirm_if": ("Read in full, {a} and {b} share their words about {thread} but say different things.",
                              "{A} and {b} are already joined by a link, or one of them is gone."),
            "why_it_matters": "A second note on one thing is found by half the searches and updated half the time; "
                              "the two drift apart.",
        },
        "zh": {
            "claim": "{a}和{b}是讲同一件事（{thread}）的两篇笔记，用词大体相同：把{other}合并进内容更全的{into}。“{text_a}”与“{text_b}”",
            "impact": "rewrite",
            "impact_reason": "同一件事分成两篇笔记，笔记库对它的了解也被拆开了，而{into}写得更多",
            "applies_when": ("整理关于{about_a}的笔记时。",
                             "要补充关于{thread}的新内容、却有两篇笔记可选时。"),
            "never_applies_when": ("有意把{a}和{b}分开、作为同一项工作的两个阶段时。",),
            "disconfirm_if": ("通读全文后发现，{a}和{b}虽然在{thread}上用词相同，说的却是不同的事。",
                              "{a}和{b}之间已有链接，或其中一篇已经不在了。"),
            "why_it_matters": "同一件事的第二篇笔记只会被一半的搜索找到、一半的时候被更新，两篇会渐渐走样。",
        },
    },
    confirmed={
        "en": ("duplicate", "{a} and {b} are one note written twice: merge {other} into {into}."),
        "zh": ("重复", "{a}和{b}是同一篇笔记写了两遍：把{other}合并进{into}。"),
    },
)
