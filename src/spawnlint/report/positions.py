"""Where a finding ends, and where the project sits in its repository: what JSON, SARIF and
GitHub annotations say beyond a finding's own (line, column)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from spawnlint.model import Diagnostic
from spawnlint.source_lines import SourceLines


def end_position(d: Diagnostic, lines: SourceLines) -> tuple[int, int]:
    """The end (exclusive, 1-based, counting code points) of what the finding points at: the end
    of its fix's edit when that edit holds the finding (the `name` parameter it removes),
    else the end of the offending line; the start itself when the line cannot be read."""
    if d.fix is not None:
        for edit in d.fix.edits:
            if edit.path == d.path and (edit.line, edit.column) <= (d.line, d.column) < (
                edit.end_line,
                edit.end_column,
            ):
                return edit.end_line, edit.end_column
    text = lines.line(d.path, d.line)
    if text is None:
        return d.line, d.column
    return d.line, max(d.column, len(text) + 1)


@lru_cache(maxsize=8)
def repository_prefix(root: str) -> str:
    """The project root as a path inside its git repository ("" when it is the repository's
    root, or in none), with a trailing slash: code scanning and annotations resolve paths
    against the repository, not against `--root`."""
    start = Path(root).resolve()
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            rel = os.path.relpath(start, candidate)
            return "" if rel == "." else Path(rel).as_posix() + "/"
    return ""


@lru_cache(maxsize=8)
def repository_root(root: str) -> Path:
    """The git work tree that holds the project (the project folder itself outside git)."""
    start = Path(root).resolve()
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start
