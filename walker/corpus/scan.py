"""Enumerate the files Obsidian can see, and decide which of them are the corpus.

Two questions, kept apart. Is the file in the vault at all (not hidden in a
dot-folder, not behind a symlink loop, a type Obsidian shows)? Then it can be
a link target. Is it in the corpus (not walker's own ``walks/``, the templates
folder, Obsidian's Excluded files, ``.gitignore`` or ``exclude`` patterns)?
Then walker reads it. Excluded files still resolve, as in Obsidian.

Only regular files are listed: a FIFO, a device or a socket (or a symlink to one) is skipped with its
kind named, and never opened, so a FIFO named ``x.md`` cannot hang a command nor a device fill the
memory. The ignore patterns come from the user and run under a time budget (``filters``).
"""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from walker.config import CONFIG_FILE, Settings, read_settings_file
from walker.corpus.files import inside as _inside
from walker.corpus.filters import Budget, GlobRules, RegexFilters, UserRules
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
    warnings: list[tuple[str, str]] = []
    app = _read_json(root, ".obsidian/app.json", warnings)
    rules = ExclusionRules.load(root, settings, app, warnings)
    files: list[VaultFile] = []
    skipped: list[Skipped] = []
    excluded: dict[str, str] = {}
    real_root = os.path.realpath(root)
    seen: set[str] = set()
    show_all = bool(app.get("showUnsupportedFiles"))

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
            target = None  # where a symlink leads: read there, so that no read ever follows a link
            if entry.is_symlink():
                # Never read outside the vault; a folder link inside it would show its notes twice.
                target = os.path.realpath(entry.path)
                if not _inside(target, real_root):
                    skipped.append(Skipped(path + "/" * is_dir, "symlink to outside the vault (not followed)"))
                    continue
                if is_dir:
                    skipped.append(Skipped(path + "/", "symlink to a folder already in the vault (loop)"))
                    continue
            elif is_dir:
                walk(entry.path, path)
                continue
            elif not entry.is_file(follow_symlinks=False):  # the folder entry's type: no stat, no open
                skipped.append(Skipped(path, _special(entry.stat(follow_symlinks=False).st_mode)))
                continue
            _add_file(entry, path, target, rules, show_all, files, skipped, excluded)

    walk(str(root), "")
    warnings += rules.warnings()
    return Listing(tuple(files), tuple(skipped), excluded, tuple(warnings))


def _special(mode: int, through: str = "") -> str:
    """The skip reason of a file that is not a regular file."""
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
    kind = next((name for test, name in kinds if test(mode)), "a special file")
    return f"not a regular file ({through}{kind}); never opened"


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
    target: str | None,
    rules: ExclusionRules,
    show_all: bool,
    files: list[VaultFile],
    skipped: list[Skipped],
    excluded: dict[str, str],
) -> None:
    extension = path.rsplit(".", 1)[-1].lower() if "." in entry.name else ""
    is_note = extension == "md"
    if not is_note and not show_all and extension not in ATTACHMENT_EXTENSIONS:
        if _walkers_own(path):  # walker.toml, walks/runs/*.yaml: walker's bookkeeping, which Obsidian hides
            return
        skipped.append(Skipped(path, "not a file type Obsidian shows (see 'Detect all file extensions')"))
        return
    try:
        info = entry.stat()
    except OSError as exc:
        skipped.append(Skipped(path, f"unreadable: {exc.strerror or exc}"))
        return
    if target is not None and not stat.S_ISREG(info.st_mode):
        skipped.append(Skipped(path, _special(info.st_mode, "a symlink to ")))
        return
    reason = rules.reason(path)
    if reason:
        excluded[path] = reason
    files.append(VaultFile(path, target or entry.path, info.st_mtime_ns, info.st_size, is_note, reason is None))


def _walkers_own(path: str) -> bool:
    lower = path.lower()
    return lower == CONFIG_FILE or lower.startswith(POOL_FOLDER + "/")


def _entry_order(entry: os.DirEntry[str]) -> tuple[str, bool, str]:
    """By name; of two names that differ only in Unicode form, the composed (NFC) one first, so it keeps
    its own name and the other is kept under its raw name."""
    name = entry.name
    if name.isascii():
        return name, False, name
    normal = unicodedata.normalize("NFC", name)
    return normal, normal != name, name


@dataclass(frozen=True)
class ExclusionRules:
    templates: str | None
    template_like: bool  # any folder named like "01 Templates": true unless walker.toml names the folder
    user: UserRules  # Obsidian's Excluded files, .gitignore and exclude, under one time budget

    @classmethod
    def load(cls, root: Path, settings: Settings, app: dict[str, object],
             warnings: list[tuple[str, str]]) -> ExclusionRules:
        budget = Budget()
        text = _read_setting(root, ".gitignore", warnings)
        lines = text.splitlines() if text else []
        found = app.get("userIgnoreFilters")
        filters = [str(item) for item in found] if isinstance(found, list) else []
        return cls(
            templates=_templates_folder(root, settings, warnings),
            template_like=settings.templates_folder is None,
            user=UserRules(
                RegexFilters(".obsidian/app.json", "Obsidian Excluded files", filters, budget),
                GlobRules(".gitignore", ".gitignore", lines, budget) if lines else None,
                GlobRules("walker.toml", "walker.toml exclude", settings.exclude, budget) if settings.exclude else None,
                budget,
            ),
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
        return self.user.reason(path)

    def warnings(self) -> list[tuple[str, str]]:
        """What the scan refused or dropped of the user's patterns, by the file they come from."""
        return self.user.warnings()


def _templates_folder(root: Path, settings: Settings, warnings: list[tuple[str, str]]) -> str | None:
    if settings.templates_folder is not None:
        return settings.templates_folder or None
    configured = _read_json(root, ".obsidian/templates.json", warnings).get("folder")
    if not configured:
        templater = ".obsidian/plugins/templater-obsidian/data.json"
        configured = _read_json(root, templater, warnings).get("templates_folder")
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


def _read_setting(root: Path, name: str, warnings: list[tuple[str, str]]) -> str | None:
    """A settings file of the vault, or None when there is none. One that is not a regular file, or is
    larger than a settings file can be, is not read: a warning says what that leaves out."""
    try:
        return read_settings_file(root / name)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        what = "its patterns do not apply" if name == ".gitignore" else "walker reads the vault without it"
        warnings.append((name, f"not read ({exc.strerror or exc}), so {what}"))
        return None


def _read_json(root: Path, name: str, warnings: list[tuple[str, str]]) -> dict[str, object]:
    text = _read_setting(root, name, warnings)
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
