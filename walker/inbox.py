"""The confirmation target's capture path: new conclusion notes in the vault's inbox folder.

This is the only code that writes outside ``walks/``, and it only ever creates:
a file that exists is never opened for writing, so a user's note can never be
overwritten or edited. A note appears whole or not at all: it is written to a
hidden temporary file in the inbox, synced, and linked to its name (which fails
when the name is taken, a symlink included); a full disk leaves nothing. A
conclusion note states the fact in the reviewer's words; the hypothesis that
inspired it is lineage (``inspired_by``), never its source (protocol §6.2.1).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from walker import safefile
from walker.config import inbox_path
from walker.corpus.properties import split_frontmatter
from walker.errors import ConfigError, WalkerError
from walker.pool.records import ref_link
from walker.safeyaml import refuse_aliases

CONCLUSION_ID = re.compile(r"conclusion-(\d{4}-\d{2}-\d{2})-(\d{3,})")
NOTE_LIMIT = safefile.MB  # a conclusion note is a few hundred bytes; a larger note is no conclusion
TEMPORARY_PREFIX = safefile.TEMPORARY_PREFIX  # a note being written; hidden in Obsidian


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


def with_id(vault: Path, folder: str, conclusion: Conclusion) -> Conclusion:
    """The conclusion with the next free conclusion id of its day in the inbox."""
    return replace(conclusion, id=_next_id(_checked(vault, folder), conclusion.created))


def render(conclusion: Conclusion) -> str:
    """The text of the conclusion note, exactly as ``capture`` writes it."""
    front = {
        "id": conclusion.id,
        "created": conclusion.created,
        "source": conclusion.source,
        # Wikilinks, so Obsidian's Properties panel opens the passages and the record.
        "corroborating_refs": [ref_link(ref) for ref in conclusion.corroborating_refs],
        "inspired_by": f"[[{conclusion.inspired_by}]]",
        "tags": ["conclusion"],
    }
    body = [conclusion.statement.strip(), ""]
    if conclusion.evidence:
        body += ["## Evidence", "", *(f"- {e}" for e in conclusion.evidence), ""]
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---\n" + "\n".join(body)


def capture(vault: Path, folder: str, conclusion: Conclusion) -> Path:
    """Create the conclusion note; returns its path. Never overwrites anything; on a full disk nothing is
    left behind and the OSError is raised."""
    inbox = _checked(vault, folder)
    inbox.mkdir(parents=True, exist_ok=True)
    inbox = _checked(vault, folder)  # again: a folder made on the way must not have led anywhere else
    data = render(conclusion if conclusion.id else with_id(vault, folder, conclusion)).encode("utf-8")
    title = _title(conclusion.statement)
    for attempt in range(100):
        path = inbox / (f"{title}.md" if attempt == 0 else f"{title} ({attempt + 1}).md")
        try:
            safefile.create_new(path, data)
        except FileExistsError:
            continue
        return path
    raise InboxError(f"{inbox}: a hundred notes already start with {title!r}; rename some and try again")


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


def _title(statement: str, limit: int = 80) -> str:
    """A file name from the statement: its first sentence whole when it fits, else cut at a word with an
    ellipsis; safe in Obsidian (no # | ^ : [ ] / \\)."""
    first = re.split(r"(?<=[.!?])\s", statement.strip(), maxsplit=1)[0]
    words = re.sub(r"[#|^:\[\]/\\%*\"<>?\x00-\x1f\x7f-\x9f]", " ", first).split()
    title = " ".join(words).strip(" .")
    if len(title) > limit:
        title = title[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;.") + "…"
    return title or "Conclusion"
