"""What every kind of hypothesis is made of: a pair of passages as the walk measured it (``Pair``), what a kind
says and when it fits (``Kind``), and the few tests of a passage the kinds share."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from walker.words import GLUE, PLAIN_WORDS, stem, words

THREAD_WORDS = 2  # a thread the walk proposes runs through at least this many shared words
ONE_FOLDER, ONE_DOMAIN, APART = "one folder", "one domain", "apart"

# What a record of a kind says besides its refs and scores, for one language: ``{a}`` and ``{b}`` name the two
# notes (``{A}`` capitalised, at the start of a sentence), ``{text_a}`` and ``{text_b}`` are the quoted passages,
# ``{thread}`` the shared words, ``{about_a}`` and ``{about_b}`` what each passage is about; a duplicate merges
# ``{other}`` into ``{into}``, the fuller note. Fields: claim, impact, impact_reason, why_it_matters (one line
# each), applies_when, never_applies_when, disconfirm_if (lines). A one-line field may have a variant FIELD_names, used
# when one passage names the other note without linking it (``{user}`` names ``{named}``; ``{text_user}``,
# ``{text_named}``).
Template = Mapping[str, str | tuple[str, ...]]


class Thread(Protocol):
    """The words two passages share in one sense (``walker.walk.sense.thread`` finds them)."""

    @property
    def terms(self) -> tuple[str, ...]: ...  # a stem, or the stems of one phrase, each


@dataclass(frozen=True)
class Pair:
    """Two passages from two notes, and what the vault says about the notes."""

    a: str  # how the first note is named in a claim
    b: str
    text_a: str  # the passage quoted from it
    text_b: str
    thread: Thread
    same_concept: bool  # the notes are about one subject
    linked: bool  # a link, or a note both link to, joins them
    domains: str = APART  # ONE_FOLDER, ONE_DOMAIN or APART: where the two notes sit
    duplicate: bool = False  # the two notes cover one thing in mostly the same words
    mention: str = ""  # "a": the first passage names the second note (its title or an alias) without linking it; "b".
    # Such a passage already says how the notes relate: only a missing link (or a duplicate) fits it.


@dataclass(frozen=True)
class Kind:
    """One kind of hypothesis, whole: its names, its words in each language, and its two tests.

    ``fits`` says whether a pair has the kind's shape (kinds are tried by ``rank``, lowest first, and the first
    that fits is the pair's kind); ``disconfirmed`` whether the observation its ``disconfirm_if`` names holds:
    false for the pair the walk found, true once the pair stops being what the claim says."""

    name: str  # as a record's ``kind`` property writes it
    label: str  # "Missing link"
    plural: str  # "Missing links"
    meaning: str  # what the kind is, in a few words, for a reviewer
    rank: int
    fits: Callable[[Pair], bool]
    disconfirmed: Callable[[Pair], bool]
    wording: Mapping[str, Template]  # by language: "en", "zh"
    confirmed: Mapping[str, tuple[str, str]]  # by language: (what was confirmed, the conclusion's first line)


def is_question(text: str) -> bool:
    return text.rstrip().rstrip("*_)”\"'」』）").endswith(("?", "？"))


def content_stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in PLAIN_WORDS and w not in GLUE}


_NEGATION = re.compile(r"\b(?:not|never|no|nor|cannot|can't|don't|doesn't|isn't|aren't|won't|avoid|stop|without)\b|"
                       r"n't\b|不要|别|不能|不会|没有|从不|避免|无法", re.IGNORECASE)
_ADVICE_AGAINST = re.compile(r"(?:^|[.;:!?,—–-]\s*)(?:never|don't|don’t|do not|avoid|stop)\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)|"
                             r"(?:^|[。；：！？，、]\s*)(?:千万别|不要|别|切勿|避免|禁止)([^。；：！？，、]{1,12})", re.IGNORECASE)


def opposed(a: str, b: str, terms: tuple[str, ...]) -> bool:
    """One passage advises against something about the shared words ("never retry…", "don't feed…") and
    the other denies nothing: a warning against what the other recommends. A state said not to happen
    ("it never peaks") is an outcome, not advice, and opposes nothing."""
    return _advises_against(a, terms) != _advises_against(b, terms) and not (_NEGATION.search(a) and _NEGATION.search(b))


def _advises_against(text: str, terms: tuple[str, ...]) -> bool:
    """A clause that opens with a prohibition naming one of the shared words within four words."""
    stems = {w for term in terms for w in term.split()}
    return any(stems & {stem(w) for w in words(m.group(1) or m.group(2))} for m in _ADVICE_AGAINST.finditer(text))
