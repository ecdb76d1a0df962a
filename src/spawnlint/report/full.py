"""Each finding with its source line, a caret under the column, and its related locations."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from spawnlint.model import Diagnostic
from spawnlint.report.concise import line, printable, summary
from spawnlint.report.safe import escape_controls, log_text

_MAX_SHOWN_BYTES = 4 * 1024 * 1024


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    sources = _Sources(Path(root))
    out: list[str] = []
    for d in diagnostics:
        out.append(line(d))
        source = sources.line(d.path, d.line)
        if source is not None:
            prefix = source[: max(0, d.column - 1)].expandtabs(4)
            out.append(f"  {d.line:>5} | {escape_controls(source.expandtabs(4))}")
            out.append(f"        | {' ' * len(escape_controls(prefix))}^")
        for r in d.related:
            out.append(f"  = related: {printable(r.path)}:{r.line}: {printable(r.message)}")
        out.append("")
    return log_text("\n".join(out)) + summary(diagnostics) + "\n"


class _Sources:
    """The lines shown under findings, read once a file, for display only (nothing re-parsed)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, list[str] | None] = {}

    def line(self, path: str, number: int) -> str | None:
        if path not in self.cache:
            self.cache[path] = self._lines(path)
        lines = self.cache[path]
        return lines[number - 1] if lines is not None and 0 < number <= len(lines) else None

    def _lines(self, path: str) -> list[str] | None:
        """Only a regular file inside the project, of a sane size: the finding may be that the
        file is a symlink to /etc/passwd, a FIFO (opening it would block) or 10 MB of one line."""
        full = self.root / path
        try:
            real = os.path.realpath(full)
            if os.path.commonpath([os.path.realpath(self.root), real]) != os.path.realpath(self.root):
                return None
            status = os.stat(real)
            if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_SHOWN_BYTES:
                return None
            text = Path(real).read_text("utf-8-sig", errors="replace")
        except (OSError, ValueError):
            return None
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
