"""The hook contract: real-shaped stdin JSON in, the client's context JSON (or nothing) out."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import SAMPLE_VAULT, SURFACE_TURNS, copy_vault_files, surface_record

from walker.pool.store import PoolStore
from walker.workspace import Workspace

WALKER = shutil.which("walker") or os.path.join(os.path.dirname(sys.executable), "walker")


@pytest.fixture
def vault(tmp_path, monkeypatch):
    monkeypatch.delenv("WALKER_SURFACE", raising=False)
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    Workspace.open(vault).build_index()
    PoolStore(vault).write_record("active", surface_record(
        "hyp-2026-11-30-001",
        "A sourdough starter fed faster than it can ferment and a queue fed faster than its consumer fail the same way.",
        applies=["Someone wonders how fast to feed a sourdough starter, or why it collapses after feeding."],
        never=["Debugging a production outage, a failing deploy or a stack trace."]))
    return vault


def hook(client, vault, payload, *args):
    done = subprocess.run([WALKER, "hook", client, str(vault), *args], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=60, env=os.environ)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def prompt_payload(prompt, event="UserPromptSubmit", **extra):
    return {"session_id": "s1", "transcript_path": "/nonexistent.jsonl", "cwd": "/tmp", "hook_event_name": event,
            "prompt": prompt, **extra}


@pytest.mark.parametrize("client, event", [("claude-code", "UserPromptSubmit"), ("codex", "UserPromptSubmit"),
                                           ("gemini", "BeforeAgent")])
def test_an_exploratory_prompt_gets_an_optional_note(vault, client, event):
    answer = hook(client, vault, prompt_payload(SURFACE_TURNS[0][0], event))
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == event
    assert "NOT part of the task" in output["additionalContext"]
    assert "Walk note (hyp-2026-11-30-001, confidence low)" in output["additionalContext"]


def test_silent_turns_print_nothing(vault):
    assert hook("claude-code", vault, prompt_payload('Traceback (most recent call last):\n  File "a.py", line 1')) is None
    assert hook("claude-code", vault, prompt_payload("What is the capital of France?")) is None
    assert hook("claude-code", vault, prompt_payload("<command-name>/clear</command-name>")) is None
    assert hook("claude-code", vault, {"prompt": SURFACE_TURNS[0][0], "is_subagent": True}) is None


def test_garbage_on_stdin_never_blocks_the_prompt(vault):
    done = subprocess.run([WALKER, "hook", "claude-code", str(vault)], input="not json", capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and "walker hook" in done.stderr


def test_stop_infers_engaged_and_ignored(vault, tmp_path):
    hook("claude-code", vault, prompt_payload(SURFACE_TURNS[0][0]))
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "text", "text": "Answer… Walk note (hyp-2026-11-30-001): worth a look."}]}}) + "\n")
    hook("claude-code", vault, {"session_id": "s1", "transcript_path": str(transcript), "hook_event_name": "Stop"},
         "--event", "stop")
    (record,) = PoolStore(vault).records("active")
    assert record.data["ignored_in_a_row"] == 0 and "last_engaged" in record.data
    for _ in range(3):
        hook("gemini", vault, prompt_payload(SURFACE_TURNS[0][0], "BeforeAgent"))
        hook("gemini", vault, {"session_id": "s1", "hook_event_name": "AfterAgent", "prompt_response": "Here is the fix."},
             "--event", "stop")
    (record,) = PoolStore(vault).records("active")
    assert record.data["status"] == "muted"
    events = [json.loads(line) for line in (vault / "walks" / "surface.jsonl").read_text().splitlines()]
    outcomes = [e.get("outcome") for e in events]
    assert outcomes.count("ignored") == 3 and "engaged" in outcomes
    for event in events:  # the protocol's surface_event fields
        assert {"hypothesis_id", "turn_id", "surfaced_at"} <= set(event) and event["surfaced_at"]
        assert event.get("outcome") in (None, "engaged", "ignored", "rejected")


def test_pushback_in_the_next_prompt_rejects(vault):
    hook("claude-code", vault, prompt_payload(SURFACE_TURNS[0][0]))
    assert hook("claude-code", vault, prompt_payload("that walk note is not relevant, back to the feeding schedule")) is None
    (record,) = PoolStore(vault).records("rejected")
    assert "not relevant" in record.data["rejection_evidence"]


def test_off_switch_env(vault, monkeypatch):
    monkeypatch.setenv("WALKER_SURFACE", "off")
    assert hook("claude-code", vault, prompt_payload(SURFACE_TURNS[0][0])) is None


def test_install_merges_into_existing_settings(vault, tmp_path):
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"model": "x", "hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo done"}]}]}}))
    for _ in range(2):  # twice: still one walker entry per event
        done = subprocess.run([WALKER, "hook", "install", "claude-code", str(vault)], cwd=project, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings["model"] == "x"
    stop_commands = [h["command"] for g in settings["hooks"]["Stop"] for h in g["hooks"]]
    assert stop_commands[0] == "echo done" and sum("walker" in c for c in stop_commands) == 1
    assert len(settings["hooks"]["UserPromptSubmit"]) == 1
