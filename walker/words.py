"""A text's words, whatever script it is written in: the one tokenizer that the index, threads, key phrases, the
critic and surfacing share. (The turn classifier reads runs of characters itself: a hook must not wait for a
dictionary.)

- Alphabetic scripts (Latin, Cyrillic, Greek, Korean…): words of three letters or more, no digits, as before.
- Chinese: a run of Han characters is segmented by jieba's own dictionary, shipped inside the package (it is
  read once per process, only when a text holds Chinese, and never cached to disk), and its words of two
  characters or more are kept. A single character is mostly grammar (的, 了, 是), as a two-letter English word is.
- Japanese: a text that holds kana is Japanese, and its runs of Han and kana are segmented by MeCab (fugashi) with
  the UniDic-lite dictionary, shipped inside its package (loaded once per process, only when a text holds kana);
  nouns in a row are one word (議事録, 機械学習). A word of hiragana alone is grammar or an inflection (の, ます, する)
  and is left out, as a single character is.

"Everyday" words are the ones a language uses more than once in 10,000 words (wordfreq's Zipf 5), the same line
in every language: a thread of everyday words is no thread.
"""

from __future__ import annotations

import io
import logging
import math
import re
from collections.abc import Container
from functools import cache, lru_cache
from typing import Any, NamedTuple

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
KANA = "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"
# Word characters outside Han and kana, so that "用Redis做缓存" gives "redis" as well as its Chinese words.
_LETTERS = rf"[^\W\d_{HAN}{KANA}]"
_WORD_CHAR = rf"[^\W{HAN}{KANA}]"
# Three letters or more, no digits, not right after a backslash: "\underline" and "\frac" in a formula are commands
# of its markup (Obsidian renders $…$ as math), not words a person wrote.
TOKEN_PATTERN = rf"(?<!\\)(?<!{_WORD_CHAR}){_LETTERS}{{3,}}(?!{_WORD_CHAR})"
_LATIN = re.compile(TOKEN_PATTERN)
_TOKEN = re.compile(rf"{TOKEN_PATTERN}|(?P<cjk>[{HAN}{KANA}]+)")
_ANY_LENGTH = re.compile(rf"(?<!\\)(?<!{_LETTERS}){_LETTERS}+|(?P<cjk>[{HAN}{KANA}]+)")
_CJK = re.compile(f"[{HAN}{KANA}]")
_CJK_RUNS = re.compile(f"[{HAN}{KANA}]+")
_KANA = re.compile(f"[{KANA}]")
_KANA_LETTER = re.compile("[\u3041-\u3096\u30a1-\u30fa]")  # a text with one is Japanese (not ・ alone, which Chinese uses)
_HIRAGANA_WORD = re.compile("[\u3040-\u309f\u30fc]+")  # hiragana alone (and the long-vowel mark)
# Han characters segmented in one text: jieba reads about 0.3 MB a second, and a paragraph longer than a chapter
# (a pasted book, a hostile note) is read this far, in bounded time. 100,000 characters take about a second.
MAX_SEGMENTED = 100_000
# A run of Han characters longer than this, with no punctuation in it, is no sentence: jieba guesses the words of
# characters its dictionary lacks with a model (HMM) that takes time in the square of the run's length (100,000 of one
# rare character: 36 s), so such a run is cut by the dictionary alone, in time in proportion.
LONGEST_SENTENCE = 500
EVERYDAY_ZIPF = 5.0  # wordfreq's scale: 5 is once in 10,000 words ("middle", "public", "report"; 今天, 问题)


def words(text: str) -> list[str]:
    """The words of ``text`` that can mean something, lower-cased, in the order they are written."""
    lowered = text.lower()
    if lowered.isascii() or not _CJK.search(lowered):
        return _LATIN.findall(lowered)  # most texts: one pass of one pattern, as before
    return _split(lowered, _TOKEN, 2, grammar=False)


def known_words(text: str, known: Container[str], longest: int = 8) -> list[str]:
    """The words of ``text`` that ``known`` holds (a vault's vocabulary), read without jieba: a run of Chinese is
    matched against ``known`` itself, the longest known word first, left to right. A hook reads every turn of a
    conversation, and loading a dictionary would cost it half a second a turn."""
    lowered = text.lower()
    if lowered.isascii() or not _CJK.search(lowered):
        return [w for w in _LATIN.findall(lowered) if w in known]
    out = [w for w in _LATIN.findall(_CJK_RUNS.sub(" ", lowered)) if w in known]
    for run in _CJK_RUNS.findall(lowered):
        at = 0
        while at < len(run):
            size = next((n for n in range(min(longest, len(run) - at), 1, -1) if run[at : at + n] in known), 1)
            if size > 1:
                out.append(run[at : at + size])
            at += size
    return out


def tokens(text: str) -> list[str]:
    """Every word of ``text``, short ones and grammar too, lower-cased: what stands next to what."""
    return _split(text.lower(), _ANY_LENGTH, 1, grammar=True)


def phrase(parts: list[str] | tuple[str, ...]) -> str:
    """Words written as a phrase: with spaces between words of alphabetic scripts, none between Chinese ones."""
    out = ""
    for part in parts:
        out += part if out and _CJK.match(part) and _CJK.match(out[-1]) else f" {part}" if out else part
    return out


def _split(lowered: str, pattern: re.Pattern[str], shortest: int, grammar: bool) -> list[str]:
    out: list[str] = []
    segmented = 0
    segment = _segment_japanese if _KANA_LETTER.search(lowered) else _segment
    for match in pattern.finditer(lowered):
        run = match.group("cjk")
        if run is None:
            out.append(match.group(0))
        elif segmented < MAX_SEGMENTED:
            run = run[: MAX_SEGMENTED - segmented]
            segmented += len(run)
            out.extend(w for w in segment(run) if len(w) >= shortest and (grammar or not _HIRAGANA_WORD.fullmatch(w)))
    return out


def _segment_japanese(run: str) -> list[str]:
    """A run of Japanese (Han and kana) as words, as written. UniDic cuts a compound into short units (議事録: 議事, 録;
    機械学習: 機械, 学習): nouns in a row are one word, so a term of art is one rare word, not two everyday ones."""
    out: list[str] = []
    joining = False
    for word in _japanese()(run):
        part = (word.feature.pos1, word.feature.pos2)
        noun = part[0] == "名詞" or part == ("接尾辞", "名詞的")  # 録 of 議事録, 者 of 研究者
        if noun and joining:
            out[-1] += word.surface
        else:
            out.append(word.surface)
        joining = noun
    return out


@cache
def _japanese() -> Any:
    """MeCab, through fugashi, over the UniDic-lite dictionary its package ships (a twentieth of a second to load)."""
    import fugashi

    return fugashi.Tagger()


def _segment(run: str) -> list[str]:
    """A run of Han characters as words, as written. Traditional characters are segmented in their simplified
    form, which jieba's dictionary knows, and given back as written: the mapping is one character for one."""
    simple = _simplified(run)
    guess = len(run) <= LONGEST_SENTENCE
    if simple == run:
        return list(_dictionary().tokenizer.cut(run, HMM=guess))
    out, at = [], 0
    for word in _dictionary().tokenizer.cut(simple, HMM=guess):
        out.append(run[at : at + len(word)])
        at += len(word)
    return out


def _simplified(text: str) -> str:
    from wordfreq.chinese import SIMPLIFIED_MAP  # wordfreq's own table, one character for one

    return text.translate(SIMPLIFIED_MAP)


_WIDE_SPACE = re.compile(r"(?<=[。！？；，：、])\s+")  # Chinese writes no space after its punctuation


def normal(text: str) -> str:
    """Lower case, quotes and emphasis marks removed, spaces collapsed: for finding a phrase in a passage."""
    return " ".join(_WIDE_SPACE.sub("", re.sub(r"[“”\"'‘’`*_]", "", text)).lower().split())


def has_cjk(text: str) -> bool:
    return not text.isascii() and bool(_CJK.search(text))


def has_kana(text: str) -> bool:
    return bool(_KANA_LETTER.search(text))


def is_chinese(text: str) -> bool:
    """Text written in Chinese: Han characters and no kana (Japanese keeps the English wording)."""
    return has_cjk(text) and not has_kana(text)


def word_count(text: str) -> float:
    """How long a text is, in words: a space-separated word counts one, and so does every two characters of
    Chinese or Japanese, written without spaces (a word of Chinese is about two characters)."""
    if not has_cjk(text):
        return len(text.split())
    cjk = len(_CJK.findall(text))
    return cjk / 2 + len(_CJK.sub(" ", text).split())


def is_short(word: str) -> bool:
    """Too short to carry a thread: under four letters, or a single character of Chinese or Japanese."""
    return len(word) < 2 if _CJK.match(word) else len(word) < 4


def is_everyday(word: str) -> bool:
    """Whether everyday language uses this word more than once in 10,000 words, in its own language."""
    return zipf(word) >= EVERYDAY_ZIPF


def zipf(word: str, latin: str = "en") -> float:
    """How common a word (or a phrase) is in its own language, on wordfreq's Zipf scale: the language its script
    is written in (``_SCRIPTS``: Cyrillic is read as Russian, Greek as Greek…), ``latin`` for the Latin alphabet
    (English unless the text it comes from says otherwise: ``latin_language``)."""
    if _CJK.match(word):
        return _zipf(_simplified(word), "ja" if _KANA.search(word) else "zh")
    language = next((language for script, language in _SCRIPTS if script.search(word)), latin)
    if language == "en":
        from wordfreq import zipf_frequency  # 0.25 s to load: when first asked, not on import

        return zipf_frequency(word, "en")
    # read from the list directly, as for Chinese: wordfreq's own lookup would need a tokenizer for some of these
    return _phrase_zipf([_frequency(part, language) for part in word.lower().split()], written_apart=True)


def latin_language(text: str) -> str:
    """The language of the Latin-alphabet words of ``text``: of LATIN_LANGUAGES, the one whose everyday words make
    up the most of them ("oder", "wenn" and "und" are German), if clearly more than English's; else English."""
    said = _LATIN_WORD.findall(text.lower())  # short words too: "la", "de", "und" tell a language best
    if not said:
        return "en"
    share = {language: sum(_frequency(w, language) >= 10 ** (EVERYDAY_ZIPF - 9) for w in said) / len(said)
             for language in LATIN_LANGUAGES}
    best = max(share, key=lambda language: (share[language], language == "en"))
    return best if share[best] > share["en"] + 0.1 else "en"


def is_everyday_phrase(parts: list[str]) -> bool:
    """Whether a run of Chinese or Japanese words is everyday as a whole, as wordfreq reckons a phrase written
    without spaces: the rarer part dominates (1/f = 1/f1 + 1/f2 …), and each break between parts is ten times
    rarer still. 处理 and 能力 are everyday words; 处理能力 (processing capacity) is not."""
    language = "ja" if any(_KANA.search(p) for p in parts) else "zh"
    return _phrase_zipf([_frequency(_simplified(p), language) for p in parts], written_apart=False) >= EVERYDAY_ZIPF


def _phrase_zipf(frequencies: list[float], written_apart: bool) -> float:
    """The Zipf value of a phrase from its words' frequencies, as wordfreq combines them: the rarer word dominates
    (1/f = 1/f1 + 1/f2 …), and in a script written without spaces each break between words is ten times rarer
    still. 0 when a word is unknown."""
    if not frequencies or not all(frequencies):
        return 0.0
    breaks = 0 if written_apart else len(frequencies) - 1
    return math.log10(1 / sum(1 / f for f in frequencies) / 10 ** breaks * 1e9)


def is_grammar(word: str) -> bool:
    """A Chinese word that jieba's dictionary tags as grammar rather than content: a pronoun, adverb, conjunction,
    preposition, particle, numeral, measure word, word of place, modal or interjection (这个, 已经, 因为,
    以后). It is to Chinese what "this", "already" and "because" are to English: never a thread."""
    return _simplified(word) in _dictionary().grammar


def is_verb(word: str) -> bool:
    """Whether jieba's dictionary tags a Chinese word as a verb."""
    return _simplified(word) in _dictionary().verbs


def has_verb(text: str) -> bool:
    """Whether a Chinese text holds a word jieba's dictionary tags as a verb: a statement, not a label. 是 and 有,
    the verbs Chinese statements use most, count inside the words the segmenter fuses them into (这是, 没有)."""
    found = _dictionary()
    return any(word in found.verbs or "是" in word or "有" in word
               for run in _HAN_RUN.findall(_simplified(text)) for word in found.tokenizer.cut(run))


_HAN_RUN = re.compile(f"[{HAN}]+")
# Languages of the Latin alphabet whose everyday words tell them apart (wordfreq's lists); others read as English.
LATIN_LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "nl", "pl")
_LATIN_WORD = re.compile(r"[a-zà-ÿąćęłńóśźżœß]+")
# Alphabets whose words wordfreq can weigh, each as the language most written in it.
_SCRIPTS = ((re.compile("[\u0400-\u04ff]"), "ru"), (re.compile("[\u0370-\u03ff]"), "el"),
            (re.compile("[\uac00-\ud7af]"), "ko"), (re.compile("[\u0590-\u05ff]"), "he"),
            (re.compile("[\u0600-\u06ff]"), "ar"))
_GRAMMAR = frozenset("r rr rz ry d c p u uj ul m mq q f y e o ad".split())


def _zipf(word: str, language: str) -> float:
    """wordfreq's Zipf value read from its list directly: its own lookup would segment the word again, with a
    second dictionary that it caches in the temporary folder."""
    frequency = _frequency(word, language)
    return math.log10(frequency * 1e9) if frequency > 0 else 0.0


def _frequency(word: str, language: str) -> float:
    return (_small_list(language) if language in LATIN_LANGUAGES else _large_list(language)).get(word, 0.0)


@lru_cache(maxsize=len(LATIN_LANGUAGES))
def _small_list(language: str) -> dict[str, float]:
    """For the Latin alphabet's languages, read for their everyday words: wordfreq's small lists (30,000 to 50,000
    words, 0.03 s apiece to read; the large ones take 2 s and 300 MB for the eight)."""
    from wordfreq import get_frequency_dict

    return get_frequency_dict(language, wordlist="small")


@lru_cache(maxsize=2)
def _large_list(language: str) -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict(language)


class _Dictionary(NamedTuple):
    tokenizer: Any  # jieba.Tokenizer
    grammar: frozenset[str]  # words the dictionary tags as grammar (_GRAMMAR)
    verbs: frozenset[str]  # words it tags as verbs


def keep_jieba_in_memory() -> None:
    """Make jieba's first use in this process build it in memory, as walker does. MkDocs Material's search segments
    Chinese with jieba's own tokenizer, whose first use reads a cache file from the temporary folder with marshal
    and writes one there."""
    try:
        import jieba
    except ImportError:
        return
    jieba.dt.initialize = lambda *args, **kwargs: _dictionary() and None


@lru_cache(maxsize=1)
def _dictionary() -> _Dictionary:
    """jieba's tokenizer (the process's own, which MkDocs Material's search uses too) over the dictionary its
    package ships, built in memory (half a second), and the parts of speech the dictionary's third column gives.
    jieba's usual start writes a cache file into the temporary folder and reads it back with marshal: neither
    happens here."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.dt
    with tokenizer.get_dict_file() as dictionary:
        lines = dictionary.read()
    tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(io.BytesIO(lines))
    tokenizer.initialized = True
    grammar, verbs = set(), set()
    for line in lines.decode("utf-8").splitlines():
        entry, _, tag = line.rpartition(" ")
        word = entry.rpartition(" ")[0]
        if tag in _GRAMMAR:
            grammar.add(word)
        elif tag.startswith("v"):
            verbs.add(word)
    return _Dictionary(tokenizer, frozenset(grammar), frozenset(verbs))


# English words too plain to carry a thread between two passages, whatever their weight in a vault.
PLAIN_WORDS = frozenset(
    """able add added adds again ago almost along already also always another answer anything anyway
    around away back bad bag best better big bit came case change changes come comes coming day days
    did different does doing done down each early easy end ends enough even ever every fact far feel
    feels fine first five found four full get gets getting give given gives goes going good got great
    half hand happen happens hard head help high hold holds home hour hours idea instead just keep keeps
    kind know large last late later left less let life like likes line little long look looks lot lots
    low made main make makes making many matter maybe mean means might minute minutes mostly much must
    need needs new next nice night nothing now number off often old once one ones open order part parts
    past people place play point put quite rather real really right room run said same saw say says second
    see seem seems set sets short show side small some something sometimes soon start starts still stop
    sure take takes taking tell ten than thing things think third three time times today told too took
    top tried true try turn turned turns two under until use used uses using very want wants way ways week
    weeks well went whole why word words work works year years yes yet
    above below following section sections example examples introduction introductory material scope outside
    conjunction detail details information overview describe describes described explain explains explained
    mention mentioned useful various within without whilst amongst unless
    understand understanding understood behaviour behaviours behavior behaviors recognise recognises recognised
    recognize recognizes recognized""".split()
)

# Words that join any phrase to anything: "the middle" and "in the middle" are not one phrase.
GLUE = frozenset("""a an and are as at be by for from has have in into is it its of on or so that the their then
    there these this those to was were which who with""".split())


def stems(text: str) -> frozenset[str]:
    """The stems of a text's words: what two texts compare when the form of a word should not matter."""
    return frozenset(stem(w) for w in words(text))


def stem(word: str) -> str:
    """branch/branches, device/devices, store/stored, notify/notified: enough of a word's form to match its other forms
    in English."""
    if word.endswith(("ies", "ied")) and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("sses", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us", "is")):
            word = word[: -len(suffix)] + ("ss" if suffix == "sses" else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word
