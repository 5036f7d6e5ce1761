"""Commands that read the vault: scan, links, graph export, neighbors, seeds, init."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

from walker.cli.app import (
    EXPORT_FORMATS,
    json_option,
    load_vault,
    main,
    next_command,
    now_option,
    open_workspace,
    parse_now,
    print_json,
    random_seed_option,
    vault_argument,
)
from walker.config import write_default_config
from walker.errors import WalkerError
from walker.pool.store import PoolStore


@main.command()
@vault_argument
@click.option("--warnings", "all_warnings", is_flag=True, help="List every warning, not only a few of each kind.")
@json_option
def scan(vault: Path, all_warnings: bool, as_json: bool) -> None:
    """Read the vault and report notes, links, orphans, tags, skipped files and warnings."""
    from walker.graph import vault_summary

    started = time.perf_counter()
    corpus = load_vault(vault, show_progress=not as_json)
    summary = vault_summary(corpus)
    summary["read_seconds"], summary["seconds"] = summary["seconds"], round(time.perf_counter() - started, 3)
    if as_json:
        print_json(summary)
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
    theirs = [x for x in s["skipped"] if x["reason"] != OWN_FOLDER]  # walks/ is walker's, never the user's notes
    reasons = Counter(_reason_kind(x["reason"]) for x in theirs)
    if reasons:
        click.echo("left out: " + ", ".join(f"{n} {r}" for r, n in reasons.most_common()))
    for item in theirs:
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


# walker's own warnings, by the words that say what kind each is: the rest of a message names notes, lines and
# quoted text, which differ from one warning of a kind to the next (and note names hold spaces and quotes).
WARNING_KINDS = (
    (re.compile(r"names a heading or block that .* does not have"), "links to a heading or block the note does not have"),
    (re.compile(r"^broken YAML frontmatter"), "broken YAML frontmatter (properties ignored, the text is read)"),
    (re.compile(r"^frontmatter is an? "), "frontmatter that is not a set of properties (ignored)"),
    (re.compile(r"^not valid UTF-8"), "not valid UTF-8 (read with replacement characters)"),
    (re.compile(r"written in decomposed Unicode"), "names that differ only in Unicode form"),
    (re.compile(r"^not read \("), "settings files walker could not read"),
)


def _warning_kind(message: str) -> str:
    """What kind of problem a warning is: a known kind's label, else the message without its particulars
    ("line 3:", quoted text, paths, numbers)."""
    kind = re.sub(r"^line \d+:\s*", "", message)
    for pattern, label in WARNING_KINDS:
        if pattern.search(kind):
            return label
    kind = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S*/\S*|\S+\.\w{1,8}\b|\d+", "…", kind)
    return kind if len(kind) <= 90 else kind[:89].rstrip() + "…"


OWN_FOLDER = "excluded: walker's own folder"


def _reason_kind(reason: str) -> str:
    return reason.split(":", 1)[0] if reason.startswith("excluded") else reason.split(" (", 1)[0].split(":")[0]


@main.command()
@vault_argument
@json_option
def links(vault: Path, as_json: bool) -> None:
    """List every link: source, line, kind, target, subpath and the file it resolves to."""
    corpus = load_vault(vault, show_progress=not as_json)
    if as_json:
        print_json({"links": [link.as_dict() for link in corpus.links]})
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

    corpus = load_vault(vault)
    g = build_graph(corpus)
    export_graph(g, fmt, output)
    click.echo(f"wrote {output}: {g.number_of_nodes()} nodes, {g.number_of_edges()} edges", err=True)


@main.command()
@click.argument("note")
@vault_argument
@random_seed_option
@json_option
def neighbors(note: str, vault: Path, random_seed: int, as_json: bool) -> None:
    """Show the near, middle and far neighbours a walk from NOTE would gather."""
    from walker.wander import Seed, neighbourhood, propose

    ws = open_workspace(vault, show_progress=not as_json, index=True)
    path = ws.find_note(note)
    proposition, ref = propose(ws.index, ws.corpus.notes[path])
    seed = Seed(path, proposition, ref, "given", "named on the command line")
    result = neighbourhood(ws.corpus, ws.index, ws.links, seed, ws.wander_settings, random_seed)
    if as_json:
        print_json(result.as_dict())
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
    from walker.seeds import candidate_seeds

    ws = open_workspace(vault, show_progress=not as_json, index=True)
    found = candidate_seeds(ws.corpus, ws.index, ws.links, parse_now(now), ws.wander_settings)
    if as_json:
        print_json({source: [s.as_dict() for s in items] for source, items in found.items()})
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
    config = write_default_config(vault)  # first: a walker.toml that cannot be written stops init before walks/
    created = ([config] if config else []) + PoolStore(vault).ensure()
    tops = [p for p in created if p.parent not in created]  # walks/, not each folder made inside it
    shown = " and ".join(f"{p.name}{'/' if p.is_dir() else ''}" for p in tops)
    where = "this folder" if vault == Path(".") else str(vault)
    click.echo(f"created {shown} in {where}" if tops else f"{where} is already set up; nothing changed")
    click.echo(f"Next: {next_command(vault, 'run')} for a first walk (reports go to walks/reports/), then "
               f"{next_command(vault, 'site', 'build')} to review them;")
    click.echo(f"{next_command(vault, 'schedule', 'install')} walks the vault every week.")
