"""Property tests for each parser: random and mutated inputs never raise, and what comes back
points inside the file. `--hypothesis-profile=long` searches far longer than the default."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli, write_project
from spawnlint.model import FileKind, ParsedFile
from spawnlint.parse import decode, parse_text
from spawnlint.parse.frontmatter import parse_tool_list, split_frontmatter
from spawnlint.parse.python import parse_python
from spawnlint.report import FORMATS
from spawnlint.source_lines import split_lines

CALLABLES = ("query", "spawn_agent")

YAML_TOKENS = [
    "---\n",
    "\n",
    "  ",
    "- ",
    ": ",
    "name",
    "tools",
    "description",
    "disallowedTools",
    "critic",
    "Read, Grep",
    "SendMessage",
    "[",
    "]",
    "{",
    "}",
    ",",
    '"',
    "'",
    "&a ",
    "*a",
    "!!python/object/apply:os.system",
    "!!binary ",
    "!tag ",
    "|",
    ">",
    "#",
    "\t",
    "\r\n",
    "\ufeff",
    "%YAML 1.1\n",
    "<<: *a",
    "? ",
    "null",
    "~",
    "1e999",
]
MARKDOWN_SPAWNS = [
    '# Run\n\nAgent(subagent_type: "shop:critic", name: "c1", prompt: "Review.")\n',
    'Task:\n  subagent_type: "critic"\n  name: "c1"\n  prompt: |\n    Review the diff.\n',
    '```json\n{"subagent_type": "general-purpose", "name": "x", "prompt": "p"}\n```\n',
    "Use the Task tool:\n- `subagent_type`: `critic`\n- `name`: `{area}-reviewer`\n",
    'Use the Task tool with `subagent_type="shop:critic"` and `name: "c1"`.\n',
    "Spawn three subagents in parallel:\n- **legacy-analyst** — reads the old code\n- **critic** — reviews\n",
    "---\nname: lead\ntools: Read, Agent\n---\nLaunch the **security-auditor** agent.\n",
    "Create a team and spawn teammates named `api` and `ui`.\n> Agent(subagent_type: x, name: y)\n",
]
PYTHON_SPAWNS = [
    'Agent(subagent_type="critic", name="c1", prompt="p")\n',
    'agents = {"scribe": AgentDefinition(description="d", prompt="Report with SendMessage.", tools=["Read"])}\n',
    'BLOCK = {"type": "tool_use", "name": "Agent", "input": {"subagent_type": "critic", "name": f"n{i}"}}\n',
    'PROMPT = """Spawn `shop:critic`: Agent(subagent_type: "critic", name: "c", prompt: "p")"""\n',
    "def run():\n    return query(prompt='p', options=Options(agents={'a': AgentDefinition('d', 'p')}))\n",
]
PYTHON_TOKENS = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    "=",
    ":",
    "\n",
    "    ",
    '"',
    "'",
    '"""',
    "f'",
    "b'",
    "\\",
    "Agent",
    "subagent_type",
    "name",
    "prompt",
    "AgentDefinition",
    "lambda",
    "#",
    "+",
    "*",
    "x",
    "1",
]


def mutated(seeds: list[str], alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A seed with a few random cuts, insertions and replacements."""

    @st.composite
    def build(draw: Any) -> str:
        text = draw(st.sampled_from(seeds))
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, len(text)))
            end = draw(st.integers(start, min(len(text), start + 8)))
            text = text[:start] + draw(alphabet) + text[end:]
        return text

    return build()


def soup(tokens: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(tokens) | st.text(max_size=3), max_size=80).map("".join)


def assert_points_inside(parsed: ParsedFile, text: str) -> None:
    lines = max(1, len(split_lines(text)))
    for site in parsed.sites:
        assert 1 <= site.line <= lines and site.column >= 1, site
    for problem in parsed.problems:
        assert 1 <= problem.finding.line <= lines + 1, problem


@given(soup(YAML_TOKENS))
def test_frontmatter_never_raises(block: str) -> None:
    lines = split_lines("---\n" + block + "\n---\nBody\n")
    frontmatter, body_start = split_frontmatter(lines)
    assert frontmatter is not None and 1 <= body_start <= len(lines)
    assert isinstance(frontmatter.data, dict)
    assert all(1 <= line <= len(lines) for _, line in frontmatter.key_lines.items())
    for key in ("tools", "disallowedTools"):
        parse_tool_list(frontmatter.data.get(key), 2)


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@given(yaml_values)
def test_tool_list_reads_any_yaml_value(value: object) -> None:
    tools, problem = parse_tool_list(value, 3)
    assert tools is None or problem is None


@given(
    mutated(
        MARKDOWN_SPAWNS, st.text(max_size=6) | st.sampled_from(["(", ")", '"', "`", "\n", "{", "}", "- "])
    )
)
def test_mutated_markdown_spawns_never_raise(text: str) -> None:
    for path, kind in (
        ("agents/a.md", FileKind.AGENT),
        ("commands/c.md", FileKind.COMMAND),
        ("skills/s/SKILL.md", FileKind.SKILL),
        ("notes.md", FileKind.MARKDOWN),
    ):
        assert_points_inside(parse_text(path, text, kind), text)


@given(st.binary(max_size=200))
def test_any_bytes_decode_or_are_refused(data: bytes) -> None:
    text, problem = decode("c.md", data, 1000)
    assert (text is None) != (problem is None)
    if text is not None:
        assert_points_inside(parse_text("commands/c.md", text, FileKind.COMMAND), text)


@given(mutated(PYTHON_SPAWNS, st.sampled_from(PYTHON_TOKENS) | st.text(max_size=4)) | soup(PYTHON_TOKENS))
def test_python_parser_never_raises(text: str) -> None:
    parsed = parse_python("tools/x.py", text, CALLABLES)
    assert parsed.kind is FileKind.PYTHON
    assert_points_inside(parsed, text)
    assert {p.code for p in parsed.problems} <= {"SL002"}


AGENT_SEEDS = [
    "---\nname: critic\ndescription: d\ntools: Read, Grep\n---\nReview.\n",
    "---\nname: lead\ntools: [Read, Agent, SendMessage]\n---\nReport with SendMessage.\n",
    "---\n!!python/object/new:os.system [x]\n---\nBody.\n",
]
FILE_NAMES = ["a.md", "a:1:1: SL999 [error] b.md", "sp ace.md", '"q".md', "caf\u00e9.md", "::warning::c.md"]
FINDING_LINE = re.compile(r'^(?:"(?:[^"\\]|\\.)*"|[^":\s][^:]*):\d+:\d+: SL\d{3} \[(?:error|warning|info)\] ')


@st.composite
def projects(draw: Any) -> dict[str, str]:
    files = {".claude-plugin/plugin.json": '{"name": "shop"}'}
    for folder, seeds in (("agents", AGENT_SEEDS), ("commands", MARKDOWN_SPAWNS)):
        for i in range(draw(st.integers(1, 3))):
            name = f"{i}{draw(st.sampled_from(FILE_NAMES))}"
            text = draw(mutated(seeds, st.sampled_from(YAML_TOKENS) | st.text(max_size=4)))
            files[f"{folder}/{name}"] = text + draw(st.sampled_from(["", "> " * 30 + MARKDOWN_SPAWNS[0]]))
    return files


@settings(max_examples=12)  # each example is a dozen whole runs; fuzz harder outside the suite
@given(projects())
def test_mutated_projects_survive_every_format_fix_and_audit(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = write_project(Path(folder) / "p", files)
        for fmt in sorted(FORMATS):
            run = run_cli("check", "--root", str(root), "--output-format", fmt, "--color", "never")
            assert run.code in (0, 1), run.err
            if fmt == "concise":
                lines = run.out.splitlines()
                findings = lines[
                    : next(i for i, x in enumerate(lines) if x.startswith(("Found ", "No findings")))
                ]
                assert all(FINDING_LINE.match(line) for line in findings), run.out
        assert run_cli("audit", str(root), "--output-format", "json").code == 0
        assert run_cli("check", "--root", str(root), "--fix").code in (0, 1)
        again = run_cli("check", "--root", str(root), "--fix")
        assert again.code in (0, 1) and "fixed 0 findings in 0 files" in again.err, again.err
        assert not [p for p in root.rglob("*.tmp")]
