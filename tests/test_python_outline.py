"""The outline (python_outline.py) lets a Python file skip libcst only when libcst's reading
would find nothing in it: no spawn site, no agent, no problem. Checked on every Python file of
the repository, on hand-written traps, and on generated modules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from spawnlint.config import load_settings
from spawnlint.discover import Plugin, SourceFile
from spawnlint.engine import parse_data
from spawnlint.model import FileKind
from spawnlint.parse import python_could_spawn
from spawnlint.parse.python import parse_python
from spawnlint.parse.python_outline import needs_cst

CALLABLES = ("Agent", "Task")
# Public plugin repositories, where a machine has them (not in CI): see test_fast_blocks.py.
# Local snapshots of public plugin repositories, when a developer points at them (never in CI)
REAL_TREES = [Path(p) for p in os.environ.get("SPAWNLINT_REAL_TREES", "").split(os.pathsep) if p]
PYTHON_FILES = sorted(
    p for folder in ("src", "tests", "bench") for p in (REPO / folder).rglob("*.py") if ".venv" not in p.parts
)


def _finds_something(text: str) -> bool:
    parsed = parse_python("x.py", text, CALLABLES)
    return bool(parsed.sites or parsed.agents or parsed.problems)


@pytest.mark.parametrize("path", PYTHON_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_file_the_outline_clears_gives_libcst_nothing(path: Path) -> None:
    text = path.read_text("utf-8")
    if not needs_cst(text, CALLABLES):
        assert not _finds_something(text)


def test_the_repository_gives_the_test_above_files_it_clears() -> None:
    """Files that mention spawning and yet need no libcst, so the test above can fail."""
    texts = [p.read_text("utf-8") for p in PYTHON_FILES]
    cleared = [t for t in texts if python_could_spawn(t, CALLABLES) and not needs_cst(t, CALLABLES)]
    assert len(cleared) >= 10


@pytest.mark.skipif(not any(p.is_dir() for p in REAL_TREES), reason="no real plugin repositories here")
def test_no_python_file_of_real_repositories_the_outline_clears_gives_libcst_anything() -> None:
    cleared = 0
    for tree in (p for p in REAL_TREES if p.is_dir()):
        for path in sorted(tree.rglob("*.py")):
            try:
                text = path.read_text("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if python_could_spawn(text, CALLABLES) and not needs_cst(text, CALLABLES):  # as the engine asks
                cleared += 1
                assert not _finds_something(text), path
    assert cleared


@pytest.mark.parametrize(
    "text",
    [
        'Agent(subagent_type="critic", prompt="Review it")\n',
        'client.Task(description="d", prompt="p")\n',
        'tools = {"critic": AgentDefinition(description="d", prompt="p", tools=["Read"])}\n',
        'spec = {"subagent_type": "critic", "prompt": "p"}\n',
        'block = {"type": "tool_use", "name": "Agent", "input": {"subagent_type": "x"}}\n',
        'PROMPT = "Spawn the `shop:critic` agent with name: \\"critic-1\\"."\n',
        'PROMPT = "Spawn the " "`shop:critic` agent now."\n',
        'PROMPT = f"Spawn the `shop:critic` agent for {area}."\n',
        'def f(): "Spawn the `shop:critic` agent now."\n',
        "x = " + "[" * 300 + "]" * 300 + "\n",
        "def f(:\n    pass\n",
    ],
)
def test_what_libcst_must_read_is_sent_to_it(text: str) -> None:
    assert _finds_something(text)
    assert needs_cst(text, CALLABLES)


@pytest.mark.parametrize(
    "text",
    [
        'def f():\n    """Spawn the `shop:critic` agent now."""\n',  # a docstring: not scanned
        'PATTERN = r"^\\s*subagent_type:\\s*(\\S+)$"\n',  # the word, but no spawn
        'ParsedAgent(name="x", body="y")\n',  # a callable's name, not a spawn's keywords
        'print("launch the build")\n',
    ],
)
def test_what_libcst_would_find_nothing_in_is_cleared(text: str) -> None:
    assert not _finds_something(text)
    assert not needs_cst(text, CALLABLES)


def test_a_cleared_file_keeps_its_suppressions() -> None:
    text = '"""Spawn the `shop:critic` agent."""\nx = 1  # spawnlint: ignore[SL101]\n'
    settings_ = load_settings(REPO / "examples" / "demo-plugin")
    source = SourceFile("tools/x.py", FileKind.PYTHON, Plugin("", None), None)
    cleared = parse_data(source, text.encode(), settings_)
    assert not isinstance(cleared, str)  # libcst was not asked
    assert cleared == parse_python("tools/x.py", text, settings_.spawn_callables)


_STRINGS = st.sampled_from(
    [
        "Spawn the `shop:critic` agent now.",
        "Use the Task tool with subagent_type: critic and name: c1.",
        "Launch 3 parallel agents:\\n\\n- **code-reviewer**\\n- **critic**\\n",
        "Agent(subagent_type='x', name='y')",
        "delegate to a subagent",
        "run the critical path",
        "plain text with no spawn at all",
        "{",
        "}}",
        "\\\\d+ spawn",
    ]
)


@st.composite
def _modules(draw: st.DrawFn) -> str:
    statements = []
    for _ in range(draw(st.integers(1, 5))):
        s = draw(_STRINGS)
        shape = draw(st.sampled_from(range(11)))
        statements.append(
            [
                f'X = "{s}"',
                f'X = b"{s}"',
                f'X = f"{s} {{y}}"',
                f'X = "{s}" "{s}"',
                f'def f():\n    "{s}"',
                f'def f(): "{s}"',
                f'class C:\n    "{s}"\n    y = "{s}"',
                f'Agent(subagent_type="{s}", prompt="p")',
                f'Helper(name="{s}")',
                f'D = {{"subagent_type": "{s}"}}',
                f'D = {{"type": "tool_use", "name": "Task", "input": {{"prompt": "{s}"}}}}',
            ][shape]
        )
    return "\n".join(statements) + "\n"


@settings(max_examples=300, deadline=None)
@given(_modules())
def test_a_generated_module_the_outline_clears_gives_libcst_nothing(text: str) -> None:
    if not needs_cst(text, CALLABLES):
        assert not _finds_something(text)
