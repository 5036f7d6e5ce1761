"""One record file: read without following a link, written whole or not at all.

The pool store (``store.py``) decides which files to write and when; this module only knows how a
record file looks (YAML front matter, a rendered body, the reviewer's part) and how to read and
write one safely.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML

from walker.pool.records import REVIEWER_HEADING, Hypothesis, NoteworthyEntry, RecordError, read_properties
from walker.safeyaml import refuse_aliases


@dataclass(frozen=True)
class StoredRecord:
    path: Path
    folder: str
    data: dict[str, Any]
    body: str  # everything after the frontmatter

    @property
    def id(self) -> str:
        return str(self.data.get("id", self.path.stem))

    @cached_property
    def record(self) -> Hypothesis | NoteworthyEntry:
        """The properties, typed (read once)."""
        return read_properties(self.data)



def read_plain_file(path: Path) -> str:
    """A file's text, refusing to follow a symlink: nothing outside walks/ is read as a record."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as handle:
        return handle.read().decode("utf-8")


def compose(record: Mapping[str, Any], body: str, reviewer: str) -> str:
    front = yaml.safe_dump(dict(record), sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{body}\n{reviewer or REVIEWER_HEADING + chr(10) + chr(10)}"


def read_record(path: Path, folder: str) -> StoredRecord:
    try:
        text = read_plain_file(path)
        raw_front, body, _ = split_front(text)
        data = load_yaml(raw_front) if raw_front is not None else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise RecordError(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{path}: no frontmatter")
    return StoredRecord(path, folder, {str(k): plain(v) for k, v in data.items()}, body)


def load_yaml(text: str) -> Any:
    """Safe YAML through libyaml when it is there (a site build reads thousands of records); aliases
    are refused, so a hand-edited record cannot expand into gigabytes."""
    refuse_aliases(text)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a new temporary file beside ``path``, then rename it over ``path``: a crash
    leaves the old file or the new one, and a symlink at ``path`` is replaced, never followed."""
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


def split_front(text: str) -> tuple[str | None, str, int]:
    if not text.startswith("---\n"):
        return None, text, 0
    end = text.find("\n---\n", 3)
    if end < 0:
        return None, text, 0
    return text[4 : end + 1], text[end + 5 :], end + 5


def reviewer_part(text: str) -> str:
    at = text.find("\n" + REVIEWER_HEADING)
    return text[at + 1 :] if at >= 0 else REVIEWER_HEADING + "\n\n"


def round_trip_yaml() -> YAML:
    yaml_rt = YAML()
    yaml_rt.preserve_quotes = True
    yaml_rt.width = 100
    return yaml_rt


def dump_yaml(yaml_rt: YAML, data: Any) -> str:
    buffer = io.StringIO()
    yaml_rt.dump(data, buffer)
    return buffer.getvalue()


def plain(value: Any) -> Any:
    """Dates from hand-edited YAML become ISO text, like everything walker writes."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value
