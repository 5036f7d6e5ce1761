"""The confirmation target's capture path: new conclusion notes in the vault's inbox folder.

This is the only code that writes outside ``walks/``, and it only ever creates:
a file that exists is never opened for writing (``O_EXCL``), so a user's note
can never be overwritten or edited. A conclusion note states the fact in the
reviewer's words; the hypothesis that inspired it is lineage (``inspired_by``),
never its source (protocol §6.2.1).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from walker.config import inbox_path
from walker.corpus.properties import split_frontmatter
from walker.errors import ConfigError, WalkerError
from walker.pool.records import ref_link
from walker.safeyaml import refuse_aliases

CONCLUSION_ID = re.compile(r"conclusion-(\d{4}-\d{2}-\d{2})-(\d{3,})")


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


def capture(vault: Path, folder: str, conclusion: Conclusion) -> Path:
    """Create the conclusion note; returns its path. Never overwrites anything."""
    inbox = _checked(vault, folder)
    inbox.mkdir(parents=True, exist_ok=True)
    inbox = _checked(vault, folder)  # again: a folder made on the way must not have led anywhere else
    note_id = _next_id(inbox, conclusion.created)
    front = {
        "id": note_id,
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
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---\n" + "\n".join(body)
    title = _title(conclusion.statement)
    for attempt in range(100):
        name = f"{title}.md" if attempt == 0 else f"{title} ({attempt + 1}).md"
        path = inbox / name
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
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
    try:
        if path.is_symlink() or path.stat().st_size > 1024 * 1024:
            return {}
        raw, _, _ = split_frontmatter(path.read_text(encoding="utf-8"))
        if raw is None:
            return {}
        refuse_aliases(raw)
        data = yaml.safe_load(raw)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def _checked(vault: Path, folder: str) -> Path:
    try:
        return inbox_path(vault, folder)
    except ConfigError as exc:
        raise InboxError(str(exc)) from None


def _next_id(inbox: Path, day: str) -> str:
    numbers = [0]
    for path in inbox.glob("*.md"):
        try:
            head = path.read_text(encoding="utf-8", errors="replace")[:400]
        except OSError:
            continue
        match = CONCLUSION_ID.search(head)
        if match and match.group(1) == day:
            numbers.append(int(match.group(2)))
    return f"conclusion-{day}-{max(numbers) + 1:03d}"


def _title(statement: str, limit: int = 80) -> str:
    """A file name from the statement: its first sentence whole when it fits, else cut at a word with an
    ellipsis; safe in Obsidian (no # | ^ : [ ] / \\)."""
    first = re.split(r"(?<=[.!?])\s", statement.strip(), maxsplit=1)[0]
    words = re.sub(r"[#|^:\[\]/\\%*\"<>?]", " ", first).split()
    title = " ".join(words).strip(" .")
    if len(title) > limit:
        title = title[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;.") + "…"
    return title or "Conclusion"
