"""The run memo: an unchanged project is answered from the last run's findings; any change to a
file, the list of files or the settings runs the linter again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import run_cli, write_project
from spawnlint import engine

AGENT = "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
COMMAND = '# Go\n\n```\nAgent(subagent_type: "critic", name: "c1", prompt: "p")\n```\n'


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("spawnlint.cache.RACY_NS", 0)  # the tree is written just now
    return write_project(tmp_path / "proj", {"agents/critic.md": AGENT, "commands/go.md": COMMAND})


def _lints(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    real = engine.lint

    def counting(root: Path, *args: object, **kw: object) -> engine.Result:
        calls.append(root)
        return real(root, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "lint", counting)
    return calls


def test_an_unchanged_project_is_answered_from_the_memo(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_cli("check", "--root", str(tree))
    calls = _lints(monkeypatch)
    second = run_cli("check", "--root", str(tree))
    assert calls == [] and second.out == first.out and second.code == first.code == 1
    assert "SL101" in second.out and "SL201" in second.out


@pytest.mark.parametrize("change", ["edit", "add", "remove", "settings", "suppress"])
def test_any_change_runs_the_linter_again(tree: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    run_cli("check", "--root", str(tree))
    calls = _lints(monkeypatch)
    command = tree / "commands" / "go.md"
    if change == "edit":
        command.write_text(COMMAND.replace('name: "c1", ', ""))
    elif change == "add":
        (tree / "commands" / "more.md").write_text(COMMAND)
    elif change == "remove":
        command.unlink()
    elif change == "settings":
        (tree / ".spawnlint.toml").write_text('ignore = ["SL201"]\n')
    else:
        command.write_text("<!-- spawnlint: ignore-file -->\n" + COMMAND)
    after = run_cli("check", "--root", str(tree))
    assert len(calls) == 1
    assert after.out == run_cli("check", "--root", str(tree), "--no-cache").out


def test_a_rewrite_keeping_size_and_mtime_is_seen(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command = tree / "commands" / "go.md"
    before = os.stat(command)
    run_cli("check", "--root", str(tree))
    command.write_text(COMMAND.replace('"c1"', '"c2"'))
    os.utime(command, ns=(before.st_atime_ns, before.st_mtime_ns))
    out = run_cli("check", "--root", str(tree)).out
    assert '"c2"' in out and '"c1"' not in out


def test_files_changed_moments_ago_keep_the_memo_out(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spawnlint.cache.RACY_NS", 10**18)  # every file is "just written"
    run_cli("check", "--root", str(tree))
    calls = _lints(monkeypatch)
    run_cli("check", "--root", str(tree))
    assert len(calls) == 1
    assert not list((tree.parent / "cache").glob("*.run"))


def test_a_corrupt_memo_is_ignored(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_cli("check", "--root", str(tree)).out
    (run_file,) = (tree.parent / "cache").glob("*.run")
    run_file.write_bytes(b"\x80\x05garbage")
    calls = _lints(monkeypatch)
    assert run_cli("check", "--root", str(tree)).out == first and len(calls) == 1


def test_no_cache_neither_reads_nor_writes_the_memo(tree: Path) -> None:
    run_cli("check", "--root", str(tree), "--no-cache")
    assert not list((tree.parent / "cache").glob("*.run"))


def test_options_apply_to_a_remembered_run(tree: Path) -> None:
    run_cli("check", "--root", str(tree))
    only = run_cli("check", "--root", str(tree), "--select", "SL201")
    assert [line.split()[1] for line in only.lines] == ["SL201"]
    paths = run_cli("check", "--root", str(tree), str(tree / "agents" / "critic.md"))
    assert [line.split()[1] for line in paths.lines] == ["SL101"]  # related to the agent
