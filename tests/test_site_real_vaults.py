"""The review site of real vaults, every page opened in headless Chromium over file:// as a reviewer opens it.

On each page: every ``<a href>`` to a local file leads to one, and its ``#fragment`` to an id on that page; no
console error; and the text a reader sees (outside code) shows no ``<!--``, ``%%`` or ``[[``. Checked on the two
real vaults after two weekly runs each, and on ``tests/fixtures/site-vault/``, written for these tests with the
structures real vaults broke the site with (tests/fixtures/README.md). Needs Debian's chromium, as
tests/test_site_browser.py does.
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import FIXTURES, copy_vault_files, need_chromium, real_vault

from walker.cadence import run_cadence
from walker.site.build import build_site

need_chromium()  # skipped without Debian's chromium, except under CI

SITE_VAULT = FIXTURES / "site-vault"
WEEKS = (datetime(2026, 12, 4, 7, 50, tzinfo=timezone.utc), datetime(2026, 12, 11, 7, 50, tzinfo=timezone.utc))
# "[[]]" is not a link in Obsidian either (its link tokenizer needs a character between the brackets): it stays text.
SHOWN_AS_TEXT = {"<!--": re.compile(r"<!--"), "%%": re.compile(r"%%"), "[[": re.compile(r"\[\[(?!\]\])")}

# What a page holds, read in the browser: its ids, its links (as written and resolved against the page) and
# the text of every text node outside code.
READ_PAGE = r"""() => {
  const resolve = raw => { try { return new URL(raw, document.baseURI).href; } catch (e) { return 'invalid:' + raw; } };
  const links = Array.from(document.querySelectorAll('a[href]')).map(a => [a.getAttribute('href'),
                                                                          resolve(a.getAttribute('href'))]);
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest('code, pre, script, style, noscript, template')) texts.push(node.nodeValue);
  }
  return {ids, links, text: texts.join('\n')};
}"""


def check_site(browser, site: Path) -> dict[str, list[str]]:
    """Every page of the site opened from file://; what failed, by kind (empty: nothing did)."""
    site = site.resolve()
    failures: dict[str, list[str]] = {}
    ids: dict[Path, set[str]] = {}
    links: list[tuple[str, str, str]] = []
    context = browser.new_context()
    page = context.new_page()
    at = {"page": ""}
    page.on("console", lambda m: m.type == "error" and failures.setdefault("console error", []).append(
        f"{at['page']}: {m.text}"))
    page.on("pageerror", lambda e: failures.setdefault("console error", []).append(f"{at['page']}: {e}"))
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:", "about:"))
               else (failures.setdefault("request off the machine", []).append(r.request.url), r.abort()))
    for path in sorted(site.rglob("*.html")):
        at["page"] = name = path.relative_to(site).as_posix()
        page.goto(path.as_uri(), wait_until="load")
        read = page.evaluate(READ_PAGE)
        ids[path] = set(read["ids"])
        links += [(name, raw, resolved) for raw, resolved in read["links"]]
        for shown, pattern in SHOWN_AS_TEXT.items():
            for found in pattern.finditer(read["text"]):
                context_text = read["text"][max(0, found.start() - 40):found.end() + 40].replace("\n", " ")
                failures.setdefault(f"{shown} shown as text", []).append(f"{name}: …{context_text}…")
    context.close()
    for name, raw, resolved in links:
        url = urlsplit(resolved)
        if url.scheme != "file":
            continue
        target = Path(unquote(url.path))
        if not target.is_file():
            failures.setdefault("broken link", []).append(f"{name}: {raw}")
        elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in ids.get(target, set()):
            failures.setdefault("broken anchor", []).append(f"{name}: {raw}")
    return failures


def walked_twice(source: Path, destination: Path) -> Path:
    """A copy of the vault after two weekly runs, as `walker run VAULT --cadence weekly --force` makes them."""
    vault = copy_vault_files(source, destination)
    for now in WEEKS:
        run_cadence(vault, "weekly", now, force=True)
    return vault


@pytest.mark.parametrize("name", ["obsidian-tasks-docs", "tasks-demo"])
def test_a_real_vaults_site_has_no_broken_link_error_or_raw_markup(name, tmp_path, browser):
    vault = walked_twice(real_vault(name), tmp_path / name)
    build_site(vault, tmp_path / "site")
    assert len(list((tmp_path / "site" / "notes").rglob("*.html"))) > 20  # the walks cited notes: they were read
    assert check_site(browser, tmp_path / "site") == {}


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("site-vault")
    vault = Path(shutil.copytree(SITE_VAULT, tmp / "site-vault"))  # walks/ too: its report cites every note
    built = build_site(vault, tmp / "site")
    return tmp / "site", built


def article(site: Path, page: str) -> str:
    html = (site / page).read_text(encoding="utf-8")
    return html[html.index("<article"):html.index("</article>")]


def test_the_fixture_vaults_site_has_no_broken_link_error_or_raw_markup(fixture_site, browser):
    site, _ = fixture_site
    assert check_site(browser, site) == {}


def test_a_user_link_to_an_html_anchor_in_a_heading_lands_on_the_heading(fixture_site):
    """A real vault's table of contents linked [Setup](#setup) to `## Setting Up <a name="setup"></a>`; the page
    shows the heading without its HTML, and walker's reports link the heading by its raw text."""
    site, built = fixture_site
    body = article(site, "notes/Guides/Oven Setup.html")
    assert 'href="Oven%20Setup.html#steam-for-the-first-minutes"' in body
    assert 'id="steam-for-the-first-minutes"' in body and "a name" not in body
    report = article(site, "reports/2026-12-04-001.html")
    assert 'Oven%20Setup.html#preheat-the-stone"' in report and "&lt;a name" not in report
    assert not [w for w in built.warnings if "Oven Setup" in w]


def test_a_readme_beside_an_index_links_to_obsidian_not_to_the_index(fixture_site):
    """MkDocs writes a folder's README.md as its index.html: beside an index.md the README has no page."""
    from walker.site.links import SiteLinks

    site, _ = fixture_site
    report = article(site, "reports/2026-12-04-001.html")
    assert "file=Guides%2FREADME" in report and 'href="../notes/Guides/index.html#overview"' in report
    assert "Guides index" in article(site, "notes/Guides/index.html")
    assert "Start with" not in (site / "notes" / "Guides" / "index.html").read_text(encoding="utf-8")
    assert SiteLinks.relative("reports/r.md", "notes/Docs/README.html") == "../notes/Docs/index.html"


def test_nested_callouts_and_callouts_in_quotes_and_lists_are_boxes(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Callouts.html")
    assert "[!" not in re.sub(r"<code>.*?</code>", "", body, flags=re.S)
    assert re.search(r'admonition example">\s*<p class="admonition-title">Proofing times.*?'
                     r'admonition info">\s*<p class="admonition-title">Inside the example.*?'
                     r'<details class="warning">\s*<summary>Folded three levels down', body, re.S)
    assert re.search(r"<blockquote>\s*<p>A plain quote first.</p>\s*<div class=\"admonition tip\"", body)
    assert re.search(r"<li>\s*<p>Shape the loaf.</p>\s*<div class=\"admonition warning\"", body)
    assert "a hidden remark" not in body and "hidden too" not in body
    assert "[[Not A Link]] %% kept %%" in body  # a fence in a callout is code, as written


def test_footnotes_are_numbered_links_to_a_list_at_the_end(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Guides/Oven Setup.html")
    marks = re.findall(r'<a href="#fn-(\d)" id="fn-ref-\1"', body)
    assert marks == ["1", "2", "3", "4"]  # stone, light, the inline one, rack: in the order they are referred to
    assert re.search(r'<li id="fn-1">Stone and steel differ.*?A second line of the same footnote', body, re.S)
    assert re.search(r'<li id="fn-3">Ten minutes is enough', body)
    assert "nothing refers to" not in body and "[^nowhere]" in body  # unreferenced: hidden; undefined: as written


def test_math_is_readable_tex_in_code(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Guides/Oven Setup.html")
    assert "<code>Q = m c \\Delta T</code>" in body and "<code>100^\\circ</code>" in body
    assert re.search(r"<pre>.*?\\frac.*?</pre>", body, re.S) and "$$" not in body
    assert "costs $2 or $3 at most" in body  # money is no math


def test_tags_are_links_to_obsidians_search_and_never_headings(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Tags and Headings.html")
    assert body.count("<h1") == 1 and "<h1" not in body.split("</h1>", 1)[1]
    for tag in ("sourdough", "baking%2Fbread", "pull", "task", "quoted"):
        assert f'class="tag" href="obsidian://search?vault=site-vault&amp;query=tag%3A%23{tag}"' in body, tag
    assert "#1984 is no tag, a#b neither" in body
    assert "#not-a-tag $HOME" in body and "[[</span>not" in body  # code in a list item stays as written
    assert "<code>done</code> <code>not done</code>" in body  # <br> between two code spans reads as a space


def test_a_link_to_a_headings_block_id_lands_on_the_heading(fixture_site):
    site, _ = fixture_site
    report = article(site, "reports/2026-12-04-001.html")
    assert report.count("Tags%20and%20Headings.html#heading-with-a-block-id") == 2
    assert "Tags%20and%20Headings.html#block-para-id" in report
    assert "Tags%20and%20Headings.html#heading-with-inline-tag" in report
    assert 'Tags%20and%20Headings.html">Tags and Headings › 缓存雪崩' in report  # no ASCII word: the page opens
    assert '%E4%B8%AD%E6%96%87%E7%AC%94%E8%AE%B0.html#cache"' in report


def test_embedded_notes_are_shown_in_place(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Embeds.html")
    boxes = re.findall(r'<div class="admonition quote">\s*<p class="admonition-title"><a [^>]*>([^<]*)</a>', body)
    assert boxes == ["Shared Snippet", "Shared Snippet › Second part", "Shared Snippet › snippet-block",
                     "Shared Snippet › Second part"]
    assert "The first part of the snippet" in body and body.count("This part links back to") == 3
    assert '<li id="fn-e1-1">The snippet' in body  # the embedded note numbers its own footnotes
    assert "<h2" not in body  # its headings do not join the page's headings
    assert "file=Embedded%2FShared%20Snippet" in body  # its [[#First part]] is its own heading, not this page's
    assert re.search(r"see <a [^>]*>Shared Snippet</a> here", body)  # an embed inside a sentence stays a link
    assert "<em>Missing Note</em>" in body


def test_picture_sizes_are_kept(fixture_site):
    site, _ = fixture_site
    body = article(site, "notes/Embeds.html")
    assert re.search(r'<img alt="" src="pictures/crust.png" width="300">', body)
    assert re.search(r'<img alt="The crust" height="80" src="pictures/crust.png" width="120">', body)
    assert re.search(r'<img alt="Crust, in Markdown" src="pictures/crust.png" width="200">', body)
