"""SL004 invalid-manifest and SL005 missing-agent-name: what Claude Code loads differently from
what the files seem to say (found while discovering and parsing, reported here)."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Finding, Project


def invalid_manifest(project: Project) -> Iterator[Finding]:
    yield from (p.finding for p in project.problems if p.code == "SL004")


def missing_agent_name(project: Project) -> Iterator[Finding]:
    yield from (p.finding for p in project.problems if p.code == "SL005")
