"""Settings, layered: defaults < <vault>/walker.toml < WALKER_* environment < command-line flags."""

from __future__ import annotations

import dataclasses
import difflib
import json
import logging
import math
import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from walker import safefile, safewrite
from walker.errors import ConfigError

CONFIG_FILE = "walker.toml"
MAX_NOTE_MB = 1024  # the largest max_note_mb: no note is ever read past it


@dataclass(frozen=True)
class Settings:
    exclude: tuple[str, ...] = ()  # gitignore-style patterns kept out of the corpus
    templates_folder: str | None = None  # None: read Obsidian's Templates settings, else "Templates"
    inbox_folder: str = "Inbox"
    index_comments: bool = True  # Obsidian indexes links inside %%comments%%
    max_note_mb: float = 5.0  # larger notes are listed and linkable, but not parsed
    workers: int = 0  # parse processes; 0 means one per core
    extra: dict[str, Any] = field(default_factory=dict)  # sections later stages read
    warnings: tuple[str, ...] = ()  # what walker.toml holds that walker does not know (``unknown_settings``)


# The tables of walker.toml and their keys, each read by ``table`` into a dataclass of the module that
# uses it (a test keeps the two in step). Listed here so that walker.toml is checked when it is read,
# without importing those modules (a chat hook reads walker.toml on every turn).
TABLES: dict[str, tuple[str, ...]] = {
    "wander": ("near", "middle", "far", "hub_factor", "hub_min_degree", "hubs", "recent_days", "forgotten_days",
               "no_reuse_walks"),
    "walk": ("engine", "max_hypotheses", "expires_after_walks"),
    "run": ("site_dir",),
    "surface": ("enabled", "match_auto", "match_pull", "applies", "never", "ignores_to_mute"),
    "engine.llm": ("base_url", "model", "api_key_env", "timeout", "temperature", "max_tokens", "context", "retries",
                   "backoff", "structured"),
}
_NOT_SETTINGS = ("extra", "warnings")  # fields of Settings that no walker.toml key, variable or flag sets
KEYS = tuple(f.name for f in dataclasses.fields(Settings) if f.name not in _NOT_SETTINGS)  # above any [table]


def read_settings_file(path: Path, errors: str = "strict") -> str | None:
    """The text of a settings file (walker.toml, .gitignore, .obsidian/*.json), None when there is none.

    Only a regular file of at most 1 MB is read, never a FIFO or a device (NotAFile, TooLarge). A
    symlink is followed: settings are often kept elsewhere and linked in, and what walker takes from
    them is settings, never text it shows."""
    try:
        return safefile.read_text(path, safefile.SETTINGS_LIMIT, follow=True, errors=errors)
    except FileNotFoundError:
        return None


def load_settings(vault: Path, overrides: dict[str, Any] | None = None, warn: bool = True) -> Settings:
    """The vault's settings. What walker.toml holds that walker does not know is in ``warnings`` and,
    unless ``warn`` is False (the caller reports them itself), logged once per process: a typo never
    stops a command. ConfigError when the file cannot be read or a value is wrong."""
    values: dict[str, Any] = {}
    path = vault / CONFIG_FILE
    try:
        text = read_settings_file(path)
        if text is not None:
            values.update(tomllib.loads(text))
    except (safefile.NotAFile, safefile.TooLarge) as exc:
        raise ConfigError(f"{path}: {exc.strerror}; walker reads only a regular file of at most 1 MB there. "
                          "Replace it with one, or delete it to use the defaults.") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}. Fix the file or delete it to use the defaults.") from exc
    warnings = unknown_settings(values)
    _tell(path, warnings, warn)  # before a wrong value stops the command: a typo may be its cause
    fields = {f.name: f for f in dataclasses.fields(Settings) if f.name in KEYS}
    for name in fields:
        env = os.environ.get(f"WALKER_{name.upper()}")
        if env is not None:
            values[name] = env.split(",") if name == "exclude" else env
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    known = {k: _coerce(k, v, fields[k].type) for k, v in values.items() if k in fields}
    if "inbox_folder" not in known and (found := find_inbox(vault)):
        known["inbox_folder"] = found
    extra = {k: v for k, v in values.items() if k not in fields}
    settings = Settings(**known, extra=extra, warnings=warnings)
    _check_ranges(settings)
    inbox_path(vault, settings.inbox_folder)
    return settings


def unknown_settings(values: dict[str, Any]) -> tuple[str, ...]:
    """What a parsed walker.toml holds that walker does not know, one message each, with the closest
    known name: ``unknown key exlude (did you mean exclude?)``, ``unknown table [wandr] (did you mean
    [wander]?)``."""
    found: list[str] = []
    for key, value in values.items():
        if key in KEYS:
            continue
        if key in TABLES:
            found += _unknown_keys(key, value)
        elif isinstance(value, dict) and any(name.startswith(f"{key}.") for name in TABLES):  # [engine.…]
            for sub, inner in value.items():
                if f"{key}.{sub}" in TABLES:
                    found += _unknown_keys(f"{key}.{sub}", inner)
                else:
                    found.append(_unknown(f"{key}.{sub}", inner, key))
        else:
            found.append(_unknown(key, value, None))
    return tuple(found)


def _unknown_keys(name: str, values: Any) -> list[str]:
    if not isinstance(values, dict):
        return []  # ``wander = 3``: a wrong value, which ``table`` reports when the table is read
    return [_unknown(f"{name}.{key}", value, name) for key, value in values.items() if key not in TABLES[name]]


def _unknown(dotted: str, value: Any, within: str | None) -> str:
    """One unknown name: ``dotted`` is its full name, ``within`` the known table that holds it (if any)."""
    key = dotted.rpartition(".")[2]
    if isinstance(value, dict):  # a table: the known tables are the candidates, by full name or last part
        names = {**{n.rpartition(".")[2]: n for n in TABLES}, **{n: n for n in TABLES}}
        close = difflib.get_close_matches(dotted if within is None else key, names, n=1)
        hint = f"did you mean [{names[close[0]]}]?" if close else "known: " + ", ".join(f"[{n}]" for n in TABLES)
        return f"unknown table [{dotted}] ({hint})"
    known = TABLES.get(within, ()) if within else KEYS  # [engine] itself holds only tables
    where = f" in [{within}]" if within else ""
    if within and key in KEYS:  # a top-level setting written below a [table] line belongs to that table
        return f"unknown key {key}{where} ({key} is a top-level setting: move it above the first [table] line)"
    if home := next((table for table, keys in TABLES.items() if key in keys and table != within), None):
        return f"unknown key {key}{where} ({key} is a setting of [{home}]: move it below the [{home}] line)"
    if close := difflib.get_close_matches(key, known, n=1):
        return f"unknown key {key}{where} (did you mean {close[0]}?)"
    if not known:
        inner = ", ".join(f"[{n}]" for n in TABLES if n.startswith(f"{within}."))
        return f"unknown key {key}{where} ([{within}] holds tables only: {inner})"
    return f"unknown key {key}{where} (known: {', '.join(known)})"


log = logging.getLogger("walker")
_told: set[tuple[str, str]] = set()  # (walker.toml, message) already logged in this process


def _tell(path: Path, warnings: tuple[str, ...], warn: bool) -> None:
    """Log each warning once per process (load_settings runs several times in one command); with ``warn``
    False, only remember them: the caller shows them itself."""
    for message in warnings:
        if (str(path), message) not in _told:
            _told.add((str(path), message))
            if warn:
                log.warning("warning: %s: %s; walker ignores it", CONFIG_FILE, message)


INBOX_NAME = re.compile(r"(?:\d+\s*[-_.]?\s*)?in-?box", re.IGNORECASE)  # Inbox, 00 Inbox, 06 - Inbox, _inbox


def find_inbox(vault: Path) -> str | None:
    """Where this vault already keeps new notes: Obsidian's "Default location for new notes" when it is a
    folder, else a top-level folder named like an inbox. None when there is neither."""
    try:  # a FIFO or a huge file here is left to the scan to report
        app = json.loads(read_settings_file(vault / ".obsidian" / "app.json") or "{}")
        folder = str(app.get("newFileFolderPath") or "").strip("/") if app.get("newFileLocation") == "folder" else ""
    except (OSError, ValueError, AttributeError):
        folder = ""
    if folder and (vault / folder).is_dir() and not (vault / folder).is_symlink():
        try:
            inbox_path(vault, folder)  # a hand-edited app.json may point anywhere: only a folder of the vault
            return folder
        except ConfigError:
            pass
    try:
        names = sorted(e.name for e in os.scandir(vault) if e.is_dir(follow_symlinks=False))
    except OSError:
        return None
    return next((name for name in names if INBOX_NAME.fullmatch(name.strip())), None)


def inbox_path(vault: Path, folder: str) -> Path:
    """The inbox folder as a real path, if it is a place walker may create notes: inside the vault
    (after following symlinks), not walker's own ``walks/``, not a hidden folder. Else ConfigError."""
    root = vault.resolve()
    target = (vault / folder).resolve()
    problem = None
    if not target.is_relative_to(root):
        problem = "is outside the vault"
    else:
        parts = target.relative_to(root).parts
        if parts and parts[0].lower() == "walks":
            problem = "is inside walks/, which holds walker's records"
        elif any(part.startswith(".") for part in parts):
            problem = "is a hidden folder, which Obsidian does not show"
    if problem:
        raise ConfigError(f"inbox_folder {folder!r} {problem}; set it to a folder of the vault, e.g. \"Inbox\"")
    return target


def _check_ranges(settings: Settings) -> None:
    if not 0 < settings.max_note_mb <= MAX_NOTE_MB:
        raise ConfigError(f"setting 'max_note_mb' is {settings.max_note_mb!r}; use a number of megabytes from 0.001 to 1024")
    if not 0 <= settings.workers <= 256:
        raise ConfigError(f"setting 'workers' is {settings.workers!r}; use 0 (one per core) up to 256")


T = TypeVar("T")


def table(cls: type[T], extra: dict[str, Any], name: str) -> T:
    """A ``[name]`` table of walker.toml as the frozen dataclass ``cls``. A key it does not know is left
    out: ``load_settings`` warned of it (a typo never stops a command). A wrong value is a ConfigError."""
    values = extra.get(name, {})
    if not isinstance(values, dict):
        raise ConfigError(f"walker.toml: [{name}] must be a table of settings")
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    coerced = {k: _coerce(f"{name}.{k}", v, fields[k].type) for k, v in values.items() if k in fields}
    for key, value in coerced.items():
        low, high = fields[key].metadata.get("range", (None, None))
        if (low is not None and value < low) or (high is not None and value > high):
            raise ConfigError(f"walker.toml [{name}] {key} = {value!r} is out of range; use {low} to {high}")
    return cls(**coerced)


def between(default: Any, low: float, high: float) -> Any:
    """A numeric setting's default and the range it must stay in (checked when walker.toml is read)."""
    return field(default=default, metadata={"range": (low, high)})


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
            if isinstance(value, float) or isinstance(value, bool):
                raise ValueError(value)
            return int(value)
        if kind == "float":
            number = float(value)
            if not math.isfinite(number):
                raise ValueError(value)
            return number
        return None if value is None else str(value)
    except (TypeError, ValueError):
        raise ConfigError(f"setting {name!r} has a bad value {value!r} (expected {kind})") from None


def cache_dir() -> Path:
    """Where parse caches live: $WALKER_CACHE_DIR, else the user cache folder. Never the vault."""
    if os.environ.get("WALKER_CACHE_DIR"):
        return Path(os.environ["WALKER_CACHE_DIR"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("walker"))


_warned: set[str] = set()  # cache folders already warned about in this process


def cache_folder(folder: Path | None = None) -> Path | None:
    """The cache folder (``cache_dir()`` unless given), created ``0700``; None, with one warning per
    process, when walker must not use it.

    Refused: a symlink (a cache linked into a synced vault), anything but a folder, a folder owned
    by another user or writable by group or others. Whoever can write there could plant a cache file.
    """
    folder = folder or cache_dir()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        problem = _unsafe(os.lstat(folder))
    except OSError as exc:
        problem = f"cannot be created ({exc.strerror or exc})"
    if problem is None:
        return folder
    if str(folder) not in _warned:
        _warned.add(str(folder))
        log.warning("walker: the cache folder %s %s; working without a cache (slower). Set WALKER_CACHE_DIR to "
                    "a folder only you can write to.", folder, problem)
    return None


def _unsafe(info: os.stat_result) -> str | None:
    if stat.S_ISLNK(info.st_mode):
        return "is a symlink"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if info.st_uid != os.geteuid():
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by group or others (mode {stat.S_IMODE(info.st_mode):o})"
    return None


DEFAULT_CONFIG = """\
# walker settings for this vault. Every line shows the default: uncomment one to change it.
# Precedence: these defaults < this file < WALKER_* environment variables < command-line flags.

# Gitignore-style patterns kept out of the walks (the files stay linkable).
# exclude = ["Archive/**", "Private/**"]
# Templates are never walked. Default: Obsidian's Templates setting, else a folder named "templates".
# templates_folder = "Templates"
# Where `walker discharge` creates conclusion notes.
# inbox_folder = "Inbox"
# Obsidian indexes links inside %%comments%%; set false to ignore them.
# index_comments = true
# Notes larger than this are listed and linkable but not read.
# max_note_mb = 5.0
# Parse processes for a cold scan; 0 means one per core.
# workers = 0

[wander]
# near = 10                # items one or two links from the seed, or close in words, most similar first
# middle = 10              # related but distinct: shared tags or folder, or two or three links away
# far = 5                  # distant for this seed; the last draw is uniformly random
# hub_factor = 5.0         # a hub has at least hub_factor x the mean number of links...
# hub_min_degree = 10      # ...and at least this many; hubs are left out of distances
# hubs = []                # notes to treat as hubs whatever their links, e.g. ["Home.md"]
# recent_days = 30         # seed source "recent": daily-note mentions and edits in this window
# forgotten_days = 90      # seed source "forgotten": untouched for this long, at most one link
# no_reuse_walks = 8       # a note that seeded one of this many last walks, or that their hypotheses cite, seeds none

[walk]
# engine = "extractive"    # the offline engine; no model, no network
# max_hypotheses = 3       # a walk keeps at most this many survivors
# expires_after_walks = 12 # an active hypothesis nobody engages with is archived after this many walks

[run]
# site_dir = ""            # after each `walker run`, rebuild the review site here: a folder outside
#                          # the vault (relative paths start at the vault, e.g. "../my-vault-site")

[surface]
# enabled = true           # false: `walker surface`, the hooks and the MCP server stay silent

[engine.llm]               # used by `walker walk --engine llm`, or [walk] engine = "llm"
# base_url = "http://127.0.0.1:11434/v1"   # any OpenAI-compatible chat-completions endpoint
# model = "llama3.1"
# api_key_env = ""         # the NAME of the variable holding the key (never the key itself)
# timeout = 120.0          # seconds per request
# temperature = 0.4
# max_tokens = 4000        # the longest answer asked for; each prompt is sized to it
# context = 8192           # the model's context window in tokens: the server's own (llama.cpp -c, Ollama num_ctx)
# retries = 3              # on 429 and 5xx, with exponential backoff
# backoff = 1.0            # seconds before the first retry
# structured = "auto"      # answers in their JSON schema: auto (found once), json_schema, json_object or none
"""


def config_to_create(vault: Path) -> Path | None:
    """Where ``walker init`` would create walker.toml, or None when a file is there already (also
    through a symlink: it is read, and left alone). ConfigError when anything else is there: a dangling
    symlink (writing would create its target, maybe outside the vault), a FIFO, a folder."""
    path = vault / CONFIG_FILE
    if not os.path.lexists(path):
        return path
    if path.is_file():
        return None
    try:
        safewrite.refuse_unsafe_target(path)
    except safefile.NotAFile as exc:
        leads = f" to {os.readlink(path)}" if path.is_symlink() else ""
        raise ConfigError(f"{path} is {(exc.strerror or '').removeprefix('refusing to write over ')}{leads}, not a file; "
                          "walker writes walker.toml only as a file of its own. Remove it (or put the file "
                          "itself there) and run walker init again.") from None
    return None


def write_default_config(vault: Path) -> Path | None:
    """Create a commented walker.toml; leave an existing one alone. Returns the path when created.
    A vault that already has an inbox gets it written in, so conclusions land where its notes do.
    The file is written whole or not at all (a full disk leaves no empty walker.toml), never through
    a symlink; ConfigError when something other than a file holds the name."""
    path = config_to_create(vault)
    if path is None:
        return None
    text = DEFAULT_CONFIG
    found = find_inbox(vault)
    if found:
        text = text.replace('# inbox_folder = "Inbox"', f"inbox_folder = {json.dumps(found, ensure_ascii=False)}  "
                                                         "# found in this vault", 1)
    try:
        safewrite.write_atomic(path, text)
    except OSError as exc:
        if exc.filename or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path)) from exc
    return path
