"""Bringing a hypothesis into a conversation (protocol §12): silent by default.

Two modes, read from the turn itself (§12.4). **Pull** (C mode): the person asks for another angle
("walk note", "am I missing something?") and gets every eligible active hypothesis, rewrite and
muted ones included, best match first, a few at most. **Auto** (A mode): at most one note, and only
when every gate agrees (§12.2): the turn matches the hypothesis (step 1), its impact is add, one of
its ``applies_when`` matches and none of its ``never_applies_when`` does, the turn is exploratory
(not a task and not a decision: ``walker.turns``), and the record is not muted (step 2).

Scores are absolute cosines in the vault's own TF-IDF space, never normalised among the candidates,
so a weak best match stays weak. The thresholds are asymmetric: a hypothesis needs a clear match to
speak, and a faint match with a ``never_applies_when`` is enough to keep it quiet.
``noteworthy/`` is never read here.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from walker.config import load_settings, table
from walker.pool import lifecycle
from walker.pool.store import POOL, PoolStore, StoredRecord
from walker.similarity import cosine, load_vocabulary, weigh
from walker.turns import EXPLORATORY, classify_turn

MATCH_AUTO = 0.20  # step 1 in auto mode: the turn must be about what the hypothesis is about
MATCH_PULL = 0.05  # a pull asks for angles: a faint match is still worth listing
APPLIES = 0.15  # one applies_when must match at least this well
NEVER = 0.12  # one never_applies_when matching this well keeps the note back (lower: easier to block)
IGNORES_TO_MUTE = 3

PULL_PHRASES = (
    "walk note", "walk notes", "散步看看", "散步", "any other angle", "another angle", "am i missing something",
    "what am i missing", "what else could this be", "what else might", "other perspective", "different angle",
    "还有别的角度吗", "别的角度", "我是不是漏了什么", "漏了什么",
)
@dataclass(frozen=True)
class SurfaceSettings:
    """The ``[surface]`` table of walker.toml."""

    enabled: bool = True


@dataclass
class Surfacing:
    mode: str
    surfaced: list[dict[str, Any]] = field(default_factory=list)
    silent_reason: str | None = None
    scores: dict[str, float] = field(default_factory=dict)  # record id -> match, for tuning and audit

    def as_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "surfaced": self.surfaced, "silent_reason": self.silent_reason}


def detect_mode(turn: str) -> str:
    lowered = turn.lower()
    return "pull" if any(phrase in lowered for phrase in PULL_PHRASES) else "auto"


def surface(vault: Path | str, turn: str, mode: str | None = None, limit: int | None = None) -> Surfacing:
    """Which hypotheses, if any, belong beside the answer to this turn. A pull returns every eligible
    one, best first (``limit``: at most that many); auto at most one."""
    root = Path(vault)
    chosen = mode or detect_mode(turn)
    if os.environ.get("WALKER_SURFACE", "").lower() in ("off", "0", "false", "no") or \
            not table(SurfaceSettings, load_settings(root).extra, "surface").enabled:
        return Surfacing(chosen, silent_reason="surfacing is switched off")
    vocabulary = load_vocabulary(root) or _build_vocabulary(root)
    records = PoolStore(root).records("active")  # never noteworthy/
    if not records:
        return Surfacing(chosen, silent_reason="no active hypotheses")
    turn_vector = weigh(turn, vocabulary)
    scores = {r.id: cosine(turn_vector, weigh(_text_of(r), vocabulary)) for r in records}
    result = Surfacing(chosen, scores={k: round(v, 3) for k, v in scores.items()})
    ranked = sorted(records, key=lambda r: (-scores[r.id], r.id))
    if chosen == "pull":
        if not weigh(_without_pull_phrases(turn), vocabulary):
            # A bare "walk note" names no subject: the pool's newest and surest first.
            rank = {"high": 0, "medium": 1, "low": 2}
            picked = sorted(records, key=lambda r: (str(r.data.get("created", "")),
                                                    -rank.get(str(r.data.get("confidence")), 3)), reverse=True)
        else:
            picked = [r for r in ranked if scores[r.id] >= MATCH_PULL]
        result.surfaced = [_entry(r) for r in picked[:limit]]
        if not picked:
            result.silent_reason = "no hypothesis matches this turn even faintly"
        return result
    moment = classify_turn(turn)
    if moment.kind != EXPLORATORY:
        result.silent_reason = f"a side note waits for an exploratory turn; this one is {moment.kind} ({moment.reason})"
        return result
    reasons = []
    for record in ranked:
        why = _blocked(record, scores[record.id], turn_vector, vocabulary)
        if why is None:
            result.surfaced = [_entry(record)]
            return result
        reasons.append(f"{record.id}: {why}")
    result.silent_reason = reasons[0] if reasons else "nothing eligible"
    return result


def _blocked(record: StoredRecord, score: float, turn: dict[str, float], vocabulary: dict[str, float]) -> str | None:
    data = record.data
    if data.get("status") == "muted":
        return "muted"
    if data.get("impact") != "add":
        return "impact is rewrite: shown only when asked for"
    if score < MATCH_AUTO:
        return f"match {score:.2f} is below {MATCH_AUTO}"
    # A never_applies_when names a kind of situation ("following the steps to get it done today"); the
    # record's own subject is in it too, and a turn on that subject must not be kept back for that.
    subject = weigh(" ".join([str(data.get("claim", "")), *map(str, data.get("applies_when") or [])]), vocabulary)
    situation = _without(turn, subject)
    never = max((cosine(situation, _without(weigh(t, vocabulary), subject)) for t in data.get("never_applies_when") or []),
                default=0.0)
    if never >= NEVER:
        return "a never_applies_when matches"
    applies = max((cosine(turn, weigh(t, vocabulary)) for t in data.get("applies_when") or []), default=0.0)
    if applies < APPLIES:
        return "no applies_when matches"
    return None


def _without_pull_phrases(turn: str) -> str:
    lowered = turn.lower()
    for phrase in sorted(PULL_PHRASES, key=len, reverse=True):
        lowered = lowered.replace(phrase, " ")
    return lowered


def _without(vector: dict[str, float], words: dict[str, float]) -> dict[str, float]:
    """A vector with some words taken out, normalised again."""
    kept = {w: v for w, v in vector.items() if w not in words}
    norm = sum(v * v for v in kept.values()) ** 0.5 or 1.0
    return {w: v / norm for w, v in kept.items()}


def _text_of(record: StoredRecord) -> str:
    data = record.data
    refs = " ".join(str(r).partition("#")[0].rsplit("/", 1)[-1].removesuffix(".md") for r in data.get("supporting_refs") or [])
    return " ".join([str(data.get("seed", "")), str(data.get("claim", "")), str(data.get("title", "")), refs])


def _entry(record: StoredRecord) -> dict[str, Any]:
    data = record.data
    return {"id": record.id, "claim": str(data.get("claim", "")).strip(),
            "supporting_refs": list(data.get("supporting_refs") or []), "confidence": data.get("confidence"),
            "impact": data.get("impact"), "why_it_matters": data.get("why_it_matters", "")}


def side_note(entry: dict[str, Any]) -> str:
    """The shape a note takes after the main answer: a rule, a header, the claim, why, the refs."""
    sentences = re.split(r"(?<=[.!?”])\s+", entry["claim"])
    claim = " ".join(sentences[:3])
    lines = ["---", f"Walk note ({entry['id']}, confidence {entry['confidence']})", claim]
    if entry.get("why_it_matters"):
        lines.append(f"Why it might matter: {entry['why_it_matters']}")
    lines.append("Refs: " + ", ".join(entry["supporting_refs"]))
    return "\n".join(lines)


# --- feedback --------------------------------------------------------------------------------


def record_event(vault: Path, event: dict[str, Any]) -> None:
    """Every surfacing and outcome: a line in walks/surface.jsonl, and one in log.md."""
    PoolStore(vault).append("surface.jsonl", json.dumps(event, ensure_ascii=False) + "\n")


def log_surfaced(vault: Path, result: Surfacing, now: datetime, turn_id: str | None) -> None:
    if not result.surfaced:
        return
    for entry in result.surfaced:
        record_event(vault, {"time": now.isoformat(), "event": "surface", "id": entry["id"], "mode": result.mode,
                             "turn_id": turn_id})
    PoolStore(vault).log(now.strftime("%Y-%m-%d %H:%M"),
                         [f"surface: [[{e['id']}]] ({result.mode})" for e in result.surfaced])


def feedback(vault: Path, record_id: str, outcome: str, now: datetime, turn_id: str | None = None,
             turn: str | None = None) -> lifecycle.Outcome:
    """engaged: the count resets and the record stops ageing; ignored: three in a row mute it;
    rejected: it moves to rejected/ with the turn as evidence."""
    if outcome not in ("engaged", "ignored", "rejected"):
        raise lifecycle.LifecycleError(f"outcome {outcome!r}: use engaged, ignored or rejected")
    store = PoolStore(vault)
    record_event(vault, {"time": now.isoformat(), "event": f"surface-{outcome}", "id": record_id, "turn_id": turn_id})
    if outcome == "rejected":
        evidence = f"rejected in conversation{f' (turn {turn_id})' if turn_id else ''}: {turn or 'no reason given'}"
        return lifecycle.reject(store, record_id, evidence=evidence, now=now)
    done = lifecycle.Outcome()
    with store.lock():
        record = lifecycle.find(store, record_id)
        if record.folder != "active":
            raise lifecycle.LifecycleError(f"{record_id} is {record.data.get('status')}; feedback applies to active records")
        if outcome == "engaged":
            store.update_record(record, {"ignored_in_a_row": 0, "idle_walks": 0, "last_engaged": now.date().isoformat()})
            done.events.append(f"surface-engaged: [[{record_id}]]")
        else:
            ignored = int(record.data.get("ignored_in_a_row") or 0) + 1
            changes: dict[str, Any] = {"ignored_in_a_row": ignored}
            done.events.append(f"surface-ignored: [[{record_id}]] ({ignored} in a row)")
            if ignored >= IGNORES_TO_MUTE and record.data.get("status") == "active":
                changes.update(status="muted", muted=now.date().isoformat())
                done.events.append(f"mute: [[{record_id}]] (ignored {ignored} times in a row)")
            store.update_record(record, changes)
        store.log(now.strftime("%Y-%m-%d %H:%M"), done.events)
    return done


def last_surfaced(vault: Path, session: str | None = None) -> dict[str, Any] | None:
    """The latest surface event (for a session, when the client names one)."""
    path = Path(vault) / POOL / "surface.jsonl"
    if not path.is_file():
        return None
    for line in reversed(path.read_text(encoding="utf-8").splitlines()):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "surface" and (session is None or event.get("turn_id", "") and
                                                 str(event.get("turn_id", "")).startswith(session)):
            return event  # type: ignore[no-any-return]
        if event.get("event", "").startswith("surface-") and (session is None or str(event.get("turn_id", "")).startswith(session)):
            return None  # the last note already has its outcome
    return None


def _build_vocabulary(root: Path) -> dict[str, float]:
    """First use on this machine: build the index once (slow); later calls read the cached vocabulary."""
    from walker.workspace import Workspace

    Workspace.open(root).build_index()
    return load_vocabulary(root) or {}

