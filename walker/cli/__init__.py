"""The command line. ``main`` is the ``walker`` command; each module below adds one group of commands."""

from walker.cli import agents, conformance, reviewing, services, vault, walking  # noqa: F401  (each registers its commands)
from walker.cli.app import EXPORT_FORMATS, main

__all__ = ["EXPORT_FORMATS", "main"]
