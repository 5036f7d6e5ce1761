"""Enumeration, ignore rules and bad input: reported, never fatal, never silently dropped."""

import json
import os

from conftest import write_vault

from walker.config import load_settings
from walker.corpus import load_corpus
from walker.corpus.load import broken_subpaths


def reasons(corpus):
    return {s.path: s.reason for s in corpus.skipped}


def test_ignore_rules(tmp_path):
    write_vault(tmp_path, {
        "Kept.md": "[[Draft]] [[Tpl]] [[Ignored]] [[Report]] [[Private]]",
        ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Archive/", "/^scratch/"]}),
        ".obsidian/templates.json": json.dumps({"folder": "Meta/Tpl"}),
        ".gitignore": "build/\n*.tmp.md\n",
        "walker.toml": 'exclude = ["drafts/**"]\n',
        ".stash/Hidden.md": "",
        "Archive/Old.md": "",
        "scratch-pad.md": "",
        "Meta/Tpl/Tpl.md": "",
        "build/Ignored.md": "",
        "x.tmp.md": "",
        "drafts/Draft.md": "",
        "walks/reports/Report.md": "",
        "Private.md": "",
    })
    corpus = load_corpus(tmp_path, use_cache=False)
    assert sorted(corpus.notes) == ["Kept.md", "Private.md"]
    why = reasons(corpus)
    assert why[".stash/"].startswith("hidden folder")
    assert why["Archive/Old.md"] == "excluded: Obsidian Excluded files: Archive/"
    assert why["scratch-pad.md"] == "excluded: Obsidian Excluded files: /^scratch/"
    assert why["Meta/Tpl/Tpl.md"] == "excluded: templates folder"
    assert why["build/Ignored.md"] == why["x.tmp.md"] == "excluded: .gitignore"
    assert why["drafts/Draft.md"] == "excluded: walker.toml exclude"
    assert why["walks/reports/Report.md"] == "excluded: walker's own folder"
    # excluded files still resolve, as in Obsidian
    assert all(l.resolved for l in corpus.links)


def test_templates_folder_found_without_settings(tmp_path):
    write_vault(tmp_path, {"_meta/templates/Daily.md": "", "A.md": ""})
    assert list(load_corpus(tmp_path, use_cache=False).notes) == ["A.md"]


def test_unsupported_types_are_listed_unless_obsidian_shows_them(tmp_path):
    write_vault(tmp_path, {"A.md": "", "notes.txt": "", "pic.PNG": "", "board.canvas": "{}"})
    corpus = load_corpus(tmp_path, use_cache=False)
    assert sorted(f.path for f in corpus.attachments) == ["board.canvas", "pic.PNG"]
    assert "notes.txt" in reasons(corpus)
    write_vault(tmp_path, {".obsidian/app.json": '{"showUnsupportedFiles": true}'})
    assert "notes.txt" in [f.path for f in load_corpus(tmp_path, use_cache=False).attachments]


def test_bad_input_is_reported_and_never_fatal(tmp_path):
    write_vault(tmp_path, {
        "Good.md": "[[Empty]] [[Binary]] [[Huge]]",
        "Empty.md": "",
        "Binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "Latin1.md": b"caf\xe9 [[Good]]\n",
        "Bom.md": "\ufeff---\ntags: [bom]\n---\n[[Good]]\r\n",
        "Broken.md": "---\ntags: [unclosed\n---\n[[Good]]\n",
        "Huge.md": "x" * (2 * 1024 * 1024),
        "loop/keep.md": "",
    })
    os.symlink(tmp_path, tmp_path / "loop" / "back")
    os.symlink(tmp_path / "nowhere.md", tmp_path / "Dangling.md")
    settings = load_settings(tmp_path, {"max_note_mb": 1})
    corpus = load_corpus(tmp_path, settings, use_cache=False)
    why = reasons(corpus)
    assert why["Binary.md"].startswith("binary content")
    assert why["Huge.md"].startswith("too large to parse (2.0 MB")
    assert why["loop/back/"].startswith("symlink to a folder already in the vault")
    assert why["Dangling.md"].startswith("unreadable")
    assert {"Good.md", "Empty.md", "Latin1.md", "Bom.md", "Broken.md", "loop/keep.md"} <= set(corpus.notes)
    warned = {path for path, _ in corpus.warnings}
    assert {"Latin1.md", "Broken.md"} <= warned
    assert corpus.notes["Bom.md"].tags == ("bom",)
    assert [l.resolved for l in corpus.links if l.source == "Good.md"] == ["Empty.md", "Binary.md", "Huge.md"]


def test_missing_heading_in_a_link_is_a_warning(tmp_path):
    write_vault(tmp_path, {"A.md": "[[B#Nope]] [[B#Yes]] [[B#^blk]]", "B.md": "# Yes\npara ^blk\n"})
    corpus = load_corpus(tmp_path, use_cache=False)
    assert [m for _, m in broken_subpaths(corpus)] == ["line 1: 'B#Nope' names a heading or block that B.md does not have"]


def test_read_only(tmp_path):
    write_vault(tmp_path, {"A.md": "[[B]]", "B.md": "#t"})
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    load_corpus(tmp_path)
    after = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert before == after
