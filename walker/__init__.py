"""walker: the Auto-Walk protocol over an Obsidian vault."""

__version__ = "0.1.0"
