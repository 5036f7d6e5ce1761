"""The last pages of a big site rendered from Markdown on a second core.

MkDocs renders pages one after another, and Python-Markdown is most of a big build. Once the navigation
is known (``on_nav``), the plugin forks one process that renders the last pages (MkDocs's own
``Page.render``, the same extensions) into a file, while this process renders the first ones. When MkDocs
reaches one of the child's pages, its render is the child's result, and the log lines the child heard
are said again here, in page order: the pages, warnings and strict mode are what a one-process build
gives (a test builds a site both ways and compares). If anything goes wrong in the child, this process
renders those pages itself. The result is JSON: data only, so the file can never run code when read.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents

PARALLEL_PAGES = 400  # below this a build is quick, and one process is simpler to follow
CHILD_SHARE = 0.6  # of the Markdown, by length: this process also reads every page and runs the plugins on it

log = logging.getLogger(__name__)


def forkable() -> bool:
    """Whether this process may fork: not where there is no fork, not with threads a fork would not copy
    (`walker site serve`), not with numpy's BLAS threads, which a fork has hung before (the weekly run
    builds its site after its walks)."""
    return hasattr(os, "fork") and threading.active_count() == 1 and "numpy" not in sys.modules


class SplitRender:
    def __init__(self) -> None:
        self.child: int | None = None
        self.result: Path | None = None
        self.rendered: dict[str, dict[str, Any]] | None = None  # src_uri -> what the child's render set

    def start(self, config: MkDocsConfig, files: Files) -> None:
        """Fork the child for the last pages, when the build is big and it is safe to fork."""
        pages = list(files.documentation_pages(inclusion=InclusionLevel.is_included))
        if len(pages) < PARALLEL_PAGES or not forkable():
            return
        sizes = [len(file.content_string) for file in pages]
        taken, left = 0, sum(sizes) * CHILD_SHARE
        while taken < len(pages) and left > 0:
            left -= sizes[-1 - taken]
            taken += 1
        for_child = pages[len(pages) - taken:]
        for file in for_child:
            if file.page is None:  # as MkDocs would make it on reaching the file
                Page(None, file, config)
        handle, name = tempfile.mkstemp(prefix="walker-render-", suffix=".json")
        os.close(handle)
        self.result = Path(name)
        gc.freeze()  # the child's collector never walks (and so copies) the objects it shares with this process
        child = os.fork()
        if child == 0:
            _render_and_exit(for_child, config, files, self.result)
        gc.unfreeze()
        self.child = child
        for file in for_child:
            page = file.page
            assert page is not None
            page.render = _Install(self, page)  # type: ignore[method-assign]

    def result_for(self, page: Page) -> dict[str, Any] | None:
        if self.rendered is None:
            self.rendered = {}
            if self.child is not None and os.waitpid(self.child, 0)[1] == 0 and self.result is not None:
                try:
                    self.rendered = json.loads(self.result.read_text(encoding="utf-8"))
                except Exception:  # a half-written result: this process renders those pages itself
                    log.debug("walker: the second core's render could not be read; rendering here")
            self.child = None
            self.close()
        return self.rendered.get(page.file.src_uri)

    def close(self) -> None:
        """Wait for the child and remove its file (also when the build stopped before it was read)."""
        if self.child is not None:
            os.waitpid(self.child, 0)
            self.child = None
        if self.result is not None:
            self.result.unlink(missing_ok=True)
            self.result = None


class _Install:
    """The render of one of the child's pages: its result, or a render here when there is none."""

    def __init__(self, split: SplitRender, page: Page) -> None:
        self.split, self.page = split, page

    def __call__(self, config: MkDocsConfig, files: Files) -> None:
        page = self.page
        done = self.split.result_for(page)
        if done is None:
            Page.render(page, config, files)
            return
        for name, level, message in done["log"]:
            logging.getLogger(name).log(level, message)
        page.content, page.present_anchor_ids = done["content"], set(done["anchors"])
        page.toc = TableOfContents([_anchor(item) for item in done["toc"]])
        page._title_from_render = done["title"]
        if done["links"] is not None:
            page.links_to_anchors = {_file(files, uri): links for uri, links in done["links"].items()}


def _anchor(item: dict[str, Any]) -> AnchorLink:
    anchor = AnchorLink(item["title"], item["id"], item["level"])
    anchor.children = [_anchor(child) for child in item["children"]]
    return anchor


def _as_data(anchor: AnchorLink) -> dict[str, Any]:
    return {"title": anchor.title, "id": anchor.id, "level": anchor.level,
            "children": [_as_data(child) for child in anchor.children]}


def _file(files: Files, uri: str) -> File:
    found = files.get_file_from_path(uri)
    assert found is not None
    return found


class _Heard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[tuple[str, int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.name, record.levelno, record.getMessage()))


def _render_and_exit(files_to_render: list[File], config: MkDocsConfig, files: Files, result: Path) -> None:
    """In the child: render each page as MkDocs's build would, keep what the render set, and exit without
    running anything of the parent's (its temporary folders and files are the parent's to clean)."""
    status = 1
    try:
        heard = _Heard()
        mkdocs_log = logging.getLogger("mkdocs")
        mkdocs_log.handlers, mkdocs_log.propagate = [heard], False  # said again by the parent, not twice
        out: dict[str, dict[str, Any]] = {}
        for file in files_to_render:
            page = file.page
            assert page is not None
            heard.lines = []
            config._current_page = page
            page.read_source(config)
            assert page.markdown is not None
            page.markdown = config.plugins.on_page_markdown(page.markdown, page=page, config=config, files=files)
            Page.render(page, config, files)
            links = page.links_to_anchors
            out[file.src_uri] = {
                "content": page.content, "toc": [_as_data(item) for item in page.toc],
                "anchors": sorted(page.present_anchor_ids or ()),
                "title": page._title_from_render, "log": heard.lines,
                "links": None if links is None else {f.src_uri: anchors for f, anchors in links.items()},
            }
        result.write_text(json.dumps(out), encoding="utf-8")
        status = 0
    finally:
        os._exit(status)
