"""The command line's frame: the group, its error handling, and what every command shares."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

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

    from walker import safefile, safewrite
    from walker.config import cache_dir

    try:
        folder = cache_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as the caches are
        path = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
        safewrite.write_atomic(path, "".join(traceback.format_exception(exc)), safefile.PRIVATE)
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


ETA_AFTER_SECONDS = 3.0  # measured over less, a rate counts the workers' start and a few notes: a 10 s read began at "2 h"


def time_left(done: int, total: int, seconds: float) -> str | None:
    """The time the rest of the work will take, in words, at the rate of ``done`` steps in ``seconds``;
    None while that rate says nothing yet (under 3 s measured) and once the work is done."""
    if seconds < ETA_AFTER_SECONDS or done <= 0 or done >= total:
        return None
    left = seconds * (total - done) / done
    if left < 5:
        return "a few seconds left"
    if left < 60:
        return f"about {round(left / 5) * 5} s left"
    if left < 90 * 60:
        return f"about {round(left / 60)} min left"
    return f"about {left / 3600:.1f} h left"


def on_terminal() -> bool:
    """A person is watching: progress goes to stderr only then, never into a pipe or a log."""
    return sys.stderr.isatty() and sys.stdout.isatty()


@contextmanager
def progress_bar(enabled: bool, label: str = "Reading notes",
                 clock: Callable[[], float] = time.monotonic) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr, only when a person is watching a terminal. The callback takes the steps
    just done and the total; its first call sets the start (the notes the cache held)."""
    if not enabled or not on_terminal():
        yield None
        return
    bar: Any = None
    start: tuple[float, int] | None = None  # time and position at the first step worked: the rate leaves
    # out what the cache held and the set-up before it (starting the parse workers)

    def advance(steps: int, total: int) -> None:
        nonlocal bar, start
        if bar is None:
            bar = click.progressbar(length=total, label=label, file=sys.stderr, show_eta=False,
                                    item_show_func=lambda text: text or None)
            bar.__enter__()
            bar.update(steps)
            return
        if start is None:
            bar.update(steps)
            start = (clock(), bar.pos)
            return
        since, base = start
        bar.update(steps, time_left(bar.pos + steps - base, total - base, clock() - since) or "")

    try:
        yield advance
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


@contextmanager
def phase(label: str, enabled: bool = True, clock: Callable[[], float] = time.monotonic) -> Iterator[None]:
    """One line on stderr for work with no steps to count, on a terminal only: the label while it runs,
    and how long it took when that was a second or more (else the line is wiped)."""
    if not enabled or not on_terminal():
        yield
        return
    text = f"{label}…"
    click.echo(text, err=True, nl=False)
    started = clock()
    try:
        yield
    except BaseException:
        click.echo(err=True)
        raise
    seconds = clock() - started
    if seconds >= 1:
        click.echo(f" done in {seconds:.1f} s", err=True)
    else:
        click.echo("\r" + " " * len(text) + "\r", err=True, nl=False)


def load_vault(vault: Path, show_progress: bool = True) -> Corpus:
    from walker.corpus import load_corpus

    with progress_bar(show_progress) as progress:
        return load_corpus(vault, progress=progress)


def print_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def open_workspace(vault: Path, show_progress: bool = True, index: bool = False) -> Workspace:
    """The vault, read; with ``index``, its text index built too, each phase shown on a terminal."""
    from walker.workspace import Workspace

    with progress_bar(show_progress) as progress:
        ws = Workspace.open(vault, progress=progress)
    if index:
        with phase(f"Indexing {len(ws.corpus.notes):,} notes", show_progress):
            ws.build_index()
    return ws


def next_command(vault: Path, *words: str) -> str:
    """A walker command for this vault, as the user would type it next: the vault is named only when they
    named it on this command line (else it comes from $WALKER_VAULT or the current folder, as now)."""
    ctx = click.get_current_context(silent=True)
    named = ctx is not None and ctx.get_parameter_source("vault") is ParameterSource.COMMANDLINE
    return "`" + " ".join(["walker", *words, *([shlex.quote(str(vault))] if named else [])]) + "`"


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
