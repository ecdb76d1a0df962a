"""Large projects stay linear: the unknown-target hint of SL301 does not compare every value
with every alias once there are many, and still names the close agent of the value's plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import write_project
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.rules import targets

AGENT = "---\nname: {name}\ndescription: d\ntools: Read, SendMessage\n---\nReport with SendMessage.\n"


def _marketplace(root: Path, plugins: int) -> Path:
    files: dict[str, str | bytes] = {}
    for n in range(plugins):
        files[f"plugins/p{n}/.claude-plugin/plugin.json"] = f'{{"name": "p{n}"}}'
        for name in ("critic", "scout"):
            files[f"plugins/p{n}/agents/{name}.md"] = AGENT.format(name=name)
    files["plugins/p3/commands/go.md"] = 'Use the Task tool with `subagent_type: "p3:critc"`.\n'
    files["plugins/p3/commands/other.md"] = 'Use the Task tool with `subagent_type: "nowhere:scuot"`.\n'
    return write_project(root, files)


def test_the_hint_names_the_close_agent_of_the_same_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _marketplace(tmp_path, plugins=12)
    found = []
    for limit in (10_000, 5):  # every alias compared, then the by-name search of large projects
        monkeypatch.setattr(targets, "_EXHAUSTIVE_ALIASES", limit)
        diagnostics = lint(root, Settings(), use_cache=False).diagnostics
        found.append({d.path: d.message for d in diagnostics if d.code == "SL301"})
    exhaustive, by_name = found
    for messages in found:
        assert 'did you mean "p3:critic"' in messages["plugins/p3/commands/go.md"]
    assert by_name["plugins/p3/commands/other.md"] == exhaustive["plugins/p3/commands/other.md"]
