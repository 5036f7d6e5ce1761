"""Sources a claim leans on: what it says someone or something else said, showed or advised ("as the incident
review flagged", "which studies back up", "正如花市老板说的"), and received wisdom ("as every gardener knows",
"俗话说"). A claim may relay what its passages say; a source they do not name is material from outside the vault.

Read by the grammar of reporting, not by a list of sources: a reporting verb (say, advise, warn, show…; 说, 建议,
提醒…) or a marker (according to, in line with; 据, 按照) marks its agent, the words next to it. The agent is the
claim's own when its passages or the cited notes' titles hold its content words, or when it names only the cited
material or its author ("the second note", "both passages", "the author", "这两条笔记"). Every match is bounded: a
claim is read once, left to right, by patterns with no nested repetition.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from walker.words import has_cjk, is_grammar, stem, stems, words

# The verbs of reporting and advising, in the forms a clause uses them: a grammatical class of English.
_REPORTING = (r"(?:say|says|said|saying|know|knows|knew|recommend(?:s|ed)?|advis(?:e|es|ed)|advocat(?:e|es|ed)|"
              r"warn(?:s|ed)?|warning|urg(?:e|es|ed)|flag(?:s|ged)?|predict(?:s|ed)?|teach(?:es)?|taught|tells?|told|"
              r"insist(?:s|ed)?|preach(?:es|ed)?|swears?(?: by)?|swore(?: by)?|suspect(?:s|ed)?|claim(?:s|ed)?|"
              r"report(?:s|ed)?|found|finds?|show(?:s|ed|n)?|prov(?:es|ed|en)|back(?:s|ed)? (?:it |this |that )?up|"
              r"outlin(?:e|es|ed)|spott?(?:s|ed)?|lays? out|laid out|pinned|quot(?:e|es|ed)|call(?:s|ed)?|"
              r"argu(?:e|es|ed)|made (?:the|this|that) case|emphasi[sz](?:e|es|ed)|stress(?:es|ed)?|noted|describ(?:e|es|ed)|"
              r"project(?:s|ed)|document(?:s|ed)?|bears? out|bore out|settled|agreed|drill(?:s|ed|ing)?(?: into \w+)?)")
_AGENT = r"((?:[\w'’-]+\s+){0,6}?[\w'’-]+)"  # at most seven words
# "as the wiki says", "what the advisor told me", "which studies back up", "the gap the audit turned up"
_CLAUSE_AGENT = re.compile(
    rf"\b(?:as|like|what|which|that|the way|just as|exactly as|much as)\s+{_AGENT}\s+"
    rf"(?:(?:always|often|all|also|already|long|kept|keep|keeps|had|has|have|would|will|did|does|do|once|"
    rf"consistently|repeatedly|usually|still|never|first)\s+){{0,3}}{_REPORTING}\b",
    re.IGNORECASE)
# "productivity research says so", "the wiki says it's weak" (not "shows": a claim's own subject shows things)
_SUBJECT_AGENT = re.compile(
    rf"(?:^|[.;:,!?]\s+|\band\s+|\bbut\s+){_AGENT}\s+(?:(?:all|also|have|has|had|long|consistently|keep|always|"
    rf"would|will)\s+){{0,2}}(?:says|say|said|recommends?|recommended|advises?|advised|warns?|warned|urged?|"
    rf"predicts?|predicted|reports?|reported|"
    rf"call (?:this|that|it)|calls (?:this|that|it)|made (?:the|this|that|exactly this) case)\b",
    re.IGNORECASE)
# "according to the pollen forecasts", "per the manufacturer's instructions", "matching industry surveys"
_MARKED_AGENT = re.compile(
    rf"\b(?:according to|per the|in line with|echoing the|backed by|confirming|vindicating|as predicted by|"
    rf"as recommended by|as advised by|as urged by|on the advice of|in keeping with|heeding|bears out|bearing out)\s+{_AGENT}"
    rf"(?=\s*(?:[.,;:!?]|$|\b(?:and|but|so|which|that|on|for|about)\b))",
    re.IGNORECASE)
# What everyone is said to know: received wisdom, with no agent to look for.
_RECEIVED = re.compile(r"\b(?:well[- ]known|as the (?:old )?saying goes|the (?:old )?saying|everyone knows|"
                       r"every \w+ knows|any \w+ (?:would|will|could) tell you|common knowledge|the usual advice|"
                       r"standard (?:\w+ ){0,2}(?:advice|playbook|practice)|well documented|rule of thumb|conventional wisdom|it is (?:well |widely )?known|"
                       r"as is (?:well |widely )?known|textbook (?:case|example|advice)|old wives'? tale)\b",
                       re.IGNORECASE)
# The cited material itself, and words that only place or count it: an agent of these names no outside source.
MATERIAL = frozenset("note notes passage passages entry entries diary log logs page pages paragraph".split())
_OWN = MATERIAL | frozenset("first second third former latter both each one two other another earlier later previous "
                            "same own pair author writer".split())  # the notes' author: their own voice

# Chinese: 正如X所说, 跟X说的一样, X建议/提醒/强调, 据X, 按照X的说法, 印证了X; 俗话说, 众所周知, 公认.
_ZH_VERB = (r"(?:所说|所言|所讲|说的|讲的|说过|讲过|说|讲|提醒|建议|推荐|强调|认为|指出|提到|提过|判断|警告|教的|教过|"
            r"都知道|常说|常讲|总说|一直说|写的|写道|都这么写|都这样写|这么写|主张|要求|叮嘱|讲座|说法|估计|预计|预测|表明|点名|"
            r"分享的|的经验|的结论|的意见|的看法|的判断)")
_ZH_CLAUSE_AGENT = re.compile(rf"(?:正如|如同|就像|跟|和|与|同|按|按照|照|依照|依|据|根据|听)(?P<agent>[^，。；！？、,.;!?]{{1,16}}?)"
                              rf"(?:所|的|也|都|早就|之前就|当初|一直|常|总|曾|就)?{_ZH_VERB}")
_ZH_SUBJECT_AGENT = re.compile(r"(?:^|[，。；！？,.;!?])(?P<agent>[^，。；！？、,.;!?]{2,14}?)"
                               r"(?:也|都|早就|之前就|当初|一直|常|总|曾|普遍|还|就)*"
                               r"(?:提醒|建议|推荐|强调|认为|指出|提到过|提过|判断过|警告|说过|讲过|教的|常说|常讲|"
                               r"都知道|都这么做|都这样做|这么判断|这么建议|都这么写|都这样写|都这么讲|都是这么讲的|都这么说|都这样说|"
                               r"说的没错|说得没错|表明|里点名|估计的|预测的)")
_ZH_MARKED_AGENT = re.compile(r"(?:印证了|应验了|证实了|呼应了|符合|吻合|对应)(?P<agent>[^，。；！？、,.;!?]{2,20})")
_ZH_RECEIVED = re.compile(r"俗话说|老话说|常言道|众所周知|惯例|标配|常识|人人都知道|大家都知道|行家都知道|业内|业界|"
                          r"老一[辈輩]|经验帖|經驗帖")
ZH_MATERIAL = frozenset("笔记 筆記 段落 这条 那条 两条 这篇 那篇 两篇 本篇 第一 第二 前一 后一 前者 后者 後者 日记 日記 记录 "
                        "記錄 原文 条目".split())


def leaned_on(claim: str, haystack: str, titles: set[str]) -> list[str]:
    """The sources ``claim`` leans on that neither its passages (``haystack``, normalised) nor the cited notes'
    ``titles`` name, as the claim writes them."""
    found: list[str] = []
    if has_cjk(claim):
        found += [m.group(0) for m in _ZH_RECEIVED.finditer(claim) if m.group(0) not in haystack]
        for pattern in (_ZH_CLAUSE_AGENT, _ZH_SUBJECT_AGENT, _ZH_MARKED_AGENT):
            found += [m.group(0) for m in pattern.finditer(claim) if _outside_zh(m.group("agent"), haystack, titles)]
    found += [m.group(0) for m in _RECEIVED.finditer(claim) if m.group(0).lower() not in haystack]
    for pattern in (_CLAUSE_AGENT, _SUBJECT_AGENT, _MARKED_AGENT):
        found += [m.group(0).strip(" ,.;:") for m in pattern.finditer(claim) if _outside(m.group(1), haystack, titles)]
    return list(dict.fromkeys(found))


def _outside(agent: str, haystack: str, titles: set[str]) -> bool:
    """No content word of the agent is in the passages or the titles ("the incident review", "studies"), and the
    agent is neither the cited material ("the second note"), nor negated ("the notes don't say"), nor a pronoun."""
    said = words(agent)
    if _NEGATED.search(agent) or said[:1] and said[0] in _PRONOUNS:
        return False
    content = [w for w in said if w not in ENGLISH_STOP_WORDS and w not in _OWN and not w.isdigit()]
    if not content or any(w in MATERIAL for w in said):
        return False
    held = _stems(haystack + " " + " ".join(titles))
    return not any(stem(w) in held for w in content)


_NEGATED = re.compile(r"n['’]t\b|\bnot\b|\bnever\b|\bnor\b", re.IGNORECASE)
_PRONOUNS = frozenset("it this that these those they them he she we i you people one".split())


_stems = lru_cache(maxsize=64)(stems)  # a claim's passages are read once for each agent it names


def _outside_zh(agent: str, haystack: str, titles: set[str]) -> bool:
    """A Chinese agent is outside when none of its content words is in the passages or the titles (the notes' author,
    作者, is their own voice)."""
    if any(own in agent for own in ZH_MATERIAL):
        return False
    content = [w for w in words(agent) if (not has_cjk(w) or not is_grammar(w)) and w not in ("我", "我们", "你", "作者")]
    place = haystack + " " + " ".join(titles)
    return bool(content) and not any(w in place for w in content)
