"""SL301 unknown-subagent-type and SL302 spawn-tool-disallowed."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from spawnlint.model import Finding, Location, Project, ValueKind


def unknown_subagent_type(project: Project) -> Iterator[Finding]:
    lowered = {alias: agents[0].id for alias, agents in project.agent_index.items()}
    for spawn in project.spawns:
        target = spawn.site.subagent_type
        if target is None or spawn.target.status != "unknown" or target.kind is not ValueKind.LITERAL:
            continue
        if spawn.site.confidence != "high":
            continue  # an agent named in prose ("spawn a reviewer") is never a target to check
        close = difflib.get_close_matches(target.value.lower(), list(lowered), n=6, cutoff=0.6)
        ids = list(dict.fromkeys(lowered[c] for c in close))[:3]
        hint = " or ".join(f'"{i}"' for i in ids)
        suggestion = (
            f"; did you mean {hint}?"
            if close
            else ("; define the agent, fix the name, or list it under `agents` in the configuration")
        )
        line, column = target.value_position
        yield Finding(
            spawn.site.path,
            line,
            column,
            f'subagent_type "{target.value}" matches no agent of the project, no built-in agent'
            f" and no configured external agent{suggestion}",
        )


def spawn_tool_disallowed(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        tools = unit.disallowed_tools
        if tools is None or not unit.is_spawning:
            continue
        removed = [t for t in ("Agent", "Task") if tools.includes(t)]
        if not removed:
            continue
        first = unit.spawning_sites[0].site
        yield Finding(
            unit.main_file,
            tools.line,
            1,
            f'{unit.kind} "{unit.id}" spawns agents but its disallowed-tools removes'
            f" {' and '.join(removed)}: the spawn cannot run; remove {removed[0]} from"
            " disallowed-tools or drop the spawn",
            (Location(first.path, first.line, first.column, "spawn site"),),
        )
