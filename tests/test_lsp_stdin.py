"""`spawnlint check - --stdin-filename PATH`: the buffer on standard input is linted as that file
of the project (the rest of the project is read from disk), through main()."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import run_cli, write_project
from test_lsp_override import COMMAND, MUTE, REPORTS


def _plugin(root: Path) -> Path:
    return write_project(
        root,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "commands/review.md": COMMAND,
            "agents/critic.md": MUTE,
        },
    )


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def _check(
    monkeypatch: pytest.MonkeyPatch, root: Path, data: str, *args: str
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr("sys.stdin", _Stdin(data.encode()))
    run = run_cli("check", "--root", str(root), "--output-format", "json", *args)
    return run.code, json.loads(run.out) if run.out.strip() else []


def test_the_buffer_replaces_the_file_and_the_rest_comes_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _plugin(tmp_path / "p")
    broken = COMMAND.replace("shop:critic", "shop:nobody")
    code, found = _check(monkeypatch, root, broken, "-", "--stdin-filename", str(root / "commands/review.md"))
    assert code == 1  # SL301 in the project's own namespace is an error
    assert {(f["path"], f["code"]) for f in found} == {("commands/review.md", "SL301")}
    # the disk's command still resolves the agent (and is mute): standard input did not touch it
    on_disk = run_cli("check", "--root", str(root), "--output-format", "json")
    assert {f["code"] for f in json.loads(on_disk.out)} == {"SL101"}


def test_an_agent_buffer_clears_the_finding_on_the_command_that_spawns_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _plugin(tmp_path / "p")
    monkeypatch.chdir(root)
    code, found = _check(monkeypatch, root, MUTE, "-", "--stdin-filename", "agents/critic.md")
    assert [(f["path"], f["code"]) for f in found] == [("commands/review.md", "SL101")]
    code, found = _check(monkeypatch, root, REPORTS, "-", "--stdin-filename", "agents/critic.md")
    # it can report now; nothing tells it to (a warning, related to the agent)
    assert (code, [(f["path"], f["code"]) for f in found]) == (0, [("commands/review.md", "SL102")])


def test_a_file_not_yet_on_disk_is_linted_as_a_file_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _plugin(tmp_path / "p")
    spawning = COMMAND.replace("shop:critic", "shop:critc")
    code, found = _check(
        monkeypatch, root, spawning, "-", "--stdin-filename", str(root / "commands/new.md"), "--strict"
    )
    assert code == 1
    assert [(f["path"], f["code"]) for f in found] == [("commands/new.md", "SL301")]
    assert not (root / "commands/new.md").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["-"],  # no file name: the project path decides what the buffer is
        ["-", "commands/review.md", "--stdin-filename", "commands/review.md"],
        ["-", "--stdin-filename", "/elsewhere/review.md"],
        ["-", "--stdin-filename", "commands/review.md", "--fix"],
        ["--stdin-filename", "commands/review.md"],
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    root = _plugin(tmp_path / "p")
    monkeypatch.chdir(root)
    monkeypatch.setattr("sys.stdin", _Stdin(COMMAND.encode()))
    run = run_cli("check", "--root", str(root), *args)
    assert run.code == 2
    assert "spawnlint:" in run.err


def test_standard_input_that_is_not_utf8_is_sl002(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _plugin(tmp_path / "p")
    monkeypatch.setattr("sys.stdin", _Stdin(b"\xff\xfe not utf-8"))
    run = run_cli("check", "--root", str(root), "-", "--stdin-filename", str(root / "commands/review.md"))
    assert "SL002" in run.out
    assert run.code == 1
