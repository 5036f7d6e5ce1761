"""One walk pass: seed, wander, inventory, roam, critique, then hand-off to the pool.

Decide first, write last: everything is computed into a WalkOutcome; only then,
under the pool lock, does the store write records, the report, the run record
and the log. A dry run stops before writing.
"""

from __future__ import annotations

import dataclasses
import random
import re
import shlex
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from walker import safeyaml
from walker.config import between, table
from walker.errors import WalkerError
from walker.fitted import MAX_CHARS
from walker.pool import lifecycle
from walker.pool.lifecycle import ref_digests
from walker.pool.recordfile import StoredRecord
from walker.pool.store import POOL, PoolStore
from walker.refs import note_of
from walker.seeds import candidate_seeds, choose_seed
from walker.sensitive import sensitive_inference
from walker.turns import CONVERGENT, EXECUTIVE, request
from walker.walk.candidate import Candidate, hypothesis_record, noteworthy_record
from walker.walk.critic import CriticContext, PoolClaim, Verdict, gate, one_per_refs
from walker.walk.engines import get_engine
from walker.walk.engines.base import WalkContext
from walker.walk.report import WalkOutcome, render_picture, render_report
from walker.wander import (
    Item,
    Neighbourhood,
    Seed,
    neighbourhood,
    paragraph_ref,
    propose,
)
from walker.workspace import Workspace


@dataclass(frozen=True)
class WalkSettings:
    """The ``[walk]`` table of walker.toml."""

    engine: str = "extractive"
    max_hypotheses: int = between(3, 0, 50)
    expires_after_walks: int = between(12, 1, 10000)


AGREEMENT = 0.3  # claims this close in TF-IDF space say the same kind of thing (for supersede)


class NoSeed(WalkerError):
    """No note can seed a walk (every candidate was used recently, or the vault is empty)."""


@dataclass(frozen=True, kw_only=True)
class WalkOptions:
    now: datetime
    seed_text: str | None = None
    seed_note: str | None = None
    seed_refs: tuple[str, ...] = ()  # a rewrite: the walk starts at the first, and retrieves every one
    engine: str | None = None  # None: walker.toml [walk] engine
    random_seed: int = 0
    dry_run: bool = False
    cadence: str | None = None  # set by `walker run`: which scheduled run this walk belongs to
    period: str | None = None


@dataclass
class WalkResult:
    outcome: WalkOutcome
    report: str
    picture: str
    run: dict[str, Any]
    written: list[Path] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "walk_id": o.walk_id,
            "dry_run": not self.written,
            "seed": o.seed.as_dict(),
            "hypotheses": list(o.hypothesis_ids.values()),
            "noteworthy": list(o.noteworthy_ids.values()),
            "candidates": len(o.candidates),
            "rejected": sum(not v.accepted for v in o.verdicts),
            "written": [str(p) for p in self.written],
        }


def run_walk(ws: Workspace, options: WalkOptions) -> WalkResult:
    """Run one walk pass over the workspace's vault."""
    settings = table(WalkSettings, ws.settings.extra, "walk")
    store = ws.pool
    history = store.runs()
    rng = random.Random(options.random_seed)
    records = store.records("active", "rejected")
    seed = _pick_seed(ws, options, history, records, rng)
    hood = _with_refs(ws, neighbourhood(ws.corpus, ws.index, ws.links, seed, ws.wander_settings, options.random_seed),
                      options.seed_refs)
    pool = [PoolClaim(r.id, r.record.status, r.record.claim, r.record.supporting_refs, r.record.passages) for r in records]
    critic = CriticContext(ws.corpus, ws.index, {seed.path} | {i.path for i in hood.items}, pool)
    context = WalkContext(ws.corpus, ws.index, ws.links, hood, critic, {"max_hypotheses": settings.max_hypotheses})
    engine = get_engine(options.engine or settings.engine, ws.settings.extra)

    try:
        inventory = engine.inventory(context)
        candidates = engine.roam(context, inventory)
        engine_verdicts = engine.critique(context, candidates)
    except WalkerError as exc:
        if not options.dry_run:  # a failed walk leaves the pool untouched and says so in the log
            store.ensure()
            store.log(f"{options.now.strftime('%Y-%m-%d %H:%M')} · walk failed",
                      [f"walk-start: seed [[{seed.path.removesuffix('.md')}|{_title(seed.path)}]] ({seed.source})",
                       f"walk-failed: {exc}"])
        raise
    # A model's critic may write the full record for a survivor; the gate judges that record (the run record's
    # roam phase keeps what roam proposed).
    proposed, candidates = candidates, [v.revised or c for c, v in zip(candidates, engine_verdicts)]
    verdicts = one_per_refs(candidates, gate(candidates, critic, engine_verdicts))

    day = options.now.date().isoformat()
    with store.lock() if not options.dry_run else nullcontext():
        walk_id = store.next_walk_id(day)
        hypothesis_ids, noteworthy_ids = _new_ids(store, day, verdicts)
        outcome = WalkOutcome(walk_id, options.now, engine.name, hood, inventory, candidates, engine_verdicts,
                              verdicts, hypothesis_ids, noteworthy_ids)
        result = WalkResult(outcome, render_report(outcome), render_picture(outcome),
                            _run_record(outcome, proposed, options, engine.transcript))
        if not options.dry_run:
            digests = {i: ref_digests(candidates[i].supporting_refs, critic.ref_text) for i in hypothesis_ids}
            result.written = _write(store, outcome, result, settings, digests)
    if not options.dry_run:
        # A completed walk ages the pool, and its new hypotheses may supersede older ones (§13.3, §13.4).
        new_ids = list(hypothesis_ids.values())
        lifecycle.supersede(store, new_ids, options.now, _claims_agree(ws))
        lifecycle.age_pool(store, options.now, walk_id)
    return result


def _new_ids(store: PoolStore, day: str, verdicts: list[Verdict]) -> tuple[dict[int, str], dict[int, str]]:
    """The next free ids of the day for the kept candidates and the noteworthy ones, by candidate index."""
    taken: set[str] = set()
    hypothesis_ids, noteworthy_ids = {}, {}
    for index, verdict in enumerate(verdicts):
        if verdict.accepted:
            hypothesis_ids[index] = taken_id = store.next_hypothesis_id(day, taken)
            taken.add(taken_id)
        elif verdict.noteworthy:
            noteworthy_ids[index] = taken_id = store.next_noteworthy_id(day, taken)
            taken.add(taken_id)
    return hypothesis_ids, noteworthy_ids


def _claims_agree(ws: Workspace) -> Any:
    def agree(old: str, new: str) -> bool:
        vectors = ws.index.transform([old, new])
        return bool(vectors.shape[1]) and float((vectors[0] @ vectors[1].T).toarray()[0, 0]) >= AGREEMENT

    return agree


def _write(store: PoolStore, outcome: WalkOutcome, result: WalkResult, settings: WalkSettings,
           digests: dict[int, list[str]]) -> list[Path]:
    """The walk's records, report, picture, run record and log entry, committed together."""
    files: dict[str, str] = {}
    seed = outcome.seed.proposition
    created = outcome.now.date().isoformat()
    for index, hyp_id in outcome.hypothesis_ids.items():
        record = hypothesis_record(outcome.candidates[index], id=hyp_id, created=created, seed=seed,
                                   walk_id=outcome.walk_id, engine=outcome.engine,
                                   expires_after_walks=settings.expires_after_walks)
        record["ref_digests"] = digests.get(index, [])
        files[f"active/{hyp_id}.md"] = store.record_text("active", record)
    for index, entry_id in outcome.noteworthy_ids.items():
        verdict = outcome.verdicts[index]
        record = noteworthy_record(outcome.candidates[index], id=entry_id, created=created, seed=seed,
                                   walk_id=outcome.walk_id, engine=outcome.engine,
                                   rejection_reason=", ".join(verdict.rules),
                                   flagged_value_reason=verdict.flagged_value_reason or "")
        files[f"noteworthy/{entry_id}.md"] = store.record_text("noteworthy", record)
    if result.picture is not None:
        files[f"reports/{outcome.walk_id}.svg"] = result.picture
    files[f"reports/{outcome.walk_id}.md"] = result.report
    files[f"runs/{outcome.walk_id}.yaml"] = safeyaml.dump(result.run, sort_keys=False, allow_unicode=True, width=100)
    stamp = outcome.now.strftime("%Y-%m-%d %H:%M")
    events = [f"walk-start: seed [[{outcome.seed.path.removesuffix('.md')}|{_title(outcome.seed.path)}]] "
              f"({outcome.seed.source}): “{seed}”"]
    events += [f"walk-emit: [[{i}]] {outcome.candidates[n].title}" for n, i in outcome.hypothesis_ids.items()]
    events += [f"noteworthy: [[{i}]] {outcome.candidates[n].title}" for n, i in outcome.noteworthy_ids.items()]
    events.append(f"walk-end: {len(outcome.hypothesis_ids)} kept of {len(outcome.candidates)} candidates; "
                  f"report [[{outcome.walk_id}]]")
    return store.commit_walk(outcome.walk_id, files, f"{stamp} · walk {outcome.walk_id}", events)


def _run_record(outcome: WalkOutcome, proposed: list[Candidate], options: WalkOptions,
                transcript: list[dict[str, Any]]) -> dict[str, Any]:
    """The walk_run_record: everything needed to audit each phase after the fact."""
    hood = outcome.neighbourhood
    return {
        "walk_id": outcome.walk_id,
        "started": options.now.isoformat(),
        "engine": outcome.engine,
        "random_seed": options.random_seed,
        "cadence": options.cadence,
        "period": options.period,
        "seed": hood.seed.as_dict(),
        "neighbourhood": {group: [i.as_dict() for i in getattr(hood, group)] for group in ("near", "middle", "far")}
        | {"hubs": list(hood.hubs), "notes": list(hood.notes)},
        "phases": {
            "inventory": [e.as_dict() for e in outcome.inventory],
            "roam": [c.as_dict() for c in proposed],
            "critique": [
                {"candidate": n, "title": outcome.candidates[n].title, "engine": outcome.engine_verdicts[n].as_dict(),
                 "gate": v.as_dict(), "kept_as": outcome.hypothesis_ids.get(n) or outcome.noteworthy_ids.get(n)}
                for n, v in enumerate(outcome.verdicts)
            ],
        },
        "hypotheses": list(outcome.hypothesis_ids.values()),
        "noteworthy": list(outcome.noteworthy_ids.values()),
        "transcript": transcript,
    }


def _pick_seed(ws: Workspace, options: WalkOptions, history: list[dict[str, Any]], records: list[StoredRecord],
               rng: random.Random) -> Seed:
    if not ws.corpus.notes:
        raise _no_notes(ws)
    if options.seed_refs:
        path = note_of(options.seed_refs[0])
        if path not in ws.corpus.notes:
            raise NoSeed(f"{options.seed_refs[0]} is not a note of this vault any more")
        proposition, ref = propose(ws.index, ws.corpus.notes[path])
        return Seed(path, (options.seed_text or proposition).strip(), options.seed_refs[0], "rewrite",
                    "the refs and claim of the entry being rewritten")
    # A seed that names a note ("Garden/Truffles.md", "[[Truffles]]") means that note, not a proposition; one written
    # as a note's path or link that names none is a mistake, said with the notes it may have meant.
    text = (options.seed_text or "").strip()
    if seed_note := options.seed_note or (text and (ws.named_note(text) or (text if _NOTE_NAME.fullmatch(text) else ""))):
        path = ws.find_note(seed_note)
        proposition, ref = propose(ws.index, ws.corpus.notes[path])
        return Seed(path, proposition, ref, "given", "named on the command line")
    if options.seed_text:
        if len(options.seed_text) > MAX_CHARS:  # read whole by the guard below, in time in proportion
            raise NoSeed(f"the seed runs to {len(options.seed_text):,} characters; a walk starts from an idea, a sentence "
                         f"or a paragraph (at most {MAX_CHARS:,} characters): give its gist, or --seed-note NOTE")
        if found := sensitive_inference(options.seed_text, deep=True):
            raise NoSeed(f"the seed infers {found}. A walk does not start from what someone's health, mind, "
                         "gender, age, origin, faith, sexuality, politics, family or disability may be; "
                         "say the idea without the person")
        if asked := request(options.seed_text):
            raise NoSeed(f"the seed is {_ASKS[asked.kind]} ({asked.reason}); a walk starts from an idea and "
                         "wanders, it does not decide or do: give it a statement, or a question you wonder about")
        return _seed_from_text(ws, options.seed_text)
    recent = history[-ws.wander_settings.no_reuse_walks:] if ws.wander_settings.no_reuse_walks else []
    used = {str((run.get("seed") or {}).get("path")) for run in recent} | _bridged(records, recent)
    # Enough candidates per source that the last walks' seeds and bridges never use them all up.
    candidates = candidate_seeds(ws.corpus, ws.index, ws.links, options.now, ws.wander_settings,
                                 limit=len(used) + 3, rng=rng)
    seed = choose_seed(candidates, len(history), used, rng)
    if seed is None:
        raise NoSeed("no note can seed a walk: every candidate seeded one of the last "
                     f"{ws.wander_settings.no_reuse_walks} walks or is cited by a hypothesis they kept. "
                     "Pass --seed-note NOTE to choose one.")
    return seed


def _no_notes(ws: Workspace) -> NoSeed:
    left_out = sum(f.is_note and not f.path.lower().startswith(POOL + "/") for f in ws.corpus.files)
    if left_out:
        held = "the one it holds is" if left_out == 1 else f"the {left_out} it holds are all"
        return NoSeed(f"no notes in {ws.root}: {held} left out (templates or excluded files); "
                      f"`walker scan {shlex.quote(str(ws.root))}` says why")
    return NoSeed(f"no notes in {ws.root}; pass your vault's folder, or set WALKER_VAULT")


def _bridged(records: list[StoredRecord], runs: list[dict[str, Any]]) -> set[str]:
    """The notes cited by hypotheses these walks kept that still await review: a walk from one of them would
    mostly find the same bridge again, so it seeds none."""
    kept = {str(i) for run in runs if isinstance(run.get("hypotheses"), list) for i in run["hypotheses"]}
    return {note_of(ref) for r in records if r.folder == "active" and r.id in kept for ref in r.record.supporting_refs}


def _with_refs(ws: Workspace, hood: Neighbourhood, refs: tuple[str, ...]) -> Neighbourhood:
    """The neighbourhood with every note the refs cite among its near items, so a rewrite can cite them all."""
    have = {hood.seed.path} | {i.path for i in hood.items}
    extra = tuple(Item(path, ref, "near", None, 0.0, (), "cited by the entry being rewritten")
                  for ref in refs[1:] if (path := note_of(ref)) in ws.corpus.notes and path not in have)
    return dataclasses.replace(hood, near=extra + hood.near) if extra else hood


_ASKS = {CONVERGENT: "a choice to make", EXECUTIVE: "a task"}
_NOTE_NAME = re.compile(r"\[\[[^\n]+\]\]|[^\n]+\.md")  # a link, or a path to a note


def _seed_from_text(ws: Workspace, text: str) -> Seed:
    """A proposition in the user's words, anchored to the note whose words are closest to it."""
    if ws.index.notes.shape[1] == 0:
        raise NoSeed("the vault has no words to match the seed against")
    vector = ws.index.transform([text])
    scores = ws.index.similarity_to_text(vector)
    best = int(np.argmax(scores)) if len(scores) else 0
    if not len(scores) or scores[best] <= 0:
        raise NoSeed(f"no note shares a word with {text!r}; try --seed-note NOTE")
    path = ws.index.paths[best]
    note = ws.corpus.notes[path]
    section = note.sections[ws.index.best_section(path, vector)] if note.sections else None
    paragraphs = [p for p in ws.index.paragraphs.get(path, []) if section and section.line <= p.line <= section.end_line]
    ref = paragraph_ref(note, paragraphs[0]) if paragraphs else path
    return Seed(path, text.strip(), ref, "given-text", f"closest note to your words (similarity {scores[best]:.2f})")


def _title(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")
