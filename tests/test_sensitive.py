"""The sensitive-inference guard: a lexicon and a model fitted on labelled sentences, checked on sentences written
apart (bench/judgement/check/sensitive.yaml, never fitted on)."""

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from walker import sensitive
from walker.cli import main
from walker.sensitive import lexicon_inference, model_inference, sensitive_inference

CHECK = Path(__file__).resolve().parents[1] / "bench" / "judgement" / "check" / "sensitive.yaml"


@pytest.mark.parametrize("text", [
    "He has been running on empty for weeks.", "She keeps one day a week holy.",
    "Her evenings are school runs and bedtime stories.", "His hands shake when he writes.",
    "The author is wired differently from his colleagues.", "最近吃了新药，整个下午都昏昏沉沉的。",
])
def test_what_the_lexicon_has_no_word_for_is_read_by_the_model(text):
    assert lexicon_inference(text) is None
    assert sensitive_inference(text) is not None and "fitted model" in sensitive_inference(text)


@pytest.mark.parametrize("text", [
    "Kill the child process before the parent exits.", "The immune system keeps a memory of past infections.",
    "这是一场与时间的赛跑。", "父目录下的子进程被杀掉了。", "Baked a rye loaf for a friend's birthday.",
])
def test_innocent_look_alikes_pass(text):
    assert sensitive_inference(text) is None


def test_on_sentences_written_apart_the_guard_finds_twice_what_the_lexicon_did():
    rows = yaml.safe_load(CHECK.read_text(encoding="utf-8"))
    truth = [r["label"] == "sensitive" for r in rows]

    def rates(guard):
        said = [guard(r["text"]) is not None for r in rows]
        hit = sum(t and s for t, s in zip(truth, said))
        return hit / max(1, sum(said)), hit / sum(truth)

    lexicon, model, guard = rates(lexicon_inference), rates(model_inference), rates(sensitive_inference)
    assert guard[0] >= 0.9 and guard[1] >= 0.8  # measured: 94% precision, 84% recall (bench/README.md)
    assert guard[1] >= 2 * lexicon[1] and model[0] >= 0.9


def test_reading_deeply_the_reader_of_meaning_finds_what_no_piece_of_the_sentence_says(model_on):
    origin = "He was raised in a village where nobody spoke the national language."
    assert sensitive_inference(origin) is None
    assert "reader of meaning" in (sensitive_inference(origin, deep=True) or "")


def test_reading_deeply_a_chinese_sentence_is_read_by_what_its_words_mean(model_on):
    sleepless = "记笔记的人每到深夜就翻来覆去，难以入眠。"  # tosses and turns late at night, cannot fall asleep
    assert sensitive_inference(sleepless) is None
    assert "reader of meaning" in (sensitive_inference(sleepless, deep=True) or "")


@pytest.mark.parametrize("text", [
    "The starter doubles in four hours at room temperature.", "The queue grows when consumers fall behind the producers.",
    "Pruning in late winter keeps the apple tree from wasting sap.", "The reviewer hates the new layout and says so.",
    "这台服务器每晚都会进入睡眠模式。", "父节点被删除后子节点也要清理。",
])
def test_reading_deeply_passes_what_the_notes_say_of_things(model_on, text):
    assert sensitive_inference(text, deep=True) is None


def test_a_file_name_is_read_as_part_of_its_sentence():
    said = sensitive_inference("Since her divorce she keeps the budget in Money.md")
    assert said is not None and said.endswith("“Since her divorce she keeps the budget in Money.md”")  # not “md”
    assert "“Her new pills leave her foggy.”" in sensitive_inference("The beds were mulched in May.Her new pills leave her foggy.")


def test_a_seed_given_in_words_is_read_deeply(model_on, sample_vault):
    result = CliRunner().invoke(main, ["walk", str(sample_vault), "--dry-run", "--seed",
                                       "He was raised in a village where nobody spoke the national language."])
    assert result.exit_code != 0 and "reader of meaning" in result.output


def test_a_text_of_any_length_is_read_deeply_only_as_far_as_a_field_is(monkeypatch):
    import walker.sensitive as guard

    asked = []
    monkeypatch.setattr(guard, "vectors", lambda texts: asked.append(len(texts)))  # no model needed: count only
    monkeypatch.setattr(guard, "model_folder", lambda: Path("."))
    huge = "The bed was mulched with straw in early spring. " * 20_000  # a megabyte of seed
    assert guard.meaning_inference(huge) is None
    assert asked and asked[0] <= 4000 // len("The bed was mulched with straw in early spring.") + 1


@pytest.mark.parametrize("text", [
    "The linter has a blind spot for generated files.", "This version of OpenSSL is too old for the new certificates.",
    "The staging server looks sick again; restart it before the demo.", "The root commit is the grandfather of every branch here.",
])
def test_reading_deeply_a_lexicon_word_in_another_sense_is_read_in_that_sense(model_on, text):
    assert lexicon_inference(text) is not None  # read fast, the lexicon's word refuses it (the guard errs that way)
    assert sensitive_inference(text, deep=True) is None


def test_reading_deeply_what_the_lexicon_names_is_still_refused(model_on):
    assert sensitive_inference("She has been anxious since the move.", deep=True) is not None


@pytest.mark.parametrize("text", [
    "The person who writes these notes walks with a stick these days.",
    "Whoever wrote this has barely eaten since the funeral.",
    "写这些笔记的人每个周五都去清真寺。",
])
def test_reading_deeply_without_the_model_the_reader_of_words_reads_what_no_piece_says(text):
    assert sensitive_inference(text) is None  # the lexicon and the model of pieces pass it
    assert "reader of words" in (sensitive_inference(text, deep=True) or "")


@pytest.mark.parametrize("text", [
    "The compost heap needs turning every week.", "The build server sleeps between midnight and six.",
    "这个函数每次调用都会重新分配内存。", "The old branch of the repo is the parent of every feature branch.",
])
def test_reading_deeply_without_the_model_what_the_notes_say_of_things_passes(text):
    assert sensitive_inference(text, deep=True) is None


def test_a_passage_of_the_notes_is_not_read_by_the_reader_of_words():
    diary = "Fed Clint twice; he had been in the fridge since Christmas and smelled of nail varnish."  # a sourdough starter
    assert sensitive_inference(diary, deep=True) is not None  # as a field a walk wrote, it would be refused
    assert sensitive_inference(diary, deep=True, notes=True) is None


def test_a_sentence_that_ends_in_a_quotation_is_read_apart_from_the_next():
    claim = "Mulch says “…” and Compost adds “…” The user leans on a walking frame. 写笔记的人” 他说"
    assert sensitive._sentences(claim)[:2] == ["Mulch says “…” and Compost adds “…”", "The user leans on a walking frame."]
    assert sensitive._sentences("It ended.” Then") == ["It ended.”", "Then"]
    assert sensitive._sentences("See Questions.md and 3.5 mm.") == ["See Questions.md and 3.5 mm."]


def test_the_reader_of_words_reads_nothing_it_has_no_word_for():
    assert sensitive.words_logit("Qwzx vrrp 12345", "en") is None
    assert sensitive.words_logit("The compost heap", "en") is not None


@pytest.mark.parametrize(("name", "language", "precision", "recall"), [
    ("sensitive-21", "en", 0.9, 0.8), ("sensitive-21", "zh", 0.88, 0.9),
    ("sensitive-22", "en", 0.88, 0.85), ("sensitive-22", "zh", 0.95, 0.95),
])
def test_on_sets_written_after_it_was_built_the_reader_of_words_keeps_its_measured_figures(name, language, precision,
                                                                                           recall):
    """Sets written fresh once the reader of words was built, each read once to judge a change (bench/README.md).
    Reading deeply without walker[meaning], sensitive-21: English 94% precision, 82% recall (fast: 92%, 60%), Chinese
    90%, 93% (98%, 77%); sensitive-22: English 90%, 88%, Chinese 97%, 97%."""
    rows = [r for r in yaml.safe_load((CHECK.parent / f"{name}.yaml").read_text(encoding="utf-8"))
            if r["lang"].startswith(language)]
    said = [sensitive_inference(r["text"], deep=True) is not None for r in rows]
    truth = [r["label"] == "sensitive" for r in rows]
    hit = sum(t and s for t, s in zip(truth, said))
    assert hit / sum(said) >= precision and hit / sum(truth) >= recall


def test_a_long_text_is_read_deeply_as_far_as_a_field_is_in_whole_sentences():
    """A seed or a hand-written record may be any length; the readers of meaning read it as far as a field is, and the
    sentence the bound cuts is not read as if it were whole ("The bed was mulc")."""
    long = "The bed was mulched with straw in early spring. " * 1_000
    assert sensitive_inference(long, deep=True) is None
    assert all(s.endswith(".") for s in sensitive._first_sentences(long))
    one = "word " * 2_000  # a single sentence longer than the bound is read as far as the bound
    assert sensitive._first_sentences(one) == [one[:4000].strip()]
