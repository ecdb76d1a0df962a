"""Each finding with its source line, a caret under the column, and its related locations."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spawnlint.model import Diagnostic
from spawnlint.report.concise import line, printable, shown_path, summary
from spawnlint.report.safe import escape_controls, log_text
from spawnlint.source_lines import SourceLines


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    sources = SourceLines(Path(root))
    out: list[str] = []
    for d in diagnostics:
        out.append(line(d))
        source = sources.line(d.path, d.line)
        if source is not None:
            prefix = source[: max(0, d.column - 1)].expandtabs(4)
            out.append(f"  {d.line:>5} | {escape_controls(source.expandtabs(4))}")
            out.append(f"        | {' ' * len(escape_controls(prefix))}^")
        for r in d.related:
            out.append(f"  = related: {shown_path(r.path)}:{r.line}: {printable(r.message)}")
        out.append("")
    return log_text("\n".join(out)) + summary(diagnostics) + "\n"
