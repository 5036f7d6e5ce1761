"""Exceptions that reach the user. The CLI maps them to messages and exit codes.

Every failure a user can cause is a ``WalkerError``: the CLI prints ``Error: <message>`` on one line
and exits with its ``exit_code`` (2: usage, input or a busy pool; 4: a service walker depends on, the model
endpoint, failed). A full disk exits 1 after removing what it had started. Findings (``walker check``,
``walker review`` with edits it could not apply) exit 1. Anything else is a bug: the CLI writes the
traceback to a crash log in the cache folder, prints one line naming it, and exits 3.

WalkerError                base; exit code 2
 ├── VaultNotFound         the vault folder does not exist or is not a folder
 ├── ConfigError           walker.toml or a WALKER_* variable holds a bad value
 ├── NoteNotFound          (workspace) no note by that name
 ├── RecordNotFound        (pool.store) no pool record by that id
 ├── RecordError           (pool.records) a record's properties do not match its schema
 │    └── UnreadableRecord (pool.records) a record file walker cannot read: not a regular file, not YAML,
 │                         or a property of the wrong shape (a finding for `check`, skipped elsewhere)
 ├── PoolBusy              (pool.store) another walker command holds the pool lock
 ├── UnsafePool            (pool.store) walks/ or a file in it is not what walker made
 ├── PoolWriteError        (pool.store) a write under walks/ failed; what was half-written is gone
 ├── LifecycleError        (pool.lifecycle) the lifecycle step does not apply to this record
 ├── InboxError            (inbox) the inbox folder cannot take a new note
 ├── NoSeed                (walk.runner) nothing can seed a walk
 ├── WanderError           (wander) the neighbourhood cannot be built
 ├── EngineError           (walk.engines.llm) the model endpoint failed or answered nonsense; exit code 4
 ├── BadCandidates         (walk.audit) a candidates file is not a list of records
 ├── RunBusy               (cadence) this period's run is already under way
 ├── ScheduleError         (schedule) the timer cannot be installed or removed
 ├── HookError             (hooks) a client's settings file cannot take the hooks
 └── SiteError             (site.build) the site cannot be built; UnsafeSiteFolder under it
"""


class WalkerError(Exception):
    """A problem with what the user asked for; the message says what to do."""

    exit_code = 2


class VaultNotFound(WalkerError):
    """The vault folder does not exist or is not a folder."""


class ConfigError(WalkerError):
    """walker.toml or a WALKER_* variable holds a bad value."""
