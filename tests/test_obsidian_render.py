"""Cited notes on the site look as Obsidian shows them, and what a note breaks never fails the build."""

import re

import pytest
from conftest import SAMPLE_VAULT, copy_vault_files, write_vault
from test_site import NOW

from walker.site.build import build_site
from walker.site.obsidian import as_obsidian_shows, regions
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace


@pytest.mark.parametrize("written, shown", [
    ("Seen. %% hidden %% Also seen.", "Seen.  Also seen."),
    ("%% a whole line %%\nSeen.", "Seen."),
    ("Before\n%%\nhidden [[Quorum]]\n%%\nAfter", "Before\nAfter"),
    ("```\n%% code keeps it %%\n```", "```\n%% code keeps it %%\n```"),
    ("Check these:\n- one\n- two", "Check these:\n\n- one\n- two"),  # a list right after a paragraph line
    ("- one\n- two", "- one\n- two"),
    ("# Title\n\ntext\n\n# Again", "# Title\n\ntext\n\n## Again"),
    ('<span class="git-footer">Edited</span>', "Edited"),
    ("![chart](https://example.com/c.png)", "[Picture (online): chart](https://example.com/c.png)"),
    ("para\n\n    [x](www.example.com/y) <b>kept</b> %% kept %%", "para\n\n    [x](www.example.com/y) <b>kept</b> %% kept %%"),
    ("- item\n    - nested <i>x</i>", "- item\n    - nested x"),  # four spaces under a list item: not code
    # %% in a code span is text: a table row saying so once hid the rest of a note, headings and all
    ("| Tag-like text in `%%` comments | Ignored |\n\n## Related\n\nkept", "| Tag-like text in `%%` comments | Ignored |\n\n## Related\n\nkept"),
    ("``a %% b`` then %% hidden %% seen", "``a %% b`` then  seen"),
])
def test_note_text_as_obsidian_shows_it(written, shown):
    assert as_obsidian_shows(written) == shown


def test_callouts_become_admonitions():
    shown = as_obsidian_shows("> [!tip] Worth knowing\n> body **bold**\n>\n> more\n\nafter")
    assert '!!! tip "Worth knowing"\n    body **bold**\n\n    more' in shown and shown.endswith("after")
    assert as_obsidian_shows("> [!FAQ]- Folded\n> x").strip().startswith('??? question "Folded"')
    assert as_obsidian_shows("> [!unknownkind]\n> x").strip().startswith('!!! note "Unknownkind"')
    assert as_obsidian_shows("> a plain quote") == "> a plain quote"


def test_indented_code_is_told_from_a_nested_list():
    lines = list(regions("text\n\n    code\n\n- item\n    nested\n\n        deeper code?"))
    assert [code for _, code in lines] == [False, False, True, False, False, False, False, False]
    # A callout's list, shown as an admonition, holds links to convert, not code.
    admonition = as_obsidian_shows("> [!info] Navigation\n> ### Basics\n>\n> - [[About]]\n>   - [[Nested]]")
    assert [code for _, code in regions(admonition)] == [False] * len(admonition.split("\n"))


BROKEN = {
    "Systems/Salt & Pepper Notes.md": (
        "---\ntags: [systems]\n---\n# Salt & Pepper Notes\n\n"
        "%% a hidden comment %%\nRetries need an idempotency key, or the retry does the work twice.\n\n"
        "Things to check before a retry:\n- the request is idempotent\n- the server is not overloaded\n\n"
        "# A second title\n\n> [!note] Worth knowing\n> A callout body.\n\n"
        '<span class="git-footer">Edited by someone</span>\n\n'
        "![a remote picture](https://example.com/picture.png)\n\n"
        "    [More information](www.mytheme.com/dnd_callouts)\n\n"
        "See [the old page][old] and [[Retries and Backoff]].\n\n[old]: Old%20Page.md\n"
    ),
}


def test_a_broken_note_renders_and_its_bad_link_is_a_warning_naming_it(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    write_vault(vault, BROKEN)
    run_walk(Workspace.open(vault),
             WalkOptions(now=NOW, random_seed=0, seed_note="Salt & Pepper Notes"))
    built = build_site(vault, tmp_path / "site")
    assert any("Systems/Salt & Pepper Notes.md" in w and "Old%20Page.md" in w for w in built.warnings), built.warnings
    html = (tmp_path / "site" / "notes" / "Systems" / "Salt & Pepper Notes.html").read_text()
    body = html[html.index("<article"):html.index("</article>")]
    assert "%%" not in body and "hidden comment" not in body
    assert body.count("<h1") == 1 and re.search(r"<h2[^>]*>A second title", body)
    assert 'class="admonition note"' in body and "[!note]" not in body
    assert re.search(r"<ul>\s*<li>the request is idempotent</li>", body)
    assert "git-footer" not in body and "Edited by someone" in body
    assert not re.search(r"<img[^>]+https://", body) and "Picture (online): a remote picture" in body
    assert "[More information](www.mytheme.com/dnd_callouts)" in body  # code stays as written
    assert "&amp;amp;" not in body and "Salt &amp; Pepper Notes.md" in body


def test_a_build_on_two_cores_is_the_build_on_one(tmp_path, monkeypatch):
    """The last pages rendered in a forked process: the same pages, byte for byte, and the same warnings."""
    import os

    from mkdocs.structure.pages import Page

    from walker.site import parallel

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    write_vault(vault, BROKEN)
    run_walk(Workspace.open(vault), WalkOptions(now=NOW, random_seed=0, seed_note="Salt & Pepper Notes"))
    one = build_site(vault, tmp_path / "one")
    forks = []
    fork = os.fork
    monkeypatch.setattr(parallel, "PARALLEL_PAGES", 1)
    monkeypatch.setattr(parallel, "forkable", lambda: True)  # the test runner's threads and numpy are not the build's
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or fork())
    here, render = [], Page.render
    monkeypatch.setattr(Page, "render", lambda page, *args: here.append(page.file.src_uri) or render(page, *args))
    two = build_site(vault, tmp_path / "two")
    pages = len(list((tmp_path / "one").rglob("*.html")))
    assert forks == [1] and 0 < len(here) < pages - 5  # this process rendered only its share
    assert two.warnings == one.warnings and one.warnings
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    for name in files:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


def test_only_a_cited_notes_own_page_is_forgiven():
    from walker.site.build import NOTE_PAGE

    assert NOTE_PAGE.search("Doc file 'notes/A.md' contains a link 'b.png', but the target 'notes/b.png' is not found")
    assert not NOTE_PAGE.search("Doc file 'reports/x.md' contains a link '../notes/y.md', but the target 'notes/y.md' "
                                "is not found among documentation files.")


def test_nested_callouts_and_callouts_in_quotes_and_lists_become_admonitions():
    shown = as_obsidian_shows("> [!example] Outer\n> text\n>\n> > [!info]\n> > inner")
    assert [line for line in shown.split("\n") if line.strip()] == [
        '!!! example "Outer"', "    text", '    !!! info "Info"', "        inner"]
    quoted = as_obsidian_shows("> quote\n> > [!tip] T\n> > body")
    assert '> !!! tip "T"\n>     body' in quoted
    listed = as_obsidian_shows("1. item\n    > [!warning]\n    > careful")
    assert '    !!! warning "Warning"\n        careful' in listed
    assert "[!note] in code" in as_obsidian_shows("> [!info] I\n> ```\n> > [!note] in code\n> ```")


@pytest.mark.parametrize("written, shown", [
    ("Heat $Q = mc$ here", "Heat `Q = mc` here"),
    ("Costs $5 or $6", "Costs $5 or $6"),  # money: a "$" closing after a space is no math
    ("From $5-$10", "From $5-$10"),  # nor one followed by a digit
    ("See $$E$$ inline", "See `E` inline"),
    ("$$\nx_1\n$$", "\n```latex\nx_1\n```\n"),
    ("$$ never closed\nmore", "$$ never closed\nmore"),
    ("A `$x$` code span", "A `$x$` code span"),
    ("Tick $a`b$", "Tick ``a`b``"),
])
def test_math_is_shown_as_tex_in_code(written, shown):
    assert as_obsidian_shows(written) == shown


@pytest.mark.parametrize("written, shown", [
    ("#tag starts a line", "\\#tag starts a line"),  # Python-Markdown would read it as a heading
    ("- #pull item", "- \\#pull item"),
    ("> #quoted", "> \\#quoted"),
    ("#1984 neither", "\\#1984 neither"),
    ("# A heading", "# A heading"),
    ("text #tag and a#b", "text #tag and a#b"),
])
def test_a_tag_never_turns_into_a_heading(written, shown):
    assert as_obsidian_shows(written) == shown


def test_tags_become_the_link_given():
    shown = as_obsidian_shows("#a and **#b** and a#c and #12 and `#d`\n## Head #e",
                              tag_link=lambda tag: f"<{tag}>")
    assert shown == "<#a> and **<#b>** and a#c and #12 and `#d`\n\n## Head #e"  # a heading's tags stay its text


def test_footnotes_become_numbered_links_and_a_list():
    shown = as_obsidian_shows("One[^b] two^[inline] three[^a] again[^b] none[^x].\n\n"
                              "[^a]: Note A\n    more A\n[^b]: Note B\n[^c]: unused")
    text, _, notes = shown.partition("\n---\n")
    assert text.startswith('One[¹](#fn-1 "Footnote 1"){: #fn-ref-1 } two[²](#fn-2 "Footnote 2"){: #fn-ref-2 } '
                           'three[³](#fn-3 "Footnote 3"){: #fn-ref-3 } again[¹](#fn-1 "Footnote 1") none[^x].')
    assert notes.strip().split("\n") == [
        '1. Note B [↩](#fn-ref-1 "Back to the text")', "    {: #fn-1 }",
        '2. inline [↩](#fn-ref-2 "Back to the text")', "    {: #fn-2 }",
        '3. Note A', '    more A [↩](#fn-ref-3 "Back to the text")', "    {: #fn-3 }"]
    assert "unused" not in shown
    assert as_obsidian_shows("x[^a]\n\n[^a]: y", footnote_ids="fn-e2").startswith('x[¹](#fn-e2-1 "Footnote 1")')


@pytest.mark.parametrize("written, shown", [
    ("`done`<br>`not done`", "`done` `not done`"),  # stripped to nothing, the two spans would read as one
    ("Write `<span>` in code", "Write `<span>` in code"),
    ("- item\n## Heading", "- item\n\n## Heading"),  # a heading ends a list in Obsidian
    ("- item\n> quote", "- item\n\n> quote"),
])
def test_html_and_block_starts(written, shown):
    assert as_obsidian_shows(written) == shown


def test_code_in_a_quote_or_a_list_item_is_code():
    text = "> ```\n> #tag $x$\n> ```\nafter\n\n1. item\n\n    ```sh\n    # $HOME #x\n    ```\n2. next"
    assert [code for _, code in regions(text)] == [True, True, True, False, False, False, False, True, True, True,
                                                  False]
    assert as_obsidian_shows(text, tag_link=lambda tag: "TAG").count("TAG") == 0


def test_a_heading_with_an_html_anchor_is_linked_by_its_shown_text():
    from walker.site.links import heading_anchor

    assert heading_anchor('PHP Best Practices <a name="php-best-practices"></a>') == "php-best-practices"
    assert heading_anchor("Steam %% note %% time") == "steam-time"
    assert heading_anchor("Heat $Q$ stored[^1]") == "heat-q-stored"


# Text made of the marks the rewrite reads, drawn at random (seeded): each shortcut must give what the test it
# skips gives.
MARKS = ["[[a]]", "[[b#h|al]]", "![[e]]", "$x$", "$$", "$ y $", "\\$2", "`", "``", "```", "~~~", "#tag", "#", "# ",
         "> ", "[!note] ", "[^1]", "[^1]: ", "^[in [[l]] x]", "http://x.y/#a", "<b>", "<br>", "<!--", "-->", "%%",
         "    ", "\t", "- ", "1. ", "!!! note", "??? x", "![a](http://p.png)", "[l](u)", "**", "_", " ", "word", ":",
         "^", "!", "[", "]", "a#b", "*#t*", "\n", "\n", "\n\n", "\n    ", "\n> ", "\n- ", "\n```\n", " ^id", "中文"]


def drawn_texts(count: int = 400, seed: int = 5) -> list[str]:
    import random

    draw = random.Random(seed)
    return ["".join(draw.choice(MARKS) for _ in range(draw.randint(1, 40))) for _ in range(count)]


def test_the_rewrites_shortcuts_give_what_the_tests_they_skip_give():
    from walker.corpus.parse import TAG_RE
    from walker.site.obsidian import _INLINE, _NO_URL, _TAG, _from_starts, _inline_matches, _regions

    tag_before = re.compile(r"(?:(?<=^)|(?<=[\s*_=~]))" + TAG_RE.pattern)  # _TAG as first written
    for text in drawn_texts():
        # regions makes only the tests whose mark the text holds
        assert list(regions(text)) == list(_regions(text.split("\n"), True, True, True)), text
        for line in [*text.split("\n"), "[[" * 50 + "x", "![[" * 30 + "[x](" * 10]:
            found = [m.span() for m in _INLINE.finditer(line)]
            assert [m.span() for m in _inline_matches(line)] == found, line
            if "://" not in line:  # a match of _INLINE but a URL starts with one of _INLINE_STARTS
                assert [m.span() for m in _from_starts(line)] == [m.span() for m in _NO_URL.finditer(line)] == found
            assert [m.span() for m in _TAG.finditer(line)] == [m.span() for m in tag_before.finditer(line)], line


def test_a_text_without_a_rewrites_mark_is_kept_as_it_is():
    from walker.site.links import _outside_code

    def marked(text: str) -> str:
        return text.replace("[", "{")

    for text in drawn_texts():
        assert _outside_code(text, marked, "[") == _outside_code(text, marked), text
