"""The filter stage: --select/--ignore, inline suppressions, baselines and the PATHS that
limit what is reported (never what is read)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from spawnlint.model import Diagnostic, Project


@dataclass(frozen=True)
class Filters:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    paths: tuple[str, ...] | None = None  # posix, relative to the root; None = everything
    baseline: frozenset[tuple[str, str, str]] = frozenset()


def selected(code: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """The longest matching prefix wins, so `--select SL1 --ignore SL102` works as expected."""
    chosen = max((len(p) for p in select if code.startswith(p.upper())), default=-1) if select else 0
    if chosen < 0:
        return False
    dropped = max((len(p) for p in ignore if code.startswith(p.upper())), default=-1)
    return chosen > dropped


def apply(diagnostics: Iterable[Diagnostic], project: Project, filters: Filters) -> list[Diagnostic]:
    out = []
    for d in diagnostics:
        if not selected(d.code, filters.select, filters.ignore):
            continue
        parsed = project.files.get(d.path)
        if parsed is not None and parsed.suppressions.covers(d.line, d.code):
            continue
        if filters.paths is not None and not _in_paths(d, filters.paths):
            continue
        if baseline_key(d) in filters.baseline:
            continue
        out.append(d)
    return out


def _in_paths(d: Diagnostic, paths: tuple[str, ...]) -> bool:
    locations = [d.path] + [r.path for r in d.related]
    return any(
        loc == p or p in ("", ".") or loc.startswith(p.rstrip("/") + "/") for loc in locations for p in paths
    )


def baseline_key(d: Diagnostic) -> tuple[str, str, str]:
    """Line numbers move; a baseline entry is the file, the code and the message."""
    return (d.path, d.code, d.message)


def load_baseline(path: Path) -> frozenset[tuple[str, str, str]]:
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, list):
        raise ValueError("a baseline is a JSON array of findings")
    return frozenset(
        (str(item["path"]), str(item["code"]), str(item["message"]))
        for item in data
        if isinstance(item, dict)
    )
