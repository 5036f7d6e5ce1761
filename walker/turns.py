"""What kind of moment a conversation turn is, in English or Chinese, and why.

- **executive**: something is to be done now: run, fix, implement; a pasted error, code or a command;
- **convergent**: a choice or a decision is being made, often against a deadline ("which one",
  "should I", "we ship tomorrow", "选哪个", "要不要");
- **exploratory**: the person is wondering, brainstorming or thinking aloud ("what if", "I've been
  thinking", "聊聊", "有没有别的角度").

A side note from the walks helps only in the last kind: in the other two it is a distraction.
When nothing says which kind a turn is, it is ``unclear``, and unclear is treated as "not now".
The order of the checks is the order of precedence: doing beats deciding beats wondering.
"""

from __future__ import annotations

import re
from typing import NamedTuple

EXECUTIVE, CONVERGENT, EXPLORATORY, UNCLEAR = "executive", "convergent", "exploratory", "unclear"

_ERROR_OR_CODE = re.compile(
    r"traceback \(most recent call last\)|^\s+at [\w.$<>]+\(|\b\w+(?:error|exception)\b|exit (?:code|status) \d+|"
    r"\.(?:py|js|ts|go|rs|java|rb|c|cpp):\d+|^\s*\$ |```|报错|错误信息",
    re.IGNORECASE | re.MULTILINE,
)
_TASK = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:fix|implement|run|build|deploy|install|debug|refactor|commit|merge|"
    r"rename|delete|remove|add|write|update|create|migrate|test|bump|revert|convert|translate|start|stop|make|"
    r"check|summari[sz]e|explain|list|show me)\b"
    r"|(?:帮我|请|给我)?(?:修一下|修复|修改|实现|运行|部署|安装|重构|删除|写一个|改成|转换|翻译)",
    re.IGNORECASE | re.MULTILINE,
)
_CHOICE = re.compile(
    r"\b(?:which (?:one|of|should|is)|which \w+ should|should (?:i|we)|do (?:i|we) (?:buy|pick|choose|go)|"
    r"pick one|choose between|decide|decision|finali[sz]e|commit to|recommend|recommendation|go with|"
    r"better (?:to|option|than)|is it better|compare|versus|vs\.?|yes or no|the best way|ship|deadline|"
    r"by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)|tomorrow|this week|"
    r"i leave|before the weekend|\w+ or \w+\?)"
    r"|选哪|哪个(?:更|好)|哪一个|要不要|应该|决定|定下来|上线|截止|推荐|还是",
    re.IGNORECASE,
)
_WONDER = re.compile(
    r"\b(?:what if|i wonder|wondering|i(?:'ve| have)? been thinking|thinking (?:out loud|about)|curious|"
    r"brainstorm|explore|exploring|musing|random thought|a hunch|keeps? reminding|reminds me|"
    r"i keep noticing|feels like|there might be|could it be|how come|why do|why does|what makes|"
    r"what would happen|any thoughts|tell me more|in common|might apply|a pattern|the idea that|"
    r"the same (?:problem|idea|way|thing)|what do you think about|is there (?:a|any) (?:link|connection|relation)|"
    r"both seem)\b"
    r"|聊聊|想法|别的角度|好奇|为什么|我在想|琢磨|随便聊|头脑风暴|如果|是不是有点像|共同点",
    re.IGNORECASE,
)


class Turn(NamedTuple):
    kind: str
    reason: str


def classify_turn(text: str) -> Turn:
    """The kind of moment a turn is, and the words that say so."""
    code_lines = sum(1 for line in text.splitlines()
                     if re.search(r"[;{}]\s*$|^\s{4,}\S|^\s*(?:def|class|import|return) ", line))
    if code_lines >= 3:
        return Turn(EXECUTIVE, "the turn is code")
    for kind, pattern, what in ((EXECUTIVE, _ERROR_OR_CODE, "an error or code"),
                                (EXECUTIVE, _TASK, "a task"),
                                (CONVERGENT, _CHOICE, "a choice or a deadline"),
                                (EXPLORATORY, _WONDER, "wondering aloud")):
        if found := pattern.search(text):
            return Turn(kind, f"{what}: “{found.group(0).strip()}”")
    return Turn(UNCLEAR, "nothing says whether this is a task, a decision or a thought")
