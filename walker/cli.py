"""The `walker` command: parse options, call one library function, print. No logic here."""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from walker import __version__, hooks
from walker.config import load_settings, write_default_config
from walker.errors import WalkerError
from walker.pool import health, lifecycle
from walker.pool.inspect import check_pool, list_records, show_record
from walker.pool.store import PoolStore
from walker.schedule import Units, install, make_units, remove, user_unit_dir
from walker.surface import feedback as record_feedback
from walker.surface import log_surfaced, side_note, surface
from walker.walk.engines import ENGINES

# The corpus parser, numpy and scikit-learn load only for the commands that read the vault, so
# that `walker --help` and a chat hook (run on every turn) start fast.
if TYPE_CHECKING:
    from walker.corpus import Corpus
    from walker.workspace import Workspace

EXPORT_FORMATS = ("json", "graphml", "gexf")  # walker.graph writes these (a test keeps the two in step)


class WalkerGroup(click.Group):
    """Turns WalkerError into ``Error: …`` and its exit code, in one place."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except WalkerError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:  # `walker … | head` stopped reading: the work is done, say nothing
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)
        except OSError as exc:  # a full disk, a folder without permission: say so, no traceback
            reason = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
            where = f" ({exc.filename})" if exc.filename else ""
            click.echo(f"Error: {reason}{where}; nothing more was written", err=True)
            ctx.exit(2)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:  # a bug: the traceback goes to a file, the user gets one line
            log = _crash_log(exc)
            click.echo(f"Error: walker failed unexpectedly ({type(exc).__name__}: {exc}); the details are in "
                       f"{log}. Please report it with that file.", err=True)
            ctx.exit(3)


def _crash_log(exc: BaseException) -> str:
    """Write the traceback where the caches live (never the vault); returns where, or why it could not."""
    import time
    import traceback

    from walker.config import cache_dir

    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
        path.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        return str(path)
    except OSError as error:
        return f"nowhere: the crash log could not be written ({error})"


def _vault_default(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path:
    if value is not None:
        return value
    return Path(os.environ.get("WALKER_VAULT") or ".")


vault_argument = click.argument(
    "vault", required=False, type=click.Path(path_type=Path), callback=_vault_default
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout; messages go to stderr.")


@click.group(cls=WalkerGroup)
@click.version_option(__version__, prog_name="walker")
def main() -> None:
    """walker walks an Obsidian vault and proposes connections you never noticed.

    VAULT defaults to $WALKER_VAULT, then the current folder.
    """


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr, only when a person is watching a terminal."""
    if not enabled or not sys.stderr.isatty() or not sys.stdout.isatty():
        yield None
        return
    bar: Any = None

    def advance(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label="Reading notes", file=sys.stderr)
            bar.__enter__()
        bar.update(done)

    try:
        yield advance
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def _load(vault: Path, show_progress: bool = True) -> Corpus:
    from walker.corpus import load_corpus

    with _progress(show_progress) as progress:
        return load_corpus(vault, progress=progress)


def _print_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@main.command()
@vault_argument
@click.option("--warnings", "all_warnings", is_flag=True, help="List every warning, not only a few of each kind.")
@json_option
def scan(vault: Path, all_warnings: bool, as_json: bool) -> None:
    """Read the vault and report notes, links, orphans, tags, skipped files and warnings."""
    from walker.graph import build_graph, vault_summary

    started = time.perf_counter()
    corpus = _load(vault, show_progress=not as_json)
    summary = vault_summary(corpus, build_graph(corpus))
    summary["read_seconds"], summary["seconds"] = summary["seconds"], round(time.perf_counter() - started, 3)
    if as_json:
        _print_json(summary)
    else:
        _print_scan(summary, all_warnings)


def _print_scan(s: dict[str, Any], all_warnings: bool = False) -> None:
    links = s["links"]
    click.echo(f"{s['vault']}: {s['notes']} notes, {s['attachments']} attachments")
    click.echo(
        f"links: {links['total']} ({links['resolved']} resolved, {links['unresolved']} unresolved, "
        f"{links['ambiguous']} ambiguous)"
    )
    click.echo(f"graph: {s['components']} components (largest {s['largest_component']} notes), {len(s['orphans'])} orphans")
    top_tags = list(s["tags"].items())[:8]
    if top_tags:
        click.echo("tags: " + ", ".join(f"#{t} ({n})" for t, n in top_tags) + (" …" if len(s["tags"]) > 8 else ""))
    targets = Counter(u["target"] for u in s["unresolved"])
    if targets:
        click.echo("most linked missing notes: " + ", ".join(f"[[{t}]] ×{n}" for t, n in targets.most_common(5)))
    reasons = Counter(_reason_kind(x["reason"]) for x in s["skipped"])
    if reasons:
        click.echo("left out: " + ", ".join(f"{n} {r}" for r, n in reasons.most_common()))
    for item in s["skipped"]:
        if not item["reason"].startswith(("excluded:", "not a file type", "hidden folder")):
            click.echo(f"  skipped {item['path']}: {item['reason']}")
    if s["warnings"]:
        kinds: dict[str, list[dict[str, str]]] = {}
        for w in s["warnings"]:
            kinds.setdefault(_warning_kind(w["message"]), []).append(w)
        click.echo(f"warnings: {len(s['warnings'])}, of {len(kinds)} kind{'s' if len(kinds) != 1 else ''}")
        for kind, found in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            click.echo(f"  {len(found)} × {kind}")
            for w in found if all_warnings else found[:3]:
                click.echo(f"      {w['path']}: {w['message']}")
            if len(found) > 3 and not all_warnings:
                click.echo(f"      … {len(found) - 3} more (walker scan --warnings lists them all)")
    click.echo(f"took {s['seconds']:.2f} s in all (reading the vault {s['read_seconds']:.2f} s; "
               f"{s['cache_hits']} from cache, {s['parsed']} parsed)")


def _warning_kind(message: str) -> str:
    """A warning without its particulars ("line 3:", the names it quotes): what kind of problem it is."""
    kind = re.sub(r"^line \d+:\s*", "", message)
    kind = re.sub(r"'[^']*'|\"[^\"]*\"|\S+\.md\b|\d+", "…", kind)
    return kind if len(kind) <= 90 else kind[:89].rstrip() + "…"


def _reason_kind(reason: str) -> str:
    return reason.split(":", 1)[0] if reason.startswith("excluded") else reason.split(" (", 1)[0].split(":")[0]


@main.command()
@vault_argument
@json_option
def links(vault: Path, as_json: bool) -> None:
    """List every link: source, line, kind, target, subpath and the file it resolves to."""
    corpus = _load(vault, show_progress=not as_json)
    if as_json:
        _print_json({"links": [link.as_dict() for link in corpus.links]})
        return
    for link in corpus.links:
        where = link.resolved or "(unresolved)"
        click.echo(f"{link.source}:{link.line}\t{link.kind}\t{link.target}\t→ {where}")


@main.group()
def graph() -> None:
    """The wikilink graph."""


@graph.command("export")
@vault_argument
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="json", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
def graph_export(vault: Path, fmt: str, output: Path) -> None:
    """Write the graph (notes, attachments, unresolved targets) for Gephi, yEd or networkx."""
    from walker.graph import build_graph, export_graph

    corpus = _load(vault)
    g = build_graph(corpus)
    export_graph(g, fmt, output)
    click.echo(f"wrote {output}: {g.number_of_nodes()} nodes, {g.number_of_edges()} edges", err=True)


def _workspace(vault: Path, show_progress: bool = True) -> Workspace:
    from walker.workspace import Workspace

    with _progress(show_progress) as progress:
        return Workspace.open(vault, progress=progress)


def _now(value: str | None) -> datetime:
    if value is None:
        return datetime.now(timezone.utc)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date-time such as 2026-11-30T07:00", param_hint="--now") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


now_option = click.option("--now", "now", metavar="ISO-DATETIME", help="Pretend it is this moment (for reproducible runs).")
random_seed_option = click.option("--random-seed", type=int, default=0, show_default=True, help="Seed for the far draws.")


@main.command()
@click.argument("note")
@vault_argument
@random_seed_option
@json_option
def neighbors(note: str, vault: Path, random_seed: int, as_json: bool) -> None:
    """Show the near, middle and far neighbours a walk from NOTE would gather."""
    from walker.wander import Seed, neighbourhood, propose

    ws = _workspace(vault, show_progress=not as_json)
    path = ws.find_note(note)
    proposition, ref = propose(ws.index, ws.corpus.notes[path])
    seed = Seed(path, proposition, ref, "given", "named on the command line")
    result = neighbourhood(ws.corpus, ws.index, ws.links, seed, ws.wander_settings, random_seed)
    if as_json:
        _print_json(result.as_dict())
        return
    click.echo(f"Seed: {path}\n  “{proposition}”  ({ref})")
    for group in ("near", "middle", "far"):
        items = getattr(result, group)
        click.echo(f"\n{group.capitalize()} ({len(items)})")
        for item in items:
            tags = " ".join(f"#{t}" for t in item.shared_tags)
            click.echo(f"  {item.ref}\n      {item.reason}{'; ' + tags if tags else ''}")
    for message in result.notes:
        click.echo(f"\nnote: {message}")


@main.command()
@vault_argument
@now_option
@json_option
def seeds(vault: Path, now: str | None, as_json: bool) -> None:
    """List seed candidates from each source: recent, revisited, open question, forgotten."""
    from walker.wander import candidate_seeds

    ws = _workspace(vault, show_progress=not as_json)
    found = candidate_seeds(ws.corpus, ws.index, ws.links, _now(now), ws.wander_settings)
    if as_json:
        _print_json({source: [{"path": s.path, "proposition": s.proposition, "ref": s.ref, "score": s.score,
                               "reason": s.reason} for s in items] for source, items in found.items()})
        return
    for source, items in found.items():
        click.echo(f"{source} ({len(items)})")
        for s in items:
            click.echo(f"  {s.path}  [{s.score:g}] {s.reason}\n      “{s.proposition}”")


@main.command()
@vault_argument
def init(vault: Path) -> None:
    """Create walks/ and a commented walker.toml in the vault. Safe to run again: nothing is overwritten."""
    if not vault.is_dir():
        raise WalkerError(f"{vault}: no such folder. Pass the vault folder, or set WALKER_VAULT.")
    created = PoolStore(vault).ensure()
    config = write_default_config(vault)
    created += [config] if config else []
    for path in created:
        click.echo(f"created {path}")
    if not created:
        click.echo(f"{vault} is already set up; nothing changed")


@main.command()
@vault_argument
@click.option("--seed", "seed_text", metavar="TEXT", help="Start from this proposition, in your own words.")
@click.option("--seed-note", metavar="NOTE", help="Start from this note.")
@click.option("--engine", type=click.Choice(ENGINES), help="Default: walker.toml [walk] engine.")
@random_seed_option
@now_option
@click.option("--dry-run", is_flag=True, help="Print the report; write nothing.")
@json_option
def walk(vault: Path, seed_text: str | None, seed_note: str | None, engine: str | None, random_seed: int,
         now: str | None, dry_run: bool, as_json: bool) -> None:
    """Run one walk: pick a seed, wander, inventory, roam, critique; keep the few that survive."""
    from walker.walk.runner import WalkOptions, run_walk

    if seed_text and seed_note:
        raise click.UsageError("give --seed or --seed-note, not both")
    ws = _workspace(vault, show_progress=not as_json)
    options = WalkOptions(now=_now(now), seed_text=seed_text, seed_note=seed_note, engine=engine,
                          random_seed=random_seed, dry_run=dry_run)
    result = run_walk(ws, options)
    if as_json:
        _print_json(result.summary())
        return
    if dry_run:
        click.echo(result.report)
        return
    summary = result.summary()
    outcome = result.outcome
    click.echo(f"Walk {summary['walk_id']} from {outcome.seed.path} ({outcome.seed.source})")
    click.echo(f"  “{outcome.seed.proposition}”")
    click.echo(f"Kept {len(summary['hypotheses'])} of {summary['candidates']} candidates")
    for index, hyp_id in outcome.hypothesis_ids.items():
        c = outcome.candidates[index]
        click.echo(f"  {hyp_id}  {c.title}  ({c.confidence}, {c.impact})")
    for entry_id in summary["noteworthy"]:
        click.echo(f"  noteworthy: {entry_id}")
    click.echo(f"Report: {PoolStore(vault).root / 'reports' / (summary['walk_id'] + '.md')}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@vault_argument
@json_option
def critique(file: Path, vault: Path, as_json: bool) -> None:
    """Run the critic gate on candidates written as YAML (a list of hypothesis-shaped records)."""
    from walker.walk.audit import critique_file

    ws = _workspace(vault, show_progress=False)
    verdicts = critique_file(ws, file)
    if as_json:
        _print_json({"verdicts": verdicts})
        return
    for v in verdicts:
        state = "kept" if v["accepted"] else "noteworthy" if v["noteworthy"] else "rejected"
        click.echo(f"{v['id']}: {state}")
        for rule, reason in zip(v["rules"], v["reasons"]):
            click.echo(f"  {rule}: {reason}")


@main.group()
def pool() -> None:
    """The hypothesis pool under walks/."""


@pool.command("list")
@vault_argument
@click.option("--status", help="Only records with this status (active, muted, noteworthy, …).")
@json_option
def pool_list(vault: Path, status: str | None, as_json: bool) -> None:
    """List pool records: id, status, confidence, impact, claim."""
    records = list_records(vault, status)
    if as_json:
        _print_json({"records": records})
        return
    if not records:
        click.echo("the pool is empty" + (f" for status {status}" if status else ""))
    for r in records:
        click.echo(f"{r['id']}  {r['status']:<24} {r.get('confidence') or '':<7} {r.get('impact') or '':<8} "
                   f"{r.get('title') or r['claim'][:70]}")


@pool.command("show")
@click.argument("record_id", metavar="ID")
@vault_argument
@json_option
def pool_show(record_id: str, vault: Path, as_json: bool) -> None:
    """Show one record in full."""
    record = show_record(vault, record_id)
    if as_json:
        _print_json(record)
        return
    for key, value in record.items():
        if isinstance(value, list):
            click.echo(f"{key}:")
            for item in value:
                click.echo(f"  - {item}")
        else:
            click.echo(f"{key}: {value}")


def _plain_links(text: str) -> str:
    """``[[path|shown]]`` as its shown words, for a terminal."""
    return re.sub(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]", lambda m: m.group(2) or m.group(1), text)


def _print_outcome(outcome: lifecycle.Outcome, as_json: bool) -> None:
    if as_json:
        _print_json({"events": outcome.events, "problems": outcome.problems,
                     "written": [str(p) for p in outcome.written]})
        return
    for event in outcome.events:
        click.echo(event)
    for problem in outcome.problems:
        click.echo(f"not applied: {problem}", err=True)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@click.option("--source", required=True, help="The evidence that makes it true, e.g. 'user statement on 2026-11-29'.")
@click.option("--statement", required=True, help="The fact, in your own words: the body of the new note.")
@click.option("--evidence", multiple=True, help="Further evidence, one per option.")
@now_option
@json_option
def discharge(record_id: str, vault: Path, source: str, statement: str, evidence: tuple[str, ...], now: str | None,
              as_json: bool) -> None:
    """Confirmed: write a new conclusion note in the inbox and retire the hypothesis to discharged/."""
    settings = load_settings(vault)
    outcome = lifecycle.discharge(PoolStore(vault), settings.inbox_folder, record_id, source=source,
                                  statement=statement, evidence=evidence, now=_now(now))
    _print_outcome(outcome, as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@click.option("--evidence", required=True, help="What showed the hypothesis wrong.")
@now_option
@json_option
def reject(record_id: str, vault: Path, evidence: str, now: str | None, as_json: bool) -> None:
    """Refuted: move the hypothesis to rejected/ with the evidence (walks will not propose it again)."""
    _print_outcome(lifecycle.reject(PoolStore(vault), record_id, evidence=evidence, now=_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@click.option("--reason", default="archived by the reviewer", show_default=True)
@now_option
@json_option
def archive(record_id: str, vault: Path, reason: str, now: str | None, as_json: bool) -> None:
    """Retire a hypothesis or a noteworthy entry to archived/ without a verdict."""
    _print_outcome(lifecycle.archive(PoolStore(vault), record_id, reason=reason, now=_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@now_option
@json_option
def mute(record_id: str, vault: Path, now: str | None, as_json: bool) -> None:
    """Keep a hypothesis in active/ but never surface it on its own."""
    _print_outcome(lifecycle.mute(PoolStore(vault), record_id, now=_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@now_option
@json_option
def unmute(record_id: str, vault: Path, now: str | None, as_json: bool) -> None:
    """Let a muted hypothesis surface again."""
    _print_outcome(lifecycle.unmute(PoolStore(vault), record_id, now=_now(now)), as_json)


@main.command()
@vault_argument
@now_option
@json_option
def review(vault: Path, now: str | None, as_json: bool) -> None:
    """Apply what reviewers set in Obsidian: human_review_outcome on noteworthy entries, review on records.
    Exit 1 when an edit is incomplete or invalid (it is left as it is, and said why)."""
    from walker.cadence import apply_reviews

    ws = _workspace(vault, show_progress=not as_json)
    outcome = apply_reviews(ws, _now(now))
    _print_outcome(outcome, as_json)
    if outcome.problems:
        sys.exit(1)


@main.command()
@vault_argument
@click.option("--repair", is_flag=True, help="Mend what needs no judgement: half-finished moves and writes.")
@now_option
@json_option
def check(vault: Path, repair: bool, now: str | None, as_json: bool) -> None:
    """Check the pool: schema, folders, duplicate ids, dead or changed refs, broken reports. Exit 1 on findings."""
    problems = check_pool(vault)
    mended = lifecycle.Outcome()
    if repair and any(p.repair for p in problems):
        mended = health.repair(PoolStore(vault), [p for p in problems if p.repair], _now(now))
        problems = check_pool(vault)
    if as_json:
        _print_json({"problems": [p.as_dict() for p in problems], "repaired": mended.events,
                     "not_repaired": mended.problems})
    else:
        for event in mended.events:
            click.echo(f"mended: {_plain_links(event)}")
        for problem in mended.problems:
            click.echo(f"not repaired: {problem}", err=True)
        for p in problems:
            click.echo(f"{p.kind}: {p.path}: {p.message}" + (f" (--repair: {p.repair})" if p.repair else ""))
        done = f"{len(mended.events)} mended; " if mended.events else ""
        click.echo(done + (f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found" if problems
                           else "the pool is healthy"))
    if problems:
        sys.exit(1)


@main.command()
@vault_argument
@click.option("--cadence", type=click.Choice(["daily", "weekly"]), default="weekly", show_default=True)
@click.option("--force", is_flag=True, help="Run even if this period's run already happened.")
@now_option
@json_option
def run(vault: Path, cadence: str, force: bool, now: str | None, as_json: bool) -> None:
    """The scheduled run: apply reviews, walk (1 pass daily, 3 weekly), age the pool, rebuild the site."""
    from walker.cadence import run_cadence

    report = run_cadence(vault, cadence, _now(now), force)
    if as_json:
        _print_json(report.as_dict())
        return
    if report.skipped:
        click.echo(f"skipped: {report.skipped}")
        return
    for walk_summary in report.walks:
        click.echo(f"walk {walk_summary['walk_id']}: {walk_summary['seed']['path']} → kept {len(walk_summary['hypotheses'])}")
    for event in report.events:
        click.echo(event)
    for problem in report.problems:
        click.echo(f"problem: {problem}", err=True)
    if report.site:
        click.echo(f"site: {report.site}")


@main.command("surface")
@vault_argument
@click.option("--turn", required=True, help="The conversation turn to match against the pool.")
@click.option("--mode", type=click.Choice(["auto", "pull"]), help="Default: read from the turn.")
@click.option("--turn-id", help="An id for the turn, recorded with the surface event.")
@click.option("--limit", type=click.IntRange(min=1), help="A pull lists every eligible hypothesis; at most this many.")
@now_option
@json_option
def surface_command(vault: Path, turn: str, mode: str | None, turn_id: str | None, limit: int | None, now: str | None,
                    as_json: bool) -> None:
    """Which hypothesis, if any, belongs beside the answer to this turn. Silent by default."""
    result = surface(vault, turn, mode, limit)
    log_surfaced(vault, result, _now(now), turn_id)
    if as_json:
        _print_json(result.as_dict())
        return
    if not result.surfaced:
        click.echo(f"(silent: {result.silent_reason})", err=True)
    for entry in result.surfaced:
        click.echo(side_note(entry))


@main.command()
@click.argument("record_id", metavar="ID")
@click.argument("outcome", type=click.Choice(["engaged", "ignored", "rejected"]))
@vault_argument
@click.option("--turn-id", help="The turn the outcome was seen in.")
@click.option("--turn", help="The turn's words (kept as evidence for a rejection).")
@now_option
@json_option
def feedback(record_id: str, outcome: str, vault: Path, turn_id: str | None, turn: str | None, now: str | None,
             as_json: bool) -> None:
    """Record what became of a surfaced note: engaged, ignored (3 in a row mute it) or rejected."""
    _print_outcome(record_feedback(vault, record_id, outcome, _now(now), turn_id, turn), as_json)


@main.group()
def hook() -> None:
    """Per-turn hooks for Claude Code, Codex and Gemini CLI: a walk note beside the answer, or nothing."""


def _hook_command(client: str) -> click.Command:
    @click.command(client, help=f"Read {client}'s hook JSON on stdin; print its context JSON, or nothing.")
    @vault_argument
    @click.option("--event", type=click.Choice(["prompt", "stop"]), default="prompt", show_default=True)
    def command(vault: Path, event: str) -> None:
        # A hook must never block or break the client: any problem goes to stderr, the prompt goes on.
        try:
            raw = sys.stdin.buffer.read(hooks.INPUT_LIMIT + 1)
            if len(raw) > hooks.INPUT_LIMIT:
                click.echo(f"walker hook: the client sent over {hooks.INPUT_LIMIT // 1024} KiB; staying silent", err=True)
                return
            payload = json.loads(raw or b"{}")
            with hooks.deadline(hooks.ANSWER_WITHIN):
                if event == "stop":
                    hooks.on_stop(client, vault, payload)
                    return
                answer = hooks.on_prompt(client, vault, payload)
        except Exception as exc:  # noqa: BLE001
            click.echo(f"walker hook: {type(exc).__name__}: {exc}", err=True)
            return
        if answer is not None:
            click.echo(json.dumps(answer, ensure_ascii=False))

    return command


for _client in hooks.CLIENTS:
    hook.add_command(_hook_command(_client))


@hook.command("install")
@click.argument("client", type=click.Choice(list(hooks.CLIENTS)))
@vault_argument
@click.option("--scope", type=click.Choice(["project", "user"]), default="project", show_default=True)
def hook_install(client: str, vault: Path, scope: str) -> None:
    """Add walker's hooks to the client's settings (the project's, or your user settings)."""
    path = hooks.install(client, vault, scope, Path.cwd(), _walker_program())
    click.echo(f"wrote {path}")


@hook.command("show")
@click.argument("client", type=click.Choice(list(hooks.CLIENTS)))
@vault_argument
def hook_show(client: str, vault: Path) -> None:
    """Print the settings snippet to add by hand."""
    _print_json(hooks.settings_snippet(client, vault, _walker_program()))


def _walker_program() -> str:
    import shutil

    return shutil.which("walker") or "walker"


@main.command("mcp")
@vault_argument
def mcp_command(vault: Path) -> None:
    """Serve the pool to MCP clients over stdio: walk_surface, walk_feedback, walk_show."""
    try:
        from walker.mcp_server import serve
    except ImportError:
        raise WalkerError("the MCP server needs its extra: pip install 'walker[mcp]'") from None
    serve(vault)


@main.group()
def schedule() -> None:
    """The timer that runs `walker run` (systemd user units, or a crontab line)."""


def _units(vault: Path, cadence: str, on: str | None) -> Units:
    if not vault.is_dir():
        raise WalkerError(f"{vault}: no such folder. Pass the vault folder, or set WALKER_VAULT.")
    return make_units(vault, cadence, on)


cadence_option = click.option("--cadence", type=click.Choice(["daily", "weekly"]), default="weekly", show_default=True)
on_option = click.option("--on", help="When: 'Fri 07:50' for weekly (the default), '07:50' for daily.")


@schedule.command("install")
@vault_argument
@cadence_option
@on_option
def schedule_install(vault: Path, cadence: str, on: str | None) -> None:
    """Write and enable the timer for this vault."""
    for message in install(_units(vault, cadence, on)):
        click.echo(message)


@schedule.command("show")
@vault_argument
@cadence_option
@on_option
def schedule_show(vault: Path, cadence: str, on: str | None) -> None:
    """Print the units (and the crontab line) without installing anything."""
    units = _units(vault, cadence, on)
    for name, text in units.files.items():
        click.echo(f"# {user_unit_dir() / name}\n{text}")
    click.echo(f"# or, without systemd, in `crontab -e`:\n{units.crontab}")


@schedule.command("remove")
@vault_argument
def schedule_remove(vault: Path) -> None:
    """Disable and delete this vault's timer."""
    for message in remove(_units(vault, "weekly", None)):
        click.echo(message)


@main.group()
def site() -> None:
    """The review site: reports and the hypothesis pool, rendered by MkDocs."""


@site.command("build")
@vault_argument
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Default: <vault>/../<vault>-site")
def site_build(vault: Path, output: Path | None) -> None:
    """Build the static review site; open its index.html in a browser, no server needed."""
    from walker.site.build import build_site

    target = output or vault.resolve().parent / f"{vault.resolve().name}-site"
    built = build_site(vault, target)
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"built {built.index}")


@site.command("serve")
@vault_argument
@click.option("-a", "--address", default="127.0.0.1:8000", show_default=True)
def site_serve(vault: Path, address: str) -> None:
    """Serve the review site on this machine, rebuilding when walks change."""
    from walker.site.build import serve_site

    serve_site(vault, address)


if __name__ == "__main__":  # pragma: no cover
    main()
