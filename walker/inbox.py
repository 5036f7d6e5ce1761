"""The confirmation target's capture path: new conclusion notes in the vault's inbox folder.

This is the only code that writes outside ``walks/``, and it only ever creates:
a file that exists is never opened for writing, so a user's note can never be
overwritten or edited. A note appears whole or not at all: it is written to a
hidden temporary file in the inbox, synced, and linked to its name (which fails
when the name is taken, a symlink included); a full disk leaves nothing. A
conclusion note states the fact in the reviewer's words; the hypothesis that
inspired it is lineage (``inspired_by``), never its source (protocol §6.2.1).

The note connects the notes the hypothesis cited, in Obsidian's own terms: each ref is a
property whose whole value is one wikilink (so the Properties panel, the graph and backlinks
show it), and its first line links them again, saying what the confirmation means for the
kind of hypothesis. Its file name is the statement's first words, cut at a word (or, in
Chinese, at a character) and free of what a file name or a link cannot hold.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from walker import safefile, safewrite
from walker.config import inbox_path
from walker.corpus.properties import split_frontmatter
from walker.errors import ConfigError, WalkerError
from walker.kinds import KINDS
from walker.refs import ref_link
from walker.safeyaml import refuse_aliases
from walker.words import is_chinese

CONCLUSION_ID = re.compile(r"conclusion-(\d{4}-\d{2}-\d{2})-(\d{3,})")
NOTE_LIMIT = safefile.MB  # a conclusion note is a few hundred bytes; a larger note is no conclusion
TEMPORARY_PREFIX = safewrite.TEMPORARY_PREFIX  # a note being written; hidden in Obsidian
NAME_LIMIT = 60  # a file name's width in the file explorer: a Chinese character is two columns wide


class InboxError(WalkerError):
    """The inbox folder cannot take a new note."""


@dataclass(frozen=True)
class Conclusion:
    created: str  # YYYY-MM-DD
    source: str  # the evidence that makes the statement true
    statement: str  # in the reviewer's words
    inspired_by: str  # the hypothesis id: lineage only
    corroborating_refs: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()
    id: str = ""  # conclusion-YYYY-MM-DD-NNN; given by ``with_id`` (``capture`` gives one when it is empty)
    kind: str = ""  # the hypothesis's kind (missing-link, duplicate, answer, tension, analogy); empty when unknown
    merge_into: str = ""  # of a duplicate's refs, the note to keep; empty when the hypothesis did not say


def with_id(vault: Path, folder: str, conclusion: Conclusion) -> Conclusion:
    """The conclusion with the next free conclusion id of its day in the inbox."""
    return replace(conclusion, id=_next_id(_checked(vault, folder), conclusion.created))


def render(conclusion: Conclusion) -> str:
    """The text of the conclusion note, exactly as ``capture`` writes it."""
    links = [ref_link(ref) for ref in conclusion.corroborating_refs]
    front = {
        "id": conclusion.id,
        "created": conclusion.created,
        **({"kind": conclusion.kind} if conclusion.kind else {}),
        "source": conclusion.source,
        # Each a whole-value wikilink: Obsidian's Properties panel opens the passages, and its graph and
        # backlinks count the notes as linked.
        "corroborating_refs": links,
        "inspired_by": f"[[{conclusion.inspired_by}]]",
        "tags": ["conclusion"],
    }
    chinese = is_chinese(conclusion.statement)
    # What the confirmation means comes first: the statement is the reviewer's Markdown, and a fence left
    # open in it would turn everything after it into code, links included.
    body = [meaning(conclusion, links, chinese), "", conclusion.statement.strip(), "",
            f"**{'来源：' if chinese else 'Source:'}** {conclusion.source.strip()}", ""]
    if conclusion.evidence:
        body += ["## Evidence", "", *(f"- {e}" for e in conclusion.evidence), ""]
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---\n" + "\n".join(body)


UNDIRECTED_MERGE = ("merge one into the other", "把其中一篇合并进另一篇")


def meaning(conclusion: Conclusion, links: Sequence[str], chinese: bool = False) -> str:
    """The note's first line: what the confirmation means for its kind, with a link to each note."""
    refs = conclusion.corroborating_refs
    if conclusion.kind not in KINDS or len(links) != 2:  # a record's kind is data: an old or hand-edited one
        return ("**已确认。** 相关笔记：" + "、".join(links) if chinese else "**Confirmed.** Notes: " + ", ".join(links))
    # What confirming the kind gives the user, in plain words: {a} and {b} are the two notes, as links; a
    # duplicate merges {other} into {into}.
    name, line = KINDS[conclusion.kind].confirmed["zh" if chinese else "en"]
    a, b = links
    into, other = (a, b) if conclusion.merge_into == refs[0] else (b, a)
    if conclusion.kind == "duplicate" and conclusion.merge_into not in refs:
        english, zh = UNDIRECTED_MERGE
        line = line.replace("merge {other} into {into}", english).replace("把{other}合并进{into}", zh)
    text = line.format(a=a, b=b, into=into, other=other)
    return f"**已确认的{name}：**{text}" if chinese else f"**Confirmed {name}:** {text}"


def capture(vault: Path, folder: str, conclusion: Conclusion) -> Path:
    """Create the conclusion note; returns its path. Never overwrites anything; on a full disk nothing is
    left behind and the OSError is raised."""
    inbox = _checked(vault, folder)
    inbox.mkdir(parents=True, exist_ok=True)
    inbox = _checked(vault, folder)  # again: a folder made on the way must not have led anywhere else
    data = render(conclusion if conclusion.id else with_id(vault, folder, conclusion)).encode("utf-8")
    title = note_title(conclusion.statement)
    # Obsidian finds a note by its path whatever its case: "It holds" beside "it holds" would be ambiguous.
    taken = {_fold(p.name) for p in inbox.iterdir()}
    for attempt in range(100):
        path = inbox / (f"{title}.md" if attempt == 0 else f"{title} ({attempt + 1}).md")
        if _fold(path.name) in taken:
            continue
        try:
            safewrite.create_new(path, data)
        except FileExistsError:
            continue
        return path
    raise InboxError(f"{inbox}: a hundred notes already start with {title!r}; rename some and try again")


def _fold(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def conclusions(vault: Path, folder: str) -> dict[str, list[Path]]:
    """Conclusion notes in the inbox by the hypothesis that inspired them, oldest name first.

    Only real properties count: a note that shows a conclusion's front matter as an example,
    in a code block or further down its text, is not a conclusion."""
    found: dict[str, list[Path]] = {}
    try:
        inbox = _checked(vault, folder)
    except InboxError:
        return found
    for path in sorted(inbox.glob("*.md")):
        front = properties(path)
        inspired_by = str(front.get("inspired_by") or "").removeprefix("[[").removesuffix("]]").partition("|")[0]
        note_id = str(front.get("id") or "")
        if re.fullmatch(r"hyp-[\w-]+", inspired_by) and CONCLUSION_ID.fullmatch(note_id):
            found.setdefault(inspired_by, []).append(path)
    return found


def properties(path: Path) -> dict[str, object]:
    """A note's front matter, or nothing when it has none (or it cannot be read safely)."""
    return read_note(path)[0]


def read_note(path: Path) -> tuple[dict[str, object], str]:
    """A note's front matter and its text; nothing for a special file, a symlink, a note larger than
    ``NOTE_LIMIT`` or front matter that is not YAML."""
    try:
        text = safefile.read_text(path, NOTE_LIMIT)
    except (OSError, UnicodeDecodeError):
        return {}, ""
    try:
        raw, _, _ = split_frontmatter(text)
        if raw is None:
            return {}, text
        refuse_aliases(raw)
        data = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return {}, text
    return (data if isinstance(data, dict) else {}), text


def is_whole(front: Mapping[str, object], text: str) -> bool:
    """Whether a note that begins like a conclusion walker writes has all of it: every property and a
    statement after them (a write cut short leaves an empty or a truncated file)."""
    if not all(front.get(key) for key in ("id", "created", "source", "inspired_by", "tags")):
        return False
    _, _, body = text.partition("\n---\n")
    return bool(body.strip())


def looks_like_conclusion(text: str) -> bool:
    """The start of every conclusion note walker writes, or a piece of it (an empty file included)."""
    start = "---\nid: conclusion-"
    return text.startswith(start) or start.startswith(text)


def notes(vault: Path, folder: str) -> list[Path]:
    """The inbox's Markdown notes (none when the inbox is not a safe folder of the vault)."""
    try:
        return sorted(_checked(vault, folder).glob("*.md"))
    except InboxError:
        return []


def temporaries(vault: Path, folder: str) -> list[Path]:
    """Files a conclusion note's write left when it was killed."""
    try:
        return sorted(p for p in _checked(vault, folder).glob(TEMPORARY_PREFIX + "*.tmp") if safefile.is_regular(p))
    except InboxError:
        return []


def discard_temporary(vault: Path, folder: str, path: Path) -> None:
    """Delete a temporary file walker left in the inbox, and nothing else."""
    if path in temporaries(vault, folder) and os.lstat(path).st_nlink == 1:
        path.unlink()


def _checked(vault: Path, folder: str) -> Path:
    try:
        return inbox_path(vault, folder)
    except ConfigError as exc:
        raise InboxError(str(exc)) from None


def _next_id(inbox: Path, day: str) -> str:
    numbers = [0]
    for path in inbox.glob("*.md"):
        match = CONCLUSION_ID.fullmatch(str(properties(path).get("id") or ""))
        if match and match.group(1) == day:
            numbers.append(int(match.group(2)))
    return f"conclusion-{day}-{max(numbers) + 1:03d}"


def note_title(statement: str, limit: int = NAME_LIMIT) -> str:
    """A file name from the statement: its first sentence when it fits, else its first words up to ``limit``
    columns, cut where a line may break (a space, or beside a Chinese character), never mid-word and with no
    ellipsis; nothing a file name or a link cannot hold (``[ ] # ^ | \\ / : * ? " < > %``)."""
    text = " ".join(statement.split())
    sentences = _SENTENCE_END.split(text)
    first = sentences[0]
    for more in sentences[1:]:  # one word is no sentence: "Dr." or "e.g." ends an abbreviation
        if len(first.split()) > 1 or is_chinese(first):
            break
        first += " " + more
    if _width(first) > limit:  # a whole clause reads better than more words cut off
        head = first[: limit + 1]  # every character is a column wide at least
        clauses = [m.start() for m in _CLAUSE_END.finditer(head) if limit // 2 <= _width(head[: m.start()]) <= limit]
        first = first[: clauses[-1]] if clauses else first
    name = _SEPARATORS.sub(" ", _DROPPED.sub("", first))
    name = re.sub(r" (?=[,;.!])", "", " ".join(name.split()))
    name = _cut(name, limit).strip(" .…").rstrip(" ,;，、；：。…-–—")
    return name or "Conclusion"


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
_CLAUSE_END = re.compile(r"[,;:](?=\s)|\s[—–]\s|[，；：]")
_DROPPED = re.compile(r"[\[\]#*?\"<>%\x00-\x1f\x7f-\x9f]")  # marks: dropped ("[[a link]]" reads "a link")
_SEPARATORS = re.compile(r"[|^\\/:]")  # between words: a space ("read/write" reads "read write")


def _cut(text: str, limit: int) -> str:
    """The longest start of ``text`` at most ``limit`` columns wide that ends where a line may break; cut at
    a character only when there is no such place (one long word)."""
    if _width(text) <= limit:
        return text
    width, end, last = 0, 0, 0
    for i, char in enumerate(text):
        width += 2 if _wide(char) else 1
        if width > limit:
            break
        end = i + 1
        after = text[i + 1 : i + 2]
        if not after or after == " " or _wide(char) or _wide(after):
            last = end
    return text[: last or end]


def _width(text: str) -> int:
    return sum(2 if _wide(char) else 1 for char in text)


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")
