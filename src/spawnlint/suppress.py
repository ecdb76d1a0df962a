"""The filter stage: select/ignore, per-file ignores, inline suppressions (and SL900 for the ones
that silence nothing), baselines, and the PATHS that limit what is reported."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from spawnlint.config import Settings
from spawnlint.focus import in_paths
from spawnlint.model import Diagnostic, Project, SuppressionComment
from spawnlint.rules import BY_CODE, OPT_IN, stamp
from spawnlint.source_lines import SourceLines

BaselineKey = tuple[str, str, str]  # path, code, fingerprint of the offending line
BASELINE_FORMAT = "spawnlint-baseline/1"


@dataclass(frozen=True)
class Filters:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    paths: tuple[str, ...] | None = None  # posix, relative to the root; None = everything
    baseline: Mapping[BaselineKey, int] = field(default_factory=dict)
    severity: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def configured(cls, settings: Settings) -> Filters:
        """The filter stage as the configuration sets it, before any command-line option."""
        return cls(
            select=settings.select,
            ignore=settings.ignore,
            extend_select=settings.extend_select,
            per_file_ignores=settings.per_file_ignores,
            severity=settings.severity,
        )


def selected(code: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """The longest matching prefix wins, so `--select SL1 --ignore SL102` works as expected."""
    chosen = max((len(p) for p in select if code.startswith(p.upper())), default=-1) if select else 0
    if chosen < 0:
        return False
    dropped = max((len(p) for p in ignore if code.startswith(p.upper())), default=-1)
    return chosen > dropped


Selection = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # select, extend-select, ignore


def layered_selection(
    layers: Iterable[Selection], codes: Iterable[str], opt_in: Iterable[str] = OPT_IN
) -> tuple[str, ...]:
    """The codes enabled by selections applied in order (the configuration's, then the command
    line's), as ruff resolves them: a layer's `select` replaces what came before, its
    `extend-select` adds, its `ignore` removes; within a layer the longest matching prefix wins.
    An opt-in rule is enabled only by its own code (a prefix such as `SL1` never turns it on)."""
    codes = tuple(codes)
    manual = frozenset(opt_in)
    enabled = {c for c in codes if c not in manual}
    for select, extend, ignore in layers:
        named = {c.upper() for c in select + extend}
        if select:
            enabled = {
                c for c in codes if selected(c, select + extend, ignore) and (c not in manual or c in named)
            }
            continue
        for code in codes:
            added = _longest(code, extend) if code not in manual or code in named else -1
            dropped = _longest(code, ignore)
            if added > dropped:
                enabled.add(code)
            elif dropped > added:
                enabled.discard(code)
    return tuple(c for c in codes if c in enabled)


def _longest(code: str, prefixes: tuple[str, ...]) -> int:
    return max((len(p) for p in prefixes if code.startswith(p.upper())), default=-1)


def exactly(enabled: tuple[str, ...], codes: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`select` and `ignore` for Filters that enable exactly `enabled` (none, if it is empty)."""
    return enabled, tuple(c for c in codes if c not in enabled)


def apply(
    diagnostics: Iterable[Diagnostic], project: Project, filters: Filters, lines: SourceLines
) -> list[Diagnostic]:
    return narrow(suppressed(diagnostics, project, filters.severity), filters, lines)


def suppressed(
    diagnostics: Iterable[Diagnostic], project: Project, severity: Mapping[str, str]
) -> list[Diagnostic]:
    """What the inline suppressions leave, with SL900 for each comment that silenced nothing: the
    part of the filter stage that depends on the project, not on the run's options."""
    kept, used = _unsuppressed(diagnostics, project)
    return kept + _unused_suppressions(project, used, severity)


def narrow(kept: Iterable[Diagnostic], filters: Filters, lines: SourceLines) -> list[Diagnostic]:
    """The run's own choices: select/ignore, per-file ignores, PATHS and the baseline."""
    return narrowed(kept, filters, lines)[0]


@dataclass(frozen=True)
class BaselineOutcome:
    """What the baseline did: how many findings it hid, and its entries that hid nothing (their
    finding is fixed or changed) among the selected codes and the PATHS of the run."""

    hidden: int = 0
    stale: tuple[BaselineKey, ...] = ()


def narrowed(
    kept: Iterable[Diagnostic], filters: Filters, lines: SourceLines
) -> tuple[list[Diagnostic], BaselineOutcome]:
    select = filters.select + filters.extend_select if filters.select else ()
    out = [
        d
        for d in kept
        if selected(d.code, select, filters.ignore)
        and not _per_file_ignored(d, filters.per_file_ignores)
        and (filters.paths is None or _in_paths(d, filters.paths))
    ]
    if not filters.baseline:
        return sorted(out), BaselineOutcome()
    left, hidden = _without_baseline(out, filters.baseline, lines)
    stale = tuple(
        key
        for key, count in sorted(filters.baseline.items())
        for _ in range(count - hidden.get(key, 0))
        if selected(key[1], select, filters.ignore)
        and (filters.paths is None or in_paths(key[0], filters.paths))
    )
    return sorted(left), BaselineOutcome(sum(hidden.values()), stale)


def _unsuppressed(
    diagnostics: Iterable[Diagnostic], project: Project
) -> tuple[list[Diagnostic], set[tuple[str, SuppressionComment, str]]]:
    kept: list[Diagnostic] = []
    used: set[tuple[str, SuppressionComment, str]] = set()
    for d in diagnostics:
        parsed = project.files.get(d.path)
        covering = parsed.suppressions.covering(d.line, d.code) if parsed is not None else ()
        used.update((d.path, c, d.code) for c in covering)
        if not covering:
            kept.append(d)
    return kept, used


def _unused_suppressions(
    project: Project, used: set[tuple[str, SuppressionComment, str]], severity: Mapping[str, str]
) -> list[Diagnostic]:
    rule = BY_CODE["SL900"]
    found = stamp(rule, rule.check(project, used), severity)
    return [d for d in found if not _names_sl900(project, d)]


def _names_sl900(project: Project, d: Diagnostic) -> bool:
    """Only a comment that names SL900 silences it: a bare `ignore` or `ignore-file` that
    silences nothing must not silence its own report."""
    covering = project.files[d.path].suppressions.covering(d.line, d.code)
    return any(c.codes for c in covering)


def _per_file_ignored(d: Diagnostic, per_file: tuple[tuple[str, tuple[str, ...]], ...]) -> bool:
    return any(
        _glob_matches(d.path, glob) and any(d.code.startswith(c) for c in codes) for glob, codes in per_file
    )


def _glob_matches(path: str, glob: str) -> bool:
    """`tests/**`, `tests/` and `tests` all take in everything under tests/; `*.md` any file name."""
    glob = glob.strip()
    if fnmatch(path, glob) or path.startswith(glob.rstrip("/") + "/"):
        return True
    return "/" not in glob and fnmatch(path.rsplit("/", 1)[-1], glob)


def _in_paths(d: Diagnostic, paths: tuple[str, ...]) -> bool:
    return in_paths(d.path, paths) or any(in_paths(r.path, paths) for r in d.related)


def fingerprint(d: Diagnostic, lines: SourceLines) -> str:
    """What a baselined finding is matched by besides its file and code: the content of the
    offending line, so the entry survives lines added or removed above it."""
    text = " ".join((lines.line(d.path, d.line) or "").split())
    return hashlib.sha256(f"{d.code}\0{text}".encode()).hexdigest()[:16]


def _without_baseline(
    diagnostics: list[Diagnostic], baseline: Mapping[BaselineKey, int], lines: SourceLines
) -> tuple[list[Diagnostic], Counter[BaselineKey]]:
    """The findings the baseline does not hide, and how many it hid per entry."""
    hidden: Counter[BaselineKey] = Counter()
    out = []
    for d in diagnostics:
        key = (d.path, d.code, fingerprint(d, lines))
        if hidden[key] < baseline.get(key, 0):
            hidden[key] += 1  # each entry hides one finding: a second copy of it is new
            continue
        out.append(d)
    return out, hidden


def baseline_json(diagnostics: Iterable[Diagnostic], lines: SourceLines) -> str:
    entries = [
        {
            "path": d.path,
            "code": d.code,
            "fingerprint": fingerprint(d, lines),
            "line": d.line,
            "message": d.message,
        }
        for d in diagnostics
    ]
    return json.dumps({"format": BASELINE_FORMAT, "findings": entries}, indent=2, ensure_ascii=False) + "\n"


def load_baseline(path: Path) -> dict[BaselineKey, int]:
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise ValueError("not a spawnlint baseline; write one with --write-baseline")
    entries = data.get("findings")
    if not isinstance(entries, list):
        raise ValueError('a baseline holds a "findings" list')
    counts: Counter[BaselineKey] = Counter()
    for item in entries:
        if not isinstance(item, dict):
            raise ValueError("each baseline finding is an object")
        counts[(str(item["path"]), str(item["code"]), str(item["fingerprint"]))] += 1
    return dict(counts)
