"""SL101 named-spawn-mute-agent, SL102 named-spawn-no-report, SL103 report-channel-filtered:
a named spawn runs as an in_process_teammate, whose only way back is the SendMessage tool."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Agent, Finding, Fix, Location, Project, Spawn, SpawnSite, ValueKind


def _named_spawns(project: Project) -> Iterator[tuple[Spawn, tuple[Agent, ...]]]:
    """Named spawns with their possible targets (several when two agents share the id). A prose
    spawn (medium confidence) counts as named only with a literal name attached to it."""
    for spawn in project.spawns:
        name = spawn.site.name
        if name is None or not spawn.target.agents:
            continue
        if not all(a.tools_known for a in spawn.target.agents):
            continue  # tools computed by code: no finding on a guess
        if spawn.site.confidence != "high" and name.kind is not ValueKind.LITERAL:
            continue
        yield spawn, spawn.target.agents


def _unname(site: SpawnSite, safe: bool) -> Fix | None:
    """Delete the spawn's `name`, and its `team_name`, which only a named spawn uses."""
    if site.name is None or not site.name.removal:
        return None
    team = site.team_name.removal if site.team_name is not None else ()
    return Fix(site.name.removal + team, safe)


_LISTED = 8  # names shown in a message before "and N more"


def capped(names: tuple[str, ...] | list[str], most: int = _LISTED) -> str:
    """Names joined for a message, the first few only: "Read, Grep and 99,998 more"."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most])} and {len(names) - most:,} more"


def why_mute(agent: Agent) -> str:
    if agent.disallowed is not None and agent.disallowed.includes("SendMessage"):
        return "its disallowedTools remove SendMessage"
    if agent.tools is not None and not agent.tools.raw:
        return "it has no tools, so no SendMessage"
    listed = capped(agent.tools.raw) if agent.tools else ""
    where = " as configured in `agents`" if agent.path is None and not agent.builtin else ""
    return f"its tools ({listed}){where} lack SendMessage"


def _fix_channel(agent: Agent) -> str:
    if agent.disallowed is not None and agent.disallowed.includes("SendMessage"):
        return "remove SendMessage from its disallowedTools"
    return "add SendMessage to its tools"


def _channel_locations(agents: tuple[Agent, ...]) -> tuple[Location, ...]:
    return tuple(
        Location(a.path, a.channel_line, 1, f'tools of "{a.id}"') for a in agents if a.path is not None
    )


def shown_name(value: str, most: int = 60) -> str:
    """A `name` as the message quotes it: a description of the names ("the reviewer name
    (`a`, `b`) — must match ...") cut at a word before `most` characters."""
    if len(value) <= most:
        return value
    cut = value[:most].rsplit(" ", 1)[0]
    return cut + " …"


_BOTH_FIXES = "spawn it without `name`, or add SendMessage to its tools and tell it to report"


def named_spawn_mute_agent(project: Project) -> Iterator[Finding]:
    teams = frozenset(u.id for u in project.units if u.team_intent)
    for spawn, agents in _named_spawns(project):
        mute = tuple(a for a in agents if not a.can_report)
        if not mute:
            continue
        name = spawn.site.name
        assert name is not None
        if len(agents) == 1:
            why = f'of agent "{mute[0].id}" cannot report: {why_mute(mute[0])}'
        else:  # several agents share the id: whichever Claude Code picks may be mute
            target = spawn.site.subagent_type.value if spawn.site.subagent_type else "general-purpose"
            listed = capped([f'"{a.id}" ({why_mute(a)})' for a in mute], 3)
            why = f'of "{target}" may not report: {len(agents)} agents share the id, and {listed} cannot'
        yield Finding(
            spawn.site.path,
            name.line,
            name.column,
            f'named spawn "{shown_name(name.value)}" {why}. A named spawn runs as an in_process_teammate'
            f" whose final answer returns only through SendMessage; {_BOTH_FIXES}",
            _channel_locations(mute),
            _give_channel(project, spawn, mute) if spawn.unit in teams else _unname(spawn.site, safe=True),
        )


def _give_channel(project: Project, spawn: Spawn, mute: tuple[Agent, ...]) -> Fix | None:
    """In a team the `name` is wanted: SendMessage added to the agent's tools, and the spawn's
    prompt told to report with it. Unsafe: it changes the agent for every spawn of it."""
    if len(mute) != 1 or mute[0].path is None or not spawn.site.report_instruction:
        return None
    parsed = project.files.get(mute[0].path)
    record = next((a for a in parsed.agents if a.name == mute[0].name), None) if parsed else None
    if record is None or not record.grant_send_message:
        return None
    return Fix(record.grant_send_message + spawn.site.report_instruction, safe=False)


def named_spawn_no_report(project: Project) -> Iterator[Finding]:
    teams = frozenset(u.id for u in project.units if u.team_intent)
    for spawn, agents in _named_spawns(project):
        site = spawn.site
        if not all(a.can_report for a in agents):
            continue
        if site.told_to_report or any(a.mentions_send_message for a in agents):
            continue
        name, agent = site.name, agents[0]
        assert name is not None
        related = tuple(Location(a.path, a.name_line, 1, f'agent "{a.id}"') for a in agents if a.path)
        in_team = spawn.unit in teams
        told = Fix(site.report_instruction, safe=False) if site.report_instruction else None
        yield Finding(
            site.path,
            name.line,
            name.column,
            f'named spawn "{shown_name(name.value)}" of agent "{agent.id}" runs as an in_process_teammate,'
            " and nothing tells it to report with SendMessage, so its final answer is lost;"
            " spawn it without `name`, or tell it in the prompt to send its result with SendMessage",
            related,
            told if in_team else _unname(site, safe=False),  # unsafe: either would do
        )


def report_channel_filtered(project: Project) -> Iterator[Finding]:
    for agent in project.agents:
        if agent.can_report or agent.path is None or not agent.report_lines:
            continue
        (line, column), more = agent.report_lines[0], len(agent.report_lines) - 1
        also = f" (and on {more} more line{'s' * (more != 1)})" if more else ""
        yield Finding(
            agent.path,
            line,
            column,
            f'agent "{agent.id}" is told to report with SendMessage{also}, but {why_mute(agent)}:'
            f" {_fix_channel(agent)}",
            _channel_locations((agent,)),
        )
