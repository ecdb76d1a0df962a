"""Write Claude Code transcript folders (SPEC §6 record formats) for the transcripts tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION = "5f3c2a10-9d7e-4c1b-a2f0-1b2c3d4e5f60"
PROJECT = "-home-dev-shop"
MUTE_ANSWER = (
    "## Review of the checkout plan\n\n"
    "1. `charge()` is called before the stock check: a failed check leaves a paid order.\n"
    "2. The retry loop has no upper bound.\n\n"
    "Blockers: none."
)


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant", "message": {"role": "assistant", "content": list(blocks)}}


def tool_use(name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": name, "input": arguments}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_result(content: str) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": "toolu_1", "content": content}
    return {"type": "user", "message": {"role": "user", "content": [block]}}


def write_agent(
    root: Path, agent_id: str, meta: dict[str, Any], lines: list[dict[str, Any] | str], session: str = SESSION
) -> Path:
    folder = root / PROJECT / session / "subagents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"agent-{agent_id}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    path = folder / f"agent-{agent_id}.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return path


def teammate_meta(name: str, agent_type: str) -> dict[str, Any]:
    return {
        "agentType": agent_type,
        "description": f"{name} teammate",
        "name": name,
        "teamName": "review",
        "taskKind": "in_process_teammate",
        "spawnDepth": 0,
    }


def write_three_agents(root: Path, tool_calls: int = 3000) -> Path:
    """A mute teammate (thousands of tool calls, then a final text, never SendMessage), a teammate
    that reports with SendMessage, and an ordinary subagent; one malformed line in the first."""
    work: list[dict[str, Any] | str] = [{"type": "user", "message": {"role": "user", "content": "Review."}}]
    for i in range(tool_calls):
        work.append(assistant(text(f"Reading file {i}."), tool_use("Read", file_path=f"src/m{i}.py")))
        work.append(tool_result(f"contents of m{i}"))
    work.insert(5, '{"type": "assistant", "message": ')  # truncated by a crash mid-write
    work.append(assistant(text(MUTE_ANSWER)))
    write_agent(root, "a1b2c3", teammate_meta("critic-1", "shop:critic"), work)
    reporting = [
        assistant(tool_use("Grep", pattern="TODO")),
        tool_result("3 matches"),
        assistant(tool_use("SendMessage", to="team-lead", message="Found 3 TODOs.")),
        assistant(text("Done; reported to the lead.")),
    ]
    write_agent(root, "d4e5f6", teammate_meta("scout", "shop:scout"), reporting)
    subagent_meta = {
        "agentType": "general-purpose",
        "description": "Explore",
        "spawnDepth": 1,
        "toolUseId": "t9",
    }
    write_agent(root, "0a0b0c", subagent_meta, [assistant(text("The config lives in settings.toml."))])
    return root
