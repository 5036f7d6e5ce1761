"""The command line's frame: the group, its error handling, and what every command shares."""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from walker import __version__
from walker.errors import WalkerError
from walker.pool import lifecycle

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
            ctx.exit(1 if exc.errno == errno.ENOSPC else 2)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:  # a bug: the traceback goes to a file, the user gets one line
            log = _crash_log(exc)
            click.echo(f"Error: walker failed unexpectedly ({type(exc).__name__}: {exc}); the details are in "
                       f"{log}. Please report it with that file.", err=True)
            ctx.exit(3)


def _crash_log(exc: BaseException) -> str:
    """Write the traceback where the caches live (never the vault); returns where, or why it could not."""
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
def progress_bar(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
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


def load_vault(vault: Path, show_progress: bool = True) -> Corpus:
    from walker.corpus import load_corpus

    with progress_bar(show_progress) as progress:
        return load_corpus(vault, progress=progress)


def print_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def open_workspace(vault: Path, show_progress: bool = True) -> Workspace:
    from walker.workspace import Workspace

    with progress_bar(show_progress) as progress:
        return Workspace.open(vault, progress=progress)


def parse_now(value: str | None) -> datetime:
    if value is None:
        return datetime.now(timezone.utc)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO date-time such as 2026-11-30T07:00", param_hint="--now") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


now_option = click.option("--now", "now", metavar="ISO-DATETIME", help="Pretend it is this moment (for reproducible runs).")
random_seed_option = click.option("--random-seed", type=int, default=0, show_default=True, help="Seed for the far draws.")

def plain_links(text: str) -> str:
    """``[[path|shown]]`` as its shown words, for a terminal."""
    return re.sub(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]", lambda m: m.group(2) or m.group(1), text)


def print_outcome(outcome: lifecycle.Outcome, as_json: bool) -> None:
    if as_json:
        print_json({"events": outcome.events, "problems": outcome.problems,
                     "written": [str(p) for p in outcome.written]})
        return
    for event in outcome.events:
        click.echo(event)
    for problem in outcome.problems:
        click.echo(f"not applied: {problem}", err=True)
