"""The CI gate (issue 5): configuration files and keys, suppressions and SL900, baselines that
survive line shifts, output format structure, --quiet, colour."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.dom.minidom
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
SPAWN = '```\nAgent(subagent_type: "{target}", name: "{name}", prompt: "Review.")\n```\n'
PLUGIN: dict[str, str | bytes] = {
    ".claude-plugin/plugin.json": '{"name": "shop"}\n',
    "agents/critic.md": "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\nReview the plan.\n",
    "commands/review.md": "# Review\n\n" + RULE + "\n" + SPAWN.format(target="shop:critic", name="critic-1"),
}


def _with(**changes: str) -> dict[str, str | bytes]:
    files = dict(PLUGIN)
    files.update({k.replace("__", "/").replace("_dot_", "."): v for k, v in changes.items()})
    return files


def _codes(root: Path, *args: str) -> list[str]:
    run = run_cli("check", "--root", str(root), "--output-format", "json", *args)
    assert run.code in (0, 1), run.err
    return [f"{d['path']}:{d['line']}:{d['code']}" for d in json.loads(run.out)]


# --- configuration -----------------------------------------------------------------------------


def test_spawnlint_toml_has_the_keys_at_the_top_level(project: Make) -> None:
    root = project(_with(_dot_spawnlint_dot_toml='ignore = ["SL101"]\n'))
    assert _codes(root) == []


def test_nearest_configuration_wins_and_show_settings_names_it(project: Make, tmp_path: Path) -> None:
    files = _with(pyproject_dot_toml='[tool.spawnlint]\nignore = ["SL101"]\n')
    files["commands/.spawnlint.toml"] = 'select = ["SL2"]\n'
    root = project(files)
    shown = run_cli("check", "--root", str(root), "--show-settings")
    assert shown.code == 0 and f"settings from: {root / 'pyproject.toml'}" in shown.out
    cwd = Path.cwd()
    try:
        os.chdir(root / "commands")  # nearer to where spawnlint runs: .spawnlint.toml wins
        shown = run_cli("check", "--root", str(root), "--show-settings")
        assert f"settings from: {root / 'commands' / '.spawnlint.toml'}" in shown.out
        assert "select = ['SL2']" in shown.out
        assert run_cli("check", "--root", str(root)).lines == []  # SL101 is not selected here
    finally:
        os.chdir(cwd)


def test_pyproject_without_a_spawnlint_table_is_passed_over(project: Make) -> None:
    files = _with(pyproject_dot_toml='[project]\nname = "x"\n')
    files["commands/pyproject.toml"] = "[tool.other]\nx = 1\n"
    root = project(files)
    assert "(none: the defaults)" in run_cli("check", "--root", str(root), "--show-settings").out


def test_explicit_config_file(project: Make, tmp_path: Path) -> None:
    config = tmp_path / "ci.toml"
    config.write_text('ignore = ["SL1"]\n')
    root = project(PLUGIN)
    assert run_cli("check", "--root", str(root), "--config", str(config)).lines == []
    missing = run_cli("check", "--root", str(root), "--config", str(tmp_path / "nope.toml"))
    assert missing.code == 2 and "nope.toml" in missing.err


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ("bogus = 1\n", "bogus"),
        ('severity = { SL101 = "fatal" }\n', "severity.SL101"),
        ('severity = { SL999 = "error" }\n', "SL999"),
        ('select = ["XY1"]\n', "XY1"),
        ('per-file-ignores = { "tests/**" = ["SL7"] }\n', "SL7"),
        ("per-file-ignores = 3\n", "per-file-ignores"),
        ('agents = { "other:x" = 3 }\n', "other:x"),
        ('units = ["docs"]\n', "units"),
        ("max-file-size = -1\n", "max-file-size"),
        ("strict = 1\n", "strict"),
        ('[python]\nspawn-callables = "Agent"\nextra = 1\n', "extra"),
    ],
)
def test_bad_keys_and_values_name_the_key_and_the_file(project: Make, config: str, named: str) -> None:
    root = project(_with(_dot_spawnlint_dot_toml=config))
    run = run_cli("check", "--root", str(root))
    assert run.code == 2
    assert named in run.err and ".spawnlint.toml" in run.err


def test_per_file_ignores_and_extend_select(project: Make) -> None:
    files = _with(pyproject_dot_toml='[tool.spawnlint]\nper-file-ignores = { "commands/**" = ["SL101"] }\n')
    files["docs/notes.md"] = "# Notes\n\n" + SPAWN.format(target="shop:critic", name="n1")
    root = project(files)
    assert _codes(root) == ["docs/notes.md:4:SL101"]
    (root / "docs" / "notes.md").unlink()
    extended = _with(pyproject_dot_toml='[tool.spawnlint]\nselect = ["SL2"]\nextend-select = ["SL101"]\n')
    assert _codes(project(extended)) == ["commands/review.md:7:SL101"]


def test_severity_info_is_shown_and_never_fails(project: Make) -> None:
    root = project(_with(pyproject_dot_toml='[tool.spawnlint]\nseverity = { SL101 = "info" }\n'))
    run = run_cli("check", "--root", str(root), "--strict")
    assert run.code == 0 and "[info]" in run.lines[0]
    sarif = json.loads(run_cli("check", "--root", str(root), "--output-format", "sarif").out)
    assert sarif["runs"][0]["results"][0]["level"] == "note"


def test_configured_agents_resolve_with_their_tools(project: Make) -> None:
    command = "# Go\n\n" + RULE + "\n" + SPAWN.format(target="other:reviewer", name="r1")
    base = {".claude-plugin/plugin.json": '{"name": "shop"}\n', "commands/go.md": command}
    assert _codes(project(base)) == ["commands/go.md:7:SL301"]
    mute = dict(base, **{".spawnlint.toml": '[agents]\n"other:reviewer" = ["Read", "Grep"]\n'})
    root = project(mute)
    run = run_cli("check", "--root", str(root))
    assert run.code == 1 and "SL101" in run.lines[0] and "as configured" in run.lines[0]


def test_configured_agent_globs_and_unknown_tools(project: Make) -> None:
    command = "# Go\n\n" + RULE + "\n" + SPAWN.format(target="other:reviewer", name="r1")
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": '{"name": "shop"}\n',
        "commands/go.md": command,
        ".spawnlint.toml": '[agents]\n"other:*" = true\n',
    }
    assert _codes(project(files)) == []  # it exists; its tools are unknown, so no SL101/SL102 guess


# --- suppressions ------------------------------------------------------------------------------


def test_suppression_on_the_same_line_and_several_codes(project: Make) -> None:
    spawn = 'Agent(subagent_type: "shop:critic", name: "c1", prompt: "Review.")'
    command = f"# Review\n\n{RULE}\n`{spawn}` <!-- spawnlint: ignore[SL101,SL102] -->\n"
    root = project(_with(commands__review_dot_md=command))
    run = run_cli("check", "--root", str(root))
    assert run.lines == [
        "commands/review.md:6:70: SL900 [warning] `spawnlint: ignore[SL101,SL102]` suppresses no SL102"
        " finding here; remove SL102 from it"
    ]
    assert run.code == 0


def test_unused_suppression_and_unused_ignore_file(project: Make) -> None:
    clean = (
        "# Review\n\n" + RULE + "\n" + SPAWN.format(target="shop:critic", name="").replace('name: "", ', "")
    )
    root = project(
        _with(commands__review_dot_md="<!-- spawnlint: ignore-file -->\n<!-- spawnlint: ignore -->\n" + clean)
    )
    assert _codes(root) == ["commands/review.md:1:SL900", "commands/review.md:2:SL900"]
    assert _codes(root, "--ignore", "SL900") == []


def test_suppression_used_by_an_unselected_rule_is_not_unused(project: Make) -> None:
    files = _with()
    files["commands/review.md"] = str(files["commands/review.md"]).replace(
        "```\nAgent", "<!-- spawnlint: ignore[SL101] -->\n```\nAgent"
    )
    assert _codes(project(files), "--select", "SL9") == []


def test_hash_suppressions_in_frontmatter_and_python(project: Make) -> None:
    agent = (
        "---\nname: critic\ndescription: Reviews.\n"
        "tools: [Read, Grep  # spawnlint: ignore[SL001]\n---\nReview.\n"
    )
    hook = (
        "from claude_agent_sdk import Agent\n\n"
        "# spawnlint: ignore[SL101]\n"
        'Agent(subagent_type="shop:critic", name="c9", description="d", prompt="p")\n'
        'Agent(subagent_type="shop:critic", name="c8", description="d", prompt="p")\n'
    )
    root = project(_with(agents__critic_dot_md=agent, hooks__spawn_dot_py=hook))
    assert _codes(root, "--select", "SL001,SL101") == [
        "commands/review.md:7:SL101",
        "hooks/spawn.py:5:SL101",
    ]


# --- baseline ----------------------------------------------------------------------------------


def test_baseline_survives_line_shifts_but_not_new_findings(project: Make, tmp_path: Path) -> None:
    root = project(PLUGIN)
    baseline = tmp_path / "baseline.json"
    written = run_cli("check", "--root", str(root), "--write-baseline", str(baseline))
    assert written.code == 0 and "recorded 1 finding" in written.err
    data = json.loads(baseline.read_text())
    assert data["format"] == "spawnlint-baseline/1" and [f["code"] for f in data["findings"]] == ["SL101"]
    assert run_cli("check", "--root", str(root), "--baseline", str(baseline)).code == 0

    command = root / "commands" / "review.md"
    command.write_text(
        "# Review\n\nSome new text.\nAnd more.\n\n" + command.read_text()[len("# Review\n\n") :]
    )
    shifted = run_cli("check", "--root", str(root), "--baseline", str(baseline))
    assert shifted.code == 0 and shifted.lines == []

    command.write_text(command.read_text() + "\n" + SPAWN.format(target="shop:critic", name="critic-2"))
    new = run_cli("check", "--root", str(root), "--baseline", str(baseline))
    assert new.code == 1 and len(new.lines) == 1 and '"critic-2"' in new.lines[0]


def test_baseline_hides_each_recorded_copy_once(project: Make, tmp_path: Path) -> None:
    root = project(PLUGIN)
    baseline = tmp_path / "b.json"
    run_cli("check", "--root", str(root), "--write-baseline", str(baseline))
    command = root / "commands" / "review.md"
    command.write_text(command.read_text() + "\n" + SPAWN.format(target="shop:critic", name="critic-1"))
    run = run_cli("check", "--root", str(root), "--baseline", str(baseline))
    assert run.code == 1 and len(run.lines) == 1  # the same line twice: one copy is new


def test_a_json_report_is_not_a_baseline(project: Make, tmp_path: Path) -> None:
    root = project(PLUGIN)
    report = tmp_path / "report.json"
    report.write_text(run_cli("check", "--root", str(root), "--output-format", "json").out)
    run = run_cli("check", "--root", str(root), "--baseline", str(report))
    assert run.code == 2 and "--write-baseline" in run.err


# --- output ------------------------------------------------------------------------------------


def test_sarif_structure(project: Make) -> None:
    sarif = json.loads(run_cli("check", "--root", str(project(PLUGIN)), "--output-format", "sarif").out)
    assert sarif["$schema"].endswith("sarif-2.1.0.json") and sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "spawnlint" and driver["version"]
    ids = [r["id"] for r in driver["rules"]]
    assert ids == [r.code for r in RULES]
    for rule in driver["rules"]:
        assert rule["name"] and rule["help"]["text"] and rule["helpUri"].startswith("https://")
        assert rule["helpUri"].endswith(f"{rule['id']}-{rule['name']}.md")
    (result,) = run["results"]
    assert result["ruleId"] in ids and ids[result["ruleIndex"]] == result["ruleId"]
    assert result["level"] in ("error", "warning", "note", "none")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "commands/review.md"
    # the `name` parameter, to the end of what its fix removes (`, name: "critic-1"` from column 35)
    assert location["region"] == {"startLine": 7, "startColumn": 37, "endLine": 7, "endColumn": 53}
    related = result["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == "agents/critic.md"


def test_junit_has_a_suite_per_rule_and_a_failure_per_error(project: Make) -> None:
    files = _with(docs__notes_dot_md="# Notes\n\n" + SPAWN.format(target="shop:critic", name="n1"))
    out = run_cli("check", "--root", str(project(files)), "--output-format", "junit").out
    dom = xml.dom.minidom.parseString(out)
    suites = dom.getElementsByTagName("testsuite")
    assert len(suites) == len(RULES)
    sl101 = next(s for s in suites if s.getAttribute("name").startswith("SL101"))
    assert sl101.getAttribute("failures") == "2" and len(sl101.getElementsByTagName("failure")) == 2
    top = dom.getElementsByTagName("testsuites")[0]
    assert top.getAttribute("failures") == "2"


def test_github_format_escapes_newlines_and_commands(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = str(files["commands/review.md"]).replace('"critic-1"', '"b,c:d%"')
    files["docs/x\n::error::pwned,y.md"] = "# X\n\n" + SPAWN.format(
        target="shop:critic", name="x\r::warning::z"
    )
    out = run_cli("check", "--root", str(project(files)), "--output-format", "github").out
    lines = out.splitlines()
    assert len(lines) == 2 and all(line.startswith("::error file=") for line in lines)  # commands only
    assert "file=docs/x%0A%3A%3Aerror%3A%3Apwned%2Cy.md," in out
    assert '"b,c:d%25"' in out and re.search(r'"x%0[AD]::warning::z"', out)


def test_quiet_prints_only_findings(project: Make) -> None:
    root = project(PLUGIN)
    assert (
        run_cli("check", "--root", str(root), "-q").out.splitlines()
        == run_cli("check", "--root", str(root)).out.splitlines()[:-2]  # the summary and the fixable hint
    )
    clean = project(_with(commands__review_dot_md="# Review\n\nNothing to spawn.\n"))
    assert run_cli("check", "--root", str(clean), "--quiet").out == ""


def _spawnlint(root: Path, *args: str, env: dict[str, str]) -> str:
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "spawnlint", "check", "--root", str(root), *args],
        capture_output=True,
        text=True,
        env=full_env,
        check=False,
    )
    return proc.stdout


def test_colour_only_when_asked_or_on_a_terminal(project: Make) -> None:
    root = project(PLUGIN)
    assert "\x1b[" not in _spawnlint(root, env={})  # a pipe is not a terminal
    coloured = _spawnlint(root, "--color", "always", env={})
    assert "\x1b[31m" in coloured and "\x1b[1mSL101" in coloured.replace("\x1b[31m\x1b[1m", "\x1b[1m")
    assert "\x1b[" in _spawnlint(root, env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in _spawnlint(root, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in _spawnlint(root, "--output-format", "json", "--color", "always", env={})


def test_a_configuration_symlinked_from_outside_is_not_read(project: Make, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.toml"
    outside.write_text('ignore = ["SL1"]\n')
    root = project(PLUGIN)
    (root / ".spawnlint.toml").symlink_to(outside)
    assert "(none: the defaults)" in run_cli("check", "--root", str(root), "--show-settings").out
    assert run_cli("check", "--root", str(root)).code == 1
