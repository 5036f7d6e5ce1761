"""Settings, layered: defaults < <vault>/walker.toml < WALKER_* environment < command-line flags."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from walker.errors import ConfigError

CONFIG_FILE = "walker.toml"


@dataclass(frozen=True)
class Settings:
    exclude: tuple[str, ...] = ()  # gitignore-style patterns kept out of the corpus
    templates_folder: str | None = None  # None: read Obsidian's Templates settings, else "Templates"
    inbox_folder: str = "Inbox"
    index_comments: bool = True  # Obsidian indexes links inside %%comments%%
    max_note_mb: float = 5.0  # larger notes are listed and linkable, but not parsed
    workers: int = 0  # parse processes; 0 means one per core
    extra: dict[str, Any] = field(default_factory=dict)  # sections later stages read


def load_settings(vault: Path, overrides: dict[str, Any] | None = None) -> Settings:
    values: dict[str, Any] = {}
    path = vault / CONFIG_FILE
    if path.is_file():
        try:
            values.update(tomllib.loads(path.read_text(encoding="utf-8")))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}. Fix the file or delete it to use the defaults.") from exc
    fields = {f.name: f for f in dataclasses.fields(Settings) if f.name != "extra"}
    for name in fields:
        env = os.environ.get(f"WALKER_{name.upper()}")
        if env is not None:
            values[name] = env.split(",") if name == "exclude" else env
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    known = {k: _coerce(k, v, fields[k].type) for k, v in values.items() if k in fields}
    extra = {k: v for k, v in values.items() if k not in fields}
    return Settings(**known, extra=extra)


def _coerce(name: str, value: Any, kind: Any) -> Any:
    kind = str(kind)
    try:
        if kind.startswith("tuple"):
            if isinstance(value, str):
                value = [value]
            return tuple(str(v) for v in value)
        if kind == "bool":
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(value)
                return value.lower() in ("true", "1", "yes")
            return bool(value)
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        return None if value is None else str(value)
    except (TypeError, ValueError):
        raise ConfigError(f"setting {name!r} has a bad value {value!r} (expected {kind})") from None


def cache_dir() -> Path:
    """Where parse caches live: $WALKER_CACHE_DIR, else the user cache folder. Never the vault."""
    if os.environ.get("WALKER_CACHE_DIR"):
        return Path(os.environ["WALKER_CACHE_DIR"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("walker"))
