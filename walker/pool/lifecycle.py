"""How a hypothesis leaves active/ (protocol §13): discharge, reject, expire, supersede; mute;
the reviewer's decisions made in the vault; and the health check of the pool.

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
from pathlib import Path
from typing import Any

from walker.errors import WalkerError
from walker.pool.records import FOLDER_OF_STATUS, NOTEWORTHY_STATUS, validate
from walker.pool.store import POOL, STAGING_PREFIX, PoolStore, StoredRecord, read_record
from walker.refs import Ref

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


def find(store: PoolStore, record_id: str) -> StoredRecord:
    matches = [r for r in store.records() if r.id == record_id or r.path.stem == record_id]
    if not matches:
        raise LifecycleError(f"no record {record_id!r} under {store.root}; `walker pool list` shows the ids")
    if len(matches) > 1:
        raise LifecycleError(f"{record_id} is in {len(matches)} folders; run `walker check --repair` first")
    return matches[0]


def laundering(source: str, record: StoredRecord) -> str | None:
    """Why ``source`` is no evidence (§6.2.2), or None. Evidence lies outside the hypothesis and its refs
    and can be found again: a date (a statement or an observation on a day), a URL, or another note."""
    text = source.lower()
    ref_notes = set()
    for ref in record.data.get("supporting_refs") or []:
        path, anchor = Ref.parse(str(ref).lower())
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


# --- the four exits, and mute --------------------------------------------------------


def discharge(store: PoolStore, inbox_folder: str, record_id: str, *, source: str, statement: str,
              evidence: Iterable[str] = (), now: datetime) -> Outcome:
    """Confirmed: a new conclusion note in the inbox, then the record to discharged/ (§13.1)."""
    # The inbox reads notes (markdown-it): imported where it is needed, so a chat hook stays light.
    from walker.inbox import Conclusion, capture, conclusions, properties

    if not statement.strip():
        raise LifecycleError("a discharge needs --statement: the fact in your own words")
    with store.lock():
        record = find(store, record_id)
        if record.data.get("status") not in ("active", "muted"):
            raise LifecycleError(f"{record.id} is {record.data.get('status')}; only active or muted hypotheses discharge")
        why = laundering(source, record)
        if why:
            raise LifecycleError(f"{record.id}: {why}")
        earlier = conclusions(store.vault, inbox_folder).get(record.id)
        if earlier:  # an earlier attempt wrote the note and stopped before moving the record: finish it
            note = earlier[0]
            source = str(properties(note).get("source") or source)
        else:
            note = capture(store.vault, inbox_folder, Conclusion(
                created=now.date().isoformat(), source=source.strip(), statement=statement, inspired_by=record.id,
                corroborating_refs=tuple(str(r) for r in record.data.get("supporting_refs") or ()),
                evidence=tuple(evidence)))
        return _finish_discharge(store, record, note, source.strip(), now, Outcome(written=[note]))


def _finish_discharge(store: PoolStore, record: StoredRecord, note: Path, source: str, now: datetime,
                      outcome: Outcome) -> Outcome:
    from walker.inbox import properties

    # The id is the stable address (a rename outside Obsidian breaks the link; `walker check` finds the
    # note by id and mends it); the link is what Obsidian opens and keeps up to date on a rename inside it.
    conclusion_id = str(properties(note).get("id") or "")
    link = _note_link(store.vault, note)
    changes = {"status": "discharged", "discharged": now.date().isoformat(), "conclusion_id": conclusion_id,
               "conclusion": link, "discharge_source": source}
    outcome.written.append(store.update_record(record, changes, "discharged"))
    outcome.events.append(f"discharge: [[{record.id}]] → {conclusion_id} {link} (source: {source})")
    store.log(_stamp(now), outcome.events)
    return outcome


def reject(store: PoolStore, record_id: str, *, evidence: str, now: datetime) -> Outcome:
    """Refuted: to rejected/ with the refuting evidence (§13.2). Kept, so walks do not regenerate it."""
    if not evidence.strip():
        raise LifecycleError("a rejection needs --evidence: what showed the hypothesis wrong")
    return _move(store, record_id, "rejected", {"rejected": now.date().isoformat(), "rejection_evidence": evidence},
                 f"reject: [[{{id}}]] evidence: {evidence}", now, allowed=("active", "muted"))


def archive(store: PoolStore, record_id: str, *, reason: str, now: datetime) -> Outcome:
    return _move(store, record_id, "archived", {"archived": now.date().isoformat(), "archive_reason": reason},
                 f"archive: [[{{id}}]] ({reason})", now, allowed=("active", "muted", NOTEWORTHY_STATUS))


def mute(store: PoolStore, record_id: str, *, now: datetime, reason: str = "muted by the reviewer") -> Outcome:
    return _move(store, record_id, "muted", {"muted": now.date().isoformat()}, f"mute: [[{{id}}]] ({reason})", now,
                 allowed=("active",))


def unmute(store: PoolStore, record_id: str, *, now: datetime) -> Outcome:
    return _move(store, record_id, "active", {"muted": None}, "unmute: [[{id}]]", now, allowed=("muted",))


def _move(store: PoolStore, record_id: str, status: str, changes: dict[str, Any], event: str, now: datetime,
          allowed: tuple[str, ...]) -> Outcome:
    with store.lock():
        record = find(store, record_id)
        current = record.data.get("status")
        if current not in allowed:
            raise LifecycleError(f"{record.id} is {current}; this applies to {' or '.join(allowed)} records")
        outcome = Outcome()
        outcome.written.append(store.update_record(record, {"status": status, **changes}, FOLDER_OF_STATUS[status]))
        outcome.events.append(event.format(id=record.id))
        store.log(_stamp(now), outcome.events)
        return outcome


# --- in conversation: surfaced, engaged, ignored, rejected --------------------------------


def surfaced(store: PoolStore, ids: list[str], mode: str, turn_id: str | None, now: datetime) -> Outcome:
    """Records shown beside an answer: each is used, so it stops ageing toward expiry (§13.3)."""
    outcome = Outcome()
    with store.lock():
        for record_id in ids:  # read only the records shown: a hook must answer fast on a large pool
            path = store.root / "active" / f"{record_id}.md"
            if path.is_file() and not path.is_symlink():
                record = read_record(path, "active")
                store.update_record(record, {"idle_walks": 0, "last_surfaced": now.date().isoformat()})
        for record_id in ids:
            _conversation_event(store, {"hypothesis_id": record_id, "turn_id": turn_id, "surfaced_at": now.isoformat(),
                                        "mode": mode})
            outcome.events.append(f"surface: [[{record_id}]] ({mode}; counts as use, so it stops ageing)")
        store.log(_stamp(now), outcome.events)
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
        evidence = f"rejected in conversation{f' (turn {turn_id})' if turn_id else ''}: {turn or 'no reason given'}"
        return reject(store, record_id, evidence=evidence, now=now)
    done = Outcome()
    with store.lock():
        record = find(store, record_id)
        if record.folder != "active":
            raise LifecycleError(f"{record_id} is {record.data.get('status')}; feedback applies to active records")
        if outcome == "engaged":
            store.update_record(record, {"ignored_in_a_row": 0, "idle_walks": 0, "last_engaged": now.date().isoformat()})
            done.events.append(f"surface-engaged: [[{record_id}]]")
        else:
            ignored = int(record.data.get("ignored_in_a_row") or 0) + 1
            changes: dict[str, Any] = {"ignored_in_a_row": ignored}
            done.events.append(f"surface-ignored: [[{record_id}]] ({ignored} in a row)")
            if ignored >= ignores_to_mute and record.data.get("status") == "active":
                changes.update(status="muted", muted=now.date().isoformat())
                done.events.append(f"mute: [[{record_id}]] (ignored {ignored} times in a row)")
            store.update_record(record, changes)
        store.log(_stamp(now), done.events)
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
            if record.data.get("walk") == walk_id:
                continue
            idle = int(record.data.get("idle_walks") or 0) + 1
            limit = int(record.data.get("expires_after_walks") or 12)
            if idle >= limit:
                reason = f"expired after {idle} walks without being surfaced or engaged"
                store.update_record(record, {"status": "archived", "idle_walks": idle, "archived": now.date().isoformat(),
                                             "archive_reason": reason}, "archived")
                outcome.events.append(f"archive: [[{record.id}]] ({reason})")
            else:
                store.update_record(record, {"idle_walks": idle})
        if outcome.events:
            store.log(_stamp(now), outcome.events)
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
            new_refs = set(new.data.get("supporting_refs") or ())
            for old in list(records.values()):
                old_refs = set(old.data.get("supporting_refs") or ())
                if old.id == new_id or not old_refs or not old_refs < new_refs:
                    continue
                if not agree(str(old.data.get("claim", "")), str(new.data.get("claim", ""))):
                    continue
                store.update_record(old, {"status": "superseded", "superseded_by": new_id,
                                          "archived": now.date().isoformat()}, "archived")
                del records[old.id]
                outcome.events.append(f"archive: [[{old.id}]] superseded by [[{new_id}]]")
        if outcome.events:
            store.log(_stamp(now), outcome.events)
    return outcome


def archive_dead_refs(store: PoolStore, alive: Any, now: datetime) -> Outcome:
    """Active records whose refs no longer resolve are archived with the reason. ``alive(ref) -> bool``."""
    outcome = Outcome()
    with store.lock():
        for record in store.records("active"):
            dead = [str(r) for r in record.data.get("supporting_refs") or () if not alive(str(r))]
            if dead:
                reason = f"refs no longer resolve: {', '.join(dead)}"
                store.update_record(record, {"status": "archived", "archived": now.date().isoformat(),
                                             "archive_reason": reason}, "archived")
                outcome.events.append(f"archive: [[{record.id}]] ({reason})")
        if outcome.events:
            store.log(_stamp(now), outcome.events)
    return outcome


# --- the pool's health -----------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    kind: str
    path: str
    message: str
    repair: str | None = None  # what --repair does about it, if anything
    record: str | None = None  # the record it is about, where that is not the file at ``path``

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "message": self.message, "repair": self.repair}


def check(store: PoolStore, inbox_folder: str, ref_text: Any, report_links: dict[str, list[str]],
          conclusion_notes: dict[str, str] | None = None) -> list[Problem]:
    """Everything wrong with the pool. ``ref_text(ref) -> str | None``; ``report_links``: report -> hyp ids;
    ``conclusion_notes``: conclusion id -> the note's path in the vault, wherever it is now."""
    problems: list[Problem] = []
    seen: dict[str, list[StoredRecord]] = {}
    for record in store.records():
        seen.setdefault(record.id, []).append(record)
        problems += _record_problems(store, record, ref_text, conclusion_notes)
    for record_id, copies in seen.items():
        if len(copies) > 1:
            where = ", ".join(c.path.relative_to(store.vault).as_posix() for c in copies)
            problems.append(Problem("duplicate", where, f"{record_id} is in {len(copies)} folders (a move that did "
                                    "not finish)", "keep the copy whose folder matches its status"))
    for report, linked in report_links.items():
        for missing in sorted(set(linked) - set(seen)):
            problems.append(Problem("missing-record", report, f"links [[{missing}]], which is in no pool folder"))
    problems += _inbox_problems(store, inbox_folder, seen)
    for walk_id, ready in store.staged():
        problems.append(Problem("interrupted-walk", f"{POOL}/{STAGING_PREFIX}{walk_id}",
                                f"walk {walk_id} stopped while its files were being "
                                f"{'moved into place' if ready else 'written'}",
                                "finish it" if ready else "remove it: nothing of it was kept"))
    for temporary in store.root.rglob(".*.tmp"):
        problems.append(Problem("temporary", temporary.relative_to(store.vault).as_posix(),
                                "a write that did not finish", "delete it"))
    return problems


def _record_problems(store: PoolStore, record: StoredRecord, ref_text: Any,
                     conclusion_notes: dict[str, str] | None) -> list[Problem]:
    """One record against its schema, its folder, its conclusion note and the passages it cites."""
    rel = record.path.relative_to(store.vault).as_posix()
    problems = [Problem("schema", rel, message) for message in validate(record.data)]
    expected = FOLDER_OF_STATUS.get(str(record.data.get("status")))
    if expected and expected != record.folder:
        problems.append(Problem("folder", rel, f"status {record.data.get('status')} belongs in {expected}/",
                                f"move it to {expected}/"))
    if conclusion_notes is not None and record.data.get("conclusion_id"):
        problems += _conclusion_problems(record, rel, conclusion_notes)
    if record.folder != "active":
        return problems
    digests = record.data.get("ref_digests") or []
    for position, ref in enumerate(str(r) for r in record.data.get("supporting_refs") or ()):
        text = ref_text(ref)
        if text is None:
            problems.append(Problem("dead-ref", rel, f"{ref} no longer resolves"))
        elif position < len(digests) and digests[position] and digests[position] != _digest(text):
            problems.append(Problem("changed-ref", rel, f"the text cited by {ref} changed since the walk"))
    return problems


def _inbox_problems(store: PoolStore, inbox_folder: str, seen: dict[str, list[StoredRecord]]) -> list[Problem]:
    """Conclusion notes in the inbox written twice, or whose hypothesis was never moved to discharged/."""
    from walker.inbox import conclusions

    problems = []
    vault = store.vault.resolve()
    for record_id, notes in conclusions(store.vault, inbox_folder).items():
        found = [n.relative_to(vault).as_posix() for n in notes]
        if len(notes) > 1:
            problems.append(Problem("duplicate-conclusion", ", ".join(found), f"{len(notes)} conclusion notes were "
                                    f"written for {record_id}; keep one and delete the others by hand",
                                    record=record_id))
        copies = seen.get(record_id, [])
        if copies and all(c.data.get("status") in ("active", "muted") for c in copies):
            problems.append(Problem("half-discharged", found[0],
                                    f"conclusion note exists but {record_id} is still {copies[0].data.get('status')}",
                                    f"finish the discharge of {record_id}", record=record_id))
    return problems


def _conclusion_problems(record: StoredRecord, rel: str, conclusion_notes: dict[str, str]) -> list[Problem]:
    """A discharged record's conclusion note, found by its id: gone, or moved from where the link points."""
    conclusion_id = str(record.data["conclusion_id"])
    found = conclusion_notes.get(conclusion_id)
    if found is None:
        return [Problem("lost-conclusion", rel, f"its conclusion note {conclusion_id} is nowhere in the vault")]
    linked = str(record.data.get("conclusion") or "").removeprefix("[[").partition("|")[0].removesuffix("]]")
    if linked != found.removesuffix(".md"):
        return [Problem("moved-conclusion", rel, f"its conclusion note {conclusion_id} is now {found}",
                        f"point the record at {found}", record=found)]
    return []


def repair(store: PoolStore, problems: list[Problem], now: datetime) -> Outcome:
    """Mend what can be mended without a person's judgement; leave the rest reported."""
    from walker.inbox import properties

    outcome = Outcome()
    order = {"temporary": 0, "duplicate": 1, "folder": 2}
    with store.lock():
        outcome.events += store.recovered  # taking the lock finished or removed interrupted walks
        for problem in sorted(problems, key=lambda p: order.get(p.kind, 9)):
            if not all((store.vault / part).exists() for part in problem.path.split(", ")):
                continue  # an earlier repair already dealt with this file
            if problem.kind == "temporary":
                (store.vault / problem.path).unlink(missing_ok=True)
                outcome.events.append(f"repair: removed {problem.path}")
            elif problem.kind == "folder":
                record = _stored_at(store, problem.path)
                status = str(record.data.get("status"))
                store.update_record(record, {}, FOLDER_OF_STATUS[status])
                outcome.events.append(f"repair: [[{record.id}]] moved to {FOLDER_OF_STATUS[status]}/")
            elif problem.kind == "moved-conclusion" and problem.record:
                record = _stored_at(store, problem.path)
                link = _note_link(store.vault, store.vault / problem.record)
                store.update_record(record, {"conclusion": link})
                outcome.events.append(f"repair: [[{record.id}]] points at its conclusion {link}")
            elif problem.kind == "duplicate":
                copies = [_stored_at(store, p) for p in problem.path.split(", ")]
                keep = [c for c in copies if FOLDER_OF_STATUS.get(str(c.data.get("status"))) == c.folder]
                keep = sorted(keep, key=lambda c: c.path.stat().st_mtime_ns)[-1:] or copies[-1:]
                for copy in copies:
                    if copy.path != keep[0].path:
                        copy.path.unlink()
                outcome.events.append(f"repair: kept {keep[0].path.relative_to(store.vault).as_posix()}")
        if outcome.events:
            store.log(_stamp(now), outcome.events)
    for problem in problems:
        if problem.kind == "half-discharged" and problem.record:
            record = find(store, problem.record)
            note = store.vault / problem.path
            source = str(properties(note).get("source") or "")
            why = laundering(source, record)
            if why:
                outcome.problems.append(f"{problem.path}: not finished, its source is no evidence: {why}")
                continue
            with store.lock():
                _finish_discharge(store, record, note, source, now, outcome)
    return outcome


def ref_digests(refs: Iterable[str], ref_text: Any) -> list[str]:
    """What each ref cited when the walk ran, in the order of ``supporting_refs`` (empty where a ref
    did not resolve), so `walker check` can tell when the cited text changes."""
    return [_digest(text) if (text := ref_text(ref)) is not None else "" for ref in refs]


def _digest(text: str) -> str:
    # Prefixed: a bare hex string such as 9779e9895064 reads back from YAML as a float (infinity).
    return "sha1-" + hashlib.sha1(" ".join(text.split()).encode()).hexdigest()[:12]


def _stored_at(store: PoolStore, rel: str) -> StoredRecord:
    path = store.vault / rel
    return read_record(path, path.parent.name)


def _note_link(vault: Path, note: Path) -> str:
    rel = note.resolve().relative_to(vault.resolve()).as_posix().removesuffix(".md")
    return f"[[{rel}|{rel.rsplit('/', 1)[-1]}]]"


def _stamp(now: datetime) -> str:
    return now.strftime("%Y-%m-%d %H:%M")

