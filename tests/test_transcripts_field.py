"""`spawnlint transcripts` on the whole story a session leaves: the lead's transcript, teammates in
process and in their own processes, subagent hand-backs, named spawns without a transcript,
completions ingested twice, the --since/--session filters and file symlinks."""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, run_cli
from spawnlint.transcripts import (
    SCHEMA_VERSION,
    AgentTranscript,
    as_dict,
    handback_report,
    is_stub,
    load,
    parse_since,
    scan,
)
from transcript_fixture import (
    HANDBACK_REPORT,
    LEAD_SESSION,
    MUTE_ANSWER,
    PROCESS_SESSION,
    PROJECT,
    assistant,
    enqueue,
    framed,
    notification,
    result_for,
    send,
    spawn_call,
    subagent_meta,
    teammate_meta,
    text,
    tool_use,
    user_text,
    write_agent,
    write_field_report,
    write_lines,
)


@pytest.fixture
def field(tmp_path: Path) -> Path:
    return write_field_report(tmp_path / "projects")


def by_name(root: Path, *args: str) -> dict[str, dict[str, Any]]:
    run = run_cli("transcripts", str(root), "--output-format", "json", *args)
    assert run.code == 0, run.err
    document = json.loads(run.out)
    assert document["schema_version"] == SCHEMA_VERSION == 2
    return {item["name"] or item["agent_id"]: item for item in document["agents"]}


def test_every_agent_of_the_field_report_is_told(field: Path) -> None:
    items = by_name(field)
    assert set(items) == {"critic-1", "scout", "tester", "f00d01", "f00d02", "f00d03"}
    critic = items["critic-1"]
    assert (critic["kind"], critic["layout"], critic["delivered"], critic["mute"]) == (
        "teammate",
        "in-process",
        "lost",
        True,
    )
    assert (critic["messages_from_lead"], critic["replies"], critic["report"]) == (3, 0, MUTE_ANSWER)
    assert critic["lead_transcript"] == f"{PROJECT}/{LEAD_SESSION}.jsonl"
    scout = items["scout"]
    assert (scout["delivered"], scout["report"], scout["messages_from_lead"], scout["replies"]) == (
        "SendMessage",
        "Found 3 TODOs.",
        1,
        1,
    )
    tester = items["tester"]
    assert (tester["kind"], tester["layout"], tester["team_name"], tester["delivered"]) == (
        "teammate",
        "process",
        "review",
        "lost",
    )
    assert tester["report"] == "All 212 tests pass." and tester["agent_type"] == "shop:tester"
    assert tester["transcript"] == f"{PROJECT}/{PROCESS_SESSION}.jsonl" and tester["meta"] is None


def test_a_handback_is_the_report_and_its_stub_never_is(field: Path) -> None:
    items = by_name(field)
    block = items["f00d01"]
    assert (block["delivered"], block["report_source"], block["report"]) == (
        "SubagentHandback",
        "SubagentHandback",
        HANDBACK_REPORT,
    )
    assert block["last_text_stub"] is True and block["handback_calls"] == 1
    frame = items["f00d02"]  # no SubagentHandback block: the lead's tool_result carries the report
    assert (frame["delivered"], frame["report_source"], frame["report"]) == (
        "SubagentHandback",
        "hand-back result",
        "The entry point is app.py.",
    )
    plain = items["f00d03"]
    assert (plain["delivered"], plain["report"]) == ("final text", "The config lives in settings.toml.")


def test_named_spawns_without_a_transcript_are_listed(field: Path) -> None:
    run = run_cli("transcripts", str(field), "--output-format", "json")
    (missing,) = json.loads(run.out)["missing"]
    assert missing == {
        "name": "ghost",
        "agent_type": "shop:critic",
        "description": "Second opinion",
        "session": LEAD_SESSION,
        "project": PROJECT,
        "tool_use_id": "toolu_g1",
        "messages_from_lead": 2,
        "lead_transcript": f"{PROJECT}/{LEAD_SESSION}.jsonl",
    }


def test_a_completion_ingested_three_times_is_reported_with_its_count(field: Path) -> None:
    run = run_cli("transcripts", str(field), "--output-format", "json")
    (duplicate,) = json.loads(run.out)["duplicate_completions"]
    assert (duplicate["kind"], duplicate["task_id"], duplicate["status"], duplicate["count"]) == (
        "task-notification",
        "b7c8d9e0f1a2b3c4d",
        "completed",
        3,  # two user records and a queued-command attachment; the enqueue records are bookkeeping
    )
    assert duplicate["summary"] == 'Agent "Build S1" completed'
    assert duplicate["tool_use_id"] == "toolu_b7c8d9e0f1a2b3c4d"


def test_text_output_reads_like_the_field_report(field: Path) -> None:
    out = run_cli("transcripts", str(field)).out
    assert out.startswith(
        f"6 spawned agents in 1 session under {field}: 3 teammates (1 in its own process), 3 subagents;"
        " 1 named spawn left no transcript.\n"
    )
    assert (
        "  critic-1: mute teammate (shop:critic), 3 reminders from the lead, 0 replies; its answer:\n" in out
    )
    assert "      | 2. The retry loop has no upper bound.\n" in out
    assert (
        "  tester: mute teammate in its own process (shop:tester), 0 reminders from the lead, 0 replies; its answer:\n"
        in out
    )
    assert (
        f"  ghost (shop:critic): spawned in session {PROJECT}/{LEAD_SESSION}, 2 messages from the lead;"
        " no transcript under this folder\n"
    ) in out
    assert (
        "  scout: teammate (shop:scout), reported with SendMessage (1 call), 1 message from the lead\n" in out
    )
    assert "  agent f00d01: subagent (general-purpose), delivered with SubagentHandback" in out
    assert (
        f"  session {PROJECT}/{LEAD_SESSION}: task-notification of task b7c8d9e0f1a2b3c4d"
        ' ("Agent "Build S1" completed"), status completed, 3 times\n'
    ) in out
    assert "Report delivered via SubagentHandback" not in out


def test_recover_writes_the_lost_answers_only(field: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "recovered"
    assert run_cli("transcripts", str(field), "--recover", str(outdir)).code == 0
    files = {p.name: p.read_text("utf-8") for p in outdir.iterdir()}
    assert files == {
        f"{LEAD_SESSION}--critic-1.md": MUTE_ANSWER + "\n",
        f"{PROCESS_SESSION}--tester.md": "All 212 tests pass.\n",
    }


def test_json_recovered_to_names_the_file(field: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "out"
    items = by_name(field, "--recover", str(outdir))
    assert items["critic-1"]["recovered_to"] == str(outdir / f"{LEAD_SESSION}--critic-1.md")
    assert items["scout"]["recovered_to"] is None


def test_every_json_field_is_documented_in_the_readme(field: Path) -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme[readme.index("## Recovering lost reports") : readme.index("## The guard")]
    document = json.loads(run_cli("transcripts", str(field), "--output-format", "json").out)
    keys = set(document) | set(document["agents"][0]) | set(document["missing"][0])
    keys |= set(document["duplicate_completions"][0])
    undocumented = sorted(k for k in keys if f"`{k}`" not in section)
    assert undocumented == []


# --- hand-back shapes -------------------------------------------------------------------------


def test_handback_report_takes_the_indented_lines_after_the_frame() -> None:
    assert handback_report(framed("line one\n\n  indented more\nlast") + "agentId: x (resume)\n") == (
        "line one\n\n  indented more\nlast"
    )
    assert handback_report("no frame at all") == "no frame at all"


@pytest.mark.parametrize(
    ("value", "stub"),
    [
        ("Report delivered via SubagentHandback.", True),
        ("Handed back to the lead.", False),
        ("Done; the hand-back went out.", True),
        ("x" * 500 + " SubagentHandback", False),
        (HANDBACK_REPORT, False),
    ],
)
def test_stub_texts(value: str, stub: bool) -> None:
    assert is_stub(value) is stub


def lead_only(root: Path, lines: list[dict[str, Any] | str]) -> Path:
    return write_lines(root / PROJECT / f"{LEAD_SESSION}.jsonl", lines)


def test_an_agent_message_handback_delivers_and_counts_as_a_completion(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root,
        "f00d04",
        subagent_meta("Plan", "toolu_p4"),
        [assistant(text("Plan delivered via hand-back."))],
        LEAD_SESSION,
    )
    message = f'Another Claude session sent a message:\n<agent-message from="f00d04">\n{framed("Step 1: cut.")}</agent-message>'
    lead_only(
        root,
        [
            spawn_call("toolu_p4", subagent_type="Plan", prompt="Plan."),
            user_text(message),
            user_text(message),
        ],
    )
    result = scan(root)
    (agent,) = result.agents
    assert (agent.delivered, agent.report_source) == ("SubagentHandback", "hand-back result")
    assert agent.report is not None and load(agent.report) == "Step 1: cut."
    (duplicate,) = result.duplicates
    assert (duplicate.kind, duplicate.task_id, duplicate.count) == ("hand-back", "f00d04", 2)


def test_a_subagent_whose_stub_is_all_there_is_is_lost_without_an_answer(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root,
        "f00d05",
        subagent_meta("general-purpose", "t5"),
        [assistant(text("Report delivered via SubagentHandback."))],
    )
    (agent,) = scan(root).agents
    assert (agent.delivered, agent.report, agent.last_text_stub) == ("lost", None, True)
    assert (
        "agent f00d05: subagent whose report never arrived (general-purpose); no answer in its transcript"
        in (run_cli("transcripts", str(root)).out)
    )


def test_an_empty_result_in_the_lead_means_the_final_text_was_lost(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root,
        "f00d06",
        subagent_meta("general-purpose", "toolu_e6"),
        [assistant(text("The real report."))],
        LEAD_SESSION,
    )
    lead_only(root, [spawn_call("toolu_e6", prompt="Go."), result_for("toolu_e6", [])])
    (agent,) = scan(root).agents
    assert agent.delivered == "lost" and agent.report is not None and load(agent.report) == "The real report."


def test_a_structured_send_message_is_reported_as_json(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root,
        "s7",
        teammate_meta("s7", "t"),
        [send("team-lead", {"type": "shutdown_response", "approve": True})],
    )
    (agent,) = scan(root).agents
    assert agent.report is not None and json.loads(load(agent.report) or "") == {
        "type": "shutdown_response",
        "approve": True,
    }


# --- notification shapes ----------------------------------------------------------------------


def test_enqueue_records_count_when_nothing_was_ingested(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    lead_only(
        root,
        [
            enqueue(notification("t1", "a")),
            enqueue(notification("t1", "a")),
            enqueue(notification("t2", "b")),
        ],
    )
    (duplicate,) = scan(root).duplicates
    assert (duplicate.task_id, duplicate.count) == ("t1", 2)


def test_older_agent_notifications_and_text_blocks_are_read(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    old = "<agent-notification>\n<agent-id>a8caf00</agent-id>\n<status>completed</status>\n<summary>done</summary>\n</agent-notification>"
    block = {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": old}]}}
    lead_only(root, [user_text(old), block])
    (duplicate,) = scan(root).duplicates
    assert (duplicate.task_id, duplicate.status, duplicate.count) == ("a8caf00", "completed", 2)


def test_a_running_and_a_completed_notice_of_one_task_are_not_duplicates(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    lead_only(
        root, [user_text(notification("t3", "x", status="running")), user_text(notification("t3", "x"))]
    )
    assert scan(root).duplicates == ()


# --- filters ----------------------------------------------------------------------------------


def two_sessions(root: Path) -> None:
    write_agent(root, "old1", teammate_meta("old", "t"), [assistant(text("old answer"))], "11111111-aaaa")
    write_agent(root, "new1", teammate_meta("new", "t"), [assistant(text("new answer"))], "22222222-bbbb")
    lead_only(root, [spawn_call("toolu_x", name="gone", prompt=".")])  # a third session


def test_session_filter_takes_an_id_or_its_start(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    two_sessions(root)
    assert set(by_name(root, "--session", "22222222-bbbb")) == {"new"}
    assert set(by_name(root, "--session", "1111")) == {"old"}
    assert by_name(root, "--session", "nope") == {}


def test_since_filter_keeps_sessions_with_a_file_modified_since(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    two_sessions(root)
    week_ago = time.time() - 7 * 86400
    for path in (root / PROJECT / "11111111-aaaa").rglob("*"):
        os.utime(path, (week_ago, week_ago))
    assert set(by_name(root, "--since", "2d")) == {"new"}
    assert set(by_name(root, "--since", "2020-01-01")) == {"old", "new"}
    run = run_cli("transcripts", str(root), "--since", "2d")
    assert "1 named spawn left no transcript" in run.out  # the lead session of today


def test_a_bad_since_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli("transcripts", str(tmp_path), "--since", "yesterday")
    assert run.code == 2 and "--since" in run.err and "yesterday" in run.err


def test_parse_since() -> None:
    assert parse_since("2h", now=10_000.0) == 10_000.0 - 7200
    assert parse_since("1.5d", now=200_000.0) == 200_000.0 - 129_600
    assert parse_since("2026-11-30T10:00:00Z") == datetime(2026, 11, 30, 10, tzinfo=timezone.utc).timestamp()
    with pytest.raises(ValueError, match="duration"):
        parse_since("soon")


# --- symlinks ---------------------------------------------------------------------------------


def test_file_symlinks_out_of_the_folder_are_refused_and_counted(tmp_path: Path) -> None:
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "secret.jsonl").write_text(json.dumps(assistant(text("SECRET ANSWER"))) + "\n")
    (outside / "meta.json").write_text(json.dumps(teammate_meta("linked", "t")))
    root = tmp_path / "projects"
    write_agent(root, "ok", teammate_meta("ok", "t"), [assistant(text("fine"))])
    folder = root / PROJECT / "5f3c2a10-9d7e-4c1b-a2f0-1b2c3d4e5f60" / "subagents"
    (folder / "agent-ok.jsonl").unlink()
    (folder / "agent-ok.jsonl").symlink_to(outside / "secret.jsonl")
    (folder / "agent-ln.meta.json").symlink_to(outside / "meta.json")
    (root / PROJECT / "linked-session.jsonl").symlink_to(outside / "secret.jsonl")
    result = scan(root)
    (agent,) = result.agents
    assert agent.name == "ok" and agent.transcript is None and agent.report is None
    assert result.skipped_links == 3  # a transcript, a meta file and a session transcript
    assert [p.split(": ", 1)[1] for p in result.problems] == ["a symbolic link; not followed; skipped"] * 3
    out = run_cli("transcripts", str(root)).out
    assert "SECRET" not in out and "Skipped 3 symbolic links to files (never followed)." in out
    assert "SECRET" not in run_cli("transcripts", str(root), "--output-format", "json").out


def test_as_dict_keys_are_the_documented_order(field: Path) -> None:
    agent: AgentTranscript = scan(field).agents[0]
    assert list(as_dict(agent, None))[:4] == ["kind", "layout", "name", "agent_type"]


_WORDS = [
    "type",
    "message",
    "content",
    "text",
    "name",
    "input",
    "id",
    "to",
    "tool_use_id",
    "operation",
    "attachment",
    "prompt",
    "agentName",
    "teamName",
    "assistant",
    "user",
    "tool_use",
    "tool_result",
    "queue-operation",
    "enqueue",
    "queued_command",
    "SendMessage",
    "Agent",
    "SubagentHandback",
]
_TEXTS = st.sampled_from(
    [
        notification("t1", "s"),
        framed("r") + "tail",
        '<agent-message from="f1">[Subagent hand-back] x',
        "<task-notification><task-id>",
        "Report delivered via SubagentHandback.",
    ]
)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12) | st.sampled_from(_WORDS) | _TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(_WORDS), inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lead=st.lists(_VALUES, max_size=8), agent=st.lists(_VALUES, max_size=6))
def test_any_lead_and_agent_records_are_scanned_and_rendered(
    tmp_path: Path, lead: list[Any], agent: list[Any]
) -> None:
    root = tmp_path / "fuzz"
    shutil.rmtree(root, ignore_errors=True)
    write_lines(root / PROJECT / f"{LEAD_SESSION}.jsonl", [json.dumps(v) for v in lead])
    write_agent(
        root, "f1", subagent_meta("general-purpose", "toolu_1"), [json.dumps(v) for v in agent], LEAD_SESSION
    )
    result = scan(root)
    assert len(result.agents) >= 1
    for fmt in ("text", "json"):
        run = run_cli("transcripts", str(root), "--output-format", fmt)
        assert run.code == 0, run.err
    json.loads(run_cli("transcripts", str(root), "--output-format", "json").out)


def test_a_named_spawn_run_as_a_subagent_is_not_missing(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root, "h1", subagent_meta("general-purpose", "toolu_n1"), [assistant(text("answer"))], LEAD_SESSION
    )
    lead_only(root, [spawn_call("toolu_n1", name="named-but-headless", prompt=".")])
    result = scan(root)
    assert result.missing == () and result.agents[0].tool_use_id == "toolu_n1"


def test_sidechain_and_compact_summary_records_of_a_lead_are_not_the_leads(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    notice = notification("t9", "x")
    lead_only(
        root,
        [
            {**spawn_call("toolu_side", name="side", prompt="."), "isSidechain": True},
            {**send("critic", "from a subagent"), "isSidechain": True},
            user_text(notice),
            user_text("This session is being continued. Earlier: " + notice, isCompactSummary=True),
        ],
    )
    result = scan(root)
    assert result.missing == () and result.duplicates == ()


def test_a_lead_whose_records_carry_agent_name_is_still_the_lead(tmp_path: Path) -> None:
    """Both session transcripts carry teamName and agentName; the lead's is "team-lead", it makes the
    named spawns, and its records type a tool result `tool_result`; the teammate reports with the
    early SendMessage shape (`recipient`, `content`)."""
    project = tmp_path / "projects" / PROJECT
    team = {"teamName": "impl", "isSidechain": False}
    lead = [
        {
            **spawn_call("tool-1", "Task", subagent_type="qa", name="qa-tester", prompt="Test it."),
            "agentName": "team-lead",
            **team,
        },
        {
            "type": "tool_result",
            "agentName": "team-lead",
            **team,
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "tool-1", "content": "spawned"}],
            },
        },
        {
            **spawn_call(
                "tool-2", "Task", subagent_type="general-purpose", name="implementer", prompt="Fix."
            ),
            "agentName": "team-lead",
            **team,
        },
        {**send("qa-tester", "status?"), "agentName": "team-lead", **team},
    ]
    write_lines(project / "00000000-0000-0000-0000-000000000001.jsonl", lead)
    early_send = assistant(
        tool_use("SendMessage", type="message", recipient="team-lead", content="5 tests pass.")
    )
    write_lines(
        project / "00000000-0000-0000-0000-000000000002.jsonl",
        [{**early_send, "agentName": "qa-tester", **team}],
    )
    result = scan(tmp_path / "projects")
    (agent,) = result.agents
    assert (agent.name, agent.layout, agent.delivered, agent.messages_from_lead) == (
        "qa-tester",
        "process",
        "SendMessage",
        1,
    )
    assert agent.report is not None and load(agent.report) == "5 tests pass."
    assert agent.agent_type == "qa" and agent.tool_use_id == "tool-1"
    assert [m.name for m in result.missing] == ["implementer"]


def test_old_layout_agent_files_beside_the_sessions_are_not_sessions(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_lines(root / PROJECT / "agent-af1ff21.jsonl", [{**assistant(text("old")), "isSidechain": True}])
    lead_only(root, [user_text("hi")])
    result = scan(root)
    assert (result.sessions, result.agents) == (1, ())
