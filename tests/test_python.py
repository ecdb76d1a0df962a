"""Python spawn sites and SDK agents (SPEC §4), read with libcst and never executed."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli
from spawnlint.model import ValueKind
from spawnlint.parse.python import parse_python

Make = Callable[[dict[str, str | bytes]], Path]
CALLABLES = ("Agent", "Task")


def sites(src: str) -> list[tuple[str, int, str | None, str | None]]:
    parsed = parse_python("x.py", src, CALLABLES)
    return [
        (s.form, s.line, s.name.value if s.name else None, s.subagent_type.value if s.subagent_type else None)
        for s in parsed.sites
    ]


def test_spawn_call_with_keywords() -> None:
    parsed = parse_python(
        "x.py",
        'r = Agent(\n    subagent_type="shop:critic",\n    name="c1",\n    prompt="go",\n)\n',
        CALLABLES,
    )
    (site,) = parsed.sites
    assert (site.form, site.line, site.column, site.tool) == ("F10", 1, 5, "Agent")
    assert site.name is not None and (site.name.line, site.name.column) == (3, 5)
    assert site.subagent_type is not None and site.subagent_type.value_position == (2, 19)


def test_description_and_prompt_make_a_spawn() -> None:
    assert sites('tools.Task(description="d", prompt="p")\n') == [("F10", 1, None, None)]


def test_other_frameworks_are_not_spawns() -> None:
    src = (
        'triage = Agent(name="Triage", instructions="Route the ticket.")\n'
        'job = Task(description="Research", expected_output="notes", agent=researcher)\n'
        'rec = Agent("01", "01_api_recon.py")\n'
    )
    assert sites(src) == []


def test_dynamic_values_and_none() -> None:
    parsed = parse_python(
        "x.py", 'Task(subagent_type=task.agent_type, name=None, prompt=f"do {x}")\n', CALLABLES
    )
    (site,) = parsed.sites
    assert site.name is None
    assert site.subagent_type is not None and site.subagent_type.kind is ValueKind.DYNAMIC


def test_f_string_name_is_dynamic_but_named() -> None:
    parsed = parse_python("x.py", 'Agent(subagent_type="w", name=f"worker-{i}", prompt="p")\n', CALLABLES)
    assert parsed.sites[0].name is not None and parsed.sites[0].name.kind is ValueKind.DYNAMIC


def test_dict_with_subagent_type() -> None:
    assert sites('spec = {"subagent_type": "critic", "name": "c2", "prompt": "p"}\n') == [
        ("F10", 1, "c2", "critic")
    ]


def test_tool_use_block_name_is_the_input_name() -> None:
    src = (
        'block = {"type": "tool_use", "name": "Agent", "input": {"subagent_type": "critic", "prompt": "p"}}\n'
    )
    assert sites(src) == [("F10", 1, None, "critic")]
    named = src.replace('"prompt": "p"', '"name": "inner", "prompt": "p"')
    assert sites(named) == [("F10", 1, "inner", "critic")]


def test_spawn_text_in_strings_maps_back_to_the_file() -> None:
    src = 'x = 1\nHOOK = """Tell the model:\nUse the Task tool:\n- `subagent_type`: `critic`\n- `name`: `hooked`\n"""\n'
    parsed = parse_python("x.py", src, CALLABLES)
    (site,) = parsed.sites
    assert (site.form, site.line) == ("F4", 3)
    assert site.name is not None and (site.name.line, site.name.column) == (5, 4)


def test_concatenated_and_escaped_strings() -> None:
    src = 'msg = ("Launch the **security-auditor** agent "\n       "on the tree.")\nt = "Task:\\n  subagent_type: critic\\n  name: esc"\n'
    assert sites(src) == [("F6", 1, None, "security-auditor"), ("F2", 3, "esc", "critic")]


def test_docstrings_hold_no_spawns() -> None:
    assert sites('def run():\n    """Run one agent loop and spawn a subagent per task."""\n') == []


def test_agent_definitions() -> None:
    src = (
        "from claude_agent_sdk import AgentDefinition\n"
        'critic = AgentDefinition(description="d", prompt="Report with SendMessage to the lead.", tools=["Read"])\n'
        "options = Options(agents={\n"
        '    "critic": critic,\n'
        '    "scout": AgentDefinition(description="d", prompt="p", tools=TOOLS),\n'
        '    "helper": AgentDefinition(description="d", prompt="p"),\n'
        "})\n"
    )
    agents = {a.name: a for a in parse_python("x.py", src, CALLABLES).agents}
    assert agents["critic"].tools is not None and agents["critic"].tools.names == {"Read"}
    assert agents["critic"].name_line == 4 and agents["critic"].report_lines == ((2, 63),)
    assert agents["scout"].tools_known is False
    assert agents["helper"].tools is None and agents["helper"].tools_known


def test_syntax_error_is_a_diagnostic() -> None:
    parsed = parse_python("x.py", "def f(:\n    Agent(subagent_type='x')\n", CALLABLES)
    assert [(p.code, p.finding.line) for p in parsed.problems] == [("SL002", 1)]
    assert "Python syntax error on line" in parsed.problems[0].finding.message


def test_syntax_error_is_a_warning_that_names_the_python_that_read_it() -> None:
    """`except A, B:` is Python 3.14, an f-string with a backslash 3.12: valid where the plugin
    runs, a syntax error to an older interpreter running spawnlint. No error blocks the commit."""
    import sys

    from spawnlint.model import Severity

    parsed = parse_python("x.py", "def f(:\n    pass\n", CALLABLES)
    [problem] = parsed.problems
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert problem.finding.severity is Severity.WARNING
    assert f"as Python {version} reads it" in problem.finding.message


def test_deep_nesting_is_refused_before_it_is_parsed() -> None:
    parsed = parse_python("x.py", "x = " + "[" * 5000 + "]" * 5000 + "\n", CALLABLES)
    assert [p.code for p in parsed.problems] == ["SL002"]


def test_sdk_agent_spawned_from_markdown(project: Make) -> None:
    root = project(
        {
            "app.py": (
                "from claude_agent_sdk import AgentDefinition\n"
                "AGENTS = {\n"
                '    "researcher": AgentDefinition(description="d", prompt="Research.", tools=["Read", "WebSearch"]),\n'
                "}\n"
            ),
            "commands/go.md": (
                "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
                "`in_process_teammate`, whose final answer never returns to this command.\n\n"
                'Agent(subagent_type: "researcher", name: "r1", prompt: "Find it.")\n'
            ),
            "hooks/inject.py": (
                "import json\n"
                "# spawnlint: ignore[SL101]\n"
                'print(json.dumps({"subagent_type": "researcher", "name": "quiet", "prompt": "p"}))\n'
                'print(json.dumps({"subagent_type": "researcher", "name": "loud", "prompt": "p"}))\n'
            ),
            "broken.py": "def f(:\n    Agent(subagent_type='researcher', name='x', prompt='p')\n",
        }
    )
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    found = sorted((d["path"], d["line"], d["code"]) for d in json.loads(run.out))
    assert found == [
        ("broken.py", 1, "SL002"),
        ("commands/go.md", 4, "SL101"),
        ("hooks/inject.py", 4, "SL101"),
    ]
    (go,) = [d for d in json.loads(run.out) if d["path"] == "commands/go.md"]
    assert go["related"] == [{"path": "app.py", "line": 3, "message": 'tools of "researcher"'}]


def test_no_libcst_import_without_python_spawns(project: Make) -> None:
    root = project(
        {
            "commands/a.md": "Nothing here.\n",
            "tools/util.py": "def add(a, b):\n    return a + b\n",
        }
    )
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "spawnlint", "check", "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "spawnlint.cli" in proc.stderr  # importtime did report
    assert "libcst" not in proc.stderr


def test_agent_definition_with_positional_arguments() -> None:
    src = 'agents = {"scribe": AgentDefinition("Writes notes", "Report with SendMessage.", ["Read"])}\n'
    (agent,) = parse_python("x.py", src, CALLABLES).agents
    assert agent.tools is not None and agent.tools.names == {"Read"}
    assert agent.report_lines == ((1, 66),)


def test_escapes_keep_positions_aligned() -> None:
    src = 'X = "\\x41\\x42\\x43\\x44 Agent(subagent_type=\\"critic\\", name=\\"n\\", prompt=\\"p\\")"\n'
    (site,) = parse_python("x.py", src, CALLABLES).sites
    assert (site.line, site.column) == (1, 23)


def test_mixed_bytes_and_text_is_sl002_not_a_crash() -> None:
    parsed = parse_python("x.py", 'x = b"subagent_type" "y"\n', CALLABLES)
    assert [p.code for p in parsed.problems] == ["SL002"]


def test_f_string_braces_are_read_as_what_they_produce() -> None:
    src = 'P = f"Use the Task tool with {{\\"subagent_type\\": \\"{kind}\\", \\"prompt\\": \\"go\\"}}."\n'
    (site,) = parse_python("x.py", src, CALLABLES).sites
    assert site.form == "F3"
    assert (site.line, site.column) == (1, 30)  # the `{{` that writes the object's `{`


def test_generated_code_of_another_framework_is_not_a_named_spawn() -> None:
    src = (
        "def render(agent_name):\n"
        '    return f"""\n'
        'import {{ Agent, run }} from "@openai/agents";\n'
        "const agent = new Agent({{\n"
        '  name: "{agent_name}",\n'
        '  instructions: "Triage the ticket.",\n'
        "}});\n"
        '"""\n'
    )
    assert parse_python("x.py", src, CALLABLES).sites == ()


SPAWN_ABOVE = 'Agent(subagent_type="shop:critic", name="c1", prompt="review it")\n'


@pytest.mark.parametrize(
    ("expression", "why"),
    [
        ("-" * 20_000 + "1", "chains more than"),  # issue 20: 31 s and 2.5 GB a file under libcst
        ("+".join(["1"] * 100_000), "chains more than"),
        ("not " * 5_000 + "x", "chains more than"),
        ("a." * 5_000 + "b", "chains more than"),
        ("f" + "()" * 5_000, "chains more than"),
        ("-(" * 3_000 + "1" + ")" * 3_000, "nests brackets more than 200 deep"),
        ("[" + "1, " * 120_000 + "]", "holds more than"),  # ~500 MB of ast nodes
    ],
)
def test_hostile_python_is_refused_before_it_is_parsed(expression: str, why: str) -> None:
    parsed = parse_python("x.py", SPAWN_ABOVE + "x = " + expression + "\n", CALLABLES)
    assert parsed.sites == ()
    (problem,) = parsed.problems
    assert problem.code == "SL002"
    assert why in problem.finding.message and problem.finding.message.endswith("not checked")


def test_each_hostile_python_file_gets_its_own_diagnostic(project: Make) -> None:
    root = project(
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read, Grep\n---\nReview.\n",
            **{f"hooks/h{i}.py": SPAWN_ABOVE + "x = " + "-" * 20_000 + "1\n" for i in range(4)},
            "hooks/ok.py": SPAWN_ABOVE,
        }
    )
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache")
    found = sorted((d["path"], d["code"]) for d in json.loads(run.out))
    assert found == [*((f"hooks/h{i}.py", "SL002") for i in range(4)), ("hooks/ok.py", "SL101")]


def test_a_long_ordinary_expression_is_read() -> None:
    src = SPAWN_ABOVE + "x = " + " + ".join(f"v{i}" for i in range(900)) + "\n"
    assert [s.name.value for s in parse_python("x.py", src, CALLABLES).sites if s.name] == ["c1"]


def test_a_deep_tree_within_the_bounds_is_walked_without_recursion() -> None:
    # 1,800 levels of BinOp: deeper than Python's recursion limit, within the parser's
    src = SPAWN_ABOVE + "x = (" + "+".join(["1"] * 900) + ") + " + "+".join(["1"] * 900) + "\n"
    parsed = parse_python("x.py", src, CALLABLES)
    assert parsed.problems == ()
    assert [s.name.value for s in parsed.sites if s.name] == ["c1"]


def test_only_the_python_fixer_imports_libcst_and_the_pool_imports_no_caller() -> None:
    src = Path(__file__).parent.parent / "src" / "spawnlint"
    importing = sorted(
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if any(
            line.lstrip().startswith(("import libcst", "from libcst"))
            for line in p.read_text("utf-8").splitlines()
        )
    )
    assert importing == ["parse/python/fix.py"]
    pool = (src / "parallel.py").read_text("utf-8")
    assert "from spawnlint" not in pool and "import spawnlint" not in pool


@pytest.mark.parametrize("verb", ["Launch", "Spawn", "Dispatch", "launch", "spawn"])
def test_a_prose_spawn_in_a_python_string_is_found_whatever_its_first_word(project: Make, verb: str) -> None:
    # issue 17: a case-sensitive cue list ran before any recogniser and hid these
    root = project(
        {
            "agents/code-checker.md": "---\nname: code-checker\ndescription: d\ntools: Read, Grep\n---\nCheck.\n",
            "hooks/prompt.py": f'PROMPT = """{verb} the code-checker agent named "c1" to review."""\n',
        }
    )
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache")
    found = [(d["path"], d["line"], d["code"]) for d in json.loads(run.out)]
    assert ("hooks/prompt.py", 1, "SL101") in found


def test_a_named_call_carries_the_report_instruction_edit_of_its_prompt() -> None:
    # SL101's unsafe fix in a team unit opens the prompt with the report instruction
    (site,) = parse_python(
        "x.py", 'Agent(subagent_type="critic", name="c1", prompt="Review.")\n', CALLABLES
    ).sites
    (edit,) = site.report_instruction
    assert (edit.line, edit.column, edit.old) == (1, 49, '"')
    assert site.name is not None and site.name.removal[0].python_node


def test_an_unsaved_python_buffer_is_read_in_process(project: Make) -> None:
    from spawnlint.config import Settings
    from spawnlint.engine import lint

    root = project(
        {
            "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n",
            "a.py": "x = 1\n",
        }
    )
    buffer = b'Agent(subagent_type="critic", name="c1", prompt="p")\n'
    result = lint(root, Settings(), use_cache=False, overrides={"a.py": buffer})
    assert [(d.path, d.line, d.code) for d in result.diagnostics] == [("a.py", 1, "SL101")]
