"""Issue 28, the review site: no script from an attribute list, rendering in linear time, no folders left
by an interrupted build, no pickle between processes, and only regular files read.

Each example of the issue has a test, and a variant in other words next to it. Builds run in this process
when a crash is what is tested, in a subprocess with a timeout when a hang is (the timeout only stops a
hang; bench/hostile_bench.py times the same inputs).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, write_vault

from walker.cli import main
from walker.pool.store import PoolStore
from walker.site.build import build_site

RECORD_ID = "hyp-2026-11-30-009"
WALKER = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")
ISSUE_HEADING = '## Clip {: #y"><scr<b>ipt>alert(1)</scr<b>ipt><i" }'


def hostile_vault(tmp_path: Path, notes: dict[str, str], reviewer_notes: str = "", **record: str) -> Path:
    """The sample vault with ``notes`` added and one active record citing each of them, so each gets a page."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), notes)
    PoolStore(vault).ensure()
    refs = ", ".join(json.dumps(path) for path in notes) or "Garden/Compost.md"
    extra = "".join(f"{key}: {json.dumps(value)}\n" for key, value in record.items())
    (vault / "walks" / "active" / f"{RECORD_ID}.md").write_text(
        f"---\nid: {RECORD_ID}\nclaim: Compost heats up when it is turned.\nstatus: active\n"
        f"supporting_refs: [{refs}]\nconfidence: low\nimpact: add\n{extra}---\n# Compost heats\n\n"
        f"## Reviewer notes\n\n{reviewer_notes}\n", encoding="utf-8")
    return vault


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def build_in_process(vault: Path, site: Path) -> tuple[Path, float]:
    started = time.perf_counter()
    build_site(vault, site)
    return site, time.perf_counter() - started


def build_in_subprocess(vault: Path, site: Path, timeout: float = 90) -> tuple[subprocess.CompletedProcess, float]:
    started = time.perf_counter()
    result = subprocess.run([WALKER, "site", "build", str(vault), "-o", str(site)], capture_output=True, text=True,
                            timeout=timeout, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert "Traceback" not in result.stderr, result.stderr
    return result, time.perf_counter() - started


class _LiveCode(HTMLParser):
    """What a browser would run in a page: event handlers, javascript: URLs, scripts that are not the theme's."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action", "formaction") and value and \
                    re.sub(r"\s", "", value).lower().startswith(("javascript:", "data:text")):
                self.found.append(f"<{tag} {name}={value!r}>")
        self.in_script = tag == "script"
        if tag in ("iframe", "object", "embed", "base") or \
                (tag == "meta" and ("http-equiv", "refresh") in attrs):
            self.found.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and "alert(" in data:
            self.found.append(f"<script>{data[:80]}")


def live_code(site: Path) -> dict[str, list[str]]:
    """Page -> what would run in it, for every page of the site (the theme's own scripts excluded)."""
    found = {}
    for page in sorted(site.rglob("*.html")):
        parser = _LiveCode()
        parser.feed(page.read_text(encoding="utf-8"))
        if parser.found:
            found[page.relative_to(site).as_posix()] = parser.found
    return found


def toc_targets(page: Path) -> list[str]:
    html = page.read_text(encoding="utf-8")
    return re.findall(r'<a href="#([^"]*)" class="md-(?:nav__link|skip)"', html)


# --- script from an attribute list -------------------------------------------------------------------


def test_the_issues_heading_attribute_list_runs_no_script_from_the_table_of_contents(tmp_path):
    vault = hostile_vault(tmp_path, {"Garden/Clip.md": f"# Clip\n\nClipped from the web.\n\n{ISSUE_HEADING}\n\nText.\n"})
    site, _ = build_in_process(vault, tmp_path / "site")
    page = site / "notes" / "Garden" / "Clip.html"
    assert live_code(site) == {}
    assert "<script>alert" not in page.read_text(encoding="utf-8")
    targets = toc_targets(page)
    assert targets and all(re.fullmatch(r"[A-Za-z0-9_-]*", t) for t in targets), targets


def test_any_attribute_list_keeps_at_most_a_slug_id_on_a_heading_and_nothing_live_elsewhere(tmp_path):
    """The same through every attribute an attr_list can set: a quoted id, a class, data-toc-label (which
    the table of contents prints), an event handler; on the page's H1 (the theme's skip link), a section
    heading and a paragraph."""
    note = ("# Field notes {: id='top\" onfocus=\"alert(1)' }\n\nA paragraph.\n"
            "{: id='p\" onmouseover=\"alert(2)' .a\"b onclick=\"alert(3)\" }\n\n"
            "## Seed {: id='s\" onmouseover=\"alert(4)' data-toc-label='&lt;img src=x onerror=alert(5)&gt;' "
            ".x\"y onclick=alert(6) }\n\nText.\n\n"
            "## Kept {: #kept-anchor .shown }\n\nMore [a link](https://example.org){: href=\"javascript:alert(7)\" "
            "style=\"position:fixed;inset:0\" data-x=1 } and ![a picture](x.png){: src=\"javascript:alert(8)\" }.\n")
    vault = hostile_vault(tmp_path, {"Garden/Field.md": note})
    site, _ = build_in_process(vault, tmp_path / "site")
    assert live_code(site) == {}
    page = site / "notes" / "Garden" / "Field.html"
    html = page.read_text(encoding="utf-8")
    assert all(re.fullmatch(r"[A-Za-z0-9_-]*", t) for t in toc_targets(page))
    assert '<h2 id="kept-anchor">' in html  # a safe id stays (links to it still work); the class goes
    assert "&lt;img" not in html and "<img src=\"x\"" not in html
    assert "position:fixed" not in html and "data-x" not in html


def test_walkers_own_text_a_discharge_source_with_an_attribute_list_runs_nothing(tmp_path):
    """The issue's second route: text walker writes itself (a discharge's --source reaches log.md and the
    record), with a heading and an attribute list in it."""
    vault = hostile_vault(tmp_path, {})
    source = ("measured on 2026-11-28\n\n## Heat {: id='a\" onmouseover=\"alert(1)' }\n\n"
              "seen {: id='b\" onmouseover=\"alert(2)' }\n\n## Y {: #y\"><scr<b>ipt>alert(3)</scr<b>ipt><i\" }\n\nok")
    result = cli("discharge", RECORD_ID, vault, "--source", source, "--statement", "Compost heats when turned.",
                 "--now", "2026-12-01T08:00:00+00:00")
    assert result.exit_code == 0, result.output
    site, _ = build_in_process(vault, tmp_path / "site")
    assert "onmouseover" in (vault / "walks" / "log.md").read_text(encoding="utf-8")  # the text is there...
    assert live_code(site) == {}  # ...and runs nowhere: not in log.html, not on the record's page
    for page in ("log.html", f"hypotheses/{RECORD_ID}.html"):
        assert all(re.fullmatch(r"[A-Za-z0-9_-]*", t) for t in toc_targets(site / page)), page


def test_a_review_source_set_in_obsidian_runs_nothing_once_applied(tmp_path):
    """The same text as a ``review_source`` a reviewer typed in Obsidian, applied by ``walker review``."""
    vault = hostile_vault(tmp_path, {}, review="confirm",
                          review_source="user statement on 2026-11-29\n\n## S {: id='q\" onmouseover=\"alert(7)' }\n\nx",
                          review_statement="Compost heats when turned.")
    cli("review", vault, "--now", "2026-12-01T08:00:00+00:00")
    assert (vault / "walks" / "discharged" / f"{RECORD_ID}.md").is_file()
    site, _ = build_in_process(vault, tmp_path / "site")
    assert live_code(site) == {}


def test_reviewer_notes_and_a_hand_edited_report_run_nothing(tmp_path):
    """Other routes to the theme: a record's reviewer notes (its page and TOC), a report's front matter
    (printed raw as <meta> by the theme, or naming a template that runs its own script)."""
    vault = hostile_vault(tmp_path, {}, reviewer_notes="## Mine {: id='m\" onmouseover=\"alert(1)' }\n\nok\n")
    (vault / "walks" / "reports").mkdir(exist_ok=True)
    (vault / "walks" / "reports" / "2026-11-30-001.md").write_text(
        "---\ntitle: Walk\ndescription: '\"><script>alert(2)</script>'\nauthor: '\"><img src=x onerror=alert(3)>'\n"
        "template: redirect.html\nlocation: '\"]);alert(4);//'\nicon: ../../../etc/passwd\n---\n"
        "# A walk\n\n## Seed {: id='s\" onmouseover=\"alert(5)' }\n\ntext\n", encoding="utf-8")
    site, _ = build_in_process(vault, tmp_path / "site")
    assert live_code(site) == {}
    report = (site / "reports" / "2026-11-30-001.html").read_text(encoding="utf-8")
    assert "alert(" not in report and "A walk" in report


def test_the_sanitiser_keeps_ids_and_classes_to_slug_characters():
    from walker.site.markdown_ext import allowed_attribute, safe_id, sanitize

    assert safe_id("block-a_1") == "block-a_1"
    assert safe_id('a" onmouseover="x') is None and safe_id("") is None and safe_id("a b") is None
    assert allowed_attribute("p", "class", 'ok x"y bad>') == "ok"
    assert allowed_attribute("p", "onclick", "x") is None and allowed_attribute("p", "data-x", "1") is None
    clean = sanitize("<h2 id='a\" onmouseover=\"x' class='c d\"e'>t</h2><a href='#y\"z' data-x=1>l</a>")
    assert "onmouseover" not in clean and 'id="' not in clean and 'class="c"' in clean and "data-x" not in clean


CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(not CHROMIUM, reason="no chromium on this machine")
def test_no_script_runs_in_chromium_on_hostile_headings(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    note = (f"# Clip {{: id='top\" onfocus=\"alert(0)' autofocus }}\n\n{ISSUE_HEADING}\n\nText.\n\n"
            "## Seed {: id='s\" onmouseover=\"alert(4)' }\n\nMore.\n")
    vault = hostile_vault(tmp_path, {"Garden/Clip.md": note},
                          reviewer_notes="## Mine {: id='m\" onmouseover=\"alert(1)' }\n\nok\n")
    result = cli("discharge", RECORD_ID, vault, "--source",
                 "measured on 2026-11-28\n\n## Heat {: id='a\" onmouseover=\"alert(2)' }\n\nok",
                 "--statement", "Compost heats when turned.", "--now", "2026-12-01T08:00:00+00:00")
    assert result.exit_code == 0, result.output
    site, _ = build_in_process(vault, tmp_path / "site")
    dialogs: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for path in ("notes/Garden/Clip.html", "log.html", f"hypotheses/{RECORD_ID}.html"):
            page.goto((site / path).as_uri())
            page.wait_for_load_state()
            for link in page.locator("a.md-nav__link[href^='#'], a.headerlink").all():
                if link.is_visible():
                    link.hover()
                    link.focus()
            page.keyboard.press("Tab")
            page.wait_for_timeout(200)
        browser.close()
    assert dialogs == []


# --- rendering in linear time --------------------------------------------------------------------


def nested(opening: str, closing: str, depth: int, middle: str = "x") -> str:
    return opening * depth + middle + closing * depth


@pytest.mark.parametrize("text", [
    pytest.param(nested("[", "]", 20_000), id="issue: brackets 20,000 deep, 40 KB"),
    pytest.param("\n\n".join([nested("[", "]", 20_000)] * 6), id="issue: six such paragraphs, 240 KB"),
    pytest.param(nested("[", "", 90_000) + "\n\n" + "]" * 90_000, id="brackets closed a paragraph later"),
    pytest.param(nested("[a ", "](u)", 12_000), id="links nested 12,000 deep"),
    pytest.param("[" * 31 + "a" * 190_000, id="31 brackets that never close, a long paragraph"),
])
def test_nested_brackets_build_in_seconds(tmp_path, text):
    vault = hostile_vault(tmp_path, {"Garden/Brackets.md": f"# Brackets\n\nA note about compost.\n\n{text}\n"})
    result, seconds = build_in_subprocess(vault, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert seconds < 20, seconds  # 46 s (and hours for the 250 KB ones) before; under 4 s on a quiet machine
    assert "A note about compost." in (tmp_path / "site" / "notes" / "Garden" / "Brackets.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [
    pytest.param(nested("*a ", " b*", 2_000), id="issue: emphasis 2,000 deep"),
    pytest.param(nested("**", "**", 3_000), id="one run of 3,000 stars each side"),
    pytest.param(nested("_a ", " b_", 2_000) + "\n\n" + nested("==a ", " b==", 2_000), id="underscores and marks"),
    pytest.param(nested("*[_", "_]*", 3_000), id="emphasis and brackets interleaved"),
])
def test_deeply_nested_emphasis_renders(tmp_path, text):
    vault = hostile_vault(tmp_path, {"Garden/Deep.md": f"# Deep\n\nA note about compost.\n\n{text}\n"})
    site, seconds = build_in_process(vault, tmp_path / "site")  # RecursionError before
    page = (site / "notes" / "Garden" / "Deep.html").read_text(encoding="utf-8")
    assert "Flattened" in page and "A note about compost." in page


def test_deep_nesting_in_walkers_own_pages_renders(tmp_path):
    """Reviewer notes (the record's page) and a hand-edited report are not cited notes, and were not flattened:
    lists, quotes and emphasis nested past any depth there stopped the build."""
    deep_list = "\n".join("    " * i + "- turn it" for i in range(600))
    vault = hostile_vault(tmp_path, {}, reviewer_notes=f"{deep_list}\n\n{'>' * 3000} q\n\n{nested('*a ', ' b*', 2000)}\n")
    (vault / "walks" / "reports").mkdir(exist_ok=True)
    (vault / "walks" / "reports" / "2026-11-30-001.md").write_text(
        f"# A walk\n\n{nested('**', '**', 2000)}\n\n{deep_list}\n", encoding="utf-8")
    site, _ = build_in_process(vault, tmp_path / "site")
    assert "Flattened" in (site / "hypotheses" / f"{RECORD_ID}.html").read_text(encoding="utf-8")
    assert "Flattened" in (site / "reports" / "2026-11-30-001.html").read_text(encoding="utf-8")


def test_nested_quotes_and_html_tags_build_in_seconds(tmp_path):
    notes = {"Garden/Quotes.md": "# Quotes\n\n" + ">" * 100_000 + " deep\n\n" + "\n".join("> " * i + "q" for i in range(300)),
             "Garden/Tags.md": "# Tags\n\n" + nested("<b>", "</b>", 20_000) + "\n\n" + nested("<div>", "</div>", 20_000)}
    vault = hostile_vault(tmp_path, notes)
    result, seconds = build_in_subprocess(vault, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert seconds < 20, seconds


def test_long_blocks_of_headings_and_rules_build_in_seconds(tmp_path):
    """Not nesting but the same cost: Python-Markdown took the first heading or rule of a block and tested
    all the rest again. Cited notes are cut at 3,000 lines; a record's reviewer notes and a report are not."""
    vault = hostile_vault(tmp_path, {}, reviewer_notes="# a heading\n" * 30_000)
    (vault / "walks" / "reports").mkdir(exist_ok=True)
    (vault / "walks" / "reports" / "2026-11-30-001.md").write_text(
        "# A walk\n\n" + "a line\n***\n" * 12_000 + "\n" + "a title\n===\n" * 12_000, encoding="utf-8")
    result, seconds = build_in_subprocess(vault, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert seconds < 20, seconds
    page = (tmp_path / "site" / "reports" / "2026-11-30-001.html").read_text(encoding="utf-8")
    assert page.count("<hr") >= 12_000 and page.count("<h1") >= 12_000  # each still a rule, a heading


def test_walker_run_with_a_site_dir_survives_a_deep_note(tmp_path):
    vault = hostile_vault(tmp_path, {"Garden/Deep.md": f"# Deep\n\nA note about compost.\n\n{nested('*a ', ' b*', 2000)}\n"})
    site = tmp_path / "site"
    (vault / "walker.toml").write_text(f'[run]\nsite_dir = "{site}"\n', encoding="utf-8")
    result = cli("run", vault, "--cadence", "daily", "--now", "2026-12-01T08:00:00+00:00", "--json")
    assert result.exit_code in (0, 1), result.output
    assert "RecursionError" not in result.output
    assert (site / "notes" / "Garden" / "Deep.html").is_file()


# --- an interrupted build ------------------------------------------------------------------------------


def test_a_killed_build_leaves_nothing_once_the_next_build_runs(tmp_path):
    vault = hostile_vault(tmp_path, {})
    process = subprocess.Popen([WALKER, "site", "build", str(vault), "-o", str(tmp_path / "site")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    def started() -> bool:  # the build's new folder exists and its marker names the build's process
        return any(marker.read_text().strip() for marker in tmp_path.glob(".walker-site-new-*/.walker-site-building"))

    while not started() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.kill()
    process.wait()
    assert list(tmp_path.glob(".walker-site-new-*")), "the build ended before it could be killed"
    build_site(vault, tmp_path / "site")
    assert not list(tmp_path.glob(".walker-site-new-*")) and not list(tmp_path.glob(".walker-site-old-*"))


def test_only_walkers_own_leftovers_are_removed(tmp_path):
    """A build removes a new folder whose builder is gone and an old site walker built; it leaves alone a folder
    of that name it did not make, and one a build still under way is filling."""
    vault = hostile_vault(tmp_path, {})
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale_new = tmp_path / ".walker-site-new-stale"
    stale_new.mkdir()
    (stale_new / ".walker-site-building").write_text(gone.stdout)
    (stale_new / "index.html").write_text("half a site")
    stale_old = tmp_path / ".walker-site-old-stale"
    (stale_old / "site").mkdir(parents=True)
    (stale_old / "site" / ".walker-site").write_text("built by walker")
    foreign = tmp_path / ".walker-site-new-mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("not walker's")
    busy = tmp_path / ".walker-site-new-busy"
    busy.mkdir()
    (busy / ".walker-site-building").write_text(f"{os.getppid()}\n")  # a live process
    foreign_old = tmp_path / ".walker-site-old-mine"
    foreign_old.mkdir()
    (foreign_old / "keep.txt").write_text("not walker's")
    build_site(vault, tmp_path / "site")
    assert not stale_new.exists() and not stale_old.exists()
    assert (foreign / "keep.txt").is_file() and busy.is_dir() and (foreign_old / "keep.txt").is_file()


# --- no pickle --------------------------------------------------------------------------------------------


def test_no_pickle_in_the_site():
    import walker.site.build

    sources = list(Path(walker.site.build.__file__).parent.glob("*.py"))
    assert len(sources) > 5
    for path in sources:
        assert "pickle" not in path.read_text(encoding="utf-8"), path.name


def test_the_second_cores_result_is_json(tmp_path, monkeypatch):
    """A big site's last pages come back from the forked renderer as JSON, and make the same pages."""
    from walker.site import parallel

    vault = hostile_vault(tmp_path, {"Garden/Clip.md": f"# Clip\n\n{ISSUE_HEADING}\n\n## Two\n\n### Three\n\ntext\n"})
    one, _ = build_in_process(vault, tmp_path / "one")
    read: list[str] = []

    class Recording:
        dumps = staticmethod(json.dumps)

        @staticmethod
        def loads(text):
            read.append(text)
            return json.loads(text)

    monkeypatch.setattr(parallel, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(parallel, "forkable", lambda: True)
    monkeypatch.setattr(parallel, "json", Recording)
    two, _ = build_in_process(vault, tmp_path / "two")
    assert len(read) == 1 and "notes/Garden/Clip.md" in json.loads(read[0])
    for page in ("notes/Garden/Clip.html", "log.html", f"hypotheses/{RECORD_ID}.html"):
        assert (one / page).read_bytes() == (two / page).read_bytes(), page


# --- reading only regular files ---------------------------------------------------------------------------


@contextmanager
def deadline(seconds: int):
    """Fail instead of hanging: a FIFO opened for reading blocks until a writer comes."""
    def stop(*_):
        raise TimeoutError(f"still reading after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_fifo_a_device_and_a_link_to_dev_zero_among_reports_are_skipped_with_a_warning(tmp_path):
    vault = hostile_vault(tmp_path, {})
    reports = vault / "walks" / "reports"
    reports.mkdir(exist_ok=True)
    (reports / "2026-11-30-001.md").write_text("# A walk\n\nFine.\n", encoding="utf-8")
    os.mkfifo(reports / "2026-11-30-002.md")
    os.symlink("/dev/zero", reports / "2026-11-30-003.md")
    os.symlink("/dev/null", reports / "2026-11-30-004.md")
    os.mkfifo(reports / "2026-11-30-001.svg")
    with deadline(60):
        built = build_site(vault, tmp_path / "site")
    assert (tmp_path / "site" / "reports" / "2026-11-30-001.html").is_file()
    warned = " ".join(built.warnings)
    for name in ("2026-11-30-002.md", "2026-11-30-003.md", "2026-11-30-004.md", "2026-11-30-001.svg"):
        assert name in warned, (name, built.warnings)


def test_a_cited_note_that_became_a_fifo_or_a_device_is_skipped_not_read(tmp_path):
    """The corpus read the notes; by the time the site reads one it is a FIFO (or a link to /dev/zero)."""
    from walker.corpus import load_corpus
    from walker.site.pages import generate_site

    vault = hostile_vault(tmp_path, {"Garden/Pipe.md": "# Pipe\n\nA note about compost.\n",
                                     "Garden/Zero.md": "# Zero\n\nA note about compost.\n"})
    corpus = load_corpus(vault)
    (vault / "Garden" / "Pipe.md").unlink()
    os.mkfifo(vault / "Garden" / "Pipe.md")
    (vault / "Garden" / "Zero.md").unlink()
    os.symlink("/dev/zero", vault / "Garden" / "Zero.md")
    with deadline(30):
        site = generate_site(vault, corpus=corpus)
    pages = {page.path: page.markdown for page in site.pages}
    assert "notes/Garden/Pipe.md" in pages and "notes/Garden/Zero.md" in pages  # the page says what it can
