"""A vault written in Chinese: its words, its sentences, and its walks."""

from __future__ import annotations

from walker.corpus.parse import parse_note
from walker.corpus.text import is_proposition, join_sentences, paragraphs_of, sentences
from walker.wander import paragraph_ref
from walker.words import is_everyday_phrase, is_grammar, phrase, word_count, words


def test_chinese_is_segmented_into_words_and_mixed_text_keeps_its_english():
    assert words("用Redis做缓存，TTL设成五分钟。") == ["redis", "缓存", "ttl", "五分钟"]
    assert "乳酸菌" in words("乳酸菌在盐水里把泡菜变酸。")


def test_traditional_characters_are_segmented_and_kept_as_written():
    assert words("因為氣體通常都不是理想氣體") == ["因為", "氣體", "通常", "不是", "理想氣體"]


def test_japanese_is_read_as_character_pairs_without_grammar_pairs():
    assert words("東京の天気") == ["東京", "京の", "の天", "天気"]
    assert "ので" not in words("雨なので")


def test_english_words_are_unchanged():
    assert words("Hello, world: cache123 x_y naïve résumé") == ["hello", "world", "naïve", "résumé"]


def test_grammar_words_are_plain_and_a_phrase_of_everyday_words_is_not_everyday():
    assert is_grammar("这个") and is_grammar("已经") and not is_grammar("堆肥")
    assert not is_everyday_phrase(["处理", "能力"])  # processing capacity: a term, though both parts are everyday
    assert phrase(["处理", "能力"]) == "处理能力" and phrase(["worm", "bin"]) == "worm bin"


def test_chinese_sentences_split_at_full_width_marks_and_join_back_as_written():
    text = "为什么面种冷藏以后要两天才能恢复活力？我猜是因为低温。“这很好。”他说。"
    parts = sentences(text)
    assert parts == ["为什么面种冷藏以后要两天才能恢复活力？", "我猜是因为低温。", "“这很好。”", "他说。"]
    assert join_sentences(parts) == text
    assert join_sentences(["One.", "Two."]) == "One. Two."


def test_a_chinese_proposition_is_counted_by_characters():
    assert word_count("微生物的处理能力") == 4.0 and word_count("用Redis做缓存") == 3.0  # two characters a word
    assert is_proposition("桶里的微生物和小虫子每天的处理能力是有限的。")
    assert not is_proposition("我猜是因为低温。")  # too short to say a thing
    assert is_proposition("原子分子運動互相撞擊或振動來回而產生熱能")  # a statement without its full stop
    assert not is_proposition("层序遍历一般需要一个队列来辅助遍历：")  # a lead-in
    assert not is_proposition("HTTP 报文的结构和常见状态码")  # a label


def test_a_paragraph_under_a_second_heading_of_one_name_is_cited_by_its_lines():
    text = "# 例子\n\n假如有一个罐子，里面有黑白两种颜色的球。\n\n# 定义\n\n## 例子\n\n其中p为硬币正面朝上的概率。\n"
    note = parse_note("n.md", text)
    first, second = paragraphs_of(text, note)
    assert paragraph_ref(note, first) == "n.md#例子"
    assert paragraph_ref(note, second) == "n.md#L9-L9"  # "#例子" would open the first one
