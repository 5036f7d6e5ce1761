"""walker: the Auto-Walk protocol over an Obsidian vault.

The library's API is what this module names in ``__all__``; everything else is internal and may change. Each
name is imported when first used, so ``import walker`` (and every command, hooks included) stays fast.

    from walker import Workspace, WalkOptions, run_walk
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_API = {
    "Workspace": "walker.workspace",  # an opened vault: its notes, links, index and settings
    "WalkOptions": "walker.walk.runner",  # what one walk is asked to do
    "run_walk": "walker.walk.runner",  # one walk: inventory, roam, critique, committed whole (or dry)
    "run_cadence": "walker.cadence",  # a scheduled run (`walker run`): reviews applied, walks, the pool aged
    "PoolStore": "walker.pool.store",  # the records under walks/, read and written safely
    "surface": "walker.surface",  # which hypothesis, if any, belongs beside a conversation turn
    "build_site": "walker.site.build",  # the review site, built into a folder
}
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'walker' has no attribute {name!r}")
