"""`walker run`: what the timer starts. Apply the reviewer's decisions, walk, age the pool.

Daily is light (one seed); weekly is deep (three independent single-seed passes). A run that
already happened this period is skipped: the cadence decides when walker walks, never a failure
or a request for help (protocol §5.4). Two runs never overlap: the second one says so and stops.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from walker.config import table
from walker.errors import WalkerError
from walker.pool import lifecycle
from walker.pool.records import REVIEW_OUTCOMES, Hypothesis, NoteworthyEntry
from walker.pool.store import PoolBusy, PoolStore, StoredRecord
from walker.walk.critic import CriticContext
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace

CADENCES = {"daily": 1, "weekly": 3}


class RunBusy(WalkerError):
    """Another `walker run` is working on this vault."""


@dataclass(frozen=True)
class RunSettings:
    """The ``[run]`` table of walker.toml."""

    site_dir: str = ""  # rebuild the review site here after each run; empty: do not


@dataclass
class RunReport:
    cadence: str
    period: str
    skipped: str | None = None
    walks: list[dict[str, Any]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    site: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"cadence": self.cadence, "period": self.period, "skipped": self.skipped, "walks": self.walks,
                "events": self.events, "problems": self.problems, "site": self.site}


def period_of(cadence: str, now: datetime) -> str:
    if cadence == "daily":
        return now.date().isoformat()
    year, week, _ = now.isocalendar()
    return f"{year}-W{week:02d}"


def run_lock(store: PoolStore) -> Any:
    """One `walker run` at a time per vault; pool writes inside it take the pool lock as usual."""
    return store.lock(".run.lock", RunBusy(f"another `walker run` is working on {store.vault}"))


def run_cadence(vault: Path, cadence: str, now: datetime, force: bool = False) -> RunReport:
    """One scheduled run. Skips when this period already had its run, unless ``force``."""
    if cadence not in CADENCES:
        raise WalkerError(f"cadence {cadence!r}: use daily or weekly")
    store = PoolStore(vault)
    report = RunReport(cadence, period_of(cadence, now))
    try:
        with run_lock(store):
            _run(vault, store, report, now, force)
    except (RunBusy, PoolBusy) as exc:
        report.skipped = f"{exc}; skipped, the next start of the timer tries again"
    return report


def _run(vault: Path, store: PoolStore, report: RunReport, now: datetime, force: bool) -> None:
    cadence = report.cadence
    done = [r for r in store.runs() if r.get("cadence") == cadence and r.get("period") == report.period]
    if done and not force:
        report.skipped = (f"the {cadence} run for {report.period} already happened "
                          f"(walk {done[-1].get('walk_id')}); --force runs again")
        return
    ws = Workspace.open(vault)
    store.ensure()
    review = apply_reviews(ws, now)
    report.events += review.events
    report.problems += review.problems
    seed_base = int(hashlib.sha1(report.period.encode()).hexdigest()[:8], 16)
    for number in range(CADENCES[cadence]):
        options = WalkOptions(now=now, random_seed=seed_base + number, cadence=cadence, period=report.period)
        try:
            result = run_walk(ws, options)
        except WalkerError as exc:
            store.log(now.strftime("%Y-%m-%d %H:%M"), [f"walk-failed: {exc}"])
            report.problems.append(f"walk {number + 1} of {CADENCES[cadence]} did not run: {exc}")
            continue
        report.walks.append(result.summary())
    critic = CriticContext(ws.corpus, ws.index, set())
    dead = lifecycle.archive_dead_refs(store, lambda ref: critic.ref_text(ref) is not None, now)
    report.events += dead.events
    site_dir = table(RunSettings, ws.settings.extra, "run").site_dir
    if site_dir:
        from walker.schedule import next_start
        from walker.site.build import SiteError, build_site

        target = Path(site_dir) if Path(site_dir).is_absolute() else vault / site_dir
        try:
            report.site = str(build_site(vault, target, timer=next_start(vault)).index)
        except SiteError as exc:
            report.problems.append(f"the site was not rebuilt: {exc}")


def apply_reviews(ws: Workspace, now: datetime) -> lifecycle.Outcome:
    """Apply what reviewers set in Obsidian: outcomes on noteworthy entries, confirm/reject on records.

    An incomplete or invalid edit is reported and the record is left exactly as it is.
    """
    store = ws.pool
    outcome = lifecycle.Outcome()
    noteworthy, active = store.records("noteworthy"), store.records("active")
    outcome.problems += [f"{broken}; walker leaves it alone until it is mended (`walker check` lists every such "
                         "problem)" for path, broken in store.skipped.items() if path.parent.name in ("noteworthy", "active")]
    for record in noteworthy:
        entry = record.record
        choice = entry.human_review_outcome if isinstance(entry, NoteworthyEntry) else ""
        if not choice or choice == "leave":
            continue
        if choice not in REVIEW_OUTCOMES:
            outcome.problems.append(f"{record.id}: human_review_outcome {choice!r} is not rewrite, archive or leave; left as it is")
        elif choice == "archive":
            outcome.events += lifecycle.archive(store, record.id, reason="the reviewer chose archive", now=now).events
        else:
            outcome.events += _rewrite(ws, store, record, now, outcome)
    for record in active:
        hypothesis = record.record
        if not isinstance(hypothesis, Hypothesis) or not hypothesis.review:
            continue
        choice = hypothesis.review
        try:
            if choice == "confirm":
                source, statement = hypothesis.review_source, hypothesis.review_statement
                if not source.strip() or not statement.strip():
                    raise lifecycle.LifecycleError(f"{record.id}: review: confirm needs review_source and review_statement")
                done = lifecycle.discharge(store, ws.settings.inbox_folder, record.id, source=source, statement=statement,
                                           evidence=list(hypothesis.review_evidence), now=now)
            elif choice == "reject":
                evidence = " ".join(hypothesis.review_evidence)
                if not evidence.strip():
                    raise lifecycle.LifecycleError(f"{record.id}: review: reject needs review_evidence")
                done = lifecycle.reject(store, record.id, evidence=evidence, now=now)
            else:
                raise lifecycle.LifecycleError(f"{record.id}: review {choice!r} is not confirm or reject")
        except lifecycle.LifecycleError as exc:
            outcome.problems.append(f"{exc}; left as it is")
            continue
        outcome.events += done.events
    return outcome


def _rewrite(ws: Workspace, store: PoolStore, record: StoredRecord, now: datetime, outcome: lifecycle.Outcome) -> list[str]:
    """A fresh walk from the entry's refs and claim together; the entry is archived as rewritten only
    into survivors that cite at least one of its refs (§13.5). Anything else kept is the walk's own."""
    claim, refs = record.record.claim.strip(), record.record.supporting_refs
    try:
        result = run_walk(ws, WalkOptions(now=now, seed_text=claim, seed_refs=refs, random_seed=len(claim)))
    except WalkerError as exc:
        outcome.problems.append(f"{record.id}: the rewrite walk did not run ({exc}); left as it is")
        return []
    candidates = result.outcome.candidates
    survivors = [hyp_id for index, hyp_id in result.outcome.hypothesis_ids.items()
                 if set(candidates[index].supporting_refs) & set(refs)]
    if not survivors:
        kept = len(result.outcome.hypothesis_ids)
        outcome.problems.append(f"{record.id}: the rewrite found nothing: the walk kept {kept} hypothes"
                                f"{'is' if kept == 1 else 'es'}, none citing the entry's refs; left for another try")
        return []
    with store.lock():
        current = store.find(record.id)
        store.update_record(current, {"status": "archived", "rewritten_as": survivors,
                                      "archived": now.date().isoformat()}, "archived")
        event = f"archive: [[{record.id}]] rewritten as {', '.join(f'[[{s}]]' for s in survivors)}"
        store.log(now.strftime("%Y-%m-%d %H:%M"), [event])
    return [event]

