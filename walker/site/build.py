"""`walker site build` and `walker site serve`: the review site for any vault, no config to write."""

from __future__ import annotations

import importlib.resources
import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from walker import safefile
from walker.errors import WalkerError
from walker.site.markup import inert

EXTENSIONS: list[Any] = [
    {"toc": {"permalink": True}},
    "tables",
    "admonition",
    "attr_list",
    "pymdownx.details",
    "pymdownx.mark",
    "pymdownx.superfences",
    {"pymdownx.tasklist": {"custom_checkbox": True}},
    "walker.site.markdown_ext",
]


MARKER = ".walker-site"  # in every folder walker built: the only kind of folder a build replaces
BUILDING = ".walker-site-building"  # in a build's new folder while it is built: the id of the process building it
FRESH, OLD = ".walker-site-new-", ".walker-site-old-"  # the folders a build makes beside the site


class SiteError(WalkerError):
    """MkDocs could not build the site."""


class UnsafeSiteFolder(SiteError):
    """The output folder is the vault, holds it, lies inside it, or is someone else's folder."""


def check_output(vault: Path, site_dir: Path) -> Path:
    """The absolute output folder, if walker may build there; else ``UnsafeSiteFolder`` says why.

    A build replaces the whole folder, so it must be outside the vault (and not hold it), not a
    symlink, and either missing, empty, or a site walker built before (it holds ``.walker-site``).
    """
    target = Path(os.path.abspath(site_dir))
    real_vault = vault.resolve()
    if target.is_symlink():
        raise UnsafeSiteFolder(f"{site_dir} is a symlink; give the real folder for the site")
    real = target.resolve()
    if real == real_vault or real_vault.is_relative_to(real):
        raise UnsafeSiteFolder(f"{site_dir} holds the vault; a build replaces its output folder. Choose a "
                               f"folder outside the vault, e.g. {real_vault.parent / (real_vault.name + '-site')}")
    if real.is_relative_to(real_vault):
        raise UnsafeSiteFolder(f"{site_dir} is inside the vault; a build replaces its output folder, so it must "
                               f"be outside, e.g. {real_vault.parent / (real_vault.name + '-site')}")
    if real.exists():
        if not real.is_dir():
            raise UnsafeSiteFolder(f"{site_dir} is a file, not a folder")
        if not (real / MARKER).is_file() and any(real.iterdir()):
            raise UnsafeSiteFolder(f"{site_dir} is not empty and walker did not build it (no {MARKER} file); "
                                   "choose a new or empty folder")
    return real


def templates() -> Path:
    return Path(str(importlib.resources.files("walker.site_templates")))


def site_config(vault: Path, site_dir: Path, timer: str = "") -> dict[str, Any]:
    """The MkDocs configuration for a vault's review site: offline, sanitised, light and dark."""
    base = templates()
    name = vault.resolve().name
    return {
        "site_name": inert(f"Walks · {name}"),
        "docs_dir": str(base / "pages"),
        "site_dir": str(site_dir.resolve()),
        "use_directory_urls": False,
        "theme": {
            "name": "material",
            "custom_dir": str(base / "overrides"),
            "font": False,
            "features": ["content.action.edit", "content.code.copy", "navigation.sections", "navigation.top",
                         "search.highlight"],
            "palette": [
                {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "brown", "accent": "deep orange",
                 "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
                {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "primary": "brown", "accent": "deep orange",
                 "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
            ],
        },
        "markdown_extensions": EXTENSIONS,
        # Material's search splits Chinese at the zero-width spaces it puts between jieba's words.
        "plugins": [{"search": {"separator": r"[\s\u200b\-]+"}}, "offline", {"walker": {"vault": str(vault.resolve()), "timer": timer}}],
        "extra": {"polyfills": ["assets/javascripts/iframe-worker.js"], "generator": False},
        "validation": {"omitted_files": "warn", "absolute_links": "warn", "unrecognized_links": "warn",
                       "anchors": "warn"},
    }


@dataclass(frozen=True)
class BuiltSite:
    index: Path  # the site's index.html
    warnings: list[str]  # what a cited note's own text broke (a link to nothing, a missing anchor), by note


def build_site(vault: Path, site_dir: Path, strict: bool = True, timer: str = "") -> BuiltSite:
    """Build the site into ``site_dir``; ``timer`` is when the weekly timer next starts (``schedule.next_start``),
    for the dashboard, empty when none is installed.

    Strict applies to walker's own pages: a warning there fails the build. A cited note is the
    user's text, and what it breaks is reported in ``warnings`` (naming the note and the link),
    never a reason to fail: a note's content must not stop the weekly review.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    if not vault.is_dir():
        raise SiteError(f"{vault}: no such folder. Pass the vault folder, or set WALKER_VAULT.")
    target = check_output(vault, site_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    remove_stale_builds(target.parent)
    # MkDocs empties its output folder first; it gets a new one of walker's, swapped in when done.
    fresh = Path(tempfile.mkdtemp(prefix=FRESH, dir=target.parent))
    (fresh / BUILDING).write_text(f"{os.getpid()}\n", encoding="utf-8")  # MkDocs leaves dot files alone
    heard = _Warnings()
    for name in LOGGERS:
        logging.getLogger(name).addHandler(heard)
    try:
        with tempfile.TemporaryDirectory(prefix="walker-site-") as workdir:
            config_file = Path(workdir) / "mkdocs.yml"
            config_file.write_text(yaml.safe_dump(site_config(vault, fresh, timer)), encoding="utf-8")
            try:
                build(load_config(config_file=str(config_file), strict=False))
            except (MkDocsException, SystemExit) as exc:
                raise SiteError(f"the site did not build: {exc}") from exc
            except RecursionError as exc:  # a page nested past what bounds.py flattens: a failed build, not a crash
                raise SiteError("the site did not build: a page nests too deeply to render") from exc
        own = [w for name, w in heard.messages if not _about_the_vault(name, w)]
        if strict and own:
            raise SiteError("the site did not build: " + "; ".join(own))
        (fresh / BUILDING).unlink()
        _relative_404(fresh / "404.html")
        (fresh / MARKER).write_text("Built by walker; `walker site build` replaces this folder.\n", encoding="utf-8")
        _swap_in(vault, fresh, target)
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(heard)
        shutil.rmtree(fresh, ignore_errors=True)
    notes = [_plain_words(w) for name, w in heard.messages if _about_the_vault(name, w)]
    return BuiltSite(target / "index.html", notes)


NOTE_PAGE = re.compile(r"^Doc file 'notes/")  # a warning about a cited note's page, not one it links to
LOGGERS = ("mkdocs", "walker.site")  # walker.site: a vault file the site skipped (walker.site.reading)


def _about_the_vault(logger: str, message: str) -> bool:
    """A warning about the vault's content (a cited note's page, a file skipped), never one to fail on."""
    return logger.startswith("walker.site") or bool(NOTE_PAGE.search(message))


def remove_stale_builds(folder: Path) -> list[Path]:
    """Remove what interrupted builds left in ``folder``: a new site folder still marked as being built by a
    process that is gone, an old site folder (walker's, by its marker) not yet removed after a swap. Nothing
    without walker's marker is touched. Returns what was removed."""
    removed = []
    for path in folder.glob(".walker-site-*"):
        if path.is_symlink() or not path.is_dir():
            continue
        if path.name.startswith(FRESH):
            stale = _builder_gone(path / BUILDING)
        elif path.name.startswith(OLD):
            stale = (path / "site" / MARKER).is_file() and not (path / "site").is_symlink()
        else:
            stale = False
        if stale:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _builder_gone(marker: Path) -> bool:
    """Whether the build that wrote ``marker`` is over (its process is gone): a build under way is left be."""
    try:
        pid = int(safefile.read_text(marker, 64).strip())
    except (OSError, ValueError):
        return False  # no marker of walker's: not walker's to remove
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # another user's process
    return False


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[tuple[str, str]] = []  # (logger, message)

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.name, " ".join(record.getMessage().split())))


def _relative_404(page: Path) -> None:
    """MkDocs gives its 404 page links from the server root ("/index.html"), which lead nowhere from
    file://. The page sits at the top of the site, so "./" reaches the same files either way."""
    if page.is_file():
        text = page.read_text(encoding="utf-8")
        text = re.sub(r'((?:href|src)=")/(?!/)', r"\1./", text)
        text = text.replace('"base": "/"', '"base": "."').replace('"search": "/', '"search": "./')
        page.write_text(text, encoding="utf-8")


def _plain_words(message: str) -> str:
    """MkDocs speaks of the site's page ("Doc file 'notes/A.md'"); the user knows the note ("A.md")."""
    message = re.sub(r"Doc file 'notes/([^']*)'", r"The note \1", message)
    return re.sub(r"but the target 'notes/([^']*)' is not found among documentation files",
                  r"and the site has no \1", message)


def _swap_in(vault: Path, fresh: Path, target: Path) -> None:
    """Put the new build at ``target``; the old build (checked to be walker's) is removed after."""
    check_output(vault, target)  # again, just before replacing: nothing may have moved in meanwhile
    fresh.chmod(safefile.folder_mode())  # mkdtemp made it private; the site is a folder like any other
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=OLD, dir=target.parent))
        os.replace(target, old / "site")
    os.replace(fresh, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def serve_site(vault: Path, address: str = "127.0.0.1:8000", timer: str = "") -> None:
    from mkdocs.commands.serve import serve

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with tempfile.TemporaryDirectory(prefix="walker-site-") as workdir:
        config_file = Path(workdir) / "mkdocs.yml"
        config = site_config(vault, Path(workdir) / "site", timer)
        config["watch"] = [str(vault.resolve() / "walks")]
        config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
        serve(config_file=str(config_file), dev_addr=address)
