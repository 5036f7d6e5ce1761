"""The review site in headless Chromium, opened from file:// as a reviewer would.

Needs Debian's chromium (.ci/run installs it). Every request that is not file://
is recorded and refused; any dialog (an alert from note text) fails the test.
"""

import re
from pathlib import Path

import pytest
from conftest import SAMPLE_VAULT, need_chromium
from test_site import XSS_NOTES, walked_copy

from walker.site.build import build_site

need_chromium()  # skipped without Debian's chromium, except under CI


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    vault = walked_copy(tmp, extra=XSS_NOTES, walks=3)  # the hostile note's walk, then two that keep records
    build_site(vault, tmp / "site")
    return tmp / "site"


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.external = []
    page.dialogs = []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            r.continue_()
        else:
            page.external.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    yield page
    context.close()


def test_reviewer_journey(site, page):
    page.goto((site / "index.html").as_uri())
    assert "Walks in" in page.inner_text("h1")

    walks = page.locator("article li", has_text=re.compile(r"kept [1-9]"))
    walks.first.locator("a[href^='reports/2']").click()
    page.wait_for_load_state()
    assert "/reports/" in page.url
    # The walk picture is drawn in the page, and each note in it opens that note's page.
    picture = page.locator("svg.walk-picture")
    assert picture.count() == 1 and picture.bounding_box()["width"] > 300
    nodes = picture.locator("a")
    assert nodes.count() >= 5
    report_url = page.url
    nodes.first.click()
    page.wait_for_load_state()
    assert "/notes/" in page.url and page.locator("article h1").count() == 1
    page.goto(report_url)

    page.locator("article a[href*='hypotheses/hyp-']").first.click()
    page.wait_for_load_state()
    assert "/hypotheses/hyp-" in page.url
    claim = page.inner_text("article blockquote")
    assert claim

    evidence = page.locator("article a[href*='notes/']").first
    href = evidence.get_attribute("href")
    evidence.click()
    page.wait_for_load_state()
    assert "/notes/" in page.url
    if "#" in href:
        anchor = href.split("#", 1)[1]
        assert page.locator(f"[id='{anchor}']").count() == 1, anchor

    word = max(re.findall(r"[A-Za-z]{6,}", claim), key=len)
    page.keyboard.press("/")
    page.keyboard.type(word)
    page.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0", timeout=10000)
    page.screenshot(path=str(site.parent / "search.png"))
    assert word.lower() in page.locator(".md-search-result__item").first.text_content().lower()

    before = page.get_attribute("body", "data-md-color-scheme")
    page.keyboard.press("Escape")
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    after = page.get_attribute("body", "data-md-color-scheme")
    assert before != after

    assert page.external == []
    assert page.dialogs == []


def test_hostile_note_runs_nothing(site, page):
    page.goto((site / "notes" / "Kitchen" / "Danger.html").as_uri())
    page.hover("text=Hover this paragraph.")
    page.click("text=click me")
    page.wait_for_timeout(300)
    assert page.dialogs == [] and page.external == []


def test_review_queue_and_hypotheses_tables(site, page):
    page.goto((site / "hypotheses" / "index.html").as_uri())
    assert page.locator("article table a[href^='hyp-']").count() >= 1
    ids = page.locator("article table").first.locator("tbody tr td:first-child")
    page.locator("article table").first.locator("th").first.click()
    ascending = ids.all_inner_texts()
    page.locator("article table").first.locator("th").first.click()
    assert ascending == sorted(ascending) and ids.all_inner_texts() == sorted(ascending, reverse=True)
    page.locator("article table a[href^='hyp-']").first.click()
    page.wait_for_load_state()
    assert page.locator(".md-nav--primary a.md-nav__link--active").all_inner_texts() == ["Hypotheses"]
    page.goto((site / "review.html").as_uri())
    text = page.inner_text("article")
    assert re.search(r"\d+ of \d+ decided", text) and "Soonest to expire first" in text
    assert page.locator("article a.walker-queue-title[href^='hypotheses/hyp-']").count() >= 1
    assert not re.search(r"rejection_reason|flagged_value_reason|§", text)  # plain words, no field names
    assert page.external == [] and page.dialogs == []


def test_screenshots_for_review(site, page, tmp_path_factory):
    """Pictures of the main pages, kept under the pytest temp folder for a person to look at."""
    out = Path(tmp_path_factory.getbasetemp()) / "screenshots"
    out.mkdir(exist_ok=True)
    for name in ("index.html", "hypotheses/index.html", "review.html", "log.html"):
        page.goto((site / name).as_uri())
        page.screenshot(path=str(out / (name.replace("/", "-") + ".png")), full_page=True)
    assert len(list(out.glob("*.png"))) == 4


HOSTILE_NAMES = {
    "<img src=x onerror=alert('name')>.md": (
        "# Notes </title><script>alert('heading')</script>\n\n"
        "A sourdough starter is fed hours before baking, as a cache is warmed before traffic arrives.\n\n"
        "![[evil.svg]]\n\nSee [[Sourdough Starter]] and [[<svg onload=alert('folder')>/Inner]].\n"),
    "<svg onload=alert('folder')>/Inner.md": "# Inner \" onmouseover=\"alert('attr')\n\nA quorum must agree.\n",
    "evil.svg": ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert("svg")</script>'
                 '<rect width="40" height="40" fill="teal" onload="alert(\'rect\')"/></svg>'),
}


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    from conftest import SAMPLE_VAULT, copy_vault_files, write_vault
    from test_site import NOW

    from walker.walk.runner import WalkOptions, run_walk
    from walker.workspace import Workspace

    tmp = tmp_path_factory.mktemp("hostile")
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp / "<b onmouseover=alert('vault')>"), HOSTILE_NAMES)
    run_walk(Workspace.open(vault), WalkOptions(now=NOW, seed_note="<img src=x onerror=alert('name')>"))
    build_site(vault, tmp / "site")
    return tmp / "site"


def test_hostile_file_folder_and_heading_names_run_nothing(hostile_site, page):
    notes = hostile_site / "notes"
    pages = [hostile_site / "index.html", *sorted((hostile_site / "reports").glob("2*.html")),
             *sorted(notes.rglob("*.html"))]
    assert any("onerror" in p.name for p in pages) and any("Inner" in p.name for p in pages)
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_timeout(100)
        page.mouse.move(300, 300)
    page.goto(next(p for p in pages if "onerror" in p.name).as_uri())
    assert page.title().split(" - ")[0] == "Notes"  # the heading as Obsidian shows it: its script is gone
    picture = notes / "evil.svg"
    assert picture.is_file() and b"script" not in picture.read_bytes()
    page.goto(picture.as_uri())  # the attachment opened on its own, where a script would run
    page.wait_for_timeout(200)
    page.goto((hostile_site / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("onerror")
    page.wait_for_timeout(1500)
    assert page.dialogs == [] and page.external == []


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_decision_journey(site, browser, width, scheme, tmp_path_factory):
    """Home → needs a decision → a hypothesis → its confirm command → the cited note, as a reviewer would."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    out = Path(tmp_path_factory.getbasetemp()) / "screenshots"
    out.mkdir(exist_ok=True)
    serious: list[str] = []

    def check(name: str) -> None:
        page.wait_for_load_state()
        # Material fades colours in (CSS transitions); axe measuring contrast mid-fade, on a loaded machine,
        # saw a half-drawn colour.
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        page.screenshot(path=str(out / f"journey-{name}-{scheme}-{width}.png"), full_page=True)
        found = Axe().run(page, options={"preload": False}).response["violations"]  # no XHR for stylesheets
        serious.extend(f"{name}: {v['id']} ({v['impact']})" for v in found if v["impact"] in ("serious", "critical"))

    page.goto((site / "index.html").as_uri())
    check("home")
    page.locator("article a[href='review.html']").first.click()
    check("queue")
    assert "Needs a decision" in page.inner_text("h1")
    page.locator("article a.walker-queue-title[href^='hypotheses/hyp-']").first.click()
    check("hypothesis")
    record = re.search(r"hyp-[\w-]+", page.url).group(0)
    commands = page.locator("article pre code").all_inner_texts()
    assert any(c.startswith(f"walker discharge {record} ") and "--statement" in c for c in commands), commands
    assert page.locator("article button[data-md-type='copy']").count() >= 4  # each command has a copy button
    assert page.locator("article a[href^='obsidian://open?vault=']").count() >= 1
    page.locator("article a[href*='notes/']").first.click()
    check("note")
    assert "/notes/" in page.url
    context.close()
    assert problems == []
    assert serious == []


def test_the_hypotheses_index_filters_by_word(site, page):
    page.goto((site / "hypotheses" / "index.html").as_uri())
    table = page.locator("article table").first
    rows = table.locator("tbody tr")
    total = rows.count()
    assert total >= 2
    title = rows.first.locator("td").nth(1).inner_text().split()[0]
    page.locator("input.walker-filter").first.fill(title)
    visible = [r for r in rows.all() if r.is_visible()]
    assert visible and all(title.lower() in r.inner_text().lower() for r in visible)
    assert page.locator(".walker-filter-status").first.inner_text() == f"{len(visible)} of {total} shown"
    page.locator("input.walker-filter").first.fill("zzzz-nothing-has-this")
    assert not any(r.is_visible() for r in rows.all())
    assert page.locator(".walker-filter-status").first.inner_text() == f"0 of {total} shown"
    page.locator("input.walker-filter").first.fill("")
    assert all(r.is_visible() for r in rows.all())


# --- the decision bar, the queue, and axe over the whole site --------------------------------------------

LONG_A = "Missing tags, aliases and cssclasses in some Obsidian 1.9.x versions"  # 68 characters
LONG_B = "How to style backlinks and custom statuses in Reading mode with a CSS snippet"  # 77
LONG_NOTES = {
    f"Support/{LONG_A}.md": f"# {LONG_A}\n\nSome versions drop the tags and aliases from the properties panel "
                             "until the note is opened again.\n",
    f"Support/{LONG_B}.md": f"# {LONG_B}\n\nBacklinks take a custom status colour once the snippet is on in "
                             "Reading mode.\n",
}


@pytest.fixture(scope="module")
def long_titles_site(tmp_path_factory):
    """A vault whose one record joins two notes with 68- and 77-character titles, as a real vault's do."""
    from conftest import write_vault

    tmp = tmp_path_factory.mktemp("long")
    vault = write_vault(walked_copy(tmp, walks=1), LONG_NOTES)
    (vault / "walks" / "active" / "hyp-2026-11-30-009.md").write_text(
        "---\nid: hyp-2026-11-30-009\n"
        f"title: \"{LONG_A} ↔ {LONG_B}\"\n"
        f"claim: \"{LONG_A} and {LONG_B} describe one mechanism, “properties” and “reading mode”, in two "
        "fields: “Some versions drop the tags and aliases from the properties panel until the note is opened "
        "again.” and “Backlinks take a custom status colour once the snippet is on in Reading mode.”\"\n"
        "status: active\nkind: analogy\n"
        f"supporting_refs: [\"Support/{LONG_A}.md\", \"Support/{LONG_B}.md\"]\n"
        "confidence: high\nimpact: add\ncreated: 2026-11-30\n---\n# x\n", encoding="utf-8")
    build_site(vault, tmp / "site")
    return tmp / "site"


def _decidable(site: Path) -> list[Path]:
    pages = [p for p in sorted((site / "hypotheses").glob("hyp-*.html")) if "walker-decision" in p.read_text()]
    assert pages
    return pages


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_decision_bar_is_in_the_first_viewport(site, long_titles_site, browser, width, height, scheme,
                                                  tmp_path_factory):
    """Arriving on a hypothesis, a reviewer sees Confirm, Reject and Mute with their commands, and the way
    on through the queue, without scrolling; the heading stays within three lines, even of a phone."""
    out = Path(tmp_path_factory.getbasetemp()) / "screenshots"
    out.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = context.new_page()
    for path in [*_decidable(site), *_decidable(long_titles_site)]:
        page.goto(path.as_uri())
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        bar = page.locator("article .walker-decision")
        box = bar.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (path.name, box)
        assert bar.locator("p.walker-choice").all_inner_texts() in (["Confirm", "Reject", "Mute"],
                                                                   ["Confirm", "Reject", "Unmute"])
        assert bar.locator("button[data-md-type='copy']").count() == 3
        assert bar.locator("p.walker-queue-on a").count() == 1
        heading = page.locator("article h1")
        lines = heading.bounding_box()["height"] / float(heading.evaluate("h => parseFloat(getComputedStyle(h).lineHeight)"))
        assert lines <= 3.2, (path.name, lines)
        long = path == long_titles_site / "hypotheses" / "hyp-2026-11-30-009.html"
        if long:  # named by two short labels, each note in full in its evidence
            assert LONG_A not in heading.inner_text() and heading.inner_text().count("…") == 2
            assert page.locator("article a", has_text=LONG_A).count() == 1
        page.screenshot(path=str(out / f"{'long-title' if long else path.stem}-{scheme}-{width}.png"))
    context.close()


def test_next_in_queue_walks_the_queue_in_its_order(site, page):
    """From the first record of the queue, "Next in queue" visits every record that waits for a decision,
    in the order the queue lists them, and the last one leads back to the queue."""
    page.goto((site / "review.html").as_uri())
    rows = page.locator("article a.walker-queue-title")
    order = [href.rsplit("/", 1)[-1] for href in (rows.nth(n).get_attribute("href") for n in range(rows.count()))]
    assert len(order) >= 2
    assert all(rows.nth(n).get_attribute("title") for n in range(rows.count()))  # the full title, on hover
    rows.first.click()
    visited = []
    while True:
        page.wait_for_load_state()
        visited.append(page.url.rsplit("/", 1)[-1])
        on = page.locator("article .walker-decision p.walker-queue-on")
        assert on.inner_text().startswith(f"{len(visited)} of {len(order)}")
        following = on.locator("a", has_text="Next in queue")
        if not following.count():
            break
        assert following.get_attribute("title")  # the next one's title, on hover
        following.click()
    assert visited == order
    on.locator("a", has_text="Back to the queue").click()
    page.wait_for_load_state()
    assert page.url.endswith("/review.html")


def test_the_queue_is_one_line_a_record(long_titles_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((long_titles_site / "review.html").as_uri())
    rows = page.locator("article ol > li")
    assert rows.count() >= 2
    for n in range(rows.count()):
        row = rows.nth(n)
        line = float(row.evaluate("r => parseFloat(getComputedStyle(r).lineHeight)"))
        assert row.bounding_box()["height"] < 1.9 * line, row.inner_text()
    long = page.locator("article a.walker-queue-title[href$='hyp-2026-11-30-009.html']")
    assert long.get_attribute("title") == f"{LONG_A} ↔ {LONG_B}"
    assert long.evaluate("a => getComputedStyle(a).textOverflow") == "ellipsis"
    context.close()


def test_a_copied_reject_command_run_unedited_is_refused(site, browser):
    """What the bar's copy button puts on the clipboard, run as it is, changes nothing: the example text is
    refused (walker.pool.lifecycle.PLACEHOLDERS)."""
    import shlex

    from click.testing import CliRunner

    from walker.cli import main

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    path = _decidable(site)[0]
    page.goto(path.as_uri())
    row = page.locator("article .walker-decision .highlight").nth(1)  # Confirm, Reject, Mute
    button = row.locator("button[data-md-type='copy']")
    assert button.get_attribute("aria-label") == "Copy the walker reject command"
    # The copy button copies its code block's text (clipboard.js): read what it names, as it would copy it.
    copied = page.evaluate("b => document.querySelector(b.dataset.clipboardTarget).textContent", button.element_handle())
    context.close()
    args = shlex.split(copied)
    assert args[:2] == ["walker", "reject"] and "--evidence" in args
    record = site.parent / "vault" / "walks" / "active" / f"{path.stem}.md"
    before = record.read_bytes()
    result = CliRunner().invoke(main, args[1:])
    assert result.exit_code != 0 and "example text" in result.output, result.output
    assert record.read_bytes() == before


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    """sample-vault as `walker run` leaves it (a copy), and its site."""
    from click.testing import CliRunner
    from conftest import copy_vault_files

    from walker.cli import main

    tmp = tmp_path_factory.mktemp("sample")
    vault = copy_vault_files(SAMPLE_VAULT, tmp / "sample-vault")
    result = CliRunner().invoke(main, ["run", str(vault), "--now", "2026-11-30T07:00"])
    assert result.exit_code == 0, result.output
    build_site(vault, tmp / "site")
    return tmp / "site"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page_of_the_sample_site(sample_site, browser, scheme):
    """Every page of the sample vault's site, through axe-core at 1280x900: no critical or serious finding."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    axe = Axe()
    pages = sorted(sample_site.rglob("*.html"))
    assert len(pages) > 30 and any(p.parent.name == "hypotheses" for p in pages)
    serious = []
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_load_state()
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        found = axe.run(page, options={"preload": False}).response["violations"]
        serious += [f"{path.relative_to(sample_site)}: {v['id']} ({v['impact']}) {v['nodes'][0]['html'][:120]}"
                    for v in found if v["impact"] in ("serious", "critical")]
    context.close()
    assert serious == []
