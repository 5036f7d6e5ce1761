"""The MkDocs plugin: thin glue that hands walker's generated pages to MkDocs.

All pages come from ``walker.site.pages`` (walker's own code). The plugin adds
them as generated files, points "Edit" buttons at the vault through
``obsidian://``, and insists on the sanitising Markdown extension: a site of
untrusted notes is never built without it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment
from markdown import Markdown
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from walker.site.bounds import cap_toc
from walker.site.decide import BAR, PLACEHOLDER
from walker.site.links import obsidian_url
from walker.site.markdown_ext import SafeHtmlExtension, safe_meta, safe_toc
from walker.site.markup import inert
from walker.site.pages import Site, generate_site
from walker.site.parallel import SplitRender
from walker.site.reading import PICTURE_LIMIT, read_bytes
from walker.site.svg import sanitize_svg
from walker.words import keep_jieba_in_memory

FORBIDDEN_EXTENSIONS = ("pymdownx.snippets", "pymdownx.b64")


class WalkerSiteConfig(Config):
    vault = config_options.Type(str, default="")
    vault_name = config_options.Type(str, default="")
    timer = config_options.Type(str, default="")  # when the weekly timer next starts, as the caller found it


class SharedNav:
    """The primary navigation of pages that are not in it, rendered once per folder (see main.html).

    Such a page marks nothing in the navigation as active, so its navigation differs from another's
    only by its links, which are relative to the page's folder.
    """

    def __init__(self) -> None:
        self.by_folder: dict[str, str] = {}

    @staticmethod
    def _folder(page: Page | None) -> str | None:
        if page is None or page.file.inclusion is not InclusionLevel.NOT_IN_NAV:
            return None
        return posixpath.dirname(page.url)

    def get(self, page: Page | None) -> str | None:
        folder = self._folder(page)
        return self.by_folder.get(folder) if folder is not None else None

    def keep(self, page: Page | None, html: str) -> str:
        folder = self._folder(page)
        if folder is not None:
            self.by_folder[folder] = html
        return html


class WalkerSitePlugin(BasePlugin[WalkerSiteConfig]):
    site: Site | None = None
    split: SplitRender = SplitRender()  # replaced on each build (on_nav); this one has nothing to close
    decide_html: dict[tuple[str, bool, bool, str, str], tuple[str, str]]  # a shape -> its bar and box, rendered once a build

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        keep_jieba_in_memory()  # the search plugin segments Chinese with jieba: nothing of it lands in the temp folder
        if not self.config.vault:
            raise PluginError("walker: set `vault:` under the walker plugin to the vault folder")
        vault = Path(self.config.vault)
        if not vault.is_absolute():
            vault = Path(config.config_file_path).parent / vault
        if not vault.is_dir():
            raise PluginError(f"walker: vault folder {vault} does not exist")
        for name in FORBIDDEN_EXTENSIONS:
            if name in config.markdown_extensions:
                raise PluginError(f"walker: {name} reads files from disk; it must not run on vault notes")
        config.markdown_extensions.append(SafeHtmlExtension())
        self.site = generate_site(vault, self.config.vault_name or None, timer=self.config.timer)
        self.decide_html = {}
        if not config.nav:
            config.nav = self.site.nav
        return config

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        """A big site's last pages are rendered on another core while this one renders the first ones."""
        self.split = SplitRender()
        self.split.start(config, files)
        return nav

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.split.close()

    def on_build_error(self, *, error: Exception) -> None:
        self.split.close()

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:
        env.globals["walker_shared_nav"] = SharedNav()
        return env

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        assert self.site is not None
        for page in self.site.pages:
            inclusion = InclusionLevel.INCLUDED if page.in_nav else InclusionLevel.NOT_IN_NAV
            files.append(File.generated(config, page.path, content=page.markdown, inclusion=inclusion))
        for asset in self.site.assets:
            if asset.path.lower().endswith(".svg"):
                data = asset.content if asset.content is not None else \
                    read_bytes(asset.source, PICTURE_LIMIT, self.site.root, links=True)
                picture = sanitize_svg(data) if data is not None else None
                if picture is not None:  # an SVG that cannot be made inert (or read) is not copied
                    files.append(File.generated(config, asset.path, content=picture))
            else:
                files.append(File.generated(config, asset.path, abs_src_path=str(asset.source)))
        return files

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """What the theme prints unescaped is made safe: titles (``<title>``, nav, attributes) inert, the
        table of contents' ids and titles, and front matter down to a title (a report's is hand-editable).
        A report's walk picture is drawn in the page (sanitised, its notes linked) instead of as an image."""
        assert self.site is not None
        title = page.title
        page.meta = safe_meta(page.meta)
        page.meta["title"] = inert(str(title or ""))
        safe_toc(page.toc.items)
        cap_toc(page.toc.items)
        picture = self.site.pictures.get(page.file.src_uri)
        if picture:
            name, markup = picture
            image = re.compile(rf'(?:<p>)?<img\b[^>]*\bsrc="(?:[^"]*/)?{re.escape(quote(name))}"[^>]*>(?:</p>)?')
            html = image.sub(lambda _: f'<div class="walk-picture-frame">{markup}</div>', html, count=1)
        box = self.site.decide_boxes.get(page.file.src_uri)
        if box:  # the same words on every record's page would bury the rest of the search index
            html = re.sub(rf'(<h2 id="[^"]*")(>.*?</h2>\s*<p>{PLACEHOLDER}</p>)', r"\1 data-search-exclude\2", html,
                          count=1)
            html = html.replace(f"<p>{BAR}</p>", f"<p data-search-exclude>{BAR}</p>", 1)
        return html

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        """A record's decision bar and decide box, filled in once the page is indexed for search (which
        skips them)."""
        assert self.site is not None
        box = self.site.decide_boxes.get(page.file.src_uri)
        if not box:
            return output
        if box.shape not in self.decide_html:
            md = Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
            bar = md.convert(box.bar_markdown())  # sanitised like every page
            self.decide_html[box.shape] = bar, md.reset().convert(box.markdown())
        bar, rendered = self.decide_html[box.shape]
        output = output.replace(f"<p data-search-exclude>{BAR}</p>", box.fill(bar), 1)
        return output.replace(f"<p>{PLACEHOLDER}</p>", box.fill(rendered), 1)

    def on_pre_page(self, page: Page, /, *, config: MkDocsConfig, files: Files) -> Page:
        """The page's Edit button opens the vault file behind it in Obsidian."""
        assert self.site is not None
        source = self.site.sources.get(page.file.src_uri)
        page.edit_url = obsidian_url(self.site.vault_name, source) if source else None
        return page
