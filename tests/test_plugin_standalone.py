"""The plugin works where spawnlint is not installed: its hook runs the guard from the plugin's own
files with a bare Python (`-S -I`: no site-packages, so no spawnlint, PyYAML, markdown-it-py or
libcst), exactly as hooks/hooks.json runs it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, write_project

BARE = [sys.executable, "-S", "-I"]
CRITIC_PLAIN = "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\nReview the plan.\n"
# A flow list with a quoted entry: the plain reader leaves it to PyYAML.
CRITIC_NEEDS_YAML = '---\nname: critic\ndescription: Reviews.\ntools: [Read, "Grep"]\n---\nReview the plan.\n'


def _hook_command() -> list[str]:
    """The command of hooks/hooks.json, its `python3` the bare interpreter."""
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"][0]["hooks"]
    (command,) = [h["command"] for h in hooks if h["type"] == "command"]
    words = shlex.split(command.replace("${CLAUDE_PLUGIN_ROOT}", str(REPO)))
    assert words[0] == "python3"
    return BARE + words[1:]


def _project(tmp_path: Path, critic: str) -> Path:
    root = write_project(
        tmp_path / "shop",
        {".claude-plugin/plugin.json": '{"name": "shop"}\n', "agents/critic.md": critic},
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _call(root: Path, home: Path, **tool_input: str) -> subprocess.CompletedProcess[str]:
    payload = {
        "hook_event_name": "PreToolUse",
        "cwd": str(root),
        "tool_name": "Agent",
        "tool_input": {"description": "review", "prompt": "Review the plan.", **tool_input},
    }
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "SPAWNLINT_CACHE_DIR": str(home / "cache")}
    return subprocess.run(
        _hook_command(),
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_bare_interpreter_really_has_nothing_installed() -> None:
    for module in ("spawnlint", "yaml", "markdown_it", "libcst"):
        probe = subprocess.run([*BARE, "-c", f"import {module}"], capture_output=True, text=True, check=False)
        assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr, module


def test_the_hook_denies_a_mute_named_spawn_without_anything_installed(tmp_path: Path) -> None:
    root = _project(tmp_path, CRITIC_PLAIN)
    denied = _call(root, tmp_path, subagent_type="shop:critic", name="critic-1")
    assert denied.returncode == 0, denied.stderr
    decision = json.loads(denied.stdout)["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse" and decision["permissionDecision"] == "deny"
    assert "SendMessage" in decision["permissionDecisionReason"]
    unnamed = _call(root, tmp_path, subagent_type="shop:critic")
    assert (unnamed.returncode, unnamed.stdout) == (0, "")


def test_where_only_pyyaml_could_decide_the_hook_allows_and_says_why(tmp_path: Path) -> None:
    root = _project(tmp_path, CRITIC_NEEDS_YAML)
    allowed = _call(root, tmp_path, subagent_type="shop:critic", name="critic-1")
    assert (allowed.returncode, allowed.stdout) == (0, "")
    assert allowed.stderr.startswith("spawnlint guard: ") and "PyYAML is not installed" in allowed.stderr
    assert allowed.stderr.endswith("call allowed\n")


def test_with_pyyaml_the_same_frontmatter_is_judged(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    root = _project(tmp_path, CRITIC_NEEDS_YAML)
    payload = {
        "hook_event_name": "PreToolUse",
        "cwd": str(root),
        "tool_name": "Agent",
        "tool_input": {"subagent_type": "shop:critic", "name": "critic-1", "prompt": "Review."},
    }
    command = [sys.executable, str(REPO / "hooks" / "run_spawnlint.py"), "guard"]
    env = dict(os.environ, HOME=str(tmp_path), SPAWNLINT_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run(
        command, input=json.dumps(payload), capture_output=True, text=True, env=env, check=False
    )
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_plugin_audit_runs_from_the_plugin_files(tmp_path: Path) -> None:
    root = _project(tmp_path, CRITIC_PLAIN)
    (root / "commands").mkdir()
    (root / "commands" / "review.md").write_text(
        '# Review\n\n```\nAgent(subagent_type: "shop:critic", name: "c1", prompt: "x")\n```\n'
    )
    report = tmp_path / "audit.md"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "SPAWNLINT_CACHE_DIR": str(tmp_path / "c"),
    }
    run = subprocess.run(
        [*BARE, str(REPO / "hooks" / "run_spawnlint.py"), "audit", str(root), "-o", str(report), "--summary"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "commands/review.md:4:" in run.stdout
    assert f"is in `{report}`" in run.stdout and "## Plugin `shop`" in report.read_text()


def test_the_audit_command_uses_the_plugin_files_and_names_its_report() -> None:
    text = (REPO / "commands" / "audit.md").read_text()
    assert '"${CLAUDE_PLUGIN_ROOT}/hooks/run_spawnlint.py" audit' in text
    assert "--summary" in text and "-o " in text
