"""`walker site build` and `walker site serve`: the review site for any vault, no config to write."""

from __future__ import annotations

import importlib.resources
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from walker.errors import WalkerError

EXTENSIONS: list[Any] = [
    {"toc": {"permalink": True}},
    "tables",
    "admonition",
    "attr_list",
    "pymdownx.details",
    "pymdownx.superfences",
    {"pymdownx.tasklist": {"custom_checkbox": True}},
    "walker.site.markdown_ext",
]


class SiteError(WalkerError):
    """MkDocs could not build the site."""


def templates() -> Path:
    return Path(str(importlib.resources.files("walker.site_templates")))


def site_config(vault: Path, site_dir: Path) -> dict[str, Any]:
    """The MkDocs configuration for a vault's review site: offline, sanitised, light and dark."""
    base = templates()
    name = vault.resolve().name
    return {
        "site_name": f"Walks · {name}",
        "docs_dir": str(base / "pages"),
        "site_dir": str(site_dir.resolve()),
        "use_directory_urls": False,
        "theme": {
            "name": "material",
            "custom_dir": str(base / "overrides"),
            "font": False,
            "features": ["content.action.edit", "navigation.sections", "navigation.top", "search.highlight"],
            "palette": [
                {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "brown", "accent": "deep orange",
                 "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
                {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "primary": "brown", "accent": "deep orange",
                 "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
            ],
        },
        "markdown_extensions": EXTENSIONS,
        "plugins": ["search", "offline", {"walker": {"vault": str(vault.resolve())}}],
        "extra": {"polyfills": ["assets/javascripts/iframe-worker.js"], "generator": False},
        "validation": {"omitted_files": "warn", "absolute_links": "warn", "unrecognized_links": "warn",
                       "anchors": "warn"},
    }


def build_site(vault: Path, site_dir: Path, strict: bool = True) -> Path:
    """Build the site into ``site_dir``; returns the path of its index.html."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    if not vault.is_dir():
        raise SiteError(f"{vault}: no such folder. Pass the vault folder, or set WALKER_VAULT.")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with tempfile.TemporaryDirectory(prefix="walker-site-") as workdir:
        config_file = Path(workdir) / "mkdocs.yml"
        config_file.write_text(yaml.safe_dump(site_config(vault, site_dir)), encoding="utf-8")
        try:
            config = load_config(config_file=str(config_file), strict=strict)
            build(config)
        except (MkDocsException, SystemExit) as exc:
            raise SiteError(f"the site did not build: {exc}") from exc
    return site_dir / "index.html"


def serve_site(vault: Path, address: str = "127.0.0.1:8000") -> None:
    from mkdocs.commands.serve import serve

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with tempfile.TemporaryDirectory(prefix="walker-site-") as workdir:
        config_file = Path(workdir) / "mkdocs.yml"
        config = site_config(vault, Path(workdir) / "site")
        config["watch"] = [str(vault.resolve() / "walks")]
        config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
        serve(config_file=str(config_file), dev_addr=address)
