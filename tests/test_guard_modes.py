"""The guard's rewrite mode (`[guard] mode = "rewrite"`), calls from inside a subagent or teammate
(`agent_id` in the hook input), and a standard input that is never closed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_guard
from spawnlint.config import ConfigError, load_settings, show
from spawnlint.guard import hook
from spawnlint.guard.stdin import read_payload, threaded_chunks
from test_guard import assert_allowed_silently, assert_allowed_with_note, run_guard, spawn

# test_guard's fixtures, shared: a HOME of its own for every test (autouse), and the shop plugin
home = test_guard.home
shop = test_guard.shop

REWRITE = '[tool.spawnlint.guard]\nmode = "rewrite"\n'


def decision(out: str) -> dict[str, Any]:
    document = json.loads(out)
    assert list(document) == ["hookSpecificOutput"]
    block: dict[str, Any] = document["hookSpecificOutput"]
    return block


# --- rewrite mode -----------------------------------------------------------------------------


def test_rewrite_mode_allows_the_call_without_name_in_the_documented_shape(shop: Path) -> None:
    (shop / "pyproject.toml").write_text(REWRITE)
    payload = spawn(shop, subagent_type="shop:critic", name="critic-1", model="opus", run_in_background=True)
    result = run_guard(payload)
    assert result.code == 0 and result.err == ""
    block = decision(result.out)
    assert list(block) == [
        "hookEventName",
        "permissionDecision",
        "permissionDecisionReason",
        "updatedInput",
        "additionalContext",
    ]
    assert (block["hookEventName"], block["permissionDecision"]) == ("PreToolUse", "allow")
    # updatedInput replaces the whole input: every other field is kept as sent
    assert block["updatedInput"] == {
        "description": "Review",
        "prompt": "Review the plan.",
        "subagent_type": "shop:critic",
        "model": "opus",
        "run_in_background": True,
    }
    context = block["additionalContext"]
    assert 'without its `name` parameter: `name: "critic-1"` would spawn agent "shop:critic"' in context
    assert "in_process_teammate" in context and "its tools (Read, Grep) lack SendMessage" in context
    assert "comes back to you as this call's tool result" in context
    assert 'do not address "critic-1" with SendMessage' in context
    assert block["permissionDecisionReason"].startswith("spawnlint guard removed `name` from this Agent call")


def test_rewrite_mode_rewrites_the_untold_spawn_too(shop: Path) -> None:
    (shop / ".spawnlint.toml").write_text('[guard]\nmode = "rewrite"\n')
    block = decision(run_guard(spawn(shop, "Task", subagent_type="shop:helper", name="h1")).out)
    assert block["permissionDecision"] == "allow" and "name" not in block["updatedInput"]
    assert (
        "neither the prompt nor the agent's definition tells it to use SendMessage"
        in block["additionalContext"]
    )


def test_rewrite_mode_leaves_calls_the_guard_would_allow_alone(shop: Path) -> None:
    (shop / "pyproject.toml").write_text(REWRITE)
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:reporter", name="r")))
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:critic")))
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="shop:nobody", name="n")), "shop:nobody")


def test_default_mode_still_denies(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint.guard]\nmode = "deny"\n')
    block = decision(run_guard(spawn(shop, subagent_type="shop:critic", name="c")).out)
    assert list(block) == ["hookEventName", "permissionDecision", "permissionDecisionReason"]
    assert block["permissionDecision"] == "deny"


@pytest.mark.parametrize("table", ['mode = "fix"', "mode = 1", 'other = "x"'])
def test_a_bad_guard_mode_is_a_configuration_error(tmp_path: Path, table: str) -> None:
    (tmp_path / ".spawnlint.toml").write_text(f"[guard]\n{table}\n")
    with pytest.raises(ConfigError, match="guard"):
        load_settings(tmp_path)


def test_guard_mode_is_shown_with_the_settings(tmp_path: Path) -> None:
    (tmp_path / ".spawnlint.toml").write_text('[guard]\nmode = "rewrite"\n')
    assert "guard.mode = 'rewrite'\n" in show(load_settings(tmp_path))


def test_a_bad_guard_mode_never_blocks_the_call(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint.guard]\nmode = "fix"\n')
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="shop:critic", name="c")), "guard.mode")


# --- a call from inside a subagent or teammate ------------------------------------------------


def inside(payload: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "agent_id": "a1f2e3d4c5b6", "agent_type": "shop:lead"}


def test_a_named_call_from_inside_an_agent_is_denied_whatever_the_target(shop: Path) -> None:
    for target in ("shop:reporter", "general-purpose", "shop:nobody"):
        told = "Review, then send the result to team-lead with SendMessage."
        block = decision(run_guard(inside(spawn(shop, subagent_type=target, name="sub-1", prompt=told))).out)
        assert block["permissionDecision"] == "deny", target
        reason = block["permissionDecisionReason"]
        assert "comes from inside a subagent or teammate (agent_id a1f2e3d4c5b6)" in reason
        assert "a teammate cannot spawn named agents" in reason
        assert "WITHOUT the `name` parameter" in reason


def test_a_named_call_from_inside_an_agent_is_rewritten_in_rewrite_mode(shop: Path) -> None:
    (shop / "pyproject.toml").write_text(REWRITE)
    block = decision(run_guard(inside(spawn(shop, subagent_type="shop:reporter", name="sub-1"))).out)
    assert block["permissionDecision"] == "allow"
    assert block["updatedInput"] == {
        "description": "Review",
        "prompt": "Review the plan.",
        "subagent_type": "shop:reporter",
    }
    assert "a teammate cannot spawn named agents" in block["additionalContext"]


def test_an_unnamed_call_from_inside_an_agent_passes(shop: Path) -> None:
    assert_allowed_silently(run_guard(inside(spawn(shop, subagent_type="shop:critic"))))


def test_a_broken_configuration_inside_an_agent_falls_back_to_deny(shop: Path) -> None:
    (shop / "pyproject.toml").write_text("[tool.spawnlint]\nnot-a-key = 1\n")
    block = decision(run_guard(inside(spawn(shop, subagent_type="shop:critic", name="c"))).out)
    assert block["permissionDecision"] == "deny"


# --- standard input that is never closed ------------------------------------------------------


class OpenPipe:
    """A pipe whose write end stays open until the test ends: as Claude Code may leave it."""

    def __init__(self, data: bytes) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.write(self.write_fd, data)
        self.reader = os.fdopen(self.read_fd, "rb", buffering=0)

    def close(self) -> None:
        os.close(self.write_fd)
        self.reader.close()


@pytest.fixture
def open_pipe() -> Iterator[Any]:
    pipes: list[OpenPipe] = []

    def make(data: bytes) -> OpenPipe:
        pipes.append(OpenPipe(data))
        return pipes[-1]

    yield make
    for pipe in pipes:
        pipe.close()


def hook_on(stream: Any, wait: float = 30.0) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert hook.run_hook(stream, out, err, wait=wait) == 0
    return out.getvalue(), err.getvalue()


def test_answers_once_a_whole_object_arrived_though_stdin_stays_open(shop: Path, open_pipe: Any) -> None:
    pipe = open_pipe(json.dumps(spawn(shop, subagent_type="shop:critic", name="c")).encode())
    out, err = hook_on(pipe.reader)  # a 30 s wait: returning at all shows it did not wait for EOF
    assert err == "" and decision(out)["permissionDecision"] == "deny"


def test_allows_with_one_line_when_no_whole_value_arrives(open_pipe: Any) -> None:
    pipe = open_pipe(b'{"tool_name": "Agent", "tool_input": {"name": "c"')
    out, err = hook_on(pipe.reader, wait=0.2)
    assert (
        out == "" and err == "spawnlint guard: no complete JSON value on stdin within 0.2 s; call allowed\n"
    )


def test_nothing_at_all_on_an_open_stdin_is_allowed(open_pipe: Any) -> None:
    out, err = hook_on(open_pipe(b"").reader, wait=0.1)
    assert out == "" and "no complete JSON value" in err


def test_the_first_value_decides_and_what_follows_is_ignored(shop: Path) -> None:
    first = json.dumps(spawn(shop, subagent_type="shop:critic", name="c")).encode()
    out, _ = hook_on(io.BytesIO(b"\n  " + first + b"\n{not json at all"))
    assert decision(out)["permissionDecision"] == "deny"


def test_a_value_split_across_writes_is_read_whole(shop: Path) -> None:
    data = json.dumps(spawn(shop, subagent_type="shop:critic", name="c", prompt="é" * 3000)).encode()
    read_fd, write_fd = os.pipe()

    def writer() -> None:
        for start in range(0, len(data), 1000):  # ends mid-character and mid-object
            os.write(write_fd, data[start : start + 1000])

    thread = threading.Thread(target=writer)
    thread.start()
    with os.fdopen(read_fd, "rb", buffering=0) as reader:
        payload = read_payload(reader, wait=30.0)
    thread.join()
    os.close(write_fd)
    assert payload.problem is None and isinstance(payload.value, dict)
    assert payload.value["tool_input"]["prompt"] == "é" * 3000


def test_the_threaded_reader_used_on_windows_stops_at_the_first_value_and_at_the_wait(open_pipe: Any) -> None:
    pipe = open_pipe(b'{"a": 1}')
    chunks = threaded_chunks(pipe.read_fd, 30.0)
    assert next(chunks) == b'{"a": 1}'
    idle = open_pipe(b"")
    assert list(threaded_chunks(idle.read_fd, 0.1)) == [None]


@pytest.mark.parametrize(
    ("data", "value", "problem"),
    [
        (b'{"a": [1, 2]} trailing', {"a": [1, 2]}, None),
        (b"\xef\xbb\xbf[1]", [1], None),
        (b"42", 42, None),
        (b'"text"', "text", None),
        (b"", None, "hook input is not JSON"),
        (b"{", None, "hook input is not JSON"),
        (b"[" * 100_000, None, "hook input is not JSON"),
        (b"\xff{}", None, "hook input is not JSON"),
    ],
)
def test_read_payload_on_ended_input(data: bytes, value: object, problem: str | None) -> None:
    assert tuple(read_payload(io.BytesIO(data))) == (value, problem)


def test_a_payload_over_the_cap_is_allowed_unread() -> None:
    assert read_payload(io.BytesIO(b" " * 100), cap=50).problem == "hook input is too large to read"


def test_console_script_answers_with_stdin_left_open(shop: Path, home: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "spawnlint", "guard"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(spawn(shop, subagent_type="shop:critic", name="c")).encode())
    process.stdin.flush()  # and never closed until the answer is in
    answer = process.stdout.readline()
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert decision(answer.decode())["permissionDecision"] == "deny"
