"""One line per finding, `path:line:col: CODE [severity] message`, then a summary."""

from __future__ import annotations

from collections.abc import Sequence

from spawnlint.model import Diagnostic, Severity
from spawnlint.report.safe import escape_controls, log_text


def printable(text: str) -> str:
    """Project text on a terminal: one line, and no control characters (an escape sequence in
    an agent's name must not repaint the screen; a newline in a path must not start a line)."""
    return escape_controls(text)


def shown_path(path: str) -> str:
    """A path where `path:line:col:` follows: quoted (JSON-style) when it holds a colon or starts
    with a quote or a blank, so that a file named `a:1:1: SL999 [error] x.md` cannot read as a
    finding of its own; other paths as they are."""
    if ":" not in path and not path.startswith(('"', " ", "\t")):
        return printable(path)
    return '"' + printable(path.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def line(d: Diagnostic) -> str:
    return f"{shown_path(d.path)}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {printable(d.message)}"


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    if not diagnostics:
        return "No findings."
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    infos = sum(1 for d in diagnostics if d.severity is Severity.INFO)
    warnings = len(diagnostics) - errors - infos
    counts = f"{_count(errors, 'error')}, {_count(warnings, 'warning')}" + (
        f", {infos} info" if infos else ""
    )
    return f"Found {_count(len(diagnostics), 'finding')} ({counts})."


def fixable_hint(diagnostics: Sequence[Diagnostic]) -> str:
    """The line after the summary that says what `--fix` would do, as ruff prints it."""
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.safe)
    unsafe = sum(1 for d in diagnostics if d.fix is not None and not d.fix.safe)
    if not safe and not unsafe:
        return ""
    hint = f"[*] {safe} fixable with `--fix`" if safe else "[*] 0 fixable with `--fix` alone"
    if unsafe:
        hint += f" ({unsafe} more with `--fix --unsafe-fixes`)"
    return hint + ".\n"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    return log_text("".join(line(d) + "\n" for d in diagnostics)) + summary(diagnostics) + "\n"
