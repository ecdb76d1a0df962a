"""One line per finding, `path:line:col: CODE [severity] message`, then a summary."""

from __future__ import annotations

from typing import Sequence

from spawnlint.model import Diagnostic, Severity


def line(d: Diagnostic) -> str:
    message = " ".join(d.message.split())
    return f"{d.path}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {message}"


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    if not diagnostics:
        return "No findings."
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = len(diagnostics) - errors
    noun = "finding" if len(diagnostics) == 1 else "findings"
    return f"Found {len(diagnostics)} {noun} ({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)})."


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    return "".join(line(d) + "\n" for d in diagnostics) + summary(diagnostics) + "\n"
