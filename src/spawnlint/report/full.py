"""Each finding with its source line, a caret under the column, and its related locations."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spawnlint.model import Diagnostic
from spawnlint.report.concise import line, summary


def render(diagnostics: Sequence[Diagnostic], root: str, sources: dict[str, list[str]] | None = None) -> str:
    out: list[str] = []
    for d in diagnostics:
        out.append(line(d))
        source = _source_line(root, d.path, d.line)
        if source is not None:
            out.append(f"  {d.line:>5} | {source}")
            out.append(f"        | {' ' * max(0, d.column - 1)}^")
        for r in d.related:
            out.append(f"  = related: {r.path}:{r.line}: {r.message}")
        out.append("")
    return "\n".join(out) + summary(diagnostics) + "\n"


def _source_line(root: str, path: str, number: int) -> str | None:
    """The text shown under a finding; the report reads it only for display."""
    try:
        with open(Path(root) / path, encoding="utf-8-sig", errors="replace") as handle:
            for n, text in enumerate(handle, start=1):
                if n == number:
                    return text.rstrip("\r\n").expandtabs(4)
    except OSError:
        return None
    return None
