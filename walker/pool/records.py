"""Pool record schemas: the §9 hypothesis, the §11.6 noteworthy entry, and their Markdown bodies.

A record is one Markdown file. Its YAML frontmatter is the whole record (the
source of truth, edited by reviewers in Obsidian's Properties panel); its body
renders the record for a person and is regenerated on every write, down to the
``## Reviewer notes`` heading, below which everything belongs to the reviewer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from walker.errors import WalkerError
from walker.kinds import KINDS
from walker.refs import ref_link
from walker.words import is_chinese

CONFIDENCE_SCHEME = "ordinal-confidence-v1"
CONFIDENCES = ("low", "medium", "high")
IMPACTS = ("add", "rewrite")
STATUSES = ("active", "muted", "discharged", "rejected", "archived", "superseded")
NOTEWORTHY_STATUS = "rejected-but-noteworthy"
REVIEW_OUTCOMES = ("", "rewrite", "archive", "leave")
# Each kind's label, its plural and what it is, for the pool's readers (walker.kinds defines the kinds).
KIND_WORDS = {name: (kind.label, kind.plural, kind.meaning) for name, kind in KINDS.items()}
FOLDER_OF_STATUS = {
    "active": "active", "muted": "active", "discharged": "discharged", "rejected": "rejected",
    "archived": "archived", "superseded": "archived", NOTEWORTHY_STATUS: "noteworthy",
}
REVIEWER_HEADING = "## Reviewer notes"
HYPOTHESIS_ID = re.compile(r"hyp-(\d{4}-\d{2}-\d{2})-(\d{3,})")
NOTEWORTHY_ID = re.compile(r"hyp-(\d{4}-\d{2}-\d{2})-noteworthy-(\d{3,})")
TEXT, TEXTS, WHOLE = "text", "a list of text", "a whole number"


@dataclass(frozen=True)
class Proposed:
    """One field of what an engine proposes for a hypothesis: its claim and what a reader needs to judge it."""

    name: str
    label: str  # how a reader sees it named: in the record's body, the report, the site and a surfaced note
    shape: str  # TEXT or TEXTS
    asks: str  # how a model engine's answer writes it, in the example its instructions give
    choices: tuple[str, ...] = ()  # the only values it may take, when it has choices
    required: bool = True  # a record without it is not valid
    label_zh: str = ""  # its label where the record is written in Chinese


# The one definition of a hypothesis's proposed fields, in the order a record lists them: the walk's candidates,
# the records written and read back, their validation, and the model engine's answer schema and instructions are
# all made from it. (The rest of a record is the walk's and the pool's bookkeeping: ids, dates, status, refs' notes.)
PROPOSED = (
    Proposed("claim", "Claim", TEXT, '"…"', label_zh="主张"),
    Proposed("supporting_refs", "Refs", TEXTS, '["<ref>", …]', label_zh="出处"),
    Proposed("confidence", "Confidence", TEXT, '"low|medium"', choices=CONFIDENCES, label_zh="把握"),
    Proposed("impact", "Impact", TEXT, '"add|rewrite"', choices=IMPACTS, label_zh="作用"),
    Proposed("impact_reason", "Why this impact", TEXT, '"…"', required=False, label_zh="为什么是这个作用"),
    Proposed("applies_when", "Applies when", TEXTS, '["…"]', label_zh="适用于"),
    Proposed("never_applies_when", "Never when", TEXTS, '["…"]', label_zh="不适用于"),
    Proposed("disconfirm_if", "Wrong if", TEXTS, '["…"]', label_zh="如果这样就是错的"),
    Proposed("why_it_matters", "Why it may matter", TEXT, '"…"', required=False, label_zh="为什么可能重要"),
)
LABELS = {field.name: field.label for field in PROPOSED}
LABELS_ZH = {field.name: field.label_zh for field in PROPOSED}
# What a Chinese record says of its values (English records give them as they are written).
VALUES_ZH = {"low": "低", "medium": "中", "high": "高", "add": "增补", "rewrite": "改写"}
REQUIRED = ("id", "created", "seed", *(field.name for field in PROPOSED if field.required), "confidence_scheme",
            "status", "expires_after_walks")
NOTEWORTHY_REQUIRED = ("id", "created", "seed", "status", "claim", "supporting_refs", "rejection_reason",
                       "flagged_value_reason", "human_review_outcome")


class RecordError(WalkerError, ValueError):
    """A pool record's frontmatter does not match its schema."""


class UnreadableRecord(RecordError):
    """A file named like a record that walker cannot use until a person mends it: not a regular file, not
    YAML, or a property of the wrong shape. ``walker check`` names each problem; every other command
    leaves the file alone and goes on with the records it can read."""

    def __init__(self, path: str, problems: list[str], kind: str = "unreadable") -> None:
        super().__init__(f"{path}: {'; '.join(problems)}")
        self.path, self.problems, self.kind = path, tuple(problems), kind


# --- the shape of each property ------------------------------------------------------------
#
# Checked once, when a record is read (and before walker writes one): what does not fit is a finding
# for `walker check`, never a crash further on. Lenient where Obsidian is: an emptied property (null)
# is absent, one text where a list goes is a list of one, and a number or a date where text goes is
# read as its text.

TEXT_LIMIT = 20_000  # characters in one property; a walk's claim is a few hundred
LIST_LIMIT = 200  # items in one list property; a record cites two or three passages
DEPTH_LIMIT = 8  # nesting inside a reviewer's own property (Obsidian's panel writes none)
SHAPES = {
    **{field.name: field.shape for field in PROPOSED},
    **dict.fromkeys((
        "id", "created", "seed", "kind", "confidence_scheme",
        "status", "walk", "engine", "via", "merge_into", "title", "review", "review_source",
        "review_statement", "conclusion", "conclusion_id", "discharge_pending", "discharge_source", "discharged",
        "rejected", "rejection_evidence", "archived", "archive_reason", "muted", "superseded_by",
        "last_surfaced", "last_engaged", "rejection_reason", "flagged_value_reason", "human_review_outcome"), TEXT),
    **dict.fromkeys((
        "passages", "bridge", "thread", "notes", "ref_digests", "review_evidence", "rewritten_as"), TEXTS),
    **dict.fromkeys(("expires_after_walks", "idle_walks", "ignored_in_a_row"), WHOLE),
}
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # tab, newline and return are text


class _Misfit(Exception):
    """One property's value does not have the shape walker reads; the message completes '<key> …'."""


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be a record's property (a control character, too long), or None."""
    if bad := CONTROL.search(text):
        return f"holds a control character (U+{ord(bad.group()):04X})"
    if len(text) > TEXT_LIMIT:
        return f"is longer than {TEXT_LIMIT} characters"
    return None


def conform(data: Mapping[Any, Any]) -> tuple[dict[str, Any], list[str]]:
    """The properties in the shapes walker reads, and what does not fit, one sentence per property."""
    conformed: dict[str, Any] = {}
    problems = []
    for key, value in data.items():
        name = str(key)
        try:
            if why := text_problem(name):
                raise _Misfit(f"(the property's name) {why}")
            conformed[name] = _conformed(value, SHAPES.get(name), 0)
        except _Misfit as misfit:
            problems.append(f"{name[:80]} {misfit}")
    return conformed, problems


def _conformed(value: Any, shape: str | None, depth: int) -> Any:
    if value is None:
        return None
    if hasattr(value, "isoformat"):  # a date a hand edit left unquoted: ISO text, like everything walker writes
        value = value.isoformat()
    if shape == WHOLE:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _Misfit(f"is {_kind(value)}, not a whole number")
        return value
    if shape == TEXTS and not isinstance(value, list):
        if not isinstance(value, str):
            raise _Misfit(f"is {_kind(value)}, not {TEXTS}")
        value = [value]
    if shape == TEXTS:
        if len(value) > LIST_LIMIT:
            raise _Misfit(f"holds more than {LIST_LIMIT} items")
        return [_conformed(item, TEXT, depth + 1) for item in value if item is not None]
    if isinstance(value, (str, int, float)):  # a bool is an int
        text = value if isinstance(value, str) else str(value)
        if why := text_problem(text):
            raise _Misfit(why)
        return text if shape == TEXT else value
    if shape == TEXT:
        raise _Misfit(f"is {_kind(value)}, not text" if depth == 0 else f"holds {_kind(value)}, where only text goes")
    if depth >= DEPTH_LIMIT:  # a reviewer's own property: any shape, within reason
        raise _Misfit(f"is nested more than {DEPTH_LIMIT} deep")
    if isinstance(value, list):
        return [_conformed(item, None, depth + 1) for item in value]
    if isinstance(value, dict):
        return {str(k): _conformed(v, None, depth + 1) for k, v in value.items()}
    raise _Misfit(f"is {_kind(value)}")


def _kind(value: Any) -> str:
    for kind, name in ((bool, "true or false"), (int, "a number"), (float, "a number"), (str, "text"),
                       (list, "a list"), (dict, "a map")):
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"


def validate(record: Mapping[str, Any]) -> list[str]:
    """Problems with a record's frontmatter, as sentences; empty when it is valid."""
    record, problems = conform(record)
    noteworthy = record.get("status") == NOTEWORTHY_STATUS or "-noteworthy-" in str(record.get("id", ""))
    for key in NOTEWORTHY_REQUIRED if noteworthy else REQUIRED:
        if key not in record:
            problems.append(f"missing {key}")
    pattern = NOTEWORTHY_ID if noteworthy else HYPOTHESIS_ID
    if not pattern.fullmatch(str(record.get("id", ""))):
        problems.append(f"id {_shown(record.get('id'))} does not look like {pattern.pattern}")
    if not record.get("supporting_refs"):
        problems.append("no supporting_refs")
    if noteworthy:
        if record.get("status") not in (NOTEWORTHY_STATUS, "archived"):
            problems.append(f"a noteworthy entry is {_shown(record.get('status'))}; it can only be noteworthy or archived")
        if str(record.get("human_review_outcome") or "") not in REVIEW_OUTCOMES:
            problems.append(f"human_review_outcome must be one of {', '.join(o or '(empty)' for o in REVIEW_OUTCOMES)}")
        return problems
    if record.get("status") not in STATUSES:
        problems.append(f"status {_shown(record.get('status'))} is not one of {', '.join(STATUSES)}")
    for field in PROPOSED:
        if field.choices and (field.required or field.name in record) and record.get(field.name) not in field.choices:
            problems.append(f"{field.name} {_shown(record.get(field.name))} is not one of {', '.join(field.choices)}")
    if record.get("kind") not in (None, "", *KINDS):
        problems.append(f"kind {_shown(record.get('kind'))} is not one of {', '.join(KINDS)}")
    if not isinstance(record.get("expires_after_walks"), int):
        problems.append("expires_after_walks is not a whole number")
    return problems


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


# --- records as read --------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """What every pool record says, read once from its properties and typed. A hand edit that gives a
    field the wrong shape reads as text or as empty, never as a crash: ``validate`` names the problem.
    ``properties`` keeps every property as written, a reviewer's own keys included."""

    id: str
    status: str
    title: str
    claim: str
    supporting_refs: tuple[str, ...]
    passages: tuple[str, ...]  # the text the walk quoted from each supporting ref, in order; empty when unknown
    created: str
    walk: str
    properties: Mapping[str, Any]

    @property
    def noteworthy(self) -> bool:
        return isinstance(self, NoteworthyEntry)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.properties)


@dataclass(frozen=True)
class Hypothesis(Record):
    """A hypothesis (active, muted, or retired as discharged, rejected, archived or superseded)."""

    kind: str
    confidence: str
    impact: str
    impact_reason: str
    applies_when: tuple[str, ...]
    never_applies_when: tuple[str, ...]
    disconfirm_if: tuple[str, ...]
    why_it_matters: str
    thread: tuple[str, ...]
    merge_into: str  # a duplicate's supporting ref to keep (merge the other into it); empty when not said
    expires_after_walks: int
    idle_walks: int
    review: str  # the decision a reviewer set in Obsidian, applied by the next `walker review` or run
    review_source: str  # ...and what it rests on, for a confirm
    review_statement: str
    review_evidence: tuple[str, ...]
    conclusion: str  # the wikilink to the conclusion note, once discharged
    conclusion_id: str


@dataclass(frozen=True)
class NoteworthyEntry(Record):
    """A candidate the critic rejected but flagged as worth a reviewer's look."""

    rejection_reason: str
    flagged_value_reason: str
    human_review_outcome: str  # rewrite, archive or leave, set by the reviewer


def read_properties(data: Mapping[str, Any]) -> Hypothesis | NoteworthyEntry:
    """The typed record for a record file's properties."""
    def text(key: str, default: str = "") -> str:
        value = data.get(key)
        return default if value is None else str(value)

    def texts(key: str) -> tuple[str, ...]:
        value = data.get(key)
        if value is None or value == "":
            return ()
        return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else (str(value),)

    def whole(key: str, default: int) -> int:
        value = data.get(key)
        try:
            return default if value is None else int(value)
        except (TypeError, ValueError):
            return default

    refs, passages = texts("supporting_refs"), texts("passages")
    if len(passages) != len(refs):
        passages = ()  # an older record, or a hand edit that added or dropped a ref: which passage is whose is lost
    common: dict[str, Any] = dict(id=text("id"), status=text("status"), title=text("title"), claim=text("claim"),
                  supporting_refs=refs, passages=passages, created=text("created"), walk=text("walk"),
                  properties=data)
    if data.get("status") == NOTEWORTHY_STATUS or "-noteworthy-" in text("id"):
        return NoteworthyEntry(**common, rejection_reason=text("rejection_reason"),
                               flagged_value_reason=text("flagged_value_reason"),
                               human_review_outcome=text("human_review_outcome").strip().lower())
    return Hypothesis(**common, kind=text("kind"), confidence=text("confidence"), impact=text("impact"),
                      impact_reason=text("impact_reason"), applies_when=texts("applies_when"),
                      never_applies_when=texts("never_applies_when"), disconfirm_if=texts("disconfirm_if"),
                      why_it_matters=text("why_it_matters"), thread=texts("thread"),
                      merge_into=text("merge_into") if text("merge_into") in refs else "",
                      expires_after_walks=whole("expires_after_walks", 12), idle_walks=whole("idle_walks", 0),
                      review=text("review").strip().lower(), review_source=text("review_source"),
                      review_statement=text("review_statement"), review_evidence=texts("review_evidence"),
                      conclusion=text("conclusion"),
                      conclusion_id=text("conclusion_id"))


def confidence_rank(record: Mapping[str, Any]) -> int:
    """Low 0, medium 1, high 2; -1 for a confidence a hand edit made up."""
    value = str(record.get("confidence"))
    return CONFIDENCES.index(value) if value in CONFIDENCES else -1


BODY_EN = {
    "evidence": "Evidence", "rejected": "Rejected because", "worth": "Worth keeping because",
    "decide noteworthy": "Set `human_review_outcome` to `rewrite`, `archive` or `leave` in the properties, then run "
                         "`walker review`.",
    "decide": "To decide, set `review: confirm` with `review_source` and `review_statement`, or `review: reject` with "
              "`review_evidence`, in the properties, then run `walker review`.",
    "conclusion": "Conclusion", "no id": "no id", "colon": ": ",
    "walk": "From the walk of [[{walk}]] ({engine} engine), status **{status}**.",
}
BODY_ZH = {
    "evidence": "证据", "rejected": "被否决，因为", "worth": "值得保留，因为",
    "decide noteworthy": "在属性里把 `human_review_outcome` 设为 `rewrite`、`archive` 或 `leave`，再运行 `walker review`。",
    "decide": "要作决定：在属性里设置 `review: confirm`，并填写 `review_source` 和 `review_statement`；或者设置 "
              "`review: reject`，并填写 `review_evidence`。然后运行 `walker review`。",
    "conclusion": "结论", "no id": "没有 id", "colon": "：",
    "walk": "出自散步 [[{walk}]]（{engine} 引擎），状态 **{status}**。",
}


def render_body(record: Mapping[str, Any]) -> str:
    """The readable part of a record file, everything above ``## Reviewer notes``."""
    title = record.get("title") or record.get("id") or "Untitled hypothesis"
    claim = str(record.get("claim") or "")
    lines = [f"# {title}", "", *(f"> {line}" if line else ">" for line in claim.strip().splitlines()), ""]
    zh = is_chinese(claim)
    labels, said = (LABELS_ZH, BODY_ZH) if zh else (LABELS, BODY_EN)
    value = (lambda v: VALUES_ZH.get(str(v), str(v))) if zh else str
    lines.append(f"**{said['evidence']}**")
    lines += [f"- {ref_link(r, zh)}" for r in record.get("supporting_refs") or []]
    lines.append("")
    if record.get("status") == NOTEWORTHY_STATUS:
        lines += [f"**{said['rejected']}** {record.get('rejection_reason', '')}", "",
                  f"**{said['worth']}** {record.get('flagged_value_reason', '')}", "", said["decide noteworthy"], ""]
    else:
        if record.get("why_it_matters"):
            lines += [f"**{labels['why_it_matters']}** {record['why_it_matters']}", ""]
        for key in ("applies_when", "never_applies_when", "disconfirm_if"):
            lines.append(f"**{labels[key]}**")
            lines += [f"- {item}" for item in record.get(key) or []]
            lines.append("")
        lines += [f"**{labels['confidence']}** {value(record.get('confidence'))} · **{labels['impact']}** "
                  f"{value(record.get('impact'))}{said['colon']}{record.get('impact_reason', '')}", ""]
        if record.get("status") in ("active", "muted"):
            lines += [said["decide"], ""]
        if record.get("conclusion"):
            lines += [f"**{said['conclusion']}** {record['conclusion']} ({record.get('conclusion_id') or said['no id']})", ""]
    if record.get("walk"):
        lines += [said["walk"].format(walk=record["walk"], engine=record.get("engine", ""), status=record.get("status")),
                  ""]
    return "\n".join(lines)
