"""`walker mcp`: the pool as an MCP server over stdio (C mode for any MCP client).

Tools: ``walk_surface(query, mode)``, ``walk_feedback(id, outcome)``, ``walk_show(id)``; a resource
per active hypothesis (``walker://hypothesis/{id}``); a prompt, "walk note". Needs the optional
``mcp`` extra. Surfacing here is the same code as the CLI's and the hooks': silent by default,
and noteworthy entries are never offered.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from walker.pool.inspect import show_record
from walker.surface import feedback, log_surfaced, side_note, surface


def build_server(vault: Path) -> Any:
    from mcp.server.fastmcp import FastMCP

    server = FastMCP("walker", instructions=(
        "Hypotheses from the user's weekly walks over their notes: weak, checkable connections, never "
        "conclusions. Offer one only as an optional side note, after the main answer."))

    @server.tool()
    def walk_surface(query: str, mode: str = "pull") -> dict[str, Any]:
        """Hypotheses that fit this turn. mode "pull" lists every eligible one (a few at most);
        "auto" returns at most one, and usually none."""
        result = surface(vault, query, mode if mode in ("auto", "pull") else "pull")
        log_surfaced(vault, result, datetime.now(timezone.utc), "mcp")
        return result.as_dict() | {"notes": [side_note(e) for e in result.surfaced]}

    @server.tool()
    def walk_feedback(id: str, outcome: str) -> dict[str, Any]:
        """What became of a surfaced hypothesis: engaged, ignored or rejected."""
        done = feedback(vault, id, outcome, datetime.now(timezone.utc), turn_id="mcp")
        return {"events": done.events}

    @server.tool()
    def walk_show(id: str) -> dict[str, Any]:
        """One hypothesis in full: claim, refs, when it applies, how it could be shown wrong."""
        return show_record(vault, id)

    @server.resource("walker://hypothesis/{id}", mime_type="application/json")
    def hypothesis(id: str) -> str:
        """An active hypothesis as JSON."""
        return json.dumps(show_record(vault, id), ensure_ascii=False, default=str)

    @server.prompt(name="walk note", description="Ask for another angle from the user's walks on the current topic.")
    def walk_note(topic: str) -> str:
        result = surface(vault, f"walk note: {topic}", "pull")
        notes = "\n\n".join(side_note(e) for e in result.surfaced) or "(no hypothesis fits this topic)"
        return (f"The user asked for another angle on: {topic}\n\nHypotheses from their walks (candidates, not "
                f"facts; say which, if any, is worth checking, and how):\n\n{notes}")

    return server


def serve(vault: Path) -> None:
    build_server(vault).run("stdio")
