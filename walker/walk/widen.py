"""A pattern found again: a new pair that shares a passage with an active hypothesis, and whose other
passage speaks of the same thread, widens that hypothesis to three passages.

The wider hypothesis cites every ref of the older one and one more, and its claim keeps the older
claim's passages, so after the walk it supersedes the older one (the protocol's "strictly more
general"). The third passage is read from the pool's record (its ``passages``, never its claim's wording)
and checked against the note it cites; an older record that keeps no passages is not widened.
"""

from __future__ import annotations

import dataclasses

from walker.refs import note_of
from walker.walk.candidate import Candidate, End
from walker.walk.critic import PoolClaim
from walker.walk.engines.base import WalkContext
from walker.walk.kinds import Wording, capital, key_phrases, note_name, words_of
from walker.walk.sense import surface_forms, thread
from walker.words import stem


def widen(context: WalkContext, candidates: list[Candidate]) -> list[Candidate]:
    """Each candidate, or in its place the wider hypothesis it makes with an active record."""
    active = [r for r in context.critic.pool if r.status == "active" and len(r.refs) == 2]
    return [next((w for r in active if (w := _widened(context, c, r)) is not None), c) for c in candidates]


def _widened(context: WalkContext, new: Candidate, old: PoolClaim) -> Candidate | None:
    if len(new.supporting_refs) != 2 or len(new.bridge) != 2 or len(old.passages) != len(old.refs):
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
    ends = {end.ref: end for end in new.bridge}
    fresh_ref = next(r for r in new.supporting_refs if r != common)
    if common not in ends or fresh_ref not in ends or not ends[common].passage or not ends[fresh_ref].passage:
        return None
    common_end, fresh_end = ends[common], ends[fresh_ref]
    third_text = old.passages[list(old.refs).index(third_ref)]
    if not _cited(context, third_ref, third_text):
        return None
    joined = thread(third_text, fresh_end.passage, context.index)
    thread_stems = {stem(w) for term in (new.grounding or {}).get("rare_terms") or () for w in term.split()}
    carried = [t for t in joined.terms if set(t.split()) & thread_stems]
    if not carried:
        return None  # the third passage shares words with the new one, but not the thread of the pair
    names = [note_name(context.corpus.notes[p].title) for p in (third_path, common_end.path, fresh_end.path)]
    texts = [third_text, common_end.passage, fresh_end.passage]
    third = End(third_path, names[0], _group(context, third_path), third_ref, third_text,
                tuple(surface_forms(third_text, carried)))
    return dataclasses.replace(new, **dataclasses.asdict(_wording(context, old.id, names, texts, carried)),
                               title=" ↔ ".join(names),
                               supporting_refs=(third_ref, common, fresh_ref),
                               bridge=(third, *new.bridge),
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


