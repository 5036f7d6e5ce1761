"""The page of one hypothesis or noteworthy entry: the claim, each cited passage in the note's own words
with the quoted sentence marked and the shared words in bold, and the decide box with exact commands."""

from __future__ import annotations

import re

from walker.corpus import Corpus
from walker.corpus.resolve import span
from walker.corpus.text import CLOSERS, WIDE_STOPS, Paragraph, ends_wide, read_paragraphs
from walker.kinds import KINDS
from walker.pool.records import KIND_WORDS, LABELS, LABELS_ZH, REVIEWER_HEADING, VALUES_ZH, Hypothesis, NoteworthyEntry
from walker.pool.store import POOL, StoredRecord
from walker.refs import Ref, heading_label, lines_label
from walker.site.decide import BAR, PLACEHOLDER, DecideBox
from walker.site.links import SiteLinks
from walker.site.markup import STATUS_TITLES, as_cell, as_code, as_text, note_labels, short_title, shorten
from walker.site.obsidian import as_obsidian_shows
from walker.words import has_cjk, is_chinese

# The page's own words, in the record's language: Chinese when its claim is. Headings keep their English ids,
# which the decision bar and the site's tests link to.
WORDS = {
    "en": {
        "status": "status **{status}**", "open": "Open the record in Obsidian",
        "confirmed": "**Confirmed** on {day}: the conclusion note is {note} {id}(source: {source}).",
        "rejection_evidence": "Rejected", "archive_reason": "Archived", "superseded_by": "Superseded by",
        "evidence": "Evidence", "why rejected": "Why the critic rejected it", "why worth": "Why it is worth a look",
        "decide": "Decide", "notes": "Reviewer notes", "from walk": "From the walk of [{walk}]({link}).",
        "details": "When it applies, and how sure walker is", "age": "Age: {age} walks; expires after {expires}.",
        "no notes": "None yet. Write yours under **Reviewer notes** at the end of the record, in Obsidian: walker "
                    "never rewrites them.",
    },
    "zh": {
        "status": "状态：**{status}**", "open": "在 Obsidian 里打开这条记录",
        "confirmed": "**已确认**（{day}）：结论笔记是 {note} {id}（依据：{source}）。",
        "rejection_evidence": "已否决", "archive_reason": "已归档", "superseded_by": "已被取代",
        "evidence": "证据", "why rejected": "批评者为什么否决它", "why worth": "为什么值得一看",
        "decide": "决定", "notes": "审阅者笔记", "from walk": "出自散步 [{walk}]({link})。",
        "details": "什么时候适用，walker 有多大把握", "age": "已过 {age} 次散步；{expires} 次后过期。",
        "no notes": "还没有。在 Obsidian 里，把你的笔记写在记录末尾的 **Reviewer notes** 下面：walker 从不改写它们。",
    },
}
STATUS_ZH = {"active": "待定", "muted": "已静音", "discharged": "已确认", "rejected": "已否决", "archived": "已归档",
             "superseded": "已被取代", "rejected-but-noteworthy": "值得一看"}


def language(rec: Hypothesis | NoteworthyEntry) -> str:
    """A record's language: Chinese when its claim is written in Chinese."""
    return "zh" if is_chinese(rec.claim) else "en"


def record_page(record: StoredRecord, source: str, page: str, ages: dict[str, int], corpus: Corpus,
                links: SiteLinks, decide: DecideBox | None, read: dict[str, list[Paragraph]]) -> str:
    """One hypothesis or noteworthy entry: its claim, the decision bar, the passages side by side, and the
    decide box (placeholders, where the site fills in ``decide``). ``read``: cited notes' paragraphs already
    read. The heading and the claim name the two notes by short labels; the evidence names them in full."""
    rec, data = record.record, record.data
    zh = language(rec) == "zh"
    words, labels = WORDS["zh" if zh else "en"], LABELS_ZH if zh else LABELS
    kind = rec.kind if isinstance(rec, Hypothesis) else ""
    if zh and kind in KINDS:
        about = [f"**{as_text(KINDS[kind].confirmed['zh'][0])}**"]
    else:
        about = [f"**{as_text(KIND_WORDS[kind][0])}**: {as_text(KIND_WORDS[kind][2])}"] if kind in KIND_WORDS else []
    status = STATUS_ZH.get(rec.status, rec.status) if zh else STATUS_TITLES.get(rec.status, rec.status).lower()
    lines = [f"# {as_text(short_title(rec.title) if rec.title else record.id)}", "",
             " · ".join([*about, words["status"].format(status=as_text(status)),
                         f"[{words['open']}]({links.obsidian_url(source)})", as_code(record.id)]),
             "{: .walker-meta }", ""]
    if isinstance(rec, Hypothesis) and rec.conclusion:
        lines += [words["confirmed"].format(day=as_text(str(data.get("discharged", ""))),
                                            note=links.convert(rec.conclusion, source, page),
                                            id=as_code(rec.conclusion_id) + " " if rec.conclusion_id else "",
                                            source=as_cell(str(data.get("discharge_source", "")))), ""]  # one line
    for key in ("rejection_evidence", "archive_reason", "superseded_by"):
        if data.get(key) and rec.status != "rejected-but-noteworthy":
            lines += [f"**{words[key]}**: {as_text(str(data[key]))}", ""]
    lines += ["> " + as_text(_labelled(rec.claim, rec.title)).replace("\n", "\n> "), ""]
    if decide:  # right under the claim: a reviewer sure of it at a glance decides without scrolling
        lines += [BAR, ""]
    lines += [f"## {words['evidence']}" + (" {: #evidence }" if zh else ""), ""]
    thread = [t for t in rec.thread if len(t) >= (2 if has_cjk(t) else 3)][:6] if isinstance(rec, Hypothesis) else []
    quoted = rec.passages or ("",) * len(rec.supporting_refs)  # an older record kept none: nothing is marked
    for ref, passage in zip(rec.supporting_refs, quoted):
        lines += _evidence(ref, page, corpus, links, passage, thread, read)
    folded: list[str] = []
    if isinstance(rec, NoteworthyEntry):
        lines += [f"## {words['why rejected']}", "", as_text(rec.rejection_reason), "",
                  f"## {words['why worth']}", "", as_text(rec.flagged_value_reason), ""]
    else:
        if rec.why_it_matters:
            lines += [f"## {labels['why_it_matters']}", "", as_text(rec.why_it_matters), ""]
        if rec.disconfirm_if:
            lines += [f"## {labels['disconfirm_if']}", "", *_listed(rec.disconfirm_if), ""]
        folded = _details(rec, ages, zh)
    if decide:  # after the evidence and what would prove it wrong
        lines += [f"## {words['decide']}" + (" {: #decide }" if zh else ""), "", PLACEHOLDER, ""]
    lines += folded
    lines += [f"## {words['notes']}" + (" {: #reviewer-notes }" if zh else ""), "",
              _reviewer_notes(record, source, page, links, words["no notes"]), ""]
    walk_page = links.pages.get(f"{POOL}/reports/{rec.walk}.md") if rec.walk else None
    if walk_page:
        lines.append(words["from walk"].format(walk=as_text(rec.walk), link=links.relative(page, walk_page)))
    return "\n".join(lines) + "\n"


_QUOTED = re.compile(r"(“[^”]*”|\"[^\"]*\")")


def _labelled(claim: str, title: str) -> str:
    """The claim with each long note name of the title cut to its label, as the heading names it; words
    the claim quotes stay as the note wrote them."""
    long = [(name, short) for name, short in note_labels(title) if short != name] if " ↔ " in title else []
    if not long:
        return claim
    parts = _QUOTED.split(claim)
    for n in range(0, len(parts), 2):  # the even parts are outside quotes
        for name, short in long:
            parts[n] = parts[n].replace(name, short)
    return "".join(parts)


def _listed(values: tuple[str, ...]) -> list[str]:
    return [f"- {as_text(v)}" for v in values] or ["–"]


def _details(rec: Hypothesis, ages: dict[str, int], zh: bool = False) -> list[str]:
    """What the engine wrote for the surfacing gate, and its scores: folded, a reviewer rarely needs it."""
    words, labels = WORDS["zh" if zh else "en"], LABELS_ZH if zh else LABELS
    value = (lambda v: VALUES_ZH.get(v, v)) if zh else str
    details = [f"**{labels['applies_when']}**", "", *_listed(rec.applies_when), "",
               f"**{labels['never_applies_when']}**", "", *_listed(rec.never_applies_when), "",
               f"**{labels['confidence']}** {as_text(value(rec.confidence))}, "
               f"**{labels['impact'] if zh else labels['impact'].lower()}** {as_text(value(rec.impact))}: "
               f"{as_text(rec.impact_reason)}", "",
               words["age"].format(age=ages.get(rec.walk, 0), expires=rec.expires_after_walks)]
    return [f'??? info "{words["details"]}"', "", *(f"    {line}" if line else "" for line in details), ""]


def decide_box(record: StoredRecord, source: str, vault: str, links: SiteLinks, page: str,
               after: StoredRecord | None = None, place: str = "") -> DecideBox | None:
    """What the page's decision bar and decide box need, for a record that waits for a decision.
    ``after``: the next record in the queue that needs one; ``place``: this record's place in the queue."""
    if record.folder not in ("active", "noteworthy"):
        return None
    rec = record.record
    decided = (rec.human_review_outcome if isinstance(rec, NoteworthyEntry) else
               rec.review if isinstance(rec, Hypothesis) else "")
    following = _html(links.relative(page, record_page_path(after))) if after else ""
    return DecideBox(record.folder, record.id, vault, links.obsidian_url(source), decided,
                     muted=rec.status == "muted", next_page=following,
                     next_title=(after.record.title or after.id) if after else "", place=place,
                     queue_page=_html(links.relative(page, "review.md")), language=language(rec))


def record_page_path(record: StoredRecord) -> str:
    """The site page of a record."""
    return f"hypotheses/{record.path.name}"


def _html(relative: str) -> str:
    """A link MkDocs does not rewrite (the bar is filled in after it) to the page built from a .md file."""
    return relative[:-3] + ".html" if relative.endswith(".md") else relative


def _reviewer_notes(record: StoredRecord, source: str, page: str, links: SiteLinks, none_yet: str) -> str:
    """What reviewers wrote under the record's Reviewer notes heading, shown as Obsidian shows it."""
    at = record.body.find(REVIEWER_HEADING)
    notes = record.body[at + len(REVIEWER_HEADING):].strip() if at >= 0 else ""
    if not notes:
        return none_yet
    return links.convert(as_obsidian_shows(notes, titled=True), source, page)


def _evidence(ref: str, page: str, corpus: Corpus, links: SiteLinks, passage: str,
              thread: list[str], read: dict[str, list[Paragraph]]) -> list[str]:
    """A cited passage: a link to it, and its excerpt with the sentence the walk quoted from it (the record's
    ``passages``) marked and the words the two passages share (the thread) in bold."""
    parsed = Ref.parse(ref)
    title, anchor = note_title(parsed.path), parsed.anchor
    place = lines_label(*parsed.lines, is_chinese(title)) if parsed.lines else heading_label(anchor).lstrip("^")
    suffix = f" › {place}" if place and place.lower() != title.lower() else ""
    # Obsidian reads "|", "[" and "]" in a heading as spaces: the target opens the same heading, one link
    target = "#" + anchor.replace("|", " ").replace("[", " ").replace("]", " ") if anchor and parsed.lines is None else ""
    shown = links.convert(f"[[{parsed.path.removesuffix('.md')}{target}|{title}{suffix}]]", POOL + "/x.md", page)
    whole = _excerpt(corpus, ref, read)
    quoted = " ".join(passage.split())
    quoted = quoted if quoted in whole else ""
    excerpt = as_text(_window(whole, around=quoted))
    if quoted and as_text(quoted) in excerpt:
        # A closing == between 。 and a Chinese character is not read as one: Chinese full stops stay outside the mark.
        marked = as_text(quoted)
        inner = marked.rstrip(WIDE_STOPS + CLOSERS) if ends_wide(marked) else marked
        excerpt = excerpt.replace(marked, f"=={inner}=={marked[len(inner):]}", 1)
    for word in thread:
        # An English word in its other forms, between word boundaries; a Chinese one wherever it stands (no spaces).
        pattern = (rf"(?<!\*)({re.escape(as_text(word))})(?!\*)" if has_cjk(word) else
                   rf"(?<![\w*])({re.escape(as_text(word))}(?:s|es|d|ed|ing)?)(?![\w*])")
        excerpt = re.sub(pattern, r"**\1**", excerpt, flags=re.IGNORECASE)
    lines = [f"- {shown}", "    {: .walker-passage }"]
    if excerpt:
        lines += ["", "    > " + excerpt, ""]
    return lines


def _excerpt(corpus: Corpus, ref: str, read: dict[str, list[Paragraph]]) -> str:
    """The cited passage in the note's own words, whole: the block, the heading's section, or the lines."""
    parsed = Ref.parse(ref)
    note = corpus.notes.get(parsed.path)
    lines = span(parsed, note) if note is not None else None
    if note is None or lines is None:
        return ""
    first, last = lines
    path = parsed.path
    if path not in read:  # read once per build: a note cited by many hypotheses is read once
        read[path] = read_paragraphs(corpus.root, note)
    return " ".join(" ".join(p.text for p in read[path] if first <= p.line <= last).split())


def _window(text: str, limit: int = 400, around: str = "") -> str:
    """At most ``limit`` characters of a passage; when it is longer, the part around the sentence ``around``."""
    at = text.find(around) if around else -1
    if at > 0 and len(text) > limit and at + len(around) > limit - 1:
        start = max(0, min(at - (limit - len(around)) // 2, len(text) - limit + 1))
        return "…" + shorten(text[start:].lstrip(), limit - 1)
    return shorten(text, limit)


def dead_refs(record: StoredRecord, corpus: Corpus) -> list[str]:
    dead = []
    for ref in record.record.supporting_refs:
        parsed = Ref.parse(ref)
        note = corpus.notes.get(parsed.path)
        if note is None or span(parsed, note) is None:
            dead.append(str(ref))
    return dead


def note_title(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")
