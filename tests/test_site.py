"""The review site: strict builds, converted links, sanitised note text."""

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml
from conftest import ROOT, SAMPLE_VAULT, copy_vault_files, real_vault, write_vault

from walker.corpus.text import read_paragraphs
from walker.site.build import build_site
from walker.site.markdown_ext import sanitize
from walker.site.pages import generate_site
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace

NOW = datetime(2026, 11, 30, 7, 0, tzinfo=timezone.utc)

XSS_NOTES = {
    "Kitchen/Danger.md": (
        "# Danger\n\n"
        "A starter fed faster than it can ferment never peaks. <script>alert('script')</script>\n\n"
        "<img src=x onerror=\"alert('onerror')\">\n\n"
        "[click me](javascript:alert('link')) and [[Sourdough Starter]]\n\n"
        "Hover this paragraph.\n{: onmouseover=\"alert('attr')\" }\n\n"
        "<div onclick=\"alert('div')\">block html</div>\n\n"
        "Worth a look: the queue is fed faster than it can work. ^danger-block\n"
    ),
}


def walked_copy(tmp_path: Path, source: Path = SAMPLE_VAULT, name: str = "vault", walks: int = 2, extra=None) -> Path:
    vault = copy_vault_files(source, tmp_path / name)
    if extra:
        write_vault(vault, extra)
    # A walk keeps only what clears the floor, so the walks start where the sample vault has something to find.
    seeds = (["Danger"] if extra else []) + (["Autoscaler Oscillation", "Brining", "Companion Planting"]
                                              if source == SAMPLE_VAULT else [None] * walks)
    for n in range(walks):
        run_walk(Workspace.open(vault), WalkOptions(now=NOW.replace(hour=7 + n), random_seed=0, seed_note=seeds[n]))
    return vault


def html_outside_code(site: Path) -> dict[str, str]:
    pages = {}
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        pages[page.relative_to(site).as_posix()] = re.sub(r"<(code|pre)\b.*?</\1>", "", text, flags=re.DOTALL)
    return pages


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("site")
    vault = walked_copy(tmp, extra=XSS_NOTES)
    build_site(vault, tmp / "site")
    return vault, tmp / "site"


def test_strict_build_has_every_page(built):
    vault, site = built
    for page in ("index.html", "reports/index.html", "hypotheses/index.html", "review.html", "log.html",
                 "how-to-review.html", "search/search_index.js"):
        assert (site / page).is_file(), page
    records = list((vault / "walks" / "active").glob("hyp-*.md"))
    assert records and all((site / "hypotheses" / f"{r.stem}.html").is_file() for r in records)
    assert list((site / "notes").rglob("*.html"))
    assert list((site / "reports").glob("*.svg"))


def test_no_wikilink_survives_outside_code(built):
    _, site = built
    for name, html in html_outside_code(site).items():
        assert "[[" not in html, name


def test_links_to_notes_outside_the_site_open_obsidian(built):
    _, site = built
    note = (site / "notes" / "Kitchen" / "Danger.html").read_text()
    assert 'href="obsidian://open?vault=vault&amp;file=Kitchen%2FSourdough%20Starter"' in note or \
        'href="../Kitchen/Sourdough%20Starter.html"' in note or "Sourdough%20Starter.html" in note


def test_anchors_in_links_exist(built):
    _, site = built
    for page in site.rglob("*.html"):
        text = page.read_text()
        for href in re.findall(r'href="([^"#:]+\.html)#([^"]+)"', text):
            target = (page.parent / href[0].replace("%20", " ")).resolve()
            assert f'id="{href[1]}"' in target.read_text(), (page, href)


def test_every_pages_navigation_links_to_pages_that_exist(built):
    """The navigation of pages outside it is rendered once per folder: each copy must still link right."""
    _, site = built
    pages = list(site.rglob("*.html"))
    folders = {page.parent for page in pages if "/notes/" in page.as_posix() or "/hypotheses/" in page.as_posix()}
    assert len(folders) >= 3  # hypotheses/ and cited notes at two depths
    for page in pages:
        nav = re.search(r'data-md-type="navigation".*?data-md-component="content"', page.read_text(), flags=re.DOTALL)
        assert nav, page
        hrefs = [h for h in re.findall(r'href="([^"#:]+)"', nav.group(0))]
        if page.parent in folders:
            assert "how-to-review.html" in {Path(h).name for h in hrefs}, page
        for href in hrefs:
            assert (page.parent / unquote(href)).resolve().is_file(), (page, href)


def test_note_text_is_inert(built):
    _, site = built
    html = (site / "notes" / "Kitchen" / "Danger.html").read_text()
    body = html[html.index('<article'):html.index("</article>")]
    assert "<script" not in body
    assert not re.search(r"<[^>]*\son\w+\s*=", body), "an event handler survived"
    assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", body, re.IGNORECASE)
    assert "A starter fed faster than it can ferment never peaks." in body  # the tags go, the text stays
    assert 'id="block-danger-block"' in body


def test_sanitizer_allowlist():
    dirty = '<p onclick="x()">hi<script>x()</script><a href="javascript:x()">a</a><a href="obsidian://open?vault=v">o</a></p>'
    clean = sanitize(dirty)
    assert "onclick" not in clean and "<script" not in clean and "javascript:" not in clean
    assert 'href="obsidian://open?vault=v"' in clean


def test_plain_text_passes_the_sanitizer_as_nh3_would_pass_it():
    """Text without markup skips nh3 (headings, asked for the table of contents): nh3 would not change it."""
    import random

    import nh3

    rng = random.Random(7)
    alphabet = "\x01\x0c\x7f\x85\u2028ab Z9\t\n\"'=/;:#%()[]{}*_`~é→ ­\u200b\ufeff"
    texts = ["Decide", "Wrong if", "Sourdough ↔ Cache “warm”", "", " ", "a\u00a0b"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30))) for _ in range(2000)]
    for text in texts:
        assert sanitize(text) == nh3.clean(text), repr(text)
    assert sanitize("a & b <script>x</script>") == "a &amp; b "


def test_links_between_site_pages_are_what_relpath_gives():
    import posixpath
    import random
    from urllib.parse import quote

    from walker.site.links import SiteLinks

    rng = random.Random(1)
    folders = ["notes", "hypotheses", "Garden", "x y", "a&b", "notes"]

    def page():
        return "/".join([*(rng.choice(folders) for _ in range(rng.randint(0, 3))), rng.choice(["p.md", "index.md"])])

    for _ in range(5000):
        a, b = page(), page()
        assert SiteLinks.relative(a, b) == quote(posixpath.relpath(b, posixpath.dirname(a) or ".")), (a, b)


def test_snippets_extension_is_refused(tmp_path):
    vault = write_vault(tmp_path / "v", {f"n{i}.md": "x" for i in range(3)})
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: x\ndocs_dir: {ROOT / 'site-templates' / 'pages'}\nsite_dir: {tmp_path / 'out'}\n"
                      f"markdown_extensions: [pymdownx.snippets]\nplugins: [walker: {{vault: {vault}}}]\n")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(config)], capture_output=True, text=True,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode != 0 and "pymdownx.snippets" in result.stderr


def test_top_level_mkdocs_yml_builds_sample_vault_strict(tmp_path):
    vault = walked_copy(tmp_path, name="sample-vault", walks=1)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    os.symlink(ROOT / "site-templates", tmp_path / "site-templates")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path, capture_output=True,
                            text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "index.html").is_file() and vault.is_dir()


def test_site_build_on_a_walked_tasks_docs(tmp_path):
    source = real_vault("obsidian-tasks-docs")
    vault = walked_copy(tmp_path, source=source, name="docs", walks=1)
    assert build_site(vault, tmp_path / "site").index.is_file()
    for name, html in html_outside_code(tmp_path / "site").items():
        assert "[[" not in html, name


def test_site_cli_on_a_missing_vault(tmp_path):
    from click.testing import CliRunner

    from walker.cli import main

    result = CliRunner().invoke(main, ["site", "build", str(tmp_path / "nope"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and "no such folder" in result.output


def test_decide_commands_quote_a_hand_edited_id_and_an_odd_vault_folder(tmp_path):
    import html as htmllib
    import shlex

    from walker.pool.store import PoolStore

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "my $(whoami) vault")
    record = PoolStore(vault)
    record.ensure()
    (vault / "walks" / "active" / "hyp-2026-11-30-009.md").write_text(
        "---\nid: 'hyp-2026-11-30-009; rm -rf ~'\nclaim: A claim.\nstatus: active\nsupporting_refs: [Garden/Compost.md]\n"
        "confidence: low\nimpact: add\n---\n# x\n", encoding="utf-8")
    build_site(vault, tmp_path / "site")
    page = (tmp_path / "site" / "hypotheses" / "hyp-2026-11-30-009.html").read_text(encoding="utf-8")
    texts = [htmllib.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<code>(.*?)</code>", page, re.S)]
    commands = [t for t in texts if t.startswith("walker ") and "hyp-" in t]
    assert commands and all(shlex.split(c.replace("\\\n", " "))[2] == "hyp-2026-11-30-009; rm -rf ~" for c in commands)
    assert all(shlex.split(c.replace("\\\n", " "))[3] == str(vault.resolve()) for c in commands)


def test_a_decide_box_holds_a_hostile_id_and_decision_as_text(tmp_path):
    """The bar and the box are rendered once and filled in per page: what is filled in must stay text,
    including the names of the other fill-ins and markup."""
    import html as htmllib
    import shlex

    from walker.pool.store import PoolStore

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    PoolStore(vault).ensure()
    hostile_id = "hyp-1 WALKERFILLWHERE <img src=x onerror=alert(1)> walker-decide-box-0 walker-decision-bar-0"
    (vault / "walks" / "active" / "hyp-2026-11-30-009.md").write_text(
        f"---\nid: '{hostile_id}'\nclaim: A claim.\nstatus: active\nsupporting_refs: [Garden/Compost.md]\n"
        "confidence: low\nimpact: add\nreview: '<script>alert(2)</script> WALKERFILLID'\n---\n# x\n", encoding="utf-8")
    build_site(vault, tmp_path / "site")
    page = (tmp_path / "site" / "hypotheses" / "hyp-2026-11-30-009.html").read_text(encoding="utf-8")
    body = page[page.index('class="admonition walker-decision"'):page.index('id="reviewer-notes"')]  # bar and box
    assert "<script" not in body and "<img" not in body and "WALKERFILL" not in body.replace(
        htmllib.escape("WALKERFILLWHERE"), "").replace(htmllib.escape("WALKERFILLID"), "")
    assert "You decided <strong>&lt;script&gt;alert(2)&lt;/script&gt; walkerfillid</strong>" in body  # as read, lower case
    texts = [htmllib.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<code>(.*?)</code>", body, re.S)]
    commands = [t for t in texts if t.startswith("walker ") and t != "walker review"]
    assert len(commands) == 4 and all(shlex.split(c.replace("\\\n", " "))[2] == hostile_id for c in commands)


def test_evidence_marks_the_quoted_sentence_and_the_shared_words(built):
    vault, site = built
    records = list((vault / "walks" / "active").glob("hyp-*.md"))
    assert records
    for record in records:
        page = (site / "hypotheses" / f"{record.stem}.html").read_text(encoding="utf-8")
        evidence = page[page.index('id="evidence"'):page.index('id="decide"')]
        assert evidence.count("<mark>") == 2, record.stem  # one quoted sentence in each passage
        assert "<strong>" in evidence


def test_the_top_level_mkdocs_yml_keeps_in_step_with_walker_site_build(tmp_path, sample_vault):
    import yaml as yamllib

    from walker.site.build import site_config

    written = yamllib.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    generated = site_config(sample_vault, tmp_path / "site")
    assert written["theme"]["features"] == generated["theme"]["features"]
    assert written["markdown_extensions"] == generated["markdown_extensions"]


def test_the_404_page_works_from_file(built):
    _, site = built
    page = (site / "404.html").read_text(encoding="utf-8")
    assert not re.search(r'(?:href|src)="/(?!/)', page) and '"base": "."' in page
    assert 'href="./index.html"' in page


def test_a_reviewers_notes_show_on_the_hypothesis_page(tmp_path):
    """What a reviewer writes under ## Reviewer notes in Obsidian appears on the page, links working."""
    vault = walked_copy(tmp_path, walks=1)
    (record,) = (vault / "walks" / "active").glob("hyp-*.md")
    record.write_text(record.read_text(encoding="utf-8").rstrip() + "\n\nCompare with [[Levain Build]] before "
                      "deciding; <b>not</b> markup.\n", encoding="utf-8")
    assert "## Reviewer notes" in record.read_text(encoding="utf-8")
    build_site(vault, tmp_path / "site")
    page = (tmp_path / "site" / "hypotheses" / f"{record.stem}.html").read_text(encoding="utf-8")
    assert "Compare with" in page and "before deciding" in page and "<b>not</b>" not in page
    assert re.search(r'<a href="[^"]*Levain', page)


def test_search_covers_walker_pages_not_the_notes_they_cite(built):
    _, site = built
    index = json.loads(re.search(r"\{.*\}", (site / "search" / "search_index.js").read_text(encoding="utf-8"), re.S).group(0))
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert any(loc.startswith("hypotheses/hyp-") for loc in locations)  # a claim is found by its words
    assert not any(loc.startswith("notes/") for loc in locations)  # a note's own text is searched in Obsidian
    assert list((site / "notes").rglob("*.html"))  # its page is still there to read


def test_walk_pictures_are_drawn_in_the_report_with_each_note_a_link(built):
    _, site = built
    for page in (site / "reports").glob("2*.html"):
        html = page.read_text(encoding="utf-8")
        pictures = re.findall(r'<svg[^>]*class="walk-picture".*?</svg>', html, re.S)
        assert len(pictures) == 1, page.name
        assert "<style" not in pictures[0] and "data-note" not in pictures[0]  # the site's colours, no leftovers
        hrefs = re.findall(r'<a href="([^"]+)"', pictures[0])
        assert hrefs and all((page.parent / unquote(h)).is_file() for h in hrefs), hrefs


def test_a_planted_walk_picture_runs_nothing_and_links_only_to_note_pages(tmp_path):
    from walker.site.svg import inline_picture

    planted = (b'<svg xmlns="http://www.w3.org/2000/svg"><title>t</title><script>alert(1)</script>'
               b'<style>body{display:none}</style><g><style>main{visibility:hidden}</style></g>'
               b'<g class="node" data-note="Garden/Compost.md" onclick="alert(2)"><text>Compost</text></g>'
               b'<g class="node" data-note="&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"><text>x</text></g>'
               b'<a href="javascript:alert(4)"><text>y</text></a></svg>')
    pages = {"Garden/Compost.md": "../notes/Garden/Compost.html"}
    markup = inline_picture(planted, pages.get)
    assert markup is not None
    assert "script" not in markup.lower().replace("&lt;script", "") and "onclick" not in markup
    assert "javascript:" not in markup and "<style" not in markup and "display:none" not in markup
    assert "visibility" not in markup  # a style nested in a group would restyle the whole page
    assert re.findall(r'href="([^"]+)"', markup) == ["../notes/Garden/Compost.html"]


EDGE = """# Edge

A real link to [[Compost]] here.

> [!note] In a callout
> See [[Worm Bin]] too.

> ```
> [[Soil]] in a fenced block in a quote
> ```

<!-- [[Mulch]] in an HTML comment -->

$$
[[Pruning]] in math
$$

    [[Aphids]] in indented code
"""


def test_a_note_page_links_exactly_what_the_corpus_reads_as_links(tmp_path):
    from walker.corpus import load_corpus
    from walker.site.links import SiteLinks
    from walker.site.notepage import note_page

    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {"Garden/Edge.md": EDGE})
    corpus = load_corpus(vault)
    assert [link.target for link in corpus.links if link.source == "Garden/Edge.md"] == ["Compost", "Worm Bin"]
    links = SiteLinks(corpus, "vault", {p: f"notes/{p}" for p in corpus.notes}, {})
    page = note_page(vault, "Garden/Edge.md", "notes/Garden/Edge.md", corpus, links, [])
    assert "[Compost](Compost.md)" in page and "[Worm Bin](Worm%20Bin.md)" in page  # the callout's link too
    for shown_as_written in ("[[Soil]]", "[[Pruning]]", "[[Aphids]]"):
        assert shown_as_written in page, shown_as_written
    assert "Mulch" not in page  # the HTML comment is hidden, as Obsidian hides it


def test_long_note_titles_become_short_labels_named_once():
    from walker.site.markup import LABEL_LIMIT, label, note_labels, short_title

    a = "Missing tags, aliases and cssclasses in some Obsidian 1.9.x versions"
    b = "How to style backlinks and custom statuses in Reading mode"
    assert short_title("Proofing Box Thermostat ↔ Brining") == "Proofing Box Thermostat ↔ Brining"  # short: as it is
    assert short_title(f"{a} ↔ {b}") == "Missing tags, aliases and… ↔ How to style backlinks and…"
    assert all(len(label(t)) <= LABEL_LIMIT for t in (a, b, "x" * 90, "word " * 30))
    # Two titles that start the same keep what tells them apart.
    x, y = "Recurring tasks set up for the weekly review of Kitchen", "Recurring tasks set up for the weekly review of Garden"
    labels = [short for _, short in note_labels(f"{x} ↔ {y}")]
    assert labels[0] != labels[1] and labels[0].endswith("Kitchen") and labels[1].endswith("Garden")
    assert [n for n, _ in note_labels("README ↔ README")] == ["README", "README"]


def test_a_claim_names_long_notes_by_their_labels_but_quotes_stay_as_written():
    from walker.site.recordpage import _labelled

    a = "Missing tags, aliases and cssclasses in some Obsidian 1.9.x versions"
    b = "How to style backlinks and custom statuses in Reading mode"
    claim = f"{a} and {b} describe one mechanism: “{a} is the title here” and “so it stays”."
    shown = _labelled(claim, f"{a} ↔ {b}")
    assert shown.startswith("Missing tags, aliases and… and How to style backlinks and… describe")
    assert f"“{a} is the title here”" in shown


def test_next_in_queue_links_follow_the_queue(tmp_path):
    """Each page's "Next in queue" is the next record of the queue that still needs a decision."""
    vault = walked_copy(tmp_path, walks=3)

    def nexts(site):
        queue = re.findall(r'<a class="walker-queue-title" href="hypotheses/([^"]+)" title="[^"]+"',
                           (site / "review.html").read_text(encoding="utf-8"))
        found = []
        for n, name in enumerate(queue):
            on = re.search(r'<p class="walker-queue-on">(.*?)</p>',
                           (site / "hypotheses" / name).read_text(encoding="utf-8"), re.S).group(1)
            assert on.startswith(f"{n + 1} of {len(queue)}")
            following = re.search(r'<a href="([^"]+)" title="[^"]+">Next in queue →</a>', on)
            found.append(following.group(1) if following else None)
        return queue, found

    build_site(vault, tmp_path / "site")
    queue, found = nexts(tmp_path / "site")
    assert len(queue) >= 2 and found == [*queue[1:], None]
    # Decided in Obsidian (not applied yet): still in the queue, but no longer next.
    record = vault / "walks" / "active" / queue[1].replace(".html", ".md")
    record.write_text(record.read_text(encoding="utf-8").replace("\nstatus: active", "\nreview: confirm\nstatus: active", 1),
                      encoding="utf-8")
    build_site(vault, tmp_path / "site")
    queue_after, found = nexts(tmp_path / "site")
    assert queue_after == queue and found[0] == (queue[2] if len(queue) > 2 else None)


def test_the_bar_offers_what_the_record_allows(tmp_path):
    """A muted hypothesis is unmuted, not muted again; a noteworthy entry is archived or decided in Obsidian."""
    from walker.site.decide import DecideBox

    muted = DecideBox("active", "hyp-1", "/v", "obsidian://x", "", muted=True).bar_markdown()
    assert "walker unmute WALKERFILLID" in muted and "walker mute " not in muted
    noteworthy = DecideBox("noteworthy", "hyp-2", "/v", "obsidian://x", "").bar_markdown()
    assert "walker archive WALKERFILLID" in noteworthy and "discharge" not in noteworthy
    assert "human_review_outcome" in noteworthy


def _render(text: str) -> tuple[str, list]:
    import markdown

    from walker.site.build import EXTENSIONS

    names = [e if isinstance(e, str) else next(iter(e)) for e in EXTENSIONS]
    configs = {k: v for e in EXTENSIONS if isinstance(e, dict) for k, v in e.items()}
    md = markdown.Markdown(extensions=names, extension_configs=configs)
    return md.convert(text), md.toc_tokens


def test_a_task_checkbox_is_named_by_its_task():
    html, _ = _render("# Tasks\n\n- [ ] buy *flour* <b>now</b> & salt\n- [x] done\n    - [ ] a subtask\n\n"
                      "1. [ ] loose\n\n2. [x] list\n")
    names = re.findall(r'<input aria-label="([^"]*)"', html)
    assert names == ["buy flour &lt;b&gt;now&lt;/b&gt; &amp; salt", "done", "a subtask", "loose", "list"]
    assert html.count('type="checkbox"') == 5 and "<b>" not in html


def test_the_page_title_has_no_permalink_and_an_empty_heading_no_contents_entry():
    from mkdocs.structure.toc import get_toc

    from walker.site.markdown_ext import safe_toc

    html, tokens = _render("# Title\n\n## \n\n### Under it\n\n## Named\n")
    assert '<h1 id="title">Title</h1>' in html and 'href="#named"' in html  # a section keeps its permalink
    toc = get_toc(tokens)
    safe_toc(toc.items)
    assert [(i.title, [c.title for c in i.children]) for i in toc.items[0].children] == [("Under it", []), ("Named", [])]


def test_notes_named_in_decomposed_unicode_get_their_pages_and_anchors(tmp_path):
    """A vault synced from a Mac may name a folder in decomposed Unicode ("Küche" as u and a combining diaeresis).
    The corpus knows it by its composed name, as Obsidian links to it; the site must still read the file: its page
    shows the note's text, and the report's links to its headings land on them (a strict build fails otherwise)."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    decomposed = unicodedata.normalize("NFD", "Küche")
    (vault / "Kitchen").rename(vault / decomposed)
    if "Küche" in os.listdir(vault):
        pytest.skip("this file system stores names composed")
    for n, seed in enumerate(["Brining", "Proofing Box Thermostat"]):
        run_walk(Workspace.open(vault), WalkOptions(now=NOW.replace(hour=7 + n), random_seed=0, seed_note=seed))
    build_site(vault, tmp_path / "site")
    page = (tmp_path / "site" / "notes" / "Küche" / "Brining.html").read_text(encoding="utf-8")
    assert "Cited by" in page and "salt" in page.split("Cited by", 1)[1].lower()
    for text in html_outside_code(tmp_path / "site").values():
        assert "No such file" not in text
    corpus = Workspace.open(vault).corpus  # the passages of such a note, read again past the parse cache
    assert any("salt" in p.text.lower() for p in read_paragraphs(corpus.root, corpus.notes["Küche/Brining.md"]))


def test_the_dashboard_cuts_a_long_seed_at_a_word_and_keeps_it_in_italics(tmp_path):
    """A seed longer than the dashboard shows is cut at a word and says so ("…"): cut in the middle of a space,
    the italics ended on " *" and showed their asterisks."""
    vault = walked_copy(tmp_path, walks=1)
    run = next((vault / "walks" / "runs").glob("*.yaml"))
    data = yaml.safe_load(run.read_text(encoding="utf-8"))
    data["seed"]["proposition"] = ("Si se modifica una clave foránea, se debe verificar que sus nuevos valores referencien "
                                   "a una tupla existente de la relación referenciada, o bien sean todos nulos.")
    run.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    page = next(p.markdown for p in generate_site(vault).pages if p.path == "index.md")
    line = next(line for line in page.splitlines() if " · kept " in line)
    assert re.search(r" · \*\S[^*]*\S…\*$", line), line


def test_the_dashboard_counts_one_hypothesis_in_the_singular(tmp_path):
    """One record waiting reads "1 hypothesis waits for you" and "1 record", not "1 hypotheses wait"."""
    vault = walked_copy(tmp_path, walks=3)
    active = sorted((vault / "walks" / "active").glob("*.md"))
    assert active
    for extra in active[1:]:
        extra.unlink()
    page = next(p.markdown for p in generate_site(vault).pages if p.path == "index.md")
    assert "1 hypothesis waits for you" in page and "hypotheses wait" not in page, page
    assert "\n1 record, " in page, page


def test_a_vault_no_walk_kept_anything_in_says_nothing_waits_without_claiming_decisions(tmp_path):
    """A pool with no record at all: the queue says nothing waits, not that every hypothesis has been decided."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    page = next(p.markdown for p in generate_site(vault).pages if p.path == "review.md")
    assert "Nothing waits for you" in page and "has been decided" not in page
