"""What a record of each kind says besides its refs and scores, in each language walker writes: templates only.

``walker.walk.kinds.word`` fills them in. ``{a}`` and ``{b}`` name the two notes (``{A}`` capitalised, at the start
of a sentence), ``{text_a}`` and ``{text_b}`` are the quoted passages, ``{thread}`` the shared words, ``{about_a}``
and ``{about_b}`` what each passage is about; a duplicate merges ``{other}`` into ``{into}``, the fuller note. A
record is worded in Chinese when both its passages are Chinese.
"""

from __future__ import annotations

Template = dict[str, str | tuple[str, ...]]

ENGLISH: dict[str, Template] = {
    "missing-link": {
        "claim": "{A} says “{text_a}”, and {b} adds “{text_b}”: two accounts of {thread} that no link or shared note "
                 "puts side by side.",
        "impact": "add",
        "impact_reason": "a link between {a} and {b} would let each find what the other already says",
        "applies_when": ("Writing or revising a note about {about_a}.",
                         "Looking for everything the vault already says about {thread}."),
        "never_applies_when": ("Looking up one exact detail about {about_b}, where a second note adds nothing.",),
        "disconfirm_if": ("{A} and {b} are already joined by a link, or by a note that links to both.",
                          "Read in full, {a} and {b} use {thread} for different things."),
        "why_it_matters": "Notes about one thing that do not link are found apart and kept apart; Obsidian's unlinked "
                          "mentions only see a title, not {thread}.",
    },
    "tension": {
        "claim": "On {thread}, {a} says “{text_a}”, while {b} says “{text_b}”: one says not to do what the other does, "
                 "and neither says when each holds.",
        "impact": "rewrite",
        "impact_reason": "if both passages hold, {a} or {b} needs a condition that says when each applies",
        "applies_when": ("Deciding what to do about {thread}, with advice from more than one note.",
                         "Revising what the vault says about {about_b}."),
        "never_applies_when": ("Working inside {about_a} alone, where the other passage's conditions do not hold.",),
        "disconfirm_if": ("Both passages affirm {thread}, or both deny it: the disagreement is only in the wording.",
                          "The two passages speak of {thread} under conditions that never meet."),
        "why_it_matters": "Two notes that disagree without knowing it give different advice depending on which one is "
                          "opened first.",
    },
    "answer": {
        "claim": "The question {a} asks, “{text_a}”, has an answer about {thread} in {b}: “{text_b}”",
        "impact": "add",
        "impact_reason": "the question in {a} has no answer linked to it; {b} may hold one",
        "applies_when": ("Coming back to the open question about {about_a}.",
                         "Reading about {about_b} with an unanswered question in mind."),
        "never_applies_when": ("Reading {about_b} for its own sake, with no question about {thread} in mind.",),
        "disconfirm_if": ("The passage in {b} does not speak of {thread}, the subject of the question in {a}.",
                          "Read in full, {b} answers a different question about {thread} than the one {a} asks."),
        "why_it_matters": "An open question stays open until someone sees that the vault already holds a reply; the "
                          "reply in {b} is {thread}-shaped.",
    },
    "analogy": {
        "claim": "{A} and {b} describe one mechanism, {thread}, in two fields: “{text_a}” and “{text_b}”",
        "impact": "add",
        "impact_reason": "{a} and {b} sit in different subjects and are not linked, so the bridge adds what neither has",
        "applies_when": ("Working out how {about_a} behaves, and open to a mechanism from another subject.",
                         "Stuck on {about_b} and open to how {about_a} handles the same thing."),
        "never_applies_when": ("Following the steps for {about_b} to get something done today, where an analogy would "
                               "only distract.",),
        "disconfirm_if": ("Read side by side, {thread} mean different things in {a} and in {b}: the words match, the "
                          "mechanisms do not.",
                          "The passage in {b} depends on a condition that {a} does not share."),
        "why_it_matters": "If {thread} work the same way in both, what the vault knows about {a} is a ready-made "
                          "question to ask of {b}.",
    },
    "duplicate": {
        "claim": "{A} and {b} are two notes on one thing, {thread}, in mostly the same words: merge {other} into "
                 "{into}, the fuller one. “{text_a}” and “{text_b}”",
        "impact": "rewrite",
        "impact_reason": "two notes on one thing split what the vault knows of it; {into} says more of it",
        "applies_when": ("Tidying the notes about {about_a}.",
                         "Adding something new about {thread}, with two notes to choose from."),
        "never_applies_when": ("Keeping {a} and {b} apart on purpose, as two stages of one piece of work.",),
        "disconfirm_if": ("Read in full, {a} and {b} share their words about {thread} but say different things.",
                          "{A} and {b} are already joined by a link, or one of them is gone."),
        "why_it_matters": "A second note on one thing is found by half the searches and updated half the time; the two "
                          "drift apart.",
    },
}

CHINESE: dict[str, Template] = {
    "missing-link": {
        "claim": "{a}写道“{text_a}”，{b}也写道“{text_b}”：两处都在讲{thread}，却没有链接或共同的笔记把它们放在一起。",
        "impact": "add",
        "impact_reason": "在{a}和{b}之间加一个链接，两边都能找到对方已经写下的内容",
        "applies_when": ("撰写或修改关于{about_a}的笔记时。", "想找出笔记库里关于{thread}的全部记录时。"),
        "never_applies_when": ("只查{about_b}的某个具体细节时，第二篇笔记帮不上忙。",),
        "disconfirm_if": ("{a}和{b}之间其实已有链接，或有一篇笔记同时链接了两者。",
                          "通读全文后发现，{a}和{b}里的{thread}指的是不同的东西。"),
        "why_it_matters": "讲同一件事却互不链接的笔记，会被分开找到、分开维护；Obsidian 的未链接提及只认标题，认不出{thread}。",
    },
    "tension": {
        "claim": "关于{thread}，{a}说“{text_a}”，而{b}说“{text_b}”：一边叫人别做另一边在做的事，两边都没说各自何时成立。",
        "impact": "rewrite",
        "impact_reason": "如果两段话都成立，{a}或{b}就需要写明各自适用的条件",
        "applies_when": ("要就{thread}做决定、手头有不止一篇笔记的建议时。", "修改笔记库里关于{about_b}的内容时。"),
        "never_applies_when": ("只在{about_a}范围内工作、另一段话的条件并不成立时。",),
        "disconfirm_if": ("两段话对{thread}的态度其实一致，分歧只在措辞上。", "两段话谈论{thread}的前提条件从来不会同时出现。"),
        "why_it_matters": "两篇互相矛盾却不自知的笔记，会因为先打开哪一篇而给出不同的建议。",
    },
    "answer": {
        "claim": "{a}问道：“{text_a}”{b}里有一个关于{thread}的回答：“{text_b}”",
        "impact": "add",
        "impact_reason": "{a}里的问题还没有链接到任何答案，{b}可能就是答案",
        "applies_when": ("回到关于{about_a}的那个悬而未决的问题时。", "带着未解决的问题阅读关于{about_b}的内容时。"),
        "never_applies_when": ("只是为了{about_b}本身而阅读、心里并没有关于{thread}的问题时。",),
        "disconfirm_if": ("{b}里的这段话并没有谈到{thread}，而那正是{a}提问的对象。",
                          "通读全文后发现，{b}回答的是另一个关于{thread}的问题，而不是{a}问的那个。"),
        "why_it_matters": "一个问题会一直悬着，直到有人发现笔记库里早已有了回答；{b}里的这段话正好对得上{thread}。",
    },
    "analogy": {
        "claim": "{a}和{b}在两个领域里描述同一种机制，{thread}：“{text_a}”与“{text_b}”",
        "impact": "add",
        "impact_reason": "{a}和{b}属于不同的主题，彼此没有链接，这座桥能补上两边都没有的东西",
        "applies_when": ("琢磨{about_a}如何运作、愿意借鉴另一个领域的机制时。", "卡在{about_b}上，想看看{about_a}如何处理同样的问题时。"),
        "never_applies_when": ("照着步骤完成今天关于{about_b}的事情时，类比只会让人分心。",),
        "disconfirm_if": ("把两段并排读，{thread}在{a}和{b}里意思不同：字面相同，机制不同。", "{b}里的这段话依赖一个{a}并不具备的条件。"),
        "why_it_matters": "如果{thread}在两边的作用方式相同，那么笔记库对{a}的了解，就是可以拿去问{b}的现成问题。",
    },
    "duplicate": {
        "claim": "{a}和{b}是讲同一件事（{thread}）的两篇笔记，用词大体相同：把{other}合并进内容更全的{into}。“{text_a}”与“{text_b}”",
        "impact": "rewrite",
        "impact_reason": "同一件事分成两篇笔记，笔记库对它的了解也被拆开了，而{into}写得更多",
        "applies_when": ("整理关于{about_a}的笔记时。", "要补充关于{thread}的新内容、却有两篇笔记可选时。"),
        "never_applies_when": ("有意把{a}和{b}分开、作为同一项工作的两个阶段时。",),
        "disconfirm_if": ("通读全文后发现，{a}和{b}虽然在{thread}上用词相同，说的却是不同的事。", "{a}和{b}之间已有链接，或其中一篇已经不在了。"),
        "why_it_matters": "同一件事的第二篇笔记只会被一半的搜索找到、一半的时候被更新，两篇会渐渐走样。",
    },
}
