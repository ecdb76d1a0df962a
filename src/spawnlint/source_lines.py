"""The text of a project file's lines, read once a file, for display and baseline fingerprints
(nothing is re-parsed)."""

from __future__ import annotations

from pathlib import Path


class SourceLines:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, list[str] | None] = {}

    def line(self, path: str, number: int) -> str | None:
        if path not in self.cache:
            try:
                text = (self.root / path).read_text("utf-8-sig", errors="replace")
                self.cache[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            except OSError:
                self.cache[path] = None
        lines = self.cache[path]
        return lines[number - 1] if lines is not None and 0 < number <= len(lines) else None
