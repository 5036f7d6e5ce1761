"""The kinds of hypothesis a walk proposes, each with its own claim and its own way to be wrong.

- missing link: two passages that say two things about one subject, in notes no chain of two links joins;
- tension: two passages on one subject, one advising against what the other does;
- answer: an open question in one note, and a passage elsewhere that speaks to it;
- analogy: one mechanism in two domains, joined by words both use in one sense;
- duplicate: two notes that cover one thing, in mostly the same words: one should be merged into the other.

The kind only says what shape a pair has; whether it is worth a reader's time is the score's
decision (walk/scorer.py), from the evidence the vault gives (walk/evidence.py). Titles never
decide a kind: "Perfect pitch" and "Sales pitch" share a word, not a concept.

Every kind words its claim as the relation between the two passages, quotes both, says when
it applies from what the passages are about (their key phrases, never the titles alone), and
names in ``disconfirm_if`` an observation that ``disconfirmed`` can check: false for the pair
the walk found, true once the pair stops being what the claim says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from walker.similarity import TextIndex
from walker.walk.sense import Thread, surface_forms
from walker.walk.wordings import CHINESE, ENGLISH
from walker.words import GLUE, PLAIN_WORDS, is_chinese, phrase, stem, tokens, words

SAME_CONCEPT = 0.5  # notes this close in meaning, their thread left out, share a subject: not an analogy...
OTHER_FOLDER_CONCEPT = 0.75  # ...and this close when they sit in different top-level folders
DAILY = re.compile(r"\d{4}-\d{2}-\d{2}")  # a daily note's title
THREAD_WORDS = 2  # a thread the walk proposes runs through at least this many shared words
DOMAIN_APART = 0.3  # folders whose subjects are less close than this are two domains (similarity.domain_closeness)
ONE_FOLDER, ONE_DOMAIN, APART = "one folder", "one domain", "apart"
_NEGATION = re.compile(r"\b(?:not|never|no|nor|cannot|can't|don't|doesn't|isn't|aren't|won't|avoid|stop|without)\b|"
                       r"n't\b|不要|别|不能|不会|没有|从不|避免|无法", re.IGNORECASE)


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


def classify(pair: Pair) -> str | None:
    """The shape a pair has, or None when it has none: fewer than two shared words, or one text pasted twice."""
    if sum(len(t.split()) for t in pair.thread.terms) < THREAD_WORDS or _same_words(pair.text_a, pair.text_b):
        return None
    if is_question(pair.text_a) and not is_question(pair.text_b):
        return "answer"
    if pair.duplicate:
        return "duplicate"
    if pair.same_concept and opposed(pair.text_a, pair.text_b, pair.thread.terms):
        return "tension"
    return "analogy" if pair.domains == APART and not pair.same_concept else "missing-link"


def _same_words(a: str, b: str) -> bool:
    return re.findall(r"\w+", a.lower()) == re.findall(r"\w+", b.lower())


def disconfirmed(kind: str, pair: Pair) -> bool:
    """Whether the observation a kind's ``disconfirm_if`` names holds for this pair."""
    if kind == "missing-link":
        return pair.linked
    if kind == "tension":
        return not (pair.same_concept and opposed(pair.text_a, pair.text_b, pair.thread.terms))
    if kind == "answer":
        return not is_question(pair.text_a) or len(_stems(pair.text_a) & _stems(pair.text_b)) < THREAD_WORDS
    if kind == "analogy":
        return pair.same_concept or pair.domains != APART
    if kind == "duplicate":
        return not pair.duplicate
    raise ValueError(f"unknown kind {kind!r}")


def is_question(text: str) -> bool:
    return text.rstrip().rstrip("*_)”\"'」』）").endswith(("?", "？"))


def opposed(a: str, b: str, terms: tuple[str, ...]) -> bool:
    """One passage advises against something about the shared words ("never retry…", "don't feed…") and
    the other denies nothing: a warning against what the other recommends. A state said not to happen
    ("it never peaks") is an outcome, not advice, and opposes nothing."""
    return _advises_against(a, terms) != _advises_against(b, terms) and not (_NEGATION.search(a) and _NEGATION.search(b))


_ADVICE_AGAINST = re.compile(r"(?:^|[.;:!?,—–-]\s*)(?:never|don't|don’t|do not|avoid|stop)\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)|"
                             r"(?:^|[。；：！？，、]\s*)(?:千万别|不要|别|切勿|避免|禁止)([^。；：！？，、]{1,12})", re.IGNORECASE)


def _advises_against(text: str, terms: tuple[str, ...]) -> bool:
    """A clause that opens with a prohibition naming one of the shared words within four words."""
    stems = {w for term in terms for w in term.split()}
    return any(stems & {stem(w) for w in words(m.group(1) or m.group(2))} for m in _ADVICE_AGAINST.finditer(text))


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in PLAIN_WORDS and w not in GLUE}


def key_phrases(text: str, index: TextIndex, limit: int = 2) -> list[str]:
    """What a passage is about, in its own words: its rarest runs of one or two content words."""
    vocabulary = index.vocabulary()
    found = tokens(text)
    scored: dict[str, float] = {}
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
    """A kind's wording, in the notes' own language (``walker.walk.wordings``); ``merge_into_first``: of two
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
    template = (CHINESE if chinese else ENGLISH)[kind]

    def one(field: str) -> str:
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
    return f"the note of {title}" if DAILY.fullmatch(title) else title


def claim_names(title: str) -> tuple[str, ...]:
    """Every way a claim may name a note, in any language a claim is worded in."""
    return tuple(dict.fromkeys((title, note_name(title), _note_name_zh(note_name(title)))))


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
