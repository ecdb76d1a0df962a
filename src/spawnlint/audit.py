"""`spawnlint audit`: the one-off repository audit — every plugin, agent (can it report?),
spawning unit, spawn site, the derived spawning set against the rule-carrying set, a Mermaid
graph of units and the agents they spawn, and the findings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spawnlint.model import Agent, Diagnostic, Project, Spawn
from spawnlint.report.concise import line as concise_line
from spawnlint.report.json_format import as_dict
from spawnlint.report.safe import escape_controls, json_text, log_text


def audit_data(project: Project, diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    units = [
        {
            "unit": u.id,
            "kind": u.kind,
            "spawning": u.is_spawning,
            "carries_rule": u.carries_rule,
            "spawn_sites": len(u.spawns),
            "status": _unit_status(u.is_spawning, u.carries_rule),
        }
        for u in project.units
    ]
    return {
        "root": project.root,
        "plugins": [{"root": root or ".", "name": name} for root, name in project.plugins],
        "agents": [_agent(a) for a in project.agents],
        "units": units,
        "spawning_set": sorted(u.id for u in project.units if u.is_spawning),
        "rule_set": sorted(u.id for u in project.units if u.carries_rule),
        "spawn_sites": [_spawn(s) for s in project.spawns],
        "findings": [as_dict(d) for d in diagnostics],
    }


def _unit_status(spawning: bool, carries: bool) -> str:
    if spawning and carries:
        return "ok"
    if spawning:
        return "missing rule (SL201)"
    if carries:
        return "stale rule (SL202)"
    return "no spawns"


def _agent(agent: Agent) -> dict[str, Any]:
    if not agent.tools_known:
        tools = "computed by code"
    elif agent.tools is None:
        tools = "all (no tools key)"
    else:
        tools = ", ".join(agent.tools.raw) or "none"
    return {
        "id": agent.id,
        "path": agent.path,
        "line": agent.name_line,
        "tools": tools,
        "disallowed": ", ".join(agent.disallowed.raw) if agent.disallowed else "",
        "can_report": agent.can_report if agent.tools_known else None,
    }


def _spawn(spawn: Spawn) -> dict[str, Any]:
    site = spawn.site
    target = site.subagent_type.value if site.subagent_type else None
    resolved = spawn.target.agents[0].id if spawn.target.agents else None
    return {
        "path": site.path,
        "line": site.line,
        "form": site.form,
        "confidence": site.confidence,
        "tool": site.tool,
        "unit": spawn.unit,
        "target": target,
        "resolution": spawn.target.status,
        "agent": resolved,
        "named": site.name is not None,
        "name": site.name.value if site.name else None,
    }


def render_json(project: Project, diagnostics: Sequence[Diagnostic]) -> str:
    return json_text(audit_data(project, diagnostics))


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ") or "—"


def _table(headers: list[str], rows: list[list[object]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out + [""]


def render_markdown(project: Project, diagnostics: Sequence[Diagnostic]) -> str:
    data = audit_data(project, diagnostics)
    out = [f"# spawnlint audit of `{project.root}`", ""]
    out += ["## Plugins", ""] + _table(["root", "name"], [[p["root"], p["name"]] for p in data["plugins"]])
    out += ["## Agents", ""]
    out += _table(
        ["agent", "file", "tools", "can report?"],
        [
            [
                a["id"],
                f"{a['path']}:{a['line']}",
                a["tools"],
                {True: "yes", False: "**no**", None: "unknown"}[a["can_report"]],
            ]
            for a in data["agents"]
        ],
    )
    out += ["## Units: spawning set against rule-carrying set", ""]
    out += _table(
        ["unit", "kind", "spawn sites", "spawns?", "carries no-name rule?", "status"],
        [
            [
                u["unit"],
                u["kind"],
                u["spawn_sites"],
                _yes(u["spawning"]),
                _yes(u["carries_rule"]),
                u["status"],
            ]
            for u in data["units"]
        ],
    )
    out += ["## Spawn sites", ""]
    out += _table(
        ["site", "form", "confidence", "target", "resolves to", "named?"],
        [
            [
                f"{s['path']}:{s['line']}",
                s["form"],
                s["confidence"],
                s["target"] or "(general-purpose)",
                s["agent"] or s["resolution"],
                s["name"] if s["named"] else "no",
            ]
            for s in data["spawn_sites"]
        ],
    )
    out += ["## Graph", "", "Units and the agents they spawn; a muted agent is marked 🔇.", ""]
    out += _mermaid(project)
    out += ["## Findings", ""]
    out += (
        ["```text"] + [concise_line(d) for d in diagnostics] + ["```", ""] if diagnostics else ["None.", ""]
    )
    return log_text(escape_controls("\n".join(out), keep="\n"))


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _mermaid(project: Project) -> list[str]:
    ids: dict[str, str] = {}

    def node(key: str, label: str) -> str:
        if key not in ids:
            ids[key] = f"n{len(ids)}"
        return f'{ids[key]}["{label.replace(chr(34), "#quot;")}"]'

    edges = set()
    for spawn in project.spawns:
        source = spawn.unit or spawn.site.path
        for agent in spawn.target.agents:
            mark = " 🔇" if agent.tools_known and not agent.can_report else ""
            edge = "-. named .->" if spawn.site.name is not None else "-->"
            edges.add(f"  {node('u:' + source, source)} {edge} {node('a:' + agent.id, agent.id + mark)}")
    return ["```mermaid", "graph LR"] + sorted(edges) + ["```", ""]
