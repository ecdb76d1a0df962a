"""The reader walks only into nodes on lines where something could be read (parse/python/reach.py).
Each case here hides what it must find from a plain search of the source: the value of a string,
the name of a keyword or the key of a dict differs from how it is written, and the spawn is still
found, where it is written."""

from __future__ import annotations

import pytest

from spawnlint.parse.python import parse_python
from spawnlint.parse.python.reach import reached_lines
from spawnlint.source_lines import split_lines

CALLABLES = ("Run", "Agent", "Task")


def sites(src: str) -> list[tuple[str, int, int, str | None, str | None]]:
    return [
        (
            str(s.form),
            s.line,
            s.column,
            s.subagent_type.value if s.subagent_type else None,
            s.name.value if s.name else None,
        )
        for s in parse_python("x.py", src, CALLABLES).sites
    ]


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        pytest.param(  # no word of the word test on any line: the literals spell them together
            'x = 1\nP = ("Lau" "nch the **security-auditor** ag"\n     "ent on the tree.")\n',
            [("F6", 2, 7, "security-auditor", None)],
            id="side-by-side-literals",
        ),
        pytest.param(
            'P = "La\\x75nch the **security-auditor** \\x61gent on the tree."\n',
            [("F6", 1, 6, "security-auditor", None)],
            id="escapes",
        ),
        pytest.param(
            'P = "Lau\\\nnch the **security-auditor** ag\\\nent on the tree."\n',
            [("F6", 1, 6, "security-auditor", None)],
            id="backslash-joined-lines",
        ),
        pytest.param(
            'P = "Kick\\toff `shop:qa` to check the plan."\n',
            [("F6", 1, 6, "shop:qa", None)],
            id="two-words-with-an-escaped-tab",
        ),
        pytest.param(
            'P = """Kick\n    off `shop:qa` to check the plan."""\n',
            [("F6", 1, 8, "shop:qa", None)],
            id="two-words-across-a-line-end",
        ),
        pytest.param(
            'Run(description="d", prompt="p", name="n1")\n',
            [("F10", 1, 1, None, "n1")],
            id="description-and-prompt",
        ),
        pytest.param(
            'Run(sub\uff41gent_type="shop:qa", name="n1", prompt="p")\n',
            [("F10", 1, 1, "shop:qa", "n1")],
            id="keyword-in-compatibility-characters",
        ),
        pytest.param(
            'Run(\uff44escription="d", \uff50rompt="p", name="n1")\n',
            [("F10", 1, 1, None, "n1")],
            id="description-and-prompt-in-compatibility-characters",
        ),
        pytest.param(
            'd = {"sub\\x61gent_type": "shop:qa", "name": "n1"}\n',
            [("F10", 1, 5, "shop:qa", "n1")],
            id="escaped-key",
        ),
        pytest.param(
            'd = {"type": "tool" "_use", "name": "T" "ask", "input": {"sub" "ag" "ent_type": "shop:qa", "name": "n"}}\n',
            [("F10", 1, 57, "shop:qa", "n")],
            id="tool-use-block-in-pieces",
        ),
        pytest.param(
            '@hook(Run(subagent_type="shop:qa", name="n", prompt="p"))\ndef f():\n    pass\n',
            [("F10", 1, 7, "shop:qa", "n")],
            id="decorator-above-the-def-line",
        ),
    ],
)
def test_what_the_source_does_not_spell_out_is_found(src: str, expected: list[tuple[str, ...]]) -> None:
    assert sites(src) == expected


def test_an_agent_named_by_a_variable_far_from_any_word_is_found() -> None:
    src = 'from sdk import AgentDefinition\nc = AgentDefinition(description="d", prompt="p", tools=["Read"])\n\n\ncrew = {"x": c}\n'
    assert reached_lines(src, split_lines(src)) is None  # such a file is walked whole
    assert [(a.name, a.name_line) for a in parse_python("x.py", src, CALLABLES).agents] == [("x", 5)]


def test_only_lines_that_could_hold_something_are_reached() -> None:
    src = (
        "import os\n"
        "def total(values):\n"
        '    """Add them up."""\n'
        "    return sum(values)\n"
        'PROMPT = "Launch the critic agent."\n'
        "x = os.environ['HOME']\n"
    )
    assert reached_lines(src, split_lines(src)) == [5]


def test_a_string_tokenize_cannot_read_alone_is_read_from_the_file_s_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A literal's tokens come from its own source; were tokenize to refuse that, the file's own
    # token pass decides, as it did when it always ran first.
    from spawnlint.parse.python import read

    real = read.string_tokens
    monkeypatch.setattr(read, "string_tokens", lambda text: None if text.startswith("(") else real(text))
    assert sites('HOOK = """Use the Task tool:\n- `subagent_type`: `critic`\n- `name`: `hooked`\n"""\n') == [
        ("F4", 1, 11, "critic", "hooked")
    ]
    monkeypatch.setattr(read, "string_tokens", lambda text: None)
    parsed = parse_python(
        "x.py", 'HOOK = """Use the Task tool:\n- `subagent_type`: `critic`\n"""\n', CALLABLES
    )
    assert [p.finding.message for p in parsed.problems] == ["Python file cannot be tokenized; not checked"]
