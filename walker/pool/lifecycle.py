"""How a hypothesis leaves active/ (protocol §13): discharge, reject, expire, supersede; mute; and what
became of it in conversation. The pool's health check and its repairs are in ``pool.health``.

Every change goes through the store (round-trip YAML, atomic writes, the lock) and is logged
in walks/log.md with its evidence. Folder and status always agree.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from walker.errors import WalkerError
from walker.pool.records import (
    CONTROL,
    FOLDER_OF_STATUS,
    NOTEWORTHY_STATUS,
    Hypothesis,
    UnreadableRecord,
    text_problem,
)
from walker.pool.store import PoolStore, StoredRecord, read_record
from walker.refs import Ref, note_link
from walker.words import normal, word_count

LAUNDERING_FILLER = frozenset(
    "the a an this that its it hypothesis hypotheses refs ref references reference supporting corpus note notes "
    "docs doc vault walk walker says said per see from in of and as by according to cited citation claim".split()
)


class LifecycleError(WalkerError):
    """A lifecycle command cannot be applied to this record as asked."""


@dataclass
class Outcome:
    """What a lifecycle pass did, for the command to print."""

    events: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)


def laundering(source: str, record: StoredRecord) -> str | None:
    """Why ``source`` is no evidence (§6.2.2), or None. Evidence lies outside the hypothesis and its refs
    and can be found again: a date (a statement or an observation on a day), a URL, or another note."""
    text = source.lower()
    ref_notes = set()
    for ref in record.record.supporting_refs:
        path, anchor = Ref.parse(ref.lower())
        name = Ref(path).title
        ref_notes.add(name)
        for piece in (str(ref).lower(), path, path.removesuffix(".md"), name, anchor):
            if piece:  # an empty anchor must not be "replaced" between every character
                text = text.replace(piece, " ")
    text = re.sub(r"\bhyp-[\w-]+", " ", text)
    words = [w for w in re.findall(r"[^\W_]+", text) if w not in LAUNDERING_FILLER]
    links = [t.rsplit("/", 1)[-1].lower().removesuffix(".md") for t in re.findall(r"\[\[([^\]|#]+)", source)]
    other_note = any(name not in ref_notes for name in links)
    if len(words) < 2 and not other_note:
        return ("the source names only the hypothesis or its refs; name the real evidence, e.g. "
                "'user statement on 2026-11-29' or the observation that settled it")
    lowered = source.lower()
    def cites(ref: str) -> bool:  # the ref's file, or a link to it: a title alone ("at home") is just a word
        path = Ref.parse(ref.lower()).path
        return path in lowered or f"[[{path.removesuffix('.md')}" in lowered

    linked = next((name for name in links if name in ref_notes), None)  # [[Title]], Obsidian's shortest link
    if cited := next((ref for ref in record.record.supporting_refs if cites(ref)), linked):
        return (f"the source names one of the hypothesis's own refs ({cited}): rereading it tests nothing; name "
                "what settled it, e.g. 'user statement on 2026-11-29' or 'measured on 2026-11-28: …'")
    if re.search(r"\bhyp-[\w-]+", source, re.IGNORECASE):
        return ("the source names a hypothesis: a record cannot vouch for itself; name what settled it, e.g. "
                "'user statement on 2026-11-29' or 'measured on 2026-11-28: …'")
    if appeal := _WALKER_APPEAL.search(source):
        return (f"“{appeal.group(0)}” is the hypothesis vouching for itself; name what settled it, e.g. "
                "'user statement on 2026-11-29' or 'measured on 2026-11-28: …'")
    if _DATE.search(source) or _URL.search(source) or other_note:
        return None
    return ("the source is a vague appeal, not evidence; say who or what settled it and when, e.g. "
            "'user statement on 2026-11-29', 'measured on 2026-11-28: …', a URL, or a [[note]] "
            "other than the hypothesis's refs")


_WALKER_APPEAL = re.compile(r"\b(?:walker|auto-?walk|(?:the |this |a )?hypothes[ie]s|the walk|the critic)\b"
                            r"(?:'s)?(?:\s+\w+){0,3}", re.IGNORECASE)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{4}\b|"
                   r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2},? \d{4}\b", re.IGNORECASE)
_URL = re.compile(r"\bhttps?://\S+", re.IGNORECASE)


def restated(statement: str, record: StoredRecord) -> str | None:
    """Why ``statement`` is no conclusion in the reviewer's words (§13.1), or None: the hypothesis's claim copied
    (whole, or a long run of it), or a hedge. A conclusion says what holds; a guess stays a hypothesis."""
    said, claim = normal(statement), normal(record.record.claim)
    whole = word_count(said) >= 4 and said in claim  # "It holds." is in no claim; four words of one are a copy
    if said and (whole or SequenceMatcher(None, said, claim, autojunk=False).ratio() >= COPIED):
        return "the statement repeats the hypothesis's claim; say what you found, in your own words"
    if hedge := _HEDGE.search(statement):
        return (f"“{hedge.group(0)}” hedges: a conclusion says what holds. If it is still a guess, leave the "
                "hypothesis active; if it is wrong, reject it")
    return None


COPIED = 0.9  # this close to the claim, character for character (difflib's ratio), is the claim copied
# "may" unless it is the month ("in May", "May 3"); "could" is left out: "it could not heat" says what happened.
_HEDGE = re.compile(r"(?<!\bin )\bmay\b(?!\s+\d)|\b(?:might|perhaps|possibly|probably|maybe|seems?|appears? to|likely)\b|"
                    r"可能|也许|或许|大概|似乎|好像", re.IGNORECASE)


# --- the four exits, and mute --------------------------------------------------------


def discharge(store: PoolStore, inbox_folder: str, record_id: str, *, source: str, statement: str,
              evidence: Iterable[str] = (), now: datetime) -> Outcome:
    """Confirmed: a new conclusion note in the inbox, then the record to discharged/ (§13.1)."""
    # The inbox reads notes (markdown-it): imported where it is needed, so a chat hook stays light.
    from walker.inbox import Conclusion, capture, conclusions, properties, render, with_id

    if not statement.strip():
        raise LifecycleError("a discharge needs --statement: the fact in your own words")
    evidence = tuple(evidence)
    for name, text in (("--source", source), ("--statement", statement), *(("--evidence", e) for e in evidence)):
        user_text(name, text)
    with store.lock():
        record = store.find(record_id)
        if record.record.status not in ("active", "muted"):
            raise LifecycleError(f"{record.id} is {record.record.status}; only active or muted hypotheses discharge")
        why = laundering(source, record) or restated(statement, record)
        if why:
            raise LifecycleError(f"{record.id}: {why}")
        earlier = [n for n in conclusions(store.vault, inbox_folder).get(record.id, []) if started_here(store, record.id, n)]
        if earlier:  # an earlier attempt wrote the note and stopped before moving the record: finish it
            note = earlier[0]
            source = str(properties(note).get("source") or source)
        else:
            kind, into = (found.kind, found.merge_into) if isinstance(found := record.record, Hypothesis) else ("", "")
            refs = record.record.supporting_refs
            conclusion = with_id(store.vault, inbox_folder, Conclusion(
                created=now.date().isoformat(), source=source.strip(), statement=statement, inspired_by=record.id,
                corroborating_refs=refs, evidence=evidence, kind=kind,
                merge_into=into if kind == "duplicate" else ""))
            store.mark_pending(record.id, conclusion.id, digest(render(conclusion)))
            try:
                note = capture(store.vault, inbox_folder, conclusion)
            except BaseException:
                store.clear_pending(record.id)  # nothing of the discharge is left: it never started
                raise
            try:
                return finish_discharge(store, record, note, source.strip(), now, Outcome(written=[note]))
            except OSError:  # a full disk before the record moved: take back the note this discharge wrote
                if not (store.root / "discharged" / record.path.name).exists():
                    note.unlink(missing_ok=True)
                    store.clear_pending(record.id)
                raise
        return finish_discharge(store, record, note, source.strip(), now, Outcome(written=[note]))


def started_here(store: PoolStore, record_id: str, note: Path) -> bool:
    """Whether ``note`` is the conclusion note the discharge of ``record_id`` under way was writing, word
    for word: a note someone else put in the inbox, claiming to be it, never finishes a discharge."""
    from walker.inbox import read_note

    pending = store.pending(record_id)
    front, text = read_note(note)
    return pending is not None and (str(front.get("id")), digest(text)) == pending


MIN_EVIDENCE_WORDS = 3  # "x", "no" or "wrong" is not evidence; "the passages mean different things" is

# The example text the review site's commands carry for each option: a command copied and run unedited
# must not record the example as the reviewer's evidence.
PLACEHOLDERS = {"--source": "what shows it holds", "--statement": "the fact, in your words",
                "--evidence": "what shows it is wrong"}


def user_text(name: str, text: str) -> str:
    """``text`` when it can go into a record as it is; LifecycleError naming the option otherwise."""
    if why := text_problem(text):
        raise LifecycleError(f"{name} {why}; a record can hold only plain text")
    if name in PLACEHOLDERS and " ".join(text.split()).lower() == PLACEHOLDERS[name]:
        raise LifecycleError(f"{name} is still the example text “{PLACEHOLDERS[name]}”: replace it with what you found")
    return text


def finish_discharge(store: PoolStore, record: StoredRecord, note: Path, source: str, now: datetime,
                      outcome: Outcome) -> Outcome:
    from walker.inbox import properties

    # The id is the stable address (a rename outside Obsidian breaks the link; `walker check` finds the
    # note by id and mends it); the link is what Obsidian opens and keeps up to date on a rename inside it.
    conclusion_id = str(properties(note).get("id") or "")
    link = vault_link(store.vault, note)
    changes = {"status": "discharged", "discharged": now.date().isoformat(), "conclusion_id": conclusion_id,
               "conclusion": link, "discharge_source": source}
    outcome.written.append(store.update_record(record, changes, "discharged"))
    outcome.events.append(discharge_event(record.id, conclusion_id, link, source))
    store.log(stamp(now), outcome.events)
    store.clear_pending(record.id)
    return outcome


def discharge_event(record_id: str, conclusion_id: str, link: str, source: str) -> str:
    return f"discharge: [[{record_id}]] → {conclusion_id} {link} (source: {source})"


def reject(store: PoolStore, record_id: str, *, evidence: str, now: datetime) -> Outcome:
    """Refuted: to rejected/ with the refuting evidence (§13.2). Kept, so walks do not regenerate it."""
    if not evidence.strip():
        raise LifecycleError("a rejection needs --evidence: what showed the hypothesis wrong")
    user_text("--evidence", evidence)
    if word_count(evidence) < MIN_EVIDENCE_WORDS:
        raise LifecycleError(f"--evidence “{evidence.strip()}” says too little: in a few words, what showed the "
                             "hypothesis wrong (a rejection is kept, and later walks never join the pair again)")
    return _move(store, record_id, "rejected", {"rejected": now.date().isoformat(),
                                                "rejection_evidence": evidence},
                 "reject", f" evidence: {evidence}", now, allowed=("active", "muted"))


def archive(store: PoolStore, record_id: str, *, reason: str, now: datetime) -> Outcome:
    return _move(store, record_id, "archived", {"archived": now.date().isoformat(),
                                                "archive_reason": user_text("--reason", reason)},
                 "archive", f" ({reason})", now, allowed=("active", "muted", NOTEWORTHY_STATUS))


def mute(store: PoolStore, record_id: str, *, now: datetime, reason: str = "muted by the reviewer") -> Outcome:
    return _move(store, record_id, "muted", {"muted": now.date().isoformat()}, "mute", f" ({reason})", now,
                 allowed=("active",))


def unmute(store: PoolStore, record_id: str, *, now: datetime) -> Outcome:
    return _move(store, record_id, "active", {"muted": None}, "unmute", "", now, allowed=("muted",))


def _move(store: PoolStore, record_id: str, status: str, changes: dict[str, Any], event: str, detail: str,
          now: datetime, allowed: tuple[str, ...]) -> Outcome:
    """``event: [[id]]<detail>`` in the log; ``detail`` is the user's text as it is (never a template)."""
    with store.lock():
        record = store.find(record_id)
        current = record.record.status
        if current not in allowed:
            raise LifecycleError(f"{record.id} is {current}; this applies to {' or '.join(allowed)} records")
        outcome = Outcome(events=[f"{event}: [[{record.id}]]{detail}"])
        outcome.written.append(store.update_record(record, {"status": status, **changes}, FOLDER_OF_STATUS[status]))
        store.log(stamp(now), outcome.events)
        return outcome


# --- in conversation: surfaced, engaged, ignored, rejected --------------------------------


def surfaced(store: PoolStore, ids: list[str], mode: str, turn_id: str | None, now: datetime) -> Outcome:
    """Records shown beside an answer: each is used, so it stops ageing toward expiry (§13.3)."""
    outcome = Outcome()
    with store.lock():
        for record_id in ids:  # read only the records shown: a hook must answer fast on a large pool
            path = store.root / "active" / f"{record_id}.md"
            try:
                record = read_record(path, "active")
            except UnreadableRecord:
                continue  # gone, or broken by a hand edit: `walker check` says so
            store.update_record(record, {"idle_walks": 0, "last_surfaced": now.date().isoformat()})
        for record_id in ids:
            _conversation_event(store, {"hypothesis_id": record_id, "turn_id": turn_id, "surfaced_at": now.isoformat(),
                                        "mode": mode})
            outcome.events.append(f"surface: [[{record_id}]] ({mode}; counts as use, so it stops ageing)")
        store.log(stamp(now), outcome.events)
    return outcome


def conversation_feedback(store: PoolStore, record_id: str, outcome: str, now: datetime, turn_id: str | None,
                          turn: str | None, ignores_to_mute: int, surfaced_at: str | None = None) -> Outcome:
    """engaged: the count resets and the record stops ageing; ignored: ``ignores_to_mute`` in a row mute
    it; rejected: it moves to rejected/ with the turn as evidence."""
    if outcome not in ("engaged", "ignored", "rejected"):
        raise LifecycleError(f"outcome {outcome!r}: use engaged, ignored or rejected")
    _conversation_event(store, {"hypothesis_id": record_id, "turn_id": turn_id, "surfaced_at": surfaced_at,
                                "outcome": outcome, "recorded_at": now.isoformat()})
    if outcome == "rejected":
        evidence = f"rejected in conversation{f' (turn {turn_id[:200]})' if turn_id else ''}: {(turn or 'no reason given')[:2000]}"
        evidence = CONTROL.sub(" ", evidence)  # what a chat says is evidence, and a record holds plain text
        return reject(store, record_id, evidence=evidence, now=now)
    done = Outcome()
    with store.lock():
        record = store.find(record_id)
        if record.folder != "active":
            raise LifecycleError(f"{record_id} is {record.record.status}; feedback applies to active records")
        if outcome == "engaged":
            store.update_record(record, {"ignored_in_a_row": 0, "idle_walks": 0, "last_engaged": now.date().isoformat()})
            done.events.append(f"surface-engaged: [[{record_id}]]")
        else:
            ignored = int(record.data.get("ignored_in_a_row") or 0) + 1
            changes: dict[str, Any] = {"ignored_in_a_row": ignored}
            done.events.append(f"surface-ignored: [[{record_id}]] ({ignored} in a row)")
            if ignored >= ignores_to_mute and record.record.status == "active":
                changes.update(status="muted", muted=now.date().isoformat())
                done.events.append(f"mute: [[{record_id}]] (ignored {ignored} times in a row)")
            store.update_record(record, changes)
        store.log(stamp(now), done.events)
    return done


def _conversation_event(store: PoolStore, event: dict[str, Any]) -> None:
    """One surface_event line (protocol field names): hypothesis_id, turn_id, surfaced_at, and outcome once known."""
    store.append("surface.jsonl", json.dumps(event, ensure_ascii=False) + "\n")


# --- after every walk: expiry and supersede --------------------------------------------


def age_pool(store: PoolStore, now: datetime, walk_id: str) -> Outcome:
    """One more walk has passed: idle active records age; at expires_after_walks they are archived (§13.3).

    Records created by this very walk do not age. Muted records age too: muting is not engagement.
    """
    outcome = Outcome()
    with store.lock():
        for record in store.records("active"):
            if record.record.walk == walk_id or not isinstance(record.record, Hypothesis):
                continue
            idle = record.record.idle_walks + 1
            limit = record.record.expires_after_walks or 12
            if idle >= limit:
                reason = f"expired after {idle} walks without being surfaced or engaged"
                store.update_record(record, {"status": "archived", "idle_walks": idle, "archived": now.date().isoformat(),
                                             "archive_reason": reason}, "archived")
                outcome.events.append(f"archive: [[{record.id}]] ({reason})")
            else:
                store.update_record(record, {"idle_walks": idle})
        if outcome.events:
            store.log(stamp(now), outcome.events)
    return outcome


def supersede(store: PoolStore, new_ids: Iterable[str], now: datetime, agree: Any) -> Outcome:
    """A new hypothesis whose refs strictly include an active one's, and whose claim agrees with it,
    retires the old one as superseded (§13.4). ``agree(old_claim, new_claim) -> bool``."""
    outcome = Outcome()
    with store.lock():
        records = {r.id: r for r in store.records("active")}
        for new_id in new_ids:
            new = records.get(new_id)
            if new is None:
                continue
            new_refs = set(new.record.supporting_refs)
            for old in list(records.values()):
                old_refs = set(old.record.supporting_refs)
                if old.id == new_id or not old_refs or not old_refs < new_refs:
                    continue
                if not agree(old.record.claim, new.record.claim):
                    continue
                store.update_record(old, {"status": "superseded", "superseded_by": new_id,
                                          "archived": now.date().isoformat()}, "archived")
                del records[old.id]
                outcome.events.append(f"archive: [[{old.id}]] superseded by [[{new_id}]]")
        if outcome.events:
            store.log(stamp(now), outcome.events)
    return outcome


def archive_dead_refs(store: PoolStore, alive: Any, now: datetime) -> Outcome:
    """Active records whose refs no longer resolve are archived with the reason. ``alive(ref) -> bool``."""
    outcome = Outcome()
    with store.lock():
        for record in store.records("active"):
            dead = [r for r in record.record.supporting_refs if not alive(r)]
            if dead:
                reason = f"refs no longer resolve: {', '.join(dead)}"
                store.update_record(record, {"status": "archived", "archived": now.date().isoformat(),
                                             "archive_reason": reason}, "archived")
                outcome.events.append(f"archive: [[{record.id}]] ({reason})")
        if outcome.events:
            store.log(stamp(now), outcome.events)
    return outcome


def ref_digests(refs: Iterable[str], ref_text: Any) -> list[str]:
    """What each ref cited when the walk ran, in the order of ``supporting_refs`` (empty where a ref
    did not resolve), so `walker check` can tell when the cited text changes."""
    return [digest(text) if (text := ref_text(ref)) is not None else "" for ref in refs]


def digest(text: str) -> str:
    # Prefixed: a bare hex string such as 9779e9895064 reads back from YAML as a float (infinity).
    return "sha1-" + hashlib.sha1(" ".join(text.split()).encode()).hexdigest()[:12]


def stored_at(store: PoolStore, rel: str) -> StoredRecord:
    path = store.vault / rel
    return read_record(path, path.parent.name)


def vault_link(vault: Path, note: Path) -> str:
    """The wikilink to a file of the vault, given its path on disk."""
    return note_link(note.resolve().relative_to(vault.resolve()).as_posix())


def stamp(now: datetime) -> str:
    return now.strftime("%Y-%m-%d %H:%M")

