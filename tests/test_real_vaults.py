"""The two real vaults by other people, read from outside the repository (conftest.real_vault:
$WALKER_REAL_VAULTS, else shared/vaults beside the clone) and skipped where they are not."""

import re

import pytest
from conftest import real_vault

from walker.corpus import load_corpus
from walker.graph import vault_summary

FENCE = re.compile(r"^\s*(```|~~~)")


def code_lines(text):
    """1-based numbers of lines inside fenced code blocks, found without markdown-it."""
    inside, marker, lines = False, None, set()
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match and (not inside or match.group(1) == marker):
            inside, marker = not inside, match.group(1)
            continue
        if inside:
            lines.add(number)
    return lines


@pytest.fixture(scope="module")
def tasks_docs():
    root = real_vault("obsidian-tasks-docs")
    return root, load_corpus(root, use_cache=False)


def test_no_link_inside_fenced_code(tasks_docs):
    root, corpus = tasks_docs
    checked = 0
    for path in corpus.notes:
        text = (root / path).read_text(encoding="utf-8")
        fenced = code_lines(text)
        checked += sum("[[" in line for n, line in enumerate(text.splitlines(), 1) if n in fenced)
        bad = [l for l in corpus.links if l.source == path and l.line in fenced and l.kind != "frontmatter"]
        assert not bad, bad
    assert checked >= 3  # the vault really has [[ ]] inside fenced code


def test_no_link_inside_inline_code(tasks_docs):
    root, corpus = tasks_docs
    for link in corpus.links:
        if link.kind in ("link", "embed"):
            line = (root / link.source).read_text(encoding="utf-8").splitlines()[link.line - 1]
            spans = re.sub(r"`[^`]*`", "", line)
            assert "[[" in spans or "](" in spans, (link, line)


def test_tasks_docs_links_resolve(tasks_docs):
    _, corpus = tasks_docs
    summary = vault_summary(corpus)
    assert summary["notes"] > 100
    assert summary["links"]["resolved"] > 1200
    assert summary["links"]["unresolved"] == 0


def test_tasks_demo_scans_with_its_odd_files():
    root = real_vault("tasks-demo")
    corpus = load_corpus(root, use_cache=False)
    extensions = {f.path.rsplit(".", 1)[-1] for f in corpus.attachments}
    assert {"canvas", "base", "pdf"} <= extensions
    broken = [l for l in corpus.links if l.target == "broken link - do not fix me"]
    assert len(broken) == 1 and broken[0].resolved is None
    assert sum(1 for l in corpus.links if "#^" in l.target) >= 1
    assert any(l.kind == "frontmatter" for l in corpus.links)
