"""One vault, opened: settings, the read-only corpus, its graph, its text index and its pool."""

from __future__ import annotations

import difflib
import shlex
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from walker.config import Settings, load_settings, table
from walker.corpus import Corpus, Resolver, load_corpus
from walker.corpus.load import Progress
from walker.errors import WalkerError
from walker.graph import Adjacency, build_graph, note_links
from walker.pool.store import PoolStore
from walker.similarity import TextIndex, load_index
from walker.wander import WanderSettings

if TYPE_CHECKING:
    import networkx as nx


class NoteNotFound(WalkerError):
    """A note named on the command line is not in the corpus."""


@dataclass
class Workspace:
    root: Path
    settings: Settings
    corpus: Corpus

    @classmethod
    def open(cls, vault: Path | str, progress: Progress | None = None) -> Workspace:
        root = Path(vault)
        settings = load_settings(root) if root.is_dir() else Settings()
        return cls(root, settings, load_corpus(root, settings, progress=progress))

    @cached_property
    def graph(self) -> nx.DiGraph:
        return build_graph(self.corpus)

    @cached_property
    def links(self) -> Adjacency:
        return note_links(self.corpus)

    @cached_property
    def index(self) -> TextIndex:
        return load_index(self.corpus)

    def build_index(self) -> TextIndex:
        """Load or build the TF-IDF index now (it is cached for later runs and for surfacing)."""
        return self.index

    @cached_property
    def pool(self) -> PoolStore:
        """The vault's walks/ folder, through its one writer."""
        return PoolStore(self.root)

    @cached_property
    def wander_settings(self) -> WanderSettings:
        return table(WanderSettings, self.settings.extra, "wander")

    def find_note(self, name: str) -> str:
        """A note by path, by path without `.md`, or by link text as Obsidian would resolve it."""
        if found := self.named_note(name):
            return found
        notes = self.corpus.notes
        candidate = _link_text(name)
        titles = {notes[p].title: p for p in notes}
        # (a suggestion costs time in proportion to the name's length times the vault's: none for a paragraph)
        close = difflib.get_close_matches(candidate, list(titles) + list(notes), n=3, cutoff=0.5) \
            if len(candidate) <= 200 else []
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        shown = name if len(name) <= 120 else name[:120] + "…"
        raise NoteNotFound(f"no note called {shown!r} in {shlex.quote(str(self.root.resolve()))}.{hint}")

    def named_note(self, name: str) -> str | None:
        """The note ``name`` names (a path, a path without `.md`, or link text), or None."""
        notes = self.corpus.notes
        candidate = _link_text(name)
        for path in (candidate, candidate + ".md"):
            if path in notes:
                return path
        if "\n" in candidate or len(candidate) > 1000:  # a paragraph is no note's name
            return None
        resolved = Resolver(notes).resolve(candidate.split("#", 1)[0], "").path
        return resolved if resolved in notes else None


def _link_text(name: str) -> str:
    """A note's name as typed: a path, a path without `.md`, or `[[link text]]`, with Windows separators."""
    return name.strip().removeprefix("[[").removesuffix("]]").replace("\\", "/")
