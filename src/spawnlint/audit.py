"""`spawnlint audit`: the one-off repository report — plugins, agents, units, spawn sites, the two sets,
a Mermaid graph and the findings — as JSON (stable keys) or GitHub Markdown."""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from spawnlint import __version__
from spawnlint.model import Agent, Diagnostic, Project, Severity, Spawn, Unit
from spawnlint.report.concise import line as concise_line
from spawnlint.report.json_format import as_dict
from spawnlint.report.safe import escape_controls, json_text, log_text
from spawnlint.rules import BY_CODE
from spawnlint.source_lines import SourceLines

AUDIT_FORMAT = "spawnlint-audit/1"  # the JSON's shape: a new number when a key changes meaning
BUILTIN_GROUP = "built-in"
# GitHub renders Mermaid up to a few hundred edges, but past ~80 a graph is no longer read.
GRAPH_EDGE_CAP = 80
GRAPH_PLUGIN_CAP = 12


# The data


def audit_data(project: Project, diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    spawning = sorted(u.id for u in project.units if u.is_spawning)
    carrying = sorted(u.id for u in project.units if u.carries_rule)
    teams = {u.id for u in project.units if u.is_team}  # exempt from the no-name rule (SL201)
    lines = SourceLines(Path(project.root))
    return {
        "format": AUDIT_FORMAT,
        "spawnlint_version": __version__,
        "root": project.root,
        "plugins": _plugins(project),
        "plugin_copies": [{"root": a, "other": b, "why": why} for a, b, why in project.plugin_copies],
        "agents": [_agent(a, project) for a in _listed_agents(project)],
        "units": [{**_unit(u), "plugin": plugin_of(project, u.id)} for u in project.units],
        "spawning_units": spawning,
        "rule_units": carrying,
        "team_units": sorted(teams),
        "spawning_without_rule": [u for u in spawning if u not in carrying and u not in teams],
        "rule_without_spawning": [u for u in carrying if u not in spawning],
        "spawn_sites": [_spawn(s, project) for s in project.spawns],
        "findings": [{**as_dict(d, lines), "plugin": plugin_of(project, d.path)} for d in diagnostics],
        "findings_by_rule": _by_rule(diagnostics),
    }


def plugin_of(project: Project, path: str | None) -> str:
    """The name (or root folder) of the plugin holding a path, the deepest root that is a folder of
    it; built-ins form their own group. One lookup a folder of the path, not one a plugin (a
    marketplace of 1,500 plugins asked this for every unit took minutes)."""
    if path is None:
        return BUILTIN_GROUP
    roots = _roots(project.plugins)
    folder = path
    while "/" in folder:
        folder = folder.rpartition("/")[0]
        if folder in roots:
            return roots[folder] or folder
    if "" in roots:
        return roots[""] or "(project)"
    return "(no plugin)"


@functools.lru_cache(maxsize=4)
def _roots(plugins: tuple[tuple[str, str | None], ...]) -> dict[str, str | None]:
    roots: dict[str, str | None] = {}
    for root, name in plugins:
        roots.setdefault(root, name)  # the first of two plugins at one root, as before
    return roots


def _plugins(project: Project) -> list[dict[str, Any]]:
    agents = Counter(plugin_of(project, a.path) for a in project.agents)
    units = Counter(plugin_of(project, u.id) for u in project.units)
    sites = Counter(plugin_of(project, s.site.path) for s in project.spawns)
    out = []
    for root, name in project.plugins:
        label = name or root or "(project)"
        out.append(
            {
                "name": name,
                "root": root or ".",
                "agents": agents[label],
                "units": units[label],
                "spawn_sites": sites[label],
            }
        )
    return out


def _listed_agents(project: Project) -> list[Agent]:
    """The project's agents, then the built-in types that some spawn site targets."""
    builtins = {a.id: a for s in project.spawns for a in s.target.agents if a.builtin}
    return list(project.agents) + [builtins[k] for k in sorted(builtins)]


def report_status(agent: Agent) -> tuple[bool | None, str]:
    """Whether a named spawn of the agent could report with SendMessage, and why (or why not)."""
    if not agent.tools_known:
        return None, "its tools or prompt are computed by code: not judged"
    kind = "built-in agent type: " if agent.builtin else ""
    disallowed = agent.disallowed
    if disallowed is not None and disallowed.includes("SendMessage"):
        return False, f"{kind}its disallowedTools removes SendMessage"
    tools = agent.tools
    if tools is None and agent.builtin:
        return True, "built-in agent type with every tool"
    if tools is None:
        return True, "no tools key: it inherits every tool, SendMessage included"
    if tools.names is None:
        return True, f"{kind}tools: * grants every tool"
    if "SendMessage" in tools.names:
        return True, f"{kind}its tools list SendMessage"
    if not tools.raw:
        return False, f"{kind}its tools list is empty: it has no tool at all"
    return False, f"{kind}its tools ({', '.join(tools.raw)}) lack SendMessage"


def _agent(agent: Agent, project: Project) -> dict[str, Any]:
    can_report, why = report_status(agent)
    spawned_by = sorted({s.unit or s.site.path for s in project.spawns if agent in s.target.agents})
    named_by = sorted(
        {s.unit or s.site.path for s in project.spawns if agent in s.target.agents and s.site.name}
    )
    return {
        "id": agent.id,
        "name": agent.name,
        "plugin": plugin_of(project, agent.path),
        "path": agent.path,
        "line": agent.name_line or None,
        "builtin": agent.builtin,
        "tools": list(agent.tools.raw) if agent.tools is not None and agent.tools_known else None,
        "disallowed_tools": list(agent.disallowed.raw) if agent.disallowed is not None else None,
        "can_report": can_report,
        "why": why,
        "spawned_by": spawned_by,
        "named_spawn_from": named_by,
    }


def _unit(unit: Unit) -> dict[str, Any]:
    return {
        "path": unit.id,
        "kind": unit.kind,
        "main_file": unit.main_file,
        "spawning": unit.is_spawning,
        "team": unit.is_team,
        "carries_rule": unit.carries_rule,
        "spawn_sites": len(unit.spawning_sites),
        "forked_sites": len(unit.spawns) - len(unit.spawning_sites),
        "rule_sentences": [{"path": path, "line": s.line} for path, s in unit.rule_sentences],
        "status": _unit_status(unit),
    }


def _unit_status(unit: Unit) -> str:
    if unit.is_team:
        return "team unit (no rule needed)"
    if unit.is_spawning and unit.carries_rule:
        return "ok"
    if unit.is_spawning and unit.partial_rules:
        return "incomplete rule (SL203)"
    if unit.is_spawning:
        return "missing rule (SL201)"
    if unit.carries_rule:
        return "stale rule (SL202)"
    return "forked only" if unit.spawns else "no spawns"


def _spawn(spawn: Spawn, project: Project) -> dict[str, Any]:
    site = spawn.site
    agents = [a.id for a in spawn.target.agents]
    return {
        "path": site.path,
        "line": site.line,
        "column": site.column,
        "plugin": plugin_of(project, site.path),
        "unit": spawn.unit,
        "form": site.form,
        "confidence": site.confidence,
        "tool": site.tool,
        "target": site.subagent_type.value if site.subagent_type else None,
        "target_kind": site.subagent_type.kind.value if site.subagent_type else None,
        "resolution": spawn.target.status,
        "resolved": agents[0] if len(agents) == 1 else None,
        "candidates": agents if len(agents) > 1 else [],
        "why_unresolved": _why_unresolved(spawn),
        "named": site.name is not None,
        "name": site.name.value if site.name else None,
        "told_to_report": site.told_to_report,
    }


def _why_unresolved(spawn: Spawn) -> str | None:
    status = spawn.target.status
    written = spawn.site.subagent_type.value if spawn.site.subagent_type else ""
    return {
        "placeholder": f'placeholder "{written}": filled in at run time, not checked',
        "dynamic": f'computed value "{written}": known only at run time, not checked',
        "unknown": f'"{written}" matches no agent of the project and no built-in (SL301)',
        "ambiguous": f'"{written}" matches {len(spawn.target.agents)} agents',
        "external": f'"{written}" is a configured external agent',
    }.get(status)


def _by_rule(diagnostics: Sequence[Diagnostic]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for d in diagnostics:
        entry = out.setdefault(d.code, {"name": BY_CODE[d.code].name, "errors": 0, "warnings": 0})
        entry["errors" if d.severity is Severity.ERROR else "warnings"] += 1
    return dict(sorted(out.items()))


def render_json(project: Project, diagnostics: Sequence[Diagnostic]) -> str:
    return json_text(audit_data(project, diagnostics))


# Markdown


def render_markdown(project: Project, diagnostics: Sequence[Diagnostic]) -> str:
    """The summary first (counts a plugin, every finding with its location, the two sets), then
    one section a plugin with its agents, units, spawn sites and graph: on a marketplace the
    findings come first and each graph stays the size of one plugin."""
    data = audit_data(project, diagnostics)
    out = summary_markdown(project, diagnostics, data)
    for label in _plugin_labels(data):
        out += _plugin_md(data, label)
    builtins = [a for a in data["agents"] if a["builtin"]]
    if builtins:
        out += ["## Built-in agent types", ""] + _agents_table(builtins)
    return _safe("\n".join(out))


def render_summary(
    project: Project, diagnostics: Sequence[Diagnostic], full_report: str | None = None
) -> str:
    """The summary alone (what the plugin's /spawnlint:audit shows): counts a plugin and the
    findings, at most SUMMARY_FINDINGS of them, the rest left to the full report."""
    data = audit_data(project, diagnostics)
    out = summary_markdown(project, diagnostics, data, SUMMARY_FINDINGS, full_report)
    if full_report is not None:
        out += [
            f"The full report (agents, units, spawn sites and a graph a plugin) is in {_code(full_report)}.",
            "",
        ]
    return _safe("\n".join(out))


# A Bash tool result holds about 30,000 characters; a finding line is about 250.
SUMMARY_FINDINGS = 60


def _safe(text: str) -> str:
    return log_text(escape_controls(text, keep="\n"))


def summary_markdown(
    project: Project,
    diagnostics: Sequence[Diagnostic],
    data: dict[str, Any],
    limit: int | None = None,
    full_report: str | None = None,
) -> list[str]:
    title = _code(PurePosixPath(project.root).name or project.root, in_table=False)
    out = [f"# spawnlint audit of {title}", ""]
    out += [_summary(data), ""]
    out += _plugins_md(data) + _copies_md(data) + _findings_md(diagnostics, limit, full_report)
    out += _sets_md(data)
    return out


def _summary(data: dict[str, Any]) -> str:
    agents = [a for a in data["agents"] if not a["builtin"]]
    mute = sum(1 for a in agents if a["can_report"] is False)
    named = sum(1 for s in data["spawn_sites"] if s["named"])
    errors = sum(1 for f in data["findings"] if f["severity"] == "error")
    return (
        f"{_n(len(data['plugins']), 'plugin')}, {_n(len(agents), 'agent')} ({mute} cannot report), "
        f"{_n(len(data['units']), 'unit')} ({len(data['spawning_units'])} spawning, "
        f"{len(data['rule_units'])} carrying the no-name rule), {_n(len(data['spawn_sites']), 'spawn site')} "
        f"({named} named), {_n(len(data['findings']), 'finding')} ({errors} errors)."
    )


def _plugin_labels(data: dict[str, Any]) -> list[str]:
    """Every plugin's label, then "(no plugin)" when some file is in none."""
    labels = [_plugin_label(p) for p in data["plugins"]]
    stray = {a["plugin"] for a in data["agents"] if not a["builtin"]} | {
        s["plugin"] for s in data["spawn_sites"]
    }
    stray |= {u["plugin"] for u in data["units"]}
    return labels + sorted(stray - set(labels))


def _copies_md(data: dict[str, Any]) -> list[str]:
    """Plugin roots that look like copies of one plugin: Claude Code installs one of them."""
    lines = []
    for copy in data["plugin_copies"]:
        pair = f"{_code(copy['root'], in_table=False)} and {_code(copy['other'], in_table=False)}"
        lines.append(
            f"- {pair} look like copies of one plugin ({_text(copy['why'])}): Claude Code installs"
            " one; remove or exclude the stale copy"
        )
    return ["## Plugin copies", "", *lines, ""] if lines else []


def _plugins_md(data: dict[str, Any]) -> list[str]:
    """One row a plugin: what it holds and what is wrong with it."""
    by_plugin: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for f in data["findings"]:
        by_plugin[f["plugin"]][0 if f["severity"] == "error" else 1] += 1
    rows = []
    for p in data["plugins"]:
        label = _plugin_label(p)
        agents = [a for a in data["agents"] if a["plugin"] == label and not a["builtin"]]
        units = [u for u in data["units"] if u["plugin"] == label]
        sites = [s for s in data["spawn_sites"] if s["plugin"] == label]
        errors, warnings = by_plugin[label]
        rows.append(
            [
                _text(p["name"] or "(unnamed)"),
                _code(p["root"]),
                f"{len(agents)} ({sum(1 for a in agents if a['can_report'] is False)} mute)",
                f"{len(units)} ({sum(1 for u in units if u['spawning'])} spawning)",
                f"{len(sites)} ({sum(1 for s in sites if s['named'])} named)",
                sum(1 for u in units if u["status"].startswith("missing")),
                errors,
                warnings,
            ]
        )
    headers = ["plugin", "root", "agents", "units", "spawn sites", "missing rule", "errors", "warnings"]
    return ["## Plugins", ""] + _table(headers, rows)


def _plugin_md(data: dict[str, Any], label: str) -> list[str]:
    """The section of one plugin: its agents, units, spawn sites and graph."""
    agents = [a for a in data["agents"] if a["plugin"] == label and not a["builtin"]]
    units = [u for u in data["units"] if u["plugin"] == label]
    sites = [s for s in data["spawn_sites"] if s["plugin"] == label]
    if not (agents or units or sites):
        return []  # a marketplace's own root, say: its row in the Plugins table says it holds nothing
    out = [f"## Plugin {_code(label, in_table=False)}", ""]
    out += ["### Agents", ""] + (_agents_table(agents) if agents else ["No agents.", ""])
    out += ["### Units", ""] + (_units_table(units) if units else ["No units.", ""])
    out += ["### Spawn sites", ""] + (_sites_table(sites) if sites else ["No spawn sites.", ""])
    if sites:
        out += ["### Graph", ""] + mermaid({**data, "spawn_sites": sites})
    return out


def _agents_table(agents: list[dict[str, Any]]) -> list[str]:
    rows = []
    for a in agents:
        where = "built-in" if a["builtin"] else _code(f"{a['path']}:{a['line']}")
        report = {True: "yes", False: "🔇 **no**", None: "not judged"}[a["can_report"]]
        spawned = ", ".join(
            _code(u) + (" (named)" if u in a["named_spawn_from"] else "") for u in a["spawned_by"]
        )
        rows.append([_code(a["id"]), where, _tools_cell(a), report, _text(a["why"]), spawned or "—"])
    return _table(["agent", "file", "tools", "can report?", "why", "spawned by"], rows)


def _tools_cell(agent: dict[str, Any]) -> str:
    if agent["tools"] is not None:
        return _text(", ".join(agent["tools"]) or "(none)")
    if agent["can_report"] is None:
        return "(computed by code)"
    return "(every tool)" if agent["builtin"] else "(no `tools` key)"


def _units_table(units: list[dict[str, Any]]) -> list[str]:
    rows = [
        [
            _code(u["path"]),
            u["kind"],
            u["spawn_sites"],
            _yes(u["spawning"]),
            _yes(u["carries_rule"]),
            u["status"],
        ]
        for u in units
    ]
    return _table(["unit", "kind", "spawn sites", "spawns?", "carries the no-name rule?", "status"], rows)


def _sets_md(data: dict[str, Any]) -> list[str]:
    def listing(units: list[str]) -> str:
        return ", ".join(_code(u) for u in units) or "none"

    missing, stale = data["spawning_without_rule"], data["rule_without_spawning"]
    out = ["## Spawning set against rule-carrying set", ""]
    out.append(f"- Spawning units ({len(data['spawning_units'])}): {listing(data['spawning_units'])}")
    out.append(
        f"- Units carrying the no-name rule ({len(data['rule_units'])}): {listing(data['rule_units'])}"
    )
    out.append(f"- Spawn but do not carry the rule ({len(missing)}, SL201): {listing(missing)}")
    out.append(f"- Carry the rule but spawn nothing ({len(stale)}, SL202): {listing(stale)}")
    verdict = "The two sets are equal." if not missing and not stale else "The two sets differ."
    forked = " A skill that only forks (`context: fork`) does not count as spawning."
    return out + ["", verdict + forked, ""]


def _sites_table(sites: list[dict[str, Any]]) -> list[str]:
    rows = []
    for s in sites:
        target = s["target"] if s["target"] is not None else "(none: general-purpose)"
        resolved = s["resolved"] or ", ".join(s["candidates"]) or "—"
        why = s["why_unresolved"]
        rows.append(
            [
                _code(f"{s['path']}:{s['line']}:{s['column']}"),
                _code(s["unit"]) if s["unit"] else "(not a unit)",
                s["form"],
                s["confidence"],
                _code(target),
                _code(resolved) if not why else _text(why),
                _code(s["name"]) if s["named"] else "no",
            ]
        )
    headers = ["location", "unit", "form", "confidence", "target", "resolves to", "named?"]
    return _table(headers, rows)


def _findings_md(
    diagnostics: Sequence[Diagnostic], limit: int | None = None, full_report: str | None = None
) -> list[str]:
    """Counts by rule, then every finding with its location (the first `limit` of them)."""
    out = ["## Findings", ""]
    if not diagnostics:
        return out + ["None.", ""]
    rows = [
        [_code(code), BY_CODE[code].name, entry["errors"], entry["warnings"]]
        for code, entry in _by_rule(diagnostics).items()
    ]
    out += _table(["rule", "name", "errors", "warnings"], rows)
    shown = list(diagnostics if limit is None else diagnostics[:limit])
    out += _fenced("text", [concise_line(d) for d in shown])
    if len(shown) < len(diagnostics):
        where = f" in {_code(full_report)}" if full_report else " in the full report (`spawnlint audit`)"
        out += [f"… and {_n(len(diagnostics) - len(shown), 'more finding')}{where}.", ""]
    return out


def _fenced(info: str, lines: list[str]) -> list[str]:
    """A code block no line of project text can close: its fence is longer than any run of
    backticks inside."""
    longest = max((len(run) for text in lines for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, *lines, fence, ""]


def _table(headers: list[str], rows: Sequence[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out + [""]


def _text(value: object) -> str:
    """Project text in a table cell: one line, no pipes breaking the row, no HTML, no link or
    emphasis of its own."""
    text = escape_controls(" ".join(str(value).split()))
    for char, escaped in (
        ("\\", "\\\\"),
        ("|", "\\|"),
        ("`", "\\`"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ("[", "\\["),
        ("]", "\\]"),
        ("*", "\\*"),
    ):
        text = text.replace(char, escaped)
    return text or "—"


def _code(value: str, in_table: bool = True) -> str:
    """Project text as inline code (where HTML and emphasis are not read); in a table cell a `|`
    is escaped even there (GitHub splits the row at it otherwise), and text holding a backtick is
    escaped text instead."""
    text = escape_controls(" ".join(value.split()))
    if in_table:
        text = text.replace("|", "\\|")
    return f"`{text}`" if text and "`" not in text else _text(value)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


# The graph


def mermaid(data: dict[str, Any], cap: int = GRAPH_EDGE_CAP, plugin_cap: int = GRAPH_PLUGIN_CAP) -> list[str]:
    """Units → agents, grouped by plugin; named spawns dotted and labelled, mute agents marked 🔇.
    Past `cap` links (or `plugin_cap` spawning plugins), named spawns and links to mute agents are
    drawn first and the rest is summed up in one node per plugin."""
    mute = {a["id"] for a in data["agents"] if a["can_report"] is False}
    links, source_plugin = _links(data)
    if not links:
        return ["No spawn site resolves to an agent: nothing to draw.", ""]
    drawn = _top_plugins(links, mute, source_plugin, plugin_cap)
    shown = _pick({k: v for k, v in links.items() if source_plugin[k[0]] in drawn}, mute, source_plugin, cap)
    graph = _Graph()
    groups: dict[str, list[str]] = defaultdict(list)
    plugin_of_agent = {a["id"]: a["plugin"] for a in data["agents"]}
    roots = {_plugin_label(p): p["root"] for p in data["plugins"]}
    for source, agent in shown:
        groups[source_plugin[source]].append(
            graph.node("u", source, _within(source, roots.get(source_plugin[source])))
        )
        label = agent + (" 🔇" if agent in mute else "")
        groups[plugin_of_agent.get(agent, BUILTIN_GROUP)].append(graph.node("a", agent, label))
    hidden = _hidden(links, shown, source_plugin)
    for plugin in drawn:
        if plugin in hidden:
            count, sources = hidden[plugin]
            groups[plugin].append(
                graph.node("more", plugin, f"… {_n(count, 'more link')} from {_n(sources, 'unit')}")
            )
    lines = ["```mermaid", "flowchart LR"]
    for index, plugin in enumerate(sorted(groups)):
        lines.append(f'  subgraph g{index}["{_label(plugin)}"]')
        lines += [f"    {n}" for n in dict.fromkeys(groups[plugin])]
        lines.append("  end")
    rest = [p for p in hidden if p not in drawn]
    if rest:
        links_left = sum(hidden[p][0] for p in rest)
        lines.append(
            "  " + graph.node("more", "", f"… {_n(len(rest), 'more plugin')} with {_n(links_left, 'link')}")
        )
    for source, agent in shown:
        arrow = "-. named .->" if links[source, agent] else "-->"
        lines.append(f"  {graph.ids['u', source]} {arrow} {graph.ids['a', agent]}")
    mute_ids = dict.fromkeys(sorted(graph.ids["a", a] for _, a in shown if a in mute))
    if mute_ids:
        lines += ["  classDef mute fill:#fde2e2,stroke:#c0392b", f"  class {','.join(mute_ids)} mute"]
    legend = "Units (and other files that spawn) → the agents they spawn, grouped by plugin; a dotted "
    legend += "`named` link is a named spawn (a teammate); 🔇 marks an agent that cannot report."
    if len(shown) < len(links):
        legend += (
            f" The graph shows {len(shown)} of {len(links)} links (named spawns and mute agents first);"
            " the Spawn sites table has them all."
        )
    return [legend, ""] + lines + ["```", ""]


def _plugin_label(plugin: dict[str, Any]) -> str:
    return str(plugin["name"] or (plugin["root"] if plugin["root"] != "." else "(project)"))


def _within(path: str, root: str | None) -> str:
    """A path as shown inside its plugin's box: relative to the plugin folder."""
    if root in (None, ".") or not path.startswith(f"{root}/"):
        return path
    return path[len(root) + 1 :]


def _links(data: dict[str, Any]) -> tuple[dict[tuple[str, str], bool], dict[str, str]]:
    """(source, agent) -> whether any of its spawns is named; and each source's plugin."""
    links: dict[tuple[str, str], bool] = {}
    source_plugin: dict[str, str] = {}
    for s in data["spawn_sites"]:
        source = s["unit"] or s["path"]
        source_plugin[source] = s["plugin"]
        for agent in [s["resolved"]] if s["resolved"] else s["candidates"]:
            links[source, agent] = links.get((source, agent), False) or s["named"]
    return links, source_plugin


def _top_plugins(
    links: dict[tuple[str, str], bool], mute: set[str], source_plugin: dict[str, str], cap: int
) -> list[str]:
    """The spawning plugins to draw: those with the most named or mute links, then the most links."""
    weight: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (source, agent), named in links.items():
        weight[source_plugin[source]][0] += named or agent in mute
        weight[source_plugin[source]][1] += 1
    ranked = sorted(weight, key=lambda p: (-weight[p][0], -weight[p][1], p))
    return sorted(ranked[:cap])


def _pick(
    links: dict[tuple[str, str], bool], mute: set[str], source_plugin: dict[str, str], cap: int
) -> list[tuple[str, str]]:
    """At most `cap` links: the ones that matter first, taken in turn from each plugin."""
    ordered = sorted(links, key=lambda k: (not links[k], k[1] not in mute, k))
    if len(ordered) <= cap:
        return sorted(ordered)
    shown: list[tuple[str, str]] = []
    for wanted in (True, False):
        queues: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for link in ordered:
            if (links[link] or link[1] in mute) == wanted:
                queues[source_plugin[link[0]]].append(link)
        while len(shown) < cap and any(queues.values()):
            for plugin in sorted(queues):
                if queues[plugin] and len(shown) < cap:
                    shown.append(queues[plugin].pop(0))
    return sorted(shown)


def _hidden(
    links: dict[tuple[str, str], bool], shown: list[tuple[str, str]], source_plugin: dict[str, str]
) -> dict[str, tuple[int, int]]:
    """plugin -> (links not drawn, units they come from)."""
    drawn = set(shown)
    count: dict[str, int] = defaultdict(int)
    sources: dict[str, set[str]] = defaultdict(set)
    for link in links:
        if link not in drawn:
            plugin = source_plugin[link[0]]
            count[plugin] += 1
            sources[plugin].add(link[0])
    return {p: (count[p], len(sources[p])) for p in sorted(count)}


class _Graph:
    def __init__(self) -> None:
        self.ids: dict[tuple[str, str], str] = {}

    def node(self, kind: str, key: str, label: str) -> str:
        node_id = self.ids.setdefault((kind, key), f"{kind}{len(self.ids)}")
        return f'{node_id}["{_label(label)}"]'


def _label(text: str) -> str:
    """Project text inside a quoted Mermaid label: entity codes for what the parser would read."""
    text = escape_controls(" ".join(text.split()))
    for char, code in (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;"), ("`", "#96;")):
        text = text.replace(char, code)
    return text
