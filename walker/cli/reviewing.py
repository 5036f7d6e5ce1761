"""Commands for the reviewer: the pool, the four exits, mute, review and check."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from walker.cli.app import (
    json_option,
    main,
    next_command,
    now_option,
    open_workspace,
    parse_now,
    plain_links,
    print_json,
    print_outcome,
    vault_argument,
)
from walker.config import load_settings
from walker.pool import health, lifecycle
from walker.pool.inspect import check_pool, list_records, show_record
from walker.pool.store import PoolStore


@main.group()
def pool() -> None:
    """The hypothesis pool under walks/."""


@pool.command("list")
@vault_argument
@click.option("--status", help="Only records with this status (active, muted, noteworthy, …).")
@json_option
def pool_list(vault: Path, status: str | None, as_json: bool) -> None:
    """List pool records: id, status, kind, confidence, impact and title (`walker pool show ID` shows one in full)."""
    records, warnings = list_records(vault, status)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        print_json({"records": records})
        return
    if not records:
        click.echo("the pool is empty" + (f" for status {status}" if status else ""))
        return
    columns = ("id", "status", "kind", "confidence", "impact")
    rows = [[str(r.get(c) or "-") for c in columns] + [r.get("title") or r["claim"][:70]] for r in records]
    widths = [max(len(c), *(len(row[n]) for row in rows)) for n, c in enumerate(columns)]
    for row in [[*columns, "title"], *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])
    click.echo(f"{len(records)} record{'s' if len(records) != 1 else ''}; {next_command(vault, 'pool', 'show', 'ID')} "
               "shows one in full")


@pool.command("show")
@click.argument("record_id", metavar="ID")
@vault_argument
@json_option
def pool_show(record_id: str, vault: Path, as_json: bool) -> None:
    """Show one record in full."""
    record = show_record(vault, record_id)
    if as_json:
        print_json(record)
        return
    for key, value in record.items():
        if isinstance(value, list):
            click.echo(f"{key}:")
            for item in value:
                click.echo(f"  - {item}")
        else:
            click.echo(f"{key}: {value}")


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
                                  statement=statement, evidence=evidence, now=parse_now(now))
    print_outcome(outcome, as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@click.option("--evidence", required=True, help="What showed the hypothesis wrong.")
@now_option
@json_option
def reject(record_id: str, vault: Path, evidence: str, now: str | None, as_json: bool) -> None:
    """Refuted: move the hypothesis to rejected/ with the evidence (walks will not propose it again)."""
    print_outcome(lifecycle.reject(PoolStore(vault), record_id, evidence=evidence, now=parse_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@click.option("--reason", default="archived by the reviewer", show_default=True)
@now_option
@json_option
def archive(record_id: str, vault: Path, reason: str, now: str | None, as_json: bool) -> None:
    """Retire a hypothesis or a noteworthy entry to archived/ without a verdict."""
    print_outcome(lifecycle.archive(PoolStore(vault), record_id, reason=reason, now=parse_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@now_option
@json_option
def mute(record_id: str, vault: Path, now: str | None, as_json: bool) -> None:
    """Keep a hypothesis in active/ but never surface it on its own."""
    print_outcome(lifecycle.mute(PoolStore(vault), record_id, now=parse_now(now)), as_json)


@main.command()
@click.argument("record_id", metavar="ID")
@vault_argument
@now_option
@json_option
def unmute(record_id: str, vault: Path, now: str | None, as_json: bool) -> None:
    """Let a muted hypothesis surface again."""
    print_outcome(lifecycle.unmute(PoolStore(vault), record_id, now=parse_now(now)), as_json)


@main.command()
@vault_argument
@now_option
@json_option
def review(vault: Path, now: str | None, as_json: bool) -> None:
    """Apply what reviewers set in Obsidian: human_review_outcome on noteworthy entries, review on records.
    Exit 1 when an edit is incomplete or invalid (it is left as it is, and said why)."""
    from walker.cadence import apply_reviews

    ws = open_workspace(vault, show_progress=not as_json)
    outcome = apply_reviews(ws, parse_now(now))
    print_outcome(outcome, as_json)
    if not as_json and not outcome.events and not outcome.problems:
        click.echo("nothing to apply: no record under walks/ has review or human_review_outcome set")
    if outcome.problems:
        sys.exit(1)


@main.command()
@vault_argument
@click.option("--repair", is_flag=True, help="Mend what needs no judgement: half-finished moves and writes.")
@now_option
@json_option
def check(vault: Path, repair: bool, now: str | None, as_json: bool) -> None:
    """Check the pool: schema, folders, duplicate ids, dead or changed refs, broken reports, unknown settings
    in walker.toml. Exit 1 on findings."""
    settings = load_settings(vault, warn=False)  # its warnings are findings here
    problems = health.settings_problems(settings) + check_pool(vault)
    mended = lifecycle.Outcome()
    if repair and any(p.repair for p in problems):
        mended = health.repair(PoolStore(vault), settings.inbox_folder, [p for p in problems if p.repair],
                               parse_now(now))
        problems = health.settings_problems(settings) + check_pool(vault)
    if as_json:
        print_json({"problems": [p.as_dict() for p in problems], "repaired": mended.events,
                     "not_repaired": mended.problems})
    else:
        for event in mended.events:
            click.echo(f"mended: {plain_links(event)}")
        for problem in mended.problems:
            click.echo(f"not repaired: {problem}", err=True)
        for p in problems:
            click.echo(f"{p.kind}: {p.path}: {p.message}" + (f" (--repair: {p.repair})" if p.repair else ""))
        done = f"{len(mended.events)} mended; " if mended.events else ""
        click.echo(done + (f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found" if problems
                           else "the pool is healthy"))
    if problems:
        sys.exit(1)
