"""What the language server knows of one project: its settings, the editor's buffers, the last
lint and the findings it published. Free of the protocol, so it is tested as plain Python."""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from pathlib import Path

from spawnlint.buffers import lint_buffers
from spawnlint.config import CONFIG_FILES, ConfigError, Settings, load_settings
from spawnlint.discover import Listing, list_files
from spawnlint.engine import Result
from spawnlint.model import Diagnostic
from spawnlint.rules import CODES
from spawnlint.source_lines import SourceLines
from spawnlint.suppress import Filters, narrow, suppressed


class ProjectState:
    """One project root: `lint` runs the engine over the disk with the open buffers in place of
    their files, and tells which files' findings changed since the last lint."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.buffers: dict[str, str] = {}  # path relative to the root -> the editor's text
        self.settings: Settings = Settings()
        self.config_error: tuple[str, str] | None = None  # (config file, why it cannot be used)
        self.result: Result | None = None
        self.findings: dict[str, tuple[Diagnostic, ...]] = {}
        self._listing: Listing | None = None
        self.reload_settings()

    def reload_settings(self) -> None:
        """Read the configuration again (it changed on disk); a configuration that cannot be used
        is kept as config_error, and linting waits until it is fixed."""
        unsaved = {self.root / n: self.buffers[n] for n in CONFIG_FILES if n in self.buffers}
        try:
            self.settings = load_settings(self.root, self.root, None, CODES, unsaved)
            self.config_error = None
        except ConfigError as exc:
            self.config_error = (self._config_file(), str(exc))

    def _config_file(self) -> str:
        for name in CONFIG_FILES:
            if name in self.buffers or (self.root / name).is_file():
                return name
        return CONFIG_FILES[-1]

    def relative(self, path: Path) -> str | None:
        """The path as the project names it, or None when it lies outside the project."""
        try:
            rel = path.resolve().relative_to(self.root)
        except ValueError:
            return None
        return rel.as_posix() if rel.parts else None

    def lint(self, typing: bool = False) -> set[str]:
        """Lint the project as the editor holds it; the paths whose findings changed. `typing`:
        only a buffer changed since the last lint, so the disk's files are as they were listed
        then (a third of a keystroke's lint on 2,000 files is listing them); any other event
        lists them again."""
        if self.config_error is not None:
            return set()
        if not typing or self._listing is None:
            self._listing = list_files(self.root)
        result = lint_buffers(self.root, self.settings, self.overrides(), listing=self._listing)
        kept = suppressed(result.diagnostics, result.project, self.settings.severity)
        found = narrow(kept, Filters.configured(self.settings), self.lines())
        by_path: dict[str, list[Diagnostic]] = defaultdict(list)
        for d in found:
            by_path[d.path].append(d)
        findings = {path: tuple(ds) for path, ds in by_path.items()}
        changed = {p for p in {*findings, *self.findings} if findings.get(p) != self.findings.get(p)}
        # Memory stays flat over a long session (bench/lsp.py: 59-60 MiB over 600 keystrokes on
        # 1,000 files): each lint replaces the last one's result; the parse cache's gc.freeze
        # leaves a steady ~23,000 objects frozen, freed by reference counting as they go.
        self.result, self.findings = result, findings
        return changed

    def overrides(self) -> dict[str, bytes]:
        """The buffers whose text differs from their file's (the others are read from the disk and
        can come from the parse cache)."""
        out = {}
        for path, text in self.buffers.items():
            data = text.encode("utf-8", "surrogateescape")
            if _disk_bytes(self.root / path) != data:
                out[path] = data
        return out

    def lines(self) -> SourceLines:
        """The lines of the project's files: a buffer's as the editor holds it, else the disk's."""
        lines = SourceLines(self.root)
        for path, text in self.buffers.items():
            lines.cache[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return lines

    def text(self, path: str) -> str | None:
        """A file's text as the editor holds it, else as the disk does (None if unreadable)."""
        if path in self.buffers:
            return self.buffers[path]
        data = _disk_bytes(self.root / path)
        if data is None:
            return None
        try:
            return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except UnicodeDecodeError:
            return None


_MAX_BYTES = 4 * 1024 * 1024


def _disk_bytes(full: Path) -> bytes | None:
    try:
        status = os.stat(full)
        if not stat.S_ISREG(status.st_mode) or status.st_size > _MAX_BYTES:
            return None
        with open(full, "rb") as handle:
            return handle.read()
    except OSError:
        return None
