"""Which notes are daily notes: a note titled by a day's date, in any of the forms daily-note plugins and people
use ("2026-03-07", "2026.3.7", "20260307", "260307", "2026年3月7日"), alone or with the day's name after it
("2026-03-07 Sat", "2026-03-07 周六"). A day's note records a day; a walk reads it as such, whatever its format."""

from __future__ import annotations

import re
from datetime import date
from pathlib import PurePosixPath

_DATES = (
    r"(?P<y>\d{4})(?P<sep>[-._])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})",  # 2026-03-07, 2026.3.7, 2026_03_07
    r"(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})",  # 20260307
    r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})[日号]",  # 2026年3月7日
    r"(?P<yy>\d{2})(?P<m>\d{2})(?P<d>\d{2})",  # 260307
)
# The day's name after the date, in English, Chinese or Japanese ("Sat", "Saturday", "周六", "星期六", "(土)", "土曜日"):
# a date followed by anything else ("2025-11-18 CAPE", "20210215ログ") is a dated note on a subject, not a day's note.
_DAY_NAME = (r"(?i:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?"
             r"|sun(?:day)?)|(?:周|星期|礼拜)[一二三四五六日天]|[月火水木金土日](?:曜日?)?")
_WEEKDAY = rf"(?:[ _,-]*[(（]?(?:{_DAY_NAME})[)）]?)?"
_DATED = [re.compile(date + _WEEKDAY) for date in _DATES]


def daily_date(title: str) -> date | None:
    """The day a note's title names, if the title is a date (and at most the day's name); None otherwise."""
    for pattern in _DATED:
        match = pattern.fullmatch(title.strip())
        if match:
            parts = match.groupdict()
            year = int(parts.get("y") or f"20{parts['yy']}")
            try:
                return date(year, int(parts["m"]), int(parts["d"]))
            except ValueError:
                return None
    return None


def is_daily(title: str) -> bool:
    return daily_date(title) is not None


def daily_date_of_path(path: str) -> date | None:
    """The day a note's file name names (its title, for a note without one of its own)."""
    return daily_date(PurePosixPath(path).stem)
