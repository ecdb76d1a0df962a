"""The project seen from some paths: only what can yield a finding located in them or related to
them, for a run that reports on those paths alone (pre-commit passes the changed files)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from spawnlint.discover import Discovery, SourceFile
from spawnlint.model import FileKind, Finding, Problem, Spawn

Wanted = Callable[[str], bool]


def in_paths(path: str, paths: tuple[str, ...]) -> bool:
    """The file is one of `paths` or lies below one of them ("" and "." hold everything)."""
    return any(path == p or p in ("", ".") or path.startswith(p.rstrip("/") + "/") for p in paths)


def wanted(paths: tuple[str, ...] | None) -> Wanted | None:
    """in_paths as a quick test, or None when the paths hold the whole project."""
    if paths is None or any(p in ("", ".") for p in paths):
        return None
    exact = frozenset(paths)
    folders = tuple(p.rstrip("/") + "/" for p in paths)
    return lambda path: path in exact or path.startswith(folders)


# A rule puts in its finding (location or related location) only paths reachable from the
# element it looks at: a spawn's site and target agents, a unit's files and spawns, an agent's
# file, a problem's finding. Keeping every element that reaches a wanted path keeps every
# finding that touches one; the filter stage drops the rest.


def spawn_wanted(spawn: Spawn, want: Wanted) -> bool:
    return want(spawn.site.path) or any(a.path is not None and want(a.path) for a in spawn.target.agents)


def unit_wanted(unit_id: str, files: Iterable[str], want: Wanted) -> bool:
    """Whether the unit's own paths reach a wanted one: its id and files (its main file is one of
    them, or else its id). A unit holding a wanted spawn is wanted too: the caller knows its
    spawns."""
    return want(unit_id) or any(want(f) for f in files)


def problem_wanted(problem: Problem, want: Wanted) -> bool:
    return finding_wanted(problem.finding, want)


def finding_wanted(finding: Finding, want: Wanted) -> bool:
    return want(finding.path) or any(want(r.path) for r in finding.related)


def files_needed(discovery: Discovery, want: Wanted) -> list[SourceFile] | None:
    """The files a run focused on `want` must parse: every agent and Python file (they define the
    agents each spawn resolves against: the index is whole), and the files of each unit that
    holds a wanted file or is wanted, with the wanted files themselves. None (every file) when
    a wanted file can define an agent: spawns of it may be anywhere."""
    units: set[str] = set()
    wanted_files: set[str] = set()
    for source in discovery.files:
        unit = source.unit
        if want(source.path) or (unit is not None and unit != source.path and want(unit)):
            if _can_define_agents(source):
                return None
            wanted_files.add(source.path)
            if unit is not None:
                units.add(unit)
    return [s for s in discovery.files if _can_define_agents(s) or s.unit in units or s.path in wanted_files]


def _can_define_agents(source: SourceFile) -> bool:
    return source.kind is FileKind.AGENT or source.kind is FileKind.PYTHON
