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


# Every other record shape the scan reads, written for these tests in the shapes public material
# shows (see the README's "Recovering lost reports" for the sources).

LEAD_SESSION = "9b1e7c44-0d2a-4f5e-8c3b-6a7d8e9f0a1b"
PROCESS_SESSION = "c0ffee00-1111-4222-8333-944455556666"
HANDBACK_REPORT = (
    "## Findings\n\n- the cache key ignores the locale\n- two tests share a temp folder\n\nBlockers: none."
)
FRAME = (
    "[Subagent hand-back] The text below is the final report of a subagent this session delegated to."
    " It is model output, NOT a message from the user. The report follows:\n"
)


def framed(report: str) -> str:
    """The hand-back frame around a report: the harness indents every line of it by two spaces."""
    return FRAME + "\n".join("  " + line if line else "" for line in report.split("\n")) + "\n"


def user_text(value: str, **extra: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": value}, **extra}


def result_for(tool_use_id: str, content: str | list[dict[str, Any]]) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    return {"type": "user", "message": {"role": "user", "content": [block]}}


def spawn_call(tool_use_id: str, tool: str = "Agent", **arguments: Any) -> dict[str, Any]:
    block = {"type": "tool_use", "id": tool_use_id, "name": tool, "input": arguments}
    return assistant(block)


def send(to: str, message: Any, summary: str = "reminder") -> dict[str, Any]:
    return assistant(tool_use("SendMessage", to=to, summary=summary, message=message))


def notification(task_id: str, summary: str, status: str = "completed", duration_ms: int = 1000) -> str:
    """A `<task-notification>` as Claude Code writes it for a finished background task."""
    return (
        f"<task-notification>\n<task-id>{task_id}</task-id>\n<tool-use-id>toolu_{task_id}</tool-use-id>\n"
        f"<output-file>/tmp/claude-1000/{PROJECT}/tasks/{task_id}.output</output-file>\n"
        f"<status>{status}</status>\n<summary>{summary}</summary>\n<result>Done.</result>\n"
        f"<usage>total_tokens: 13074\ntool_uses: 6\nduration_ms: {duration_ms}</usage>\n</task-notification>"
    )


def enqueue(content: str) -> dict[str, Any]:
    return {
        "type": "queue-operation",
        "operation": "enqueue",
        "timestamp": "2026-11-30T10:00:05.000Z",
        "sessionId": LEAD_SESSION,
        "content": content,
    }


def dequeue() -> dict[str, Any]:
    return {"type": "queue-operation", "operation": "dequeue", "timestamp": "2026-11-30T10:00:06.000Z"}


def queued_attachment(content: str) -> dict[str, Any]:
    return {
        "type": "attachment",
        "attachment": {"type": "queued_command", "prompt": content, "origin": {"kind": "task-notification"}},
    }


def write_lines(path: Path, lines: list[dict[str, Any] | str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return path


def subagent_meta(agent_type: str, tool_use_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "agentType": agent_type,
        "description": f"{agent_type} work",
        "spawnDepth": 1,
        "toolUseId": tool_use_id,
        **extra,
    }


def write_field_report(root: Path) -> Path:
    """One lead session as the field reports describe it:

    - critic-1, an in-process teammate that never calls SendMessage; the lead sends it 3 reminders;
    - scout, a teammate that reports with SendMessage (and gets 1 message from the lead);
    - ghost, a named spawn that left no transcript (2 messages from the lead);
    - tester, a teammate run as its own process (`<project>/<uuid>.jsonl`, records with
      `teamName` and `agentName`), mute;
    - hb-block, a subagent whose transcript holds a SubagentHandback tool_use, then a stub;
    - hb-frame, a subagent with no hand-back block: the lead's tool_result carries the frame;
    - plain, a subagent whose final text was its return value;
    - a background task completion ingested three times, another once.
    """
    session_dir = root / PROJECT / LEAD_SESSION
    critic_work: list[dict[str, Any] | str] = [user_text("Review the checkout plan.")]
    for i in range(20):
        critic_work += [assistant(tool_use("Read", file_path=f"src/m{i}.py")), tool_result(f"m{i}")]
    critic_work.append(assistant(text(MUTE_ANSWER)))
    write_agent(root, "a1b2c3", teammate_meta("critic-1", "shop:critic"), critic_work, LEAD_SESSION)
    write_agent(
        root,
        "d4e5f6",
        teammate_meta("scout", "shop:scout"),
        [
            assistant(tool_use("Grep", pattern="TODO")),
            send("team-lead", "Found 3 TODOs."),
            assistant(text("Done.")),
        ],
        LEAD_SESSION,
    )
    write_agent(
        root,
        "f00d01",
        subagent_meta("general-purpose", "toolu_hb1"),
        [
            user_text("Find the flaky tests."),
            assistant(tool_use("Bash", command="pytest -x")),
            tool_result("2 failed"),
            assistant(tool_use(HANDBACK_TOOL_NAME, message=HANDBACK_REPORT)),
            tool_result("Report delivered."),
            assistant(text("Report delivered via SubagentHandback.")),
        ],
        LEAD_SESSION,
    )
    write_agent(
        root,
        "f00d02",
        subagent_meta("Explore", "toolu_hb2"),
        [
            assistant(tool_use("Glob", pattern="**/*.py")),
            assistant(text("Done; the report went by SubagentHandback.")),
        ],
        LEAD_SESSION,
    )
    write_agent(
        root,
        "f00d03",
        subagent_meta("general-purpose", "toolu_pl1", isFork=True),
        [assistant(text("The config lives in settings.toml."))],
        LEAD_SESSION,
    )
    report_notice = notification("b7c8d9e0f1a2b3c4d", 'Agent "Build S1" completed')
    lead: list[dict[str, Any] | str] = [
        {"type": "file-history-snapshot", "messageId": "m0", "snapshot": {}},
        user_text("Review the checkout plan with a team."),
        spawn_call(
            "toolu_c1", subagent_type="shop:critic", name="critic-1", team_name="review", prompt="Review."
        ),
        result_for("toolu_c1", "Spawned successfully. agent_id: critic-1@review"),
        spawn_call("toolu_s1", "Task", subagent_type="shop:scout", name="scout", prompt="Scout."),
        result_for("toolu_s1", "Spawned successfully. agent_id: scout@review"),
        spawn_call(
            "toolu_g1", subagent_type="shop:critic", name="ghost", description="Second opinion", prompt="."
        ),
        spawn_call("toolu_t1", subagent_type="shop:tester", name="tester", prompt="Run the suite."),
        spawn_call(
            "toolu_hb1", subagent_type="general-purpose", description="Flaky tests", prompt="Find them."
        ),
        result_for("toolu_hb1", [{"type": "text", "text": framed(HANDBACK_REPORT)}]),
        spawn_call("toolu_hb2", subagent_type="Explore", description="Map the code", prompt="Map it."),
        result_for("toolu_hb2", framed("The entry point is app.py.") + "agentId: f00d02 (for resuming)\n"),
        spawn_call("toolu_pl1", subagent_type="general-purpose", description="Config", prompt="Where?"),
        result_for("toolu_pl1", [{"type": "text", "text": "The config lives in settings.toml."}]),
        send("critic-1", "Status?"),
        send("ghost", "Are you there?"),
        send("critic-1", "Please send your review."),
        send("scout", "Thanks."),
        send("ghost", "Reply please."),
        send("critic-1", "Still waiting for your review."),
        enqueue(report_notice),
        dequeue(),
        user_text(report_notice),
        enqueue(notification("b7c8d9e0f1a2b3c4d", 'Agent "Build S1" completed', duration_ms=2758930)),
        user_text(notification("b7c8d9e0f1a2b3c4d", 'Agent "Build S1" completed', duration_ms=2758930)),
        queued_attachment(
            notification("b7c8d9e0f1a2b3c4d", 'Agent "Build S1" completed', duration_ms=31052056)
        ),
        enqueue(notification("0123456789abcdef0", 'Background command "make" completed (exit code 0)')),
        user_text(notification("0123456789abcdef0", 'Background command "make" completed (exit code 0)')),
        {"type": "system", "subtype": "turn_duration", "durationMs": 1200},
        assistant(text("Waiting for critic-1.")),
    ]
    write_lines(root / PROJECT / f"{LEAD_SESSION}.jsonl", lead)
    process = [
        {
            "type": "user",
            "teamName": "review",
            "agentName": "tester",
            "sessionId": PROCESS_SESSION,
            "message": {"role": "user", "content": "Run the suite."},
        },
        {
            "type": "assistant",
            "teamName": "review",
            "agentName": "tester",
            "message": {"role": "assistant", "content": [tool_use("Bash", command="pytest")]},
        },
        {
            "type": "assistant",
            "teamName": "review",
            "agentName": "tester",
            "message": {"role": "assistant", "content": [text("All 212 tests pass.")]},
        },
    ]
    write_lines(root / PROJECT / f"{PROCESS_SESSION}.jsonl", process)
    assert session_dir.is_dir()
    return root


HANDBACK_TOOL_NAME = "SubagentHandback"
