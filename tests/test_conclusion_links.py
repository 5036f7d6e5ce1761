"""A newcomer's first hour: confirming a hypothesis connects its notes in Obsidian.

The conclusion note `walker discharge` writes is read here as Obsidian reads it: its properties parsed as YAML, a
property a link only when its whole value is ``[[…]]``, the links of its body found by Obsidian's tokenizer, and
every link resolved against the vault (reference/obsidian-syntax.md §2, §7, §8, §9).
"""

import json
import unicodedata
from datetime import UTC, datetime

import pytest
import yaml
from click.testing import CliRunner
from conftest import write_vault

from walker.cli import main
from walker.corpus.parse import parse_note
from walker.corpus.resolve import Resolver, find_subpath, span
from walker.inbox import NAME_LIMIT, note_title
from walker.kinds import KINDS
from walker.pool.health import _earlier_link
from walker.pool.store import PoolStore
from walker.refs import Ref, ref_link, split_subpath
from walker.walk.candidate import Candidate, hypothesis_record

NOW = datetime(2026, 12, 3, 7, 50, tzinfo=UTC)
SOURCE = "user statement on 2026-11-29"
NOTES = {
    "Garden/Companion Planting.md": "# Companion Planting\n\nThe corn is a pole for the beans, and the beans fix "
                                    "nitrogen. ^three-sisters\n",
    "Garden/Cover Crops.md": "# Cover Crops\n\n## What the roots do\n\nThe clover fixes nitrogen as well.\n\nCut it "
                             "down before planting.\n",
    # One name in two folders: only a link by path reaches the right one.
    "Garden/Notes.md": "# Notes\n\n## Why: does it [really] work? | v2 %% draft\n\nIt works when the soil is warm.\n",
    "Kitchen/Notes.md": "# Notes\n\nSalt the meat a day ahead.\n",
    "Kitchen/Brining.md": "# Brining\n\nSalt the meat well before cooking.\n",
    "Kitchen/Dry Brining.md": "# Dry Brining\n\nSalt the meat well before cooking, a day ahead, uncovered.\n",
    "Questions/Open.md": "# Open\n\nWhat keeps aphids off the beans? ^aphids\n",
    "Garden/Aphids.md": "# Aphids\n\n## Predators\n\nLadybirds keep aphids off the beans.\n",
    "笔记/缓存.md": "# 缓存\n\n## 失效\n\n缓存失效时要先删缓存再写数据库。\n",
    "笔记/数据库.md": "# 数据库\n\n写入数据库之后要让缓存失效。 ^write\n",
    "Inbox/Mine.md": "# my own inbox note\n",
}


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture
def vault(tmp_path):
    return write_vault(tmp_path / "vault", NOTES)


def add(vault, number, kind, refs, claim, merge_into=""):
    record = hypothesis_record(
        Candidate(claim=claim, supporting_refs=tuple(refs), confidence="medium", impact="add", impact_reason="",
                  applies_when=(), never_applies_when=(), disconfirm_if=(), kind=kind, title="pair",
                  merge_into=merge_into),
        id=f"hyp-2026-12-01-{number:03d}", created="2026-12-01", seed="s", walk_id="2026-12-01-001",
        engine="extractive", expires_after_walks=12)
    PoolStore(vault).write_record("active", record)
    return record["id"]


def discharge(vault, record_id, statement, source=SOURCE):
    before = set((vault / "Inbox").glob("*.md"))
    result = cli("discharge", record_id, vault, "--source", source, "--statement", statement, "--now", NOW.isoformat())
    assert result.exit_code == 0, result.output
    (note,) = set((vault / "Inbox").glob("*.md")) - before
    return note


def vault_paths(vault):
    return [p.relative_to(vault).as_posix() for p in vault.rglob("*") if p.is_file()]


def as_obsidian_reads(vault, note):
    """(the whole-value links of the properties, by key; the links of the body, with their lines), as targets."""
    text = note.read_text(encoding="utf-8")
    _, raw, body = text.split("---\n", 2)
    front = yaml.safe_load(raw)

    def links(value):
        if isinstance(value, list):
            return [link for item in value for link in links(item)]
        if isinstance(value, str) and value.startswith("[[") and value.endswith("]]"):
            return [value]
        return []

    properties = {key: links(value) for key, value in front.items() if links(value)}
    parsed = parse_note(note.relative_to(vault).as_posix(), text)
    body_links = [(link.target, link.line) for link in parsed.links if link.kind == "link"]
    return properties, body_links, body


def resolve(vault, note, target):
    """The vault path a link target reaches from ``note``, and the lines its subpath opens there."""
    source = note.relative_to(vault).as_posix()
    linkpath, subpath = split_subpath(target)
    found = Resolver(vault_paths(vault)).resolve(linkpath, source)
    assert found.path is not None and not found.ambiguous, f"{target} does not resolve"
    if not subpath:
        return found.path, None
    parsed = parse_note(found.path, (vault / found.path).read_text(encoding="utf-8"))
    place = find_subpath(parsed, subpath)
    assert place is not None, f"{target}: Obsidian finds no {subpath} in {found.path}"
    return found.path, (place.line, place.end_line)


def opened(vault, ref):
    """What a ref opens: its note, and the lines of its heading or block (None for a whole note or a line range)."""
    parsed = Ref.parse(ref)
    if not parsed.anchor or parsed.lines:
        return parsed.path, None
    note = parse_note(parsed.path, (vault / parsed.path).read_text(encoding="utf-8"))
    return parsed.path, span(parsed, note)


def test_a_confirmed_missing_link_links_both_notes(vault):
    refs = ["Garden/Companion Planting.md#^three-sisters", "Garden/Cover Crops.md#What the roots do"]
    record_id = add(vault, 1, "missing-link", refs, "Companion Planting and Cover Crops both speak of nitrogen.")
    statement = ("Beans and clover both feed the next crop: whatever a legume fixes in the soil stays there for what "
                 "is planted after it, so the two notes are one idea seen from two beds.")
    note = discharge(vault, record_id, statement)

    properties, body_links, body = as_obsidian_reads(vault, note)
    # The refs are links in the Properties panel, each opening the passage the record cited.
    assert [resolve(vault, note, link[2:-2].split("|")[0]) for link in properties["corroborating_refs"]] == \
        [opened(vault, ref) for ref in refs]
    assert properties["inspired_by"] == [f"[[{record_id}]]"]
    # The body links both notes too (the graph and backlinks count both), and says what the confirmation means.
    reached = {resolve(vault, note, target)[0] for target, _ in body_links}
    assert {"Garden/Companion Planting.md", "Garden/Cover Crops.md"} <= reached
    assert "are connected" in body and statement in body and SOURCE in body
    # A readable name: the statement's first words, whole, without an ellipsis or a character links cannot hold.
    name = note.stem
    assert not name.endswith(("…", "...")) and len(name) <= NAME_LIMIT
    assert not set(name) & set('[]#^|\\/:*?"<>')
    assert statement.replace(":", "").startswith(name) and statement.replace(":", "")[len(name)] == " "
    # The record points at the note, and `walker check` finds it where the record says.
    record = PoolStore(vault).records("discharged")[0]
    assert record.data["conclusion"] == f"[[Inbox/{name}|{name}]]"
    assert resolve(vault, vault / "walks" / "discharged" / "x.md", f"Inbox/{name}")[0] == f"Inbox/{name}.md"
    assert cli("check", vault).exit_code == 0


def test_a_heading_a_link_cannot_hold_and_a_line_range_still_link(vault):
    refs = ["Garden/Notes.md#Why: does it [really] work? | v2 %% draft", "Kitchen/Notes.md#L3"]
    record_id = add(vault, 2, "missing-link", refs, "Two notes named Notes say when things work.")
    note = discharge(vault, record_id, "Warm soil and a day of salt are both about waiting for the right moment.")

    properties, body_links, _ = as_obsidian_reads(vault, note)
    links = properties["corroborating_refs"]
    assert len(links) == 2  # every ref is a whole-value link, a line range included
    assert [resolve(vault, note, link[2:-2].split("|")[0]) for link in links] == [opened(vault, ref) for ref in refs]
    assert "line 3" in links[1]  # a link cannot open a line: its text says which
    assert {resolve(vault, note, target)[0] for target, _ in body_links} >= {"Garden/Notes.md", "Kitchen/Notes.md"}
    assert cli("check", vault).exit_code == 0


def test_a_confirmed_duplicate_says_which_note_to_merge_into_which(vault):
    claim = KINDS["duplicate"].wording["en"]["claim"].format(
        A="Brining", a="Brining", b="Dry Brining", other="Brining", into="Dry Brining", thread="“salt”",
        text_a="Salt the meat well before cooking.", text_b="Salt the meat well before cooking, a day ahead.")
    refs = ["Kitchen/Brining.md", "Kitchen/Dry Brining.md"]
    record_id = add(vault, 3, "duplicate", refs, claim, merge_into=refs[1])
    note = discharge(vault, record_id, "Dry brining is the same method, written up twice.")

    _, body_links, body = as_obsidian_reads(vault, note)
    merge_line = next(number for number, line in enumerate(note.read_text().splitlines(), 1) if "merge" in line)
    on_it = [resolve(vault, note, target)[0] for target, line in body_links if line == merge_line]
    assert on_it[-2:] == ["Kitchen/Brining.md", "Kitchen/Dry Brining.md"]  # merge Brining into Dry Brining
    assert "into" in body


def test_which_duplicate_to_merge_into_is_a_property_of_the_record_and_a_hand_edit_elsewhere_is_ignored(vault):
    refs = ["Kitchen/Brining.md", "Kitchen/Dry Brining.md"]
    record_id = add(vault, 5, "duplicate", refs, "Two notes on salt: merge them.", merge_into=refs[0])
    (record,) = [r for r in PoolStore(vault).records("active") if r.id == record_id]
    assert record.data["merge_into"] == refs[0] and record.record.merge_into == refs[0]
    path = vault / "walks" / "active" / f"{record_id}.md"
    path.write_text(path.read_text(encoding="utf-8").replace("merge_into: Kitchen/Brining.md",
                                                             "merge_into: Elsewhere/Other.md"), encoding="utf-8")
    (edited,) = [r for r in PoolStore(vault).records("active") if r.id == record_id]
    assert edited.record.merge_into == ""  # not one of its refs: the conclusion leaves the choice to the reader


def test_a_confirmed_answer_says_which_note_answers_the_question(vault):
    refs = ["Questions/Open.md#^aphids", "Garden/Aphids.md#Predators"]
    record_id = add(vault, 4, "answer", refs, "The question in Open has an answer in Aphids.")
    note = discharge(vault, record_id, "Ladybirds do it: let them in and the beans stay clean.")

    _, body_links, body = as_obsidian_reads(vault, note)
    line = next(number for number, text in enumerate(note.read_text().splitlines(), 1) if "answers the question" in text)
    assert [resolve(vault, note, t)[0] for t, n in body_links if n == line] == ["Garden/Aphids.md", "Questions/Open.md"]


def test_a_chinese_statement_gives_a_readable_name_and_chinese_words(vault):
    refs = ["笔记/缓存.md#失效", "笔记/数据库.md#^write"]
    record_id = add(vault, 5, "missing-link", refs, "缓存和数据库两篇笔记都讲失效。")
    statement = ("先删缓存再写数据库和写完数据库再让缓存失效其实是同一个一致性问题的两种做法，而且两种做法都需要处理并发写入时的竞争条件。"
                 "后来又试了一次。")
    note = discharge(vault, record_id, statement)

    name = note.stem
    assert name.startswith("先删缓存再写数据库") and statement.startswith(name)  # cut by characters, not at a space
    assert not name.endswith(("…", "，", "。")) and sum(2 if unicodedata.east_asian_width(c) == "W" else 1
                                                     for c in name) <= NAME_LIMIT
    properties, body_links, body = as_obsidian_reads(vault, note)
    assert [resolve(vault, note, link[2:-2].split("|")[0]) for link in properties["corroborating_refs"]] == \
        [opened(vault, ref) for ref in refs]
    assert {resolve(vault, note, t)[0] for t, _ in body_links} >= {"笔记/缓存.md", "笔记/数据库.md"}
    assert "来源" in body and "are connected" not in body  # the note speaks the statement's language


def test_a_moved_conclusion_is_still_found_and_mended(vault):
    record_id = add(vault, 6, "missing-link", ["Garden/Companion Planting.md", "Garden/Cover Crops.md#L3-L5"],
                    "Companion Planting and Cover Crops both speak of nitrogen.")
    note = discharge(vault, record_id, "It holds.")
    (vault / "Garden" / "Done").mkdir()
    note.rename(vault / "Garden" / "Done" / note.name)
    found = json.loads(cli("check", vault, "--json").output)["problems"]
    assert [p["kind"] for p in found] == ["moved-conclusion"]
    cli("check", vault, "--repair")
    assert cli("check", vault).exit_code == 0


def test_a_moved_conclusion_of_the_old_format_is_still_recognised(vault):
    refs = ["Garden/Companion Planting.md#^three-sisters", "Garden/Cover Crops.md#What the roots do"]
    record_id = add(vault, 7, "missing-link", refs, "Companion Planting and Cover Crops both speak of nitrogen.")
    note = discharge(vault, record_id, "It holds.")
    text = note.read_text(encoding="utf-8")
    old = text.replace(ref_link(refs[1]), _earlier_link(refs[1]))
    (vault / "Garden" / "Old.md").write_text(old, encoding="utf-8")  # as a walker before this one wrote it, moved
    note.unlink()
    found = json.loads(cli("check", vault, "--json").output)["problems"]
    assert [p["kind"] for p in found] == ["moved-conclusion"]


def test_names_stay_unique_in_the_inbox_whatever_their_case(vault):
    (vault / "Inbox" / "it holds.md").write_text("# mine\n", encoding="utf-8")
    first = discharge(vault, add(vault, 8, "missing-link", ["Garden/Aphids.md", "Garden/Notes.md"], "c one."),
                      "It holds.")
    second = discharge(vault, add(vault, 9, "missing-link", ["Kitchen/Brining.md", "Kitchen/Notes.md"], "c two."),
                       "It holds.")
    assert (first.name, second.name) == ("It holds (2).md", "It holds (3).md")
    assert (vault / "Inbox" / "it holds.md").read_text() == "# mine\n"


@pytest.mark.parametrize("statement, name", [
    ("It holds.", "It holds"),
    ("Short and whole. Then more.", "Short and whole"),
    ("Dr. Ruth said so on 2026-11-29.", "Dr. Ruth said so on 2026-11-29"),  # an abbreviation is no sentence end
    ("What? A #tag, [[a link]], a|pipe, a^caret and C:\\path/to*?", "What A tag, a link, a pipe, a caret and C path to"),
    ("The Google Effect is the argument for a shared memory that nobody owns and everybody reads daily. More.",
     "The Google Effect is the argument for a shared memory that"),
    ("...and so it goes…", "and so it goes"),
    ("缓存失效是一致性问题。后来又试了一次。", "缓存失效是一致性问题"),
    ("缓存和数据库", "缓存和数据库"),
    ("Redis 缓存失效和数据库写入其实是同一个一致性问题的两种不同做法而且都要处理并发写入", None),
    ("?*:", "Conclusion"),
])
def test_a_note_title_is_the_statements_first_words(statement, name):
    title = note_title(statement)
    assert not title.endswith("…") and not set(title) & set('[]#^|\\/:*?"<>%')
    assert sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in title) <= NAME_LIMIT
    if name is not None:
        assert title == name
    else:
        assert title.startswith("Redis 缓存失效") and len(title) > 20  # a long Chinese run is cut by characters


@pytest.mark.parametrize("ref, link", [
    ("Garden/Soil.md", "[[Garden/Soil|Soil]]"),
    ("Garden/Soil.md#^never-faster", "[[Garden/Soil#^never-faster|Soil › never faster]]"),
    ("Garden/Soil.md#Roots#What they do", "[[Garden/Soil#Roots#What they do|Soil › Roots › What they do]]"),
    ("Garden/Soil.md#Q: why [really]? | v2", "[[Garden/Soil#Q why really ? v2|Soil › Q: why really? v2]]"),
    ("Garden/Soil.md#L3-L9", "[[Garden/Soil|Soil, lines 3–9]]"),
    ("Garden/Soil.md#L4", "[[Garden/Soil|Soil, line 4]]"),
    ("Garden/Soil.md#Soil", "[[Garden/Soil#Soil|Soil]]"),
])
def test_a_ref_becomes_one_whole_ref_link(ref, link):
    assert ref_link(ref) == link


@pytest.mark.parametrize("kind, words", [
    ("missing-link", "are connected"), ("duplicate", "merge one into the other"), ("answer", "answers the question in"),
    ("tension", "disagree"), ("analogy", "one mechanism"), ("", "Confirmed."),
])
def test_every_kind_says_what_its_confirmation_means_and_links_both_notes(kind, words):
    from walker.inbox import Conclusion, render

    refs = ("Garden/Soil.md#^roots", "Kitchen/Notes.md")
    text = render(Conclusion(created="2026-12-03", source=SOURCE, statement="It holds.", inspired_by="hyp-2026-12-01-001",
                             corroborating_refs=refs, kind=kind, id="conclusion-2026-12-03-001"))
    first = text.split("---\n", 2)[2].splitlines()[0]  # a duplicate whose claim does not say which note is fuller
    assert words in first and all(ref_link(ref) in first for ref in refs)


def test_a_path_no_wikilink_can_hold_stays_the_plain_ref():
    assert ref_link("Odd/a|b.md#Heading") == "Odd/a|b.md#Heading"
    assert ref_link("Odd/a]]b.md") == "Odd/a]]b.md"
