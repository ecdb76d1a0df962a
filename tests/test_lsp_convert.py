"""The language server's pure conversions: positions in the client's units, where an inline
suppression goes, and which spawn a hover line falls on."""

from __future__ import annotations

import pytest
from pygls.workspace.position_codec import PositionCodec

from spawnlint.lsp.convert import Texts, line_range, position
from spawnlint.lsp.suppressing import file_wide, here
from spawnlint.model import Diagnostic, FileKind, Severity

CALLABLES = ("Agent", "Task")


def _d(path: str, line: int, code: str = "SL101") -> Diagnostic:
    return Diagnostic(path, line, 1, code, "m", Severity.ERROR)


def test_columns_count_code_points_and_the_client_counts_utf16_units() -> None:
    lines = ['Agent(name: "😀", subagent_type: "x")']
    column = lines[0].index("subagent_type") + 1  # the model's 1-based code-point column
    assert position(lines, 1, column, PositionCodec()).character == column - 1 + 1  # 😀 is 2 units
    assert position(lines, 1, column, PositionCodec("utf-32")).character == column - 1


def test_a_range_runs_to_the_end_of_the_lines_text_and_is_clamped_into_the_file() -> None:
    codec = PositionCodec()
    rng = line_range(["  tools: Read  ", "next"], 1, 3, codec)
    assert (rng.start.line, rng.start.character, rng.end.line, rng.end.character) == (0, 2, 0, 13)
    past = line_range(["short"], 9, 40, codec)
    assert (past.start.line, past.start.character) == (0, 5)


MARKDOWN = [
    "---",
    "name: critic",
    "tools: Read",
    "---",
    "",
    "Intro.",
    "",
    "  ```",
    "  Agent(name: x)",
    "  ```",
    "",
    "Prose spawn.",
]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (3, (3, 12, " # spawnlint: ignore[SL101]")),  # a YAML comment at the end of a frontmatter line
        (9, (8, 1, "  <!-- spawnlint: ignore[SL101] -->\n")),  # above the fence: it covers the fence
        (10, (8, 1, "  <!-- spawnlint: ignore[SL101] -->\n")),  # the closing fence is in the block
        (12, (12, 1, "<!-- spawnlint: ignore[SL101] -->\n")),
        (1, None),  # on the opening `---`, a comment would break the frontmatter
    ],
)
def test_where_a_markdown_suppression_goes(line: int, expected: tuple[int, int, str] | None) -> None:
    assert here(_d("agents/critic.md", line), MARKDOWN, FileKind.AGENT, CALLABLES) == expected


BULLETS = [
    "# Review",
    "",
    "Use the Agent tool to spawn a teammate:",
    "- `name`: `critic-1`",
    "- `subagent_type`: `shop:critic`",
    "- `prompt`: Review the plan.",
]


def test_a_comment_that_would_split_the_spawn_it_silences_is_not_offered_there() -> None:
    # a comment line between the bullets would end the list, and with it the spawn: the comment
    # goes at the end of the line instead, which leaves the bullets as they were
    found = here(_d("commands/review.md", 4, "SL102"), BULLETS, FileKind.COMMAND, CALLABLES)
    assert found == (4, 21, " <!-- spawnlint: ignore[SL102] -->")


def test_the_file_wide_suppression_goes_after_everything() -> None:
    found = file_wide(_d("commands/review.md", 4, "SL102"), BULLETS, FileKind.COMMAND, CALLABLES)
    assert found == (6, 29, "\n\n<!-- spawnlint: ignore-file[SL102] -->\n")
    assert file_wide(_d("commands/review.md", 4, "SL900"), BULLETS, FileKind.COMMAND, CALLABLES) is None


def test_python_suppressions_go_on_their_own_line_above_and_sl900_gets_none() -> None:
    lines = ["def main():", "    Agent(subagent_type='x', name='y', prompt='z')", ""]
    assert here(_d("hooks/run.py", 2), lines, FileKind.PYTHON, CALLABLES) == (
        2,
        1,
        "    # spawnlint: ignore[SL101]\n",
    )
    assert here(_d("commands/a.md", 1, "SL900"), ["x"], FileKind.COMMAND, CALLABLES) is None


def test_texts_keep_each_files_line_ending() -> None:
    texts = Texts({"a.md": "one\r\ntwo\r\n", "b.md": "one"}.get)
    assert texts.lines("a.md") == ["one", "two", ""]
    assert (texts.eol("a.md"), texts.eol("b.md"), texts.lines("missing.md")) == ("\r\n", "\n", [""])
