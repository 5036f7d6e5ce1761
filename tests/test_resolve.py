"""reference/obsidian-syntax.md §13 resolution table (R1–R16), on the resolver and on a real folder."""

import json
import unicodedata

import pytest

from walker.corpus import load_corpus
from walker.corpus.resolve import Resolver

VAULT = ["Note.md", "a/Note.md", "a/b/Note.md", "ab/Note.md", "c/Note.md", "img.png", "x/img.png",
         "Solo/Unique.md", "v1.2 notes.md"]
NO_ROOT = [p for p in VAULT if p != "Note.md"]


def resolve(link, source, paths=VAULT):
    return Resolver(paths).resolve(link, source).path


@pytest.mark.parametrize(
    "case, paths, source, link, expected",
    [
        ("R1", VAULT, "c/src.md", "Note", "Note.md"),
        ("R2", NO_ROOT, "a/src.md", "Note", "a/Note.md"),
        ("R3", NO_ROOT, "c/src.md", "Note", "c/Note.md"),
        ("R4", NO_ROOT, "z/src.md", "Note", "a/Note.md"),
        ("R5 lower", VAULT, "c/src.md", "unique", "Solo/Unique.md"),
        ("R5 upper", VAULT, "c/src.md", "UNIQUE", "Solo/Unique.md"),
        ("R5 ext", VAULT, "c/src.md", "Unique.md", "Solo/Unique.md"),
        ("R6", VAULT, "c/src.md", "a/b/Note", "a/b/Note.md"),
        ("R7", VAULT, "c/src.md", "b/Note", "ab/Note.md"),
        ("R8", VAULT, "a/src.md", "/c/Note", "c/Note.md"),
        ("R8 no fallback", VAULT, "a/src.md", "/zzz/Note", None),
        ("R9 up", VAULT, "a/b/src.md", "../Note", "a/Note.md"),
        ("R9 here", VAULT, "a/b/src.md", "./Note", "a/b/Note.md"),
        ("R10", VAULT, "c/src.md", "img.png", "img.png"),
        ("R10 no ext", VAULT, "c/src.md", "img", None),
        ("R11", VAULT, "c/src.md", "v1.2 notes", "v1.2 notes.md"),
        ("folder path", VAULT, "Note.md", "x/img.png", "x/img.png"),
        ("missing", VAULT, "Note.md", "Nowhere", None),
    ],
)
def test_resolution_table(case, paths, source, link, expected):
    assert resolve(link, source, paths) == expected


def test_empty_linkpath_is_the_source():
    assert resolve("", "c/src.md") == "c/src.md"


def test_r7_quirk_is_reported_as_ambiguous():
    result = Resolver(VAULT).resolve("b/Note", "c/src.md")
    assert result.ambiguous and set(result.candidates) == {"ab/Note.md", "a/b/Note.md"}


def test_unique_bare_name_is_not_ambiguous():
    assert not Resolver(VAULT).resolve("Unique", "c/src.md").ambiguous


def test_equal_length_ties_break_by_path_order():
    paths = ["q/Same.md", "p/Same.md"]
    assert resolve("Same", "z/src.md", paths) == "p/Same.md"


@pytest.fixture
def vault(tmp_path):
    files = {
        "Note.md": "root",
        "a/Note.md": "",
        "a/b/Note.md": "",
        "ab/Note.md": "",
        "c/Note.md": "",
        "img.png": "",
        "Solo/Unique.md": "---\naliases: [AI]\n---\n",
        unicodedata.normalize("NFC", "Noteä.md"): "",
        ".hidden/Secret.md": "",
        "Private/It.md": "",
        "c/src.md": "\n".join([
            "[[Note]]",  # R1
            "[[Secret]]",  # R12
            "[[AI]]",  # R13
            "[[" + unicodedata.normalize("NFD", "Noteä") + "]]",  # R14
            "[t](Note.md)",  # R15
            "[[It]]",  # R16
        ]) + "\n",
        ".obsidian/app.json": json.dumps({"userIgnoreFilters": ["Private/"]}),
    }
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path


def test_resolution_in_a_real_folder(vault):
    corpus = load_corpus(vault, use_cache=False)
    got = [(l.target, l.resolved) for l in corpus.links if l.source == "c/src.md"]
    assert got == [
        ("Note", "Note.md"),  # R1
        ("Secret", None),  # R12: dot-folders are not in the vault
        ("AI", None),  # R13: aliases never resolve
        ("Noteä", "Noteä.md"),  # R14: NFD link, NFC file
        ("Note.md", "Note.md"),  # R15: Markdown links share the resolver
        ("It", "Private/It.md"),  # R16: excluded files still resolve
    ]
    assert "Private/It.md" not in corpus.notes
