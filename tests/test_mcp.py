"""The MCP server over stdio, driven by the SDK's own client."""

import asyncio
import json
import os
import shutil
import sys

import pytest
from conftest import SAMPLE_VAULT, copy_vault_files, surface_record

from walker.pool.store import PoolStore
from walker.walk.candidate import Candidate, noteworthy_record
from walker.workspace import Workspace

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

WALKER = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")


@pytest.fixture
def vault(tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    Workspace.open(vault).build_index()
    store = PoolStore(vault)
    store.write_record("active", surface_record(
        "hyp-2026-11-30-001",
        "A sourdough starter fed faster than it can ferment and a queue fed faster than its consumer fail the same way.",
        applies=["Someone wonders how fast to feed a sourdough starter, or why it collapses after feeding."]))
    store.write_record("noteworthy", noteworthy_record(
        Candidate(claim="Sourdough starter feeding may rule every queue.", supporting_refs=("Kitchen/Sourdough Starter.md",),
                  confidence="low", impact="add", impact_reason="", applies_when=(), never_applies_when=(), disconfirm_if=()),
        id="hyp-2026-11-30-noteworthy-001", created="2026-11-30", seed="s", walk_id="w", engine="e",
        rejection_reason="single-source", flagged_value_reason="x"))
    return vault


def session(vault, body):
    async def main():
        params = StdioServerParameters(command=WALKER, args=["mcp", str(vault)], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                return await body(client)

    return asyncio.run(main())


def payload(result):
    return json.loads(result.content[0].text)


def test_tools_resources_and_prompt(vault):
    async def body(client):
        tools = {t.name for t in (await client.list_tools()).tools}
        pulled = payload(await client.call_tool("walk_surface", {"query": "sourdough starter feeding", "mode": "pull"}))
        auto_silent = payload(await client.call_tool("walk_surface", {"query": "fix the failing deploy", "mode": "auto"}))
        shown = payload(await client.call_tool("walk_show", {"id": "hyp-2026-11-30-001"}))
        resource = await client.read_resource("walker://hypothesis/hyp-2026-11-30-001")
        prompts = {p.name for p in (await client.list_prompts()).prompts}
        prompt = await client.get_prompt("walk note", {"topic": "sourdough starter feeding"})
        feedback = payload(await client.call_tool("walk_feedback", {"id": "hyp-2026-11-30-001", "outcome": "engaged"}))
        return tools, pulled, auto_silent, shown, resource, prompts, prompt, feedback

    tools, pulled, auto_silent, shown, resource, prompts, prompt, feedback = session(vault, body)
    assert {"walk_surface", "walk_feedback", "walk_show"} <= tools
    assert [e["id"] for e in pulled["surfaced"]] == ["hyp-2026-11-30-001"]  # noteworthy never offered
    assert auto_silent["surfaced"] == [] and auto_silent["silent_reason"]
    assert shown["id"] == "hyp-2026-11-30-001"
    assert json.loads(resource.contents[0].text)["claim"].startswith("A sourdough starter")
    assert "walk note" in prompts and "hyp-2026-11-30-001" in prompt.messages[0].content.text
    assert feedback["events"] == ["surface-engaged: [[hyp-2026-11-30-001]]"]


def test_nothing_outside_active_leaves_the_vault(vault):
    """A noteworthy entry (or any record not active) is refused by id, in a tool and as a resource."""
    store = PoolStore(vault)
    store.write_record("rejected", surface_record("hyp-2026-11-29-001", "A rejected claim about starters.",
                                               applies=["x"]) | {"status": "rejected", "rejection_evidence": "e"})

    async def body(client):
        shown = [payload(await client.call_tool("walk_show", {"id": i}))
                 for i in ("hyp-2026-11-30-noteworthy-001", "hyp-2026-11-29-001", "hyp-2099-01-01-001")]
        resource = await client.read_resource("walker://hypothesis/hyp-2026-11-30-noteworthy-001")
        return shown, resource.contents[0].text

    shown, resource = session(vault, body)
    assert "critic rejected" in shown[0]["refused"] and "claim" not in shown[0]
    assert "rejected by the reviewer" in shown[1]["refused"] and "claim" not in shown[1]
    assert "no such hypothesis" in shown[2]["refused"]
    assert "rule every queue" not in resource and "refused" in json.loads(resource)
