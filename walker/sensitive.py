"""Whether a text infers something sensitive about a person: their mind, health, gender, age, origin,
faith, sexuality, politics, family role or disability (protocol: the critic rejects such a claim).

Four readers (the guard errs on the side of refusing):

- a short lexicon, for the sentences no reader of meaning reads (below): a sentence that names a person and an
  attribute together ("the writer cannot sleep well"), states one ("… is anxious"), or reads one out of the notes
  ("suggests obsessive-compulsive tendencies"); it names which attribute. A reader of meaning reads its words in
  their sense ("a blind spot in the tests", "a race between two threads"), which the lexicon cannot;
- a fitted model over the sentence's words and, in Chinese, runs of characters (``walker.fitted``),
  trained on labelled sentences in English and Chinese and checked on sentences written apart
  (``bench/README.md``): it reads what the lexicon has no word for ("the new pills leave me foggy",
  "keeps one day a week holy");
- a reader of words, on every install: one number per word, distilled from the sentence-embedding model below
  (``bench/judgement/fit_words.py``, ``models/sensitive_words.json``): a sentence is read as the mean of its words'
  scores, each weighed by how rare the word is, so a word no labelled sentence used is read by what the encoder makes
  of it alone ("walks with a stick", "barely eaten since the funeral"); Chinese through the English glosses of its
  words. It is judged with the model of pieces, weighed by one small model per language (``models/sensitive_deep.json``,
  ``"words"``), as the reader below is;
- where ``walker[meaning]`` is installed, and only when asked to read deeply: a logistic model over each
  sentence's embedding (``walker.meaning``), fitted by ``bench/judgement/fit_meaning.py``, one for English and one
  for Chinese, which the English encoder reads as the English glosses of its words (``walker.glosses``). It reads
  what no piece of a sentence says ("lies awake most nights", 每到深夜就翻来覆去 read as "each reach very late at
  night in that case again and again"). An embedding costs about 16 ms, so it reads the few fields the critic
  judges, a seed given in words, and what surfacing shows, not every sentence of a vault. A sentence it reads is
  judged by its reading and the model of pieces' together, weighed by one small model per language
  (``models/sensitive_deep.json``, fitted by ``bench/judgement/fit_deep.py`` on sentences neither reader was fitted
  on): two readers each refusing on its own refuse more innocent sentences, and miss more, than the two weighed.

Quoting a note's own sentence is not an inference, so the caller shows quotations of the cited passages as “…”
first (no reader reads a piece of it).
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from importlib import resources
from typing import NamedTuple

from walker.fitted import MAX_CHARS, bad_chance, chance
from walker.glosses import english_gloss
from walker.meaning import model_folder, vectors
from walker.words import has_cjk, is_chinese

# Cues, not only names of conditions: "cannot sleep" says insomnia, "over sixty" says age.
_ATTRIBUTES = {
    "psychological": r"anxious|anxiety|depress\w*|adhd|autis\w*|bipolar|neurotic|narcissis\w*|trauma\w*|insecur\w*|"
                     r"obsessive\w*|compulsive|ocd|burn(?:ed|t)?[ -]?out|mental(?:ly)? (?:ill\w*|health)|lonel\w*|"
                     r"introvert\w*|extravert\w*|personality (?:type|disorder)|perfectionis\w*|exhaust(?:ed|ion)|"
                     r"overwhelmed|stressed(?: out)?|grie(?:f|ving)|panic\w*|phobi\w*|paranoi\w*|self-esteem|"
                     r"emotional(?:ly)? (?:unstable|fragile)|neurodivergent|low mood",
    "medical": r"ill|illness|sick\w*|disease|diagnos\w*|disorders?|medicat\w*|therap(?:y|ist)|pregnan\w*|cancer|"
               r"diabet\w*|chronic\w*|insomnia\w*|sleepless\w*|(?:can ?not|can't|cannot|unable to|struggles? to) "
               r"sleep|sleeps? (?:badly|poorly|well)|fatigue\w*|pain|injur\w*|surgery|hospital\w*|addict\w*|"
               r"alcoholi\w*|overweight|obes\w*|eating disorder|symptoms?|health (?:problem|issue|condition)s?|"
               r"recover(?:ing|y) from",
    "gender": r"gender\w*|woman|women|female|male|feminine|masculine|transgender|non-binary|nonbinary|girl|boy",
    "age": r"elderly|\d+ years old|aged \d+|over (?:fifty|sixty|seventy|eighty|\d0)|in (?:his|her|their) "
           r"(?:twenties|thirties|forties|fifties|sixties|seventies|eighties)|too old|too young|getting older|"
           r"teenager\w*|boomer\w*|millennial\w*|gen ?z|middle-aged|retire(?:d|e|ment)|pensioner",
    "ethnicity": r"ethnic\w*|race|racial|immigrant\w*|heritage|african|asian|hispanic|latin[oax]|arab|jewish|"
                 r"(?:black|white|brown) (?:people|person|man|woman|men|women|family)",
    "religion": r"religio\w*|christian\w*|muslim\w*|hindu\w*|buddhist\w*|atheis\w*|catholic\w*|protestant\w*|"
                r"faith|believer|devout|prays?|praying|church|mosque|synagogue",
    "sexuality": r"gay|lesbian|bisexual|homosexual|heterosexual|queer|sexual orientation|sexuality",
    "politics": r"politic\w*|liberal|conservative|left-wing|right-wing|socialist|communist|voters?|partisan",
    "family role": r"mother\w*|mom|mum|father\w*|dad|parenthood|parenting|(?:a|as a|single|new) parent|wife|"
                   r"husband|spouse|married|marriage|divorc\w*|widow\w*|childless|grand(?:mother|father|parent)s?|"
                   r"caregiver|son|daughter",
    "disability": r"disab\w*|handicap\w*|blind|deaf|wheelchair|dyslexi\w*|impair\w*",
}
_ATTRIBUTES_ZH = {
    "psychological": "焦虑|抑郁|强迫症|心理问题|精神(?:疾病|问题|状态)|倦怠|疲惫|崩溃|孤独|自卑|压力很?大",
    "medical": "失眠|睡不好|睡不着|生病|疾病|患有|病人|病情|吃药|治疗|怀孕|癌|糖尿病|慢性病",
    "gender": "女性|男性|性别|女人|男人",
    "age": r"\d+岁|[一二三四五六七八九十]+十?多?岁|老年|中年|年纪|退休|年轻人",
    "ethnicity": "民族|种族|移民|少数族裔",
    "religion": "宗教|信仰|基督徒|穆斯林|佛教徒|信教",
    "sexuality": "同性恋|异性恋|双性恋|性取向",
    "politics": "政治立场|党员|左派|右派",
    "family role": "母亲|妈妈|父亲|爸爸|丈夫|妻子|离婚|单亲|当妈|为人父母",
    "disability": "残疾|失明|失聪|残障",
}
_PERSON = re.compile(
    r"(?i:\b(?:the (?:user|author|writer|owner|reader|note-?taker)|users?|authors?|writers?|you|your|he|she|him|her|"
    r"his|hers|someone|somebody|anyone|this person|a person|people|i|me|my|we|us|our)\b)"
    r"|\b[A-Z][a-z]+'s\b|\b[A-Z][a-z]+ (?=(?:is|has|had|was|seems|may|might|must|appears|feels)\b)"
    r"|用户|作者|笔者|他们|她们|他|她|你|我|这个人|此人|某人"
)
# Reading an attribute out of something: "suggests", "reveals", "a sign of"; or stating one: "is …".
_READS = re.compile(
    r"\b(?:suggests?|suggesting|reveals?|revealing|indicates?|indicating|implies|implying|betrays?|hints? at|"
    r"points? to|signals?|a sign (?:of|that)|shows? that|tells? us|speaks? to|reflects?|is consistent with|"
    r"must (?:be|have)|probably|likely)\b"
    r"|\b(?:is|are|was|were|be|been|being|seems?|feels?|looks?|reads?|sounds?|became|becomes|gets?|got|has|have)\s+(?:[\w'-]+\s+){0,2}$"
    r"|说明|表明|显示|意味着|看得?出|可能是|似乎|应该是",
    re.IGNORECASE,
)
_CUES = [(kind, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for kind, words in _ATTRIBUTES.items()]
_CUES += [(kind, re.compile(words)) for kind, words in _ATTRIBUTES_ZH.items()]



def sensitive_inference(text: str, deep: bool = False, notes: bool = False) -> str | None:
    """"a medical attribute: “the sentence”" when a sentence of ``text`` infers one about a person, else None.
    ``deep`` asks a reader of meaning too: the sentence-embedding model where it is installed, else the reader of
    words. A sentence the first reads is not read by the lexicon, whose words it reads in their sense ("a blind spot
    in the tests", "a race between two threads"). ``notes``: the text is the notes' own (a passage a hypothesis
    quotes), which the reader of words does not read: on the short lines of real notes ("document", "Fed Clint
    twice") it refuses one sentence in twenty to fifty, so it reads only what a walk or a person writes."""
    if not deep:
        return lexicon_inference(text) or model_inference(text)
    shown = _read_by_meaning(text)
    read = {sentence for sentence, _, _ in shown}
    unread = " ".join(s for s in _sentences(text) if s.strip() not in read)
    return lexicon_inference(unread) or (model_inference if notes else words_inference)(unread) or _meaning_verdict(shown)


def words_inference(text: str) -> str | None:
    """The first sentence the reader of words and the model of pieces, weighed, read as saying something sensitive
    about a person, or None. A sentence the reader of words cannot read (Japanese, or no word it knows) is judged by
    the model of pieces alone."""
    for sentence in _first_sentences(text):
        language = language_of(sentence)
        words = words_logit(sentence, language) if language else None
        weigh = weighing(language, WORDS) if language else None
        if words is None or weigh is None:
            if found := model_inference(sentence):
                return found
            continue
        if (likely := weigh.chance(_piece_chance(sentence), _sigmoid(words))) >= weigh.threshold:
            return f"a sensitive attribute ({likely:.0%} by the reader of words with the model of pieces): “{sentence}”"
    return None


def model_inference(text: str) -> str | None:
    """The first sentence the fitted model reads as saying something sensitive about a person, or None."""
    for sentence in _sentences(text):
        if (found := bad_chance("sensitive", sentence)) is not None:
            return f"a sensitive attribute ({found:.0%} by the fitted model): “{sentence.strip()}”"
    return None


class MeaningModel(NamedTuple):
    weights: tuple[float, ...]  # one per axis of the embedding
    bias: float
    threshold: float


class Weighing(NamedTuple):
    """How the two readers of a sentence are weighed: a logistic model over their log-odds."""
    pieces: float
    meaning: float
    bias: float
    threshold: float

    def chance(self, pieces: float, meaning: float) -> float:
        return _sigmoid(self.pieces * _logit(pieces) + self.meaning * _logit(meaning) + self.bias)


MEANING_MODELS = {"en": "sensitive_meaning.json", "zh": "sensitive_meaning_zh.json"}  # a reader for each language
WEIGHING = "sensitive_deep.json"  # for each language, how its reader of meaning and the model of pieces are weighed
WORDS_MODEL = "sensitive_words.json"
WORDS = "words"  # the weighing's entry for the reader of words (the reader of meaning's is the file's top level)
WORD = re.compile(r"[a-z]+(?:['-][a-z]+)*")  # a word as the reader of words reads it, lower-cased


class WordsModel(NamedTuple):
    """Per word, its weight (how rare it is) and its score in each language; per language a bias, and how the weighed
    mean and the strongest word are read together (weight of each, and a bias)."""
    position: dict[str, int]  # each word's place in the lists below
    weights: tuple[float, ...]
    scores: dict[str, tuple[float, ...]]
    bias: dict[str, float]
    pooled: dict[str, tuple[float, float, float]]


@cache
def words_model() -> WordsModel | None:
    """The reader of words, shipped as data (walker/models/), or None."""
    path = resources.files("walker") / "models" / WORDS_MODEL
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    languages = [language for language in MEANING_MODELS if language in data]
    return WordsModel({word: i for i, word in enumerate(data["words"])}, tuple(map(float, data["weights"])),
                      {language: tuple(map(float, data[language]["scores"])) for language in languages},
                      {language: float(data[language]["bias"]) for language in languages},
                      {language: tuple(float(data[language]["pooled"][k]) for k in ("mean", "top", "bias"))  # type: ignore[misc]
                       for language in languages if "pooled" in data[language]})


def language_of(sentence: str) -> str | None:
    """The language a reader of meaning reads a sentence in: "zh", "en", or None (Japanese, Korean: not read)."""
    return "zh" if is_chinese(sentence) else None if has_cjk(sentence) else "en"


def read_in_english(sentence: str, language: str) -> str | None:
    """What an English reader reads of a sentence: itself, or a Chinese one's English glosses."""
    return sentence if language == "en" else english_gloss(sentence)


def words_logit(sentence: str, language: str) -> float | None:
    """The reader of words' log-odds that ``sentence`` (in ``language``) says something sensitive about a person: the
    weighed mean of its words' scores read with the strongest word's (one word can say it: "mosque" among eight
    ordinary ones); None where it knows none of its words."""
    model = words_model()
    if model is None or language not in model.scores or not (read := read_in_english(sentence, language)):
        return None
    found = [model.position[word] for word in WORD.findall(read.lower()) if word in model.position]
    if not found:
        return None
    scores, weights, bias = model.scores[language], model.weights, model.bias[language]
    mean = sum(weights[i] * scores[i] for i in found) / sum(weights[i] for i in found) + bias
    if language not in model.pooled:
        return mean
    on_mean, on_top, pooled_bias = model.pooled[language]
    return on_mean * mean + on_top * (max(scores[i] for i in found) + bias) + pooled_bias


@cache
def meaning_model(language: str = "en") -> MeaningModel | None:
    """The reader of meaning's weights for sentences in ``language``, shipped as data (walker/models/), or None."""
    path = resources.files("walker") / "models" / MEANING_MODELS[language]
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return MeaningModel(tuple(map(float, data["weights"])), float(data["bias"]), float(data["threshold"]))


@cache
def weighing(language: str, reader: str = "") -> Weighing | None:
    """How a sentence in ``language`` read by the reader of meaning (or, with ``reader`` WORDS, by the reader of words)
    is judged with the model of pieces, or None (each refuses alone)."""
    path = resources.files("walker") / "models" / WEIGHING
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    found = (data.get(reader) or {}).get(language) if reader else data.get(language)
    return Weighing(*(float(found[k]) for k in Weighing._fields)) if found else None


def meaning_inference(text: str) -> str | None:
    """The first sentence the reader of meaning reads as saying something sensitive about a person, or None (also
    where the model is not installed). An English sentence is read as written, a Chinese one as the English glosses
    of its words (``walker.glosses``) by a reader fitted on Chinese sentences read so; Japanese is not read. A text is
    read as far as a field is (MAX_CHARS): each sentence costs an embedding, and a seed or a hand-written record may
    be any length."""
    return _meaning_verdict(_read_by_meaning(text))


def _meaning_verdict(shown: list[tuple[str, str, str]]) -> str | None:
    """The first of the sentences ``_read_by_meaning`` found that is read as sensitive, or None: by its reader of
    meaning and the model of pieces weighed together, or, with no weighing for its language, by either alone."""
    if not shown or (embedded := vectors([read for _, read, _ in shown])) is None:
        return None
    for (sentence, _, language), vector in zip(shown, embedded):
        model = meaning_model(language)
        if model is None or len(vector) != len(model.weights):
            return None  # weights fitted on another encoder mean nothing here
        meaning = _sigmoid(float(vector @ model.weights) + model.bias)
        if weigh := weighing(language):
            likely = weigh.chance(_piece_chance(sentence), meaning)
            if likely >= weigh.threshold:
                return f"a sensitive attribute ({likely:.0%} by the reader of meaning with the model of pieces): “{sentence}”"
        elif found := model_inference(sentence):
            return found
        elif meaning >= model.threshold:
            return f"a sensitive attribute ({meaning:.0%} by the reader of meaning): “{sentence}”"
    return None


def _read_by_meaning(text: str) -> list[tuple[str, str, str]]:
    """Each sentence a reader of meaning reads, what the encoder reads of it, and its language (none where the
    encoder is not installed)."""
    if model_folder() is None:
        return []
    shown = []
    for sentence in _first_sentences(text):
        language = language_of(sentence)
        if language is None or meaning_model(language) is None:
            continue
        if read := read_in_english(sentence, language):
            shown.append((sentence, read, language))
    return shown


def _piece_chance(sentence: str) -> float:
    return chance("sensitive", sentence) or 0.0


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


# A sentence ends at a terminator before a space or a capital (not inside "Questions.md" or "3.5"), at one closed by a
# quotation mark or bracket, and at a closing quotation mark before a capital or a Chinese character: in a claim
# whose quotations are shown as “…”, the next sentence starts after one ("… adds “…” Whoever wrote this is tired").
_SENTENCE_END = re.compile(r"(?<=[.!?;])(?:\s+|(?=[A-Z]))|(?<=[.!?;][”\"’»)])\s+|(?<=[”\"’»])\s+(?=[A-Z\u4e00-\u9fff])|(?<=[。！？；])\s*")


def _first_sentences(text: str) -> list[str]:
    """The sentences of ``text`` a reader of meaning reads: as far as a field is (MAX_CHARS), each whole. The sentence
    the bound cuts is left out ("The bed was mulc" reads as another sentence), unless it is the only one."""
    said = [s.strip() for s in _sentences(text[:MAX_CHARS])]
    return said[:-1] if len(text) > MAX_CHARS and len(said) > 1 else said


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def lexicon_inference(text: str) -> str | None:
    """What the lexicon reads: a person and an attribute together, or an attribute read out of the notes."""
    for sentence in _sentences(text):
        person = _PERSON.search(sentence)
        for kind, cue in _CUES:
            for match in cue.finditer(sentence):
                before = sentence[: match.start()]
                if person or _READS.search(before):
                    article = "an" if kind[0] in "aeiou" else "a"
                    return f"{article} {kind} attribute: “{sentence.strip()}”"
    return None
