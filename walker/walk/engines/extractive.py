"""The offline engine: no model, no network, the same output for the same input.

Inventory takes each item's key words and its central sentence. Roam pairs items that are not
linked (the seed with any item, items of two groups, two near items) and finds the sentence in
each that shares the most specific words: rare in the vault and rare among the notes of each
note's own genre. Each pair gets its kind from its shape (walk/kinds.py), a claim built from the
notes' own words, and the evidence the vault gives for it (walk/evidence.py), which one fitted
score turns into the chance a reader finds it useful (walk/scorer.py). Critique is the
deterministic gate, then that score, then a cap: a walk keeps the few likeliest survivors, or none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import chain, combinations, islice
from typing import NamedTuple

from walker.corpus.text import is_proposition, join_sentences, sentences
from walker.daily import is_daily
from walker.kinds.base import APART, ONE_DOMAIN, ONE_FOLDER, THREAD_WORDS, Pair, is_question
from walker.kinds.duplicate import one_name
from walker.meaning import Meaning
from walker.refs import Ref
from walker.sensitive import sensitive_inference
from walker.walk.candidate import Candidate, End
from walker.walk.critic import Verdict, gate
from walker.walk.engines.base import InventoryEntry, WalkContext
from walker.walk.evidence import Evidence, Genres, Lexicon, Mentions, everyday, salience, side_by_side
from walker.walk.kinds import (
    DOMAIN_APART,
    OTHER_FOLDER_CONCEPT,
    SAME_CONCEPT,
    classify,
    note_name,
    word,
)
from walker.walk.scorer import explain, floor, score
from walker.walk.sense import (
    SAME_SENSE_CLOSENESS,
    SUBJECT_WORDS,
    shared_words,
    subject_stems,
    subject_words,
    surface_forms,
    thread,
)
from walker.walk.widen import widen
from walker.wander import (
    Item,
    central_sentence,
    paragraph_ref,
    section_ref,
    shared_neighbour,
)
from walker.words import EVERYDAY_ZIPF, PLAIN_WORDS, latin_language, stem, stems, word_count, words

ROAM_SIZE = 10
MAX_KEPT = 3
# The rules that may stop a bridge a reader would still want to see: each says it is not yet a checkable hypothesis,
# not that it is void (refs), unsafe (sensitive), known (in the pool) or only about one note.
NOTEWORTHY_RULES = frozenset({"homonym", "ungrounded", "repeated-text", "restates-existing", "facts-absent-from-refs",
                              "unfalsifiable-claim", "applies-when-vague", "no-falsifiable-disconfirm",
                              "impact-unjustified"})
MAX_PROPOSITIONS = 60  # sentences read per note: enough for any note's argument, bounded for huge ones
MAX_QUOTED = 3  # sentences in a row one quote may hold: a mechanism is often told over two or three
COPIED = 0.5  # notes sharing this share of their paragraphs are copies of one text
DUPLICATE_CLOSENESS = 0.95  # notes this close in meaning (the latent axes)...
DUPLICATE_WORDS = 0.4  # ...whose TF-IDF vectors are this close cover one thing: two notes to merge
# The kinds whose only evidence is the words two passages share: they need several of them (sense.subject_words).
# Two notes on one thing are measured whole, an analogy tells one mechanism in the words of two fields, and a tension
# (one passage saying not to do what the other does) was never kept on the vaults read so far: all three are exempt,
# as is a passage that names the other note, which says its subject outright.
SHARED_WORD_KINDS = frozenset({"missing-link", "answer"})


class ExtractiveEngine:
    name = "extractive"

    def __init__(self) -> None:
        self.transcript: list[dict[str, object]] = []  # no model, nothing to transcribe

    def inventory(self, context: WalkContext) -> list[InventoryEntry]:
        hood = context.neighbourhood
        seed = Item(hood.seed.path, hood.seed.ref, "seed", 0, 1.0, (), "the seed")
        return [self._entry(context, item) for item in (seed, *hood.items)]

    def _entry(self, context: WalkContext, item: Item) -> InventoryEntry:
        note = context.corpus.notes[item.path]
        paragraphs = context.index.paragraphs.get(item.path, [])
        if item.group == "seed":
            sentence, ref = context.neighbourhood.seed.proposition, context.neighbourhood.seed.ref
        else:
            section = next((s for i, s in enumerate(note.sections) if section_ref(note, i) == item.ref), None)
            inside = [p for p in paragraphs if section and section.line <= p.line <= section.end_line]
            found = central_sentence(context.index, item.path, inside) or central_sentence(context.index, item.path, paragraphs)
            # No sentence worth quoting (only links, properties or comments): the item is listed, never quoted.
            sentence, ref = (found[0], paragraph_ref(note, found[1])) if found else ("", item.ref)
        return InventoryEntry(item.path, note.title, item.group, item.ref,
                              tuple(context.index.top_terms(item.path, 6)), sentence, ref)

    def roam(self, context: WalkContext, inventory: list[InventoryEntry]) -> list[Candidate]:
        """Pairs not already linked whose passages share a thread of words in one sense: the seed with any item,
        items of two groups, and two near items (a missing link among the seed's own neighbours). Two middle or two
        far items are never paired: they were drawn for their distance from the seed, not for each other."""
        quotable = Propositions(context)
        scored = []
        for a, b in combinations(inventory, 2):  # the seed first, then near, middle and far items
            if a.group == b.group != "near" or a.path == b.path or _linked(context, a.path, b.path):
                continue
            if not a.sentence or not b.sentence or _copies(context, a.path, b.path):
                continue  # nothing to quote, or two stubs filled in from one template
            found = self.hypothesis(context, quotable, a, b)
            if found is not None:
                scored.append(found)
        scored.sort(key=lambda c: (-_score(c), c.supporting_refs))
        scored = _prefer_append_only(context, scored)
        used: dict[str, int] = {}
        candidates = []
        for candidate in scored:
            a_path, b_path = (end.path for end in candidate.bridge)
            if used.get(a_path, 0) >= 3 or used.get(b_path, 0) >= 2:
                continue
            used[a_path] = used.get(a_path, 0) + 1
            used[b_path] = used.get(b_path, 0) + 1
            candidates.append(candidate)
            if len(candidates) >= ROAM_SIZE:
                break
        return widen(context, candidates)

    def critique(self, context: WalkContext, candidates: list[Candidate]) -> list[Verdict]:
        """The gate, then the score, then the cap: a walk may keep none, and never more than the few best."""
        verdicts = gate(candidates, context.critic, noteworthy_limit=0)
        limit = int(context.options.get("max_hypotheses", MAX_KEPT))
        kept = sorted((i for i, v in enumerate(verdicts) if v.accepted), key=lambda i: -_score(candidates[i]))
        for rank, i in enumerate(kept):
            # A duplicate is a finding about two whole notes, which its own test measures (_duplicates); the score
            # weighs a connection between two passages.
            if _score(candidates[i]) < _floor(candidates[i]) and candidates[i].kind != "duplicate":
                verdicts[i] = Verdict(False, ("below-the-floor",), (
                    f"a reader finds a pair like this useful with probability {_score(candidates[i]):.2f}; a walk "
                    f"keeps only pairs of {_floor(candidates[i]):.2f} or more ({explain(_evidence(candidates[i]))})",))
            elif rank >= limit:
                verdicts[i] = Verdict(False, ("beyond-the-few",),
                                      (f"sound, but a walk keeps only its {limit} most likely useful candidates",))
        return _flag_noteworthy(candidates, verdicts)

    # --- building candidates ------------------------------------------------------

    def hypothesis(self, context: WalkContext, quotable: Propositions, a: InventoryEntry, b: InventoryEntry,
                   passages: tuple[str, str] | None = None) -> Candidate | None:
        """The hypothesis two items make, if any, with its evidence and its score; ``passages`` pins the sentence
        quoted from each (a benchmark asks about one labelled pair of sentences)."""
        # A passage that says a note's whole title ("the worm bin is sulking") mentions that note: the title's
        # words are a mention, not a thread between the two passages.
        titles_a, titles_b = quotable.titles(a.path), quotable.titles(b.path)
        linked = titles_a[1:] + titles_b[1:]
        # The strongest thread; of threads as strong, one that runs from a question. (Preferring a pair from a question
        # over a stronger thread, tried once, kept more answers on the dev vaults, mostly to rhetorical questions.)
        best = _best_passages(quotable, a.path, b.path, (titles_b[:1] + linked, titles_a[:1] + linked), passages)
        if best is None:
            return None
        (text_a, ref_a), (text_b, ref_b), specific, rare = best
        first, second = (a, b), (b, a)
        if is_question(text_b) and not is_question(text_a):  # the question is the first end of an answer
            (text_a, ref_a), (text_b, ref_b), (first, second) = (text_b, ref_b), (text_a, ref_a), (second, first)
        end_a, end_b = first[0], first[1]
        duplicate = _duplicates(context, end_a.path, end_b.path)
        # A passage that names the other note without linking it is an unlinked mention: the link is the hypothesis.
        mention = "a" if _names(context, text_a, end_b.path) else "b" if _names(context, text_b, end_a.path) else ""
        joined = thread(text_a, text_b, context.index, True)
        terms = tuple(t for t in joined.terms if set(t.split()) & rare) or tuple(sorted(rare))
        if not duplicate and quotable.explained(terms, {end_a.path, end_b.path}):
            return None  # the shared subject has a note of its own: the link a reader wants is to that note
        via = _shared_note(context, end_a.path, end_b.path)
        domains = _domains(context, end_a.path, end_b.path)
        evidence = quotable.evidence(end_a.path, end_b.path, text_a, text_b, frozenset(rare), terms, specific,
                                     joined=via is not None)
        if evidence.everyday >= EVERYDAY_ZIPF and not duplicate:
            return None  # every word of the thread is everyday speech in its language ("oder", "wenn"): no subject
        pair = Pair(note_name(end_a.title), note_name(end_b.title), text_a, text_b, joined._replace(terms=terms),
                    same_concept=_one_subject(evidence.topic, domains == ONE_FOLDER),
                    linked=via is not None, domains=domains, duplicate=duplicate, mention=mention)
        kind = classify(pair)
        if kind is None:
            return None
        if kind in SHARED_WORD_KINDS and not mention and len(subject_words(text_a, text_b, context.index)) < SUBJECT_WORDS:
            return None  # passages about one thing say several of its words; one or two are often two senses
        if kind == "answer" and _answered_in_place(context, end_a.path, sentences(text_a)[-1]):
            return None  # a lead-in or a rhetorical question: its own note goes on to answer it
        into_first = _longer(context, end_a.path, end_b.path) == end_a.path
        wording = word(kind, pair, context.index, into_first)
        return Candidate(
            title=f"{end_a.title} ↔ {end_b.title}",
            kind=kind,
            merge_into=(ref_a if into_first else ref_b) if kind == "duplicate" else "",
            claim=wording.claim,
            supporting_refs=tuple(dict.fromkeys((ref_a, ref_b))),
            confidence="medium" if len(pair.thread.terms) >= 3 else "low",
            impact=wording.impact,
            impact_reason=wording.impact_reason,
            applies_when=wording.applies_when,
            never_applies_when=wording.never_applies_when,
            disconfirm_if=wording.disconfirm_if,
            why_it_matters=wording.why_it_matters,
            bridge=(_end(end_a, ref_a, text_a, pair.thread.terms), _end(end_b, ref_b, text_b, pair.thread.terms)),
            grounding={"rare_terms": surface_forms(text_a, pair.thread.terms), "via": via,
                       "closeness": joined.closeness, "evidence": evidence.as_dict(),
                       "score": round(score(evidence), 3)},
        )


class Sentence(NamedTuple):
    text: str
    rare: dict[str, float]  # stems of the sentence's rare words, by weight
    stems: frozenset[str]  # stems of all its words


class Quotable(NamedTuple):
    """A paragraph's whole sentences: a thread may run through any of them, and the quote is the fewest in a row
    that hold it (``quote``)."""

    sentences: tuple[Sentence, ...]
    ref: str
    rare: dict[str, float]  # the paragraph's rare stems, each at its weight in the sentence that weighs it most
    stems: frozenset[str]  # stems of all its words

    @classmethod
    def of(cls, sentences: tuple[Sentence, ...], ref: str) -> Quotable:
        rare: dict[str, float] = {}
        for sentence in sentences:
            for term, weight in sentence.rare.items():
                rare[term] = max(rare.get(term, 0.0), weight)
        return cls(sentences, ref, rare, frozenset().union(*(s.stems for s in sentences)))

    @property
    def text(self) -> str:
        return join_sentences([s.text for s in self.sentences])

    def quote(self, thread: set[str]) -> tuple[str, set[str]]:
        """The shortest run of sentences (at most MAX_QUOTED) that holds the most of the thread's words, and those
        words: a paragraph may hold more of them than any quote from it can."""
        best: tuple[int, int, str, set[str]] | None = None
        for start in range(len(self.sentences)):
            for end in range(start + 1, min(start + MAX_QUOTED, len(self.sentences)) + 1):
                run = self.sentences[start:end]
                held = thread & set().union(*(s.rare.keys() for s in run))
                if best is None or (-len(held), end - start) < best[:2]:
                    best = (-len(held), end - start, join_sentences([s.text for s in run]), held)
        return (best[2], best[3]) if best else ("", set())


class Propositions:
    """Each note's quotable sentences with their word stems and weights, and what the walk measures of a pair of
    them (``evidence``); read once per walk."""

    def __init__(self, context: WalkContext) -> None:
        self._context = context
        self._known: dict[str, list[Quotable]] = {}
        self._titles: dict[str, list[frozenset[str]]] = {}
        self._genres = Genres(context.corpus, context.index)
        self._lexicon = Lexicon(context.index)
        self._mentions = Mentions(context.corpus, context.index.paragraphs)
        self._meaning = Meaning()
        self._named: dict[tuple[str, ...], list[str]] | None = None

    def __call__(self, path: str) -> list[Quotable]:
        if path not in self._known:
            self._known[path] = self._read(path)
        return self._known[path]

    def titles(self, path: str) -> list[frozenset[str]]:
        """The word stems of a note's title, then of the titles of the notes it links with."""
        if path not in self._titles:
            notes = self._context.corpus.notes
            self._titles[path] = [stems(notes[p].title) for p in (path, *self._context.links.get(path, ())) if p in notes]
        return self._titles[path]

    def explained(self, terms: tuple[str, ...], ends: set[str]) -> bool:
        """Whether one of the thread's terms is the name (title or alias) of another note: that note already
        gathers what the vault says of it, and two passages that both mention it are not a discovery."""
        if self._named is None:
            self._named = {}
            for path, note in self._context.corpus.notes.items():
                for name in (note.title, *note.aliases):
                    key = tuple(stem(w) for w in words(name))
                    if key:
                        self._named.setdefault(key, []).append(path)
        return any(set(self._named.get(tuple(term.split()), ())) - ends for term in terms)

    def evidence(self, a: str, b: str, text_a: str, text_b: str, stems: frozenset[str], terms: tuple[str, ...],
                 specific: float, joined: bool) -> Evidence:
        index = self._context.index
        context = index.closeness(text_a, text_b, stems)
        return Evidence(
            specific=specific,
            salience=max(salience(index, self._lexicon, a, stems), salience(index, self._lexicon, b, stems)),
            context=context,
            topic=index.note_closeness(a, b, stems),
            phrase=float(any(" " in term for term in terms)),
            joined=float(joined),
            side_by_side=float(side_by_side(self._context.corpus, self._context.links, a, b)),
            mentioned=float(self._mentions.either(a, b)),
            apart=1.0 - index.domain_closeness(a, b),
            question=float(is_question(text_a) != is_question(text_b)),
            coherence=sum(map(self._lexicon.coherence, stems)) / len(stems) if stems else 0.0,
            everyday=everyday(surface_forms(text_a, terms), latin_language(f"{text_a} {text_b}")),
            meaning=self._meaning.closeness(text_a, text_b),
        )

    def _read(self, path: str) -> list[Quotable]:
        note = self._context.corpus.notes[path]
        found: list[Quotable] = []
        read = 0
        for paragraph in self._context.index.paragraphs.get(path, []):
            if not paragraph.prose:
                continue
            # A quote is sentences in a row: one that cannot be quoted (a lead-in, a step) ends a run.
            for run in _runs(sentences(paragraph.text), lambda text: 6 <= word_count(text) <= 60
                             and is_proposition(text, note.title)
                             # a bridge would carry what the note says of a person's health, faith, origin…
                             and not sensitive_inference(text)):
                whole = [self.sentence(path, text) for text in run[: MAX_PROPOSITIONS - read]]
                read += len(whole)
                if whole:
                    found.append(Quotable.of(tuple(whole), paragraph_ref(note, paragraph)))
                if read >= MAX_PROPOSITIONS:
                    return found
        return found

    def sentence(self, path: str, text: str) -> Sentence:
        """A sentence of a note with its rare words (few notes use them), each weighed by how few notes of the vault
        and of this note's own genre use it: what every note of one kind says is no thread between two of them."""
        index = self._context.index
        rare, top = index.rare_words(), float(index.idf.max()) if len(index.idf) else 1.0
        weights: dict[str, float] = {}
        for token in words(text):
            if token in rare and token not in PLAIN_WORDS:
                key = stem(token)
                weight = index.weight(token) / top * self._genres.specificity(path, self._lexicon.column[token])
                weights[key] = max(weights.get(key, 0.0), weight)
        return Sentence(text, weights, stems(text))


def _runs(texts: list[str], quotable: Callable[[str], bool]) -> list[list[str]]:
    """The runs of consecutive ``texts`` that are each quotable."""
    runs: list[list[str]] = [[]]
    for text in texts:
        if quotable(text):
            runs[-1].append(text)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _best_passages(quotable: Propositions, a: str, b: str, titles: tuple[list[frozenset[str]], list[frozenset[str]]],
                   only: tuple[str, str] | None = None) -> tuple[tuple[str, str], tuple[str, str], float, set[str]] | None:
    """The passage in each note that share the strongest thread of rare words (two or more), and those words.

    ``titles``, for each side: the titles whose words, when a passage says all of them, mention another note.
    ``only`` pins the two passages (their text stands for the notes' own paragraphs).
    """
    def threadable(passage: Quotable, titles: list[frozenset[str]]) -> dict[str, float]:
        mentioned = set().union(*(title for title in titles if title and title <= passage.stems))
        return {w: weight for w, weight in passage.rare.items() if w not in mentioned}

    def pinned(path: str, text: str) -> list[Quotable]:
        return [Quotable.of((quotable.sentence(path, text),), path)]

    first = [(q, threadable(q, titles[0])) for q in (pinned(a, only[0]) if only else quotable(a))]
    second = [(q, threadable(q, titles[1])) for q in (pinned(b, only[1]) if only else quotable(b))]
    def strength(shared: set[str], words_a: dict[str, float], words_b: dict[str, float]) -> float:
        return sum(min(words_a[w], words_b[w]) for w in shared)

    best: tuple[tuple[float, bool], Quotable, Quotable, set[str]] | None = None
    for qa, words_a in first:
        for qb, words_b in second:
            shared = words_a.keys() & words_b.keys()
            # Of two threads equally strong, the one from a question to a passage that does not ask: an answer.
            answer = _asks(qa) != _asks(qb)
            if len(shared) < THREAD_WORDS or best is not None and (strength(shared, words_a, words_b), answer) <= best[0]:
                continue
            # The thread is what the two quotes hold, not what their whole paragraphs do.
            shared &= qa.quote(shared)[1] & qb.quote(shared)[1]
            key = (strength(shared, words_a, words_b), answer)
            if len(shared) >= THREAD_WORDS and (best is None or key > best[0]):
                best = (key, qa, qb, shared)
    if best is None:
        return None
    (found, _), qa, qb, shared = best
    return (qa.quote(shared)[0], qa.ref), (qb.quote(shared)[0], qb.ref), found, shared


def _asks(passage: Quotable) -> bool:
    return any(is_question(s.text) for s in passage.sentences)


def _one_subject(closeness: float, same_folder: bool) -> bool:
    """Notes close in meaning once their thread is left out (``closeness``, the evidence's topic), in one
    top-level folder (the vault owner's own domains) unless they are very close: two views of one subject."""
    return closeness >= (SAME_CONCEPT if same_folder else OTHER_FOLDER_CONCEPT)


def _domains(context: WalkContext, a: str, b: str) -> str:
    """Where two notes sit: side by side in one folder, in one domain (top-level folders close in meaning, or
    two subfolders of one), or apart."""
    if "/" in a and a.rpartition("/")[0] == b.rpartition("/")[0]:
        return ONE_FOLDER
    return ONE_DOMAIN if context.index.domain_closeness(a, b) >= DOMAIN_APART else APART


def _copies(context: WalkContext, a: str, b: str) -> bool:
    """Two notes that are mostly the same paragraphs: stubs made from one template, or one text pasted twice."""
    def texts(path: str) -> set[str]:
        return {" ".join(p.text.lower().split()) for p in context.index.paragraphs.get(path, []) if word_count(p.text) >= 4}

    first, second = texts(a), texts(b)
    return bool(first and second) and len(first & second) >= COPIED * min(len(first), len(second))


def _names(context: WalkContext, text: str, path: str) -> bool:
    """The passage names the note by its title or an alias ("as in Acid")."""
    note = context.corpus.notes[path]
    names = [n for n in (note.title, *note.aliases) if len(n) >= 4 and not is_daily(n)]
    return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.IGNORECASE) for n in names)


def _prefer_append_only(context: WalkContext, candidates: list[Candidate]) -> list[Candidate]:
    """Of two bridges of one kind that share one end and whose other ends say the same thing, keep the one anchored in
    a daily note: a day's entry is written once and never reorganised, so its ref stays good."""
    kept: list[Candidate] = []
    for candidate in candidates:
        twin = next((k for k, other in enumerate(kept) if _same_other_end(context, candidate, other)), None)
        if twin is None:
            kept.append(candidate)
        elif _daily_refs(candidate) > _daily_refs(kept[twin]):
            kept[twin] = candidate
    return kept


def _same_other_end(context: WalkContext, a: Candidate, b: Candidate) -> bool:
    """One hypothesis with one end swapped for a passage that says the same: the two bridges share one end, and
    the passages of their other ends share two words or more and are close in meaning."""
    if a.kind != b.kind or len(a.bridge) != 2 or len(b.bridge) != 2:
        return False
    refs_a, refs_b = {end.ref for end in a.bridge}, {end.ref for end in b.bridge}
    if len(refs_a) != 2 or len(refs_b) != 2 or len(refs_a & refs_b) != 1:
        return False
    (other_a,) = [end.passage for end in a.bridge if end.ref not in refs_b]
    (other_b,) = [end.passage for end in b.bridge if end.ref not in refs_a]
    return (bool(other_a and other_b) and len(shared_words(other_a, other_b, context.index)) >= THREAD_WORDS
            and context.index.closeness(other_a, other_b) >= SAME_SENSE_CLOSENESS)


def _daily_refs(candidate: Candidate) -> int:
    return sum(is_daily(Ref.parse(r).title) for r in candidate.supporting_refs)


def _end(entry: InventoryEntry, ref: str, passage: str, terms: tuple[str, ...]) -> End:
    return End(entry.path, entry.title, entry.group, ref, passage, tuple(surface_forms(passage, terms)))


def _shared_note(context: WalkContext, a: str, b: str) -> str | None:
    return shared_neighbour(context.links, a, b, set(context.neighbourhood.hubs))


def _linked(context: WalkContext, a: str, b: str) -> bool:
    return b in context.links.get(a, ())


def _flag_noteworthy(candidates: list[Candidate], verdicts: list[Verdict]) -> list[Verdict]:
    """Flag the one rejection most worth a human look: a bridge the score would have kept, stopped by a single
    rule that says it is not yet checkable (protocol: noteworthy rejections)."""
    stopped = [i for i, v in enumerate(verdicts) if not v.accepted and len(v.rules) == 1
               and v.rules[0] in NOTEWORTHY_RULES and _score(candidates[i]) >= _floor(candidates[i])]
    if not stopped:
        return verdicts
    best = max(stopped, key=lambda i: (_score(candidates[i]), -i))
    verdict = verdicts[best]
    reason = (f"a reader finds a pair like this useful with probability {_score(candidates[best]):.2f}, and only one rule "
              f"stopped it ({verdict.rules[0]}: {verdict.reasons[0]})")
    return [Verdict(False, v.rules, v.reasons, True, reason) if i == best else v for i, v in enumerate(verdicts)]


def _score(candidate: Candidate) -> float:
    return float((candidate.grounding or {}).get("score") or 0.0)


def _floor(candidate: Candidate) -> float:
    return floor(_evidence(candidate))


def _evidence(candidate: Candidate) -> Evidence:
    return Evidence.of((candidate.grounding or {}).get("evidence") or {})


def _answered_in_place(context: WalkContext, path: str, question: str) -> bool:
    """Whether the question's own note goes on to speak to it: the rest of its section (its next MAX_PROPOSITIONS
    sentences at most), in sentences that do not ask, says THREAD_WORDS of its words that are not everyday speech (all
    of them, if it has fewer). A lead-in ("Why do models overfit?") or a rhetorical question is answered right after
    it; an open question is not."""
    asked = subject_stems(question)
    note = context.corpus.notes[path]
    paragraphs = context.index.paragraphs.get(path, [])
    for at, paragraph in enumerate(paragraphs):
        said = sentences(paragraph.text) if question in paragraph.text else []
        if question not in said:
            continue
        section = next((s for s in note.sections if s.line <= paragraph.line <= s.end_line), None)
        end = section.end_line if section is not None else paragraph.end_line
        later = (s for p in paragraphs[at + 1:] if p.line <= end for s in sentences(p.text))
        after = islice(chain(said[said.index(question) + 1:], later), MAX_PROPOSITIONS)
        told = subject_stems(" ".join(s for s in after if not is_question(s)))
        return bool(asked) and len(asked & told) >= min(THREAD_WORDS, len(asked))
    return False


def _duplicates(context: WalkContext, a: str, b: str) -> bool:
    """Two notes on one thing: titles that name one thing, the same subject on the latent axes, and many of the same
    words, weighed. A day's note records a day: two days that went alike are not one subject written twice, and
    never merged."""
    notes = context.corpus.notes
    if is_daily(notes[a].title) or is_daily(notes[b].title) or not one_name(notes[a].title, notes[b].title):
        return False
    index = context.index
    words = float((index.notes[index.row[a]] @ index.notes[index.row[b]].T).toarray()[0, 0])
    return words >= DUPLICATE_WORDS and index.note_closeness(a, b) >= DUPLICATE_CLOSENESS


def _longer(context: WalkContext, a: str, b: str) -> str:
    """Of two notes on one thing, the one that says more: the one to merge into."""
    said = {p: sum(len(x.text) for x in context.index.paragraphs.get(p, [])) for p in (a, b)}
    return a if said[a] >= said[b] else b



