"""The frontmatter reader's own path for plain `key: value` blocks gives exactly what PyYAML
gives, or steps aside: on generated blocks full of YAML's traps and on every frontmatter of the
repository."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from spawnlint.parse.frontmatter import _plain_mapping, split_frontmatter
from spawnlint.source_lines import split_lines


def _yaml(block: list[str]) -> object:
    try:
        data = yaml.load("\n".join(block), Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return ("error", type(exc).__name__)
    if data is None:
        return {}
    return {str(k): v for k, v in data.items()} if isinstance(data, dict) else ("not a mapping",)


_KEYS = ["name", "description", "tools", "model", "on", "Yes", "null", "y", "allowed-tools", "_x"]
_VALUES = [
    "",
    "Read, Grep, Glob",
    "critic",
    "Use this agent: it reviews",
    "a #comment",
    "C#",
    "ends with:",
    "ta:b",
    "yes",
    "No",
    "NULL",
    "~",
    "12",
    "012",
    "0x1F",
    "1.5",
    "1.0.0",
    "1:20",
    "2 minutes",
    "2026-02-22",
    "2026-02-22 10:00:00",
    "<<",
    "<example>",
    "$(echo x)",
    "/path/to",
    "`code`",
    "'single'",
    "'it''s'",
    '"double"',
    '"with \\n escape"',
    '"unclosed',
    "[a, b]",
    "[path]",
    "[]",
    "[ a ,b ]",
    "[a, on]",
    "[a, ]",
    "[<file>]",
    "[a] b",
    "{a: b}",
    "|",
    "|-",
    ">",
    "&anchor x",
    "*alias",
    "!tag x",
    "tab\there",
    "line\u2028break",
    "nel\x85x",
    "bell\x07",
    "ünïcode ✓",
    "trailing   ",
    "-dash",
    "- item",
    "?q",
    "%pct",
    "@at",
]
_NESTED = [
    "  - Read",
    "  - Grep",
    "- Glob",
    "    - deep",
    "  text line",
    "    more text",
    "",
    "  ",
    "# c",
    "\ttab",
]


_TEXT = ["  text line", "    more text", "  - not an item", "", "  ", "  # not a comment", " less", "\ttab"]
_ITEMS = ["  - Read", "  - Grep", "- Glob", "    - deep", "  - yes", "  - 12", "  -", ""]


@st.composite
def blocks(draw: st.DrawFn) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        key = draw(st.sampled_from(_KEYS))
        kind = draw(st.sampled_from(["value", "text", "list"]))
        if kind == "value":
            sep = draw(st.sampled_from([": ", ":", ":  ", " : "]))
            lines.append(key + sep + draw(st.sampled_from(_VALUES)))
            lines.extend(draw(st.lists(st.sampled_from(_TEXT + _ITEMS), max_size=1)))
        elif kind == "text":
            lines.append(key + draw(st.sampled_from([": |", ": | ", ":|", ": |-", ": >"])))
            lines.extend(draw(st.lists(st.sampled_from(_TEXT), max_size=4)))
        else:
            lines.append(key + draw(st.sampled_from([":", ": ", ": |"])))
            lines.extend(draw(st.lists(st.sampled_from(_ITEMS), max_size=4)))
    return lines


@settings(max_examples=3000, deadline=None)
@given(blocks())
def test_the_plain_reading_is_pyyaml_or_nothing(block: list[str]) -> None:
    fast = _plain_mapping(block)
    if fast is not None:
        assert fast == _yaml(block)


def _frontmatter_blocks() -> list[list[str]]:
    found = []
    for path in sorted((REPO / "tests").rglob("*.md")) + sorted((REPO / "examples").rglob("*.md")):
        lines = split_lines(path.read_bytes().decode("utf-8", errors="replace"))
        if lines and lines[0].rstrip() == "---":
            close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
            if close is not None:
                found.append(lines[1:close])
    return found


def test_every_frontmatter_of_the_repository_reads_the_same() -> None:
    read = [(b, _plain_mapping(b)) for b in _frontmatter_blocks()]
    taken = [(b, fast) for b, fast in read if fast is not None]
    assert len(taken) > 100 and len(taken) < len(read)  # both paths are exercised
    for block, fast in taken:
        assert fast == _yaml(block), block


def test_a_usual_agent_frontmatter_is_read_without_pyyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_yaml(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("PyYAML was asked")

    monkeypatch.setattr(yaml, "load", no_yaml)
    text = (
        "---\nname: critic\ndescription: |\n  Reviews plans.\n  Use it before merging.\n"
        'tools:\n  - Read\n  - Grep\nmodel: "sonnet"\nversion: 1.0.0\nlayer: 2\n---\nBody\n'
    )
    fm, body_start = split_frontmatter(split_lines(text))
    assert fm is not None and body_start == 12
    assert fm.data == {
        "name": "critic",
        "description": "Reviews plans.\nUse it before merging.\n",
        "tools": ["Read", "Grep"],
        "model": "sonnet",
        "version": "1.0.0",
        "layer": 2,
    }
