"""The pool's health (`walker check`): what is wrong with the records, their folders, the passages they
cite and the conclusion notes they point at; and the repairs that need no person's judgement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from walker.config import CONFIG_FILE, Settings
from walker.pool.lifecycle import (
    Outcome,
    digest,
    discharge_event,
    finish_discharge,
    laundering,
    stamp,
    started_here,
    stored_at,
    vault_link,
)
from walker.pool.recordfile import read_plain_file
from walker.pool.records import FOLDER_OF_STATUS, Hypothesis, validate
from walker.pool.store import PENDING_PREFIX, POOL, STAGING_PREFIX, PoolStore, StoredRecord
from walker.refs import Ref, heading_label, ref_link
from walker.safefile import REPORT_LIMIT

# A conclusion note as the vault holds it: its path in the vault and its properties.
ConclusionNotes = Mapping[str, list[tuple[str, Mapping[str, Any]]]]  # conclusion id -> every note claiming it


@dataclass(frozen=True)
class Problem:
    kind: str
    path: str  # the file it is about, as a person reads it (several, when it is about several: ``paths``)
    message: str
    repair: str | None = None  # what --repair does about it, if anything
    record: str | None = None  # the record it is about, where that is not the file at ``path``
    paths: tuple[str, ...] = ()  # every file it is about, when there are several (a record in two folders)

    @property
    def files(self) -> tuple[str, ...]:
        return self.paths or (self.path,)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "message": self.message, "repair": self.repair}


def check(store: PoolStore, inbox_folder: str, ref_text: Any, report_links: dict[str, list[str]],
          conclusion_notes: ConclusionNotes | None = None) -> list[Problem]:
    """Everything wrong with the pool. ``ref_text(ref) -> str | None``; ``report_links``: report -> hyp ids;
    ``conclusion_notes``: conclusion id -> the notes in the vault that claim it, wherever they are now."""
    problems: list[Problem] = []
    seen: dict[str, list[StoredRecord]] = {}
    for record in store.records():
        seen.setdefault(record.id, []).append(record)
        problems += _record_problems(store, record, ref_text, conclusion_notes)
    store.runs()
    for path, unreadable in sorted(store.skipped.items()):
        rel = path.relative_to(store.vault).as_posix()
        problems += [Problem(unreadable.kind, rel, message) for message in unreadable.problems]
    for record_id, copies in seen.items():
        if len(copies) > 1:
            where = tuple(c.path.relative_to(store.vault).as_posix() for c in copies)
            problems.append(Problem("duplicate", ", ".join(where), f"{record_id} is in {len(copies)} folders (a move "
                                    "that did not finish)", "keep the copy whose folder matches its status",
                                    paths=where))
    present = set(seen) | {path.stem for path in store.skipped}
    for report, linked in report_links.items():
        for missing in sorted(set(linked) - present):
            problems.append(Problem("missing-record", report, f"links [[{missing}]], which is in no pool folder"))
    problems += _inbox_problems(store, inbox_folder, seen)
    problems += _unlogged(store, seen)
    for walk_id, ready in store.staged():
        problems.append(Problem("interrupted-walk", f"{POOL}/{STAGING_PREFIX}{walk_id}",
                                f"walk {walk_id} stopped while its files were being "
                                f"{'moved into place' if ready else 'written'}",
                                "finish it" if ready else "remove it: nothing of it was kept"))
    for temporary in store.root.rglob(".*.tmp"):
        problems.append(Problem("temporary", temporary.relative_to(store.vault).as_posix(),
                                "a write that did not finish", "delete it"))
    return problems


def settings_problems(settings: Settings) -> list[Problem]:
    """What walker.toml holds that walker does not know (a typo, most often): a finding of `walker check`,
    a warning for every other command."""
    return [Problem("settings", CONFIG_FILE, message) for message in settings.warnings]


def _unlogged(store: PoolStore, seen: dict[str, list[StoredRecord]]) -> list[Problem]:
    """Discharged records log.md says nothing of: the command stopped between the move and the log."""
    try:
        log = read_plain_file(store.root / "log.md", REPORT_LIMIT)
    except FileNotFoundError:
        log = ""
    except (OSError, UnicodeDecodeError):
        return []  # a log walker cannot read whole is no evidence either way
    return [Problem("unlogged", copy.path.relative_to(store.vault).as_posix(),
                    f"{record_id} was discharged, but log.md has no entry for it (the discharge stopped before "
                    "its log line)", "log the discharge", record=record_id)
            for record_id, copies in seen.items() for copy in copies
            if copy.folder == "discharged" and f"\n- discharge: [[{record_id}]]" not in log]


def _record_problems(store: PoolStore, record: StoredRecord, ref_text: Any,
                     conclusion_notes: ConclusionNotes | None) -> list[Problem]:
    """One record against its schema, its folder, its conclusion note and the passages it cites."""
    rel = record.path.relative_to(store.vault).as_posix()
    problems = [Problem("schema", rel, message) for message in validate(record.data)]
    rec = record.record
    expected = FOLDER_OF_STATUS.get(rec.status)
    if expected and expected != record.folder:
        problems.append(Problem("folder", rel, f"status {rec.status} belongs in {expected}/", f"move it to {expected}/"))
    if conclusion_notes is not None and isinstance(rec, Hypothesis) and rec.conclusion_id:
        problems += _conclusion_problems(rec, record.data, rel, conclusion_notes)
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
    """Conclusion notes in the inbox written twice, cut short, or whose hypothesis was never moved to
    discharged/; and what an interrupted discharge left behind."""
    from walker.inbox import conclusions, is_whole, looks_like_conclusion, notes, read_note, temporaries

    problems = []
    vault = store.vault.resolve()
    for note in notes(store.vault, inbox_folder):
        front, text = read_note(note)
        if looks_like_conclusion(text) and not is_whole(front, text):
            what = "is empty" if not text else "is cut short: it has not all a conclusion note holds"
            problems.append(Problem("truncated-conclusion", note.relative_to(vault).as_posix(),
                                    f"{what} (a write stopped by a full disk or a crash?); delete it, or finish "
                                    "it by hand if it is yours"))
    for temporary in temporaries(store.vault, inbox_folder):
        problems.append(Problem("inbox-temporary", temporary.relative_to(vault).as_posix(),
                                "a conclusion note whose writing did not finish", "delete it"))
    started = set()
    for record_id, found_notes in conclusions(store.vault, inbox_folder).items():
        found = [n.relative_to(vault).as_posix() for n in found_notes]
        if len(found_notes) > 1:
            problems.append(Problem("duplicate-conclusion", ", ".join(found), f"{len(found_notes)} conclusion notes "
                                    f"were written for {record_id}; keep one and delete the others by hand",
                                    record=record_id, paths=tuple(found)))
        copies = seen.get(record_id, [])
        if not copies or not all(c.record.status in ("active", "muted") for c in copies):
            continue
        ours = [rel for rel, note in zip(found, found_notes) if started_here(store, record_id, note)]
        if ours:
            started.add(record_id)
            problems.append(Problem("half-discharged", ours[0],
                                    f"conclusion note exists but {record_id} is still {copies[0].record.status}",
                                    f"finish the discharge of {record_id}", record=record_id))
        for rel in (r for r in found if r not in ours):
            problems.append(Problem("unverified-conclusion", rel, f"claims to conclude {record_id}, but it is not the "
                                    "note a discharge of it wrote; walker does not act on it (delete it, or run "
                                    f"`walker discharge {record_id}` with the real evidence)", record=record_id))
    for record_id in store.pending_ids():
        if record_id not in started:
            problems.append(Problem("interrupted-discharge", f"{POOL}/{PENDING_PREFIX}{record_id}",
                                    f"a discharge of {record_id} stopped before its conclusion note was whole, or "
                                    "after it was finished", "remove the mark (run the discharge again if it "
                                    "is still to be done)", record=record_id))
    return problems


def _conclusion_problems(record: Hypothesis, data: Mapping[str, Any], rel: str,
                         conclusion_notes: ConclusionNotes) -> list[Problem]:
    """A discharged record's conclusion note, found by its id: gone, or moved from where the link points.
    A note elsewhere that claims the id is taken for the moved note only when its properties are the
    ones walker wrote for this record."""
    conclusion_id = record.conclusion_id
    claiming = conclusion_notes.get(conclusion_id, [])
    linked = record.conclusion.removeprefix("[[").partition("|")[0].removesuffix("]]")
    if any(path.removesuffix(".md") == linked for path, _ in claiming):
        return []
    wrote = {"source": str(data.get("discharge_source") or ""), "inspired_by": f"[[{record.id}]]"}
    # The refs as walker writes them now, or as it wrote them before they were whole-value links.
    refs = ([ref_link(r) for r in record.supporting_refs], [_earlier_link(r) for r in record.supporting_refs])
    moved = [path for path, front in claiming
             if all(_same(front.get(key), value) for key, value in wrote.items())
             and any(_same(front.get("corroborating_refs"), links) for links in refs)]
    if len(moved) == 1:
        return [Problem("moved-conclusion", rel, f"its conclusion note {conclusion_id} is now {moved[0]}",
                        f"point the record at {moved[0]}", record=moved[0])]
    if not claiming:
        return [Problem("lost-conclusion", rel, f"its conclusion note {conclusion_id} is nowhere in the vault")]
    return [Problem("lost-conclusion", rel, f"its conclusion note {conclusion_id} is not where the record points, "
                    f"and {', '.join(p for p, _ in claiming)} claiming that id "
                    f"{'are several' if moved else 'is not the note walker wrote for it'}; point the record at "
                    "the right one by hand")]



def _earlier_link(ref: str) -> str:
    """A ref as conclusion notes written before 2026-12-01 linked it (a line range named after the link)."""
    parsed = Ref.parse(ref)
    stem, title, anchor = parsed.path.removesuffix(".md"), parsed.title, parsed.anchor
    if not anchor:
        return f"[[{stem}|{title}]]"
    if (lines := parsed.lines) is not None:
        return f"[[{stem}|{title}]] (" + (f"line {lines[0]})" if lines[0] == lines[1] else f"lines {lines[0]}–{lines[1]})")
    shown = anchor[1:].replace("-", " ") if anchor.startswith("^") else heading_label(anchor)
    if shown.lower() == title.lower():
        return f"[[{stem}#{anchor}|{title}]]"
    safe = anchor.replace("|", " ").replace("[", " ").replace("]", " ")
    return f"[[{stem}#{safe}|{title} › {shown}]]"

def _same(found: Any, wrote: Any) -> bool:
    if isinstance(wrote, list):
        return isinstance(found, list) and [str(f) for f in found] == wrote
    return str(found if found is not None else "") == wrote


def repair(store: PoolStore, inbox_folder: str, problems: list[Problem], now: datetime) -> Outcome:
    """Mend what can be mended without a person's judgement; leave the rest reported."""
    outcome = Outcome()
    order = {"temporary": 0, "duplicate": 1, "folder": 2}
    with store.lock():
        outcome.events += store.recovered  # taking the lock finished or removed interrupted walks
        for problem in sorted(problems, key=lambda p: order.get(p.kind, 9)):
            if not all((store.vault / part).exists() for part in problem.files):
                continue  # an earlier repair already dealt with this file
            if event := _mend(store, inbox_folder, problem):
                outcome.events.append(event)
        if outcome.events:
            store.log(stamp(now), outcome.events)
    for problem in problems:
        if problem.kind == "half-discharged" and problem.record:
            _finish(store, problem.record, problem.path, now, outcome)
    return outcome


def _mend(store: PoolStore, inbox_folder: str, problem: Problem) -> str | None:
    """One repair under the lock; the event for the log."""
    from walker.inbox import discard_temporary

    if problem.kind == "temporary":
        store.discard(store.vault / problem.path)
        return f"repair: removed {problem.path}"
    if problem.kind == "inbox-temporary":
        discard_temporary(store.vault, inbox_folder, store.vault / problem.path)
        return f"repair: removed {problem.path}"
    if problem.kind == "interrupted-discharge" and problem.record:
        store.clear_pending(problem.record)
        return f"repair: [[{problem.record}]] forgot a discharge that did not finish"
    if problem.kind == "unlogged" and isinstance(rec := stored_at(store, problem.path).record, Hypothesis):
        source = str(rec.properties.get("discharge_source") or "")
        return (discharge_event(rec.id, rec.conclusion_id, rec.conclusion, source) +
                " (logged by repair: the discharge stopped before its log line)")
    if problem.kind == "folder":
        record = stored_at(store, problem.path)
        folder = FOLDER_OF_STATUS[record.record.status]
        store.update_record(record, {}, folder)
        return f"repair: [[{record.id}]] moved to {folder}/"
    if problem.kind == "moved-conclusion" and problem.record:
        record = stored_at(store, problem.path)
        link = vault_link(store.vault, store.vault / problem.record)
        store.update_record(record, {"conclusion": link})
        return f"repair: [[{record.id}]] points at its conclusion {link}"
    if problem.kind == "duplicate":
        copies = [stored_at(store, p) for p in problem.files]
        keep = [c for c in copies if FOLDER_OF_STATUS.get(c.record.status) == c.folder]
        keep = sorted(keep, key=lambda c: c.path.stat().st_mtime_ns)[-1:] or copies[-1:]
        for copy in copies:
            if copy.path != keep[0].path:
                store.discard(copy.path)
        return f"repair: kept {keep[0].path.relative_to(store.vault).as_posix()}"
    return None


def _finish(store: PoolStore, record_id: str, path: str, now: datetime, outcome: Outcome) -> None:
    """Finish a discharge that wrote its conclusion note and stopped before moving the record."""
    from walker.inbox import properties

    record = store.find(record_id)
    note = store.vault / path
    if not started_here(store, record.id, note):  # checked again: it may have changed since
        outcome.problems.append(f"{path}: not finished, it is not the note the discharge wrote")
        return
    source = str(properties(note).get("source") or "")
    why = laundering(source, record)
    if why:
        outcome.problems.append(f"{path}: not finished, its source is no evidence: {why}")
        return
    with store.lock():
        finish_discharge(store, record, note, source, now, outcome)
