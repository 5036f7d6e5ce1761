"""HTML comments on a note page are hidden as Obsidian hides them: whole, across lines, never inside code."""

import re
import time

import pytest
from conftest import SAMPLE_VAULT, copy_vault_files, write_vault
from test_site import NOW

from walker.site.build import build_site
from walker.site.obsidian import as_obsidian_shows
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace

NOTE = (
    "# Comment Notes\n\n"
    "Retries need an idempotency key <!-- ask ops first --> or the retry does the work twice.\n\n"
    "Shown before.\n"
    "<!-- A commented-out part of the template\n"
    "## Hidden\n\n"
    "A hidden sentence with a block id ^github\n"
    "[[Retries and Backoff]] ^discord-->\n"
    "Shown after.\n\n"
    "Write `<!-- kept in code -->` to comment a line out.\n\n"
    "```html\n<!-- kept in a fence -->\n```\n\n"
    "<!--\n```\ncommented-out code\n```\n-->\n"
    "## Last\n\n"
    "The last visible line.\n\n"
    "<!-- never closed\n\n## Gone too\n\nhidden to the end of the note\n"
)


def test_html_comments_are_hidden_on_the_note_page(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    write_vault(vault, {"Systems/Comment Notes.md": NOTE})
    run_walk(Workspace.open(vault), WalkOptions(now=NOW, random_seed=0, seed_note="Comment Notes"))
    build_site(vault, tmp_path / "site")
    html = (tmp_path / "site" / "notes" / "Systems" / "Comment Notes.html").read_text()
    body = html[html.index("<article"):html.index("</article>")]
    text = re.sub(r"<[^>]+>", "", body)
    assert "idempotency key  or the retry" in text or "idempotency key or the retry" in text
    assert "&lt;!-- kept in code --&gt;" in body and "&lt;!-- kept in a fence --&gt;" in body
    shown = text.replace("&lt;!-- kept in code --&gt;", "").replace("&lt;!-- kept in a fence --&gt;", "")
    assert "ask ops" not in shown and "&lt;!--" not in shown and "--&gt;" not in shown
    assert "Shown before." in text and "Shown after." in text
    for hidden in ("Hidden", "hidden sentence", "github", "discord", "commented-out code",
                   "Gone too", "hidden to the end", "never closed"):
        assert hidden not in text, hidden
    assert not re.search(r"<h2[^>]*>\s*Hidden", body) and "#hidden" not in html  # nor in the table of contents
    assert re.search(r"<h2[^>]*>\s*Last", body) and "The last visible line." in text


@pytest.mark.parametrize("written, shown", [
    ("a <!-- b --> c", "a  c"),
    ("<!-- whole line -->\nSeen.", "Seen."),
    ("a <!-- b\nc\nd --> e", "a\n e"),
    ("`<!--` stays <!-- goes --> here", "`<!--` stays  here"),
    ("<!-- %% not a percent comment --> seen %% hidden %%", " seen"),
    ("%% <!-- not an HTML comment %% seen", " seen"),
    ("<!-->empty comment", "empty comment"),
])
def test_html_comments_in_the_text(written, shown):
    assert as_obsidian_shows(written) == shown


def test_many_comment_lines_stay_fast():
    started = time.perf_counter()
    as_obsidian_shows("text <!-- a --> more <!-- b\n" * 50_000 + "--> end `<!--` x\n" * 50_000)
    assert time.perf_counter() - started < 10
