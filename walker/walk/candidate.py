"""What a walk proposes (a candidate), and the pool record a surviving candidate becomes.

The pool (``walker/pool/records.py``) owns the records' schema and never imports the walk; the walk
builds records in that schema from its own candidates here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from walker.pool.records import CONFIDENCE_SCHEME, NOTEWORTHY_STATUS, PROPOSED, TEXTS
from walker.refs import note_link, note_of


@dataclass(frozen=True)
class End:
    """One end of a bridge: the note, the passage the walk quotes from it, and the thread's words in that passage.

    The passage travels as data from the roam to the record (its ``passages`` property), so nothing reads it
    back out of the claim's wording. An end a model or a hand-written candidate gives may have no passage:
    then the critic reads the text its ref opens."""

    path: str
    title: str = ""
    group: str = ""  # seed, near, middle or far: where the walk found the note
    ref: str = ""  # the passage's ref (``path#^block``); empty when an end names only its note
    passage: str = ""  # the sentence quoted, in the note's own words
    terms: tuple[str, ...] = ()  # the thread's words as this passage writes them

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "title": self.title, "group": self.group, "ref": self.ref,
                "passage": self.passage, "terms": list(self.terms)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> End:
        """An end as YAML or a model writes it; ``path`` defaults to the note of its ref."""
        ref = str(data.get("ref") or "")
        terms = data.get("terms")
        return cls(path=str(data.get("path") or (note_of(ref) if ref else "")),
                   title=str(data.get("title") or ""), group=str(data.get("group") or ""), ref=ref,
                   passage=str(data.get("passage") or "").strip(),
                   terms=tuple(str(t) for t in terms) if isinstance(terms, (list, tuple)) else
                   (str(terms),) if terms else ())


@dataclass(frozen=True)
class Candidate:
    """What an engine's roam phase proposes: a §9-shaped record without id or status.

    Its proposed fields are ``pool.records.PROPOSED``: the ones the walk reads have an attribute each here, and
    any other lands in ``more``, so a field added there reaches the record with no edit here."""

    claim: str
    supporting_refs: tuple[str, ...]
    confidence: str
    impact: str
    impact_reason: str
    applies_when: tuple[str, ...]
    never_applies_when: tuple[str, ...]
    disconfirm_if: tuple[str, ...]
    why_it_matters: str = ""
    bridge: tuple[End, ...] = ()  # the items joined, each with its passage
    grounding: Mapping[str, Any] | None = None  # {"rare_terms": [...], "via": path or None}
    title: str = ""
    kind: str = ""  # missing-link, tension, answer or analogy (walk/kinds.py); empty when an engine does not say
    merge_into: str = ""  # a duplicate's supporting ref to keep, the other merged into it; empty when not said
    more: Mapping[str, Any] = field(default_factory=dict)  # proposed fields with no attribute of their own

    @classmethod
    def proposing(cls, values: Mapping[str, Any], **rest: Any) -> Candidate:
        """A candidate from the proposed fields as an engine or a file gives them (lists as tuples, text as
        text, missing ones empty), and the rest of what a candidate holds."""
        attributes = {f.name for f in dataclasses.fields(cls)}
        given: dict[str, Any] = {}
        for proposed in PROPOSED:
            value = values.get(proposed.name)
            if proposed.shape == TEXTS:
                value = (tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else
                         () if value is None or value == "" else (str(value),))
            else:
                value = "" if value is None else str(value).strip()
            given[proposed.name] = value
        more = {name: value for name, value in given.items() if name not in attributes}
        return cls(**{name: value for name, value in given.items() if name in attributes}, more=more, **rest)

    def proposed(self) -> dict[str, Any]:
        """The proposed fields, in PROPOSED's order, as a record writes them (lists as lists)."""
        values = {**self.more, **{f.name: getattr(self, f.name) for f in PROPOSED if hasattr(self, f.name)}}
        return {f.name: list(values.get(f.name) or ()) if f.shape == TEXTS else values.get(f.name, "")
                for f in PROPOSED}

    @property
    def passages(self) -> tuple[str, ...]:
        """The passage quoted for each supporting ref, in the same order; empty unless every ref has one."""
        quoted = {end.ref: end.passage for end in self.bridge if end.ref and end.passage}
        found = tuple(quoted.get(ref, "") for ref in self.supporting_refs)
        return found if found and all(found) else ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "kind": self.kind,
            **self.proposed(),
            **({"merge_into": self.merge_into} if self.merge_into else {}),
            "bridge": [end.as_dict() for end in self.bridge],
            "grounding": dict(self.grounding) if self.grounding else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        """Build from YAML (``walker critique``) or a model's answer; missing fields stay empty for the gate to judge.

        The passages quoted come from each ``bridge`` end's ``passage``, or from ``passages`` (one per supporting
        ref, as a pool record keeps them); without either, the critic reads the text each ref opens."""

        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or ()
            return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)

        refs = strings("supporting_refs")
        bridge = [End.from_dict(end) for end in data.get("bridge") or () if isinstance(end, Mapping)]
        passages = strings("passages")  # one per supporting ref, as a pool record keeps them
        if passages and len(passages) == len(refs):
            quoted = dict(zip(refs, passages))
            bridge = ([dataclasses.replace(end, passage=end.passage or quoted.get(end.ref, "")) for end in bridge]
                      or [End(note_of(ref), ref=ref, passage=passage) for ref, passage in quoted.items()])
        return cls.proposing(
            {**data, "supporting_refs": refs},
            bridge=tuple(bridge),
            grounding=data.get("grounding") if isinstance(data.get("grounding"), Mapping) else None,
            title=str(data.get("title") or ""),
            kind=str(data.get("kind") or ""),
            merge_into=str(data.get("merge_into") or ""),
        )


def hypothesis_record(
    candidate: Candidate, *, id: str, created: str, seed: str, walk_id: str, engine: str, expires_after_walks: int
) -> dict[str, Any]:
    """The §9 record (plus binding fields) for a surviving candidate, in reading order."""
    return {
        "id": id,
        "created": created,
        "seed": seed,
        **({"kind": candidate.kind} if candidate.kind else {}),
        **_proposed_with_passages(candidate),
        "confidence_scheme": CONFIDENCE_SCHEME,
        "status": "active",
        "expires_after_walks": expires_after_walks,
        "idle_walks": 0,  # walks since created or last engaged; at expires_after_walks it is archived
        "walk": walk_id,
        "engine": engine,
        # Flat lists of text, so Obsidian's Properties panel shows them (it cannot show nested maps).
        "bridge": [f"{end.group}: {end.ref or end.path}".strip(": ") for end in candidate.bridge],
        "thread": list((candidate.grounding or {}).get("rare_terms") or []),
        **({"via": note_link(str(via))} if (via := (candidate.grounding or {}).get("via")) else {}),
        "notes": [note_link(end.path) for end in candidate.bridge if end.path],
        "title": candidate.title,
    }


def noteworthy_record(
    candidate: Candidate, *, id: str, created: str, seed: str, walk_id: str, engine: str,
    rejection_reason: str, flagged_value_reason: str,
) -> dict[str, Any]:
    """The §11.6 entry: no confidence, impact or context fields; a reviewer decides its fate."""
    return {
        "id": id,
        "created": created,
        "seed": seed,
        "status": NOTEWORTHY_STATUS,
        "claim": candidate.claim,
        "supporting_refs": list(candidate.supporting_refs),
        **_passages(candidate),
        "rejection_reason": rejection_reason,
        "flagged_value_reason": flagged_value_reason,
        "human_review_outcome": "",
        "walk": walk_id,
        "engine": engine,
        "notes": [note_link(end.path) for end in candidate.bridge if end.path],
        "title": candidate.title,
    }


def _proposed_with_passages(candidate: Candidate) -> dict[str, Any]:
    """The proposed fields, with what was quoted from each supporting ref (and a duplicate's note to keep) right
    after the refs, where a reader of the properties looks for them."""
    written: dict[str, Any] = {}
    for name, value in candidate.proposed().items():
        written[name] = value
        if name == "supporting_refs":
            written.update(_passages(candidate))
            if candidate.merge_into in candidate.supporting_refs[:2]:
                written["merge_into"] = candidate.merge_into
    return written


def _passages(candidate: Candidate) -> dict[str, list[str]]:
    """The ``passages`` property: the text quoted from each supporting ref, in the same order, as a flat list of
    text (Obsidian's Properties panel shows it); none when the candidate does not carry them all."""
    return {"passages": list(candidate.passages)} if candidate.passages else {}
