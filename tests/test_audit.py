"""`spawnlint audit`: the sets, the agents that cannot report and why, spawn sites, the graph."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, run_cli, write_project

SHOP = REPO / "tests" / "projects" / "audit-shop" / "project"
Make = Callable[[dict[str, str | bytes]], Path]


@pytest.fixture(scope="module")
def shop() -> dict[str, object]:
    run = run_cli("audit", str(SHOP), "--output-format", "json")
    assert run.code == 0, run.err
    data: dict[str, object] = json.loads(run.out)
    return data


def test_json_has_the_documented_keys(shop: dict[str, object]) -> None:
    for key in ("plugins", "agents", "units", "spawning_units", "rule_units", "spawn_sites", "findings"):
        assert key in shop
    for agent in shop["agents"]:  # type: ignore[attr-defined]
        assert {"id", "path", "tools", "can_report", "why"} <= set(agent)


def test_spawning_set_and_rule_set_are_exact(shop: dict[str, object]) -> None:
    assert shop["spawning_units"] == [
        "commands/plan.md",
        "commands/review.md",
        "commands/scan.md",
        "commands/team.md",
    ]
    assert shop["rule_units"] == ["commands/notes.md", "commands/review.md", "commands/scan.md"]
    assert shop["spawning_without_rule"] == ["commands/plan.md", "commands/team.md"]
    assert shop["rule_without_spawning"] == ["commands/notes.md"]


def test_agents_say_whether_they_can_report_and_why(shop: dict[str, object]) -> None:
    agents = {a["id"]: a for a in shop["agents"]}  # type: ignore[attr-defined]
    assert {k: a["can_report"] for k, a in agents.items()} == {
        "shop:critic": False,
        "shop:review:security": False,
        "shop:planner": True,
        "shop:scout": True,
        "Explore": True,
    }
    critic, security = agents["shop:critic"], agents["shop:review:security"]
    assert critic["tools"] == ["Read", "Grep", "Glob"] and critic["path"] == "agents/critic.md"
    assert critic["why"] == "its tools (Read, Grep, Glob) lack SendMessage"
    assert critic["named_spawn_from"] == ["commands/scan.md"]
    assert security["tools"] is None and security["disallowed_tools"] == ["SendMessage", "Write"]
    assert security["why"] == "its disallowedTools removes SendMessage"
    assert agents["shop:planner"]["why"].startswith("no tools key")
    assert agents["Explore"]["builtin"] is True and agents["Explore"]["path"] is None


def test_units_and_spawn_sites(shop: dict[str, object]) -> None:
    units = {u["path"]: (u["spawning"], u["carries_rule"], u["status"]) for u in shop["units"]}  # type: ignore[attr-defined]
    assert units["commands/notes.md"] == (False, True, "stale rule (SL202)")
    assert units["skills/explore"] == (False, False, "forked only")
    sites = {
        (s["path"], s["line"], s["form"], s["confidence"], s["resolved"], s["named"], s["name"])
        for s in shop["spawn_sites"]  # type: ignore[attr-defined]
    }
    assert sites == {
        ("commands/plan.md", 7, "F4", "high", "shop:planner", False, None),
        ("commands/review.md", 11, "F1", "high", "shop:critic", False, None),
        ("commands/review.md", 17, "F2", "high", "shop:review:security", False, None),
        ("commands/scan.md", 10, "F5", "high", "shop:critic", True, "critic-1"),
        ("commands/team.md", 7, "F6", "medium", "shop:scout", False, None),
        ("skills/explore/SKILL.md", 5, "F9", "high", "Explore", False, None),
    }
    assert shop["findings_by_rule"] == {
        "SL101": {"name": "named-spawn-mute-agent", "errors": 1, "warnings": 0},
        "SL201": {"name": "missing-no-name-rule", "errors": 2, "warnings": 0},
        "SL202": {"name": "stale-no-name-rule", "errors": 0, "warnings": 1},
    }


def test_unresolved_targets_say_why(project: Make) -> None:
    files = {
        "commands/go.md": (
            "# Go\n\n"
            '```\nAgent(subagent_type: "{area}-reviewer", prompt: "x")\n'
            'Agent(subagent_type: "shop:nobody", prompt: "y")\n```\n'
        )
    }
    data = json.loads(run_cli("audit", str(project(files)), "--output-format", "json").out)
    why = {s["target"]: (s["resolved"], s["why_unresolved"]) for s in data["spawn_sites"]}
    assert why["{area}-reviewer"] == (
        None,
        'placeholder "{area}-reviewer": filled in at run time, not checked',
    )
    assert why["shop:nobody"] == (
        None,
        '"shop:nobody" matches no agent of the project and no built-in (SL301)',
    )


def test_markdown_sets_spelled_out_and_graph_names_agents() -> None:
    out = run_cli("audit", str(SHOP)).out
    assert "- Spawn but do not carry the rule (2, SL201): `commands/plan.md`, `commands/team.md`" in out
    assert "- Carry the rule but spawn nothing (1, SL202): `commands/notes.md`" in out
    graph = out.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert graph.startswith("flowchart LR\n")
    ids = dict(re.findall(r'(\w+)\["([^"]*)"\]', graph))
    node = {label: node_id for node_id, label in ids.items()}
    assert {"shop:critic 🔇", "shop:review:security 🔇", "shop:scout", "shop:planner", "Explore"} <= set(node)
    assert f"{node['commands/scan.md']} -. named .-> {node['shop:critic 🔇']}" in graph
    assert f"{node['commands/review.md']} --> {node['shop:critic 🔇']}" in graph
    assert 'subgraph g1["shop"]' in graph and 'subgraph g0["built-in"]' in graph
    assert "| `SL201` | missing-no-name-rule | 2 | 0 |" in out


def test_output_file_gets_the_same_report(tmp_path: Path) -> None:
    target = tmp_path / "audit.md"
    run = run_cli("audit", str(SHOP), "--output", str(target))
    assert run.code == 0 and run.out == "" and "wrote the audit" in run.err
    assert target.read_text("utf-8") == run_cli("audit", str(SHOP)).out
    assert [p.name for p in tmp_path.iterdir()] == ["audit.md"]  # no temporary file left behind
    unwritable = run_cli("audit", str(SHOP), "--output", str(tmp_path / "missing" / "a.md"))
    assert unwritable.code == 2 and "--output" in unwritable.err


def _marketplace(root: Path, plugins: int, commands: int) -> Path:
    entries = [{"name": f"p{i}", "source": f"./plugins/p{i}"} for i in range(plugins)]
    files: dict[str, str | bytes] = {
        ".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": entries})
    }
    for i in range(plugins):
        base = f"plugins/p{i}"
        files[f"{base}/.claude-plugin/plugin.json"] = json.dumps({"name": f"p{i}"})
        files[f"{base}/agents/ok.md"] = "---\nname: ok\ndescription: d\n---\nWork.\n"
        files[f"{base}/agents/mute.md"] = "---\nname: mute\ndescription: d\ntools: Read\n---\nWork.\n"
        for c in range(commands):
            target = "mute" if c == 0 else "ok"
            files[f"{base}/commands/c{c}.md"] = (
                f'# C\n\n```\nAgent(subagent_type: "p{i}:{target}", prompt: "x")\n```\n'
            )
        files[f"{base}/commands/named.md"] = (
            f'# N\n\n```\nAgent(subagent_type: "p{i}:ok", name: "n", prompt: "x")\n```\n'
        )
    return write_project(root, files)


def _graphs(out: str) -> list[str]:
    return [part.split("```", 1)[0] for part in out.split("```mermaid\n")[1:]]


def _edges(graph: str) -> list[str]:
    return [line for line in graph.splitlines() if "-->" in line or ".->" in line]


def test_a_marketplace_gets_one_graph_a_plugin(tmp_path: Path) -> None:
    root = _marketplace(tmp_path / "m", plugins=20, commands=2)
    out = run_cli("audit", str(root)).out
    graphs = {re.findall(r'subgraph g\d+\["(p\d+)"\]', g)[0]: g for g in _graphs(out)}
    assert sorted(graphs) == sorted(f"p{i}" for i in range(20))
    for name, graph in graphs.items():
        assert len(_edges(graph)) == 3 and graph.count("subgraph ") == 1
        assert set(re.findall(r"p\d+(?=:)", graph)) == {name}  # only its own agents
    assert "more plugin" not in out and "The graph shows" not in out


def test_a_big_plugin_graph_is_capped_and_keeps_what_matters(tmp_path: Path) -> None:
    root = _marketplace(tmp_path / "m", plugins=2, commands=120)
    out = run_cli("audit", str(root)).out
    for graph in _graphs(out):
        i = re.findall(r'subgraph g\d+\["p(\d+)"\]', graph)[0]
        edges = _edges(graph)
        assert len(edges) == 80
        assert sum(".->" in e for e in edges) == 1  # the named spawn is drawn
        labels = dict(re.findall(r'(\w+)\["([^"]*)"\]', graph))
        assert any(labels.get(e.split()[-1]) == f"p{i}:mute 🔇" for e in edges)
        assert [v for v in labels.values() if v.startswith("…")] == ["… 41 more links from 41 units"]
    assert out.count("The graph shows 80 of 121 links") == 2


def test_the_summary_comes_first_with_every_finding(tmp_path: Path) -> None:
    root = _marketplace(tmp_path / "m", plugins=6, commands=5)
    out = run_cli("audit", str(root)).out
    findings = out.index("## Findings")
    assert findings < out.index("## Plugin `p0`") < out.index("```mermaid")
    data = json.loads(run_cli("audit", str(root), "--output-format", "json").out)
    block = out[findings:].split("```text\n", 1)[1].split("```", 1)[0]
    assert len(block.splitlines()) == len(data["findings"]) > 6
    for f in data["findings"]:
        assert f"{f['path']}:{f['line']}:{f['column']}: {f['code']}" in block
    assert "| p0 | `plugins/p0` | 2 (1 mute) | 6 (6 spawning) | 6 (1 named) | 6 | 6 | 1 |" in out


def test_summary_alone_and_with_the_full_report_in_a_file(tmp_path: Path) -> None:
    root = _marketplace(tmp_path / "m", plugins=30, commands=2)
    summary = run_cli("audit", str(root), "--summary")
    assert summary.code == 0 and "## Findings" in summary.out and "## Plugin " not in summary.out
    assert "… and 60 more findings in the full report" in summary.out  # 120 findings, 60 shown
    target = tmp_path / "audit.md"
    both = run_cli("audit", str(root), "--output", str(target), "--summary")
    assert both.code == 0 and f"… and 60 more findings in `{target}`" in both.out
    assert f"The full report (agents, units, spawn sites and a graph a plugin) is in `{target}`." in both.out
    assert "## Plugin `p29`" in target.read_text("utf-8")


def test_small_graph_is_not_capped(project: Make) -> None:
    out = run_cli("audit", str(_marketplace(project({}).parent / "s", plugins=2, commands=3))).out
    assert "more link" not in out and "The graph shows" not in out


def test_graph_labels_and_cells_escape_project_text(project: Make) -> None:
    files: dict[str, str | bytes] = {
        'commands/we"ird<b>#x|y.md': '# W\n\n```\nAgent(subagent_type: "general-purpose", prompt: "x")\n```\n',
        "agents/odd.md": "---\nname: o|d\ndescription: d\ntools: Read, Bash(a|b), Grep(<b>)\n---\nWork.\n",
        "agents/tick.md": "---\nname: t`ick\ndescription: d\n---\nWork.\n",
    }
    out = run_cli("audit", str(project(files))).out
    assert 'u0["commands/we#quot;ird#lt;b#gt;#35;x|y.md"]' in out
    assert "| t\\`ick |" in out and "| `o\\|d` |" in out and "| Read, Bash(a\\|b), Grep(&lt;b&gt;) |" in out
    outside_code = re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", out, flags=re.S))
    assert "<b>" not in outside_code and 'we"ird' in out  # HTML is shown only inside code


def test_readme_example_is_the_real_output() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    out = run_cli("audit", str(SHOP)).out
    assert f"````markdown\n{out}````" in readme, "rerun `spawnlint audit tests/projects/audit-shop/project`"
    graph = out.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert f"Its graph:\n\n```mermaid\n{graph}```" in readme


HOSTILE_NAMES = [
    "a|b<img src=x onerror=alert(1)>",
    "x\n```\n# Injected\n| a | b |",
    "[click](https://evil.example) *y*",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_project_text_cannot_break_a_table_or_open_a_fence(project: Make, name: str) -> None:
    """Issue 20 item 4: the plugin name from plugin.json (and every other cell) is escaped."""
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": json.dumps({"name": name}),
        "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nWork.\n",
        "commands/review.md": f'# R\n\n```\nAgent(subagent_type: {json.dumps(name + ":critic")}, name: "c", prompt: "x")\n```\n',
    }
    out = run_cli("audit", str(project(files))).out
    lines = out.splitlines()
    fences = [line for line in lines if line.startswith("```")]
    openings, closings = fences[::2], fences[1::2]
    assert [f.lstrip("`") for f in openings] in (["text", "mermaid"], ["text"])
    assert closings == ["`" * (len(f) - len(f.lstrip("`"))) for f in openings]
    for i, line in enumerate(lines):
        if line.startswith("|"):
            header = next(lines[j] for j in range(i, -1, -1) if not lines[j - 1].startswith("|"))
            assert len(re.findall(r"(?<!\\)\|", line)) == len(re.findall(r"(?<!\\)\|", header)), line
        assert not line.startswith("# Injected")
    outside_fences, inside = [], False
    for line in lines:
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            outside_fences.append(line)
    prose = re.sub(r"`[^`]*`", "", "\n".join(outside_fences))
    assert "<img" not in prose and not re.search(r"(?<!\\)\]\(https://evil", prose), prose
    graph = out.split("```mermaid\n", 1)[1].split("```", 1)[0] if "```mermaid" in out else ""
    assert "<img" not in graph and all(line.count('"') % 2 == 0 for line in graph.splitlines())


def test_a_team_unit_is_not_listed_as_missing_the_rule(project: Make) -> None:
    """The audit agrees with SL201: a unit that builds a team on purpose needs no no-name rule."""
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": '{"name": "shop"}',
        "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read, SendMessage\n---\nWork.\n",
        "commands/team.md": (
            "# Team review\n\nCreate a team and spawn two teammates that report with SendMessage:\n\n"
            '```\nAgent(subagent_type: "shop:critic", name: "c1", team_name: "review", '
            'prompt: "Review it; send your findings to team-lead with SendMessage.")\n```\n'
        ),
    }
    data = json.loads(run_cli("audit", str(project(files)), "--output-format", "json").out)
    assert data["team_units"] == ["commands/team.md"]
    assert data["spawning_without_rule"] == []
    assert [u["status"] for u in data["units"]] == ["team unit (no rule needed)"]


def test_each_plugin_counts_what_lies_in_it_the_deepest_root_winning(project: Make) -> None:
    """A marketplace of many plugins, one nested in another's folder: every agent, unit and site
    counts for the deepest plugin root that holds it (a root itself is no ancestor of itself)."""
    files: dict[str, str | bytes] = {
        ".claude-plugin/marketplace.json": json.dumps(
            {
                "name": "m",
                "owner": {"name": "o"},
                "plugins": [{"name": f"p{i}", "source": f"./plugins/p{i}"} for i in range(3)]
                + [{"name": "inner", "source": "./plugins/p0/inner"}],
            }
        ),
        "plugins/p0/agents/a.md": "---\nname: a\ndescription: d\n---\nWork.\n",
        "plugins/p0/commands/go.md": "Dispatch the `a` agent via the Agent tool.\n",
        "plugins/p0/inner/commands/x.md": "Summarise the notes.\n",
        "plugins/p2/commands/y.md": "Summarise the notes.\n",
    }
    for i in range(3):
        files[f"plugins/p{i}/.claude-plugin/plugin.json"] = json.dumps({"name": f"p{i}"})
    files["plugins/p0/inner/.claude-plugin/plugin.json"] = json.dumps({"name": "inner"})
    data = json.loads(run_cli("audit", "--root", str(project(files)), "--output-format", "json").out)
    counts = {p["name"]: (p["agents"], p["units"], p["spawn_sites"]) for p in data["plugins"]}
    assert counts == {None: (0, 0, 0), "p0": (1, 1, 1), "p1": (0, 0, 0), "p2": (0, 1, 0), "inner": (0, 1, 0)}
    assert {u["path"]: u["plugin"] for u in data["units"]} == {
        "plugins/p0/commands/go.md": "p0",
        "plugins/p0/inner/commands/x.md": "inner",
        "plugins/p2/commands/y.md": "p2",
    }
