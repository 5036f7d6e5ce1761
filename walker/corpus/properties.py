"""A note's properties (YAML front matter) as Obsidian reads them: the fence, YAML close to 1.2, tags, aliases.

Part of the parse rules: a change here changes what the parse cache holds (cache.PARSE_RULES).
"""

from __future__ import annotations

import re
from typing import Any

import frontmatter
import yaml

from walker.safeyaml import refuse_aliases


class _Yaml12Loader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):  # type: ignore[misc]
    """Closer to YAML 1.2, as Obsidian reads it: only true/false are booleans; dates stay text."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class _FrontmatterHandler(frontmatter.YAMLHandler):
    """python-frontmatter's YAML handler with Obsidian's fence: exactly ``---`` at the file's start."""

    FM_BOUNDARY = re.compile(r"^---[ \t]*$", re.MULTILINE)

    def detect(self, text: str) -> bool:
        if not re.match(r"---[ \t]*\r?\n", text):
            return False
        fences = self.FM_BOUNDARY.finditer(text)  # stops at the closing fence: no scan of the whole note
        return next(fences, None) is not None and next(fences, None) is not None

    def load(self, fm: str, **kwargs: object) -> Any:
        refuse_aliases(fm)
        return yaml.load(fm, Loader=_Yaml12Loader)


_HANDLER = _FrontmatterHandler()


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Return (raw YAML or None, body, number of lines before the body)."""
    if not _HANDLER.detect(text):
        return None, text, 0
    fm, body = _HANDLER.split(text)
    return fm, body, text.count("\n", 0, len(text) - len(body))


def load_frontmatter(raw: str) -> tuple[dict[str, object], list[str]]:
    try:
        data = _HANDLER.load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return {}, [f"broken YAML frontmatter{where}: {problem}; properties ignored, body indexed"]
    if data is None:
        return {}, []
    if not isinstance(data, dict):
        return {}, [f"frontmatter is a {type(data).__name__}, not a set of properties; ignored"]
    return _json_safe(data), []


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def frontmatter_tags(data: dict[str, object]) -> list[str]:
    """Obsidian ≥1.9: the first key matching /^tags$/i; string items only; no spaces."""
    value = next((v for k, v in data.items() if k.lower() == "tags"), None)
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    tags = []
    for item in items:
        if isinstance(item, str):
            tag = item.strip().removeprefix("#")
            if tag and not any(ch.isspace() for ch in tag):
                tags.append(tag)
    return tags


def frontmatter_aliases(data: dict[str, object]) -> list[str]:
    value = next((v for k, v in data.items() if k.lower() == "aliases"), None)
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
