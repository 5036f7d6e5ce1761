"""Exceptions that reach the user. The CLI maps them to messages and exit codes.

WalkerError            base; exit code 2 (usage or input error)
 ├── VaultNotFound     the vault folder does not exist or is not a folder
 └── ConfigError       walker.toml or a WALKER_* variable holds a bad value
"""


class WalkerError(Exception):
    """A problem with what the user asked for; the message says what to do."""

    exit_code = 2


class VaultNotFound(WalkerError):
    """The vault folder does not exist or is not a folder."""


class ConfigError(WalkerError):
    """walker.toml or a WALKER_* variable holds a bad value."""
