"""Engines that write a walk's candidates, by name. Light: the command line imports the names; an
engine's module is imported only when a walk asks for it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from walker.errors import WalkerError

if TYPE_CHECKING:
    from walker.walk.engines.base import Engine

ENGINES = ("extractive", "llm")


def get_engine(name: str, extra: dict[str, Any] | None = None) -> Engine:
    """Built-in engines by name, configured from walker.toml; each goes through this same surface."""
    if name == "extractive":
        from walker.walk.engines.extractive import ExtractiveEngine

        return ExtractiveEngine()
    if name == "llm":
        try:
            import httpx  # noqa: F401  (an optional extra)
            import pydantic  # noqa: F401

            from walker.walk.engines.llm import LLMEngine
        except ImportError:
            raise WalkerError("the llm engine needs its extra: pip install 'walker[llm]'") from None
        return LLMEngine.from_extra(extra or {})
    raise WalkerError(f"unknown engine {name!r}; available: {', '.join(ENGINES)}")
