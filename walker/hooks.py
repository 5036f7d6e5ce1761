"""Per-turn hooks for coding agents: Claude Code and Codex (UserPromptSubmit, Stop), Gemini CLI
(BeforeAgent, AfterAgent).

On prompt submit the hook reads the client's JSON on stdin and prints the client's
context-injection JSON, or nothing: it never blocks a prompt, and silence is the default. The note
is framed as optional, so the model does not take it for the task. On stop it infers what became
of the last note: mentioned in the answer means engaged, not mentioned means ignored; pushback in
the next prompt means rejected. Nothing here rescans the vault: surfacing reads the pool and a
cached vocabulary, and of a transcript only its tail. The note text goes out framed as quoted data
(``walker.surface.framed``), never as instructions.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from walker.errors import WalkerError
from walker.safefile import MB, SETTINGS_LIMIT, NotAFile, TooLarge, read_tail, read_text
from walker.safewrite import write_atomic
from walker.surface import feedback, framed, last_surfaced, log_surfaced, surface

CLIENTS = {
    "claude-code": {"prompt": "UserPromptSubmit", "stop": "Stop", "settings": ".claude/settings.json",
                    "user_settings": "~/.claude/settings.json"},
    "codex": {"prompt": "UserPromptSubmit", "stop": "Stop", "settings": ".codex/hooks.json",
              "user_settings": "~/.codex/hooks.json"},
    "gemini": {"prompt": "BeforeAgent", "stop": "AfterAgent", "settings": ".gemini/settings.json",
               "user_settings": "~/.gemini/settings.json"},
}
PUSHBACK = re.compile(r"\b(?:not relevant|irrelevant|that's wrong|that is wrong|stop suggesting|don't suggest|"
                      r"useless (?:note|suggestion)|ignore (?:the|that) (?:walk )?note)\b|没用|不相关", re.IGNORECASE)
INPUT_LIMIT = 1024 * 1024  # bytes of hook JSON read from the client; a longer prompt gets silence
ANSWER_WITHIN = 8.0  # seconds; the installed hooks give the client's timeout as 10
HOOK_PULL_LIMIT = 5  # a pull inside a chat: enough angles for one reply (`walker surface` lists them all)
TRANSCRIPT_TAIL = 8 * MB  # of a chat transcript (it can hold gigabytes): the last answer is near its end


class HookError(WalkerError):
    """A client's settings file cannot take walker's hooks."""


class TooSlow(Exception):
    """The hook ran out of its time and stays silent."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise TooSlow in the main thread once ``seconds`` have passed (where the platform has SIGALRM)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TooSlow(f"no answer within {seconds:g} s; staying silent")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


FRAME = ("Optional background from the user's own notes (walker). It is NOT part of the task: mention it "
         "only if it genuinely helps, after answering, as a short side note.")


def on_prompt(client: str, vault: Path, payload: dict[str, Any], now: datetime | None = None) -> dict[str, Any] | None:
    """The client's context-injection JSON for this prompt, or None to stay silent."""
    now = now or datetime.now(timezone.utc)
    prompt = str(payload.get("prompt") or "")
    session = str(payload.get("session_id") or "")
    if not prompt.strip() or _not_typed_by_a_person(payload):
        return None
    previous = last_surfaced(vault, session or None)
    if previous and PUSHBACK.search(prompt):
        feedback(vault, previous["hypothesis_id"], "rejected", now, turn_id=previous.get("turn_id"), turn=prompt,
                 surfaced_at=previous.get("surfaced_at"))
        return None
    result = surface(vault, prompt, limit=HOOK_PULL_LIMIT)
    if not result.surfaced:
        return None
    turn_id = f"{session}:{now.isoformat()}" if session else now.isoformat()
    log_surfaced(vault, result, now, turn_id)
    context = f"{FRAME}\n\n{framed(result.surfaced)}"
    return {"hookSpecificOutput": {"hookEventName": CLIENTS[client]["prompt"], "additionalContext": context}}


def on_stop(client: str, vault: Path, payload: dict[str, Any], now: datetime | None = None) -> str | None:
    """Infer the outcome of the last surfaced note from the answer; returns the outcome recorded."""
    now = now or datetime.now(timezone.utc)
    session = str(payload.get("session_id") or "")
    previous = last_surfaced(vault, session or None)
    if not previous:
        return None
    answer = _last_answer(payload)
    if answer is None:
        return None
    outcome = "engaged" if previous["hypothesis_id"] in answer or "walk note" in answer.lower() else "ignored"
    feedback(vault, previous["hypothesis_id"], outcome, now, turn_id=previous.get("turn_id"),
             surfaced_at=previous.get("surfaced_at"))
    return outcome


def settings_snippet(client: str, vault: Path, walker: str = "walker") -> dict[str, Any]:
    """The hooks section for the client's settings file."""
    names = CLIENTS[client]
    vault_arg = json.dumps(str(vault.resolve()))
    command = f"{walker} hook {client} {vault_arg}"
    return {"hooks": {
        names["prompt"]: [{"hooks": [{"type": "command", "command": command, "timeout": 10}]}],
        names["stop"]: [{"hooks": [{"type": "command", "command": f"{command} --event stop", "timeout": 10}]}],
    }}


def install(client: str, vault: Path, scope: str, project: Path, walker: str = "walker") -> Path:
    """Merge the hooks into the client's settings file (project or user scope), keeping what is there.

    The file is replaced whole (a temporary file renamed over it) and never written through a symlink."""
    names = CLIENTS[client]
    path = (project / names["settings"]) if scope == "project" else Path(names["user_settings"]).expanduser()
    current = _settings(path)
    hooks = current.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise HookError(f"{path}: its \"hooks\" is not an object; fix it, or add the hooks by hand (`walker hook show`)")
    for event, groups in settings_snippet(client, vault, walker)["hooks"].items():
        existing = hooks.setdefault(event, [])
        if not isinstance(existing, list):
            raise HookError(f"{path}: hooks.{event} is not a list; fix it, or add the hooks by hand (`walker hook show`)")
        commands = {h.get("command") for g in existing if isinstance(g, dict) for h in g.get("hooks", [])
                    if isinstance(h, dict)}
        existing += [g for g in groups if g["hooks"][0]["command"] not in commands]
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomic(path, json.dumps(current, indent=2) + "\n", _mode(path))
    except OSError as exc:  # NotAFile among them: a symlink put there since it was read
        raise HookError(f"{path}: {exc.strerror or exc}; walker did not write it. Add the hooks by hand "
                        "(`walker hook show`)") from None
    return path


def _settings(path: Path) -> dict[str, Any]:
    """The client's settings as they are: none yet is {}; anything walker cannot merge into is a HookError."""
    try:
        text = read_text(path, SETTINGS_LIMIT)
    except FileNotFoundError:
        return {}
    except (NotAFile, TooLarge) as exc:
        raise HookError(f"{path}: {exc.strerror}; walker will not read or write it. Add the hooks by hand "
                        "(`walker hook show`)") from None
    except OSError as exc:
        raise HookError(f"{path} cannot be read ({exc.strerror or exc})") from None
    try:
        current = json.loads(text or "{}")
    except ValueError as exc:
        raise HookError(f"{path} is not valid JSON ({exc}); fix it, or add the hooks by hand "
                        "(`walker hook show`)") from None
    if not isinstance(current, dict):
        raise HookError(f"{path} is not a JSON object; fix it, or add the hooks by hand (`walker hook show`)")
    return current


def _mode(path: Path) -> int:
    """An existing settings file keeps its permissions (a user's 0600 stays private)."""
    try:
        return os.lstat(path).st_mode & 0o777
    except FileNotFoundError:
        return 0o644


def _not_typed_by_a_person(payload: dict[str, Any]) -> bool:
    """Clients mark prompts that no person typed (a sub-agent, a scheduled task, a command expansion)."""
    if payload.get("is_subagent") or payload.get("agent_type") not in (None, "", "main"):
        return True
    return str(payload.get("prompt") or "").lstrip().startswith(("<command-", "<system-reminder", "<task-notification"))


def _last_answer(payload: dict[str, Any]) -> str | None:
    for key in ("last_assistant_message", "prompt_response", "response"):
        if isinstance(payload.get(key), str):
            return str(payload[key])
    transcript = payload.get("transcript_path")
    if not transcript:
        return None
    try:
        tail = read_tail(Path(str(transcript)).expanduser(), TRANSCRIPT_TAIL)
    except OSError:  # missing, unreadable, or not a regular file (a FIFO, a device): never waited on
        return None
    lines = tail.decode("utf-8", errors="replace").splitlines()
    if len(tail) == TRANSCRIPT_TAIL:
        lines = lines[1:]  # the first line may be cut
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        message = entry.get("message", entry) if isinstance(entry, dict) else {}
        if isinstance(message, dict) and (message.get("role") == "assistant" or entry.get("type") == "assistant"):
            return _text(message.get("content"))
    return None


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""
