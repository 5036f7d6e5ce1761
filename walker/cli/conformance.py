"""`walker conformance`: the Auto-Walk protocol's validation checklist, run against a scratch copy of a vault.

Each of the thirteen items runs real walker commands on the copy and says what it ran and what it
saw. The level reached is cumulative, as the protocol defines it: a level counts only when every
item of it and of the levels below passes. The real vault is only read (copied); the copy and its
caches live in a temporary folder that is removed afterwards.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import yaml
from click.testing import CliRunner

from walker.cli.app import json_option, main, print_json

NOW = "2026-12-04T07:50:00"  # the copy's walks happen on a fixed day, so two runs of the check agree
LEVELS = ("L0", "L1", "L2", "L3", "L4")


@dataclass
class Item:
    number: int
    level: str  # the lowest level the protocol asks it of
    title: str
    passed: bool = False
    evidence: list[str] = field(default_factory=list)  # each command run, and what it showed

    def as_dict(self) -> dict[str, Any]:
        return {"item": self.number, "level": self.level, "title": self.title, "passed": self.passed,
                "evidence": self.evidence}


class Scratch:
    """A copy of the vault, and the walker commands run on it with what each printed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner()

    def run(self, item: Item, *args: str) -> tuple[int, str]:
        """Run ``walker ARGS`` on the copy; record the command and the first lines of what it said."""
        result = self.runner.invoke(main, list(args))
        shown = (" ".join(shlex.quote(a) for a in args).replace(shlex.quote(str(self.root)), "COPY")
                 .replace(str(self.root.parent), "SCRATCH"))
        said = " ".join(result.output.split())
        item.evidence.append(f"$ walker {shown} → exit {result.exit_code}: {said[:300]}{'…' if len(said) > 300 else ''}")
        return result.exit_code, result.output

    def json(self, item: Item, *args: str) -> Any:
        code, output = self.run(item, *args, "--json")
        try:
            return json.loads(output) if code == 0 else None
        except ValueError:
            return None

    def records(self, folder: str) -> list[dict[str, Any]]:
        from walker.pool.store import PoolStore

        return [dict(r.data) for r in PoolStore(self.root).records(folder)]


@contextmanager
def scratch_copy(vault: Path) -> Iterator[Scratch]:
    """The vault copied without walker's own output, with caches of its own; removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="walker-conformance-") as temporary:
        copy = Path(temporary) / "vault"
        shutil.copytree(vault, copy, symlinks=True, ignore=_notes_only)
        before = os.environ.get("WALKER_CACHE_DIR")
        os.environ["WALKER_CACHE_DIR"] = str(Path(temporary) / "cache")
        try:
            yield Scratch(copy)
        finally:
            if before is None:
                os.environ.pop("WALKER_CACHE_DIR", None)
            else:
                os.environ["WALKER_CACHE_DIR"] = before


def _notes_only(folder: str, names: list[str]) -> list[str]:
    """What the copy leaves out: walker's own output, version control, the trash, and every file that is
    not a note or a setting (attachments can be large, and no item needs them)."""
    settings = ".obsidian" in Path(folder).parts
    return [n for n in names if n in ("walks", ".git", ".trash") or (not settings and Path(folder, n).is_file()
                                                                       and not n.endswith(".md") and n != "walker.toml")]


def check(vault: Path) -> list[Item]:
    with scratch_copy(vault) as scratch:
        return [step(scratch) for step in STEPS]


def level_reached(items: list[Item]) -> str | None:
    """The highest level whose items, and those of every level below, all pass (None: not even L0)."""
    reached = None
    for level in LEVELS:
        if not all(i.passed for i in items if LEVELS.index(i.level) <= LEVELS.index(level)):
            break
        reached = level
    return reached


# --- the thirteen items ----------------------------------------------------------------------------

CANDIDATE = {"confidence": "low", "impact": "add", "impact_reason": "the two notes are not linked yet, so this adds one",
             "never_applies_when": ["Fixing a concrete problem under a deadline."]}


def _walked(scratch: Scratch, item: Item) -> list[dict[str, Any]]:
    """The copy walked as the weekly timer walks it (three passes), once; its active records."""
    if not (scratch.root / "walks" / "runs").is_dir():
        scratch.run(item, "run", str(scratch.root), "--cadence", "weekly", "--now", NOW)
    return scratch.records("active")


def item_1(scratch: Scratch) -> Item:
    from walker.pool.records import REQUIRED, validate

    item = Item(1, "L0", "A walk pass produces at least one hypothesis with all required fields")
    active = _walked(scratch, item)
    whole = [r for r in active if not validate(r) and all(r.get(k) not in (None, "", []) for k in REQUIRED)]
    item.evidence.append(f"walks/active/ holds {len(active)} hypotheses; {len(whole)} have every required field "
                         f"({', '.join(REQUIRED)})")
    item.passed = bool(whole)
    return item


def _critique(scratch: Scratch, item: Item, candidate: dict[str, Any]) -> dict[str, Any] | None:
    path = scratch.root.parent / f"candidate-{item.number}.yaml"
    path.write_text(yaml.safe_dump([candidate], allow_unicode=True), encoding="utf-8")
    data = scratch.json(item, "critique", str(path), str(scratch.root))
    return data["verdicts"][0] if data else None


def _judge_changed(scratch: Scratch, item: Item, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """The gate's verdict on the first kept hypothesis with ``change`` made to it, or None (none kept)."""
    active = scratch.records("active")
    if not active:
        item.evidence.append("no kept hypothesis to build a candidate from")
        return None
    keep = ("claim", "supporting_refs", "applies_when", "disconfirm_if", "why_it_matters")
    return _critique(scratch, item, change({**CANDIDATE, **{k: active[0][k] for k in keep if k in active[0]}}))


def item_2(scratch: Scratch) -> Item:
    item = Item(2, "L0", "A walk pass rejects candidates lacking supporting_refs")
    _walked(scratch, item)
    verdict = _judge_changed(scratch, item, lambda good: {**good, "supporting_refs": []})
    item.passed = verdict is not None and not verdict["accepted"] and "no-refs" in verdict["rules"]
    return item


def item_3(scratch: Scratch) -> Item:
    item = Item(3, "L0", "The critic rejects sensitive-attribute inferences (a deliberately bad seed)")
    code, output = scratch.run(item, "walk", str(scratch.root), "--seed", "The user is anxious and probably depressed "
                               "about the deadlines", "--now", NOW)
    refused = code == 2 and "attribute" in output
    verdict = _judge_changed(scratch, item, lambda good: {**good, "claim": f"{good['claim']} It suggests the author "
                                                          "is probably anxious and cannot sleep well."})
    item.passed = refused and verdict is not None and "sensitive-attribute" in verdict["rules"]
    return item


def item_4(scratch: Scratch) -> Item:
    item = Item(4, "L0", "The critic rejects a claim that mentions facts absent from its supporting_refs")
    verdict = _judge_changed(scratch, item, lambda good: {**good, "claim": f"{good['claim']} Kubernetes solved this "
                                                          "in 2014, as Little's law predicts."})
    item.passed = verdict is not None and "facts-absent-from-refs" in verdict["rules"]
    return item


def item_5(scratch: Scratch) -> Item:
    item = Item(5, "L0", "Each phase (inventory, roam, critique) leaves a visible trace")
    from walker.pool.store import PoolStore
    from walker.walk.report import WORDS

    runs = PoolStore(scratch.root).runs()
    if not runs:
        item.evidence.append("no run record under walks/runs/")
        return item
    run = max(runs, key=lambda r: len((r.get("phases") or {}).get("critique") or ()))  # the walk that judged most
    phases, walk_id = run.get("phases") or {}, str(run.get("walk_id"))
    report = scratch.root / "walks" / "reports" / f"{walk_id}.md"
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    headings = [f"## {words[key]}" for words in WORDS.values() for key in ("inventory", "candidates", "rejections")
                if f"## {words[key]}" in text]  # in whichever language the report is written
    item.evidence.append(f"walks/runs/{walk_id}.yaml: phases {', '.join(f'{k} ({len(v)})' for k, v in phases.items())}; "
                         f"report {report.name}: {', '.join(h[3:] for h in headings)}")
    item.passed = (set(phases) == {"inventory", "roam", "critique"} and all(len(v) > 0 for v in phases.values())
                   and len(headings) == 3)
    return item


def _surfaced(scratch: Scratch, item: Item, turn: str, *mode: str) -> list[str] | None:
    data = scratch.json(item, "surface", str(scratch.root), "--turn", turn, *mode, "--now", NOW)
    return None if data is None else [str(e["id"]) for e in data["surfaced"]]


def item_6(scratch: Scratch) -> Item:
    item = Item(6, "L3", "Surfacing stays silent during an executive turn (a stack trace)")
    turn = ('Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nKeyError: \'feed\'\nfix this')
    shown = _surfaced(scratch, item, turn)
    item.passed = shown == []
    return item


def _add_record(scratch: Scratch) -> dict[str, Any] | None:
    return next((r for r in scratch.records("active") if r.get("impact") == "add"), None)


def item_7(scratch: Scratch) -> Item:
    item = Item(7, "L3", "Surfacing fires during an exploratory turn (聊聊 X 这个想法)")
    record = _add_record(scratch)
    if record is None:
        item.evidence.append("no active add-impact hypothesis to surface")
        return item
    shown = _surfaced(scratch, item, f"聊聊 {record['applies_when'][0]} 这个想法")
    item.passed = bool(shown)  # auto mode shows at most one: the best match for the turn
    return item


def _rewrite_record(scratch: Scratch, item: Item) -> dict[str, Any] | None:
    """An active rewrite-impact hypothesis: one the walks kept, else a kept one marked rewrite on the copy."""
    from walker.pool.records import Hypothesis
    from walker.pool.store import PoolStore

    found = next((r for r in scratch.records("active") if r.get("impact") == "rewrite"), None)
    if found is not None:
        return found
    store = PoolStore(scratch.root)
    record = next((r for r in store.records("active") if isinstance(r.record, Hypothesis) and r.record.impact == "add"), None)
    if record is None:
        return None
    with store.lock():
        store.update_record(record, {"impact": "rewrite"})
    item.evidence.append(f"marked {record.id} impact: rewrite on the copy (the walks kept none)")
    return next(r for r in scratch.records("active") if r["id"] == record.id)


def item_8(scratch: Scratch) -> Item:
    item = Item(8, "L3", "A rewrite-impact hypothesis does not surface in auto mode")
    record = _rewrite_record(scratch, item)
    if record is None:
        item.evidence.append("no active hypothesis to test with")
        return item
    shown = _surfaced(scratch, item, f"I've been wondering about {record['applies_when'][0]}", "--mode", "auto")
    item.passed = shown is not None and record["id"] not in shown
    return item


def item_9(scratch: Scratch) -> Item:
    item = Item(9, "L3", "Pull mode returns every eligible hypothesis, rewrite included (散步看看)")
    eligible = {r["id"] for r in scratch.records("active")}
    shown = _surfaced(scratch, item, "散步看看")
    rewrite = {r["id"] for r in scratch.records("active") if r.get("impact") == "rewrite"}
    item.evidence.append(f"{len(eligible)} active, {len(rewrite)} of them rewrite")
    item.passed = shown is not None and bool(eligible) and set(shown) == eligible
    return item


def item_10(scratch: Scratch) -> Item:
    item = Item(10, "L4", "A hypothesis ignored after three surfacings is muted")
    record = next((r for r in scratch.records("active") if r.get("status") == "active"), None)
    if record is None:
        item.evidence.append("no active hypothesis to ignore")
        return item
    for _ in range(3):  # each ignore answers a surfacing: feedback on a note never shown is refused
        if record["id"] not in (_surfaced(scratch, item, "walk note", "--mode", "pull") or []):
            item.evidence.append(f"{record['id']} was not surfaced on a pull")
            return item
        scratch.run(item, "feedback", record["id"], "ignored", str(scratch.root), "--now", NOW)
    status = next((r.get("status") for r in scratch.records("active") if r["id"] == record["id"]), None)
    item.evidence.append(f"{record['id']} is now {status}")
    item.passed = status == "muted"
    return item


def item_11(scratch: Scratch) -> Item:
    from walker.inbox import properties

    item = Item(11, "L0", "A confirmed hypothesis spawns a new conclusion note through the inbox; the record is "
                          "not converted in place")
    record = next(iter(scratch.records("active")), None)
    if record is None:
        item.evidence.append("no active hypothesis to confirm")
        return item
    notes_before = {p for p in scratch.root.rglob("*.md") if "walks" not in p.relative_to(scratch.root).parts}
    scratch.run(item, "discharge", record["id"], str(scratch.root), "--source", "conformance check on 2026-12-04",
                "--statement", "Confirmed by the conformance check.", "--now", NOW)
    new = [p for p in scratch.root.rglob("*.md") if "walks" not in p.relative_to(scratch.root).parts
           and p not in notes_before]
    discharged = next((r for r in scratch.records("discharged") if r["id"] == record["id"]), None)
    front = properties(new[0]) if len(new) == 1 else {}
    item.evidence.append(f"new notes: {[p.relative_to(scratch.root).as_posix() for p in new]}; inspired_by "
                         f"{front.get('inspired_by')}; source {front.get('source')!r}")
    item.passed = (len(new) == 1 and discharged is not None and front.get("inspired_by") == f"[[{record['id']}]]"
                   and record["id"] not in str(front.get("source")))
    return item


def item_12(scratch: Scratch) -> Item:
    item = Item(12, "L2", "The walk runner runs on a cadence, not on request")
    code, output = scratch.run(item, "run", str(scratch.root), "--cadence", "weekly", "--now", NOW)
    skipped = code == 0 and "skipped" in output
    code, units = scratch.run(item, "schedule", "show", str(scratch.root), "--cadence", "weekly")
    item.passed = skipped and code == 0 and "OnCalendar=" in units
    return item


def item_13(scratch: Scratch) -> Item:
    from walker.pool.records import NOTEWORTHY_REQUIRED
    from walker.pool.store import PoolStore
    from walker.walk.candidate import noteworthy_record

    item = Item(13, "L1", "noteworthy/ exists, has its own schema, and is never read by surfacing")
    record = next(iter(scratch.records("active") + scratch.records("discharged")), None)
    if record is None:
        item.evidence.append("no hypothesis to build a noteworthy entry from")
        return item
    from walker.walk.candidate import Candidate

    entry = noteworthy_record(Candidate.from_dict({**record, "supporting_refs": record["supporting_refs"][:1]}),
                              id="hyp-2026-12-04-noteworthy-900", created="2026-12-04", seed="conformance",
                              walk_id="conformance", engine="conformance", rejection_reason="single-source",
                              flagged_value_reason="written by the conformance check")
    store = PoolStore(scratch.root)
    with store.lock():
        store.write_record("noteworthy", entry)
    item.evidence.append(f"wrote {entry['id']} to walks/noteworthy/ with its own fields ({', '.join(NOTEWORTHY_REQUIRED)})")
    shown = _surfaced(scratch, item, f"散步看看 {record['claim']}")
    item.passed = (scratch.root / "walks" / "noteworthy").is_dir() and shown is not None and entry["id"] not in shown
    return item


STEPS: tuple[Callable[[Scratch], Item], ...] = (item_1, item_2, item_3, item_4, item_5, item_6, item_7, item_8,
                                               item_9, item_10, item_11, item_12, item_13)


def _default_vault() -> Path:
    here = Path(__file__).resolve().parents[2] / "sample-vault"
    return here if here.is_dir() else Path(os.environ.get("WALKER_VAULT") or ".")


@main.command()
@click.argument("vault", required=False, type=click.Path(file_okay=False, path_type=Path))
@json_option
def conformance(vault: Path | None, as_json: bool) -> None:
    """Run the Auto-Walk checklist (13 items) on a scratch copy of VAULT (default: sample-vault/) and say
    which level it reaches. The vault itself is only read. Exit 1 if an item fails."""
    from walker.errors import VaultNotFound

    vault = vault or _default_vault()
    if not vault.is_dir():
        raise VaultNotFound(f"{vault}: no such folder")
    items = check(vault)
    level = level_reached(items)
    if as_json:
        print_json({"vault": str(vault), "items": [i.as_dict() for i in items], "level": level})
    else:
        for i in items:
            click.echo(f"{'pass' if i.passed else 'FAIL'}  {i.number:>2}. [{i.level}] {i.title}")
            for line in i.evidence:
                click.echo(f"        {line}")
        click.echo(f"\nlevel reached: auto-walk:{level}" if level else "\nlevel reached: none (an L0 item fails)")
    if not all(i.passed for i in items):
        sys.exit(1)
