"""What a walk proposes (a candidate), and the pool record a surviving candidate becomes.

The pool (``walker/pool/records.py``) owns the records' schema and never imports the walk; the walk
builds records in that schema from its own candidates here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from walker.pool.records import CONFIDENCE_SCHEME, NOTEWORTHY_STATUS, note_link


@dataclass(frozen=True)
class Candidate:
    """What an engine's roam phase proposes: a §9-shaped record without id or status."""

    claim: str
    supporting_refs: tuple[str, ...]
    confidence: str
    impact: str
    impact_reason: str
    applies_when: tuple[str, ...]
    never_applies_when: tuple[str, ...]
    disconfirm_if: tuple[str, ...]
    why_it_matters: str = ""
    bridge: tuple[dict[str, Any], ...] = ()  # the items joined: path, ref, group
    grounding: Mapping[str, Any] | None = None  # {"rare_terms": [...], "via": path or None}
    title: str = ""
    kind: str = ""  # missing-link, tension, answer or analogy (walk/kinds.py); empty when an engine does not say

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "kind": self.kind,
            "claim": self.claim,
            "supporting_refs": list(self.supporting_refs),
            "confidence": self.confidence,
            "impact": self.impact,
            "impact_reason": self.impact_reason,
            "applies_when": list(self.applies_when),
            "never_applies_when": list(self.never_applies_when),
            "disconfirm_if": list(self.disconfirm_if),
            "why_it_matters": self.why_it_matters,
            "bridge": [dict(b) for b in self.bridge],
            "grounding": dict(self.grounding) if self.grounding else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Candidate:
        """Build from YAML (``walker critique``); missing fields stay empty for the gate to judge."""

        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or ()
            return (str(value),) if isinstance(value, str) else tuple(str(v) for v in value)

        return cls(
            claim=str(data.get("claim") or "").strip(),
            supporting_refs=strings("supporting_refs"),
            confidence=str(data.get("confidence") or ""),
            impact=str(data.get("impact") or ""),
            impact_reason=str(data.get("impact_reason") or ""),
            applies_when=strings("applies_when"),
            never_applies_when=strings("never_applies_when"),
            disconfirm_if=strings("disconfirm_if"),
            why_it_matters=str(data.get("why_it_matters") or ""),
            bridge=tuple(dict(b) for b in data.get("bridge") or () if isinstance(b, Mapping)),
            grounding=data.get("grounding") if isinstance(data.get("grounding"), Mapping) else None,
            title=str(data.get("title") or ""),
            kind=str(data.get("kind") or ""),
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
        "claim": candidate.claim,
        "supporting_refs": list(candidate.supporting_refs),
        "confidence_scheme": CONFIDENCE_SCHEME,
        "confidence": candidate.confidence,
        "impact": candidate.impact,
        "impact_reason": candidate.impact_reason,
        "status": "active",
        "applies_when": list(candidate.applies_when),
        "never_applies_when": list(candidate.never_applies_when),
        "disconfirm_if": list(candidate.disconfirm_if),
        "expires_after_walks": expires_after_walks,
        "idle_walks": 0,  # walks since created or last engaged; at expires_after_walks it is archived
        "why_it_matters": candidate.why_it_matters,
        "walk": walk_id,
        "engine": engine,
        # Flat lists of text, so Obsidian's Properties panel shows them (it cannot show nested maps).
        "bridge": [f"{b.get('group', '')}: {b.get('ref') or b.get('path', '')}".strip(": ") for b in candidate.bridge],
        "thread": list((candidate.grounding or {}).get("rare_terms") or []),
        **({"via": note_link(str(via))} if (via := (candidate.grounding or {}).get("via")) else {}),
        "notes": [note_link(b["path"]) for b in candidate.bridge if "path" in b],
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
        "rejection_reason": rejection_reason,
        "flagged_value_reason": flagged_value_reason,
        "human_review_outcome": "",
        "walk": walk_id,
        "engine": engine,
        "notes": [note_link(b["path"]) for b in candidate.bridge if "path" in b],
        "title": candidate.title,
    }
