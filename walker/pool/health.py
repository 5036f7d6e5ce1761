"""The pool's health (`walker check`): what is wrong with the records, their folders, the passages they
cite and the conclusion notes they point at; and the repairs that need no person's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from walker.pool.lifecycle import Outcome, digest, find, finish_discharge, laundering, stamp, stored_at, vault_link
from walker.pool.records import FOLDER_OF_STATUS, Hypothesis, validate
from walker.pool.store import POOL, STAGING_PREFIX, PoolStore, StoredRecord


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
    rec = record.record
    expected = FOLDER_OF_STATUS.get(rec.status)
    if expected and expected != record.folder:
        problems.append(Problem("folder", rel, f"status {rec.status} belongs in {expected}/", f"move it to {expected}/"))
    if conclusion_notes is not None and isinstance(rec, Hypothesis) and rec.conclusion_id:
        problems += _conclusion_problems(rec, rel, conclusion_notes)
    if record.folder != "active":
        return problems
    digests = record.data.get("ref_digests") or []  # walker's own bookkeeping, not part of the record's schema
    for position, ref in enumerate(rec.supporting_refs):
        text = ref_text(ref)
        if text is None:
            problems.append(Problem("dead-ref", rel, f"{ref} no longer resolves"))
        elif position < len(digests) and digests[position] and digests[position] != digest(text):
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
        if copies and all(c.record.status in ("active", "muted") for c in copies):
            problems.append(Problem("half-discharged", found[0],
                                    f"conclusion note exists but {record_id} is still {copies[0].record.status}",
                                    f"finish the discharge of {record_id}", record=record_id))
    return problems


def _conclusion_problems(record: Hypothesis, rel: str, conclusion_notes: dict[str, str]) -> list[Problem]:
    """A discharged record's conclusion note, found by its id: gone, or moved from where the link points."""
    conclusion_id = record.conclusion_id
    found = conclusion_notes.get(conclusion_id)
    if found is None:
        return [Problem("lost-conclusion", rel, f"its conclusion note {conclusion_id} is nowhere in the vault")]
    linked = record.conclusion.removeprefix("[[").partition("|")[0].removesuffix("]]")
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
                store.discard(store.vault / problem.path)
                outcome.events.append(f"repair: removed {problem.path}")
            elif problem.kind == "folder":
                record = stored_at(store, problem.path)
                status = record.record.status
                store.update_record(record, {}, FOLDER_OF_STATUS[status])
                outcome.events.append(f"repair: [[{record.id}]] moved to {FOLDER_OF_STATUS[status]}/")
            elif problem.kind == "moved-conclusion" and problem.record:
                record = stored_at(store, problem.path)
                link = vault_link(store.vault, store.vault / problem.record)
                store.update_record(record, {"conclusion": link})
                outcome.events.append(f"repair: [[{record.id}]] points at its conclusion {link}")
            elif problem.kind == "duplicate":
                copies = [stored_at(store, p) for p in problem.path.split(", ")]
                keep = [c for c in copies if FOLDER_OF_STATUS.get(c.record.status) == c.folder]
                keep = sorted(keep, key=lambda c: c.path.stat().st_mtime_ns)[-1:] or copies[-1:]
                for copy in copies:
                    if copy.path != keep[0].path:
                        store.discard(copy.path)
                outcome.events.append(f"repair: kept {keep[0].path.relative_to(store.vault).as_posix()}")
        if outcome.events:
            store.log(stamp(now), outcome.events)
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
                finish_discharge(store, record, note, source, now, outcome)
    return outcome
