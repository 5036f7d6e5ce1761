"""Commands that serve the review: the timer (schedule) and the site."""

from __future__ import annotations

from pathlib import Path

import click

from walker.cli.app import (
    main,
    next_command,
    vault_argument,
)
from walker.errors import WalkerError
from walker.schedule import TimerStatus, Units, install, make_units, next_start, remove, timer_status, user_unit_dir


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
    """Print the units (and the crontab line) `install` would write, and whether a timer is installed."""
    units = _units(vault, cadence, on)
    for name, text in units.files.items():
        click.echo(f"# {user_unit_dir() / name}\n{text}")
    click.echo(f"# or, without systemd, in `crontab -e`:\n{units.crontab}\n")
    click.echo(_status_line(timer_status(units, vault), units, vault))


def _status_line(status: TimerStatus, units: Units, vault: Path) -> str:
    cron = " A line of your crontab runs walker for this vault too." if status.in_crontab else ""
    if not status.installed:
        if status.in_crontab:
            return "No systemd timer is installed; a line of your crontab runs walker for this vault."
        return f"Not installed: {next_command(vault, 'schedule', 'install')} writes these units and enables the timer."
    if status.unknown:
        return (f"Installed ({units.name}.timer), but {status.unknown}, so walker cannot tell when it runs next." + cron)
    if not status.enabled:
        return (f"Installed but not enabled: `systemctl --user enable --now {units.name}.timer` starts it, "
                f"or run {next_command(vault, 'schedule', 'install')} again." + cron)
    when = f"next run {status.next_run}" if status.next_run else "systemd has no next run time for it yet"
    return f"Installed and enabled ({units.name}.timer): {when}." + cron


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
    built = build_site(vault, target, timer=next_start(vault))
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"built {built.index}")


@site.command("serve")
@vault_argument
@click.option("-a", "--address", default="127.0.0.1:8000", show_default=True)
def site_serve(vault: Path, address: str) -> None:
    """Serve the review site on this machine, rebuilding when walks change."""
    from walker.site.build import serve_site

    serve_site(vault, address, timer=next_start(vault))


if __name__ == "__main__":  # pragma: no cover
    main()
