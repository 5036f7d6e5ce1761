"""The parse cache: a warm run re-parses only what changed and gives exactly the cold result."""

import os
from pathlib import Path

from conftest import write_vault

from walker.config import cache_dir, load_settings
from walker.corpus import load_corpus


def snapshot(corpus):
    return corpus.notes, corpus.links, corpus.skipped, corpus.warnings


def make(tmp_path):
    return write_vault(tmp_path / "v", {
        "A.md": "---\ntags: [x]\ncreated: 2024-01-01\n---\n# H\n[[B#H2]] ![[p.png|100]] #t ^blk\n",
        "B.md": "## H2\n[[A#^blk]] [[Missing]]\n",
        "C.md": "---\nbroken: [\n---\nbody",
        "D.md": b"\x00binary",
        "p.png": b"\x89PNG",
    })


def test_cold_and_warm_are_identical(tmp_path):
    vault = make(tmp_path)
    uncached = load_corpus(vault, use_cache=False)
    cold = load_corpus(vault)
    warm = load_corpus(vault)
    assert (cold.stats["parsed"], warm.stats["parsed"], warm.stats["cache_hits"]) == (4, 0, 4)
    assert snapshot(uncached) == snapshot(cold) == snapshot(warm)


def test_warm_run_reparses_only_changed_files(tmp_path):
    vault = make(tmp_path)
    load_corpus(vault)
    (vault / "B.md").write_text("## H2\n[[C]]\n", encoding="utf-8")
    os.utime(vault / "B.md", ns=(1, 1))
    (vault / "E.md").write_text("new [[A]]", encoding="utf-8")
    (vault / "C.md").unlink()
    warm = load_corpus(vault)
    assert (warm.stats["parsed"], warm.stats["cache_hits"]) == (2, 2)
    assert snapshot(warm) == snapshot(load_corpus(vault, use_cache=False))
    assert [l.target for l in warm.links if l.source == "B.md"] == ["C"]


def test_cache_lives_outside_the_vault(tmp_path):
    vault = make(tmp_path)
    before = sorted(p.name for p in vault.rglob("*"))
    load_corpus(vault)
    assert sorted(p.name for p in vault.rglob("*")) == before
    assert list(cache_dir().glob("vault-*.sqlite"))


def test_parallel_parse_equals_serial(tmp_path):
    files = {f"n{i:03}.md": f"# Note {i}\n[[n{(i + 1) % 300:03}]] #tag{i % 7}\n" for i in range(300)}
    vault = write_vault(tmp_path / "big", files)
    serial = load_corpus(vault, load_settings(vault, {"workers": 1}), use_cache=False)
    parallel = load_corpus(vault, load_settings(vault, {"workers": 2}), use_cache=False)
    assert snapshot(serial) == snapshot(parallel)
    assert len(parallel.links) == 300


def test_a_damaged_index_cache_is_rebuilt(tmp_path):
    from walker.similarity import load_index

    vault = make(tmp_path)
    corpus = load_corpus(vault)
    first = load_index(corpus)
    damaged = list(cache_dir().glob("tfidf-*.npz"))
    assert damaged
    for path in damaged:
        path.write_bytes(b"not an index at all")
    again = load_index(corpus)
    assert again.paths == first.paths and (again.notes != first.notes).nnz == 0


def test_a_new_file_changes_where_unchanged_notes_link(tmp_path):
    """The peer tool's warm-cache bug: resolution must follow the vault, not the cached note."""
    vault = write_vault(tmp_path / "v", {"A.md": "[[Note]]", "sub/Note.md": "deep"})
    assert [l.resolved for l in load_corpus(vault).links] == ["sub/Note.md"]
    (vault / "Note.md").write_text("root", encoding="utf-8")
    warm = load_corpus(vault)
    assert [l.resolved for l in warm.links if l.source == "A.md"] == ["Note.md"]
    (vault / "Note.md").unlink()
    assert [l.resolved for l in load_corpus(vault).links] == ["sub/Note.md"]


def test_a_change_to_the_parsing_code_starts_a_fresh_cache(tmp_path, monkeypatch):
    """The cache's name holds a hash of the parser's source: edit a rule, and no old row is read."""
    import shutil

    from walker.corpus import cache

    rules = tmp_path / "rules"
    rules.mkdir()
    for name in cache.PARSE_RULES:
        shutil.copy(Path(cache.__file__).parent / name, rules / name)
    before = cache.source_digest(rules, cache.PARSE_RULES)
    assert before == cache.source_digest(Path(cache.__file__).parent, cache.PARSE_RULES)
    parse = rules / "parse.py"
    parse.write_text(parse.read_text(encoding="utf-8") + "\n# a rule changed\n", encoding="utf-8")
    assert cache.source_digest(rules, cache.PARSE_RULES) != before
    current = cache.ParseCache(tmp_path / "c", tmp_path, "x").path
    monkeypatch.setattr(cache, "source_digest", lambda folder, names: "another parser")
    assert cache.ParseCache(tmp_path / "c", tmp_path, "x").path != current  # a fresh cache file


def test_the_index_reads_paragraphs_from_the_parse_not_the_files_again(tmp_path, monkeypatch):
    from walker.corpus import load as load_module
    from walker.corpus.text import read_paragraphs
    from walker.similarity import build_index

    vault = write_vault(tmp_path / "v", {
        **{f"n{i}.md": f"# Note {i}\n\nCompost heats when the heap is {i} days old. ^b{i}\n\n- [ ] turn it\n"
           for i in range(30)},
        "odd.md": "%% hidden %%\n\n```\ncode [[x]]\n```\n\nA sentence after the code block.\n",
    })
    corpus = load_corpus(vault)
    expected = {p: read_paragraphs(vault, note) for p, note in corpus.notes.items()}

    def no_second_read(*_args):
        raise AssertionError("a note was read a second time")

    monkeypatch.setattr(load_module, "read_paragraphs", no_second_read)
    assert load_module.note_paragraphs(corpus) == expected  # the same paragraphs, from the parse
    assert build_index(corpus).paragraphs["odd.md"] == expected["odd.md"]
    # Without a cache (or with rows that no longer match), the files are read: the answer never changes.
    monkeypatch.undo()
    assert load_module.note_paragraphs(load_corpus(vault, use_cache=False)) == expected


def test_every_module_the_parse_rules_import_is_part_of_the_cache_key():
    """A rule moved into a new module must not fall out of the key: the rules' own imports are in it."""
    import ast

    from walker.corpus import cache

    folder = Path(cache.__file__).parent
    for name in cache.PARSE_RULES:
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("walker.corpus."):
                assert node.module.rsplit(".", 1)[1] + ".py" in cache.PARSE_RULES, (name, node.module)
