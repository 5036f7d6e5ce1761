"""Commands that walk: walk, critique, and run (what the timer runs)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from walker.cli.app import (
    json_option,
    main,
    next_command,
    now_option,
    open_workspace,
    parse_now,
    phase,
    print_json,
    random_seed_option,
    vault_argument,
)
from walker.pool.store import PoolStore
from walker.walk.engines import ENGINES


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
    ws = open_workspace(vault, show_progress=not as_json, index=True)
    options = WalkOptions(now=parse_now(now), seed_text=seed_text, seed_note=seed_note, engine=engine,
                          random_seed=random_seed, dry_run=dry_run)
    result = run_walk(ws, options)
    if as_json:
        print_json(result.summary())
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

    ws = open_workspace(vault, show_progress=False)
    verdicts = critique_file(ws, file)
    if as_json:
        print_json({"verdicts": verdicts})
        return
    for v in verdicts:
        state = "kept" if v["accepted"] else "noteworthy" if v["noteworthy"] else "rejected"
        click.echo(f"{v['id']}: {state}")
        for rule, reason in zip(v["rules"], v["reasons"]):
            click.echo(f"  {rule}: {reason}")


@main.command()
@vault_argument
@click.option("--cadence", type=click.Choice(["daily", "weekly"]), default="weekly", show_default=True)
@click.option("--force", is_flag=True, help="Run even if this period's run already happened.")
@now_option
@json_option
def run(vault: Path, cadence: str, force: bool, now: str | None, as_json: bool) -> None:
    """The scheduled run: apply reviews, walk (1 pass daily, 3 weekly), age the pool, rebuild the site."""
    from walker.cadence import CADENCES, run_cadence

    with phase(f"Running the {cadence} walk{'s' if CADENCES[cadence] > 1 else ''} of {vault}", not as_json):
        report = run_cadence(vault, cadence, parse_now(now), force)
    if as_json:
        print_json(report.as_dict())
        return
    if report.skipped:
        click.echo(f"skipped: {report.skipped}")
        return
    for walk_summary in report.walks:
        click.echo(f"walk {walk_summary['walk_id']}: {walk_summary['seed']['path']} → kept {len(walk_summary['hypotheses'])}")
    for event in report.events:
        click.echo(event)
    for problem in _grouped(report.problems):
        click.echo(f"problem: {problem}", err=True)
    if report.walks:
        reports = PoolStore(vault).root / "reports"
        names = ", ".join(f"{w['walk_id']}.md" for w in report.walks)
        click.echo(f"Reports in {reports}/: {names}")
    elif not report.site:
        click.echo("No walk ran, so no report was written.")
        return
    if report.site:
        click.echo(f"Review site: {report.site}")
    else:
        click.echo(f"To review them in a browser: {next_command(vault, 'site', 'build')} "
                   "(or set [run] site_dir in walker.toml to rebuild the site after every run).")


def _grouped(problems: list[str]) -> list[str]:
    """The problems; when every walk failed for one reason, that said once ("no walk of 3 ran: …")."""
    failed = [m for p in problems if (m := re.fullmatch(r"walk \d+ of (\d+) did not run: (.*)", p, re.S))]
    reasons = {m.group(2) for m in failed}
    if len(reasons) == 1 and len(failed) == int(failed[0].group(1)) > 1:
        return [f"no walk of {len(failed)} ran: {reasons.pop()}"] + [p for p in problems if p not in
                                                                  {m.group(0) for m in failed}]
    return problems
