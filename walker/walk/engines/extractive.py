"""The offline engine: no model, no network, the same output for the same input.

Inventory takes each item's key words and its central sentence. Roam pairs
items from different groups that share rare words or a linked note despite
their distance, and quotes the sentence on each side that carries those words:
every claim is built from the notes' own words. Critique is the deterministic
gate, then a cap: a walk keeps the few strongest survivors.
"""

from __future__ import annotations

import re
from itertools import product

from walker.corpus.text import Paragraph, is_proposition, sentences
from walker.pool.records import Candidate
from walker.walk.critic import Verdict, gate
from walker.walk.engines.base import InventoryEntry, WalkContext
from walker.wander import (
    Item,
    central_sentence,
    paragraph_ref,
    section_ref,
    shared_neighbour,
)

GROUP_RANK = {"seed": 0, "near": 0, "middle": 1, "far": 2}
DAILY = re.compile(r"\d{4}-\d{2}-\d{2}")
ROAM_SIZE = 10
MAX_KEPT = 3
ECHOES = 2
LIST_LIKE = 8
KEY_TERMS = 15


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
        """Pairs from different groups, not already linked, joined by rare words or a shared note."""
        scored = []
        for a, b in product(inventory, inventory):
            if GROUP_RANK[a.group] >= GROUP_RANK[b.group] or a.path == b.path or _linked(context, a.path, b.path):
                continue
            rare = context.index.shared_rare_terms(a.path, b.path, 6)
            via = _shared_note(context, a.path, b.path)
            if not rare and not via:
                continue
            topical = set(context.index.top_terms(a.path, KEY_TERMS)) | set(context.index.top_terms(b.path, KEY_TERMS))
            if rare and not topical & set(rare) and not via:
                continue  # words both happen to use, but neither note is about them
            if not a.sentence or not b.sentence:
                continue
            candidate = self._bridge(context, a, b, rare, via)
            if any(_listiness(quote) >= LIST_LIKE for quote in _quotes(candidate.claim)):
                continue  # an ingredient list or a table row is not a claim worth bridging
            scored.append((_strength(candidate), a.path, b.path, candidate))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        used: dict[str, int] = {}
        candidates = []
        for _, a_path, b_path, candidate in scored:
            if used.get(a_path, 0) >= 3 or used.get(b_path, 0) >= 2:
                continue
            used[a_path] = used.get(a_path, 0) + 1
            used[b_path] = used.get(b_path, 0) + 1
            candidates.append(candidate)
            if len(candidates) >= ROAM_SIZE:
                break
        seed = inventory[0]
        echoes = [e for e in inventory if e.group == "far" and e.sentence]
        echoes.sort(key=lambda e: (-len(context.index.shared_rare_terms(seed.path, e.path)), e.path))
        candidates += [self._echo(context, seed, e) for e in echoes[:ECHOES]
                       if len(context.index.shared_rare_terms(seed.path, e.path)) >= 2]
        return candidates

    def critique(self, context: WalkContext, candidates: list[Candidate]) -> list[Verdict]:
        verdicts = gate(candidates, context.critic, noteworthy_limit=0)
        limit = int(context.options.get("max_hypotheses", MAX_KEPT))
        kept = sorted((i for i, v in enumerate(verdicts) if v.accepted), key=lambda i: -_strength(candidates[i]))
        for rank, i in enumerate(kept):
            if rank >= limit:
                verdicts[i] = Verdict(False, ("beyond-the-few",),
                                      (f"sound, but a walk keeps only its {limit} best-grounded candidates",))
        return verdicts

    # --- building candidates ------------------------------------------------------

    def _bridge(self, context: WalkContext, a: InventoryEntry, b: InventoryEntry, rare: list[str],
                via: str | None) -> Candidate:
        sa, ra = _sentence_with(context, a, rare)
        sb, rb = _sentence_with(context, b, rare)
        carried = [t for t in rare if _has_word(sa, t) and _has_word(sb, t)]
        named_a, named_b = _name(a), _name(b)
        words = _words(carried[:2] or rare[:2])
        claim = (f"{_capital(named_a)} and {named_b} may be two views of one pattern"
                 + (f" around {words}." if rare else ".")
                 + f" {_capital(named_a)}: “{sa.strip()}” {_capital(named_b)}: “{sb.strip()}”")
        impact, reason = _impact(named_a, named_b, sa, sb)
        term = (carried or rare or [None])[0]
        via_title = context.corpus.notes[via].title if via in context.corpus.notes else None
        return Candidate(
            title=f"{a.title} ↔ {b.title}",
            claim=claim,
            supporting_refs=tuple(dict.fromkeys((ra, rb))),
            confidence="medium" if len(carried) >= 2 or (carried and via) else "low",
            impact=impact,
            impact_reason=reason,
            applies_when=(
                f"A conversation about {named_a} turns to {words or 'what ' + named_a + ' depends on'}.",
                f"Stuck on {named_b} and open to an analogy from {named_a}.",
            ),
            never_applies_when=(
                f"Following {named_a} step by step to get something done today.",
                f"Fixing a concrete problem in {named_b}, where an analogy would only distract.",
            ),
            disconfirm_if=tuple(x for x in (
                f"Read side by side, “{term}” means something different in {named_a} than in {named_b}." if term else None,
                f"The two passages give opposite advice about “{term}”." if term else None,
                f"{_capital(named_a)} and {named_b} turn out to link to {via_title} for unrelated reasons." if via_title else None,
            ) if x),
            why_it_matters=(f"{_capital(named_a)} ({a.group}) and {named_b} ({b.group}) {_apart(context, a, b)}"
                            + (f", though both link to {via_title}" if via_title else "")
                            + f". If {words or 'the shared note'} {'work' if len(carried) > 1 else 'works'} the same way in both, "
                            f"what the vault already knows about {named_a} is a ready-made question to ask of {named_b}."),
            bridge=(_end(a, ra), _end(b, rb)),
            grounding={"rare_terms": list(rare), "carried": carried, "via": via,
                       "strength": round(3 * len(carried) + 0.5 * len(rare) + bool(via) + GROUP_RANK[b.group]
                                         - GROUP_RANK[a.group] + 2 * (a.group == "seed"), 2)},
        )

    def _echo(self, context: WalkContext, seed: InventoryEntry, far: InventoryEntry) -> Candidate:
        """One far passage read as a rule for the seed's domain: single-source by nature (§11.6)."""
        rare = context.index.shared_rare_terms(seed.path, far.path)
        sentence, ref = _sentence_with(context, far, rare)
        return Candidate(
            title=f"{far.title} as a rule beyond its own domain",
            claim=f"{far.title} may state a rule that holds well beyond its own domain: “{_trim(sentence)}”",
            supporting_refs=(ref,),
            confidence="low",
            impact="add",
            impact_reason=f"nothing in the vault applies {far.title} outside its domain yet",
            applies_when=(f"Someone asks whether {far.title} has lessons for {seed.title}.",),
            never_applies_when=(f"Working inside {far.title} itself, where the rule is already known.",),
            disconfirm_if=(f"The passage in {far.title} depends on a condition that {seed.title} does not share.",),
            why_it_matters=f"{far.title} and the seed {seed.title} share the rare words {_words(rare[:3])}.",
            bridge=(_end(seed, seed.sentence_ref), _end(far, ref)),
            grounding={"rare_terms": list(rare), "carried": [], "via": None, "strength": 0.0},
        )


def _end(entry: InventoryEntry, ref: str) -> dict[str, str]:
    return {"path": entry.path, "title": entry.title, "group": entry.group, "ref": ref}


def _sentence_with(context: WalkContext, entry: InventoryEntry, terms: list[str]) -> tuple[str, str]:
    """The sentence of a note that carries most of the shared words; its central sentence otherwise."""
    note = context.corpus.notes[entry.path]
    best: tuple[int, int, str, Paragraph] | None = None
    for position, paragraph in enumerate(context.index.paragraphs.get(entry.path, [])):
        if paragraph.is_task:
            continue
        for sentence in sentences(paragraph.text):
            if not is_proposition(sentence, entry.title):
                continue
            hits = sum(_has_word(sentence, t) for t in terms)
            length = len(sentence.split())
            # Prose over lists: a sentence full of numbers and commas is an ingredient list, not a claim.
            fragment = 0 if sentence.rstrip().endswith((".", "!", "?", "”", '"')) else 5  # a list item or a label
            score = 10 * hits - _listiness(sentence) - fragment
            if hits and 5 <= length <= 60 and (best is None or (score, -position) > (best[0], best[1])):
                best = (score, -position, sentence, paragraph)
    if best is None:
        return entry.sentence, entry.sentence_ref
    return best[2], paragraph_ref(note, best[3])


def _listiness(sentence: str) -> int:
    """Digits, commas, colons and code symbols: high for lists, table rows and syntax; low for prose."""
    symbols = sum(sentence.count(ch) for ch in "{}[]<>=|\\#")
    return len(re.findall(r"\d", sentence)) + sentence.count(",") + 2 * sentence.count(":") + 2 * symbols


def _quotes(claim: str) -> list[str]:
    return re.findall(r"“([^”]*)”", claim)


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def _shared_note(context: WalkContext, a: str, b: str) -> str | None:
    return shared_neighbour(context.links, a, b, set(context.neighbourhood.hubs))


def _linked(context: WalkContext, a: str, b: str) -> bool:
    return b in context.links.get(a, ())


def _apart(context: WalkContext, a: InventoryEntry, b: InventoryEntry) -> str:
    distance = {i.path: i.distance for i in context.neighbourhood.items}.get(b.path)
    if _linked(context, a.path, b.path):
        return "are already linked"
    if distance is None:
        return "are not connected by any chain of links"
    return f"are {distance} links apart" if a.group == "seed" else "sit in different parts of the vault"


def _words(terms: list[str]) -> str:
    quoted = [f"“{t}”" for t in terms]
    return " and ".join(quoted) if len(quoted) <= 2 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _trim(sentence: str) -> str:
    return sentence.strip()


def _strength(candidate: Candidate) -> float:
    return float((candidate.grounding or {}).get("strength") or 0.0)


_CONTRARY = re.compile(r"\b(?:not|never|no|instead|rather|without|opposite|unlike)\b|n't\b", re.IGNORECASE)


def _impact(a: str, b: str, sa: str, sb: str) -> tuple[str, str]:
    """Rewrite when exactly one passage pushes against something; add otherwise."""
    if bool(_CONTRARY.search(sa)) != bool(_CONTRARY.search(sb)):
        return "rewrite", (f"one passage says what to avoid and the other what to do, so the bridge would revise how "
                           f"{a} or {b} is read rather than add beside it")
    return "add", f"{a} and {b} are not linked, so the bridge adds a connection the vault does not have yet"


def _name(entry: InventoryEntry) -> str:
    """How a note is named in a claim: its title, or "the note of 2026-04-04" for a daily note."""
    return f"the note of {entry.title}" if DAILY.fullmatch(entry.title) else entry.title


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
