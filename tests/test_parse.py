"""reference/obsidian-syntax.md §13: parsing (P), tags (T), headings (H) and blocks (B)."""

import pytest

from walker.corpus.parse import BinaryFileError, decode, parse_note
from walker.corpus.resolve import find_subpath


def links(text):
    return [(l.kind, l.target, l.display) for l in parse_note("src.md", text).links]


def targets(text):
    return [l.target for l in parse_note("src.md", text).links]


def tags(text):
    return list(parse_note("src.md", text).tags)


@pytest.mark.parametrize(
    "case, text, expected",
    [
        ("P1", "[[Note]]", [("link", "Note", None)]),
        ("P2", "[[Note|Alias]]", [("link", "Note", "Alias")]),
        ("P3", "[[ Note | Alias ]]", [("link", "Note", "Alias")]),
        ("P4", "[[Note#H1#H2]]", [("link", "Note#H1#H2", None)]),
        ("P5", "[[#Local]]", [("link", "#Local", None)]),
        ("P6", "[[Note#^abc-1]]", [("link", "Note#^abc-1", None)]),
        ("P7", "[[a|b|c]]", [("link", "a", "b|c")]),
        ("P8", "[[Note|]]", [("link", "Note", "")]),
        ("P9", "[[Note\\|x]]", [("link", "Note", "x")]),
        ("P11", "[[a]b]]", [("link", "a]b", None)]),
        ("P12", "[[a [[b]] c]]", [("link", "b", None)]),
        ("P13", "[[x", []),
        ("P14", "[[a\nb]]", []),
        ("P15", "`[[x]]`", []),
        ("P17", "[[The Never `!` Type]]", [("link", "The Never `!` Type", None)]),
        ("P18 inline", "$[[x]]$", []),
        ("P18 block", "$$\n[[x]]\n$$", []),
        ("P19", "<div>\n[[x]]\n</div>", []),
        ("P20", "<!-- [[x]] -->", []),
        ("P20 inline", "text <!-- [[x]] --> more", []),
        ("P21", "%%[[x]]%%", [("link", "x", None)]),
        ("P22", "![[img.png|300]]", [("embed", "img.png", "300")]),
        ("P23", "![[img.png|alt|100x50]]", [("embed", "img.png", "alt|100x50")]),
        ("P24", "[t](My%20Note.md#Sec%20One)", [("markdown", "My Note.md#Sec One", None)]),
        ("P25", "[t](<My Note.md>)", [("markdown", "My Note.md", None)]),
        ("P26", "[t](My Note.md)", []),
        ("P27", "[t](https://x.y/#a)", []),
    ],
)
def test_body_links(case, text, expected):
    assert links(text) == expected


def test_p4_subpath_keeps_its_hash():
    (link,) = parse_note("src.md", "[[Note#H1#H2]]").links
    assert (link.linkpath, link.subpath) == ("Note", "#H1#H2")


def test_p5_empty_linkpath_is_self():
    (link,) = parse_note("src.md", "[[#Local]]").links
    assert (link.linkpath, link.subpath) == ("", "#Local")


def test_p10_escaped_pipe_in_table_keeps_one_cell():
    text = "| a | b |\n|---|---|\n| [[Note\\|x]] | y |\n"
    assert links(text) == [("link", "Note", "x")]


def test_p16_fenced_and_indented_code_give_nothing():
    text = "```\n[[x]] #tag\n```\n\n    [[y]] #other\n\n~~~bash\nif [[ $# -gt 0 ]]; then\n~~~\n"
    note = parse_note("src.md", text)
    assert note.links == () and note.tags == ()


def test_p21_comments_can_be_left_out():
    note = parse_note("src.md", "%%[[x]] #t%%\n\nkept [[y]]", index_comments=False)
    assert [l.target for l in note.links] == ["y"] and note.tags == ()


def test_markdown_image_is_an_embed_and_reserved_escapes_stay():
    assert links("![pic](img%20one.png) [q](a%23b.md)") == [("embed", "img one.png", None), ("markdown", "a%23b.md", None)]


def test_malformed_percent_escape_is_external():
    assert links("[t](bad%zz.md)") == []


def test_reference_style_link_to_a_note():
    assert targets("see [the note][n]\n\n[n]: Some%20Note.md\n") == ["Some Note.md"]


def test_links_in_callouts_footnotes_and_lists():
    text = "> [!note]\n> see [[A]]\n\n- [[B]]\n\nText[^1]\n\n[^1]: from [[C]]\n"
    assert targets(text) == ["A", "B", "C"]


def test_escaped_brackets_are_not_links():
    assert links("\\[[x]]") == []


def test_link_lines_are_file_lines():
    text = "---\ntags: [a]\n---\n# H\n\npara\nmore [[A]]\n\n> quote\n> [[B]]\n"
    note = parse_note("src.md", text)
    assert [(l.target, l.line) for l in note.links] == [("A", 7), ("B", 10)]


@pytest.mark.parametrize(
    "case, yaml, expected",
    [
        ("P28", 'related: "[[A|a]]"', [("related", "A", "a")]),
        ("P29", "related: [[A]]", []),
        ("P30", 'x: {y: ["[[A]]"]}', [("x.y.0", "A", None)]),
        ("P31", 'note: "see [[A]]"', []),
        ("list", 'up:\n  - "[[A]]"\n  - "[[B#h]]"', [("up.0", "A", None), ("up.1", "B#h", None)]),
    ],
)
def test_frontmatter_links(case, yaml, expected):
    note = parse_note("src.md", f"---\n{yaml}\n---\nbody\n")
    assert [(l.key, l.target, l.display) for l in note.links if l.kind == "frontmatter"] == expected


def test_frontmatter_link_line():
    note = parse_note("src.md", '---\ntitle: x\nrelated: "[[A]]"\n---\n')
    assert note.links[0].line == 3


@pytest.mark.parametrize(
    "case, text, expected",
    [
        ("T1", "#tag #a/b #kebab-case #snake_case #спам #🙂emoji", ["tag", "a/b", "kebab-case", "snake_case", "спам", "🙂emoji"]),
        ("T2", "#1984 #y1984", ["y1984"]),
        ("T3", "#123a #123- #- #_", ["123a", "123-", "-", "_"]),
        ("T4", "foo#bar (#x) /#y \\#z", []),
        ("T5", "**#bold** [[a]]#b", ["bold", "b"]),
        ("T6", "#v1.2 #a,b", ["v1", "a"]),
        ("T7", "# Heading\n\n#tag at start", ["tag"]),
        ("T12", "#Tag and #TAG", ["Tag"]),
        ("url", "see https://x.y/#frag and [l](https://x.y/#a)", []),
        ("code", "`#incode` $#inmath$", []),
        ("heading", "## about #topic", ["topic"]),
    ],
)
def test_inline_tags(case, text, expected):
    assert tags(text) == expected


@pytest.mark.parametrize(
    "case, yaml, expected",
    [
        ("T8", 'tags: [a, "#b", c d, 2024]', ["a", "b"]),
        ("T9", "tags: a, b", []),
        ("T10", "tag: x", []),
        ("T11", "Tags: [x]", ["x"]),
        ("string", "tags: solo", ["solo"]),
        ("yaml 1.2 words", "tags: [yes, no, on]", ["yes", "no", "on"]),
    ],
)
def test_frontmatter_tags(case, yaml, expected):
    assert tags(f"---\n{yaml}\n---\n") == expected


def test_frontmatter_tags_come_first_and_merge_case_insensitively():
    assert tags("---\ntags: [Garden]\n---\n#garden #soil\n") == ["Garden", "soil"]


def test_aliases_1_9_rules():
    assert parse_note("n.md", "---\naliases: AI\n---\n").aliases == ("AI",)
    assert parse_note("n.md", "---\nAliases: [AI, 3, Art]\n---\n").aliases == ("AI", "Art")
    assert parse_note("n.md", "---\nalias: AI\n---\n").aliases == ()


def test_broken_yaml_warns_and_indexes_the_body():
    note = parse_note("n.md", "---\ntags: [a\ntitle: : :\n---\nbody [[Kept]] #kept\n")
    assert [l.target for l in note.links] == ["Kept"] and note.tags == ("kept",)
    assert len(note.warnings) == 1 and "broken YAML" in note.warnings[0]


def test_dates_stay_text_and_survive_json():
    note = parse_note("n.md", "---\ncreated: 2024-03-01\nwhen: 2024-03-01T10:00:00\n---\n")
    assert note.frontmatter == {"created": "2024-03-01", "when": "2024-03-01T10:00:00"}


HEADINGS = "# A\ntext\n## B\n### C\n## Hello World\n> [!note]\n> ## Hidden\n"


@pytest.mark.parametrize(
    "case, subpath, found",
    [
        ("H1", "#hello, world!", "Hello World"),
        ("H2", "#A#C", "C"),
        ("H2 direct", "#C", "C"),
        ("H2 shallower", "#B#A", None),
        ("H3", "#Hidden", None),
        ("double hash", "#A##B", "B"),
    ],
)
def test_heading_subpaths(case, subpath, found):
    note = parse_note("N.md", HEADINGS)
    result = find_subpath(note, subpath)
    assert (result.text if result else None) == found


def test_heading_line_ranges_end_before_a_heading_of_the_same_level():
    note = parse_note("N.md", HEADINGS)
    assert [(h.text, h.line, h.end_line) for h in note.headings] == [
        ("A", 1, 7), ("B", 3, 4), ("C", 4, 4), ("Hello World", 5, 7)
    ]


@pytest.mark.parametrize(
    "case, text, expected",
    [
        ("B1", "para text ^my-id\n", [("my-id", 1, 1)]),
        ("B2", "para ^my_id\n", []),
        ("B3", "intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n^tbl\n\nafter\n", [("tbl", 3, 5)]),
        ("B4", "- one\n- item ^li\n", [("li", 2, 2)]),
        ("B5", "text ^id\nmore text\n", []),
        ("B6 case", "para ^MY-ID\n", [("my-id", 1, 1)]),
        ("in code", "```\nx ^code\n```\n", []),
        ("quote", "> quoted\n> lines\n\n^q\n", [("q", 1, 2)]),
    ],
)
def test_block_ids(case, text, expected):
    assert [(b.id, b.line, b.end_line) for b in parse_note("n.md", text).blocks] == expected


def test_b6_block_lookup_is_case_insensitive():
    note = parse_note("N.md", "para ^my-id\n")
    assert find_subpath(note, "#^MY-ID") is not None
    assert find_subpath(note, "#^other") is None


def test_sections_partition_the_note():
    note = parse_note("N.md", "---\na: 1\n---\nintro\n# One\nx\n## Two\ny\n")
    assert [(s.heading, s.line, s.end_line) for s in note.sections] == [
        (None, 4, 4), ("One", 5, 6), ("Two", 7, 8)
    ]


@pytest.mark.parametrize(
    "raw, text, warned",
    [
        (b"\xef\xbb\xbf# Title\n", "# Title\n", False),
        (b"caf\xe9 [[x]]\n", "caf\ufffd [[x]]\n", True),
        (b"", "", False),
    ],
)
def test_decode(raw, text, warned):
    decoded, warnings = decode(raw)
    assert decoded == text and bool(warnings) == warned


def test_binary_is_refused():
    with pytest.raises(BinaryFileError):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00")


def test_crlf_gives_the_same_result_as_lf():
    text = "---\ntags: [a]\n---\n# H\npara [[A]] ^b1\n"
    assert parse_note("n.md", text.replace("\n", "\r\n")) == parse_note("n.md", text)


def test_open_tasks_are_counted_outside_code():
    text = "- [ ] open\n- [x] done\n  - [ ] nested open\n> - [ ] quoted open\n\n```\n- [ ] code\n```\n[ ] not a list\n"
    assert parse_note("n.md", text).open_tasks == 3


def test_plain_text_drops_tags_but_not_issue_numbers():
    from walker.corpus.text import plain

    assert plain("The worm bin sulks. #garden") == "The worm bin sulks."
    assert plain("#question Why wait?") == "Why wait?"
    assert plain("Use C# daily; see issue #12.") == "Use C# daily; see issue #12."
    assert plain("See [[Soil|the soil note]] and ![[pic.png]] <b>now</b>") == "See the soil note and now"
