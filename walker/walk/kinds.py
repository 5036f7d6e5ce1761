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
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from walker.similarity import PLAIN_WORDS, TextIndex, stem
from walker.walk.sense import GLUE, Thread, surface_forms
from walker.words import has_cjk, has_kana, phrase, tokens, words

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


class _Names(NamedTuple):
    """What every kind's wording draws on: the notes' names, the quotes, the thread and each passage's subject."""

    a: str
    b: str
    text_a: str
    text_b: str
    thread: str
    about_a: str
    about_b: str


def word(kind: str, pair: Pair, index: TextIndex, merge_into_first: bool = True) -> Wording:
    """A kind's wording; ``merge_into_first``: of two duplicates, the first note is the fuller one."""
    chinese = is_chinese(pair.text_a) and is_chinese(pair.text_b)  # worded in the notes' own language
    listed = _words_of_zh if chinese else words_of
    thread = listed(surface_forms(pair.text_a, pair.thread.terms[:3]))

    def about(text: str) -> str:
        """What a passage is about: the thread as it writes it, and its own strongest phrase."""
        own = surface_forms(text, pair.thread.terms[:2])
        return listed(list(dict.fromkeys(own + [p for p in key_phrases(text, index, 1) if p not in own]))) or thread

    a, b = (_note_name_zh(n) if chinese else n for n in (pair.a, pair.b))
    names = _Names(a, b, pair.text_a, pair.text_b, thread, about(pair.text_a), about(pair.text_b))
    wordings = _ZH if chinese else _EN
    if kind == "duplicate":
        return wordings["duplicate"](names, merge_into_first)
    return wordings[kind](names)


def _missing_link(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"{capital(a)} says “{n.text_a}”, and {b} adds “{n.text_b}”: two accounts of {thread} that no link "
              "or shared note puts side by side.",
        impact="add",
        impact_reason=f"a link between {a} and {b} would let each find what the other already says",
        applies_when=(f"Writing or revising a note about {n.about_a}.",
                      f"Looking for everything the vault already says about {thread}."),
        never_applies_when=(f"Looking up one exact detail about {n.about_b}, where a second note adds nothing.",),
        disconfirm_if=(f"{capital(a)} and {b} are already joined by a link, or by a note that links to both.",
                       f"Read in full, {a} and {b} use {thread} for different things."),
        why_it_matters=f"Notes about one thing that do not link are found apart and kept apart; "
                       f"Obsidian's unlinked mentions only see a title, not {thread}.",
    )


def _tension(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"On {thread}, {a} says “{n.text_a}”, while {b} says “{n.text_b}”: one says not to do what the other "
              "does, and neither says when each holds.",
        impact="rewrite",
        impact_reason=f"if both passages hold, {a} or {b} needs a condition that says when each applies",
        applies_when=(f"Deciding what to do about {thread}, with advice from more than one note.",
                      f"Revising what the vault says about {n.about_b}."),
        never_applies_when=(f"Working inside {n.about_a} alone, where the other passage's conditions do not hold.",),
        disconfirm_if=(f"Both passages affirm {thread}, or both deny it: the disagreement is only in the wording.",
                       f"The two passages speak of {thread} under conditions that never meet."),
        why_it_matters="Two notes that disagree without knowing it give different advice depending on which "
                       "one is opened first.",
    )


def _answer(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"The question {a} asks, “{n.text_a}”, has an answer about {thread} in {b}: “{n.text_b}”",
        impact="add",
        impact_reason=f"the question in {a} has no answer linked to it; {b} may hold one",
        applies_when=(f"Coming back to the open question about {n.about_a}.",
                      f"Reading about {n.about_b} with an unanswered question in mind."),
        never_applies_when=(f"Reading {n.about_b} for its own sake, with no question about {thread} in mind.",),
        disconfirm_if=(f"The passage in {b} does not speak of {thread}, the subject of the question in {a}.",
                       f"Read in full, {b} answers a different question about {thread} than the one {a} asks."),
        why_it_matters=f"An open question stays open until someone sees that the vault already holds a reply; "
                       f"the reply in {b} is {thread}-shaped.",
    )


def _analogy(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"{capital(a)} and {b} describe one mechanism, {thread}, in two fields: “{n.text_a}” and “{n.text_b}”",
        impact="add",
        impact_reason=f"{a} and {b} sit in different subjects and are not linked, so the bridge adds what neither has",
        applies_when=(f"Working out how {n.about_a} behaves, and open to a mechanism from another subject.",
                      f"Stuck on {n.about_b} and open to how {n.about_a} handles the same thing."),
        never_applies_when=(f"Following the steps for {n.about_b} to get something done today, where an analogy "
                            "would only distract.",),
        disconfirm_if=(f"Read side by side, {thread} mean different things in {a} and in {b}: the words match, "
                       "the mechanisms do not.",
                       f"The passage in {b} depends on a condition that {a} does not share."),
        why_it_matters=f"If {thread} work the same way in both, what the vault knows about {a} is a ready-made "
                       f"question to ask of {b}.",
    )


def _duplicate(n: _Names, merge_into_first: bool) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    into, other = (a, b) if merge_into_first else (b, a)
    return Wording(
        claim=f"{capital(a)} and {b} are two notes on one thing, {thread}, in mostly the same words: merge {other} "
              f"into {into}, the fuller one. “{n.text_a}” and “{n.text_b}”",
        impact="rewrite",
        impact_reason=f"two notes on one thing split what the vault knows of it; {into} says more of it",
        applies_when=(f"Tidying the notes about {n.about_a}.",
                      f"Adding something new about {thread}, with two notes to choose from."),
        never_applies_when=(f"Keeping {a} and {b} apart on purpose, as two stages of one piece of work.",),
        disconfirm_if=(f"Read in full, {a} and {b} share their words about {thread} but say different things.",
                       f"{capital(a)} and {b} are already joined by a link, or one of them is gone."),
        why_it_matters="A second note on one thing is found by half the searches and updated half the time; "
                       "the two drift apart.",
    )


def _missing_link_zh(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"{a}写道“{n.text_a}”，{b}也写道“{n.text_b}”：两处都在讲{thread}，却没有链接或共同的笔记把它们放在一起。",
        impact="add",
        impact_reason=f"在{a}和{b}之间加一个链接，两边都能找到对方已经写下的内容",
        applies_when=(f"撰写或修改关于{n.about_a}的笔记时。", f"想找出笔记库里关于{thread}的全部记录时。"),
        never_applies_when=(f"只查{n.about_b}的某个具体细节时，第二篇笔记帮不上忙。",),
        disconfirm_if=(f"{a}和{b}之间其实已有链接，或有一篇笔记同时链接了两者。",
                       f"通读全文后发现，{a}和{b}里的{thread}指的是不同的东西。"),
        why_it_matters=f"讲同一件事却互不链接的笔记，会被分开找到、分开维护；Obsidian 的未链接提及只认标题，认不出{thread}。",
    )


def _tension_zh(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"关于{thread}，{a}说“{n.text_a}”，而{b}说“{n.text_b}”：一边叫人别做另一边在做的事，两边都没说各自何时成立。",
        impact="rewrite",
        impact_reason=f"如果两段话都成立，{a}或{b}就需要写明各自适用的条件",
        applies_when=(f"要就{thread}做决定、手头有不止一篇笔记的建议时。", f"修改笔记库里关于{n.about_b}的内容时。"),
        never_applies_when=(f"只在{n.about_a}范围内工作、另一段话的条件并不成立时。",),
        disconfirm_if=(f"两段话对{thread}的态度其实一致，分歧只在措辞上。", f"两段话谈论{thread}的前提条件从来不会同时出现。"),
        why_it_matters="两篇互相矛盾却不自知的笔记，会因为先打开哪一篇而给出不同的建议。",
    )


def _answer_zh(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"{a}问道：“{n.text_a}”{b}里有一个关于{thread}的回答：“{n.text_b}”",
        impact="add",
        impact_reason=f"{a}里的问题还没有链接到任何答案，{b}可能就是答案",
        applies_when=(f"回到关于{n.about_a}的那个悬而未决的问题时。", f"带着未解决的问题阅读关于{n.about_b}的内容时。"),
        never_applies_when=(f"只是为了{n.about_b}本身而阅读、心里并没有关于{thread}的问题时。",),
        disconfirm_if=(f"{b}里的这段话并没有谈到{thread}，而那正是{a}提问的对象。",
                       f"通读全文后发现，{b}回答的是另一个关于{thread}的问题，而不是{a}问的那个。"),
        why_it_matters=f"一个问题会一直悬着，直到有人发现笔记库里早已有了回答；{b}里的这段话正好对得上{thread}。",
    )


def _analogy_zh(n: _Names) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    return Wording(
        claim=f"{a}和{b}在两个领域里描述同一种机制，{thread}：“{n.text_a}”与“{n.text_b}”",
        impact="add",
        impact_reason=f"{a}和{b}属于不同的主题，彼此没有链接，这座桥能补上两边都没有的东西",
        applies_when=(f"琢磨{n.about_a}如何运作、愿意借鉴另一个领域的机制时。",
                      f"卡在{n.about_b}上，想看看{n.about_a}如何处理同样的问题时。"),
        never_applies_when=(f"照着步骤完成今天关于{n.about_b}的事情时，类比只会让人分心。",),
        disconfirm_if=(f"把两段并排读，{thread}在{a}和{b}里意思不同：字面相同，机制不同。",
                       f"{b}里的这段话依赖一个{a}并不具备的条件。"),
        why_it_matters=f"如果{thread}在两边的作用方式相同，那么笔记库对{a}的了解，就是可以拿去问{b}的现成问题。",
    )


def _duplicate_zh(n: _Names, merge_into_first: bool) -> Wording:
    a, b, thread = n.a, n.b, n.thread
    into, other = (a, b) if merge_into_first else (b, a)
    return Wording(
        claim=f"{a}和{b}是讲同一件事（{thread}）的两篇笔记，用词大体相同：把{other}合并进内容更全的{into}。"
              f"“{n.text_a}”与“{n.text_b}”",
        impact="rewrite",
        impact_reason=f"同一件事分成两篇笔记，笔记库对它的了解也被拆开了，而{into}写得更多",
        applies_when=(f"整理关于{n.about_a}的笔记时。", f"要补充关于{thread}的新内容、却有两篇笔记可选时。"),
        never_applies_when=(f"有意把{a}和{b}分开、作为同一项工作的两个阶段时。",),
        disconfirm_if=(f"通读全文后发现，{a}和{b}虽然在{thread}上用词相同，说的却是不同的事。",
                       f"{a}和{b}之间已有链接，或其中一篇已经不在了。"),
        why_it_matters="同一件事的第二篇笔记只会被一半的搜索找到、一半的时候被更新，两篇会渐渐走样。",
    )


# One table per language: a kind's wording, by kind.
_EN: dict[str, Callable[..., Wording]] = {"missing-link": _missing_link, "tension": _tension, "answer": _answer,
                                         "analogy": _analogy, "duplicate": _duplicate}
_ZH: dict[str, Callable[..., Wording]] = {"missing-link": _missing_link_zh, "tension": _tension_zh,
                                         "answer": _answer_zh, "analogy": _analogy_zh, "duplicate": _duplicate_zh}


def is_chinese(text: str) -> bool:
    """A passage written in Chinese: Han characters and no kana (Japanese keeps the English wording)."""
    return has_cjk(text) and not has_kana(text)


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


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
