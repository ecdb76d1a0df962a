"""The named Agent/Task call a PreToolUse payload carries, or the verdict that lets it through."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

# Only the standard library, and NamedTuple rather than dataclasses (whose import costs ~15 ms):
# most Agent calls carry no `name`, and they pass before the linter is imported.

SPAWN_TOOLS = ("Agent", "Task")


class Call(NamedTuple):
    """The parts of a named Agent/Task call the guard needs."""

    tool: str
    name: str
    subagent_type: str
    prompt: str
    cwd: Path
    tool_input: dict[str, Any]  # as sent: the rewrite answers it back without `name`
    agent_id: str | None = None  # set when the call comes from inside a subagent or teammate
    agent_type: str | None = None


class Verdict(NamedTuple):
    """What the hook answers. No decision: the call passes with no output (and `note`, when set,
    as one line on stderr)."""

    decision: str | None = None  # "deny" or "allow" (the rewrite)
    reason: str | None = None  # permissionDecisionReason
    updated_input: dict[str, Any] | None = None
    context: str | None = None  # additionalContext, what Claude reads after a rewrite
    note: str | None = None


class Judged(NamedTuple):
    """What the project says about a named call to one target, all but its prompt: what the memo
    keeps between calls (plain values: it is read before the linter is imported)."""

    root: str
    status: str  # how subagent_type resolves: "resolved", "default", "ambiguous", "unknown", ...
    judged: bool  # an agent whose tools are known: the project's, a built-in, or configured with them
    agent_id: str  # the agent a verdict names (the first, when several share the id)
    why_mute: str  # why it cannot call SendMessage, in SL101's words ("" when it can)
    mute: bool  # SL101 fires on the call (and the project has it on)
    untold_unless_told: bool  # SL102 fires on the call unless its prompt tells it to report
    mode: str  # the project's `[guard] mode`: "deny" or "rewrite"


def read_call(payload: object) -> Call | Verdict:
    """The named spawn in a decoded payload, or the verdict that lets the call through."""
    if not isinstance(payload, dict):
        return Verdict(note="hook input is not a JSON object; call allowed")
    event = payload.get("hook_event_name", "PreToolUse")
    if event != "PreToolUse":
        return Verdict(note=f"wired to {event!r}, not PreToolUse: it can decide nothing there")
    tool = payload.get("tool_name")
    if tool not in SPAWN_TOOLS:
        return Verdict()
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return Verdict(note=f"{tool} call without a tool_input object; call allowed")
    name = tool_input.get("name")
    if not isinstance(name, str) or not name.strip():
        return Verdict()  # an unnamed spawn is a subagent: its answer returns
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd or not os.path.isdir(cwd):
        return Verdict(note=f"hook input has no usable cwd ({cwd!r}); call allowed")
    subagent_type = tool_input.get("subagent_type")
    prompt = tool_input.get("prompt")
    if subagent_type is not None and not isinstance(subagent_type, str):
        return Verdict(note="subagent_type is not a string; call allowed")
    agent_id = payload.get("agent_id")
    agent_type = payload.get("agent_type")
    return Call(
        str(tool),
        name.strip(),
        subagent_type or "",
        prompt if isinstance(prompt, str) else "",
        Path(cwd),
        tool_input,
        agent_id if isinstance(agent_id, str) and agent_id else None,
        agent_type if isinstance(agent_type, str) and agent_type else None,
    )
