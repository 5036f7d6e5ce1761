"""A vault written in Chinese: its words, its sentences, and its walks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, copy_vault_files

from walker.cli import main
from walker.corpus.parse import parse_note
from walker.corpus.text import is_proposition, join_sentences, paragraphs_of, sentences
from walker.passages import ref_text
from walker.pool.store import PoolStore
from walker.refs import ref_link
from walker.surface import surface
from walker.wander import central_sentence, paragraph_ref
from walker.words import is_everyday_phrase, is_grammar, phrase, tokens, word_count, words
from walker.workspace import Workspace


def test_chinese_is_segmented_into_words_and_mixed_text_keeps_its_english():
    assert words("用Redis做缓存，TTL设成五分钟。") == ["redis", "缓存", "ttl", "五分钟"]
    assert "乳酸菌" in words("乳酸菌在盐水里把泡菜变酸。")


def test_traditional_characters_are_segmented_and_kept_as_written():
    assert words("因為氣體通常都不是理想氣體") == ["因為", "氣體", "通常", "不是", "理想氣體"]


def test_japanese_is_read_as_its_words_without_grammar():
    """Segmented by MeCab (UniDic-lite), as a reader of Japanese reads it: never a pair of characters that straddles two
    words ("京の", "ンと記"), and never a particle or an inflection of hiragana alone."""
    assert words("東京の天気") == ["東京", "天気"]
    assert words("デザインと記録") == ["デザイン", "記録"]
    assert {"京大式カード", "読書ノート", "方法"} <= set(words("京大式カードで読書ノートを続ける方法を試した。"))  # nouns in a row: one word
    assert "議事録" in words("議事録を読んだ")  # a noun and its suffix too
    assert words("雨なので") == [] and tokens("雨なので")[0] == "雨"
    # Chinese writes a name's middle dot with the katakana one: the text is still Chinese, read by jieba
    assert words("史蒂夫・乔布斯创立了苹果公司") == words("史蒂夫·乔布斯创立了苹果公司")


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


ZH_VAULT = FIXTURES / "zh-notes"  # written in Chinese for these tests (three domains, plants)


@pytest.fixture(scope="module")
def walked_zh(tmp_path_factory):
    """The Chinese vault after three weekly runs, as a user runs them."""
    vault = copy_vault_files(ZH_VAULT, tmp_path_factory.mktemp("zh") / "vault")
    assert CliRunner().invoke(main, ["init", str(vault)]).exit_code == 0
    for day in ("2026-12-04", "2026-12-11", "2026-12-18"):
        result = CliRunner().invoke(main, ["run", str(vault), "--now", f"{day}T07:50:00"])
        assert result.exit_code == 0, result.output
    return vault


def test_every_note_of_the_chinese_vault_can_seed_a_walk():
    ws = Workspace.open(ZH_VAULT)
    cannot = [path for path in ws.corpus.notes if central_sentence(ws.index, path, ws.index.paragraphs[path]) is None]
    assert cannot == []


def test_a_short_chinese_statement_can_seed_though_it_is_few_words(tmp_path):
    # Seven words by jieba's count, eleven characters: a whole statement (an English seed needs eight words).
    (tmp_path / "酵母.md").write_text("# 酵母\n\n酵母在低温下活性很弱。\n", encoding="utf-8")
    (tmp_path / "面包.md").write_text("# 面包\n\n面团放进冰箱以后发得很慢。\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    found = central_sentence(ws.index, "酵母.md", ws.index.paragraphs["酵母.md"])
    assert found is not None and found[0] == "酵母在低温下活性很弱。"


def test_a_note_that_only_asks_seeds_from_its_question(tmp_path):
    (tmp_path / "发酵.md").write_text("# 发酵\n\n为什么冬天的面团总是发得特别慢？\n\n温度和酵母用量哪个影响更大？\n", encoding="utf-8")
    (tmp_path / "酵母.md").write_text("# 酵母\n\n酵母在低温下活性很弱，面团发得就慢。\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    found = central_sentence(ws.index, "发酵.md", ws.index.paragraphs["发酵.md"])
    assert found is not None and found[0].endswith("？")
    # a note with a statement seeds from the statement, not from its question
    (tmp_path / "酵母.md").write_text("# 酵母\n\n酵母在低温下活性很弱，面团发得就慢。\n\n那冰箱里的面团还能发吗？\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    assert central_sentence(ws.index, "酵母.md", ws.index.paragraphs["酵母.md"])[0] == "酵母在低温下活性很弱，面团发得就慢。"


def test_a_japanese_sentence_of_kana_alone_neither_seeds_nor_stops_the_walk(tmp_path):
    # Written in hiragana alone, the first sentence has no word the index weighs; it once divided by zero, and every
    # walk that met such a note as a seed or an item ended in a crash.
    (tmp_path / "日記.md").write_text("# 日記\n\nそれはとてもおもしろいことだとおもうけれど、どうかな。\n\n"
                                      "京大式カードで読書ノートを続ける方法を試した。\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    found = central_sentence(ws.index, "日記.md", ws.index.paragraphs["日記.md"])
    assert found is not None and found[0].startswith("京大式カード")


def test_a_line_that_leads_in_with_a_colon_ends_before_the_next_line():
    # "Shown as a picture:", the picture, then the sentence: reading view shows them on lines of their own, and the
    # sentence alone is what the note says.
    chinese = "# 齐普夫\n\n用图像表示为：\n![[图.png]]\n词频和它的排名大致成反比，排第一的词出现次数约是第二的两倍。\n"
    (paragraph,) = paragraphs_of(chinese, parse_note("齐普夫.md", chinese))
    assert sentences(paragraph.text) == ["用图像表示为：", "词频和它的排名大致成反比，排第一的词出现次数约是第二的两倍。"]
    english = "# Zipf\n\nAs a chart:\n![[chart.png]]\nThe second word is used half as often as the first.\n"
    (paragraph,) = paragraphs_of(english, parse_note("Zipf.md", english))
    assert sentences(paragraph.text) == ["As a chart:", "The second word is used half as often as the first."]


def test_three_weekly_runs_keep_the_planted_pairs_quoted_in_whole_chinese_sentences(walked_zh):
    records = {r.data["title"]: r.data for r in PoolStore(walked_zh).records("active")}
    assert records["免揉面包 ↔ 手擀面醒面"]["kind"] == "missing-link"  # 面筋 and 水合, in two notes that never link
    # The question "why does the database flood when the cache expires at night?" and the note that explains it: of the
    # threads the two notes share, as strong as any, the one from the question (缓存, 过期) makes it an answer.
    assert records["缓存过期策略 ↔ 缓存雪崩"]["kind"] == "answer"
    assert records["缓存过期策略 ↔ 缓存雪崩"]["passages"][0].startswith("为什么")
    # A compost bin fed faster than it digests and a queue fed faster than its consumers: one mechanism in two fields,
    # through 处理能力 (processing capacity), a word everyday speech seldom uses.
    analogies = {frozenset(title.split(" ↔ ")) for title, data in records.items() if data["kind"] == "analogy"}
    assert frozenset({"堆肥桶超载", "消息队列积压"}) in analogies
    ws = Workspace.open(walked_zh)
    for data in records.values():
        for ref, passage in zip(data["supporting_refs"], data["passages"]):
            assert passage.endswith(("。", "！", "？")), passage  # whole sentences
            assert passage in ref_text(ws.corpus, ws.index, ref)  # as the note reads (a link shown by its name)
        assert data["claim"].startswith(next(iter(data["title"].split(" ↔ "))))  # worded in Chinese, not English
        assert "says" not in data["claim"] and all(not s.isascii() for s in data["applies_when"])


def test_the_reports_of_a_chinese_vault_are_written_in_chinese(walked_zh):
    for report in (walked_zh / "walks" / "reports").glob("*.md"):
        text = report.read_text(encoding="utf-8")
        headings = [line for line in text.splitlines() if line.startswith("## ")]
        assert headings[:4] == ["## 种子", "## 清点", "## 候选联系", "## 批评者的否决"], report.name
        assert "出自" in text and "这次散步读了种子周围的" in text and "Notes for review" not in text
        # The critic's and the score's reasons, the far notes' reasons, the picture and the lines cited: Chinese too.
        for english in ("a reader finds", "links away", "weighted by", "The walk from", "line ", "mentioned in"):
            assert english not in text, (report.name, english)
        picture = report.with_suffix(".svg").read_text(encoding="utf-8")
        assert "从" in picture and "numbered lines" not in picture and ">near<" not in picture
    rejections = "".join(r.read_text(encoding="utf-8").split("## 批评者的否决")[1]
                         for r in (walked_zh / "walks" / "reports").glob("*.md"))
    assert "读者觉得这类配对有用的可能性是" in rejections  # the score's reason, with what counts against the pair


def test_a_link_to_lines_of_a_chinese_note_names_them_in_chinese():
    assert ref_link("编程/缓存雪崩.md#L10-L10") == "[[编程/缓存雪崩|缓存雪崩，第 10 行]]"
    assert ref_link("编程/缓存雪崩.md#L8-L12") == "[[编程/缓存雪崩|缓存雪崩，第 8–12 行]]"
    assert ref_link("Kitchen/Brining.md#L3-L3") == "[[Kitchen/Brining|Brining, line 3]]"


def test_a_word_in_two_senses_and_a_repeated_diary_line_are_never_kept(walked_zh):
    titles = {r.data["title"] for r in PoolStore(walked_zh).records()}
    assert not any("重构想法" in t and "米酒发酵" in t for t in titles)  # 发酵: an idea "maturing", and rice wine
    assert not any("2026-11-06" in t and "2026-11-15" in t for t in titles)  # "今天也记得喝水，少看手机。"


def test_a_chinese_turn_that_wonders_about_a_record_surfaces_it_and_one_that_decides_does_not(walked_zh):
    (cache,) = [r for r in PoolStore(walked_zh).records("active") if r.data["title"] == "缓存过期策略 ↔ 缓存雪崩"]
    wondering = surface(walked_zh, "我一直在琢磨，缓存没命中的时候请求都涌向数据库，是不是同一个问题？", "auto")
    assert [e["id"] for e in wondering.surfaced] == [cache.id], wondering.silent_reason
    deciding = surface(walked_zh, "今天必须决定：缓存过期时间设成多少？", "auto")
    assert deciding.surfaced == [] and "convergent" in deciding.silent_reason


def test_the_site_of_a_chinese_vault_is_searchable_by_word_and_leaves_no_jieba_cache(walked_zh, tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    # A process of its own, as a user runs it: jieba starts untouched, and TMPDIR is where it would write its cache
    # (and read one back). Material's search segments Chinese with it.
    command = [sys.executable, "-c", "from walker.cli import main; main()", "site", "build", str(walked_zh), "-o"]
    built = subprocess.run([*command, str(tmp_path / "site")],
                           env={**os.environ, "TMPDIR": str(temporary)}, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert list(temporary.iterdir()) == []
    index = json.loads((tmp_path / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any("\u200b面筋\u200b" in doc["text"] for doc in index["docs"])  # words apart, so a search finds them
    for record in PoolStore(walked_zh).records("active"):
        page = (tmp_path / "site" / "hypotheses" / f"{record.id}.html").read_text(encoding="utf-8")
        evidence = page[page.index('id="evidence"'):page.index('id="decide"')]
        assert evidence.count("<mark>") == 2 and "==" not in evidence  # each quoted sentence marked, none raw
        assert "<strong>" in evidence  # and the shared words in bold
        # the page's own words are Chinese, the commands as they are
        text = re.sub(r"<[^>]+>", "", page)
        for chinese in ("证据", "决定", "确认", "否决", "审阅者笔记", "出自散步"):
            assert chinese in text, (record.id, chinese)
        for english in ("Evidence", "Put your own words", "What each choice", "Next in queue", "From the walk of"):
            assert english not in text, (record.id, english)
        assert "walker discharge" in text and "walker reject" in text
        evidence_text = re.sub(r"<[^>]+>", "", evidence)
        assert not re.search(r"L\d+-L\d+", evidence_text)  # a passage cited by its lines names them as a reader does
        if any("#L" in ref for ref in record.data["supporting_refs"]):
            assert re.search(r"第 \d+(–\d+)? 行", evidence_text), evidence_text[:300]
    for record in PoolStore(walked_zh).records("active"):  # and the record file Obsidian opens
        body = record.path.read_text(encoding="utf-8").split("---", 2)[2]
        assert "**证据**" in body and "**适用于**" in body and "Evidence" not in body.split("## Reviewer notes")[0]


def test_every_rule_of_the_critic_has_its_chinese_sentence():
    from walker.walk.critic import RULES
    from walker.walk.report import RULES_ZH

    assert {name for name, _ in RULES} <= set(RULES_ZH)


def test_a_reports_confidence_and_impact_are_worded_in_its_language():
    from walker.walk.candidate import Candidate
    from walker.walk.report import WORDS, _survivor

    candidate = Candidate(claim="A and B rewrite each other.", supporting_refs=("A.md#L1-L1", "B.md#L1-L1"),
                          confidence="medium", impact="rewrite", impact_reason="B corrects A",
                          applies_when=("x",), never_applies_when=("y",), disconfirm_if=("z",), title="A ↔ B")
    english, chinese = (_survivor(1, candidate, "hyp-1", WORDS[language]) for language in ("en", "zh"))
    assert "**Impact**: rewrite (B corrects A)" in english and "asked to rewrite" not in english
    assert "**把握**: 中" in chinese and "**作用**: 改写" in chinese
