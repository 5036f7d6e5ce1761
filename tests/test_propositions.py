"""What walker quotes as a note's proposition, and which notes may seed a walk."""

import json
import os
import re
import shutil

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, real_vault, write_vault

from walker.cli import main
from walker.corpus.parse import parse_note
from walker.corpus.text import is_proposition, paragraphs_of


@pytest.mark.parametrize("sentence", [
    "%% remember to move this section somewhere else later %%",
    "See https://example.com/compost for the full table of ratios.",
    "Created on {{date}} from the weekly template for reviews.",
    "Status: done and reviewed by the whole team last week",
    "$ pip install walker and then run the weekly timer",
    "Compost",
    "These examples demonstrate the error messages for various problem scenarios.",  # the document about itself
    "View this page in Reading or Live Preview mode to see the heap table.",
    "Here is how to easily see if you have any old values needing to be updated.",
    # what plain() leaves of "inside `[[Note|` and `]`, … [the note]]": a quote would make it a live link
    "Themes use different symbols inside [[Set up custom statuses| and ], so pick your styling first.",
    "For experimenting with happens date with invalid dates.",  # a note's purpose line, not a claim
    "See also Smoke test JS setting - should fail when disabled.",  # a pointer to another note
    "See How to get all tasks in the current file.",  # what is left of "See [How to get…](https://…)."
    "List item in 'numbered_list_items_with_paren'",  # a list item or heading: no sentence ends here
    "Check that the due date of the new heading is '2024-09-28 Sunday' today.",  # a test step full of digits
    "Flour 500 g, water 350 g, salt 10 g, starter 100 g, yeast none.",  # an ingredient list
    # "searches for `#context/pc_abigail`, but…": what the code span held is gone, and the quote would show it
    "This search looks like it searches for , but it actually searches for , because the slash ends it.",
])
def test_not_a_proposition(sentence):
    assert not is_proposition(sentence, title="Compost")


@pytest.mark.parametrize("sentence", [
    "A heap with too little nitrogen stays cold for weeks.",
    "This heap stayed cold all winter because the browns were too dry.",  # "this" about the subject, not the page
    "These worms eat about half their weight a day in kitchen scraps.",
    "For compost, the ratio of browns to greens matters more than the size of the heap.",
])
def test_a_plain_sentence_is_a_proposition(sentence):
    assert is_proposition(sentence, title="Compost")


def test_a_tag_inside_a_code_span_is_code_and_stays_in_the_quote():
    text = "# Note\n\nIntentionally without `#task` as not intended to be picked up by the searches above. #draft\n"
    paragraphs = [p.text for p in paragraphs_of(text, parse_note("Note.md", text))]
    assert paragraphs == ["Intentionally without #task as not intended to be picked up by the searches above."]


def test_comments_and_placeholders_never_reach_the_paragraphs():
    text = ("# Note\n\n%%\nA hidden thought that spans\nseveral lines of the note.\n%%\n\n"
            "Visible sentence about the heap warming up quickly. %% aside %%\n\nMade {{date}} by <% tp.user %>.\n")
    paragraphs = [p.text for p in paragraphs_of(text, parse_note("Note.md", text))]
    assert paragraphs[0] == "Visible sentence about the heap warming up quickly."
    assert not any("hidden" in p or "aside" in p or "{{" in p or "<%" in p for p in paragraphs)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_folders_named_like_templates_are_templates(tmp_path):
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "00 - Contribute/01 Templates/Plugin page.md": "# {{title}}\n\nA plugin page that explains what the plugin does.\n"})
    scan = json.loads(cli("scan", vault, "--json").output)
    skipped = {s["path"]: s["reason"] for s in scan["skipped"]}
    assert "template" in skipped["00 - Contribute/01 Templates/Plugin page.md"]
    (vault / "walker.toml").write_text('templates_folder = "Templates"\n', encoding="utf-8")  # named: only that one
    scan = json.loads(cli("scan", vault, "--json").output)
    assert "00 - Contribute/01 Templates/Plugin page.md" not in {s["path"] for s in scan["skipped"]}


def test_a_note_of_links_only_is_never_an_automatic_seed(tmp_path):
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Index of everything.md": "---\nstatus: open\n---\n# Index\n\n- [[Compost]]\n- [[Quorum]]\n- [[Soil]]\n"})
    seeds = json.loads(cli("seeds", vault, "--now", "2026-12-03T07:50:00", "--json").output)
    paths = [s["path"] for group in seeds.values() for s in group]
    assert paths and "Index of everything.md" not in paths


def test_recent_seeds_follow_now_and_ignore_copied_file_times(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    for path in vault.rglob("*.md"):
        os.utime(path, ns=(1_800_000_000 * 10**9, 1_800_000_000 * 10**9))  # a fresh copy: one time for all
    result = cli("seeds", vault, "--now", "2025-01-01T00:00:00")
    assert result.exit_code == 0 and not re.search(r"-\d+ days", result.output)
    seeds = json.loads(cli("seeds", vault, "--now", "2026-12-03T07:50:00", "--json").output)
    dated = {"Systems/Timeouts.md", "Kitchen/Dry Brining Meat.md"}  # `created` is recent; every other date is a file time
    assert all("edited" not in s["reason"] for s in seeds["recent"] if s["path"] not in dated)


def test_a_copied_vault_without_dates_still_has_forgotten_seeds(tmp_path):
    """No property or file time says when a note was last read; its few links still say nobody comes back to it."""
    vault = tmp_path / "docs"
    shutil.copytree(real_vault("obsidian-tasks-docs"), vault)
    for path in vault.rglob("*.md"):
        os.utime(path, ns=(1_800_000_000 * 10**9, 1_800_000_000 * 10**9))
    seeds = json.loads(cli("seeds", vault, "--now", "2026-12-03T07:50:00", "--json").output)
    assert seeds["forgotten"] and all("no date known" in s["reason"] for s in seeds["forgotten"])


def test_a_line_that_only_links_to_an_outside_page_is_a_reference_not_a_sentence():
    """A reference list item is the title of someone else's article: "why are gradients unstable?" under 参考 is no
    question the note asks, and no passage to quote (a walk paired it as a question another note answers)."""
    text = ("# 梯度\n\n梯度爆炸和梯度消失都和参数初始化有关。\n\n## 参考\n\n"
            "- [为什么深度神经网络的梯度会不稳定？](https://zhuanlan.zhihu.com/p/1)\n"
            "- [How do residual connections help?](https://example.com/a \"the title\"), <https://example.com/b>\n"
            "- Read [this piece](https://example.com/c) before the exam: it explains the vanishing gradient well.\n")
    found = paragraphs_of(text, parse_note("梯度.md", text))
    assert [p.text for p in found if p.prose] == [
        "梯度爆炸和梯度消失都和参数初始化有关。", "Read this piece before the exam: it explains the vanishing gradient well."]
    assert len(found) == 4  # the references stay in the note's text, for what the note is about


def test_a_hostile_line_full_of_dots_is_read_for_links_in_bounded_time():
    import time

    text = "# Note\n\n" + "a." * 100_000 + " https://example.com\n"
    started = time.perf_counter()
    found = paragraphs_of(text, parse_note("Note.md", text))
    assert time.perf_counter() - started < 2.0 and found and found[0].prose
