"""SL000 internal-error, SL001 unparsable-frontmatter, SL002 unreadable-file, SL003 duplicate-agent."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Finding, Location, Project


def internal_error(project: Project) -> Iterator[Finding]:
    yield from (p.finding for p in project.problems if p.code == "SL000")


def unparsable_frontmatter(project: Project) -> Iterator[Finding]:
    yield from (p.finding for p in project.problems if p.code == "SL001")


def unreadable_file(project: Project) -> Iterator[Finding]:
    yield from (p.finding for p in project.problems if p.code == "SL002")


def duplicate_agent(project: Project) -> Iterator[Finding]:
    for first, second in project.duplicate_agents:
        assert first.path is not None and second.path is not None
        yield Finding(
            second.path,
            second.name_line,
            1,
            f'agent id "{second.id}" is also defined in {first.path}; Claude Code loads only one'
            " of them: rename one agent",
            (Location(first.path, first.name_line, 1, f'first definition of "{first.id}"'),),
        )
