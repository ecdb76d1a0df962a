"""The lines of a text as every part of spawnlint counts them, and the text of a project file's
lines, read once a file, for display and baseline fingerprints (nothing is re-parsed)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as git, editors and libcst count them: only CR, LF and CRLF end a line (not the form
    feeds and Unicode separators that str.splitlines() also splits on)."""
    lines = text.split("\n") if "\r" not in text else _NEWLINE.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


_MAX_READ_BYTES = 4 * 1024 * 1024


class SourceLines:
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
            root = os.path.realpath(self.root)
            real = os.path.realpath(full)
            if os.path.commonpath([root, real]) != root:
                return None
            status = os.stat(real)
            if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_READ_BYTES:
                return None
            text = Path(real).read_text("utf-8-sig", errors="replace")
        except (OSError, ValueError):
            return None
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
