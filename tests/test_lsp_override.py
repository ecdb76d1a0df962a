"""The content-override seam: lint the project with some files' bytes taken from a mapping (an
editor's unsaved buffers) instead of the disk, and never let those bytes into the parse cache."""

from __future__ import annotations

from pathlib import Path

from conftest import write_project
from spawnlint import engine
from spawnlint.config import Settings
from spawnlint.focus import wanted

COMMAND = """---
description: Review the plan.
---

Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an `in_process_teammate`, whose final answer never returns to this command.

```
Agent(subagent_type: "shop:critic", name: "critic-1", prompt: "Review the plan.")
```
"""
MUTE = "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\n\nReview the plan.\n"
REPORTS = MUTE.replace("tools: Read, Grep", "tools: Read, Grep, SendMessage")


def _plugin(root: Path) -> Path:
    return write_project(
        root,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "commands/review.md": COMMAND,
            "agents/critic.md": MUTE,
        },
    )


def _codes(result: engine.Result) -> list[tuple[str, str]]:
    return [(d.path, d.code) for d in result.diagnostics]


def test_an_override_replaces_the_disk_bytes_of_that_file_only(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    assert ("commands/review.md", "SL101") in _codes(engine.lint(root, Settings(), use_cache=False))
    fixed = engine.lint(root, Settings(), use_cache=False, overrides={"agents/critic.md": REPORTS.encode()})
    assert ("commands/review.md", "SL101") not in _codes(fixed)
    assert "SendMessage" in str(fixed.project.files["agents/critic.md"])


def test_overridden_bytes_never_reach_the_cache_and_the_cache_never_answers_for_them(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    before = _codes(engine.lint(root, Settings()))  # fills the cache with the disk's parse
    assert ("commands/review.md", "SL101") in before
    overridden = engine.lint(root, Settings(), overrides={"agents/critic.md": REPORTS.encode()})
    assert ("commands/review.md", "SL101") not in _codes(overridden)
    assert _codes(engine.lint(root, Settings())) == before  # the disk's file is linted again


def test_an_override_with_a_focused_run(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    engine.lint(root, Settings())
    broken = COMMAND.replace('subagent_type: "shop:critic"', 'subagent_type: "shop:nobody"')
    focused = engine.lint(
        root,
        Settings(),
        focus=wanted(("commands/review.md",)),
        overrides={"commands/review.md": broken.encode()},
    )
    assert ("commands/review.md", "SL301") in _codes(focused)
    assert ("commands/review.md", "SL301") not in _codes(engine.lint(root, Settings()))


def test_an_override_of_a_python_file_and_of_unreadable_bytes(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    (root / "hooks").mkdir()
    (root / "hooks/run.py").write_text("print('hello')\n")
    spawning = 'Agent(subagent_type="shop:nobody", name="x", prompt="go")\n'
    result = engine.lint(root, Settings(), overrides={"hooks/run.py": spawning.encode()})
    assert ("hooks/run.py", "SL301") in _codes(result)
    binary = engine.lint(root, Settings(), overrides={"agents/critic.md": b"\x00\xff" * 10})
    assert any(d.path == "agents/critic.md" and d.code.startswith("SL00") for d in binary.diagnostics)


def test_an_override_of_a_path_the_project_does_not_hold_is_ignored(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    result = engine.lint(root, Settings(), overrides={"notes/elsewhere.txt": b"Agent(name: x)"})
    assert _codes(result) == _codes(engine.lint(root, Settings()))


def test_an_unsaved_manifest_is_read_from_its_buffer(tmp_path: Path) -> None:
    """The plugin.json the editor holds decides the plugin, as on disk: a broken one is SL004 at
    once, a renamed plugin no longer owns `shop:critic`."""
    root = _plugin(tmp_path)
    broken = engine.lint(
        root, Settings(), use_cache=False, overrides={".claude-plugin/plugin.json": b'{"name": "shop",}'}
    )
    assert (".claude-plugin/plugin.json", "SL004") in _codes(broken)
    assert ("commands/review.md", "SL101") in _codes(broken)  # the name a broken file spells
    renamed = engine.lint(
        root, Settings(), use_cache=True, overrides={".claude-plugin/plugin.json": b'{"name": "mall"}'}
    )
    assert ("commands/review.md", "SL101") not in _codes(renamed)
    assert ("commands/review.md", "SL301") in _codes(renamed)
    again = engine.lint(root, Settings(), use_cache=True)  # the disk's manifest, not the buffer's
    assert ("commands/review.md", "SL101") in _codes(again) and ("commands/review.md", "SL301") not in _codes(
        again
    )
