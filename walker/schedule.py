"""`walker schedule`: a systemd user timer that runs `walker run` on a cadence.

One service and one timer per vault, named after it. ``Persistent=true`` catches up a run missed
while the machine was off; ``RandomizedDelaySec`` keeps many vaults from starting at once. Where
there is no systemd, walker prints the units, the commands to enable them and a crontab line.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from walker import safewrite
from walker.errors import WalkerError

DAYS = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 0}
DEFAULT_ON = {"weekly": "Fri 07:50", "daily": "07:50"}


class ScheduleError(WalkerError):
    """The schedule asked for cannot be written."""


@dataclass(frozen=True)
class Units:
    name: str
    service: str
    timer: str
    crontab: str

    @property
    def files(self) -> dict[str, str]:
        return {f"{self.name}.service": self.service, f"{self.name}.timer": self.timer}


def unit_name(vault: Path) -> str:
    root = vault.resolve()
    slug = re.sub(r"[^a-z0-9]+", "-", root.name.lower()).strip("-") or "vault"
    return f"walker-{slug}-{hashlib.sha1(str(root).encode()).hexdigest()[:6]}"


def make_units(vault: Path, cadence: str, on: str | None = None, walker: str | None = None) -> Units:
    if cadence not in DEFAULT_ON:
        raise ScheduleError(f"cadence {cadence!r}: use daily or weekly")
    day, hour, minute = _parse_on(on or DEFAULT_ON[cadence], cadence)
    root = vault.resolve()
    program = walker or _walker_program()
    for value in (str(root), program):
        if re.search(r"[\x00-\x1f\x7f]", value):
            raise ScheduleError(f"{value!r} holds a line break or control character, which a systemd unit or a "
                                "crontab line cannot carry; rename the folder and try again")
    name = unit_name(vault)
    calendar = f"{day.capitalize() + ' ' if day else ''}*-*-* {hour:02d}:{minute:02d}:00"
    service = "\n".join([
        "[Unit]",
        f"Description=walker: {cadence} walk of {_specifiers(str(root))}",
        "Documentation=https://pypi.org/project/walker/",
        "",
        "[Service]",
        "Type=oneshot",
        f"ExecStart={_quote(program)} run --cadence {cadence} {_quote(str(root))}",
        "Nice=10",
        "",
    ])
    timer = "\n".join([
        "[Unit]",
        f"Description=walker: {cadence} walk of {_specifiers(str(root))}",
        "",
        "[Timer]",
        f"OnCalendar={calendar}",
        "Persistent=true",
        "RandomizedDelaySec=15min",
        f"Unit={name}.service",
        "",
        "[Install]",
        "WantedBy=timers.target",
        "",
    ])
    cron_day = str(DAYS[day]) if day else "*"
    command = f"{_shell(program)} run --cadence {cadence} {_shell(str(root))}"
    crontab = f"{minute} {hour} * * {cron_day} " + command.replace("%", "\\%")  # cron reads a bare % as a newline
    return Units(name, service, timer, crontab)


def user_unit_dir() -> Path:
    return Path.home() / ".config" / "systemd" / "user"


def install(units: Units) -> list[str]:
    """Write the units and enable the timer; without systemd, say how to schedule by hand."""
    verify(units)
    folder = user_unit_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in units.files.items():
        safewrite.write_atomic(folder / name, text)
    messages = [f"wrote {folder / name}" for name in units.files]
    commands = [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", f"{units.name}.timer"]]
    if not _systemd_running():
        return messages + ["systemd is not running here; enable the timer with:",
                           *("  " + " ".join(c) for c in commands),
                           "or add this line with `crontab -e`:", "  " + units.crontab]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ScheduleError(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return messages + [f"enabled {units.name}.timer"]


def verify(units: Units) -> None:
    """Run ``systemd-analyze verify`` on the units before installing them, where it is installed."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    with tempfile.TemporaryDirectory(prefix="walker-units-") as folder:
        paths = []
        for name, text in units.files.items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
            paths.append(str(Path(folder) / name))
        done = subprocess.run([analyze, "verify", *paths], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ScheduleError(f"systemd-analyze rejects the units, so nothing was installed: {done.stderr.strip()}")


def remove(units: Units) -> list[str]:
    messages = []
    if _systemd_running():
        subprocess.run(["systemctl", "--user", "disable", "--now", f"{units.name}.timer"], capture_output=True)
    for name in units.files:
        path = user_unit_dir() / name
        if path.exists():
            path.unlink()
            messages.append(f"removed {path}")
    return messages or [f"no units named {units.name} were installed"]


@dataclass(frozen=True)
class TimerStatus:
    """What is installed to run one vault, and what systemd says of it."""

    installed: bool  # the timer's unit file is in the user unit folder
    enabled: bool | None = None  # None: systemd could not be asked (``unknown`` says why)
    next_run: str | None = None  # as systemd prints it, e.g. "Fri 2026-12-04 07:58:12 UTC"
    unknown: str | None = None
    in_crontab: bool = False  # a line of the user's crontab runs this vault


def timer_status(units: Units, vault: Path) -> TimerStatus:
    """Whether a timer runs this vault and when it fires next. Never raises: what cannot be asked is said."""
    installed = (user_unit_dir() / f"{units.name}.timer").is_file()
    folder = " " + _shell(str(vault.resolve())).replace("%", "\\%")  # as make_units writes it, at either cadence
    in_crontab = any(" run --cadence " in line and line.rstrip().endswith(folder) and not line.lstrip().startswith("#")
                     for line in _crontab().splitlines())
    if not installed:
        return TimerStatus(False, in_crontab=in_crontab)
    shown, unknown = _show(units, "UnitFileState", "NextElapseUSecRealtime")
    if unknown:
        return TimerStatus(True, unknown=unknown, in_crontab=in_crontab)
    return TimerStatus(True, shown.get("UnitFileState") == "enabled", _when(shown.get("NextElapseUSecRealtime", "")),
                       in_crontab=in_crontab)


def next_start(vault: Path) -> str:
    """When the vault's weekly timer next starts, as systemd says; empty when none is installed or it cannot tell."""
    return next_run(make_units(vault, "weekly", walker="walker")) or ""


def next_run(units: Units) -> str | None:
    """When systemd will next start the timer, if it knows."""
    shown, unknown = _show(units, "NextElapseUSecRealtime")
    return None if unknown else _when(shown.get("NextElapseUSecRealtime", ""))


def _show(units: Units, *properties: str) -> tuple[dict[str, str], str | None]:
    """The timer's properties as ``systemctl --user show`` gives them, or why systemd could not be asked."""
    if not _systemd_running():
        return {}, "systemd is not running here"
    try:
        done = subprocess.run(["systemctl", "--user", "show", f"{units.name}.timer",
                               f"--property={','.join(properties)}"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        return {}, f"systemctl could not be run ({exc})"
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[0]
        return {}, f"`systemctl --user` did not answer ({reason})"
    return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line), None


def _when(value: str) -> str | None:
    """A time systemd printed; older versions print microseconds since 1970."""
    value = value.strip()
    if not value or value in ("n/a", "0"):
        return None
    if value.isdigit():
        return datetime.fromtimestamp(int(value) / 1e6).astimezone().strftime("%a %Y-%m-%d %H:%M:%S %Z")
    return value


def _crontab() -> str:
    """The user's crontab, or "" when there is none or no crontab program."""
    if shutil.which("crontab") is None:
        return ""
    try:
        done = subprocess.run(["crontab", "-l"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def _parse_on(on: str, cadence: str) -> tuple[str | None, int, int]:
    match = re.fullmatch(r"\s*(?:([A-Za-z]{3})[a-z]*\s+)?(\d{1,2}):(\d{2})\s*", on)
    if not match:
        raise ScheduleError(f"--on {on!r}: write a time like '07:50', or a day and a time like 'Fri 07:50'")
    day = match.group(1).lower() if match.group(1) else None
    if day and day not in DAYS:
        raise ScheduleError(f"--on {on!r}: {match.group(1)} is not a day of the week")
    if cadence == "weekly" and not day:
        day = "fri"
    if cadence == "daily" and day:
        raise ScheduleError("a daily schedule takes a time only, e.g. --on 07:50")
    hour, minute = int(match.group(2)), int(match.group(3))
    if hour > 23 or minute > 59:
        raise ScheduleError(f"--on {on!r}: not a time of day")
    return day, hour, minute


def _walker_program() -> str:
    found = shutil.which("walker")
    return found or str(Path(sys.executable).with_name("walker"))


def _systemd_running() -> bool:
    return shutil.which("systemctl") is not None and Path("/run/systemd/system").is_dir()


def _specifiers(value: str) -> str:
    """Text in a unit file: systemd expands %-specifiers everywhere, so a literal % is doubled."""
    return value.replace("%", "%%")


def _quote(value: str) -> str:
    """A word of ExecStart: % and $ doubled (specifiers, variables), quoted when it holds anything else."""
    value = _specifiers(value).replace("$", "$$")
    if re.fullmatch(r"[\w@%+=:,./-]+", value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _shell(value: str) -> str:
    return value if re.fullmatch(r"[\w@%+=:,./-]+", value) else "'" + value.replace("'", "'\\''") + "'"
