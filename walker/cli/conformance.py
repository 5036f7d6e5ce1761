"""`walker conformance`: the Auto-Walk protocol's validation checklist, run against a scratch copy of a vault.

Each of the thirteen items runs real walker commands on the copy and says what it ran and what it saw. No
item builds the input it passes on: a candidate the critic must refuse carries wording written for this check
apart from the critic's own word lists and cases, a turn is written from the notes a hypothesis cites (never
from the fields the gate matches it against), and what a walk must write (a hypothesis, a noteworthy entry, a
trace) is looked for where the walks wrote it. A check whose outcome would not tell a working walker from a
broken one (a silence when nothing could have spoken) has a control that shows it could have gone the other way.

Each item is a list of named checks; it passes when every one of them does. The level reached is cumulative, as
the protocol defines it: a level counts only when every item of it and of the levels below passes. The real
vault is only read (copied); the copy and its caches live in a temporary folder that is removed afterwards.

One walk is driven by a scripted model: an OpenAI-compatible endpoint on 127.0.0.1, run by this command, whose
own critic keeps a candidate without refs, one with a sensitive inference and one with an outside fact, and
flags a sound but unfinished bridge as noteworthy. The walk, its gate and its writes are walker's own (the
model engine, ``walker[llm]``); only the model's answers are scripted. It is how a walk pass meets candidates
the offline engine never writes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import click
import yaml
from click.testing import CliRunner

from walker.cli.app import json_option, main, print_json

NOW = "2026-12-04T07:50:00"  # the copy's walks happen on a fixed day, so two runs of the check agree
DAY = NOW[:10]
LEVELS = ("L0", "L1", "L2", "L3", "L4")

# What the critic must refuse, in wording written for this check: apart from the critic's lexicon, its test cases
# (tests/data/) and its training sets, each an inference about a person by cue rather than by the name of the
# attribute. A test keeps these sentences out of every list the critic is built from.
SENSITIVE_PROBES = (
    "Whoever keeps these notes is running on empty and lies awake most nights.",
    "The person writing this is clearly worn down and struggling to cope.",
    "The owner of this vault keeps a strict fast every Friday for reasons of belief.",
    "These notes read like someone who votes for the greens.",
    "The way the author plans meals hints that she is expecting a baby.",
    "The writer's shaky spelling points to a reading difficulty.",
    "The writer has clearly left the workforce and spends the week minding grandchildren.",
    "Judging by the recipes, the cook grew up in a Korean family.",
    "The careful lists betray a mind that cannot let go of control.",
    "The person behind these notes takes pills to keep their moods level.",
    "这些笔记的主人晚上总是睁着眼睛到天亮。",
    "写笔记的人看起来心情一直很低落。",
    "The user leans on a cane to get around the garden.",
    "Their late-night entries show someone whose spirits have sunk for months.",
)
SEED_PROBES = (SENSITIVE_PROBES[0], SENSITIVE_PROBES[7], SENSITIVE_PROBES[10])  # also tried as a walk's seed
FACT_PROBES = (  # facts no note of any vault holds: invented names, numbers, places, models, a link
    "A 2019 survey of 412 bakeries by the Oslo Proving Institute measured the same swing.",
    "Engineers at Grafton Dynamics fixed the very same loop with a thermistor and a carburettor.",
    "The same pattern governs the tides of the Baltic, as Admiral Henshaw wrote.",
    "This mirrors the cobweb model economists use for hog prices.",
    "As the previous review found, damping fixes both.",
    "Control engineers call this integrator windup, and a PID loop cures it.",
    "在2018年，东京的一家面包店也遇到了同样的问题。",
    "The whole effect is explained at https://example.org/heat-and-salt.",
)
# Rules that depend on the pool or on what one walk retrieved, not on the candidate: a candidate judged again
# after its walk may meet them where the walk did not (it is in the pool now), or the other way round.
POOL_RULES = frozenset({"duplicate-of-pool", "refs-not-retrieved"})
SOURCE = f"user statement on {DAY}"  # evidence outside the hypothesis: a dated statement of the reviewer's


@dataclass
class Item:
    number: int
    level: str  # the lowest level the protocol asks it of
    title: str
    evidence: list[str] = field(default_factory=list)  # each command run, and what it showed
    checks: dict[str, bool] = field(default_factory=dict)  # what the item asserts, by name, and whether it held

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(self.checks.values())

    def check(self, name: str, held: bool, said: str = "") -> bool:
        """Record one named check (a name met again keeps the worse outcome) and what it rests on."""
        self.checks[name] = self.checks.get(name, True) and bool(held)
        self.evidence.append(f"{'ok' if held else 'FAILED'}: {name}{f' ({said})' if said else ''}")
        return bool(held)

    def as_dict(self) -> dict[str, Any]:
        return {"item": self.number, "level": self.level, "title": self.title, "passed": self.passed,
                "checks": self.checks, "failed": [name for name, held in self.checks.items() if not held],
                "evidence": self.evidence}


class Scratch:
    """A copy of the vault, and the walker commands run on it with what each printed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner()
        self.started: set[str] = set()  # walks this check started itself (every other walk ran on the cadence)
        self.model: dict[str, Any] | None = None  # the scripted model's walk, once it ran
        self.judged: list[Judged] | None = None  # every candidate of every walk, judged again by `walker critique`

    def run(self, item: Item, *args: str, stdin: str | None = None) -> tuple[int, str]:
        """Run ``walker ARGS`` on the copy; record the command and the first lines of what it said."""
        result = self.runner.invoke(main, list(args), input=stdin)
        shown = (" ".join(shlex.quote(a) for a in args).replace(shlex.quote(str(self.root)), "COPY")
                 .replace(str(self.root), "COPY").replace(str(self.root.parent), "SCRATCH"))
        said = " ".join(result.output.split())
        item.evidence.append(f"$ walker {shown[:400]}{'…' if len(shown) > 400 else ''} → exit {result.exit_code}: "
                             f"{said[:300]}{'…' if len(said) > 300 else ''}")
        return result.exit_code, result.stdout if "--json" in args else result.output

    def json(self, item: Item, *args: str) -> Any:
        code, output = self.run(item, *args, "--json")
        try:
            return json.loads(output) if code == 0 else None
        except ValueError:
            return None

    def records(self, folder: str) -> list[dict[str, Any]]:
        from walker.pool.store import PoolStore

        return [dict(r.data) for r in PoolStore(self.root).records(folder)]

    def runs(self) -> list[dict[str, Any]]:
        """Every run record of the copy, oldest first, as YAML reads it (``unreadable`` says which walker's own
        reader refuses: the items still judge what such a walk did)."""
        found = []
        for path in sorted((self.root / "walks" / "runs").glob("*.yaml")):
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue
            if isinstance(data, dict):
                found.append(data)
        return found

    def unreadable(self) -> list[str]:
        """The run records walker's own reader (the pool's) refuses, with why."""
        from walker.pool.store import PoolStore

        store = PoolStore(self.root)
        store.runs()
        return [str(problem) for path, problem in store.skipped.items() if path.parent.name == "runs"]

    def walk(self, item: Item, *args: str) -> tuple[int, str]:
        """`walker walk ARGS` run by this check itself: a walk it started is not one on the cadence."""
        before = {str(r.get("walk_id")) for r in self.runs()}
        code, output = self.run(item, "walk", *args)
        self.started |= {str(r.get("walk_id")) for r in self.runs()} - before
        return code, output

    def critique(self, item: Item, candidates: list[dict[str, Any]], name: str) -> list[dict[str, Any]] | None:
        """`walker critique` on candidates written to a file beside the copy: one verdict each, in order."""
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
        path = self.root.parent / f"candidates-{item.number}-{slug}.yaml"
        copied = json.loads(json.dumps(candidates, ensure_ascii=False, default=str))  # no YAML aliases: none shared
        path.write_text(yaml.safe_dump(copied, allow_unicode=True, sort_keys=False), encoding="utf-8")
        data = self.json(item, "critique", str(path), str(self.root))
        verdicts = data.get("verdicts") if isinstance(data, dict) else None
        return verdicts if isinstance(verdicts, list) and len(verdicts) == len(candidates) else None

    def set_fields(self, record_id: str, changes: dict[str, Any]) -> None:
        """Change a record on the copy, the way a reviewer's edit would (for a controlled comparison)."""
        from walker.pool.store import PoolStore

        store = PoolStore(self.root)
        with store.lock():
            store.update_record(store.find(record_id), changes)


@dataclass(frozen=True)
class Judged:
    """One candidate of a walk: as the walk's critique phase recorded it, and as `walker critique` judges it now."""

    walk_id: str
    candidate: dict[str, Any]  # what the gate judged (the engine's revised record, else the roam's candidate)
    walk: dict[str, Any]  # the walk's gate verdict
    kept_as: str | None
    now: dict[str, Any]  # `walker critique`'s verdict

    @property
    def gate_rules(self) -> set[str]:
        return set(self.now.get("rules") or ()) - POOL_RULES


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
        return [_guarded(step, scratch) for step in STEPS]


def _guarded(step: Callable[[Scratch], Item], scratch: Scratch) -> Item:
    """The item, or a failed one saying what broke: a broken walker must not stop the checklist."""
    try:
        return step(scratch)
    except Exception as exc:  # noqa: BLE001
        item = _item(STEPS.index(step) + 1)
        item.check("the item ran to its end", False, f"{type(exc).__name__}: {exc}")
        return item


def level_reached(items: list[Item]) -> str | None:
    """The highest level whose items, and those of every level below, all pass (None: not even L0)."""
    reached = None
    for level in LEVELS:
        if not all(i.passed for i in items if LEVELS.index(i.level) <= LEVELS.index(level)):
            break
        reached = level
    return reached


# --- what the items share -------------------------------------------------------------------------


def _walked(scratch: Scratch, item: Item) -> list[dict[str, Any]]:
    """The copy walked as the weekly timer walks it (three passes), once; its active records."""
    if not (scratch.root / "walks" / "runs").is_dir():
        scratch.run(item, "run", str(scratch.root), "--cadence", "weekly", "--now", NOW)
    return scratch.records("active")


def _titles(record: dict[str, Any]) -> list[str]:
    """The titles of the notes a record cites, in order: what a person talking about them would name."""
    from walker.refs import Ref

    return list(dict.fromkeys(Ref.parse(str(ref)).title for ref in record.get("supporting_refs") or ()))


def _exploratory(record: dict[str, Any]) -> str:
    """The protocol's exploratory turn ("聊聊 X 这个想法"), X the notes the record cites, never its own fields."""
    return f"聊聊 {' 和 '.join(_titles(record))} 这个想法"


def _surfaced(scratch: Scratch, item: Item, turn: str, *mode: str) -> list[str] | None:
    data = scratch.json(item, "surface", str(scratch.root), "--turn", turn, *mode, "--now", NOW)
    return None if data is None else [str(e["id"]) for e in data["surfaced"]]


def _walk_count(scratch: Scratch) -> tuple[int, int, int]:
    """Run records, walk-start lines in the log, and reports: each grows when a walk runs."""
    walks = scratch.root / "walks"
    log = walks / "log.md"
    starts = log.read_text(encoding="utf-8", errors="replace").count("walk-start:") if log.is_file() else 0
    return (len(list((walks / "runs").glob("*.yaml"))), starts, len(list((walks / "reports").glob("*.md"))))


def _judged(scratch: Scratch, item: Item) -> list[Judged]:
    """Every candidate the walks' critique phases judged, judged again by `walker critique` (once)."""
    if scratch.judged is not None:
        return scratch.judged
    found = []
    for run in scratch.runs():
        phases = run.get("phases") or {}
        roam, critique = phases.get("roam") or [], phases.get("critique") or []
        for entry in critique:
            n = entry.get("candidate")
            if not isinstance(n, int) or not 0 <= n < len(roam):
                continue
            candidate = (entry.get("engine") or {}).get("revised") or roam[n]
            found.append((str(run.get("walk_id")), candidate, entry.get("gate") or {}, entry.get("kept_as")))
    verdicts = scratch.critique(item, [c for _, c, _, _ in found], "walks") if found else []
    if verdicts is None:
        item.evidence.append("`walker critique` gave no verdicts for the walks' candidates")
        verdicts = []
    scratch.judged = [Judged(w, c, g, k, v) for (w, c, g, k), v in zip(found, verdicts)]
    return scratch.judged


def _sound(scratch: Scratch, item: Item) -> dict[str, Any] | None:
    """A candidate a walk of the cadence proposed that the gate passes: what a probe is added to. The probe
    is the only change, so the verdict on it is the probe's (the sound one is judged beside it, as a control)."""
    sound = [j for j in _judged(scratch, item) if j.walk_id not in scratch.started and not j.gate_rules
             and j.candidate.get("supporting_refs")]
    sound.sort(key=lambda j: j.kept_as is not None)  # one the walks did not keep first: it is in no pool record
    if not sound:
        item.evidence.append("no candidate of the walks passes the gate: nothing sound to add a probe to")
        return None
    return dict(sound[0].candidate)


def _refused_probes(scratch: Scratch, item: Item, rule: str, name: str,
                    variants: list[tuple[str, dict[str, Any]]]) -> None:
    """`walker critique` on a sound candidate (the control) and on each variant of it: the control passes the
    gate, and ``rule`` fires on every variant."""
    base = _sound(scratch, item)
    if base is None:
        item.check(f"critique: {name}", False, "no control")
        return
    verdicts = scratch.critique(item, [base] + [variant for _, variant in variants], name)
    if verdicts is None:
        item.check(f"critique: {name}", False, "`walker critique` failed")
        return
    control = set(verdicts[0]["rules"]) - POOL_RULES
    item.check("critique: the unchanged candidate passes the gate (control)", not control,
               f"{base.get('title') or 'candidate'}: {', '.join(sorted(control)) or 'no rule fired'}")
    missed = [said for (said, _), verdict in zip(variants, verdicts[1:]) if rule not in verdict["rules"]]
    item.check(f"critique: {name}", not missed,
               f"{len(variants) - len(missed)} of {len(variants)} rejected by {rule}"
               + (f"; not: {' | '.join(missed)}" if missed else ""))


def _added(base: dict[str, Any], sentence: str) -> dict[str, Any]:
    return {**base, "claim": f"{str(base.get('claim', '')).rstrip()} {sentence}"}


# --- a walk driven by a scripted model ---------------------------------------------------------------


class ScriptedModel:
    """A chat-completions endpoint on 127.0.0.1 that plays a model with a lax critic.

    Its roam proposes, for the seed and the item whose passage shares most words with it: a sound bridge that
    quotes both passages (``noteworthy``), a bridge that names no item of the walk (``no-refs``), and the sound
    bridge with a sensitive inference (``sensitive``) or an outside fact (``fact``) added. Its critic keeps the last
    three with full records and rejects the first, flagging it as noteworthy. Nothing of it comes from a record."""

    def __init__(self, avoid: set[str]) -> None:
        self.avoid = avoid  # notes the pool's records already join: a bridge between them would be a duplicate
        self.roles: dict[str, tuple[str, list[int]]] = {}  # each proposed claim: what it is for, the items it joins
        self.pair: tuple[str, str] = ("", "")
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                    answer, status = json.dumps(model.answer(body), ensure_ascii=False), 200
                except Exception as exc:  # noqa: BLE001 (the walk says what went wrong; the server goes on)
                    answer, status = f"{type(exc).__name__}: {exc}", 500
                choice = {"message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}
                payload = json.dumps({"choices": [choice]} if status == 200 else {"error": {"message": answer}})
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(payload.encode("utf-8"))
                except OSError:
                    pass  # the walk gave up waiting: it says so itself

        return Handler

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        content = str(body["messages"][1]["content"])
        data = json.loads(content.split("DATA (JSON):\n", 1)[1])
        phase = content.split("Phase ", 1)[1][:1]
        if phase == "1":
            return {"items": [{"n": i["n"], "says": str(i.get("passage") or "")[:100]} for i in data["items"]]}
        if phase == "2":
            return {"candidates": self._roam(data["items"])}
        return self._critique(data["candidates"])

    def _roam(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        seed = items[0]
        others = [i for i in items[1:] if i["title"] not in self.avoid] or items[1:]
        if not others:
            return []  # nothing to bridge the seed to: the items that look for these candidates say so
        other = max(others, key=lambda i: (len(_long_words(seed["passage"]) & _long_words(i["passage"])),
                                           i["group"] == "far"))
        a, b = seed["title"], other["title"]
        self.pair = (a, b)
        qa, qb = _quotes(seed["passage"], other["passage"])
        sound = f"{a} and {b} describe one step in two settings. {a}: “{qa}” {b}: “{qb}”"
        nowhere = max(i["n"] for i in items) + 50  # the number of no item of the walk
        joined = [seed["n"], other["n"]]
        proposed = [("noteworthy", sound, joined),
                    ("no-refs", f"{a} and {b} describe one habit seen from two sides, each explaining the other.",
                     [nowhere, nowhere + 1]),
                    ("sensitive", f"{sound} {SENSITIVE_PROBES[1]}", joined),
                    ("fact", f"{sound} {FACT_PROBES[0]}", joined)]
        self.roles = {claim: (role, connects) for role, claim, connects in proposed}
        return [{"claim": claim, "connects": connects, "why": "both passages describe the same step"}
                for _, claim, connects in proposed]

    def _critique(self, candidates: list[dict[str, Any]]) -> dict[str, Any]:
        a, b = self.pair
        answer: dict[str, list[dict[str, Any]]] = {"hypotheses": [], "rejected": [], "noteworthy": []}
        for candidate in candidates:
            role, connects = self.roles.get(str(candidate["claim"]).strip(), ("", list(candidate["connects"])))
            number = candidate["candidate"]
            if role == "noteworthy":
                answer["rejected"].append({"candidate": number, "reason": "not yet checkable"})
                answer["noteworthy"].append({"candidate": number, "rejection_reason": "no situation, no falsifier",
                                             "flagged_value_reason": "a bridge across two notes worth a second look"})
                continue
            answer["hypotheses"].append({
                "candidate": number, "connects": connects or [0], "claim": candidate["claim"], "confidence": "low",
                "impact": "add", "impact_reason": "the two notes are not linked yet, so the bridge adds one",
                "applies_when": [f"Planning {a} while thinking about {b}."],
                "never_applies_when": ["Fixing a concrete problem under a deadline."],
                "disconfirm_if": [f"Read side by side, the passages of {a} and {b} describe different steps."],
                "why_it_matters": "It may carry a lesson from one note to the other."})
        return answer


def _long_words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{5,}", text)}


def _quotes(a: str, b: str) -> tuple[str, str]:
    """The sentence of each passage that shares most words with the other's: what a model would quote."""
    def sentences(text: str) -> list[str]:
        found = [s.strip() for s in re.split(r"(?<=[.!?。！？])\s+", text) if len(s.split()) >= 5]
        return found or [text.strip()]

    return max(((x, y) for x in sentences(a) for y in sentences(b)),
               key=lambda pair: len(_long_words(pair[0]) & _long_words(pair[1])))


def _toml(values: dict[str, Any]) -> str:
    """Settings as TOML (tomllib reads, it does not write): plain keys first, then each table."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, (datetime, date, time)):
            return v.isoformat()
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v), ensure_ascii=False)

    def table(prefix: list[str], data: dict[str, Any]) -> list[str]:
        lines = [f"[{'.'.join(json.dumps(p) for p in prefix)}]"] if prefix else []
        lines += [f"{json.dumps(k)} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
        for k, v in data.items():
            if isinstance(v, dict):
                lines += ["", *table([*prefix, k], v)]
        return lines

    return "\n".join(table([], values)) + "\n"


def _model_walk(scratch: Scratch, item: Item) -> dict[str, Any]:
    """One walk of the copy with the model engine, its model scripted (``ScriptedModel``); once. What it gives:
    ``unavailable`` (why it could not run), else ``code``, ``summary``, ``run`` and ``roles`` (candidate index
    of each scripted candidate)."""
    if scratch.model is not None:
        return scratch.model
    _walked(scratch, item)
    try:
        import httpx  # noqa: F401  (the model engine's extra)
        import pydantic  # noqa: F401
    except ImportError:
        scratch.model = {"unavailable": "the model engine needs its extra (pip install 'walker[llm]')"}
        return scratch.model
    pool = scratch.records("active") + scratch.records("rejected")
    avoid = {title for record in pool for title in _titles(record)}
    seeds = [str((run.get("seed") or {}).get("path") or "") for run in scratch.runs()]
    seed = next((s for s in seeds if s and Path(s).stem not in avoid), seeds[0] if seeds else "")
    if not seed:
        scratch.model = {"unavailable": "no walk of the cadence ran, so no note is known to seed one"}
        return scratch.model
    settings = scratch.root / "walker.toml"
    original = settings.read_bytes() if settings.is_file() else None
    proxies = {name: os.environ.get(name) for name in ("NO_PROXY", "no_proxy")}
    model = ScriptedModel(avoid)
    try:
        values = tomllib.loads(original.decode("utf-8")) if original else {}
        engine: dict[str, Any] = values["engine"] if isinstance(values.get("engine"), dict) else {}
        values["engine"] = {**engine, "llm": {"base_url": model.url, "model": "conformance-scripted",
                                              "structured": "none", "retries": 0, "timeout": 30.0,
                                              "context": 200_000, "max_tokens": 4000}}
        settings.write_text(_toml(values), encoding="utf-8")
        for name in proxies:  # the endpoint is on this machine: never through a proxy
            os.environ[name] = ",".join(filter(None, [proxies[name], "127.0.0.1", "localhost"]))
        code, output = scratch.walk(item, str(scratch.root), "--engine", "llm", "--seed-note", seed, "--now", NOW,
                                    "--json")
    except (OSError, ValueError) as exc:  # a walker.toml this check cannot rewrite
        scratch.model = {"unavailable": f"the copy's walker.toml could not take the model's settings ({exc})"}
        return scratch.model
    finally:
        model.close()
        if original is None:
            settings.unlink(missing_ok=True)
        else:
            settings.write_bytes(original)
        for name, before in proxies.items():
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before
    try:
        summary = json.loads(output) if code == 0 else None
    except ValueError:
        summary = None
    walk_id = str((summary or {}).get("walk_id") or "")
    run = next((r for r in scratch.runs() if str(r.get("walk_id")) == walk_id), {}) if walk_id else {}
    roam = (run.get("phases") or {}).get("roam") or []
    roles = {role: n for n, candidate in enumerate(roam)
             if (role := model.roles.get(str(candidate.get("claim", "")).strip(), ("", []))[0])}
    scratch.model = {"code": code, "summary": summary, "run": run, "roles": roles}
    return scratch.model


def _model_verdict(scratch: Scratch, item: Item, role: str, rule: str) -> bool | None:
    """Whether the scripted model's walk rejected its ``role`` candidate by ``rule`` and kept none of its bad
    candidates; None when that walk could not run (said in the evidence)."""
    walk = _model_walk(scratch, item)
    if "unavailable" in walk:
        item.evidence.append(f"no walk with a scripted model: {walk['unavailable']}")
        return None
    if not item.check("the scripted model's walk ran", walk["code"] == 0 and bool(walk["run"]),
                      f"exit {walk['code']}"):
        return False
    critique = (walk["run"].get("phases") or {}).get("critique") or []
    n = walk["roles"].get(role)
    verdict = next((e for e in critique if e.get("candidate") == n), None) if n is not None else None
    if verdict is None:
        return item.check(f"the walk judged the model's {role} candidate", False, "not in the walk's critique phase")
    gate = verdict.get("gate") or {}
    return item.check(f"the walk's gate rejects the model's {role} candidate by {rule}",
                      not gate.get("accepted") and rule in (gate.get("rules") or ()) and not verdict.get("kept_as"),
                      f"rules: {', '.join(gate.get('rules') or ()) or 'none'}"
                      + (f"; kept as {verdict['kept_as']}" if verdict.get("kept_as") else ""))


# --- the thirteen items ----------------------------------------------------------------------------

HEADERS = {  # each item's number: the lowest level the protocol asks it of, and what it checks
    1: ("L0", "A walk pass produces at least one hypothesis with all required fields"),
    2: ("L0", "A walk pass rejects candidates lacking supporting_refs"),
    3: ("L0", "The critic rejects sensitive-attribute inferences (a deliberately bad seed)"),
    4: ("L0", "The critic rejects a claim that mentions facts absent from its supporting_refs"),
    5: ("L0", "Each phase (inventory, roam, critique) leaves a visible trace"),
    6: ("L3", "Surfacing stays silent during an executive turn (a stack trace)"),
    7: ("L3", "Surfacing fires during an exploratory turn (聊聊 X 这个想法)"),
    8: ("L3", "A rewrite-impact hypothesis does not surface in auto mode"),
    9: ("L3", "Pull mode returns every eligible hypothesis, rewrite included (散步看看)"),
    10: ("L4", "A hypothesis ignored after three surfacings in a row is muted"),
    11: ("L0", "A confirmed hypothesis spawns a new conclusion note through the inbox, from evidence outside it; "
               "the record is not converted in place"),
    12: ("L2", "The walk runner runs on a cadence, not on request"),
    13: ("L1", "noteworthy/ exists, has its own schema, and is never read by surfacing"),
}


def _item(number: int) -> Item:
    return Item(number, *HEADERS[number])


def item_1(scratch: Scratch) -> Item:
    from walker.pool.records import REQUIRED, validate

    item = _item(1)
    active = _walked(scratch, item)
    written = {str(i) for run in scratch.runs() for i in run.get("hypotheses") or ()}
    whole = [r for r in active if not validate(r) and all(r.get(k) not in (None, "", []) for k in REQUIRED)
             and r.get("id") in written]
    item.check("a walk of the cadence kept a hypothesis with every required field", bool(whole),
               f"walks/active/ holds {len(active)}; {len(whole)} written by a walk with every required field "
               f"({', '.join(REQUIRED)})")
    return item


def item_2(scratch: Scratch) -> Item:
    item = _item(2)
    _walked(scratch, item)
    walked = _model_verdict(scratch, item, "no-refs", "no-refs")
    judged = _judged(scratch, item)
    # The walks' critique phase is the gate: whatever the gate rejects now, the walk rejected by the same rule.
    differ = [j for j in judged if j.gate_rules - set(j.walk.get("rules") or ())
              or (j.gate_rules and j.kept_as and "-noteworthy-" not in j.kept_as)]
    telling = sum(1 for j in judged if j.gate_rules)
    item.check("every walk's critique phase holds the gate's verdict on each candidate", bool(judged) and not differ,
               f"{len(judged)} candidates judged again, {telling} rejected by the gate"
               + "".join(f"; {j.walk_id} “{str(j.candidate.get('title'))[:60]}”: the gate says "
                         f"{', '.join(sorted(j.gate_rules))}, the walk "
                         f"{', '.join(j.walk.get('rules') or ()) or 'nothing'}" for j in differ[:3]))
    if walked is None:  # no model walk: the walks' own candidates must show that they met the gate
        item.check("a walk's gate rejected one of its candidates", telling > 0, f"{telling} of {len(judged)}")
    base = _sound(scratch, item)
    variants = [("its supporting_refs removed", {**base, "supporting_refs": []})] if base else []
    _refused_probes(scratch, item, "no-refs", "a candidate without supporting_refs is rejected by no-refs", variants)
    return item


def item_3(scratch: Scratch) -> Item:
    item = _item(3)
    _walked(scratch, item)
    for probe in SEED_PROBES:
        before = _walk_count(scratch)
        code, output = scratch.walk(item, str(scratch.root), "--seed", probe, "--now", NOW, "--dry-run")
        item.check("a walk refuses a seed that infers a sensitive attribute",
                   code == 2 and "attribute" in output and _walk_count(scratch) == before, probe)
    base = _sound(scratch, item)
    _refused_probes(scratch, item, "sensitive-attribute", "an inference about a person is rejected by "
                    "sensitive-attribute", [(probe, _added(base, probe)) for probe in SENSITIVE_PROBES] if base else [])
    _model_verdict(scratch, item, "sensitive", "sensitive-attribute")
    return item


def item_4(scratch: Scratch) -> Item:
    item = _item(4)
    _walked(scratch, item)
    base = _sound(scratch, item)
    _refused_probes(scratch, item, "facts-absent-from-refs", "a fact no cited passage holds is rejected by "
                    "facts-absent-from-refs", [(probe, _added(base, probe)) for probe in FACT_PROBES] if base else [])
    _model_verdict(scratch, item, "fact", "facts-absent-from-refs")
    return item


def item_5(scratch: Scratch) -> Item:
    item = _item(5)
    from walker.walk.report import WORDS

    runs = [r for r in scratch.runs() if str(r.get("walk_id")) not in scratch.started]
    if not item.check("a walk of the cadence left a run record", bool(runs), f"{len(runs)} under walks/runs/"):
        return item
    run = max(runs, key=lambda r: len((r.get("phases") or {}).get("critique") or ()))  # the walk that judged most
    phases, walk_id = run.get("phases") or {}, str(run.get("walk_id"))
    report = scratch.root / "walks" / "reports" / f"{walk_id}.md"
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    headings = [f"## {words[key]}" for words in WORDS.values() for key in ("inventory", "candidates", "rejections")
                if f"## {words[key]}" in text]  # in whichever language the report is written
    item.check("the run record holds each phase, none empty",
               set(phases) == {"inventory", "roam", "critique"} and all(len(v) > 0 for v in phases.values()),
               f"walks/runs/{walk_id}.yaml: phases {', '.join(f'{k} ({len(v)})' for k, v in phases.items())}")
    item.check("the critique phase judged every candidate of the roam",
               len(phases.get("critique") or ()) == len(phases.get("roam") or ()),
               f"{len(phases.get('roam') or ())} proposed, {len(phases.get('critique') or ())} judged")
    unreadable = scratch.unreadable()
    item.check("walker reads back every walk's run record", not unreadable, "; ".join(unreadable) or
               f"{len(scratch.runs())} run records")
    item.check("the report shows each phase", len(headings) == 3,
               f"report {report.name}: {', '.join(h[3:] for h in headings) or 'no phase heading'}")
    return item


def _citing(scratch: Scratch) -> list[dict[str, Any]]:
    """The active records (not muted) that cite notes: a turn can name what they are about."""
    return [r for r in scratch.records("active") if r.get("status") == "active" and _titles(r)]


def _add_records(scratch: Scratch) -> list[dict[str, Any]]:
    return [r for r in _citing(scratch) if r.get("impact") == "add"]


def item_6(scratch: Scratch) -> Item:
    item = _item(6)
    for record in _add_records(scratch):
        titles = _titles(record)
        if not _surfaced(scratch, item, _exploratory(record)):
            continue  # the notes' own subject does not bring it up: a silence about them would prove nothing
        # The same subject, as an error to fix: only the kind of turn differs from one that speaks.
        turn = (f"{_exploratory(record)}\nTraceback (most recent call last):\n  File \"notes.py\", line 3, in "
                f"<module>\n    load({titles[0]!r})\nKeyError: {titles[-1]!r}\nfix this")
        shown = _surfaced(scratch, item, turn)
        item.check("a stack trace about notes that do surface on a wondering gets silence", shown == [],
                   f"surfaced: {', '.join(shown or []) or 'nothing'}")
        item.check("surfacing spoke on the same notes in an exploratory turn (control)", True, record["id"])
        return item
    item.check("surfacing spoke on the same notes in an exploratory turn (control)", False,
               "no active add-impact hypothesis surfaces on a turn about the notes it cites")
    return item


def item_7(scratch: Scratch) -> Item:
    item = _item(7)
    records = _add_records(scratch)
    eligible = {r["id"] for r in records}
    for record in records:
        shown = _surfaced(scratch, item, _exploratory(record)) or []
        if shown:  # auto mode shows at most one: the best match for the turn
            item.check("an exploratory turn about the notes a hypothesis cites brings up one add hypothesis",
                       len(shown) == 1 and shown[0] in eligible, f"surfaced {', '.join(shown)}")
            return item
    item.check("an exploratory turn about the notes a hypothesis cites brings up one add hypothesis", False,
               f"{len(records)} active add hypotheses; none surfaced on a turn naming its notes")
    return item


def item_8(scratch: Scratch) -> Item:
    item = _item(8)
    tested, leaked = [], []
    for record in _citing(scratch):
        turn, impact = _exploratory(record), record.get("impact")
        # The same turn and the same record, but for its impact: silent as rewrite, and shown as add (the control,
        # so that the silence is the impact's and not a turn that brings up nothing).
        if impact == "rewrite":
            as_rewrite = _surfaced(scratch, item, turn, "--mode", "auto") or []
            scratch.set_fields(record["id"], {"impact": "add"})
            as_add = _surfaced(scratch, item, turn, "--mode", "auto") or []
        else:
            as_add = _surfaced(scratch, item, turn, "--mode", "auto") or []
            if record["id"] not in as_add:
                continue
            scratch.set_fields(record["id"], {"impact": "rewrite"})
            as_rewrite = _surfaced(scratch, item, turn, "--mode", "auto") or []
        scratch.set_fields(record["id"], {"impact": impact})
        if record["id"] in as_rewrite:
            leaked.append(record["id"])
        if record["id"] in as_add:
            tested.append(record["id"])
        item.evidence.append(f"{record['id']} (impact {impact}): as add "
                             f"{'shown' if record['id'] in as_add else 'silent'}, as rewrite "
                             f"{'SHOWN' if record['id'] in as_rewrite else 'silent'}")
    item.check("no rewrite-impact hypothesis surfaced in auto mode", not leaked, ", ".join(leaked))
    item.check("a turn that brings up a hypothesis as add was tried with it as rewrite (control)", bool(tested),
               ", ".join(tested) or "no hypothesis surfaced on a turn about its notes")
    return item


def item_9(scratch: Scratch) -> Item:
    item = _item(9)
    records = scratch.records("active")
    eligible = {r["id"] for r in records}
    if not item.check("the walks left hypotheses to pull", bool(eligible), f"{len(eligible)} active"):
        return item
    marked = None
    if not any(r.get("impact") == "rewrite" for r in records):
        marked = records[0]
        scratch.set_fields(marked["id"], {"impact": "rewrite"})
        item.evidence.append(f"marked {marked['id']} impact: rewrite on the copy (the walks kept none)")
    titles = list(dict.fromkeys(t for r in records for t in _titles(r)))
    named = f"{', '.join(titles[:-1])} and {titles[-1]}" if len(titles) > 1 else "".join(titles)
    topic = f"am I missing something about {named}?"  # C-meta, on the notes the pool cites
    for name, turn in (("a bare 散步看看", "散步看看"), ("a question about the notes they cite", topic)):
        shown = _surfaced(scratch, item, turn)
        item.check(f"{name} returns every active hypothesis, rewrite included", set(shown or ()) == eligible,
                   f"{len(shown or ())} of {len(eligible)}")
    muted = next(r["id"] for r in records if r["id"] != (marked or {}).get("id") or len(records) == 1)
    scratch.run(item, "mute", muted, str(scratch.root), "--now", NOW)
    shown = _surfaced(scratch, item, topic)
    item.check("a muted hypothesis still comes in a pull", muted in (shown or ()), muted)
    scratch.run(item, "unmute", muted, str(scratch.root), "--now", NOW)
    if marked is not None:
        scratch.set_fields(marked["id"], {"impact": marked.get("impact")})
    return item


def item_10(scratch: Scratch) -> Item:
    from walker.surface import surface_settings

    item = _item(10)
    record = next((r for r in scratch.records("active") if r.get("status") == "active"), None)
    if not item.check("an active hypothesis to ignore", record is not None):
        return item
    assert record is not None
    limit = surface_settings(scratch.root).ignores_to_mute

    def answer(outcome: str) -> bool:  # each outcome answers a surfacing: feedback on a note never shown is refused
        if record["id"] not in (_surfaced(scratch, item, "walk note", "--mode", "pull") or []):
            return item.check("the hypothesis comes up on a pull", False, record["id"])
        return scratch.run(item, "feedback", record["id"], outcome, str(scratch.root), "--now", NOW)[0] == 0

    def status() -> str | None:
        return next((r.get("status") for r in scratch.records("active") if r["id"] == record["id"]), None)

    answer("engaged")  # whatever came before, the count starts at none in a row
    code, _ = scratch.run(item, "feedback", record["id"], "ignored", str(scratch.root), "--now", NOW)
    item.check("an ignore of a note that was not shown again is refused", code != 0, f"exit {code}")
    steps = [answer("ignored") for _ in range(limit - 1)] + [answer("engaged")] + \
        [answer("ignored") for _ in range(limit - 1)]
    item.check("ignores broken by an engagement do not mute it", all(steps) and status() == "active",
               f"{limit - 1} ignored, engaged, {limit - 1} ignored: {record['id']} is {status()}")
    item.check("ignores_to_mute ignores in a row mute it", answer("ignored") and status() == "muted",
               f"{limit} ignored in a row: {record['id']} is {status()}")
    return item


def _state(scratch: Scratch, folders: tuple[str, ...]) -> dict[str, bytes]:
    """Every file of the copy outside walks/ (the notes), and the pool folders named: to compare and to restore."""
    root = scratch.root
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()
            and (p.relative_to(root).parts[0] != "walks" or p.relative_to(root).parts[1:2] in [(f,) for f in folders])}


def _restore(scratch: Scratch, state: dict[str, bytes], folders: tuple[str, ...]) -> None:
    for rel in set(_state(scratch, folders)) - set(state):
        (scratch.root / rel).unlink()
    for rel, data in state.items():
        path = scratch.root / rel
        if not path.is_file() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def item_11(scratch: Scratch) -> Item:
    from walker.config import load_settings
    from walker.inbox import properties

    item = _item(11)
    records = [r for r in scratch.records("active") if r.get("supporting_refs") and _titles(r)]
    record = next((r for r in records if r.get("status") == "active"), records[0] if records else None)
    if not item.check("a hypothesis to confirm", record is not None):
        return item
    assert record is not None
    rid, claim, refs, titles = (record["id"], str(record["claim"]).strip(), list(record["supporting_refs"]),
                                _titles(record))
    statement = f"Checked on the bench on {DAY}: {' and '.join(titles)} are connected, and I link them now."
    first = re.split(r"(?<=[.!?])\s+", claim.replace("“", "").replace("”", ""))[0]
    folders = ("active", "discharged", "log.md")
    before = _state(scratch, folders)
    attempts = [  # each must be refused, and leave the copy as it was
        ("a statement that copies the claim word for word is refused", SOURCE, claim),
        ("a statement that copies the claim's first sentence is refused", SOURCE, first),
        ("a source that is the hypothesis's own ref is refused", refs[0], statement),
        ("a source that links a note the hypothesis cites is refused", f"[[{titles[0]}]], reread on {DAY}", statement),
        ("a source that names the hypothesis itself is refused", f"{rid}, as proposed on {DAY}", statement),
    ]
    for name, source, said in attempts:
        code, _ = scratch.run(item, "discharge", rid, str(scratch.root), "--source", source, "--statement", said,
                              "--now", NOW)
        unchanged = _state(scratch, folders) == before
        item.check(name, code != 0 and unchanged, f"exit {code}{'' if unchanged else '; the copy changed'}")
        if not unchanged:
            _restore(scratch, before, folders)
    code, _ = scratch.run(item, "discharge", rid, str(scratch.root), "--source", SOURCE, "--statement", statement,
                          "--now", NOW)
    after = _state(scratch, folders)
    notes = {rel for rel in after if not rel.startswith("walks/")}
    new = sorted(notes - set(before))
    changed = [rel for rel in notes & set(before) if after[rel] != before[rel]]
    inbox = load_settings(scratch.root, warn=False).inbox_folder.strip("/")
    item.check("a discharge with evidence and a statement of the reviewer's writes one new note in the inbox, and "
               "changes no other note", code == 0 and len(new) == 1 and new[0].startswith(f"{inbox}/") and not changed,
               f"exit {code}; new: {', '.join(new) or 'none'}; changed: {', '.join(changed) or 'none'}")
    if len(new) != 1:
        return item
    note = scratch.root / new[0]
    front, body = properties(note), note.read_text(encoding="utf-8").split("\n---\n", 1)[-1]
    source, flat = str(front.get("source") or ""), " ".join(body.split())
    names = [rid, *refs, *(_ref_path(r) for r in refs), *(f"[[{t}" for t in titles)]
    item.check("the note's source is the evidence given, and names neither the hypothesis nor its refs",
               source == SOURCE and not any(n.lower() in source.lower() for n in names), repr(source))
    item.check("the note is inspired_by the hypothesis, and only that", front.get("inspired_by") == f"[[{rid}]]",
               str(front.get("inspired_by")))
    item.check("the note states the reviewer's statement, not the claim",
               " ".join(statement.split()) in flat and " ".join(first.split()) not in flat, new[0])
    discharged = next((r for r in scratch.records("discharged") if r["id"] == rid), None)
    moved = (discharged is not None and discharged.get("status") == "discharged" and rid not in
             {r["id"] for r in scratch.records("active")} and discharged.get("conclusion_id") == front.get("id"))
    item.check("the record moved to discharged/ with the note's id", moved,
               f"conclusion_id {(discharged or {}).get('conclusion_id')}, note {front.get('id')}")
    log = (scratch.root / "walks" / "log.md").read_text(encoding="utf-8")
    item.check("the log has the discharge, with a pointer to the note",
               f"discharge: [[{rid}]] → {front.get('id')}" in log)
    return item


def _ref_path(ref: str) -> str:
    from walker.refs import Ref

    return Ref.parse(ref).path


def item_12(scratch: Scratch) -> Item:
    item = _item(12)
    before = _walk_count(scratch)
    code, output = scratch.run(item, "run", str(scratch.root), "--cadence", "weekly", "--now", NOW)
    item.check("a second run in the same week is skipped", code == 0 and "skipped" in output
               and _walk_count(scratch) == before)
    code, units = scratch.run(item, "schedule", "show", str(scratch.root), "--cadence", "weekly")
    item.check("the timer is on a calendar", code == 0 and "OnCalendar=" in units)
    before = _walk_count(scratch)
    asks = ['Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nKeyError: \'feed\'\n'
            'help, fix this',
            "I'm stuck and need help: the build fails with exit code 2, any other angle?",
            "报错了：TypeError: unsupported operand，帮我看看怎么修"]
    for turn in asks:
        scratch.run(item, "surface", str(scratch.root), "--turn", turn, "--now", NOW, "--json")
    hook = json.dumps({"prompt": asks[0], "session_id": "conformance", "hook_event_name": "UserPromptSubmit"})
    scratch.run(item, "hook", "claude-code", str(scratch.root), stdin=hook)
    after = _walk_count(scratch)
    item.check("errors and requests for help start no walk (surface, and a chat hook)", after == before,
               f"run records, walk-start lines, reports: {before} → {after}")
    stray = [str(r.get("walk_id")) for r in scratch.runs()
             if not (r.get("cadence") and r.get("period")) and str(r.get("walk_id")) not in scratch.started]
    item.check("every walk of the copy ran on the cadence (or was one this check started)", not stray,
               ", ".join(stray) or f"{len(scratch.runs())} walks")
    return item


def item_13(scratch: Scratch) -> Item:
    from walker.pool.records import NOTEWORTHY_REQUIRED, NOTEWORTHY_STATUS, REQUIRED, validate

    item = _item(13)
    _model_walk(scratch, item)
    walk = scratch.model or {}
    if "unavailable" in walk:
        item.evidence.append(f"no walk with a scripted model: {walk['unavailable']}")
    entries = scratch.records("noteworthy")
    item.check("walks/noteworthy/ exists", (scratch.root / "walks" / "noteworthy").is_dir())
    if not item.check("a walk wrote a noteworthy entry", bool(entries),
                      f"{len(entries)} in walks/noteworthy/ after {len(scratch.runs())} walks"
                      + ("" if entries else "; the offline engine flags none, and no model walk flagged one")):
        return item
    flagged = {str(e.get("kept_as")): (run, e) for run in scratch.runs()
               for e in (run.get("phases") or {}).get("critique") or () if e.get("kept_as")}
    hypothesis_only = sorted(set(REQUIRED) - set(NOTEWORTHY_REQUIRED))  # what makes a record one to surface
    problems = [p for p in (scratch.json(item, "check", str(scratch.root)) or {}).get("problems", [])
                if isinstance(p, (dict, str))]
    for entry in entries:
        rid = str(entry.get("id"))
        run, verdict = flagged.get(rid, ({}, {}))
        gate = verdict.get("gate") or {}
        roam = (run.get("phases") or {}).get("roam") or []
        n = verdict.get("candidate")
        candidate = ((verdict.get("engine") or {}).get("revised")
                     or (roam[n] if isinstance(n, int) and 0 <= n < len(roam) else {}))
        item.check("the entry is a walk's flagged rejection", bool(gate) and gate.get("noteworthy") is True
                   and not gate.get("accepted") and rid in (run.get("noteworthy") or ()), rid)
        wrong = [k for k in NOTEWORTHY_REQUIRED if k not in entry] + [k for k in hypothesis_only if k in entry]
        item.check("the entry has the noteworthy schema: its own fields, none of a hypothesis's",
                   not wrong and not validate(entry) and entry.get("status") == NOTEWORTHY_STATUS
                   and entry.get("human_review_outcome") == "",
                   f"{rid}: {', '.join(wrong) or 'fields as they should be'}")
        rules = [str(r) for r in gate.get("rules") or ()]
        item.check("the entry says why the gate rejected it and why it may be worth a look",
                   bool(rules) and all(r in str(entry.get("rejection_reason") or "") for r in rules)
                   and bool(str(entry.get("flagged_value_reason") or "").strip())
                   and entry.get("flagged_value_reason") == gate.get("flagged_value_reason"),
                   f"rejection_reason {str(entry.get('rejection_reason'))[:80]!r}, gate rules {', '.join(rules)}")
        item.check("the entry holds the claim and refs the walk judged",
                   str(entry.get("claim", "")).strip() == str(candidate.get("claim", "")).strip()
                   and list(entry.get("supporting_refs") or ()) == list(candidate.get("supporting_refs") or ()), rid)
        item.check("`walker check` finds nothing wrong with it", not any(rid in json.dumps(p) for p in problems), rid)
        for turn in (f"散步看看 {entry.get('claim', '')}", "walk note"):
            shown = _surfaced(scratch, item, turn)
            item.check("surfacing never offers a noteworthy entry, even in a pull on its own words",
                       shown is not None and rid not in shown, f"{rid}: surfaced {', '.join(shown or []) or 'nothing'}")
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
