"""The PreToolUse hook: denies a named Agent/Task call whose answer would never come back (SL101/SL102
applied to that one call), or, in rewrite mode, lets it run without `name`; fails open on the rest."""

from __future__ import annotations

import json
import re
from typing import IO, Any

from spawnlint.guard.call import Call, Judged, Verdict, read_call
from spawnlint.guard.stdin import WAIT_SECONDS, read_payload

_REPORT_LINE = (
    '"When you finish, send your complete result to team-lead with the SendMessage tool;'
    ' your final message is not delivered to me."'
)


def run_hook(stdin: IO[bytes], stdout: IO[str], stderr: IO[str], wait: float = WAIT_SECONDS) -> int:
    """The hook: read the payload, decide, print the decision or nothing. Always exit 0, so that
    no input and no bug of ours can block the model's work."""
    try:
        payload = read_payload(stdin, wait=wait)
        problem = payload.problem
        verdict = Verdict(note=f"{problem}; call allowed") if problem else decide(payload.value)
    except Exception as exc:  # noqa: BLE001 - fail open: an error of ours must never block a spawn
        verdict = Verdict(note=f"internal error {type(exc).__name__}: {exc}; call allowed")
    if verdict.decision is not None:
        stdout.write(json.dumps(output(verdict)) + "\n")
    elif verdict.note is not None:
        stderr.write(f"spawnlint guard: {verdict.note}\n")
    return 0


def output(verdict: Verdict) -> dict[str, Any]:
    """The hookSpecificOutput block; without hookEventName Claude Code ignores it."""
    decision: dict[str, Any] = {
        "hookEventName": "PreToolUse",
        "permissionDecision": verdict.decision,
        "permissionDecisionReason": verdict.reason,
    }
    if verdict.updated_input is not None:
        decision["updatedInput"] = verdict.updated_input
    if verdict.context is not None:
        decision["additionalContext"] = verdict.context
    return {"hookSpecificOutput": decision}


def decide(payload: object) -> Verdict:
    call = read_call(payload)
    if isinstance(call, Verdict):
        return call
    if call.agent_id is not None:
        return from_inside(call, _mode(call))
    return judge(call)


def _mode(call: Call) -> str:
    """`[guard] mode` of the project around the call; the default (deny) when it cannot be read."""
    from spawnlint.config import ConfigError, load_settings
    from spawnlint.discover import find_root

    try:
        return load_settings(find_root(call.cwd), call.cwd).guard_mode
    except ConfigError:
        return "deny"


def without_name(call: Call) -> dict[str, Any]:
    """The call's input as sent, less `name`: updatedInput replaces the whole input object."""
    return {key: value for key, value in call.tool_input.items() if key != "name"}


def judge(call: Call) -> Verdict:
    """The verdict on a named call: from the memo when its target was judged before and nothing
    it was judged from changed, else from the project (and then remembered)."""
    from spawnlint.guard import memo

    target = memo.recall(call)
    if target is None:
        from spawnlint.config import ConfigError
        from spawnlint.guard.targets import target_of

        try:
            target, watched = target_of(call)
        except ConfigError as exc:
            return Verdict(note=f"{exc}; call allowed")
        memo.remember(call, target, watched)
    if not target.judged:
        return Verdict(
            note=f'subagent_type "{call.subagent_type}" is {_unknown(call, target.status)}'
            f" (in {target.root}); call allowed"
        )
    from spawnlint.send_message import mentions_send_message_tool

    untold = target.untold_unless_told and not mentions_send_message_tool(call.prompt)
    if not (target.mute or untold):
        return Verdict()
    if target.mode == "rewrite":
        return rewrite(call, target, target.mute)
    return Verdict("deny", mute_reason(call, target) if target.mute else untold_reason(call, target))


def rewrite(call: Call, agent: Judged, mute: bool) -> Verdict:
    """Allow the same call without `name`. The reason is shown to the user only; what Claude reads
    is the additional context."""
    if mute:
        why = f"this agent cannot call SendMessage ({agent.why_mute})"
    else:
        why = "neither the prompt nor the agent's definition tells it to use SendMessage"
    lost = (
        f'`name: "{call.name}"` would spawn agent "{agent.agent_id}" as an in_process_teammate, whose final'
        f" answer is never returned, and {why}"
    )
    return Verdict(
        "allow",
        f"spawnlint guard removed `name` from this {call.tool} call: {lost}. It runs as an ordinary"
        " subagent instead.",
        without_name(call),
        f"spawnlint guard ran this {call.tool} call without its `name` parameter: {lost}; its answer"
        " would have been lost. It runs as an ordinary subagent, and its final answer comes back to"
        f' you as this call\'s tool result. It is not a teammate: do not address "{call.name}" with'
        " SendMessage or wait for a message from it.",
    )


def from_inside(call: Call, mode: str) -> Verdict:
    """A named call from inside a subagent or teammate (`agent_id` is set): a teammate cannot spawn
    named agents (no nested teams: only the lead names teammates), whatever the target."""
    inside = (
        f"this {call.tool} call comes from inside a subagent or teammate (agent_id"
        f" {call.agent_id}), and a teammate cannot spawn named agents: only the lead of a team names"
        f' teammates. `name: "{call.name}"` cannot make a teammate here'
    )
    if mode == "rewrite":
        return Verdict(
            "allow",
            f"spawnlint guard removed `name` from this {call.tool} call: {inside}.",
            without_name(call),
            f"spawnlint guard ran this call without its `name` parameter: {inside}. It runs as your"
            " own subagent, and its final answer comes back to you as this call's tool result.",
        )
    return Verdict(
        "deny",
        f"spawnlint guard stopped this call: {inside}. Call {call.tool} again with the same"
        " subagent_type, description and prompt but WITHOUT the `name` parameter: it then runs as"
        " your own subagent, and its final answer comes back to you as the tool result.",
    )


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


def mute_reason(call: Call, agent: Judged) -> str:
    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.agent_id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and this agent"
        f" cannot call SendMessage ({agent.why_mute}). It would do the work, its answer would be"
        " lost, and you would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: spawn an agent that has the SendMessage tool"
        " (for example subagent_type general-purpose) and end its prompt with: "
        f"{_REPORT_LINE}"
    )


def untold_reason(call: Call, agent: Judged) -> str:
    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.agent_id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and neither"
        " your prompt nor the agent's definition tells it to use SendMessage. Named spawns that were"
        " not told to report returned nothing in measured runs: its answer would be lost and you"
        " would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: keep `name` and add to the prompt: "
        f"{_REPORT_LINE}"
    )
