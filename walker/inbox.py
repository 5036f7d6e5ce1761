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

from walker.errors import WalkerError

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
    inbox = (vault / folder).resolve()
    if not str(inbox).startswith(str(vault.resolve())):
        raise InboxError(f"inbox folder {folder!r} is outside the vault")
    inbox.mkdir(parents=True, exist_ok=True)
    note_id = _next_id(inbox, conclusion.created)
    front = {
        "id": note_id,
        "created": conclusion.created,
        "source": conclusion.source,
        "corroborating_refs": list(conclusion.corroborating_refs),
        "inspired_by": conclusion.inspired_by,
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


def conclusions(vault: Path, folder: str) -> dict[str, Path]:
    """Conclusion notes in the inbox by the hypothesis that inspired them."""
    found: dict[str, Path] = {}
    for path in sorted((vault / folder).glob("*.md")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        match = re.search(r"^inspired_by:\s*['\"]?(hyp-[\w-]+)", text, re.MULTILINE)
        if match and re.search(r"^id:\s*['\"]?conclusion-", text, re.MULTILINE):
            found[match.group(1)] = path
    return found


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


def _title(statement: str) -> str:
    """A file name from the statement's first words, safe in Obsidian (no # | ^ : [ ] / \\)."""
    words = re.sub(r"[#|^:\[\]/\\%*\"<>?]", " ", statement).split()
    title = " ".join(words[:8]).strip(" .") or "Conclusion"
    return title[:80]
