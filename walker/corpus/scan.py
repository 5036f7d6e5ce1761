"""Enumerate the files Obsidian can see, and decide which of them are the corpus.

Two questions, kept apart. Is the file in the vault at all (not hidden in a
dot-folder, not behind a symlink loop, a type Obsidian shows)? Then it can be
a link target. Is it in the corpus (not walker's own ``walks/``, the templates
folder, Obsidian's Excluded files, ``.gitignore`` or ``exclude`` patterns)?
Then walker reads it. Excluded files still resolve, as in Obsidian.
"""

from __future__ import annotations

import json
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pathspec
import regex

from walker.config import Settings
from walker.corpus.model import Skipped, VaultFile

POOL_FOLDER = "walks"
ATTACHMENT_EXTENSIONS = frozenset(
    "avif bmp gif jpeg jpg png svg webp flac m4a mp3 ogg wav webm 3gp mkv mov mp4 ogv pdf canvas base".split()
)


@dataclass(frozen=True)
class Listing:
    files: tuple[VaultFile, ...]
    skipped: tuple[Skipped, ...]
    excluded: dict[str, str]  # path -> why it is visible but not in the corpus
    warnings: tuple[tuple[str, str], ...] = ()  # (path, message): e.g. two names that differ only in Unicode form


def list_vault(root: Path, settings: Settings) -> Listing:
    """Every visible file under ``root``, sorted by path, with the reason for each one left out."""
    rules = ExclusionRules.load(root, settings)
    files: list[VaultFile] = []
    skipped: list[Skipped] = []
    excluded: dict[str, str] = {}
    real_root = os.path.realpath(root)
    seen: set[str] = set()
    warnings: list[tuple[str, str]] = []

    show_all = bool(_read_json(root / ".obsidian" / "app.json").get("showUnsupportedFiles"))

    def walk(folder: str, rel: str) -> None:
        try:
            entries = sorted(os.scandir(folder), key=_entry_order)
        except OSError as exc:
            skipped.append(Skipped(rel or ".", f"folder unreadable: {exc.strerror}"))
            return
        for entry in entries:
            path = _composed(f"{rel}/{entry.name}" if rel else entry.name, seen, warnings)
            if entry.name.startswith("."):
                if entry.is_dir(follow_symlinks=False) and entry.name not in (".obsidian", ".git", ".trash"):
                    skipped.append(Skipped(path + "/", "hidden folder (Obsidian ignores dot-folders)"))
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if entry.is_symlink():
                # Never read outside the vault; a folder link inside it would show its notes twice.
                if not _inside(os.path.realpath(entry.path), real_root):
                    skipped.append(Skipped(path + "/" * is_dir, "symlink to outside the vault (not followed)"))
                    continue
                if is_dir:
                    skipped.append(Skipped(path + "/", "symlink to a folder already in the vault (loop)"))
                    continue
            if is_dir:
                walk(entry.path, path)
                continue
            _add_file(entry, path, rules, show_all, files, skipped, excluded)

    walk(str(root), "")
    warnings += [(".obsidian/app.json", f.problem) for f in rules.user_filters if f.problem]
    return Listing(tuple(files), tuple(skipped), excluded, tuple(warnings))


def _composed(path: str, seen: set[str], warnings: list[tuple[str, str]]) -> str:
    """The name in composed Unicode (as Obsidian links to it), unless that name is taken: then both stay."""
    if not path.isascii():
        normal = unicodedata.normalize("NFC", path)
        if normal in seen:  # Café.md twice, composed and decomposed: keep both
            warnings.append((path, f"conflict: this name is {normal} written in decomposed Unicode; "
                                   "Obsidian shows both files, and links reach the composed one"))
        else:
            path = normal
    seen.add(path)
    return path


def _add_file(
    entry: os.DirEntry[str],
    path: str,
    rules: ExclusionRules,
    show_all: bool,
    files: list[VaultFile],
    skipped: list[Skipped],
    excluded: dict[str, str],
) -> None:
    extension = path.rsplit(".", 1)[-1].lower() if "." in entry.name else ""
    is_note = extension == "md"
    if not is_note and not show_all and extension not in ATTACHMENT_EXTENSIONS:
        skipped.append(Skipped(path, "not a file type Obsidian shows (see 'Detect all file extensions')"))
        return
    try:
        stat = entry.stat()
    except OSError as exc:
        skipped.append(Skipped(path, f"unreadable: {exc.strerror or exc}"))
        return
    reason = rules.reason(path)
    if reason:
        excluded[path] = reason
    files.append(VaultFile(path, entry.path, stat.st_mtime_ns, stat.st_size, is_note, reason is None))


def _entry_order(entry: os.DirEntry[str]) -> tuple[str, bool, str]:
    """By name; of two names that differ only in Unicode form, the composed (NFC) one first, so it keeps
    its own name and the other is kept under its raw name."""
    name = entry.name
    if name.isascii():
        return name, False, name
    normal = unicodedata.normalize("NFC", name)
    return normal, normal != name, name


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


@dataclass(frozen=True)
class ExclusionRules:
    templates: str | None
    template_like: bool  # any folder named like "01 Templates": true unless walker.toml names the folder
    user_filters: tuple[UserFilter, ...]
    gitignore: pathspec.PathSpec | None
    configured: pathspec.PathSpec | None

    @classmethod
    def load(cls, root: Path, settings: Settings) -> ExclusionRules:
        gitignore = root / ".gitignore"
        lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines() if gitignore.is_file() else []
        return cls(
            templates=_templates_folder(root, settings),
            template_like=settings.templates_folder is None,
            user_filters=tuple(UserFilter(str(item)) for item in _user_filters(root)),
            gitignore=pathspec.GitIgnoreSpec.from_lines(lines) if lines else None,
            configured=pathspec.GitIgnoreSpec.from_lines(settings.exclude) if settings.exclude else None,
        )

    def reason(self, path: str) -> str | None:
        """Why a visible file stays out of the corpus, or None when it is in."""
        lower = path.lower()
        if lower.startswith(POOL_FOLDER + "/"):
            return "walker's own folder"
        if self.templates and lower.startswith(self.templates.lower().strip("/") + "/"):
            return "templates folder"
        if self.template_like and any("template" in part for part in lower.split("/")[:-1]):
            return "templates folder (its name says template)"
        for item in self.user_filters:
            if item.matches(path):
                return f"Obsidian Excluded files: {item.item}"
        if self.gitignore and self.gitignore.match_file(path):
            return ".gitignore"
        if self.configured and self.configured.match_file(path):
            return "walker.toml exclude"
        return None


class UserFilter:
    """One of Obsidian's userIgnoreFilters: ``/re/`` is a case-insensitive regex, anything else a path prefix.

    The regex comes from the vault's settings, so it runs with a time limit: a pattern that backtracks
    without end (``/^(a+)+$/``) is dropped for the rest of the scan with a warning, never a hang."""

    TIMEOUT = 0.05  # seconds per path

    def __init__(self, item: str) -> None:
        self.item = item
        self.problem: str | None = None
        self.pattern: regex.Pattern[str] | None = None
        if len(item) > 2 and item.startswith("/") and item.endswith("/"):
            try:
                self.pattern = regex.compile(item[1:-1], regex.IGNORECASE)
            except (regex.error, RecursionError, OverflowError):
                self.problem = f"Obsidian Excluded files: {item} is not a regular expression walker can read; ignored"

    def matches(self, path: str) -> bool:
        if self.problem:
            return False
        if self.pattern is None:
            return path.lower().startswith(self.item.lower())
        try:
            return self.pattern.search(path, timeout=self.TIMEOUT) is not None
        except TimeoutError:
            self.problem = (f"Obsidian Excluded files: {self.item} took too long on {path!r} and was dropped; "
                            "simplify the pattern")
            return False


def _user_filters(root: Path) -> list[object]:
    found = _read_json(root / ".obsidian" / "app.json").get("userIgnoreFilters")
    return found if isinstance(found, list) else []


def _templates_folder(root: Path, settings: Settings) -> str | None:
    if settings.templates_folder is not None:
        return settings.templates_folder or None
    configured = _read_json(root / ".obsidian" / "templates.json").get("folder")
    if not configured:
        templater = root / ".obsidian" / "plugins" / "templater-obsidian" / "data.json"
        configured = _read_json(templater).get("templates_folder")
    if configured:
        return str(configured).strip("/")
    return _find_templates_folder(root)


def _find_templates_folder(root: Path) -> str | None:
    """Without a setting: the shallowest folder named "templates", at most two levels down."""
    level = [root]
    for _ in range(3):
        folders = sorted(p for parent in level for p in _subfolders(parent))
        for folder in folders:
            if folder.name.lower() == "templates":
                return folder.relative_to(root).as_posix()
        level = folders
    return None


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:  # d_type, not a stat per file: folders can hold thousands
            return [Path(e.path) for e in entries if not e.name.startswith(".") and e.is_dir()]
    except OSError:
        return []


def _read_json(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
