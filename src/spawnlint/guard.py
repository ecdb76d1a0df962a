"""spawnlint guard: a Claude Code PreToolUse hook that denies a named Agent/Task call whose answer
would never come back (SL101/SL102 applied to that one call), and fails open on anything else."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from spawnlint.model import Agent

# Only the standard library above, and NamedTuple rather than dataclasses (whose import costs
# ~15 ms): most Agent calls carry no `name`, and they pass before the linter is imported.

SPAWN_TOOLS = ("Agent", "Task")
_MAX_PAYLOAD = 16 * 1024 * 1024
_RESOLVED = ("resolved", "default", "ambiguous")
_REPORT_LINE = (
    '"When you finish, send your complete result to team-lead with the SendMessage tool;'
    ' your final message is not delivered to me."'
)


class Call(NamedTuple):
    """The parts of a named Agent/Task call the rules need."""

    tool: str
    name: str
    subagent_type: str
    prompt: str
    cwd: Path


class Verdict(NamedTuple):
    deny: str | None = None  # the reason shown to the model; None allows the call
    note: str | None = None  # one line for stderr when the call is allowed for want of facts


def run_hook(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """The hook: read the payload, decide, print a deny decision or nothing. Always exit 0, so
    that no input and no bug of ours can block the model's work."""
    try:
        verdict = decide(stdin.read(_MAX_PAYLOAD + 1))
    except Exception as exc:  # noqa: BLE001 - fail open: an error of ours must never block a spawn
        verdict = Verdict(note=f"internal error {type(exc).__name__}: {exc}; call allowed")
    if verdict.deny is not None:
        stdout.write(json.dumps(deny_output(verdict.deny)) + "\n")
    elif verdict.note is not None:
        stderr.write(f"spawnlint guard: {verdict.note}\n")
    return 0


def deny_output(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def decide(raw: bytes) -> Verdict:
    call = read_call(raw)
    if isinstance(call, Verdict):
        return call
    return judge(call)


def read_call(raw: bytes) -> Call | Verdict:
    """The named spawn in the payload, or the verdict that lets the call through."""
    if len(raw) > _MAX_PAYLOAD:
        return Verdict(note="hook input is too large to read; call allowed")
    try:
        payload = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return Verdict(note="hook input is not JSON; call allowed")
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
    return Call(
        str(tool),
        name.strip(),
        subagent_type or "",
        prompt if isinstance(prompt, str) else "",
        Path(cwd),
    )


def judge(call: Call) -> Verdict:
    from spawnlint.config import ConfigError
    from spawnlint.guard_targets import target_of

    try:
        target = target_of(call)
    except ConfigError as exc:
        return Verdict(note=f"{exc}; call allowed")
    if target.status not in _RESOLVED and not _configured_with_tools(target.status, target.agents):
        return Verdict(
            note=f'subagent_type "{call.subagent_type}" is {_unknown(call, target.status)}'
            f" (in {target.root}); call allowed"
        )
    if target.mute:
        return Verdict(deny=mute_reason(call, target.agents[0]))
    if target.untold:
        return Verdict(deny=untold_reason(call, target.agents[0]))
    return Verdict()


def _configured_with_tools(status: str, agents: tuple[Agent, ...]) -> bool:
    """An agent of another repository listed under `agents` with its tools is judged by them."""
    return status == "external" and bool(agents) and all(a.tools_known for a in agents)


def _unknown(call: Call, status: str) -> str:
    """A call's values are what the model sent, never variables: a target that reads like a
    template (`{area}-reviewer`, `<agent>`) was left unfilled, and matches no agent."""
    if status == "external":
        return "a configured external agent, whose tools spawnlint does not know"
    if re.search(r"[{}<>\[\]$]", call.subagent_type):
        return "an unfilled placeholder, no agent"
    return "not an agent of the project, the user or an installed plugin"


def _respawn_unnamed(call: Call) -> str:
    return (
        f"1. Call {call.tool} again with the same subagent_type, description and prompt but WITHOUT"
        " the `name` parameter. It then runs as an ordinary subagent and its final answer comes back"
        " to you as the tool result. This is almost always what you want."
    )


def mute_reason(call: Call, agent: Agent) -> str:
    from spawnlint.rules.return_channel import why_mute  # the rule's words, loaded only to deny

    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and this agent"
        f" cannot call SendMessage ({why_mute(agent)}). It would do the work, its answer would be"
        " lost, and you would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: spawn an agent that has the SendMessage tool"
        " (for example subagent_type general-purpose) and end its prompt with: "
        f"{_REPORT_LINE}"
    )


def untold_reason(call: Call, agent: Agent) -> str:
    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and neither"
        " your prompt nor the agent's definition tells it to use SendMessage. Named spawns that were"
        " not told to report returned nothing in measured runs: its answer would be lost and you"
        " would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: keep `name` and add to the prompt: "
        f"{_REPORT_LINE}"
    )
