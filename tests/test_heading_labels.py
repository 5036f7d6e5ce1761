"""A ref to a heading that holds links or markup: the label is the heading's plain text, never a nested link
(issue 32, "Headings with links break reports"). The link target stays the one Obsidian opens."""

from __future__ import annotations

import re

import pytest
from conftest import write_vault

NOTES = {
    "Geography/North America.md": "# North America\n\n## Step 5 - Breakup of [[Supercontinent|Pangea]]\n\n"
                                  "The plates drifted apart over millions of years.\n",
    "插件/Markdown 格式转换器.md": "#  属性 [[属性]]\n\n转换器读取每个属性。\n",
    "属性.md": "Properties.\n",
    "Supercontinent.md": "One landmass.\n",
}
CASES = [
    ("Geography/North America.md#Step 5 - Breakup of [[Supercontinent|Pangea]]",
     "North America › Step 5 - Breakup of Pangea"),
    ("插件/Markdown 格式转换器.md#属性 [[属性]]", "Markdown 格式转换器 › 属性 属性"),
]


def one_link(markdown: str) -> tuple[str, str]:
    """The target and alias of the only wikilink in ``markdown``, which must hold exactly one."""
    assert markdown.count("[[") == 1 and markdown.count("]]") == 1, markdown
    target, alias = re.search(r"\[\[([^\[\]]*)]]", markdown).group(1).split("|")
    return target, alias


@pytest.mark.parametrize(("ref", "label"), CASES)
def test_a_report_or_record_link_to_a_heading_with_links_has_a_plain_alias(ref, label):
    from walker.pool.records import render_body
    from walker.refs import ref_link

    target, alias = one_link(ref_link(ref))
    assert alias == label
    assert target.startswith(ref.split(".md#")[0] + "#")
    evidence = [line for line in render_body({"title": "T", "claim": "C", "supporting_refs": [ref]}).splitlines()
                if line.startswith("- ")]
    assert [one_link(line)[1] for line in evidence] == [label]


def test_the_heading_target_still_opens_the_heading(tmp_path):
    from walker.corpus import find_subpath, load_corpus
    from walker.refs import ref_link

    corpus = load_corpus(write_vault(tmp_path / "vault", NOTES))
    for ref, _ in CASES:
        target, _alias = one_link(ref_link(ref))
        note = corpus.notes[target.split("#")[0] + ".md"]
        assert find_subpath(note, "#" + target.split("#", 1)[1]) is not None, target


@pytest.mark.parametrize(("ref", "label"), CASES)
def test_the_site_shows_the_heading_link_as_its_plain_text(tmp_path, ref, label):
    from walker.corpus import load_corpus
    from walker.site.links import SiteLinks
    from walker.site.recordpage import _evidence

    corpus = load_corpus(write_vault(tmp_path / "vault", NOTES))
    links = SiteLinks(corpus, "vault", {p: f"notes/{p}" for p in corpus.notes}, {})
    shown = _evidence(ref, "hypotheses/h.md", corpus, links, "", [], {})[0]
    assert "[[" not in shown and "]]" not in shown, shown
    match = re.fullmatch(r"- \[([^\]]*)]\(([^)]*)\)", shown)
    assert match, shown
    assert match.group(1) == label
    # The link lands on the heading; one with no ASCII word has only a place-given id on its page: the page opens.
    assert ("#" in match.group(2)) == bool(re.search(r"[A-Za-z0-9]", label.split("›")[-1]))


def test_a_note_link_to_such_a_heading_reads_as_its_plain_text(tmp_path):
    from walker.corpus import load_corpus
    from walker.site.links import SiteLinks

    corpus = load_corpus(write_vault(tmp_path / "vault", NOTES))
    links = SiteLinks(corpus, "vault", {p: f"notes/{p}" for p in corpus.notes}, {})
    shown = links.convert("See [[Markdown 格式转换器#  属性  ]].", "Supercontinent.md", "notes/Supercontinent.md")
    assert shown.startswith("See [Markdown 格式转换器 › 属性](")


HEADINGS = ["Pure Intersection Types [RFC](https://wiki.php.net/rfc/pure-intersection-types)",
            "Step 5 - Breakup of [[Supercontinent|Pangea]]", "A _very_ big `code` <b>x</b>", "属性", "缓存 雪崩",
            "Café & co", "Dry brine ^dry"]


def test_a_link_to_a_heading_uses_the_id_the_sites_page_gives_it():
    """A report on a real vault linked "#pure-intersection-types-rfchttpswikiphpnetrfc…" to a heading the page calls
    "#pure-intersection-types-rfc", and strict mode stopped the build. A heading with no ASCII word gets an id by its
    place on the page ("_1"), which a link made from its text cannot know: that link opens the page."""
    from markdown import Markdown

    from walker.site.build import EXTENSIONS
    from walker.site.links import heading_anchor, plain_heading
    from walker.site.obsidian import as_obsidian_shows

    names = [e if isinstance(e, str) else next(iter(e)) for e in EXTENSIONS]
    configs = {name: dict(e[name]) for e in EXTENSIONS if isinstance(e, dict) for name in e}
    # The note's page: the note as Obsidian shows it (its HTML reduced to text), then the site's Markdown.
    page = Markdown(extensions=names, extension_configs=configs).convert(as_obsidian_shows(
        "\n\n".join(f"## {plain_heading(text)}\n\nText." for text in HEADINGS)))
    ids = [re.sub(r"^_\d+$", "", found) for found in re.findall(r'<h2 id="([^"]*)"', page)]
    assert ids == [heading_anchor(text) for text in HEADINGS]
    assert ids[0] == "pure-intersection-types-rfc" and ids[3] == ""
