"""SL101 named-spawn-mute-agent, SL102 named-spawn-no-report, SL103 report-channel-filtered:
a named spawn runs as an in_process_teammate, whose only way back is the SendMessage tool."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Agent, Finding, Location, Project, Spawn


def _named_spawns(project: Project) -> Iterator[tuple[Spawn, Agent]]:
    for spawn in project.spawns:
        agent = spawn.target.agent
        if spawn.site.name is not None and agent is not None:
            yield spawn, agent


def _why_mute(agent: Agent) -> str:
    if agent.disallowed is not None and agent.disallowed.includes("SendMessage"):
        return "its disallowedTools remove SendMessage"
    listed = ", ".join(agent.tools.raw) if agent.tools and agent.tools.raw else "none"
    return f"its tools ({listed}) lack SendMessage"


def _agent_location(agent: Agent, message: str) -> tuple[Location, ...]:
    if agent.path is None:
        return ()
    return (Location(agent.path, agent.channel_line, 1, message),)


def named_spawn_mute_agent(project: Project) -> Iterator[Finding]:
    for spawn, agent in _named_spawns(project):
        if agent.can_report:
            continue
        name = spawn.site.name
        assert name is not None
        yield Finding(
            spawn.site.path,
            name.line,
            name.column,
            f'named spawn "{name.value}" of agent "{agent.id}" cannot report: {_why_mute(agent)}.'
            " A named spawn runs as an in_process_teammate whose final answer never returns;"
            " spawn it without `name`",
            _agent_location(agent, f'tools of "{agent.id}"'),
        )


def named_spawn_no_report(project: Project) -> Iterator[Finding]:
    for spawn, agent in _named_spawns(project):
        site = spawn.site
        if not agent.can_report:
            continue
        told = (
            "SendMessage" in (site.prompt or "")
            or agent.mentions_send_message
            or site.section_mentions_send_message
        )
        if told:
            continue
        name = site.name
        assert name is not None
        related = (
            () if agent.path is None else (Location(agent.path, agent.name_line, 1, f'agent "{agent.id}"'),)
        )
        yield Finding(
            site.path,
            name.line,
            name.column,
            f'named spawn "{name.value}" of agent "{agent.id}" runs as an in_process_teammate, and'
            " nothing tells it to report with SendMessage, so its final answer is lost;"
            " spawn it without `name`, or tell it in the prompt to send its result with SendMessage",
            related,
        )


def report_channel_filtered(project: Project) -> Iterator[Finding]:
    for agent in project.agents:
        if agent.can_report or agent.path is None:
            continue
        if not agent.report_lines:
            continue
        (line, column), more = agent.report_lines[0], len(agent.report_lines) - 1
        also = f" (and on {more} more line{'s' * (more != 1)})" if more else ""
        yield Finding(
            agent.path,
            line,
            column,
            f'agent "{agent.id}" is told to report with SendMessage{also}, but {_why_mute(agent)}:'
            " add SendMessage to its tools",
            _agent_location(agent, f'tools of "{agent.id}"'),
        )
