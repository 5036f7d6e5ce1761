"""The engine surface: the three phases of a walk pass (protocol §11.4).

The runner calls ``inventory``, then ``roam``, then ``critique``, and keeps
each phase's full output in the run record. Whatever an engine's critique
keeps, the deterministic gate (walk/critic.py) runs after it and can only
reject more. Engines read the walk context; they never write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from walker.corpus.model import Corpus
from walker.graph import Adjacency
from walker.similarity import TextIndex
from walker.walk.candidate import Candidate
from walker.walk.critic import CriticContext, Verdict
from walker.wander import Neighbourhood


@dataclass(frozen=True)
class InventoryEntry:
    """What one retrieved item says, before any bridging."""

    path: str
    title: str
    group: str  # seed, near, middle or far
    ref: str  # the item's section
    key_terms: tuple[str, ...]
    sentence: str  # the item's central sentence, in its own words
    sentence_ref: str  # the paragraph that sentence comes from

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "title": self.title, "group": self.group, "ref": self.ref,
                "key_terms": list(self.key_terms), "sentence": self.sentence, "sentence_ref": self.sentence_ref}


@dataclass
class WalkContext:
    corpus: Corpus
    index: TextIndex
    links: Adjacency  # links and backlinks between corpus notes
    neighbourhood: Neighbourhood
    critic: CriticContext
    options: dict[str, Any] = field(default_factory=dict)


class Engine(Protocol):
    name: str
    transcript: list[dict[str, Any]]  # every model call (prompts and answers), for the run record; may be empty

    def inventory(self, context: WalkContext) -> list[InventoryEntry]:
        """Restate the seed and what each retrieved item says. No bridging yet."""

    def roam(self, context: WalkContext, inventory: list[InventoryEntry]) -> list[Candidate]:
        """Propose candidate bridges between items, liberally: more than will survive."""

    def critique(self, context: WalkContext, candidates: list[Candidate]) -> list[Verdict]:
        """Judge each candidate in a critic's role; one verdict per candidate, in order."""
