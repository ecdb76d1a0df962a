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
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)  # the tree is written just now
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
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 10**18)  # every file is "just written"
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


# Pre-commit passes the changed files; the whole-tree run that follows (an editor's save, CI, a
# second hook) should not read the project again when those files are all that changed.
SKILL = "# Audit\n\nRead `references/steps.md` and do what it says.\n"
STEPS = "# Steps\n\nSpawn the `critic` agent to review the plan.\n"
OTHER = "# Plan\n\nLaunch the `critic` agent with the plan.\n"


@pytest.fixture
def bigger(tree: Path) -> Path:
    for path, text in {
        "skills/audit/SKILL.md": SKILL,
        "skills/audit/references/steps.md": STEPS,
        "commands/plan.md": OTHER,
    }.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    return tree


RULE = (
    "Spawn subagents without the Agent tool's `name` parameter (a named spawn is an in_process_teammate).\n\n"
)


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("commands/go.md", COMMAND.replace('name: "c1", ', "")),  # SL101 goes
        ("commands/plan.md", RULE + OTHER),  # SL201 goes
        ("skills/audit/SKILL.md", RULE + SKILL),  # the unit's SL201, in another file of it, goes
        ("skills/audit/SKILL.md", SKILL + "\nThen dispatch the `critic` agent again.\n"),  # SL201 moves
    ],
)
def test_a_whole_run_after_a_run_given_paths_is_answered_from_the_memo(
    bigger: Path, monkeypatch: pytest.MonkeyPatch, path: str, text: str
) -> None:
    run_cli("check", "--root", str(bigger))
    (bigger / path).write_text(text)
    run_cli("check", "--root", str(bigger), str(bigger / path))
    calls = _lints(monkeypatch)
    whole = run_cli("check", "--root", str(bigger))
    assert calls == []
    assert whole.out == run_cli("check", "--root", str(bigger), "--no-cache").out


@pytest.mark.parametrize(
    ("changed", "given"),
    [
        ("agents/critic.md", "agents/critic.md"),  # an agent: every spawn of it may change
        ("commands/plan.md", "commands/go.md"),  # a change the run given paths did not see
    ],
)
def test_a_run_given_paths_remembers_nothing_it_cannot_vouch_for(
    bigger: Path, monkeypatch: pytest.MonkeyPatch, changed: str, given: str
) -> None:
    run_cli("check", "--root", str(bigger))
    target = bigger / changed
    target.write_text(target.read_text().replace("tools: Read", "tools: Read, SendMessage") + RULE)
    run_cli("check", "--root", str(bigger), str(bigger / given))
    whole = run_cli("check", "--root", str(bigger))
    assert whole.out == run_cli("check", "--root", str(bigger), "--no-cache").out


_PROJECTS = sorted(p for p in (Path(__file__).parent / "projects").iterdir() if p.is_dir())


def _edits(text: str) -> list[str]:
    """Edits that change findings: the rule added, and each line naming a spawn or a name dropped."""
    lines = text.splitlines(keepends=True)
    dropped = [i for i, line in enumerate(lines) if "name" in line or "gent" in line][:2]
    return [RULE + text] + ["".join(lines[:i] + lines[i + 1 :]) for i in dropped]


@pytest.mark.parametrize("fixture", _PROJECTS, ids=[p.name for p in _PROJECTS])
def test_the_merged_memo_equals_a_cold_run_on_every_fixture_project(
    fixture: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command and skill file of each fixture project edited, given alone, then the whole
    tree checked: the findings are those of a run that reads everything afresh."""
    import shutil

    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    root = tmp_path / "proj"
    shutil.copytree(fixture, root, symlinks=True)
    units = sorted(
        p for p in root.rglob("*.md") if ("commands" in p.parts or "skills" in p.parts) and p.is_file()
    )[:3]
    for unit in units:
        try:
            original = unit.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for edited in _edits(original):
            run_cli("check", "--root", str(root))
            unit.write_text(edited, encoding="utf-8")
            run_cli("check", "--root", str(root), str(unit))
            whole = run_cli("check", "--root", str(root), "--output-format", "json")
            cold = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache")
            assert whole.out == cold.out, (unit, edited)
            unit.write_text(original, encoding="utf-8")


def test_a_focused_run_on_a_file_another_unit_follows_is_not_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`commands/init.md` follows `commands/onboard.md`: once onboard stops spawning, init's SL201
    goes too, though the run given onboard's path never read init."""
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    root = write_project(
        tmp_path / "proj",
        {
            "agents/critic.md": AGENT,
            "commands/onboard.md": "# Onboard\n\nLaunch the `critic` agent on the entry points.\n",
            "commands/init.md": "# Init\n\nThen load and follow `commands/onboard.md`.\n",
        },
    )
    first = run_cli("check", "--root", str(root))
    assert any("commands/init.md:3" in line for line in first.lines)
    (root / "commands/onboard.md").write_text("# Onboard\n\nRead the entry points yourself.\n")
    run_cli("check", "--root", str(root), str(root / "commands/onboard.md"))
    whole = run_cli("check", "--root", str(root))
    assert whole.out == run_cli("check", "--root", str(root), "--no-cache").out
    assert not any("commands/init.md" in line for line in whole.lines)
