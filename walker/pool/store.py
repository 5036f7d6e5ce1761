"""The only writer under ``walks/``: ids, atomic writes and moves, the pool lock, log.md.

Every write goes to a temporary file in the same folder and is renamed into
place, so a crash never leaves half a record. A walk commits as a whole: its
files are written into a staging folder, marked ready, then moved into place;
the next command that takes the lock finishes a ready commit or removes an
unfinished one. Pool changes hold an exclusive lock on ``walks/.lock`` (a
dot-file: Obsidian never shows it). Records are rewritten with ruamel.yaml's
round-trip mode, so a reviewer's edits, key order and comments in the
frontmatter survive, and so does everything under ``## Reviewer notes``.

Nothing here writes through a symlink: ``walks/`` and its folders must be real
folders, new files are created with ``O_EXCL`` and renamed over the old name
(which replaces a planted link rather than following it), appends open with
``O_NOFOLLOW`` and refuse anything but a plain file with one name, and the lock
file is opened read-only, so even a file walker did not create is never changed.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from walker.errors import WalkerError
from walker.pool.recordfile import (
    StoredRecord,
    compose,
    dump_yaml,
    load_yaml,
    parse_record,
    read_plain_file,
    read_record,
    reviewer_part,
    round_trip_yaml,
    split_front,
)
from walker.pool.records import (
    FOLDER_OF_STATUS,
    HYPOTHESIS_ID,
    NOTEWORTHY_ID,
    RecordError,
    UnreadableRecord,
    conform,
    render_body,
    validate,
)
from walker.safefile import REPORT_LIMIT, file_mode, read_tail
from walker.safewrite import write_all, write_atomic
from walker.safeyaml import refuse_aliases

POOL = "walks"
RECORD_FOLDERS = ("active", "discharged", "rejected", "archived", "noteworthy")
FOLDERS = (*RECORD_FOLDERS, "reports", "runs")
WALK_ID = re.compile(r"(\d{4}-\d{2}-\d{2})-(\d{3,})")

README = """\
# walks

This folder is walker's. It holds what the weekly walks found; your own notes are never touched.

- `reports/`: one report per walk, newest last. Start here.
- `active/`: hypotheses still in play. Open one and edit its properties to review it.
- `noteworthy/`: candidates the critic rejected but flagged as worth a human look. Set
  `human_review_outcome` to `rewrite`, `archive` or `leave`.
- `discharged/`, `rejected/`, `archived/`: retired hypotheses, kept for the record.
- `runs/`: the full trace of each walk (seed, neighbours, inventory, roam, critique), for audit.
- `log.md`: every walk event, in order.

Write your own thoughts under a record's `## Reviewer notes` heading: walker never rewrites them.
Confirmed hypotheses become new notes in your inbox folder through `walker discharge`.
"""

LOG_HEADER = "# Walk log\n\nEvery walk event, oldest first. walker appends; it never rewrites this file.\n"


STAGING_PREFIX = ".staging-"
PENDING_PREFIX = ".discharge-"  # walks/.discharge-<record id>: the conclusion note a discharge is writing
READY = "READY"  # in a staging folder: every file is written; the commit may be finished
LOG_BLOCK = "log-block.md"  # in a staging folder: the walk's entry for log.md
APPENDED = ("log.md", "surface.jsonl")  # the files walker appends to rather than replaces
LOCK_WAIT = 10.0  # seconds a command waits for another walker command to finish


class PoolBusy(WalkerError):
    """Another walker command holds the pool lock, and did not let go in time."""


class UnsafePool(WalkerError):
    """walks/ or a file in it is not what walker made (a symlink, a hard link, not a folder)."""


class RecordNotFound(WalkerError):
    """No pool record has that id."""


class PoolWriteError(WalkerError):
    """A write under walks/ failed (disk full, permissions); what was half-written is gone."""

    def __init__(self, message: str, cause: OSError) -> None:
        super().__init__(message)
        self.exit_code = 1 if cause.errno == errno.ENOSPC else 2  # a full disk exits 1, as everywhere


def _step(name: str) -> None:
    """Called between the file operations of a walk commit. A test seam: tests make it raise
    to stand for a kill at that point. Does nothing otherwise."""


class PoolStore:
    def __init__(self, vault: Path | str) -> None:
        self.vault = Path(vault)
        self.root = self.vault / POOL
        self.recovered: list[str] = []  # what taking the lock last finished or removed
        # Files under walks/ that reading passed over (a special file, a broken record), by path: `walker
        # check` names each problem; other commands warn once and go on with what they could read.
        self.skipped: dict[Path, UnreadableRecord] = {}

    # --- layout ---------------------------------------------------------------

    def ensure(self) -> list[Path]:
        """Create the pool folders, README and log if missing. Returns what it created; never overwrites."""
        created = []
        if self._make_folder(self.root):
            created.append(self.root)
        for folder in FOLDERS:
            path = self.root / folder
            if self._make_folder(path):
                created.append(path)
        for name, text in (("README.md", README), ("log.md", LOG_HEADER)):
            path = self.root / name
            if not os.path.lexists(path):
                write_atomic(path, text)
                created.append(path)
        return created

    def _make_folder(self, path: Path) -> bool:
        """Create ``path`` (walks/ or a folder in it) unless it exists; refuse anything but a real folder."""
        try:
            os.mkdir(path)
            return True
        except FileExistsError:
            pass
        except FileNotFoundError:
            raise UnsafePool(f"{self.vault}: no such vault folder") from None
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode):
            what = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a folder"
            raise UnsafePool(f"{path} is {what}; walker writes only into real folders inside the vault. "
                             f"Move it away and run the command again.")
        return False

    def check_folders(self) -> None:
        """Refuse to write when walks/ or one of its folders is a symlink or not a folder, or a file walker
        appends to is a symlink or has a second name (a hard link to a note)."""
        for path in (self.root, *(self.root / f for f in FOLDERS)):
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            if not stat.S_ISDIR(info.st_mode):
                what = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a folder"
                raise UnsafePool(f"{path} is {what}; walker writes only into real folders inside the vault. "
                                 f"Move it away and run the command again.")
        for name in APPENDED:
            try:
                info = os.lstat(self.root / name)
            except FileNotFoundError:
                continue
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
                raise UnsafePool(f"{self.root / name} is not a plain file of walker's own (a symlink or a hard "
                                 "link); walker will not write to it. Move it away and run the command again.")

    @contextmanager
    def lock(self, name: str = ".lock", busy: WalkerError | None = None, wait: float | None = None) -> Iterator[None]:
        """Hold an exclusive lock on ``walks/<name>``, waiting up to ``wait`` seconds for another walker
        command to finish, then raise ``busy``. Taking the pool lock finishes or removes an
        interrupted walk commit first."""
        self._make_folder(self.root)
        self.check_folders()
        try:  # read-only and never truncated: a lock file that is not walker's is never changed
            descriptor = os.open(self.root / name, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                                 | os.O_CLOEXEC, file_mode())
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnsafePool(f"{self.root / name} is a symlink; delete it and run the command again") from None
            raise
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO there would have every command wait
            os.close(descriptor)
            raise UnsafePool(f"{self.root / name} is not a plain file; delete it and run the command again")
        try:
            deadline = time.monotonic() + (lock_wait() if wait is None else wait)
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise busy or PoolBusy(f"another walker command is running on {self.vault}; "
                                               "try again when it has finished") from None
                    time.sleep(0.05)
            if name == ".lock":
                self.recovered = self.recover()
            yield
        finally:
            os.close(descriptor)  # closing releases the lock

    # --- ids ------------------------------------------------------------------

    def next_hypothesis_id(self, day: str, taken: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        return f"hyp-{day}-{self._next_number(HYPOTHESIS_ID, day, taken):03d}"

    def next_noteworthy_id(self, day: str, taken: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        return f"hyp-{day}-noteworthy-{self._next_number(NOTEWORTHY_ID, day, taken):03d}"

    def next_walk_id(self, day: str) -> str:
        numbers = [0]
        names = [p.stem for folder in ("reports", "runs") for p in (self.root / folder).glob(f"{day}-*")]
        names += [p.name.removeprefix(STAGING_PREFIX) for p in self.root.glob(f"{STAGING_PREFIX}{day}-*")]
        for name in names:
            match = WALK_ID.fullmatch(name)
            if match and match.group(1) == day:
                numbers.append(int(match.group(2)))
        return f"{day}-{max(numbers) + 1:03d}"

    def _next_number(self, pattern: re.Pattern[str], day: str, taken: set[str]) -> int:
        numbers = [0]
        names = [p.stem for folder in RECORD_FOLDERS for p in (self.root / folder).glob("hyp-*.md")] + list(taken)
        for name in names:
            match = pattern.fullmatch(name)
            if match and match.group(1) == day:
                numbers.append(int(match.group(2)))
        return max(numbers) + 1

    # --- records --------------------------------------------------------------

    def records(self, *folders: str) -> list[StoredRecord]:
        """Records in the given folders (all when none), sorted by id. A file that cannot be used as a
        record (a special file, a broken property) is left out and kept in ``skipped``."""
        found = []
        for folder in folders or RECORD_FOLDERS:
            for path in sorted((self.root / folder).glob("hyp-*.md")):
                try:
                    found.append(read_record(path, folder))
                    self.skipped.pop(path, None)
                except UnreadableRecord as exc:
                    self.skipped[path] = exc
        return found

    def find(self, record_id: str) -> StoredRecord:
        """The one record with this id (or file name), as every command that names a record looks it up."""
        matches = [r for r in self.records() if r.id == record_id or r.path.stem == record_id]
        if not matches and (broken := self.skipped_record(record_id)):
            raise RecordError(f"{broken}: walker cannot use this record until that is mended in Obsidian "
                              "(`walker check` lists every such problem)")
        if not matches:
            raise RecordNotFound(f"no record {record_id!r} under {self.root}; `walker pool list` shows the ids")
        if len(matches) > 1:
            raise RecordError(f"{record_id} is in {len(matches)} folders; run `walker check --repair` first")
        return matches[0]

    def skipped_record(self, record_id: str) -> UnreadableRecord | None:
        """Why the record ``record_id`` was left out by the last reading, if it was."""
        return next((exc for path, exc in self.skipped.items() if path.stem == record_id), None)

    def record_text(self, folder: str, record: Mapping[str, Any]) -> str:
        """A new record as the Markdown file walker writes, after checking its schema and folder."""
        problems = validate(record)
        if problems:
            raise RecordError(f"{record.get('id')}: {'; '.join(problems)}")
        if FOLDER_OF_STATUS.get(str(record["status"])) != folder:
            raise RecordError(f"{record['id']}: status {record['status']} does not belong in {folder}/")
        return compose(record, render_body(record), "")

    def write_record(self, folder: str, record: Mapping[str, Any]) -> Path:
        text = self.record_text(folder, record)
        self.ensure()
        path = self.root / folder / f"{record['id']}.md"
        write_atomic(path, text)
        return path

    def update_record(self, stored: StoredRecord, changes: Mapping[str, Any], folder: str | None = None) -> Path:
        """Change fields in place (round-trip YAML) and move the file when its folder changes.

        The new file is written before the old one is removed: a crash in between leaves the
        record in two folders, which `walker check` names and `--repair` mends; never in none.
        """
        self.check_folders()
        text = read_plain_file(stored.path)
        shown = stored.path.relative_to(self.vault).as_posix()
        parse_record(text, shown)  # a hand edit since it was read must not break the rewrite
        raw_front, _, _ = split_front(text)
        refuse_aliases(raw_front or "")
        yaml_rt = round_trip_yaml()
        data = yaml_rt.load(raw_front) or {}
        for key, value in changes.items():
            if value is None:
                data.pop(key, None)  # a field that no longer applies goes away, not to null
            else:
                data[key] = value
        target_folder = folder or stored.folder
        front = dump_yaml(yaml_rt, data)
        plain, problems = conform(load_yaml(front) or {})
        if problems:
            raise UnreadableRecord(shown, problems, kind="schema")
        if FOLDER_OF_STATUS.get(str(plain.get("status"))) != target_folder:
            raise RecordError(f"{plain.get('id')}: status {plain.get('status')} does not belong in {target_folder}/")
        reviewer = reviewer_part(text)
        self.ensure()
        target = self.root / target_folder / stored.path.name
        write_atomic(target, "---\n" + front + "---\n" + render_body(plain) + "\n" + reviewer)
        if target != stored.path:
            stored.path.unlink()
        return target

    # --- discharges ------------------------------------------------------------

    def mark_pending(self, record_id: str, note_id: str, note_digest: str) -> None:
        """Before a discharge writes its conclusion note: which note, and a digest of its text. Only a note
        that matches finishes an interrupted discharge; one planted in the inbox never does."""
        write_atomic(self.root / f"{PENDING_PREFIX}{record_id}", f"{note_id} {note_digest}\n")

    def pending(self, record_id: str) -> tuple[str, str] | None:
        """(note id, digest) of the discharge of ``record_id`` under way, if one is."""
        try:
            note_id, _, note_digest = read_plain_file(self.root / f"{PENDING_PREFIX}{record_id}", 1024).strip().partition(" ")
        except (OSError, UnicodeDecodeError):
            return None
        return note_id, note_digest

    def clear_pending(self, record_id: str) -> None:
        self.discard(self.root / f"{PENDING_PREFIX}{record_id}")

    def pending_ids(self) -> list[str]:
        return sorted(p.name.removeprefix(PENDING_PREFIX) for p in self.root.glob(PENDING_PREFIX + "*"))

    # --- walks ----------------------------------------------------------------

    def commit_walk(self, walk_id: str, files: Mapping[str, str], log_heading: str, events: list[str]) -> list[Path]:
        """Write a walk's files (``folder/name`` -> text) and its log entry as one commit: all or nothing.

        Everything is written into ``walks/.staging-<walk id>/`` first; a disk that fills up then
        leaves the pool as it was. Once all of it is on disk the folder is marked ready, and from
        then on the commit is finished, here or by the next command that takes the lock.
        """
        self.ensure()
        self.check_folders()
        staging = self.root / f"{STAGING_PREFIX}{walk_id}"
        try:
            self._make_folder(staging)
            for folder in {name.split("/", 1)[0] for name in files}:
                self._make_folder(staging / folder)
            for name, text in files.items():
                write_atomic(staging / name, text)
                _step(f"staged {name}")
            write_atomic(staging / LOG_BLOCK, _log_block(log_heading, events))
            _step("staged the log entry")
            write_atomic(staging / READY, walk_id + "\n")
            _step("marked ready")
        except OSError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise PoolWriteError(f"could not write walk {walk_id} under {self.root} ({_os_reason(exc)}); "
                                 "nothing was kept and the pool is as it was", exc) from None
        try:
            return self._finish_commit(staging)
        except OSError as exc:
            raise PoolWriteError(f"walk {walk_id} is written but could not be moved into place ({_os_reason(exc)}); "
                                 "the next walker command finishes it", exc) from None

    def _finish_commit(self, staging: Path) -> list[Path]:
        """Move a ready commit's files into place and append its log entry; safe to repeat."""
        moved = []
        for folder in sorted(p for p in staging.iterdir() if p.is_dir() and not p.is_symlink()):
            self._make_folder(self.root / folder.name)
            for source in sorted(folder.iterdir()):
                if source.name.startswith("."):
                    continue
                target = self.root / folder.name / source.name
                if not os.path.lexists(target):
                    os.replace(source, target)
                    _step(f"moved {folder.name}/{source.name}")
                moved.append(target)
        block = staging / LOG_BLOCK
        if block.is_file():
            text = read_plain_file(block)
            heading = text.strip().splitlines()[0] if text.strip() else ""
            if not heading or heading not in self._log_text():
                self.append("log.md", text, header=LOG_HEADER)
                _step("appended the log entry")
        shutil.rmtree(staging)
        return moved

    def recover(self) -> list[str]:
        """Finish ready walk commits and remove unfinished ones. Returns what it did, for the log."""
        done = []
        for staging in sorted(self.root.glob(STAGING_PREFIX + "*")):
            walk_id = staging.name.removeprefix(STAGING_PREFIX)
            if staging.is_symlink() or not staging.is_dir():
                continue
            if (staging / READY).is_file():
                self._finish_commit(staging)
                done.append(f"recover: finished the interrupted commit of walk {walk_id}")
            else:
                shutil.rmtree(staging)
                done.append(f"recover: removed the unfinished walk {walk_id} (it had not been committed)")
        if done:
            self.log(time.strftime("%Y-%m-%d %H:%M"), done)
        return done

    def staged(self) -> list[tuple[str, bool]]:
        """Interrupted walk commits: (walk id, ready to finish)."""
        return [(p.name.removeprefix(STAGING_PREFIX), (p / READY).is_file())
                for p in sorted(self.root.glob(STAGING_PREFIX + "*")) if p.is_dir() and not p.is_symlink()]

    def runs(self) -> list[dict[str, Any]]:
        """Past walk_run_records, oldest first. A file that is no run record is left out and kept in
        ``skipped``."""
        out = []
        for path in sorted((self.root / "runs").glob("*.yaml")):
            try:
                data = load_yaml(read_plain_file(path))
            except OSError as exc:
                self.skipped[path] = UnreadableRecord(f"{POOL}/runs/{path.name}", [exc.strerror or str(exc)])
                continue
            except (UnicodeDecodeError, yaml.YAMLError, RecursionError):
                self.skipped[path] = UnreadableRecord(f"{POOL}/runs/{path.name}", ["not a YAML run record"])
                continue
            if isinstance(data, dict):
                out.append(data)
        return out

    def discard(self, path: Path) -> None:
        """Delete a file walker left under ``walks/``: a write that did not finish, or the extra copy of a
        record a move left behind. Refuses anything outside ``walks/`` and anything that is not a plain file
        of walker's own (a symlink, a folder, a file with a second name elsewhere)."""
        inside = Path(os.path.abspath(path))
        if not inside.is_relative_to(Path(os.path.abspath(self.root))):
            raise UnsafePool(f"{path} is outside {self.root}; walker deletes only what it wrote under walks/")
        try:
            info = os.lstat(inside)
        except FileNotFoundError:
            return
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            raise UnsafePool(f"{path} is not a plain file of walker's own; walker will not delete it")
        inside.unlink()

    def log(self, heading: str, events: list[str]) -> None:
        """Append a block of events to log.md (append-only)."""
        self.append("log.md", _log_block(heading, events), header=LOG_HEADER)

    def append(self, name: str, text: str, header: str = "") -> None:
        """Append to ``walks/<name>``, a plain file walker created (``header`` starts a new one).

        Never through a symlink, and never into a file with a second name (a hard link to a note)."""
        self._make_folder(self.root)
        path = self.root / name
        if not os.path.lexists(path):
            write_atomic(path, header)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnsafePool(f"{path} is a symlink; walker will not write through it. Delete it and run "
                                 "the command again.") from None
            raise
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
                raise UnsafePool(f"{path} is not a plain file of walker's own (it is linked from elsewhere); "
                                 "walker will not write to it. Move it away and run the command again.")
            try:
                write_all(descriptor, text.encode("utf-8"))
                os.fsync(descriptor)
            except BaseException:
                os.ftruncate(descriptor, info.st_size)  # a full disk leaves no half entry
                raise
        finally:
            os.close(descriptor)

    def _log_text(self) -> str:
        """The end of log.md, where a commit being finished would have logged itself."""
        try:
            return read_tail(self.root / "log.md", REPORT_LIMIT, follow=False).decode("utf-8", errors="replace")
        except OSError:
            return ""


def _log_block(heading: str, events: list[str]) -> str:
    """One entry of log.md; each event on one line, so a reason or evidence with line breaks in it cannot
    start a line that looks like another event."""
    return f"\n## {heading}\n\n" + "".join("- " + " ".join(e.splitlines()) + "\n" for e in events)


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    return exc.strerror or str(exc)


def lock_wait() -> float:
    """How long a command waits for another walker command: $WALKER_LOCK_WAIT seconds, else 10."""
    try:
        value = float(os.environ.get("WALKER_LOCK_WAIT", LOCK_WAIT))
    except ValueError:
        return LOCK_WAIT
    return value if 0 <= value <= 3600 else LOCK_WAIT
