"""The read-only view of an Obsidian vault: files, notes, links, tags, headings, blocks."""

from walker.corpus.load import load_corpus
from walker.corpus.model import (
    Block,
    Corpus,
    Heading,
    Link,
    ParsedNote,
    RawLink,
    Section,
    Skipped,
    VaultFile,
)
from walker.corpus.resolve import Resolver, find_subpath

__all__ = [
    "Block",
    "Corpus",
    "Heading",
    "Link",
    "ParsedNote",
    "RawLink",
    "Resolver",
    "Section",
    "Skipped",
    "VaultFile",
    "find_subpath",
    "load_corpus",
]
