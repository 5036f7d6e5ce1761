"""One record file: read without following a link, written whole or not at all.

The pool store (``store.py``) decides which files to write and when; this module only knows how a
record file looks (YAML front matter, a rendered body, the reviewer's part) and how to read and
write one safely.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML

from walker import safefile, safeyaml
from walker.pool.records import (
    REVIEWER_HEADING,
    Hypothesis,
    NoteworthyEntry,
    UnreadableRecord,
    conform,
    read_properties,
)
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



def read_plain_file(path: Path, limit: int = safefile.RECORD_LIMIT) -> str:
    """A regular file's text, up to ``limit`` bytes: never through a symlink (nothing outside walks/ is read
    as a record), never blocking on a FIFO, never reading a device."""
    return safefile.read_text(path, limit)


def compose(record: Mapping[str, Any], body: str, reviewer: str) -> str:
    front = safeyaml.dump(dict(record), sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{body}\n{reviewer or REVIEWER_HEADING + chr(10) + chr(10)}"


def read_record(path: Path, folder: str) -> StoredRecord:
    """The record in ``path``, its properties in the shapes walker reads. Raises ``UnreadableRecord`` naming
    every problem: a special file, a file too large, text that is not YAML, a property of the wrong shape."""
    shown = f"{path.parent.parent.name}/{folder}/{path.name}"
    try:
        text = read_plain_file(path)
    except OSError as exc:
        raise UnreadableRecord(shown, [exc.strerror or str(exc)]) from None
    except UnicodeDecodeError:
        raise UnreadableRecord(shown, ["not UTF-8 text"]) from None
    properties, body = parse_record(text, shown)
    return StoredRecord(path, folder, properties, body)


def parse_record(text: str, shown: str) -> tuple[dict[str, Any], str]:
    """A record file's properties, conformed to their shapes, and its body; ``UnreadableRecord`` otherwise."""
    raw_front, body, _ = split_front(text)
    try:
        data = load_yaml(raw_front) if raw_front is not None else None
    except (yaml.YAMLError, RecursionError) as exc:
        raise UnreadableRecord(shown, [f"its properties are not YAML ({str(exc).splitlines()[0][:200]})"]) from None
    if not isinstance(data, dict):
        raise UnreadableRecord(shown, ["no frontmatter"])
    properties, problems = conform(data)
    if problems:
        raise UnreadableRecord(shown, problems, kind="schema")
    return properties, body


def load_yaml(text: str) -> Any:
    """Safe YAML through libyaml when it is there (a site build reads thousands of records); aliases
    are refused, so a hand-edited record cannot expand into gigabytes."""
    refuse_aliases(text)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


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
