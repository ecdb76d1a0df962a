"""`spawnlint check` and `spawnlint rule` through main(): exit codes, formats, filters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli
from spawnlint.rules import RULES

Make = Callable[[dict[str, str | bytes]], Path]

RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
    "`in_process_teammate`, whose final answer never returns to this command.\n"
)
PLUGIN = {
    ".claude-plugin/plugin.json": '{"name": "shop"}\n',
    "agents/critic.md": "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\nReview the plan.\n",
    "commands/review.md": (
        "# Review\n\n" + RULE + "\n"
        '```\nAgent(subagent_type: "shop:critic", name: "critic-1", prompt: "Review.")\n```\n'
    ),
}


def test_error_finding_exits_1_with_concise_line(project: Make) -> None:
    root = project(PLUGIN)
    run = run_cli("check", "--root", str(root))
    assert run.code == 1
    assert run.lines == [
        'commands/review.md:7:37: SL101 [error] named spawn "critic-1" of agent "shop:critic" cannot'
        " report: its tools (Read, Grep) lack SendMessage. A named spawn runs as an"
        " in_process_teammate whose final answer returns only through SendMessage; spawn it"
        " without `name`, or add SendMessage to its tools and tell it to report"
    ]
    assert run.out.splitlines()[-2:] == [
        "Found 1 finding (1 error, 0 warnings).",
        "[*] 1 fixable with `--fix`.",
    ]


def test_json_output_keys_and_related(project: Make) -> None:
    run = run_cli("check", "--root", str(project(PLUGIN)), "--output-format", "json")
    (finding,) = json.loads(run.out)
    assert finding["code"] == "SL101" and finding["name"] == "named-spawn-mute-agent"
    assert finding["severity"] == "error" and (finding["line"], finding["column"]) == (7, 37)
    assert finding["related"] == [
        {"path": "agents/critic.md", "line": 4, "message": 'tools of "shop:critic"'}
    ]


def test_paths_limit_reporting_not_reading(project: Make) -> None:
    root = project(PLUGIN)
    cwd = os.getcwd()
    try:
        os.chdir(root)
        via_agent = run_cli("check", "--root", ".", "agents/critic.md")
        unrelated = run_cli("check", "--root", ".", ".claude-plugin/plugin.json")
    finally:
        os.chdir(cwd)
    assert [line.split(":")[0] for line in via_agent.lines] == ["commands/review.md"]
    assert via_agent.code == 1
    assert unrelated.lines == [] and unrelated.code == 0


def test_warnings_alone_pass_unless_strict(project: Make) -> None:
    files = dict(PLUGIN)
    # another plugin's namespace: a warning (in the project's own, `shop:critc`, it is an error)
    files["commands/review.md"] = files["commands/review.md"].replace("shop:critic", "tools:critc")
    root = project(files)
    assert run_cli("check", "--root", str(root)).code == 0
    assert run_cli("check", "--root", str(root), "--strict").code == 1


def test_exit_zero(project: Make) -> None:
    assert run_cli("check", "--root", str(project(PLUGIN)), "--exit-zero").code == 0


def test_select_and_ignore_prefixes(project: Make) -> None:
    root = project(PLUGIN)
    assert run_cli("check", "--root", str(root), "--ignore", "SL1").lines == []
    assert len(run_cli("check", "--root", str(root), "--select", "SL1").lines) == 1
    assert run_cli("check", "--root", str(root), "--select", "SL1", "--ignore", "SL101").lines == []
    assert run_cli("check", "--root", str(root), "--select", "SL8").code == 2


def test_inline_suppression(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = files["commands/review.md"].replace(
        "```\nAgent", "<!-- spawnlint: ignore[SL101] -->\n```\nAgent"
    )
    root = project(files)
    assert run_cli("check", "--root", str(root)).lines == []


def test_ignore_file(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = "<!-- spawnlint: ignore-file -->\n" + files["commands/review.md"]
    assert run_cli("check", "--root", str(project(files))).lines == []


def test_configuration_severity_and_errors(project: Make) -> None:
    files = dict(PLUGIN)
    files["pyproject.toml"] = '[tool.spawnlint]\nseverity = { SL101 = "warning" }\n'
    run = run_cli("check", "--root", str(project(files)))
    assert run.code == 0 and "[warning]" in run.lines[0]


@pytest.mark.parametrize(
    "config",
    [
        "[tool.spawnlint]\nbogus = 1\n",
        '[tool.spawnlint.no-name-rule]\nscope = "everywhere"\n',
        '[tool.spawnlint.no-name-rule]\npattern = "("\n',
        "[tool.spawnlint\n",
    ],
)
def test_bad_configuration_exits_2(project: Make, config: str) -> None:
    files = dict(PLUGIN)
    files["pyproject.toml"] = config
    run = run_cli("check", "--root", str(project(files)))
    assert run.code == 2 and "spawnlint:" in run.err


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run_cli("check", "--output-format", "xml").code == 2
    assert run_cli("check", "--root", str(tmp_path / "missing")).code == 2
    assert run_cli("rule", "SL999").code == 2


def test_github_format_cannot_inject_workflow_commands(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = files["commands/review.md"].replace('"critic-1"', '"x%0A::error::pwned"')
    run = run_cli("check", "--root", str(project(files)), "--output-format", "github")
    commands = [line for line in run.out.splitlines() if line.startswith("::")]
    assert len(commands) == 1
    assert "%250A::error::pwned" in commands[0]


def test_sarif_and_junit_are_well_formed(project: Make) -> None:
    import xml.dom.minidom

    root = str(project(PLUGIN))
    sarif = json.loads(run_cli("check", "--root", root, "--output-format", "sarif").out)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "SL101"
    junit = run_cli("check", "--root", root, "--output-format", "junit").out
    assert xml.dom.minidom.parseString(junit).getElementsByTagName("failure")


def test_full_format_shows_source_and_caret(project: Make) -> None:
    out = run_cli("check", "--root", str(project(PLUGIN)), "--output-format", "full").out
    assert '    7 | Agent(subagent_type: "shop:critic", name: "critic-1"' in out
    assert "        | " + " " * 36 + "^" in out


def test_statistics(project: Make) -> None:
    out = run_cli("check", "--root", str(project(PLUGIN)), "--statistics").out
    assert out.split() == ["1", "SL101", "named-spawn-mute-agent"]


def test_python_dash_m_entry_point(project: Make) -> None:
    root = project(PLUGIN)
    proc = subprocess.run(
        [sys.executable, "-m", "spawnlint", "check", "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "SL101" in proc.stdout


def test_rule_list() -> None:
    run = run_cli("rule")
    assert run.code == 0 and len(run.out.splitlines()) == len(RULES)


def test_audit_json_lists_agents_units_sites_and_findings(project: Make) -> None:
    files = dict(PLUGIN)
    files["hooks/inject.py"] = 'SPAWN = {"subagent_type": "shop:critic", "name": "py-1", "prompt": "p"}\n'
    root = project(files)
    run = run_cli("audit", str(root), "--output-format", "json")
    assert run.code == 0
    data = json.loads(run.out)
    assert [(a["id"], a["can_report"]) for a in data["agents"]] == [("shop:critic", False)]
    assert data["spawning_units"] == ["commands/review.md"] and data["rule_units"] == ["commands/review.md"]
    sites = {(s["path"], s["line"], s["form"], s["name"], s["resolved"]) for s in data["spawn_sites"]}
    assert sites == {
        ("commands/review.md", 7, "F1", "critic-1", "shop:critic"),
        ("hooks/inject.py", 1, "F10", "py-1", "shop:critic"),
    }
    assert sorted((f["path"], f["code"]) for f in data["findings"]) == [
        ("commands/review.md", "SL101"),
        ("hooks/inject.py", "SL101"),
    ]


def test_audit_markdown_has_graph_with_muted_agent(project: Make) -> None:
    out = run_cli("audit", str(project(PLUGIN))).out
    for heading in (
        "## Agents",
        "## Units",
        "## Spawning set against rule-carrying set",
        "## Spawn sites",
        "## Findings",
    ):
        assert heading in out
    assert 'a1["shop:critic 🔇"]' in out and "u0 -. named .-> a1" in out


def test_concise_output_neutralises_control_characters(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = files["commands/review.md"].replace('"critic-1"', '"c\x1b[2Jx"')
    out = run_cli("check", "--root", str(project(files))).out
    assert "\x1b" not in out and "c\\x1b[2Jx" in out


def test_unusable_baseline_is_a_usage_error(project: Make, tmp_path: Path) -> None:
    bad = tmp_path / "baseline.json"
    bad.write_text("{not json")
    run = run_cli("check", "--root", str(project(PLUGIN)), "--baseline", str(bad))
    assert run.code == 2 and "--baseline" in run.err


def test_a_reader_that_goes_away_is_no_internal_error(tmp_path: Path) -> None:
    """`spawnlint check --show-files | head -1`: the closed pipe ends the run quietly."""
    import subprocess
    import sys

    (tmp_path / "commands").mkdir()
    for n in range(3000):  # ~250 KB of listing: more than a pipe holds, so the writer must meet the close
        (tmp_path / "commands" / f"{'c' * 64}{n}.md").write_text("# c\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "spawnlint", "check", "--root", str(tmp_path), "--show-files"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "internal error" not in err
