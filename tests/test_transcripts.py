"""`spawnlint transcripts`: mute teammates found, their last text recovered, streaming reads."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, run_cli
from spawnlint.transcripts import AgentTranscript, bounded_lines, load, safe_name, scan
from transcript_fixture import (
    MUTE_ANSWER,
    PROJECT,
    SESSION,
    assistant,
    teammate_meta,
    text,
    tool_result,
    tool_use,
    write_agent,
    write_field_report,
    write_three_agents,
)


def report_of(agent: AgentTranscript) -> str | None:
    return load(agent.report) if agent.report is not None else None


@pytest.fixture
def three(tmp_path: Path) -> Path:
    return write_three_agents(tmp_path / "projects")


def test_json_reports_mute_teammate_with_its_last_text(three: Path) -> None:
    run = run_cli("transcripts", str(three), "--output-format", "json")
    assert run.code == 0, run.err
    items = {(i["kind"], i["name"]): i for i in json.loads(run.out)["agents"]}
    assert set(items) == {("teammate", "critic-1"), ("teammate", "scout"), ("subagent", None)}
    mute = items["teammate", "critic-1"]
    assert mute["delivered"] == "lost" and mute["mute"] is True and mute["replies"] == 0
    assert mute["report"] == MUTE_ANSWER and mute["report_source"] == "last text"
    assert (mute["agent_type"], mute["session"], mute["project"]) == ("shop:critic", SESSION, PROJECT)
    assert mute["tool_calls"] == 3000 and mute["malformed_lines"] == 1
    scout = items["teammate", "scout"]
    assert scout["delivered"] == "SendMessage" and scout["mute"] is False and scout["replies"] == 1
    assert scout["report"] == "Found 3 TODOs."
    subagent = items["subagent", None]
    assert subagent["mute"] is False and subagent["agent_type"] == "general-purpose"
    assert subagent["delivered"] == "final text"


def test_text_names_the_mute_teammate_and_shows_its_answer(three: Path) -> None:
    out = run_cli("transcripts", str(three)).out
    lost_part, delivered_part = out.split("Delivered (2)")
    assert "Lost: the lead never got these answers (1)" in lost_part
    assert "  critic-1: mute teammate (shop:critic), 0 reminders from the lead, 0 replies; its answer:" in out
    assert f"    session {PROJECT}/{SESSION}, agent id a1b2c3, transcript" in lost_part
    assert (
        "      | 1. `charge()` is called before the stock check: a failed check leaves a paid order." in out
    )
    assert "(3,000 tool calls)" in lost_part
    assert "  scout: teammate (shop:scout), reported with SendMessage (1 call)" in delivered_part
    assert "  agent 0a0b0c: subagent (general-purpose), its final text was its return value" in delivered_part
    assert "Skipped 1 malformed line and 0 lines over the 16 MiB line cap." in delivered_part


def test_recover_writes_one_file_per_mute_teammate(three: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "recovered"
    run = run_cli("transcripts", str(three), "--recover", str(outdir))
    assert run.code == 0
    files = sorted(p.name for p in outdir.iterdir())
    assert files == [f"{SESSION}--critic-1.md"]
    assert (outdir / files[0]).read_text("utf-8") == MUTE_ANSWER + "\n"
    assert f"recovered to {outdir / files[0]}" in run.out


def test_recover_file_names_cannot_escape_outdir(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    for agent_id, name in (("x1", "../../etc/passwd"), ("x2", "..")):
        write_agent(root, agent_id, teammate_meta(name, "t"), [assistant(text(f"answer {agent_id}"))], "../s")
    outdir = tmp_path / "out"
    assert run_cli("transcripts", str(root), "--recover", str(outdir)).code == 0
    written = sorted(p.name for p in outdir.iterdir())
    assert written == ["s--etc_passwd.md", "s--unnamed.md"]
    assert list(tmp_path.glob("etc*")) == [] and not (tmp_path / "s--etc_passwd.md").exists()


def test_safe_name() -> None:
    assert safe_name("../a/b\\c") == "a_b_c"
    assert safe_name("..") == "unnamed"
    assert safe_name("\x1b[2J") == "2J"


def test_same_session_and_name_twice_get_distinct_files(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    for agent_id in ("aa", "bb"):
        write_agent(root, agent_id, teammate_meta("critic", "t"), [assistant(text(f"answer {agent_id}"))])
    outdir = tmp_path / "out"
    run_cli("transcripts", str(root), "--recover", str(outdir))
    contents = sorted(p.read_text("utf-8") for p in outdir.iterdir())
    assert contents == ["answer aa\n", "answer bb\n"]


def test_control_characters_in_transcripts_are_escaped(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(
        root, "e1", teammate_meta("c\x1b]0;pwned\x07", "t\x1b[2J"), [assistant(text("ok\x1b[31m red"))]
    )
    out = run_cli("transcripts", str(root)).out
    assert "\x1b" not in out and "\x07" not in out
    assert "ok\\x1b[31m red" in out and "c\\x1b]0;pwned\\x07" in out


def test_teammate_by_spawn_depth_zero_and_last_text_is_last_nonempty_text(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    lines: list[dict[str, object] | str] = [
        assistant(text("first")),
        assistant(text("final answer"), tool_use("Read")),
        assistant(text("   ")),
        "[1, 2]",
        "",
        {"type": "assistant", "message": {"content": "not a list"}},
        {"type": "assistant", "message": None},
    ]
    write_agent(root, "z9", {"agentType": "worker", "spawnDepth": 0, "name": "w"}, lines)
    (agent,) = scan(root).agents
    assert agent.kind == "teammate" and agent.mute
    assert report_of(agent) == "not a list" and agent.malformed_lines == 1 and agent.tool_calls == 1


def test_missing_transcript_and_bad_meta_do_not_stop_the_scan(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    write_agent(root, "ok", teammate_meta("good", "t"), [assistant(text("answer"))])
    folder = root / PROJECT / SESSION / "subagents"
    (folder / "agent-bad.meta.json").write_text("{not json", encoding="utf-8")
    (folder / "agent-list.meta.json").write_text("[]", encoding="utf-8")
    (folder / "agent-lone.meta.json").write_text(json.dumps(teammate_meta("lone", "t")), encoding="utf-8")
    os.mkfifo(folder / "agent-fifo.meta.json")
    result = scan(root)
    assert {a.name: a.transcript is not None for a in result.agents} == {"good": True, "lone": False}
    assert sorted(p.split(": ")[1] for p in result.problems) == [
        "not a JSON object; skipped",
        "not a regular file; skipped",
        "not valid JSON; skipped",
    ]
    out = run_cli("transcripts", str(root)).out
    assert "no transcript beside its meta file" in out and "lone: mute teammate" in out


def test_meta_files_found_at_any_depth(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    deep = root / "a" / "b" / "c" / "sess" / "subagents"
    deep.mkdir(parents=True)
    (deep / "agent-q.meta.json").write_text(json.dumps(teammate_meta("deep", "t")), encoding="utf-8")
    (deep / "agent-q.jsonl").write_text(json.dumps(assistant(text("deep answer"))) + "\n", encoding="utf-8")
    (agent,) = scan(root).agents
    assert (agent.project, agent.session, report_of(agent)) == ("a/b/c", "sess", "deep answer")


def test_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli("transcripts", str(tmp_path / "nowhere"))
    assert run.code == 2 and "not a directory" in run.err


def test_bounded_lines_skips_a_line_over_the_cap_without_holding_it() -> None:
    data = b"short\n" + b"x" * 100 + b"\n" + b"y" * 10 + b"\nlast"
    assert list(bounded_lines(io.BytesIO(data), 20)) == [
        (0, b"short\n"),
        (6, None),
        (107, b"y" * 10 + b"\n"),
        (118, b"last"),
    ]
    assert list(bounded_lines(io.BytesIO(b"z" * 50), 20)) == [(0, None)]
    assert list(bounded_lines(io.BytesIO(b"a" * 20 + b"\n"), 20)) == [(0, b"a" * 20 + b"\n")]


def test_oversized_line_is_counted_and_the_rest_still_read(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    big = json.dumps(assistant(text("x" * 5000)))
    write_agent(root, "o1", teammate_meta("o", "t"), [big, assistant(text("after the big line"))])
    (agent,) = scan(root, line_cap=1000).agents
    assert agent.oversized_lines == 1 and report_of(agent) == "after the big line"


# Memory: the scan runs as a real CLI process under a clean parent that reports its children's
# peak RSS (pytest's own process has other children, so its RUSAGE_CHILDREN would mislead).
_PEAK_RSS = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "spawnlint", "transcripts", sys.argv[1], "--output-format", "json"],
               stdout=open(sys.argv[2], "w"), check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
_MIB = 1024 * 1024
_RSS_BOUND_KIB = 120 * 1024  # the whole CLI process; reading either file whole would need > 300 MiB


def _peak_rss_kib(root: Path, tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    report = tmp_path / "report.json"
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _PEAK_RSS, str(root), str(report)],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        shutil.rmtree(root)  # 300 MiB must not linger in pytest's kept temporary folders
    return int(proc.stdout), json.loads(report.read_text("utf-8"))["agents"]


def _big_transcript(tmp_path: Path, write_body: Callable[[IO[bytes]], None]) -> Path:
    root = tmp_path / "projects"
    path = write_agent(root, "big", teammate_meta("big", "shop:critic"), [])
    with open(path, "wb") as out:
        write_body(out)
        out.write(json.dumps(assistant(text("the answer after 300 MiB"))).encode() + b"\n")
    return root


def test_memory_stays_bounded_on_a_300_mib_transcript(tmp_path: Path) -> None:
    payload = "x" * (_MIB - 200)
    line = json.dumps(tool_result(payload)).encode() + b"\n"

    def body(out: IO[bytes]) -> None:
        for i in range(303):
            out.write(line)
            if i % 3 == 0:
                out.write(json.dumps(assistant(tool_use("Read", file_path=f"f{i}"))).encode() + b"\n")
        out.write(b'{"broken": \n')

    root = _big_transcript(tmp_path, body)
    assert (root / PROJECT / SESSION / "subagents" / "agent-big.jsonl").stat().st_size > 300 * _MIB
    peak, items = _peak_rss_kib(root, tmp_path)
    (item,) = items
    assert item["report"] == "the answer after 300 MiB" and item["tool_calls"] == 101
    assert item["malformed_lines"] == 1 and item["oversized_lines"] == 0
    assert peak < _RSS_BOUND_KIB, f"peak RSS {peak} KiB"


def test_memory_stays_bounded_on_one_300_mib_line(tmp_path: Path) -> None:
    def body(out: IO[bytes]) -> None:
        out.write(b'{"type": "assistant", "message": {"content": [{"type": "text", "text": "')
        chunk = b"y" * _MIB
        for _ in range(300):
            out.write(chunk)
        out.write(b'"}]}}\n')

    peak, items = _peak_rss_kib(_big_transcript(tmp_path, body), tmp_path)
    (item,) = items
    assert item["oversized_lines"] == 1 and item["report"] == "the answer after 300 MiB"
    assert peak < _RSS_BOUND_KIB, f"peak RSS {peak} KiB"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_on_a_terminal_for_a_long_scan(three: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spawnlint.cli
    import spawnlint.transcripts

    clock = iter(range(0, 10_000))
    monkeypatch.setattr(
        spawnlint.transcripts.time, "monotonic", lambda: float(next(clock))
    )  # each call: 1 s later
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    for name in ("CI", "GITHUB_ACTIONS", "PRE_COMMIT"):  # a person at a terminal, not a CI log
        monkeypatch.delenv(name, raising=False)
    assert spawnlint.cli.main(["transcripts", str(three), "--output-format", "json"]) == 0
    err = terminal.getvalue()
    assert "\rscanning 1/3 transcripts" in err and "\rscanning 3/3 transcripts" in err
    assert err.endswith("\r\x1b[K")  # the line is cleared before the report


def test_no_progress_line_when_stderr_is_not_a_terminal(three: Path) -> None:
    assert run_cli("transcripts", str(three)).err == ""


def test_no_progress_line_in_ci_even_on_a_terminal(three: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spawnlint.cli

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("CI", "true")
    assert spawnlint.cli.main(["transcripts", str(three), "--output-format", "json"]) == 0
    assert "scanning" not in terminal.getvalue()


def test_recover_into_an_unwritable_place_is_a_usage_error(three: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = run_cli("transcripts", str(three), "--recover", str(blocker / "out"))
    assert run.code == 2 and "--recover" in run.err


def test_readme_example_is_the_real_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_field_report(tmp_path / "projects")
    monkeypatch.chdir(tmp_path)
    out = run_cli("transcripts", "projects", "--recover", "recovered").out
    readme = (REPO / "README.md").read_text("utf-8")
    assert f"```text\n{out}```" in readme, "rerun the README's transcripts example and paste its output"


_KEYS = ["type", "message", "content", "text", "name", "role", "assistant", "tool_use", "SendMessage"]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.sampled_from(_KEYS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(_JSON | st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ")), max_size=8))
def test_any_transcript_lines_are_scanned_without_crashing(tmp_path: Path, records: list[object]) -> None:
    root = tmp_path / "fuzz"
    shutil.rmtree(root, ignore_errors=True)
    path = write_agent(root, "f", teammate_meta("f", "t"), [])
    path.write_bytes(
        b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in records)
    )
    (agent,) = scan(root).agents
    assert agent.records + agent.malformed_lines <= len(records)
    assert report_of(agent) is None or isinstance(report_of(agent), str)
