"""The deterministic critic gate (protocol §11.5). It runs after every engine's own critique
and can only reject more, never revive.

Each rule is a named check: ``check(candidate, context) -> reason | None``. The
gate returns verdicts (the rules that fired and why); it never writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from walker import fitted
from walker.corpus.model import Corpus
from walker.glosses import english_senses
from walker.passages import ref_text
from walker.pool.records import CONFIDENCES, IMPACTS, LIST_LIMIT, text_problem
from walker.refs import note_of
from walker.sensitive import sensitive_inference
from walker.similarity import TextIndex
from walker.walk.candidate import Candidate, End
from walker.walk.facts import QUOTED, absent_facts, normal
from walker.walk.sense import SAME_TOPIC_SIMILARITY, shared_words, thread
from walker.words import is_chinese, is_short, stem, word_count, words

RESTATE_SIMILARITY = 0.7
OTHER_NOTE_SIMILARITY = 0.3  # a bridge that quotes a second note is this close to it
DUPLICATE_SIMILARITY = 0.85
RESTATED_SHARE = 0.1  # a claim with no more than this share of words from outside one note restates that note
REPEATED_TEXT = 0.5  # two quotes sharing this share of their words are one text copied...
REPEATED_RUN = 6  # ...and so are two that share this many words in a row
MOST_GLOSSED = 20_000  # characters of a Chinese text read in every sense (about 35 times as many come out)
HALF_SUPPORT = 2  # a claim's words of its own found in one passage only, for each passage: each half is backed
SOFT_RULES = frozenset({"single-source", "applies-when-vague", "no-falsifiable-disconfirm", "impact-unjustified",
                        "unfalsifiable-claim"})  # the protocol names these as reasons a noteworthy entry was rejected


@dataclass(frozen=True)
class PoolClaim:
    """A pool record as the critic and widening read it."""

    id: str
    status: str
    claim: str
    refs: tuple[str, ...]
    passages: tuple[str, ...] = ()  # the text quoted from each ref, in order (the record's ``passages``); may be empty


@dataclass
class CriticContext:
    corpus: Corpus
    index: TextIndex
    retrieved: set[str]  # note paths of the seed and every retrieved item
    pool: list[PoolClaim] = field(default_factory=list)

    def ref_text(self, ref: str) -> str | None:
        """The words a ref points at, or None when it does not resolve inside the vault."""
        return ref_text(self.corpus, self.index, ref)


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    rules: tuple[str, ...]
    reasons: tuple[str, ...]
    noteworthy: bool = False
    flagged_value_reason: str | None = None
    revised: Candidate | None = None  # the full record an engine's critic wrote for the candidate, if any

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"accepted": self.accepted, "noteworthy": self.noteworthy, "rules": list(self.rules),
                                   "reasons": list(self.reasons), "flagged_value_reason": self.flagged_value_reason}
        if self.revised is not None:
            data["revised"] = self.revised.as_dict()
        return data


Check = Callable[[Candidate, CriticContext], "str | None"]


def _ref_paths(candidate: Candidate) -> list[str]:
    return [note_of(r) for r in candidate.supporting_refs]


def no_refs(c: Candidate, ctx: CriticContext) -> str | None:
    return None if c.supporting_refs else "no supporting_refs: nothing in the vault backs the claim"


def refs_not_retrieved(c: Candidate, ctx: CriticContext) -> str | None:
    """Refs come from the walk's retrieved items, or from the active hypothesis a candidate widens (read from the pool)."""
    widens = (c.grounding or {}).get("widens")
    carried = {note_of(r) for record in ctx.pool if record.id == widens for r in record.refs}
    outside = [p for p in _ref_paths(c) if p not in ctx.retrieved and p not in carried]
    return f"refs outside this walk's retrieved items: {', '.join(outside)}" if outside else None


def refs_unresolved(c: Candidate, ctx: CriticContext) -> str | None:
    broken = [r for r in c.supporting_refs if ctx.ref_text(r) is None]
    return f"refs that do not resolve in the vault: {', '.join(broken)}" if broken else None


_VAGUE_FALSIFIER = re.compile(
    r"^(?:if )?(?:it|this|the (?:claim|hypothesis|idea))? ?(?:is|turns out|proves?|shown)? ?(?:to be )?"
    r"(?:wrong|false|incorrect|not true|untrue|disproved|refuted)\b|evidence (?:against|to the contrary)|"
    r"\bnever\b.*\bdisprove|^n/?a$|^none$",
    re.IGNORECASE,
)


def no_falsifiable_disconfirm(c: Candidate, ctx: CriticContext) -> str | None:
    concrete = [d for d in c.disconfirm_if if word_count(d) >= 6 and not _VAGUE_FALSIFIER.search(d.strip())
                and not fitted.is_bad("vague_falsifier", d)]
    if concrete:
        return None
    return "no disconfirm_if names an observation that would show the claim wrong"


_VAGUE_SITUATION = re.compile(
    r"\b(?:any|every|all) (?:conversation|discussion|topic|time|context)s?\b|\balways\b|\bin general\b|"
    r"\bwhenever (?:relevant|appropriate|useful)\b|\bgeneral (?:chat|discussion)\b|\banything\b",
    re.IGNORECASE,
)


def applies_when_vague(c: Candidate, ctx: CriticContext) -> str | None:
    identifiable = [a for a in c.applies_when if word_count(a) >= 5 and not _VAGUE_SITUATION.search(a)
                    and not fitted.is_bad("vague_situation", a)]
    return None if identifiable else "no applies_when names a situation someone could recognise"


def sensitive_attribute(c: Candidate, ctx: CriticContext) -> str | None:
    """A claim, reason or situation that reads a person's health, mind, gender, age, origin, faith,
    sexuality, politics, family role or disability. A quotation of a cited passage is the note's own
    words, not an inference; any other quotation counts: repeating it in a hypothesis spreads it. Nor may a
    hypothesis quote a passage that says such a thing of someone: the record would carry it wherever it goes."""
    haystack = _haystack(c, ctx)
    for text in (c.claim, c.why_it_matters, *c.applies_when, *c.never_applies_when):
        if found := sensitive_inference(_unquoted(text, haystack), deep=True):
            return f"infers {found}"
    for passage in c.passages:
        if found := sensitive_inference(passage, deep=True, notes=True):
            return f"quotes {found}"
    return None


def _unquoted(text: str, haystack: str) -> str:
    """``text`` with each quotation of the cited passages (``haystack``, normalised) shown as “…”: those are the
    notes' words, not the candidate's. (A sentence with holes where its quotes were reads as nonsense to the
    reader of meaning, which refused the engine's own "Reading , and for its own sake".)"""
    return QUOTED.sub(lambda m: "“…”" if normal(m.group(1)).rstrip(".") in haystack else m.group(0), text)


def _cited(c: Candidate, ctx: CriticContext) -> list[str]:
    """The text each supporting ref opens, in order, leaving out refs that do not resolve."""
    return [t for t in (ctx.ref_text(r) for r in c.supporting_refs) if t]


def _haystack(c: Candidate, ctx: CriticContext) -> str:
    return normal(" ".join(_cited(c, ctx)))


def single_source(c: Candidate, ctx: CriticContext) -> str | None:
    notes = set(_ref_paths(c))
    return f"generalises from a single note ({next(iter(notes))})" if len(notes) == 1 else None


def restates_existing(c: Candidate, ctx: CriticContext) -> str | None:
    """Close to one section and to nothing else: a consolidation of that section, not a bridge."""
    if ctx.index.sections.shape[0] == 0 or ctx.index.notes.shape[1] == 0 or not c.claim:
        return None
    vector = ctx.index.transform([c.claim])
    if vector.nnz == 0:
        return None
    scores = np.asarray((ctx.index.sections @ vector.T).todense()).ravel()
    order = np.argsort(-scores)
    best = int(order[0])
    best_note = ctx.index.section_note[best]
    runner_up = next((float(scores[i]) for i in order[1:] if ctx.index.section_note[i] != best_note), 0.0)
    if scores[best] >= RESTATE_SIMILARITY and runner_up < OTHER_NOTE_SIMILARITY:
        key = ctx.index.section_key(best)
        section = ctx.corpus.notes[key.path].sections[key.section]
        where = f"{key.path}#{section.heading}" if section.heading else key.path
        return f"restates {where} (similarity {scores[best]:.2f}) and adds nothing from another note"
    words = _content_stems(c.claim)
    path = ctx.index.paths[best_note]
    own = _content_stems(" ".join(p.text for p in ctx.index.paragraphs.get(path, [])))
    if len(words) >= 6 and len(words - own) <= len(words) * RESTATED_SHARE:
        return f"restates {path}: all but {len(words - own)} of the claim's {len(words)} words are that note's own"
    return None


def _content_stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in ENGLISH_STOP_WORDS}




def facts_absent_from_refs(c: Candidate, ctx: CriticContext) -> str | None:
    """Names, numbers, capitalised terms, quotations, links, specific words, citations and prior
    conclusions must all come from the cited passages (``walk.facts``)."""
    texts = _cited(c, ctx)
    titles = {normal(ctx.corpus.notes[p].title) for p in _ref_paths(c) if p in ctx.corpus.notes}
    return absent_facts(c.claim, normal(" ".join(texts)), titles, ctx.index)


def impact_unjustified(c: Candidate, ctx: CriticContext) -> str | None:
    if c.impact not in IMPACTS:
        return f"impact {c.impact!r} is neither add nor rewrite"
    if word_count(c.impact_reason) < 5 or fitted.is_bad("refused_impact", c.impact_reason):
        return "impact has no stated reason"
    if c.confidence not in CONFIDENCES:
        return f"confidence {c.confidence!r} is not low, medium or high"
    return None


_UNFALSIFIABLE = re.compile(
    r"\beverything is (?:connected|related)\b|\bin some (?:sense|way)\b|\bat some level\b|\bsomehow\b|"
    r"\bmay or may not\b|\bcould be related in some way\b|\ball things\b|\bin a (?:deep|profound) (?:sense|way)\b|"
    r"\bon some level\b|\buniversal truth\b",
    re.IGNORECASE,
)


def unfalsifiable_claim(c: Candidate, ctx: CriticContext) -> str | None:
    match = _UNFALSIFIABLE.search(c.claim)
    if match:
        return f"unfalsifiable wording: “{match.group(0)}”"
    if (found := fitted.bad_chance("unfalsifiable", c.claim)) is not None:  # quotes included: they are claimed too
        return f"says nothing anyone could check ({found:.0%} by the fitted reader)"
    if sum(1 for w in words(c.claim) if not is_short(w)) < 8:  # eight words of substance, in any language
        return "too little said to be tested"
    return None


def duplicate_of_pool(c: Candidate, ctx: CriticContext) -> str | None:
    refs, notes = set(c.supporting_refs), set(_ref_paths(c))
    claim = normal(c.claim)
    widened = {record.id for record in ctx.pool if refs > set(record.refs)}  # a wider claim supersedes, not repeats
    for record in ctx.pool:
        if record.status not in ("active", "muted", "rejected") or record.id in widened:
            continue
        if refs and refs == set(record.refs):
            return f"same refs as {record.id} ({record.status})"
        if refs and notes <= {note_of(ref) for ref in record.refs}:
            return f"joins the same notes as {record.id} ({record.status}), through other passages"
        if claim and normal(record.claim) == claim:
            return f"same claim as {record.id} ({record.status})"
    if ctx.pool and ctx.index.notes.shape[1]:
        vectors = ctx.index.transform([c.claim] + [r.claim for r in ctx.pool])
        scores = (vectors[1:] @ vectors[0].T).toarray().ravel()
        for record, score in zip(ctx.pool, scores):
            if record.status in ("active", "muted", "rejected") and record.id not in widened and score >= DUPLICATE_SIMILARITY:
                return f"nearly the same claim as {record.id} ({record.status}, similarity {score:.2f})"
    return None


def ungrounded(c: Candidate, ctx: CriticContext) -> str | None:
    """A bridge needs something a reader can check: each half of the claim said in its own passage's words
    (an analogy between passages that share no word), words both passages use in one sense, a note both
    link to, or passages the vault itself shows to be about one thing (it uses their words together)."""
    grounding = c.grounding or {}
    if grounding.get("via"):
        return None
    texts = _joined_passages(c, ctx)
    if texts is None or thread(*texts, ctx.index, _same_topic(c, ctx)) or _each_half_supported(c, ctx, texts):
        return None  # no two notes to join: single-source or the ref rules say why
    return ("nothing joins the cited passages: no word in one sense, no shared note, no closeness in meaning, "
            "and the claim does not say in each passage's own words what that passage shows")


def _each_half_supported(c: Candidate, ctx: CriticContext, texts: tuple[str, str]) -> bool:
    """The claim says, in words of its own (not quoted, not a title), something of each passage that the other
    passage does not hold: each half of the bridge is backed by its own passage."""
    titles = " ".join(ctx.corpus.notes[p].title for p in _ref_paths(c) if p in ctx.corpus.notes)
    claim, titles, *passages = _in_one_language(_unquoted(c.claim, _haystack(c, ctx)), titles, *texts)
    said = _content_stems(claim) - _content_stems(titles)
    a, b = (_content_stems(t) for t in passages)
    return len(said & (a - b)) >= HALF_SUPPORT and len(said & (b - a)) >= HALF_SUPPORT


def _in_one_language(claim: str, *texts: str) -> list[str]:
    """The claim and the texts it is compared with, as written when all or none of them are Chinese; else each
    Chinese one as every English sense of its words (``walker.glosses.english_senses``), so a Chinese claim about
    English notes is read in their words, in whichever sense they use (集群…收敛 as "… cluster … converge"). Where no
    dictionary is installed, as written."""
    chinese = [is_chinese(t) for t in (claim, *texts) if t.strip()]
    if all(chinese) or not any(chinese):
        return [claim, *texts]
    return [(english_senses(t[:MOST_GLOSSED]) or t) if is_chinese(t) else t for t in (claim, *texts)]


def homonym(c: Candidate, ctx: CriticContext) -> str | None:
    """Two passages joined through one shared word and nothing else: the word is most likely used in two
    senses ("rests" in music and "everything rests on quorum"), even when both notes link to a third.
    One word is a thread only in the same phrase, in notes about one subject, or in passages close in
    meaning without it. The claim joins the passages through the word when it names it for each of them (twice or
    more, read in the passages' language); a claim that names it once or not at all joins them by what it says of
    each passage, which ``ungrounded`` judges."""
    texts = _joined_passages(c, ctx)
    if texts is None:
        return None
    shared = shared_words(*texts, ctx.index)
    if len(shared) == 1 and not thread(*texts, ctx.index, _same_topic(c, ctx)).terms and _leans_on(c, texts, shared[0]):
        return (f"the cited passages share only the word “{shared[0]}”, used among different words in each: "
                "most likely one word in two senses")
    grounding = c.grounding or {}
    if not shared and grounding.get("rare_terms") and not grounding.get("via"):
        return "the words said to join the passages are not in both of them (a title is not a passage)"
    return None


def _leans_on(c: Candidate, texts: tuple[str, str], word: str) -> bool:
    """The claim names ``word`` (a stem) for each passage: twice or more, read in the passages' language."""
    claim = _in_one_language(c.claim, *texts)[0]
    return sum(stem(w) == word for w in words(claim)) >= 2


def _joined_passages(c: Candidate, ctx: CriticContext) -> tuple[str, str] | None:
    """The two passages a bridge joins (its first two notes): the ones it quotes, else the text their refs open."""
    ends = _two_ends(c)
    if ends is None:
        return None
    texts = [end.passage or ctx.ref_text(end.ref) for end in ends]
    if texts[0] is None or texts[1] is None:
        return None
    return texts[0], texts[1]


def _two_ends(c: Candidate) -> tuple[End, End] | None:
    """The first end of each of the bridge's first two notes; from the supporting refs when it names no ends."""
    first: dict[str, End] = {}
    for end in [end for end in c.bridge if end.ref] or [End(note_of(r), ref=r) for r in c.supporting_refs]:
        first.setdefault(end.path, end)
    ends = list(first.values())
    return (ends[0], ends[1]) if len(ends) >= 2 else None


def _bridge_refs(c: Candidate) -> list[str]:
    return [end.ref for end in c.bridge if end.ref] or list(c.supporting_refs)


def _same_topic(c: Candidate, ctx: CriticContext) -> bool:
    refs = _bridge_refs(c)
    return len(refs) >= 2 and _note_similarity(refs[0], refs[1], ctx) >= SAME_TOPIC_SIMILARITY


def repeated_text(c: Candidate, ctx: CriticContext) -> str | None:
    """Two quoted passages in nearly the same words were copied between notes (a template, a stock
    paragraph): finding the copy again is no discovery. A candidate that quotes no passages is not judged
    here (a whole section shares runs of words with many others)."""
    ends = _two_ends(c)
    if ends is None or not ends[0].passage or not ends[1].passage:
        return None
    quotes = [ends[0].passage, ends[1].passage]
    a, b = (set(words(q)) for q in quotes)
    if len(a) < 4 or len(b) < 4:
        return None
    overlap = len(a & b) / len(a | b)
    if overlap >= REPEATED_TEXT:
        return f"the two passages say nearly the same words ({overlap:.0%} in common): text copied between notes"
    runs = [re.findall(r"[^\W_]+", q.lower()) for q in quotes]
    grams = [{tuple(words[i : i + REPEATED_RUN]) for i in range(len(words) - REPEATED_RUN + 1)} for words in runs]
    common = grams[0] & grams[1]
    if common:
        return f"the two passages share the run “{' '.join(min(common))} …”: text copied between notes"
    return None


def _note_similarity(a: str, b: str, ctx: CriticContext) -> float:
    rows = [ctx.index.row.get(note_of(ref)) for ref in (a, b)]
    if rows[0] is None or rows[1] is None:
        return 0.0
    return float((ctx.index.notes[rows[0]] @ ctx.index.notes[rows[1]].T).toarray()[0, 0])


def unrecordable(c: Candidate) -> str | None:
    """A field no record could hold (too long, a control character) or a list longer than a record's: a model's
    runaway answer or a hand-written file, refused before any rule reads it."""
    for name in ("claim", "impact_reason", "why_it_matters", "title"):
        if why := text_problem(getattr(c, name)):
            return f"its {name} {why}: no record could hold it"
    for name in ("supporting_refs", "applies_when", "never_applies_when", "disconfirm_if"):
        items = getattr(c, name)
        if len(items) > LIST_LIMIT:
            return f"its {name} holds more than {LIST_LIMIT} items: no record could hold it"
        if why := next((w for item in items if (w := text_problem(item))), None):
            return f"an item of its {name} {why}: no record could hold it"
    return None


RULES: tuple[tuple[str, Check], ...] = (
    ("no-refs", no_refs),
    ("refs-not-retrieved", refs_not_retrieved),
    ("refs-unresolved", refs_unresolved),
    ("no-falsifiable-disconfirm", no_falsifiable_disconfirm),
    ("applies-when-vague", applies_when_vague),
    ("sensitive-attribute", sensitive_attribute),
    ("single-source", single_source),
    ("restates-existing", restates_existing),
    ("facts-absent-from-refs", facts_absent_from_refs),
    ("impact-unjustified", impact_unjustified),
    ("unfalsifiable-claim", unfalsifiable_claim),
    ("duplicate-of-pool", duplicate_of_pool),
    ("ungrounded", ungrounded),
    ("homonym", homonym),
    ("repeated-text", repeated_text),
)


def judge(candidate: Candidate, ctx: CriticContext) -> Verdict:
    if why := unrecordable(candidate):  # read no further: every rule reads a field in time in proportion to it
        return Verdict(False, ("unrecordable",), (why,))
    fired = [(name, reason) for name, check in RULES if (reason := check(candidate, ctx))]
    return Verdict(not fired, tuple(n for n, _ in fired), tuple(r for _, r in fired))


def gate(candidates: Iterable[Candidate], ctx: CriticContext, engine_verdicts: Iterable[Verdict] | None = None,
         noteworthy_limit: int = 1) -> list[Verdict]:
    """Judge every candidate; an engine's rejection stands. Flag at most ``noteworthy_limit`` rejections.

    An engine may flag a rejection as noteworthy; the flag holds only when the deterministic rules
    found nothing worse than the soft failures cross-domain analogies are prone to.
    """
    candidates = list(candidates)
    previous = list(engine_verdicts) if engine_verdicts is not None else [None] * len(candidates)
    verdicts = []
    flagged = 0
    for candidate, before in zip(candidates, previous):
        verdict = judge(candidate, ctx)
        if before is not None and not before.accepted:
            rules = tuple(dict.fromkeys(before.rules + verdict.rules))
            reasons = tuple(dict.fromkeys(before.reasons + verdict.reasons))
            keep_flag = (before.noteworthy and set(verdict.rules) <= SOFT_RULES and flagged < noteworthy_limit)
            flagged += keep_flag
            verdict = Verdict(False, rules, reasons, keep_flag, before.flagged_value_reason if keep_flag else None)
        verdicts.append(verdict)
    return _flag_noteworthy(candidates, verdicts, ctx, noteworthy_limit - flagged)


def one_per_refs(candidates: list[Candidate], verdicts: list[Verdict]) -> list[Verdict]:
    """No two survivors of one walk cite the same refs: the first keeps them, the others are rejected."""
    verdicts = list(verdicts)
    first: dict[frozenset[str], int] = {}
    for i, (candidate, verdict) in enumerate(zip(candidates, verdicts)):
        if not verdict.accepted:
            continue
        refs = frozenset(candidate.supporting_refs)
        if refs in first:
            verdicts[i] = Verdict(False, ("same-refs-in-walk",),
                                  (f"cites the same passages as candidate {first[refs] + 1} of this walk",))
        else:
            first[refs] = i
    return verdicts


def _flag_noteworthy(candidates: list[Candidate], verdicts: list[Verdict], ctx: CriticContext, limit: int) -> list[Verdict]:
    """A rejection that failed only soft rules and joins two folders through rare words is worth a human look."""
    ranked = []
    if limit <= 0:
        return verdicts
    for i, (candidate, verdict) in enumerate(zip(candidates, verdicts)):
        if verdict.accepted or verdict.noteworthy or not set(verdict.rules) <= SOFT_RULES:
            continue
        folders = {end.path.split("/", 1)[0] if "/" in end.path else "" for end in candidate.bridge}
        terms = list((candidate.grounding or {}).get("rare_terms") or [])
        if len(folders) > 1 and len(terms) >= 2:
            ranked.append((len(terms), i, terms))
    for _, i, terms in sorted(ranked, reverse=True)[:limit]:
        verdict = verdicts[i]
        titles = " and ".join(end.title or end.path for end in candidates[i].bridge)
        reason = (f"it joins {titles} across folders through the rare words {', '.join(terms[:4])}; it failed only "
                  f"{', '.join(verdict.rules)}, the rule cross-domain analogies fail most often")
        verdicts[i] = Verdict(False, verdict.rules, verdict.reasons, True, reason)
    return verdicts

