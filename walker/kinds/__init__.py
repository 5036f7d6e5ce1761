"""The kinds of hypothesis a walk proposes, one module each in this package, found here: ``KINDS``.

A kind's module defines ``KIND``, a ``walker.kinds.base.Kind``: its names, what a record of it says in each
language, what confirming it gives the user, and its two tests (whether a pair has its shape, and whether the
observation its ``disconfirm_if`` names holds). Adding a kind is one new module here, and its tests; nothing
else names a kind. The kind only says what shape a pair has; whether it is worth a reader's time is the
score's decision (``walker.walk.scorer``). Titles never decide a kind: "Perfect pitch" and "Sales pitch"
share a word, not a concept.
"""

from __future__ import annotations

import importlib
import pkgutil

from walker.kinds.base import Kind


class UnknownKind(ValueError):
    """A kind no module of this package defines: a bug in the code that asked, never a user's input."""


def _found() -> dict[str, Kind]:
    kinds = [importlib.import_module(f"{__name__}.{module.name}").KIND
             for module in pkgutil.iter_modules(__path__) if module.name != "base"]
    return {kind.name: kind for kind in sorted(kinds, key=lambda kind: (kind.rank, kind.name))}


KINDS: dict[str, Kind] = _found()  # by name, in the order they are tried


def named(name: str) -> Kind:
    """The kind a record's ``kind`` names; an unknown one is an error."""
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKind(f"unknown kind {name!r}; the kinds are {', '.join(KINDS)}") from None
