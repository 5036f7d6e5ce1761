"""How the walk decides a pair's kind and words its record, from the kinds of ``walker.kinds`` (one module each:
missing link, tension, answer, analogy, duplicate).

The kind only says what shape a pair has; whether it is worth a reader's time is the score's decision
(walk/scorer.py), from the evidence the vault gives (walk/evidence.py). Every kind words its claim as the
relation between the two passages, quotes both, says when it applies from what the passages are about (their
key phrases, never the titles alone), and names in ``disconfirm_if`` an observation its own test can check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from walker.daily import is_daily
from walker.kinds import KINDS, named
from walker.kinds.base import THREAD_WORDS, Pair
from walker.similarity import TextIndex
from walker.walk.sense import surface_forms
from walker.words import PLAIN_WORDS, is_chinese, phrase, tokens

SAME_CONCEPT = 0.5  # notes this close in meaning, their thread left out, share a subject: not an analogy...
OTHER_FOLDER_CONCEPT = 0.75  # ...and this close when they sit in different top-level folders
DOMAIN_APART = 0.3  # folders whose subjects are less close than this are two domains (similarity.domain_closeness)
_BREAK = re.compile(r"[,;:()\[\]{}<>|/\"“”«».!?…—–，。；：、（）【】「」『』《》！？]")  # what ends a clause


def classify(pair: Pair) -> str | None:
    """The shape a pair has (the first kind, by rank, whose test it passes), or None when it has none: fewer than
    two shared words, or one text pasted twice."""
    if sum(len(t.split()) for t in pair.thread.terms) < THREAD_WORDS or _same_words(pair.text_a, pair.text_b):
        return None
    return next((name for name, kind in KINDS.items() if kind.fits(pair)), None)


def _same_words(a: str, b: str) -> bool:
    return re.findall(r"\w+", a.lower()) == re.findall(r"\w+", b.lower())


def disconfirmed(kind: str, pair: Pair) -> bool:
    """Whether the observation a kind's ``disconfirm_if`` names holds for this pair."""
    return named(kind).disconfirmed(pair)


def key_phrases(text: str, index: TextIndex, limit: int = 2) -> list[str]:
    """What a passage is about, in its own words: its rarest runs of one or two content words."""
    vocabulary = index.vocabulary()
    scored: dict[str, float] = {}
    for clause in _BREAK.split(text):  # "overshoot, oscillation" lists two things: a phrase stays within a clause
        found = tokens(clause)
        for at, word in enumerate(found):
            if word not in vocabulary or word in PLAIN_WORDS:
                continue
            scored.setdefault(word, index.weight(word))
            if at + 1 < len(found) and found[at + 1] in vocabulary and found[at + 1] not in PLAIN_WORDS:
                scored.setdefault(f"{word} {found[at + 1]}", index.weight(word) + index.weight(found[at + 1]))
    chosen: list[str] = []
    for run, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0])):
        if not any(set(run.split()) & set(c.split()) for c in chosen):
            chosen.append(run)
        if len(chosen) == limit:
            break
    return [phrase(c.split()) for c in chosen]


@dataclass(frozen=True)
class Wording:
    """A kind's words for one pair: everything a record says besides refs and scores."""

    claim: str
    impact: str
    impact_reason: str
    applies_when: tuple[str, ...]
    never_applies_when: tuple[str, ...]
    disconfirm_if: tuple[str, ...]
    why_it_matters: str


def word(kind: str, pair: Pair, index: TextIndex, merge_into_first: bool = True) -> Wording:
    """A kind's wording, in the notes' own language (its module's templates); ``merge_into_first``: of two
    duplicates, the first note is the fuller one."""
    chinese = is_chinese(pair.text_a) and is_chinese(pair.text_b)
    listed = _words_of_zh if chinese else words_of
    thread = listed(surface_forms(pair.text_a, pair.thread.terms[:3]))

    def about(text: str) -> str:
        """What a passage is about: the thread as it writes it, and its own strongest phrase."""
        own = surface_forms(text, pair.thread.terms[:2])
        return listed(list(dict.fromkeys(own + [p for p in key_phrases(text, index, 1) if p not in own]))) or thread

    a, b = (_note_name_zh(n) if chinese else n for n in (pair.a, pair.b))
    into, other = (a, b) if merge_into_first else (b, a)
    names = {"a": a, "b": b, "A": capital(a), "B": capital(b), "into": into, "other": other, "thread": thread,
             "text_a": pair.text_a, "text_b": pair.text_b, "about_a": about(pair.text_a), "about_b": about(pair.text_b)}
    template = named(kind).wording["zh" if chinese else "en"]
    if pair.mention:  # one passage names the other note: the fields with a variant for it say so
        by_a = pair.mention == "a"
        names |= {"user": a if by_a else b, "User": capital(a if by_a else b), "named": b if by_a else a,
                  "text_user": pair.text_a if by_a else pair.text_b, "text_named": pair.text_b if by_a else pair.text_a}

    def one(field: str) -> str:
        if pair.mention and f"{field}_names" in template:
            field = f"{field}_names"
        return str(template[field]).format(**names)

    def many(field: str) -> tuple[str, ...]:
        return tuple(line.format(**names) for line in template[field])

    return Wording(one("claim"), one("impact"), one("impact_reason"), many("applies_when"), many("never_applies_when"),
                   many("disconfirm_if"), one("why_it_matters"))


def _words_of_zh(words: list[str]) -> str:
    quoted = [f"“{w}”" for w in words]
    return "和".join(quoted) if len(quoted) <= 2 else "、".join(quoted[:-1]) + "和" + quoted[-1]


def _note_name_zh(name: str) -> str:
    """note_name's "the note of 2026-04-04" in Chinese: 2026-04-04 的日记."""
    return f"{name.removeprefix('the note of ')} 的日记" if name.startswith("the note of ") else name


def words_of(words: list[str]) -> str:
    quoted = [f"“{w}”" for w in words]
    return " and ".join(quoted) if len(quoted) <= 2 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def note_name(title: str) -> str:
    """How a note is named in a claim: its title, or "the note of 2026-04-04" for a daily note."""
    return f"the note of {title}" if is_daily(title) else title


def claim_names(title: str) -> tuple[str, ...]:
    """Every way a claim may name a note, in any language a claim is worded in."""
    return tuple(dict.fromkeys((title, note_name(title), _note_name_zh(note_name(title)))))


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
