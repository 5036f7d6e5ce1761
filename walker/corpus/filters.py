"""The path patterns users write, matched under a time limit: Obsidian's Excluded files, ``.gitignore``
and ``exclude`` in walker.toml.

Anyone who can write to the vault can write these, and a regular expression can take exponential time
on the right path: ``/^(a|aa)+$/`` on a long name, or the glob ``*a*a*a…*b``, whose translation by
pathspec Python's ``re`` backtracks on for hours (the ``regex`` module answers that one at once, but
nothing promises it of every pattern). So every match runs under the ``regex`` module's timeout, and
one scan's matching shares one ``Budget``:

- a match slower than ``MATCH_LIMIT`` drops its pattern;
- past the budget (``BUDGET_BASE`` plus ``BUDGET_PER_PATH`` per path matched), the limit falls to
  ``OVER_BUDGET_LIMIT`` and a pattern slower than ``SLOW_MEAN`` on average is dropped (a pattern
  someone meant takes microseconds, so those stay);
- past twice the budget, every pattern still in use is dropped.

Compiling is bounded as well: a pattern longer than ``MAX_LENGTH`` or whose counted repeats nest past
``MAX_REPEAT_WEIGHT`` (``((a{100}){100}){100}`` takes the ``regex`` module a second to compile) is
refused, each file gives at most ``MAX_PATTERNS`` patterns, and compiling spends the same budget.

Most paths match no pattern at all, and the timeout costs more than a simple match, so ``UserRules``
first searches for all the patterns at once (one timed search a path, the precheck); only a path it
finds is matched pattern by pattern. Past the budget, or once the precheck itself runs out of time,
every pattern is matched on its own, so that the slow one is found and dropped.

A dropped pattern is as if it were absent for the rest of the scan. For a pattern meant to exclude,
that lets the files it kept out into the corpus, where walks may read and quote them; failing closed
instead (dropping every file) would let one bad line stop walker on the whole vault. Either way the
user must fix the line, so the warning says what the drop let in and asks for a simpler pattern. A
dropped ``.gitignore`` negation (``!keep.md``) errs the other way: what it took back stays excluded.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import regex
from pathspec.patterns.gitignore import GitIgnorePatternError
from pathspec.patterns.gitignore.spec import _DIR_MARK, GitIgnoreSpecPattern

MATCH_LIMIT = 0.05  # seconds one match may take
OVER_BUDGET_LIMIT = 0.001  # ... once the scan's budget is spent
SLOW_MEAN = 0.0001  # past the budget, a pattern taking longer than this per path on average is dropped
BUDGET_BASE = 1.0  # seconds of matching (and compiling) one scan may spend on all user patterns...
BUDGET_PER_PATH = 0.0001  # ... plus this much for each path matched: large vaults match more
MAX_PATTERNS = 1000  # per file
MAX_LENGTH = 4096  # characters in one pattern; no path is longer
MAX_REPEAT_WEIGHT = 100_000  # the product of nested counted repeats the compiler expands

_COUNTED = re.compile(r"\{(\d*)(?:,(\d*))?\}")


class Budget:
    """The time one scan may spend compiling and matching user patterns, shared by all of them: processor time
    (``time.thread_time``), so that a machine busy with other work does not drop the patterns that are fast."""

    def __init__(self, base: float = BUDGET_BASE, per_path: float = BUDGET_PER_PATH) -> None:
        self.base = base
        self.per_path = per_path
        self.spent = 0.0
        self.paths = 0  # paths matched so far: the caller counts each once
        self.drops = 0  # patterns dropped so far: a precheck built before a drop is out of date

    @property
    def allowed(self) -> float:
        return self.base + self.per_path * self.paths

    @property
    def over(self) -> bool:
        return self.spent > self.allowed

    @property
    def exhausted(self) -> bool:
        return self.spent > 2 * self.allowed


@dataclass(eq=False)
class UserPattern:
    """One pattern as written, and what the scan has learned about its cost."""

    text: str
    compiled: regex.Pattern[str] | None  # None: an Obsidian path prefix, which runs no regular expression
    excludes: bool = True  # False: a .gitignore "!pattern", which takes paths back in
    in_precheck: bool = False  # searched within the precheck (it refers to no group by number, sets no flag)
    spent: float = 0.0
    calls: int = 0
    dropped: str | None = None  # why it no longer applies


class _Refused(Exception):
    """A pattern walker will not compile; the message says why."""


@dataclass(eq=False)
class _Rules:
    """The patterns of one file, and the warnings about them."""

    origin: str  # the file they come from, as a warning's path: ".gitignore", "walker.toml", ".obsidian/app.json"
    label: str  # how a reason names them: ".gitignore", "walker.toml exclude", "Obsidian Excluded files"
    budget: Budget
    patterns: list[UserPattern] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # patterns refused when read

    def warnings(self) -> list[tuple[str, str]]:
        """(file, message) for each pattern refused or dropped."""
        dropped = [f"{self.label} {p.text!r} {p.dropped} and was dropped for this scan: "
                   + (_LET_IN if p.excludes else _KEPT_OUT) for p in self.patterns if p.dropped]
        return [(self.origin, message) for message in self.problems + dropped]

    def _search(self, pattern: UserPattern, compiled: regex.Pattern[str], path: str) -> regex.Match[str] | None:
        """``compiled.search(path)`` within the time limit, charged to ``pattern`` and the budget."""
        budget = self.budget
        allowed = budget.allowed  # once: this runs for every path
        limit = OVER_BUDGET_LIMIT if budget.spent > allowed else MATCH_LIMIT
        started = time.thread_time()
        try:
            found = compiled.search(path, timeout=limit)
        except TimeoutError:
            found = None
            pattern.dropped = f"took longer than {limit * 1000:g} ms on {path!r}"
        elapsed = time.thread_time() - started
        pattern.spent += elapsed
        pattern.calls += 1
        budget.spent += elapsed
        if budget.spent > allowed and not pattern.dropped:
            if pattern.spent > SLOW_MEAN * pattern.calls:
                pattern.dropped = (f"took {pattern.spent / pattern.calls * 1000:.2g} ms a path on average once the "
                                   f"scan had spent its {budget.allowed:.2g} s for patterns")
            elif budget.exhausted:
                pattern.dropped = f"was still in use when the scan had spent twice its {budget.allowed:.2g} s for patterns"
            if pattern.dropped:
                found = None
        if pattern.dropped:
            budget.drops += 1
        return found

    def _compile(self, text: str, flags: int = 0) -> regex.Pattern[str]:
        """The pattern compiled, its time charged to the budget; _Refused when it may not be."""
        if len(text) > MAX_LENGTH:
            raise _Refused(f"is longer than {MAX_LENGTH} characters")
        if repeat_weight(text) > MAX_REPEAT_WEIGHT:
            raise _Refused("nests counted repeats too deep to compile in a moment")
        if self.budget.exhausted:
            raise _Refused("was not compiled: the scan had spent its time for patterns")
        started = time.thread_time()
        try:
            return regex.compile(text, flags)
        except (regex.error, RecursionError, OverflowError, MemoryError):
            raise _Refused("is not a regular expression walker can read") from None
        finally:
            self.budget.spent += time.thread_time() - started

    def _refuse(self, text: str, why: str) -> None:
        shown = text if len(text) <= 200 else text[:200] + "…"
        self.problems.append(f"{self.label} {shown!r} {why}; ignored")

    def _capped(self, items: Iterable[str]) -> Iterator[str]:
        for number, item in enumerate(items):
            if number == MAX_PATTERNS:
                self.problems.append(f"{self.label}: more than {MAX_PATTERNS} patterns; the rest are ignored")
                return
            yield item


_LET_IN = "any files it would keep out are read as notes (walks may quote them) until you simplify it"
_KEPT_OUT = "any files it would take back in stay excluded until you simplify it"


class RegexFilters(_Rules):
    """Obsidian's Excluded files (``userIgnoreFilters``): ``/re/`` is a case-insensitive regular
    expression searched in the path, anything else a path prefix. The first that matches is the reason."""

    def __init__(self, origin: str, label: str, items: Iterable[str], budget: Budget) -> None:
        super().__init__(origin, label, budget)
        for item in self._capped(items):
            if len(item) > 2 and item.startswith("/") and item.endswith("/"):
                try:
                    compiled = self._compile(item[1:-1], regex.IGNORECASE)
                except _Refused as refused:
                    self._refuse(item, str(refused))
                    continue
                self.patterns.append(UserPattern(item, compiled, in_precheck=_combinable(item[1:-1])))
            else:
                self.patterns.append(UserPattern(item, None))

    def first_match(self, path: str, precheck_found: bool = True) -> UserPattern | None:
        """The first filter that matches ``path``; the regular expressions in the precheck are skipped
        when it found nothing."""
        lower: str | None = None
        for pattern in self.patterns:
            if pattern.dropped:
                continue
            if pattern.compiled is None:
                lower = path.lower() if lower is None else lower
                if lower.startswith(pattern.text.lower()):
                    return pattern
            elif (precheck_found or not pattern.in_precheck) and self._search(pattern, pattern.compiled, path):
                return pattern
        return None

    def precheck_parts(self) -> list[tuple[str, str]]:
        return [("anywhere", f"(?i:{p.compiled.pattern})") for p in self.patterns
                if p.in_precheck and p.compiled is not None and not p.dropped]


class GlobRules(_Rules):
    """Gitignore patterns, as git reads them: the last pattern that matches decides, and a pattern that
    matches the file outranks one that matches a folder above it (pathspec's GitIgnoreSpec, whose
    translation to regular expressions this reuses, recompiled with a time limit)."""

    def __init__(self, origin: str, label: str, lines: Iterable[str], budget: Budget) -> None:
        super().__init__(origin, label, budget)
        for line in self._capped(_pattern_lines(lines)):
            try:
                parsed = GitIgnoreSpecPattern(line)
            except (GitIgnorePatternError, ValueError):
                self._refuse(line, "is not a pattern git can read")
                continue
            if parsed.include is None or parsed.regex is None:
                continue
            try:
                compiled = self._compile(parsed.regex.pattern)
            except _Refused as refused:
                self._refuse(line, str(refused))
                continue
            self.patterns.append(UserPattern(line, compiled, bool(parsed.include), in_precheck=True))
        self._live = list(self.patterns)  # the patterns not dropped, in file order
        self._drops = 0

    def excludes(self, path: str) -> bool:
        if self._drops != self.budget.drops:
            self._live = [p for p in self._live if not p.dropped]
            self._drops = self.budget.drops
        decided: UserPattern | None = None
        rank = 0
        for pattern in reversed(self._live):  # the last match decides; a match of the file itself is final
            if pattern.dropped or pattern.compiled is None:
                continue
            found = self._search(pattern, pattern.compiled, path)
            if found is None:
                continue
            this = 1 if found.groupdict().get(_DIR_MARK) else 2
            if this > rank:
                decided, rank = pattern, this
            if this == 2:
                break
        return decided is not None and decided.excludes

    def precheck_parts(self) -> list[tuple[str, str]]:
        """Where each pattern may match (after a folder, at the start, anywhere) and what it asks there:
        most begin ``^(?:.+/)?``, and one search of that prefix for all of them is three times faster."""
        parts = []
        for pattern in self._live:
            text = pattern.compiled.pattern if pattern.compiled is not None and not pattern.dropped else None
            if text is None:
                continue
            if text.startswith(_ANY_FOLDER):
                parts.append(("after a folder", f"(?:{text[len(_ANY_FOLDER):]})"))
            elif text.startswith("^"):
                parts.append(("at the start", f"(?:{text[1:]})"))
            else:
                parts.append(("anywhere", f"(?:{text})"))
        return parts


class UserRules(_Rules):
    """Obsidian's Excluded files, then .gitignore, then walker.toml's exclude, behind one precheck."""

    def __init__(self, obsidian: RegexFilters, gitignore: GlobRules | None, configured: GlobRules | None,
                 budget: Budget) -> None:
        super().__init__("", "all user patterns at once", budget)
        self.obsidian = obsidian
        self.globs = [rules for rules in (gitignore, configured) if rules is not None]
        self._precheck = UserPattern(self.label, None)
        self._combined: regex.Pattern[str] | None = None
        self._built_at = -1  # budget.drops when the precheck was compiled

    def reason(self, path: str) -> str | None:
        """Why the user's patterns keep ``path`` out of the corpus, or None."""
        self.budget.paths += 1
        found = self._precheck_finds(path)
        matched = self.obsidian.first_match(path, found)
        if matched:
            return f"{self.obsidian.label}: {matched.text}"
        if found:
            for rules in self.globs:
                if rules.excludes(path):
                    return rules.label
        return None

    def warnings(self) -> list[tuple[str, str]]:
        return [w for rules in (self.obsidian, *self.globs) for w in rules.warnings()]

    def _precheck_finds(self, path: str) -> bool:
        """False when no pattern in the precheck matches ``path``."""
        budget, precheck = self.budget, self._precheck
        if budget.over:
            return True
        if self._built_at != budget.drops:
            self._built_at = budget.drops
            if precheck.dropped and precheck.dropped.startswith("took"):
                precheck.dropped = None  # it may have been slow for a pattern dropped since
            parts = self.obsidian.precheck_parts() + [part for rules in self.globs for part in rules.precheck_parts()]
            try:
                self._combined = self._compile(_union(parts)) if parts else None
            except _Refused:
                precheck.dropped = "could not be compiled"
        if precheck.dropped:
            return True
        if self._combined is None:
            return False
        found = self._search(precheck, self._combined, path) is not None
        if precheck.dropped:  # out of time: the patterns one by one find the slow one; rebuilt once it is dropped
            self._built_at = budget.drops
            return True
        return found


_ANY_FOLDER = "^(?:.+/)?"  # how pathspec starts a pattern that may match below any folder


def _union(parts: list[tuple[str, str]]) -> str:
    """One regular expression that matches where any of ``parts`` does: ``^(?:.+/)?(?:a|b)`` finds the
    same paths as ``^(?:.+/)?a|^(?:.+/)?b``, in one pass over the folders instead of one per pattern."""
    by_place: dict[str, list[str]] = {"after a folder": [], "at the start": [], "anywhere": []}
    for place, text in parts:
        by_place[place].append(text)
    anchored = by_place["at the start"]
    if by_place["after a folder"]:
        anchored = ["(?:.+/)?(?:" + "|".join(by_place["after a folder"]) + ")", *anchored]
    return "|".join((["^(?:" + "|".join(anchored) + ")"] if anchored else []) + by_place["anywhere"])


def _combinable(text: str) -> bool:
    """Whether a user's regular expression means the same inside the precheck: it refers to no group by
    number or name (the numbers shift there) and sets no flag (a flag there would reach the others)."""
    if re.search(r"\\[1-9gk]", text):
        return False
    start = text.find("(?")
    while start >= 0:
        if not text.startswith((":", "=", "!", "<=", "<!", "P<"), start + 2):
            return False
        start = text.find("(?", start + 2)
    return True


def _pattern_lines(lines: Iterable[str]) -> Iterable[str]:
    """The lines that hold a pattern: not blank, not a comment."""
    for line in lines:
        if line.strip() and not line.startswith("#"):
            yield line


def repeat_weight(pattern: str) -> int:
    """The largest product of counted repeats nested in ``pattern`` (``((a{10}){10}){10}`` weighs 1000):
    what the ``regex`` module's compile time and memory grow with. Escapes and character classes are
    skipped; a brace that is not a repeat counts as a literal."""
    stack = [1]  # the heaviest item so far in each open group
    last = 1  # the weight of the item a repeat would apply to
    i, size = 0, len(pattern)
    while i < size:
        char = pattern[i]
        if char == "\\":
            i, last = i + 2, 1
            continue
        if char == "[":
            i, last = _class_end(pattern, i), 1
            continue
        if char == "(":
            stack.append(1)
            i, last = i + 1, 1
            continue
        if char == ")" and len(stack) > 1:
            last = stack.pop()
            stack[-1] = max(stack[-1], last)
            i += 1
            continue
        counted = _COUNTED.match(pattern, i) if char == "{" else None
        if counted and any(counted.groups()):
            last *= max(int(group[:12]) for group in counted.groups() if group) or 1
            stack[-1] = max(stack[-1], last)
            i = counted.end()
            continue
        i, last = i + 1, 1
        stack[-1] = max(stack[-1], last)
    return max(stack)


def _class_end(pattern: str, start: int) -> int:
    """The index just past the character class opening at ``start``."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1
