"""Commands for assistants: surface, feedback, chat hooks and the MCP server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from walker import hooks
from walker.cli.app import (
    json_option,
    main,
    now_option,
    parse_now,
    print_json,
    print_outcome,
    vault_argument,
)
from walker.errors import WalkerError
from walker.surface import feedback as record_feedback
from walker.surface import framed, log_surfaced, surface


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
    log_surfaced(vault, result, parse_now(now), turn_id)
    if as_json:
        print_json(result.as_dict())
        return
    if not result.surfaced:
        click.echo(f"(silent: {result.silent_reason})", err=True)
        return
    click.echo(framed(result.surfaced))  # note text, framed as data for an agent that reads this


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
    print_outcome(record_feedback(vault, record_id, outcome, parse_now(now), turn_id, turn), as_json)


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
    print_json(hooks.settings_snippet(client, vault, _walker_program()))


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
