"""The walk report (protocol §14.2) and its neighbourhood picture.

The report is Markdown that reads well in Obsidian: wikilinks to the cited
heading or block, the hypotheses as ``[[hyp-…]]`` links, and an SVG of the walk
(seed in the centre, near, middle and far rings, the surviving bridges drawn).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

import yaml

from walker.kinds import KINDS
from walker.pool.records import KIND_WORDS, LABELS, LABELS_ZH, VALUES_ZH
from walker.refs import note_link, ref_link
from walker.walk.candidate import Candidate
from walker.walk.critic import Verdict
from walker.walk.engines.base import InventoryEntry
from walker.walk.evidence import Evidence
from walker.walk.scorer import explain, floor
from walker.wander import Item, Neighbourhood
from walker.words import is_chinese

# The report's own words, in each language it is written in: Chinese when its seed is (``language``).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Walk of {day} (#{number}), from {seed}", "seed": "Seed", "inventory": "Inventory",
        "candidates": "Candidate associations", "rejections": "Critic rejections", "noteworthy": "Noteworthy",
        "review": "Notes for review", "from": "From {link}, chosen as {source}", "reason": ": {reason}.", "end": ".",
        "group seed": "The seed note", "group near": "Near", "group middle": "Middle", "group far": "Far",
        "no sentence": "no sentence to quote", "refs": LABELS["supporting_refs"], "applies": LABELS["applies_when"],
        "or": " Or: ", "confidence": LABELS["confidence"], "impact": LABELS["impact"],
        "matters": LABELS["why_it_matters"], "wrong": LABELS["disconfirm_if"],
        "nothing proposed": "No two passages around this seed share a thread of words in one sense, so the roam "
                            "proposed nothing. A walk that keeps nothing is better than one that keeps filler.",
        "none kept": "No candidate survived the critic this time. The rejections below say why.",
        "nothing to judge": "Nothing to judge: the roam proposed no candidate.",
        "spare": "Sound but not kept, because a walk keeps only its best-grounded few: {titles}.",
        "none rejected": "The critic rejected nothing: every candidate held up.",
        "noteworthy entry": "rejected for {rules}, kept because {why}. Set `human_review_outcome` in its properties "
                            "to decide.",
        "read": "This walk read {items} notes around the seed ({near} near, {middle} middle, {far} far) and proposed "
                "{total} bridge{s}; the critic kept {kept}.",
        "start": " Start with {title}", "thread": ": the thread is the words {terms}",
        "two refs": ". Open both refs side by side and ask whether one mechanism really runs both.",
        "many refs": ". Open its {count} refs side by side and ask whether one mechanism really runs them all.",
        "decide": " A hypothesis is a question, not a conclusion: confirm one with `walker discharge`, or reject it "
                  "with `walker reject` and the evidence. Nothing here has changed your notes.",
        "recent": "a topic from recent notes", "revisited": "a topic revisited from different angles",
        "open-question": "an open question", "forgotten": "a forgotten note", "given": "named by you",
        "given-text": "your own words", "rewrite": "a noteworthy entry you asked to rewrite",
        "picture": "The walk from {seed}: {near} near, {middle} middle and {far} far notes; {kept} of {total} bridges "
                   "kept",
        "picture title": "Walk {walk} from {seed}",
        "legend": "numbered lines: hypotheses kept, in the order of the report · dashed: rejected · blue near · "
                  "green middle · purple far",
        "ring near": "near", "ring middle": "middle", "ring far": "far", "item": "({terms}): {said}", "list": ", ",
    },
    "zh": {
        "heading": "{day}的散步（第 {number} 次），从{seed}出发", "seed": "种子", "inventory": "清点",
        "candidates": "候选联系", "rejections": "批评者的否决", "noteworthy": "值得一看", "review": "审阅说明",
        "from": "出自{link}，选作{source}", "reason": "：{reason}。", "end": "。",
        "group seed": "种子笔记", "group near": "近", "group middle": "中", "group far": "远",
        "no sentence": "没有可引用的句子", "refs": LABELS_ZH["supporting_refs"], "applies": LABELS_ZH["applies_when"],
        "or": "或者：", "confidence": LABELS_ZH["confidence"], "impact": LABELS_ZH["impact"],
        "matters": LABELS_ZH["why_it_matters"], "wrong": LABELS_ZH["disconfirm_if"],
        "nothing proposed": "这个种子周围没有两段话以同一含义共用一串词，所以漫游什么也没提出。什么都不留的散步，好过留下凑数的散步。",
        "none kept": "这次没有候选通过批评者。下面的否决说明了原因。",
        "nothing to judge": "没有可评判的：漫游没有提出候选。",
        "spare": "站得住但没有保留，因为一次散步只留下根据最充分的几条：{titles}。",
        "none rejected": "批评者没有否决任何候选：每一条都站得住。",
        "noteworthy entry": "因 {rules} 被否决，因为{why}而保留。在它的属性里设置 `human_review_outcome` 来决定。",
        "read": "这次散步读了种子周围的 {items} 篇笔记（近 {near}、中 {middle}、远 {far}），提出了 {total} 座桥；"
                "批评者保留了 {kept} 座。",
        "start": "先看{title}", "thread": "：线索是{terms}这几个词",
        "two refs": "。把两处出处并排打开，问问是不是同一种机制在同时起作用。",
        "many refs": "。把它的 {count} 处出处并排打开，问问是不是同一种机制在同时起作用。",
        "decide": "假设是一个问题，不是结论：用 `walker discharge` 确认，或用 `walker reject` 加上证据否决。"
                  "这里没有改动你的任何笔记。",
        "recent": "最近笔记里的话题", "revisited": "从不同角度反复谈到的话题", "open-question": "一个悬而未决的问题",
        "forgotten": "一篇被遗忘的笔记", "given": "你指定的笔记", "given-text": "你自己的话",
        "rewrite": "你要求改写的值得一看条目",
        **{f"value {value}": said for value, said in VALUES_ZH.items()},
        "not connected": "与种子不相连", "links away": "相隔 {distance} 个链接", "draw thread": "共同的罕见词：{terms}",
        "no rare words": "没有共同的罕见词", "both linked": "两者都链接了{via}", "linked directly": "直接链接",
        "similarity": "相似度 {similarity:.2f}",
        "picture": "从{seed}出发的散步：近 {near} 篇、中 {middle} 篇、远 {far} 篇笔记；{total} 座桥保留了 {kept} 座",
        "picture title": "从{seed}出发的散步 {walk}",
        "legend": "带编号的线：保留的假设，顺序同报告 · 虚线：被否决 · 蓝：近 · 绿：中 · 紫：远",
        "ring near": "近", "ring middle": "中", "ring far": "远", "item": "（{terms}）：{said}", "list": "、",
        "below the floor": "读者觉得这类配对有用的可能性是 {score:.2f}；一次散步只保留 {keep:.2f} 及以上的配对（{why}）",
    },
}
# What each of the critic's rules says when it rejects a candidate, in Chinese; an English report gives each
# rejection's own reason (its details are English sentences).
RULES_ZH = {
    "unrecordable": "有一项太长（或含控制字符），任何记录都放不下",
    "no-refs": "没有引用任何出处",
    "refs-not-retrieved": "引用了这次散步没有读到的笔记",
    "refs-unresolved": "有出处在笔记库里打不开",
    "no-falsifiable-disconfirm": "“如果这样就是错的”没有写出一个能证明它错的观察",
    "applies-when-vague": "“适用于”说得太笼统，说不出是什么时候",
    "sensitive-attribute": "推断了某个人的健康、身心、性别、年龄、出身或信仰",
    "single-source": "只凭一篇笔记下结论",
    "restates-existing": "只是复述了一篇已有的笔记，没有加上别处的内容",
    "facts-absent-from-refs": "说了出处里没有的事实",
    "impact-unjustified": "作用或把握没有写清楚",
    "unfalsifiable-claim": "说法无法检验",
    "duplicate-of-pool": "和已有的假设重复",
    "ungrounded": "没有什么把两段话连起来：没有同义的词，没有共同的笔记，意思也不相近",
    "homonym": "共同的词在两处是不同的意思",
    "repeated-text": "两段话几乎一字不差：是在笔记之间复制的文字",
    "same-refs-in-walk": "和这次散步的另一个候选引用了同样的段落",
    "engine-critic": "模型的批评者没有保留它",
    "below-the-floor": "读者觉得这类配对有用的可能性太低",
    "beyond-the-few": "站得住，但一次散步只保留最有可能有用的几条",
}
def language(outcome: WalkOutcome) -> str:
    """The report's language: Chinese when the seed's proposition is, else English."""
    return "zh" if is_chinese(outcome.seed.proposition) else "en"


@dataclass(frozen=True)
class WalkOutcome:
    """Everything one walk decided, before anything is written."""

    walk_id: str
    now: datetime
    engine: str
    neighbourhood: Neighbourhood
    inventory: list[InventoryEntry]
    candidates: list[Candidate]
    engine_verdicts: list[Verdict]
    verdicts: list[Verdict]
    hypothesis_ids: dict[int, str]  # candidate index -> id
    noteworthy_ids: dict[int, str]

    @property
    def seed(self) -> Any:
        return self.neighbourhood.seed


def render_report(outcome: WalkOutcome) -> str:
    seed = outcome.seed
    words = WORDS[language(outcome)]
    day = outcome.now.strftime("%Y年%-m月%-d日" if words is WORDS["zh"] else "%-d %B %Y")
    front = {
        "title": f"Walk {outcome.walk_id}: {_note_name(seed.path)}",
        "walk": outcome.walk_id,
        "date": outcome.now.date().isoformat(),
        "seed": note_link(seed.path),
        "seed_proposition": seed.proposition,
        "seed_source": seed.source,
        "engine": outcome.engine,
        "hypotheses": [f"[[{i}]]" for i in outcome.hypothesis_ids.values()],
        "noteworthy": [f"[[{i}]]" for i in outcome.noteworthy_ids.values()],
    }
    number = outcome.walk_id.rsplit("-", 1)[-1].lstrip("0") or "0"
    source = words.get(seed.source, seed.source)
    parts = [
        "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---",
        "# " + words["heading"].format(day=day, number=number, seed=_note_name(seed.path)),
        f"![[{outcome.walk_id}.svg|{_picture_words(outcome)}]]",
        f"## {words['seed']}",
        f"> {seed.proposition}",
        words["from"].format(link=ref_link(seed.ref, words is WORDS["zh"]), source=source)
        # The seed's reason is an English sentence of counts: a Chinese report names its source only.
        + (words["reason"].format(reason=seed.reason) if seed.reason and words is WORDS["en"] else words["end"]),
        f"## {words['inventory']}",
        _inventory(outcome, words),
        f"## {words['candidates']}",
        _survivors(outcome, words),
        f"## {words['rejections']}",
        _rejections(outcome, words),
    ]
    if outcome.noteworthy_ids:
        parts += [f"## {words['noteworthy']}", _noteworthy(outcome, words)]
    parts += [f"## {words['review']}", _review_notes(outcome, words)]
    return "\n\n".join(parts) + "\n"


def _inventory(outcome: WalkOutcome, words: dict[str, str]) -> str:
    lines = []
    items = {i.path: i for i in outcome.neighbourhood.items}
    for group in ("seed", "near", "middle", "far"):
        entries = [e for e in outcome.inventory if e.group == group]
        if not entries:
            continue
        lines += [f"**{words['group ' + group]}**", ""]
        for entry in entries:
            said = f"“{entry.sentence}”" if entry.sentence else f"*{words['no sentence']}*"
            line = f"- {ref_link(entry.sentence_ref, words is WORDS['zh'])} " + words["item"].format(
                terms=words["list"].join(entry.key_terms[:4]), said=said)
            item = items.get(entry.path)
            if group == "far" and item is not None:
                line += f" *{_reason(item, words)}*"
            lines.append(line)
        lines.append("")
    for message in outcome.neighbourhood.notes:
        lines.append(f"*{message}.*")
    return "\n".join(lines).strip()


def _reason(item: Item, words: dict[str, str]) -> str:
    """Why a note was retrieved: in English the retrieval's own sentence; in Chinese, from its facts (how far it
    is from the seed, and how close to it, or for a far note the rare words it shares with the seed)."""
    if words is WORDS["en"]:
        return item.reason
    where = words["not connected"] if item.distance is None else words["linked directly"] if item.distance == 1 \
        else words["links away"].format(distance=item.distance)
    if item.group != "far":
        return f"{where}；" + words["similarity"].format(similarity=item.similarity)
    shared = words["draw thread"].format(terms="、".join(item.rare_terms)) if item.rare_terms else words["no rare words"]
    return "；".join([where, shared] + ([words["both linked"].format(via=_note_name(item.via))] if item.via else []))


def _survivors(outcome: WalkOutcome, words: dict[str, str]) -> str:
    if not outcome.candidates:
        return words["nothing proposed"]
    if not outcome.hypothesis_ids:
        return words["none kept"]
    blocks = []
    # Numbered as on the picture's lines.
    kept = [(n, outcome.candidates[index], hyp_id) for n, (index, hyp_id) in enumerate(outcome.hypothesis_ids.items(), 1)]
    for kind in dict.fromkeys(c.kind for _, c, _ in kept):
        if words is WORDS["zh"]:
            heading, meaning = (KINDS[kind].confirmed["zh"][0] if kind in KINDS else "其他"), ""
        else:
            _, heading, meaning = KIND_WORDS.get(kind, ("", "Other", ""))
        blocks.append(f"### {heading}" + (f"\n\n*{meaning[:1].upper()}{meaning[1:]}.*" if meaning else ""))
        blocks += [_survivor(n, c, hyp_id, words) for n, c, hyp_id in kept if c.kind == kind]
    return "\n\n".join(blocks)


def _survivor(number: int, c: Candidate, hyp_id: str, words: dict[str, str]) -> str:
    return "\n".join([
        f"#### {number}. [[{hyp_id}|{c.title or hyp_id}]]",
        "",
        f"> {c.claim}",
        "",
        f"- **{words['refs']}**: " + " · ".join(ref_link(r, words is WORDS["zh"]) for r in c.supporting_refs),
        f"- **{words['applies']}**: " + words["or"].join(c.applies_when),
        f"- **{words['confidence']}**: {words.get('value ' + c.confidence, c.confidence)} · **{words['impact']}**: "
        f"{words.get('value ' + c.impact, c.impact)} ({c.impact_reason})",
        f"- **{words['matters']}**: {c.why_it_matters}",
        f"- **{words['wrong']}**: " + words["or"].join(c.disconfirm_if),
    ])


def _rejections(outcome: WalkOutcome, words: dict[str, str]) -> str:
    if not outcome.candidates:
        return words["nothing to judge"]
    rows, spare = [], []
    for candidate, verdict in zip(outcome.candidates, outcome.verdicts):
        if verdict.accepted:
            continue
        title = candidate.title or candidate.claim[:60]
        if verdict.rules == ("beyond-the-few",):
            spare.append(title)
            continue
        if words is WORDS["zh"]:
            reasons = "；".join(f"**{rule}**：{_rule_zh(rule, candidate)}" for rule in verdict.rules)
            rows.append(f"- *{title}*：{reasons}。")
        else:
            reasons = "; ".join(f"**{rule}**: {reason}" for rule, reason in zip(verdict.rules, verdict.reasons))
            rows.append(f"- *{title}*. {reasons}")
    if spare:
        rows.append("- " + words["spare"].format(titles=", ".join(spare)))
    return "\n".join(rows) if rows else words["none rejected"]


def _rule_zh(rule: str, candidate: Candidate) -> str:
    grounding = candidate.grounding or {}
    if rule == "below-the-floor" and "evidence" in grounding:
        evidence = Evidence.of(grounding["evidence"])
        return WORDS["zh"]["below the floor"].format(score=grounding.get("score", 0.0), keep=floor(evidence),
                                                    why=explain(evidence, "zh"))
    return RULES_ZH.get(rule, rule)


def _noteworthy(outcome: WalkOutcome, words: dict[str, str]) -> str:
    lines = []
    for index, entry_id in outcome.noteworthy_ids.items():
        c, v = outcome.candidates[index], outcome.verdicts[index]
        said = words["noteworthy entry"].format(rules=", ".join(v.rules), why=v.flagged_value_reason)
        lines.append(f"- [[{entry_id}|{c.title}]]: {said}")
    return "\n".join(lines)


def _review_notes(outcome: WalkOutcome, words: dict[str, str]) -> str:
    kept, total = len(outcome.hypothesis_ids), len(outcome.candidates)
    hood = outcome.neighbourhood
    text = words["read"].format(items=len(hood.items), near=len(hood.near), middle=len(hood.middle),
                                far=len(hood.far), total=total, s="" if total == 1 else "s", kept=kept)
    if kept:
        first = outcome.candidates[next(iter(outcome.hypothesis_ids))]
        terms = (first.grounding or {}).get("rare_terms") or []
        text += (words["start"].format(title=first.title)
                 + (words["thread"].format(terms=", ".join(terms[:3])) if terms else "")
                 + (words["two refs"] if len(first.supporting_refs) <= 2 else
                    words["many refs"].format(count=len(first.supporting_refs))))
    return text + words["decide"]


# --- the picture ------------------------------------------------------------------

RINGS = {"near": 125, "middle": 215, "far": 300}
COLOURS = {"seed": "#b5523b", "near": "#3f6e9e", "middle": "#6b8e4e", "far": "#8a5fa8"}


def render_picture(outcome: WalkOutcome) -> str:
    """An SVG of the walk: rings for the groups, a dot per item, the surviving bridges drawn."""
    width, height = 980, 760
    centre_x, centre = width / 2, height / 2
    hood, words = outcome.neighbourhood, WORDS[language(outcome)]
    position: dict[str, tuple[float, float]] = {hood.seed.path: (centre_x, centre)}
    shapes: list[str] = []
    for group, radius in RINGS.items():
        shapes.append(f'<circle cx="{centre_x}" cy="{centre}" r="{radius}" fill="none" stroke="#d8d2c4" '
                      f'stroke-dasharray="4 5"/>')
        shapes.append(f'<text x="{centre_x}" y="{centre - radius - 6}" text-anchor="middle" class="ring">{words["ring " + group]}</text>')
    for offset, group in enumerate(RINGS):
        items = getattr(hood, group)
        for i, item in enumerate(items):
            # Off the vertical by a different part of a step on each ring, so the top of every ring stays
            # free for its label and dots on neighbouring rings rarely line up.
            angle = 2 * math.pi * (i + 0.5 + 0.15 * offset) / max(len(items), 1) - math.pi / 2
            x = centre_x + RINGS[group] * math.cos(angle)
            y = centre + RINGS[group] * math.sin(angle)
            position[item.path] = (x, y)
    seed_title = _note_name(hood.seed.path)
    labels = Labels(width, [position[i.path] for i in hood.items])
    labels.boxes.append((centre_x - 13, centre - 13, centre_x + 13, centre + 13))  # the seed's own, bigger dot
    labels.take(centre_x, centre + 32, _short(seed_title, 30), "middle", 22)
    for group, radius in RINGS.items():
        labels.take(centre_x, centre - radius - 6, words["ring " + group], "middle", 16)
    shapes += _bridge_lines(outcome, position, labels)
    for group in RINGS:
        for item in getattr(hood, group):
            x, y = position[item.path]
            title = _note_name(item.path)
            lx, ly, anchor = labels.place(x, y, _short(title, 20), prefer_right=x >= centre_x - 1)
            # One group per note, named by its path: the review site makes it a link to the note's page.
            shapes.append(f'<g class="node" data-note="{escape(item.path)}">'
                          f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{COLOURS[group]}"><title>{escape(_reason(item, words))}</title></circle>'
                          f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}"><title>{escape(title)}</title>'
                          f'{escape(_short(title, 20))}</text></g>')
    shapes.append(f'<g class="node" data-note="{escape(hood.seed.path)}">'
                  f'<circle cx="{centre_x}" cy="{centre}" r="13" fill="{COLOURS["seed"]}"/>'
                  f'<text x="{centre_x}" y="{centre + 32}" text-anchor="middle" class="seed">{escape(_short(seed_title, 30))}</text></g>')
    legend = f'<text x="16" y="{height - 16}" class="legend">{escape(words["legend"])}</text>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="19" role="img">\n'
        f'<title>{escape(words["picture title"].format(walk=outcome.walk_id, seed=seed_title))}</title>\n'
        f'<desc>{escape(_picture_words(outcome))}</desc>\n'
        '<style>text{fill:#2d2a26} .ring{fill:#7a7366;font-size:16px;letter-spacing:.08em} '
        '.seed{font-weight:600;font-size:22px} .legend{fill:#5f594f;font-size:16px} .back{fill:#fbf8f1} '
        '.kept{stroke:#b5523b} .rejected{stroke:#a39b8c} .number{fill:#b5523b} .numeral{fill:#fff;font-weight:700} '
        '@media (prefers-color-scheme: dark){text{fill:#e8e2d6} .ring,.legend{fill:#b8b0a2} .back{fill:#23211e} '
        '.rejected{stroke:#6f685c} .kept,.number{stroke:#e0805f;fill:#e0805f} .kept{fill:none} .numeral{fill:#23211e}}</style>\n'
        f'<rect width="{width}" height="{height}" rx="14" class="back"/>\n' + "\n".join(shapes) + "\n" + legend + "\n</svg>\n"
    )


class Labels:
    """Where each dot's label goes: beside its dot, on the side that overlaps no label or dot placed so far
    (or up to two lines above or below), so names stay readable; when no spot is free, the side that stays
    on the canvas. Widths are estimated from the font size."""

    def __init__(self, width: float, dots: list[tuple[float, float]]) -> None:
        self.width = width
        self.boxes = [(x - 7, y - 7, x + 7, y + 7) for x, y in dots]  # every dot, so no label covers one

    def spot(self, points: list[tuple[float, float]], radius: float) -> tuple[float, float]:
        """The first of ``points`` where a circle of ``radius`` covers no label or dot placed so far."""
        for x, y in points:
            box = (x - radius, y - radius, x + radius, y + radius)
            if not any(_overlap(box, b) for b in self.boxes):
                break
        else:
            x, y = points[0]
        self.boxes.append((x - radius, y - radius, x + radius, y + radius))
        return x, y

    def take(self, x: float, y: float, text: str, anchor: str, size: float = 19) -> tuple[float, float, float, float]:
        wide = 0.56 * size * len(text)
        left = {"start": x, "end": x - wide}.get(anchor, x - wide / 2)
        box = (left, y - 0.8 * size, left + wide, y + 0.25 * size)
        self.boxes.append(box)
        return box

    def place(self, x: float, y: float, text: str, prefer_right: bool) -> tuple[float, float, str]:
        sides = [("start", 9), ("end", -9)] if prefer_right else [("end", -9), ("start", 9)]
        wide, own = 0.56 * 19 * len(text), (x - 7, y - 7, x + 7, y + 7)
        for anchor, dx, dy in [(anchor, dx, dy) for dy in (0, -20, 20, -40, 40) for anchor, dx in sides]:
            left = x + dx if anchor == "start" else x + dx - wide
            box = (left, y + 6 + dy - 15, left + wide, y + 6 + dy + 5)
            if 0 <= box[0] and box[2] <= self.width and not any(_overlap(box, b) for b in self.boxes if b != own):
                self.boxes.append(box)
                return x + dx, y + 6 + dy, anchor
        # No free spot: the preferred side that stays on the canvas (a name cut off at the edge cannot be read).
        inside = [(a, d) for a, d in sides if 0 <= (x + d if a == "start" else x + d - wide)
                  and (x + d + wide if a == "start" else x + d) <= self.width]
        anchor, dx = (inside or sides)[0]
        self.take(x + dx, y + 6, text, anchor)
        return x + dx, y + 6, anchor


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _bridge_lines(outcome: WalkOutcome, position: dict[str, tuple[float, float]], labels: Labels) -> list[str]:
    """A line between the passages of each candidate (through all three of a widened one), rejected ones
    first so kept ones are drawn over them, and each kept one's number from the report on its first line,
    as near its middle as it can sit without covering a name or a dot (a line across the centre would put
    it on the seed's name)."""
    bridges, numbers = [], []
    kept_order = {index: n for n, index in enumerate(outcome.hypothesis_ids, start=1)}
    for index, candidate in enumerate(outcome.candidates):
        ends = [position[end.path] for end in candidate.bridge if end.path in position]
        kept = index in outcome.hypothesis_ids
        style = 'class="kept" stroke-width="4"' if kept else 'class="rejected" stroke-width="1.5" stroke-dasharray="4 5"'
        for (x1, y1), (x2, y2) in zip(ends, ends[1:]):
            bridges.append((kept, f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>'))
        if kept and len(ends) >= 2:  # the number of the hypothesis in the report, on its line
            (x1, y1), (x2, y2) = ends[0], ends[1]
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            nx, ny = (y1 - y2) / length, (x2 - x1) / length  # across the line: beside it when it runs under a name
            mx, my = labels.spot([(x1 + t * (x2 - x1) + side * nx, y1 + t * (y2 - y1) + side * ny)
                                  for side in (0, 20, -20) for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)], 14)
            numbers.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="14" class="number"/>'
                           f'<text x="{mx:.1f}" y="{my + 6:.1f}" text-anchor="middle" class="numeral">'
                           f'{kept_order[index]}</text>')
    return [line for kept, line in sorted(bridges, key=lambda b: b[0])] + numbers


def _picture_words(outcome: WalkOutcome) -> str:
    """What the picture shows, in words: its alt text and description."""
    hood = outcome.neighbourhood
    said = WORDS[language(outcome)]["picture"].format(
        seed=_note_name(hood.seed.path), near=len(hood.near), middle=len(hood.middle), far=len(hood.far),
        kept=len(outcome.hypothesis_ids), total=len(outcome.candidates))
    return re.sub(r"[\[\]|]", " ", said)


def _note_name(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def _short(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
