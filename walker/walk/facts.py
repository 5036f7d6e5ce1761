"""Facts a claim names that its cited passages do not hold (the protocol: a walk may not introduce
material the vault does not contain): names, numbers, quotations, links, words rare in their language,
citations, conclusions said to be reached before and sources the claim leans on (``walk.attribution``), each found
by its shape. A number reckoned from the passages' own numbers is held by them; a quotation in Chinese of English
passages is a translation, read as the claim's own words. A model of a source the claim leans
on (``walker.fitted``, ``outside_source``) is fitted and measured, and not used yet (bench/README.md).

What else a claim may add that neither passage says (general knowledge, a proverb, a method left unnamed) is
not read: a model of the claim's words its passages lack (``bench/judgement/fit.py outside_fact``) was right on
three items in four written apart, and refused most good paraphrases a person writes, so the gate does not use it."""

from __future__ import annotations

import bisect
import math
import re

import numpy as np
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from walker.similarity import TextIndex
from walker.walk.attribution import MATERIAL, ZH_MATERIAL, leaned_on
from walker.words import PLAIN_WORDS, has_cjk, is_grammar, is_verb, normal, stem, tokens, words, zipf

QUOTED = re.compile(r"[“\"]([^”\"]{3,})[”\"]")


def absent_facts(claim: str, haystack: str, titles: set[str], index: TextIndex | None = None) -> str | None:
    """Why ``claim`` names what the passages (``haystack``, normalised) and note ``titles`` do not, or None."""
    missing: list[str] = []
    for quote in QUOTED.findall(claim):
        if not _translated(quote, haystack) and normal(quote).rstrip(".") not in haystack:
            missing.append(f"“{quote}”")
    unquoted = QUOTED.sub(lambda m: m.group(0) if _translated(m.group(1), haystack) else " ", claim)
    titled = {n for title in titles for n in _NUMBER.findall(title)}  # the daily note 2026-10-31 gives "31"
    unsaid = [n for n in _NUMBER.findall(unquoted) if n not in haystack and n not in titled]
    if unsaid:  # reckoned only for a claim that needs it: the gate reads every candidate
        missing += _unreckoned(unsaid, haystack)
    for term in _capitalised_terms(unquoted):
        term = _POSSESSIVE.sub("", term)  # "Priya's" is Priya
        if term in ("I",) or normal(term) in haystack or normal(term) in titles or _dated(term, haystack, titles):
            continue
        if all(normal(word) in haystack or normal(word) in " ".join(titles) for word in term.split()):
            continue
        missing.append(term)
    for target in _WIKILINK.findall(claim):
        if normal(target.rsplit("/", 1)[-1]) not in titles:
            missing.append(f"[[{target}]]")
    missing += [p for p in _PROTOCOL_TERMS.findall(claim) if normal(p) not in haystack]
    missing += _citations(unquoted, haystack, titles)
    missing += [f"“{source}”" for source in leaned_on(unquoted, haystack, titles)]
    missing += [url for url in _URL.findall(claim) if normal(url) not in haystack]
    missing += _specific_words(unquoted, haystack, index)
    if missing:
        return f"names what no cited passage says: {', '.join(dict.fromkeys(missing))}"
    prior = _PRIOR_CONCLUSION.search(unquoted)
    if prior and not _CONCLUDES.search(haystack):
        return f"speaks of a conclusion no cited passage records: “{prior.group(0)}”"
    return None


def _translated(quote: str, haystack: str) -> bool:
    """A quotation in Chinese of passages that hold no Chinese is a translation: no word of it can be found as written,
    so it is read as the claim's own words, by the checks of those."""
    return has_cjk(quote) and not has_cjk(haystack)


_PROTOCOL_TERMS = re.compile(r"\bauto-?walk\b|\bauto-?dream\b|\bcritic gate\b|\bhypothesis pool\b|\bwalker\b",
                             re.IGNORECASE)


_HAN = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"  # a character of Chinese or Japanese
_NOT_HAN = rf"[^\W{_HAN[1:-1]}]"  # a word character of an alphabetic script
_NUMBER = re.compile(rf"(?<!{_NOT_HAN})(?<!\.)\d+(?:[.,]\d+)?(?!{_NOT_HAN})")  # Chinese writes "在2018年"
MOST_NUMBERS = 40  # the passages' numbers reckoned with: 40 make at most 9,600 results, a bound on the work
MOST_STEPS = 4  # steps of working a claim may show, each from the numbers before it: a bound on the work too


def _value(number: str) -> tuple[float, int]:
    """A number as written and how many decimals it shows: "3,600" is three thousand six hundred, "2,5" and "2.5"
    are two and a half."""
    whole, point, rest = number.replace(",", ".").partition(".")
    if point and "," in number and len(rest) == 3:  # a thousands separator
        return float(whole + rest), 0
    return float(number.replace(",", ".")), len(rest)


def _unreckoned(unsaid: list[str], haystack: str) -> list[str]:
    """The claim's numbers that neither the passages' numbers nor the claim's own reckoned ones give by one step of
    arithmetic: a claim may show its working ("60 a day for 24 days is 1440, so 240 behind the 1200 done")."""
    said = [_value(n)[0] for n in dict.fromkeys(_NUMBER.findall(haystack))][:MOST_NUMBERS]
    left = list(dict.fromkeys(unsaid))
    for _ in range(MOST_STEPS):
        if not left:
            break
        reckoned = _reckoned(said)
        follows = [n for n in left if _follows(n, reckoned)]
        if not follows:
            break
        said = (said + [_value(n)[0] for n in follows])[-MOST_NUMBERS:]
        left = [n for n in left if n not in follows]
    return [n for n in unsaid if n in left]


def _reckoned(said: list[float]) -> list[float]:
    """What follows from two numbers by one step of arithmetic, sorted: a sum, a difference, a product, a ratio, a
    share, a per cent of a number, or a change in per cent."""
    found: set[float] = set()
    for a in said:
        for b in said:
            found.update((a + b, abs(a - b), a * b, a * b / 100))
            if b:
                found.update((a / b, 100 * a / b, abs(100 * (a - b) / b)))
    return sorted(f for f in found if math.isfinite(f))


def _follows(number: str, reckoned: list[float]) -> bool:
    """The number is one the passages' numbers give by one step of arithmetic, as the claim rounds it ("cuts of 125
    leave 55 of the 180 still to find"): reckoning with the passages' own numbers adds no fact."""
    value, decimals = _value(number)
    tolerance = 0.5 * 10 ** -decimals + 1e-9
    at = bisect.bisect_left(reckoned, value - tolerance)
    return at < len(reckoned) and reckoned[at] <= value + tolerance


_WIKILINK = re.compile(r"\[\[([^\]|#]+)")
# A web address: a page the claim points to is a source, and one no passage gives is from outside the vault.
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()\[\]“”\"']+[^\s<>()\[\]“”\"'.,;:!?]", re.IGNORECASE)


# "Little's law", "queueing theory": a citation, however it is capitalised.
_CITATION = re.compile(r"\b[\w-]+'s (?:law|theorem|principle|rule|effect|paradox|razor|constant|conjecture|lemma|"
                       r"equation|hypothesis)\b|\b[\w-]+ (?:theory|theorem|law|principle|paradox|fallacy)\b",
                       re.IGNORECASE)


def _citations(text: str, haystack: str, titles: set[str]) -> list[str]:
    """The citations of ``text`` the passages do not make; a rule whose owner they name ("the kiln's rule", "the
    retro's rule"), or whose owner is a cited note ("the Soil principle", "the note's rule"), is theirs, not a
    source's."""
    found = [t for t in _CITATION.findall(text)
             if normal(t) not in haystack and t.split()[0].lower() not in ENGLISH_STOP_WORDS]  # "in theory", "the law"
    found += [t for t in _zh_citations(text) if t not in haystack]
    said = {stem(w) for w in words(haystack)} if any("'s " in t for t in found) else set()  # (most claims cite none)
    noted = {w for title in titles for w in words(title)} | MATERIAL
    return [t for t in found if not ("'s " in t and stem(t.partition("'s ")[0].lower()) in said)
            and _POSSESSIVE.sub("", t.split()[0]).lower() not in noted]


_ZH_LAWS = frozenset("效应 定律 定理 原理 法则 悖论 剃刀".split())  # effect, law, theorem, principle, rule, paradox, razor


def _zh_citations(text: str) -> list[str]:
    """A law or effect named in Chinese (牛鞭效应, 墨菲定律, 奥卡姆剃刀), as _CITATION reads "X's law" in English."""
    if not has_cjk(text):
        return []
    said = tokens(text)
    return [f"{before}{word}" for before, word in zip(said, said[1:])
            if word in _ZH_LAWS and has_cjk(before) and not is_grammar(before) and not is_verb(before)  # not 讲原理
            and before not in ZH_MATERIAL]  # 后者原理: the cited note's own


# What the user "already concluded", "decided last year": a prior conclusion needs a passage that records it.
_LAST = r"last (?:year|month|week|spring|summer|autumn|fall|winter)"  # a past time
_PRIOR_CONCLUSION = re.compile(
    rf"\b(?:already|previously|earlier|{_LAST}|long ago|once)\b[^.;]*?\b(?:conclu\w+|decid\w+|"
    r"decision|agreed|settled|established|proved|proven|showed|shown)\b|\b(?:conclu\w+|decid\w+|agreed|settled)\b"
    rf"[^.;]*?\b(?:already|previously|earlier|before|{_LAST}|long ago)\b",
    re.IGNORECASE)


_CONCLUDES = re.compile(r"\b(?:conclu\w+|decid\w+|decision|agreed|settled|chose|chosen|verdict)\b")


ORDINARY_ZIPF = 2.5  # wordfreq's scale: a word used less than once in three million (a product, a jargon term);
# chosen on the fit set of outside facts, where rarer-than-3.5 also refused a quarter of good English paraphrases


ORDINARY_IN_VAULT = 0.05  # ...or the vault uses it in this share of its notes


def _specific_words(text: str, haystack: str, index: TextIndex | None) -> list[str]:
    """Words of ``text`` that name something specific ("nginx", "limiter") and are in no cited passage:
    neither ordinary in its language nor common in this vault, in no form the passages use."""
    present = {stem(w) for w in words(haystack)}
    common_idf = np.log(1 / ORDINARY_IN_VAULT) + 1  # smoothed idf of a word in that share of notes
    found = []
    for word in dict.fromkeys(words(text)):
        if has_cjk(word):
            continue  # a segmenter's word is no sure name: the fitted reader reads Chinese
        if word in ENGLISH_STOP_WORDS or word in PLAIN_WORDS or _derived(word, present):
            continue
        if _ordinary(word) or index is not None and 0 < index.weight(word) <= common_idf:
            continue
        found.append(word)
    return found


def _ordinary(word: str) -> bool:
    """The word, or the word it is a form of, is ordinary in English: "falters" of "falter", "chattiest" of "chatty",
    "unwatched" of "watched", "steadiness" of "steady"."""
    return any(zipf(form) >= ORDINARY_ZIPF for form in _forms(word))


_SUFFIXES = (("iest", "y"), ("ier", "y"), ("iness", "y"), ("ily", "y"), ("ness", ""), ("est", ""), ("ly", ""),
             ("ed", ""), ("ing", ""), ("es", ""), ("s", ""))


def _forms(word: str) -> list[str]:
    forms = [word, stem(word)]
    for suffix, ending in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            forms += [base + ending, base + "e"] + ([base[:-1]] if base[-1:] == base[-2:-1] else [])  # sidestepped
    return forms + [form[2:] for form in forms if form.startswith("un") and len(form) > 5]


def _derived(word: str, stems: set[str]) -> bool:
    """The word is a form of one the passages use: "soupiness" of "soupy", "overfed" of "fed"."""
    if stem(word) in stems:
        return True
    return any(word.endswith(s) and len(s) >= 3 or len(s) >= 4 and word[: max(4, len(s) - 1)] == s[: max(4, len(s) - 1)]
               for s in stems)


_POSSESSIVE = re.compile(r"['’]s\b|(?<=s)['’]")


_MONTHS = {form: number for number, name in enumerate(
    "january february march april may june july august september october november december".split(), start=1)
    for form in (name, name[:3])}  # "October" and "Oct"


def _dated(term: str, haystack: str, titles: set[str]) -> bool:
    """A month the passages or the cited notes' titles give as a date: "31 October" of the daily note 2026-10-31."""
    month = _MONTHS.get(term.lower())
    return bool(month) and re.search(rf"\b\d{{4}}-{month:02d}-\d{{2}}\b", " ".join([haystack, *titles])) is not None


def _capitalised_terms(text: str) -> list[str]:
    """Runs of capitalised words that do not open a sentence: names, places, products."""
    terms = []
    for sentence in re.split(r"(?<=[.!?:;])\s+", text):
        words = re.findall(rf"(?:{_NOT_HAN}|['’-])+|{_HAN}+", sentence)  # a Latin name inside Chinese ("CI挂了") is a word
        run: list[str] = []
        for position, word in enumerate(words):
            if position > 0 and word[:1].isupper():
                run.append(word)
                continue
            if run:
                terms.append(" ".join(run))
            run = []
        if run:
            terms.append(" ".join(run))
    return terms
