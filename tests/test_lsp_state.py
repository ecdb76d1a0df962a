"""The language server's project state with unsaved manifest and configuration buffers: what the
editor holds counts before it is saved (issue 23 item 2)."""

from __future__ import annotations

from pathlib import Path

from conftest import write_project
from spawnlint.lsp.state import ProjectState

COMMAND = (
    "# Review\n\nSpawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
    "`in_process_teammate`, whose final answer never returns to this command.\n\n"
    '```\nAgent(subagent_type: "shop:critic", name: "c1", prompt: "Review it.")\n```\n'
)
AGENT = "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\n\nReview.\n"


def _state(tmp_path: Path) -> ProjectState:
    root = write_project(
        tmp_path,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "commands/review.md": COMMAND,
            "agents/critic.md": AGENT,
        },
    )
    return ProjectState(root.resolve())


def _codes(state: ProjectState) -> set[tuple[str, str]]:
    state.lint()
    return {(path, d.code) for path, found in state.findings.items() for d in found}


def test_an_unsaved_plugin_json_is_linted_as_typed(tmp_path: Path) -> None:
    state = _state(tmp_path)
    assert _codes(state) == {("commands/review.md", "SL101")}
    state.buffers[".claude-plugin/plugin.json"] = '{"name": "shop",}'
    assert (".claude-plugin/plugin.json", "SL004") in _codes(state)
    state.buffers[".claude-plugin/plugin.json"] = '{"name": "mall"}'
    assert ("commands/review.md", "SL301") in _codes(state)
    del state.buffers[".claude-plugin/plugin.json"]
    assert _codes(state) == {("commands/review.md", "SL101")}


def test_an_unsaved_configuration_is_read_as_typed(tmp_path: Path) -> None:
    state = _state(tmp_path)
    state.buffers[".spawnlint.toml"] = 'ignore = ["SL101"]\n'
    state.reload_settings()
    assert _codes(state) == set()
    state.buffers[".spawnlint.toml"] = "ignore = [\n"
    state.reload_settings()
    assert state.config_error is not None and state.config_error[0] == ".spawnlint.toml"
    del state.buffers[".spawnlint.toml"]
    state.reload_settings()
    assert state.config_error is None and _codes(state) == {("commands/review.md", "SL101")}
