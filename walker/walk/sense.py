"""Whether two passages are about one thing: the words they share, used in the same sense.

A thread between two passages is a concept both are about, not a token both happen
to contain. Two or more shared words (word forms merged) make a thread; one shared
word does only when it is used the same way in both (the same phrase, passages the
vault shows to be about one subject); no shared word does when the vault itself uses
the two passages' words together (latent semantic closeness).

The engine uses this to choose what to propose, and the critic gate to judge it, so
both read a bridge the same way.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from walker.similarity import TextIndex
from walker.words import (
    EVERYDAY_ZIPF,
    GLUE,
    PLAIN_WORDS,
    has_cjk,
    latin_language,
    phrase,
    stem,
    tokens,
    words,
    zipf,
)

SAME_SENSE_CLOSENESS = 0.5  # passages this close in meaning, their shared word left out, are about one thing
COHESION = 0.4  # a thread's words the vault uses together at least this much (word_closeness) are one concept
SAME_TOPIC_SIMILARITY = 0.1  # notes this close are about one subject: a word they share keeps its sense
SUBJECT_WORDS = 3  # two accounts of one thing share at least this many words that are not everyday speech


class Thread(NamedTuple):
    terms: tuple[str, ...]  # shared terms in the same sense in both passages: a stem, or stems of one phrase
    closeness: float  # latent semantic closeness of the passages with their shared words left out

    def __bool__(self) -> bool:
        return bool(self.terms) or self.closeness >= SAME_SENSE_CLOSENESS


def content_words(text: str, index: TextIndex) -> list[str]:
    """The stems of a passage's words a thread could run through: known to the vault, not everyday."""
    vocabulary = index.vocabulary()
    return [stem(w) for w in words(text) if w in vocabulary and w not in PLAIN_WORDS]


def shared_words(a: str, b: str, index: TextIndex) -> list[str]:
    """Stems both passages use, in the order the first passage uses them."""
    other = set(content_words(b, index))
    return list(dict.fromkeys(w for w in content_words(a, index) if w in other))


def subject_words(a: str, b: str, index: TextIndex) -> list[str]:
    """The shared stems that are not everyday speech in the passages' own language (Zipf below EVERYDAY_ZIPF).

    Two passages about one thing say several of its words; two that share one or two ("key", "pipeline", "Seite")
    use them, as often as not, in two senses. Of the 262 missing links kept and read blind by 2026-12-07, those
    sharing at most two such words were 27% useful and 22% wrong, those sharing three or more 46% useful and 5%
    wrong; of 18 answers sharing at most two, 3 were useful and 13 wrong (bench/README.md, walk quality). Which
    kinds this holds for is the engine's to say (``extractive.SHARED_WORD_KINDS``).
    """
    shared = set(shared_words(a, b, index)) & subject_stems(a, latin_language(f"{a} {b}"))
    return list(dict.fromkeys(s for s in map(stem, words(a)) if s in shared))


def subject_stems(text: str, latin: str | None = None) -> set[str]:
    """The stems of a text's words that are not everyday speech in its language (``latin``: the language of its
    Latin-alphabet words, found from the text unless given)."""
    language = latin_language(text) if latin is None else latin
    return {stem(w) for w in words(text) if w not in PLAIN_WORDS and zipf(w, language) < EVERYDAY_ZIPF}


def thread(a: str, b: str, index: TextIndex, same_topic: bool = False) -> Thread:
    """What joins two passages. ``same_topic``: their notes are about one subject (a word keeps its sense)."""
    shared = shared_words(a, b, index)
    closeness = index.closeness(a, b, frozenset(shared))
    if len(shared) == 1 and not (same_topic or same_phrase(a, b, shared[0]) or closeness >= SAME_SENSE_CLOSENESS):
        shared = []  # one word in two senses joins nothing
    return Thread(terms(a, b, shared), round(closeness, 3))


def terms(a: str, b: str, shared: list[str]) -> tuple[str, ...]:
    """Shared stems as terms: words that stand side by side in both passages are one term ("worm bin")."""
    pairs = _neighbours(a) & _neighbours(b)
    out: list[str] = []
    for word in shared:
        if out and (out[-1].rsplit(" ", 1)[-1], word) in pairs:
            out[-1] += f" {word}"
        else:
            out.append(word)
    return tuple(out)


def _neighbours(text: str) -> set[tuple[str, str]]:
    words = [stem(w) for w in tokens(text)]
    return set(zip(words, words[1:]))


def same_phrase(a: str, b: str, word: str) -> bool:
    """Both passages use the word in one phrase with the same neighbour ("faster than", "warm up")."""
    return bool(_phrases(a, word) & _phrases(b, word))


def _phrases(text: str, word: str) -> set[tuple[int, str]]:
    words = [stem(w) for w in tokens(text)]
    found = set()
    for at, current in enumerate(words):
        if current != word:
            continue
        for side in (-1, 1):
            if 0 <= at + side < len(words) and words[at + side] not in GLUE and words[at + side] != word:
                found.add((side, words[at + side]))
    return found


def cohesive(terms: tuple[str, ...], index: TextIndex) -> bool:
    """Whether a thread's terms make one concept: a phrase both passages use, or words the vault uses together.

    "sync" and "devices", "ferment" and "sour" go together in the vault's notes; "whilst" and
    "aware", "exists" and "links" meet only in the two sentences that happen to hold both.
    """
    if any(" " in term for term in terms):
        return True
    return any(index.word_closeness(a, b) >= COHESION for a, b in itertools.combinations(terms, 2))


def surface_forms(text: str, stems: tuple[str, ...] | list[str]) -> list[str]:
    """How a passage writes each term ("branches" for "branch"), for quoting back to a reader."""
    forms: dict[str, str] = {}
    for word in words(text):
        forms.setdefault(stem(word), word)
    return [_written(text, [forms.get(s, s) for s in term.split()]) for term in stems]


def _written(text: str, parts: list[str]) -> str:
    """A term's words as the passage writes them together. Japanese is read in overlapping pairs of characters
    ("資料", "料を"), so a run of them is written as the passage runs ("資料を"), not pair after pair ("資料料を")."""
    joined = phrase(parts)
    if len(parts) > 1 and all(map(has_cjk, parts)) and joined not in text:
        overlapped = parts[0] + "".join(part[1:] for part in parts[1:])
        if overlapped in text:
            return overlapped
    return joined
