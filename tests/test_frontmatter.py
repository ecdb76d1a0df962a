"""Agent frontmatter: the `tools`/`disallowedTools` grammar, the lenient fallback and SL001."""

from __future__ import annotations

import pytest

from spawnlint.model import FileKind
from spawnlint.parse import parse_text
from spawnlint.parse.frontmatter import parse_tool_list


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Read, Grep, Glob", {"Read", "Grep", "Glob"}),
        ("Read Grep", {"Read", "Grep"}),
        ("[Read, Grep]", {"Read", "Grep"}),
        (["Read", "SendMessage"], {"Read", "SendMessage"}),
        ("Bash(git add:*), Read", {"Bash", "Read"}),
        ("Bash(git log:*) Agent(worker)", {"Bash", "Agent"}),
        ("mcp__github__*, Read", {"mcp__github__*", "Read"}),
        ("", set()),
        ([], set()),
    ],
)
def test_tool_list_grammar(value: object, names: set[str]) -> None:
    tools, problem = parse_tool_list(value, 3)
    assert problem is None and tools is not None
    assert tools.names == frozenset(names)


def test_star_is_every_tool() -> None:
    tools, _ = parse_tool_list("*", 3)
    assert tools is not None and tools.names is None and tools.includes("SendMessage")


def test_missing_or_null_tools_inherit_everything() -> None:
    assert parse_tool_list(None, 3) == (None, None)


@pytest.mark.parametrize("value", [[["Read"]], {"a": 1}, 5])
def test_wrong_shapes_are_problems(value: object) -> None:
    tools, problem = parse_tool_list(value, 3)
    assert tools is None and problem


def agent(text: str):  # type: ignore[no-untyped-def]
    return parse_text("agents/a.md", text, FileKind.AGENT)


def test_block_list_tools() -> None:
    parsed = agent("---\nname: a\ndescription: d\ntools:\n  - Read\n  - SendMessage\n---\nBody\n")
    assert parsed.agents and parsed.agents[0].tools is not None
    assert parsed.agents[0].tools.names == {"Read", "SendMessage"} and parsed.agents[0].tools.line == 4


def test_invalid_yaml_is_read_leniently_and_said() -> None:
    text = "---\nname: a\ndescription: Use it: when <example>x: y</example>\ntools: Read, Grep\n---\nBody\n"
    parsed = agent(text)
    assert parsed.agents and parsed.agents[0].tools is not None
    assert parsed.agents[0].tools.names == {"Read", "Grep"}
    assert [(p.code, p.finding.line) for p in parsed.problems] == [("SL001", 3)]


def test_python_tag_is_never_constructed() -> None:
    text = "---\nname: a\ndescription: !!python/object/apply:os.system ['echo hi']\ntools: Read\n---\n"
    parsed = agent(text)
    assert [p.code for p in parsed.problems] == ["SL001"]
    assert parsed.agents and parsed.agents[0].name == "a"


def test_unclosed_frontmatter_reports_the_opening_line() -> None:
    parsed = agent("---\nname: a\ntools: Read\n\nBody text\n")
    assert [(p.code, p.finding.line) for p in parsed.problems] == [("SL001", 1)]
    assert parsed.agents and parsed.agents[0].tools is not None


def test_alias_bomb_does_not_explode() -> None:
    bomb = "---\nname: a\na: &a [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 12):
        bomb += f"a{i}: &a{i} [*a{i - 1 if i > 1 else ''}, *a{i - 1 if i > 1 else ''}]\n".replace("*a0", "*a")
    bomb += "tools: Read\n---\n"
    parsed = agent(bomb)
    assert parsed.agents


def test_non_agent_markdown_under_agents() -> None:
    assert agent("# Agents\n\nThese are our agents.\n").agents == ()


def test_an_agent_without_name_loads_under_its_file_stem() -> None:
    parsed = agent("---\ndescription: no name\n---\n")
    assert [a.name for a in parsed.agents] == ["a"]
    assert [(p.code, p.finding.line) for p in parsed.problems] == [("SL005", 1)]
    assert parsed.editable  # a missing name does not keep --fix from the file


def test_an_agent_name_that_is_no_string_is_a_wrong_shape() -> None:
    parsed = agent("---\nname: [a, b]\ndescription: d\n---\n")
    assert [a.name for a in parsed.agents] == ["a"]
    assert [(p.code, p.finding.line) for p in parsed.problems] == [("SL001", 2)]


def test_disallowed_send_message_mutes() -> None:
    parsed = agent("---\nname: a\ndescription: d\ndisallowedTools: SendMessage\n---\n")
    assert parsed.agents and parsed.agents[0].disallowed is not None
    assert parsed.agents[0].disallowed.includes("SendMessage")


def test_bom_and_crlf() -> None:
    parsed = agent("---\r\nname: a\r\ndescription: d\r\ntools: Read\r\n---\r\nBody\r\n")
    assert parsed.agents and parsed.agents[0].name == "a" and parsed.problems == ()


def test_a_negated_send_message_is_no_report_instruction() -> None:
    parsed = agent(
        "---\nname: a\ndescription: d\ntools: Read\n---\n"
        "Do not use SendMessage; return your findings as your final answer.\n"
        "When done, use SendMessage to report to the team-lead.\n"
    )
    assert parsed.agents[0].report_lines == ((7, 16),)
