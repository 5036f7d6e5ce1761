"""Missing link: two passages that say two things about one subject, in notes no chain of two links
joins. Any pair with a thread has this shape: it is the kind tried last."""

from __future__ import annotations

from walker.kinds.base import Kind, Pair


def fits(pair: Pair) -> bool:
    return True


def disconfirmed(pair: Pair) -> bool:
    return pair.linked


KIND = Kind(
    name="missing-link",
    label="Missing link",
    plural="Missing links",
    meaning="two passages on one subject in notes no chain of two links joins",
    rank=90,
    fits=fits,
    disconfirmed=disconfirmed,
    wording={
        "en": {
            "claim": "{A} says “{text_a}”, and {b} adds “{text_b}”: two accounts of {thread} in notes that do "
                     "not link to each other.",
            # One passage names the other note (its title or an alias) without linking it: an unlinked mention.
            "claim_names": "{User} names {named} in “{text_user}” without a link to it, and {named} says “{text_named}”",
            "impact": "add",
            "impact_reason": "a link between {a} and {b} would let each find what the other already says",
            "applies_when": ("Writing or revising a note about {about_a}.",
                             "Looking for everything the vault already says about {thread}."),
            "never_applies_when": ("Looking up one exact detail about {about_b}, where a second note adds nothing.",),
            "disconfirm_if": ("{A} and {b} are already joined by a link, or by a note on their subject that links to both.",
                              "Read in full, {a} and {b} use {thread} for different things."),
            "why_it_matters": "Notes about one thing that do not link are found apart and kept apart; Obsidian's "
                              "unlinked mentions only see a title, not {thread}.",
            "why_it_matters_names": "A title typed without a link shows only in the unlinked mentions of {named}, which "
                                    "nobody reading {user} sees; a link takes the reader of the passage to what {named} says.",
        },
        "zh": {
            "claim": "{a}写道“{text_a}”，{b}也写道“{text_b}”：两处都在讲{thread}，两篇笔记却互不链接。",
            "claim_names": "{user}在“{text_user}”里提到了{named}，却没有链接到它，而{named}写道“{text_named}”",
            "impact": "add",
            "impact_reason": "在{a}和{b}之间加一个链接，两边都能找到对方已经写下的内容",
            "applies_when": ("撰写或修改关于{about_a}的笔记时。",
                             "想找出笔记库里关于{thread}的全部记录时。"),
            "never_applies_when": ("只查{about_b}的某个具体细节时，第二篇笔记帮不上忙。",),
            "disconfirm_if": ("{a}和{b}之间其实已有链接，或有一篇讲同一主题的笔记同时链接了两者。",
                              "通读全文后发现，{a}和{b}里的{thread}指的是不同的东西。"),
            "why_it_matters": "讲同一件事却互不链接的笔记，会被分开找到、分开维护；Obsidian 的未链接提及只认标题，认不出{thread}。",
            "why_it_matters_names": "没有加链接的标题只会出现在{named}的“未链接提及”里，读{user}的人看不到；加上链接，读到这段话的人就能直接找到{named}写的内容。",
        },
    },
    confirmed={
        "en": ("missing link", "{a} and {b} are connected."),
        "zh": ("缺失链接", "{a}和{b}相互关联。"),
    },
)
