"""A pattern found again: a new pair that shares a passage with an active hypothesis, and whose other
passage speaks of the same thread, widens that hypothesis to three passages.

The wider hypothesis cites every ref of the older one and one more, and its claim keeps the older
claim's passages, so after the walk it supersedes the older one (the protocol's "strictly more
general"). The third passage is read from the pool's record and checked against the note it cites.
"""

from __future__ import annotations

import dataclasses
import re

from walker.refs import note_of
from walker.similarity import stem
from walker.walk.candidate import Candidate
from walker.walk.critic import PoolClaim
from walker.walk.engines.base import WalkContext
from walker.walk.kinds import Wording, capital, key_phrases, note_name, words_of
from walker.walk.sense import surface_forms, thread

_QUOTE = re.compile(r"“([^”]{12,})”")


def widen(context: WalkContext, candidates: list[Candidate]) -> list[Candidate]:
    """Each candidate, or in its place the wider hypothesis it makes with an active record."""
    active = [r for r in context.critic.pool if r.status == "active" and len(r.refs) == 2]
    return [next((w for r in active if (w := _widened(context, c, r)) is not None), c) for c in candidates]


def _widened(context: WalkContext, new: Candidate, old: PoolClaim) -> Candidate | None:
    if len(new.supporting_refs) != 2 or len(new.bridge) != 2:
        return None
    shared = set(new.supporting_refs) & set(old.refs)
    if len(shared) != 1:
        return None
    (common,) = shared
    third_ref = next(r for r in old.refs if r != common)
    third_path = note_of(third_ref)
    new_paths = {note_of(r) for r in new.supporting_refs}
    if third_path in new_paths or third_path not in context.corpus.notes:
        return None
    old_quotes = _QUOTE.findall(old.claim)
    new_quotes = _QUOTE.findall(new.claim)
    if len(old_quotes) != 2 or len(new_quotes) != 2:
        return None
    third_text = old_quotes[list(old.refs).index(third_ref)]
    if not _cited(context, third_ref, third_text):
        return None
    at = list(new.supporting_refs).index(common)
    fresh_text, fresh_end = new_quotes[1 - at], new.bridge[1 - at]
    joined = thread(third_text, fresh_text, context.index)
    thread_stems = {stem(w) for term in (new.grounding or {}).get("rare_terms") or () for w in term.split()}
    carried = [t for t in joined.terms if set(t.split()) & thread_stems]
    if not carried:
        return None  # the third passage shares words with the new one, but not the thread of the pair
    names = [note_name(context.corpus.notes[p].title) for p in (third_path, new.bridge[at]["path"], fresh_end["path"])]
    texts = [third_text, new_quotes[at], fresh_text]
    return dataclasses.replace(new, **dataclasses.asdict(_wording(context, old.id, names, texts, carried)),
                               title=" ↔ ".join(names),
                               supporting_refs=(third_ref, common, new.supporting_refs[1 - at]),
                               bridge=({"path": third_path, "title": names[0], "ref": third_ref,
                                        "group": _group(context, third_path)}, *new.bridge),
                               grounding={**(new.grounding or {}), "widens": old.id})


def _wording(context: WalkContext, old_id: str, names: list[str], texts: list[str], terms: list[str]) -> Wording:
    x, y, z = names
    shared = words_of(surface_forms(texts[2], terms[:3]))
    about = [words_of(key_phrases(t, context.index)) or shared for t in texts]
    quotes = " ".join(f"{capital(n)}: “{t}”" for n, t in zip(names, texts))
    return Wording(
        claim=f"{capital(x)}, {y} and {z} may be three places of one pattern, through {shared}. {quotes}",
        impact="add",
        impact_reason=f"{old_id} joined {x} and {y}; {z} says the same about {shared}, so the pattern reaches "
                      "further than one pair",
        applies_when=(f"Working out how {about[2]} behaves, with {about[0]} in mind.",
                      f"Looking for everything the vault says about {shared}."),
        never_applies_when=(f"Looking up one exact detail about {about[2]}, where the other two notes add nothing.",),
        disconfirm_if=(f"Read side by side, {z} uses {shared} for something other than what {x} and {y} share.",
                       f"The passage in {z} depends on a condition that neither {x} nor {y} has."),
        why_it_matters=f"A pattern in three notes is less likely a coincidence of words than one pair; {z} is the "
                       "third place it turns up.",
    )


def _cited(context: WalkContext, ref: str, text: str) -> bool:
    """The older record's quote is still in the passage its ref opens."""
    cited = context.critic.ref_text(ref)
    return cited is not None and " ".join(text.split()).rstrip(".") in " ".join(cited.split())


def _group(context: WalkContext, path: str) -> str:
    hood = context.neighbourhood
    return "seed" if path == hood.seed.path else next((i.group for i in hood.items if i.path == path), "")


