"""The only writer under ``walks/``: ids, atomic writes and moves, the pool lock, log.md.

Every write goes to a temporary file in the same folder and is renamed into
place, so a crash never leaves half a record. Pool changes hold an exclusive
lock on ``walks/.lock`` (a dot-file: Obsidian never shows it). Records are
rewritten with ruamel.yaml's round-trip mode, so a reviewer's edits, key order
and comments in the frontmatter survive, and so does everything under
``## Reviewer notes``.
"""

from __future__ import annotations

import fcntl
import io
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML

from walker.pool.records import (
    FOLDER_OF_STATUS,
    HYPOTHESIS_ID,
    NOTEWORTHY_ID,
    REVIEWER_HEADING,
    RecordError,
    render_body,
    validate,
)

POOL = "walks"
RECORD_FOLDERS = ("active", "discharged", "rejected", "archived", "noteworthy")
FOLDERS = (*RECORD_FOLDERS, "reports", "runs")
WALK_ID = re.compile(r"(\d{4}-\d{2}-\d{2})-(\d{3,})")

README = """\
# walks

This folder is walker's. It holds what the weekly walks found; your own notes are never touched.

- `reports/`: one report per walk, newest last. Start here.
- `active/`: hypotheses still in play. Open one and edit its properties to review it.
- `noteworthy/`: candidates the critic rejected but flagged as worth a human look. Set
  `human_review_outcome` to `rewrite`, `archive` or `leave`.
- `discharged/`, `rejected/`, `archived/`: retired hypotheses, kept for the record.
- `runs/`: the full trace of each walk (seed, neighbours, inventory, roam, critique), for audit.
- `log.md`: every walk event, in order.

Write your own thoughts under a record's `## Reviewer notes` heading: walker never rewrites them.
Confirmed hypotheses become new notes in your inbox folder through `walker discharge`.
"""

LOG_HEADER = "# Walk log\n\nEvery walk event, oldest first. walker appends; it never rewrites this file.\n"


class PoolBusy(RecordError):
    """Another walker process holds the pool lock."""


@dataclass(frozen=True)
class StoredRecord:
    path: Path
    folder: str
    data: dict[str, Any]
    body: str  # everything after the frontmatter

    @property
    def id(self) -> str:
        return str(self.data.get("id", self.path.stem))


class PoolStore:
    def __init__(self, vault: Path | str) -> None:
        self.vault = Path(vault)
        self.root = self.vault / POOL

    # --- layout ---------------------------------------------------------------

    def ensure(self) -> list[Path]:
        """Create the pool folders, README and log if missing. Returns what it created; never overwrites."""
        created = []
        for folder in FOLDERS:
            path = self.root / folder
            if not path.is_dir():
                path.mkdir(parents=True)
                created.append(path)
        for name, text in (("README.md", README), ("log.md", LOG_HEADER)):
            path = self.root / name
            if not path.exists():
                write_atomic(path, text)
                created.append(path)
        return created

    @contextmanager
    def lock(self, name: str = ".lock", busy: Exception | None = None) -> Iterator[None]:
        """Hold an exclusive lock on ``walks/<name>``; if another process holds it, raise ``busy`` at once."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / name, "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise busy or PoolBusy(f"another walker is changing {self.root}; try again when it has finished") from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # --- ids ------------------------------------------------------------------

    def next_hypothesis_id(self, day: str, taken: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        return f"hyp-{day}-{self._next_number(HYPOTHESIS_ID, day, taken):03d}"

    def next_noteworthy_id(self, day: str, taken: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        return f"hyp-{day}-noteworthy-{self._next_number(NOTEWORTHY_ID, day, taken):03d}"

    def next_walk_id(self, day: str) -> str:
        numbers = [0]
        for folder in ("reports", "runs"):
            for path in (self.root / folder).glob(f"{day}-*"):
                match = WALK_ID.fullmatch(path.stem)
                if match and match.group(1) == day:
                    numbers.append(int(match.group(2)))
        return f"{day}-{max(numbers) + 1:03d}"

    def _next_number(self, pattern: re.Pattern[str], day: str, taken: set[str]) -> int:
        numbers = [0]
        names = [p.stem for folder in RECORD_FOLDERS for p in (self.root / folder).glob("hyp-*.md")] + list(taken)
        for name in names:
            match = pattern.fullmatch(name)
            if match and match.group(1) == day:
                numbers.append(int(match.group(2)))
        return max(numbers) + 1

    # --- records --------------------------------------------------------------

    def records(self, *folders: str) -> list[StoredRecord]:
        """Records in the given folders (all when none), sorted by id. Unreadable files are skipped."""
        found = []
        for folder in folders or RECORD_FOLDERS:
            for path in sorted((self.root / folder).glob("hyp-*.md")):
                try:
                    found.append(read_record(path, folder))
                except RecordError:
                    continue
        return found

    def write_record(self, folder: str, record: Mapping[str, Any]) -> Path:
        problems = validate(record)
        if problems:
            raise RecordError(f"{record.get('id')}: {'; '.join(problems)}")
        if FOLDER_OF_STATUS.get(str(record["status"])) != folder:
            raise RecordError(f"{record['id']}: status {record['status']} does not belong in {folder}/")
        path = self.root / folder / f"{record['id']}.md"
        write_atomic(path, compose(record, render_body(record), ""))
        return path

    def update_record(self, stored: StoredRecord, changes: Mapping[str, Any], folder: str | None = None) -> Path:
        """Change fields in place (round-trip YAML) and move the file when its folder changes.

        The new file is written before the old one is removed: a crash in between leaves the
        record in two folders, which `walker check` names and `--repair` mends; never in none.
        """
        text = stored.path.read_text(encoding="utf-8")
        raw_front, _, _ = _split(text)
        yaml_rt = _round_trip()
        data = yaml_rt.load(raw_front) or {}
        for key, value in changes.items():
            if value is None:
                data.pop(key, None)  # a field that no longer applies goes away, not to null
            else:
                data[key] = value
        target_folder = folder or stored.folder
        plain = dict(yaml.safe_load(_dump(yaml_rt, data)) or {})
        if FOLDER_OF_STATUS.get(str(plain.get("status"))) != target_folder:
            raise RecordError(f"{plain.get('id')}: status {plain.get('status')} does not belong in {target_folder}/")
        reviewer = _reviewer_part(text)
        target = self.root / target_folder / stored.path.name
        write_atomic(target, "---\n" + _dump(yaml_rt, data) + "---\n" + render_body(plain) + "\n" + reviewer)
        if target != stored.path:
            stored.path.unlink()
        return target

    # --- walks ----------------------------------------------------------------

    def write_report(self, walk_id: str, markdown: str, picture: str | None) -> Path:
        if picture is not None:
            write_atomic(self.root / "reports" / f"{walk_id}.svg", picture)
        path = self.root / "reports" / f"{walk_id}.md"
        write_atomic(path, markdown)
        return path

    def write_run(self, walk_id: str, run: Mapping[str, Any]) -> Path:
        path = self.root / "runs" / f"{walk_id}.yaml"
        write_atomic(path, yaml.safe_dump(dict(run), sort_keys=False, allow_unicode=True, width=100))
        return path

    def runs(self) -> list[dict[str, Any]]:
        """Past walk_run_records, oldest first."""
        out = []
        for path in sorted((self.root / "runs").glob("*.yaml")):
            try:
                data = _load_yaml(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError):
                continue
            if isinstance(data, dict):
                out.append(data)
        return out

    def log(self, heading: str, events: list[str]) -> None:
        """Append a block of events to log.md (append-only)."""
        path = self.root / "log.md"
        if not path.exists():
            write_atomic(path, LOG_HEADER)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n## {heading}\n\n" + "".join(f"- {e}\n" for e in events))
            handle.flush()
            os.fsync(handle.fileno())


def compose(record: Mapping[str, Any], body: str, reviewer: str) -> str:
    front = yaml.safe_dump(dict(record), sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{body}\n{reviewer or REVIEWER_HEADING + chr(10) + chr(10)}"


def read_record(path: Path, folder: str) -> StoredRecord:
    try:
        text = path.read_text(encoding="utf-8")
        raw_front, body, _ = _split(text)
        data = _load_yaml(raw_front) if raw_front is not None else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise RecordError(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{path}: no frontmatter")
    return StoredRecord(path, folder, {str(k): _plain(v) for k, v in data.items()}, body)


def _load_yaml(text: str) -> Any:
    """Safe YAML through libyaml when it is there: a site build reads thousands of records."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _split(text: str) -> tuple[str | None, str, int]:
    if not text.startswith("---\n"):
        return None, text, 0
    end = text.find("\n---\n", 3)
    if end < 0:
        return None, text, 0
    return text[4 : end + 1], text[end + 5 :], end + 5


def _reviewer_part(text: str) -> str:
    at = text.find("\n" + REVIEWER_HEADING)
    return text[at + 1 :] if at >= 0 else REVIEWER_HEADING + "\n\n"


def _round_trip() -> YAML:
    yaml_rt = YAML()
    yaml_rt.preserve_quotes = True
    yaml_rt.width = 100
    return yaml_rt


def _dump(yaml_rt: YAML, data: Any) -> str:
    buffer = io.StringIO()
    yaml_rt.dump(data, buffer)
    return buffer.getvalue()


def _plain(value: Any) -> Any:
    """Dates from hand-edited YAML become ISO text, like everything walker writes."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
