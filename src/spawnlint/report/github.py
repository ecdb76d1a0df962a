"""GitHub Actions workflow commands (`::error file=...::message`), escaped so that project text
can never start a workflow command of its own. Nothing else goes to stdout: a clean run prints
nothing (the exit code says it)."""

from __future__ import annotations

from collections.abc import Sequence

from spawnlint.model import Diagnostic, Severity
from spawnlint.report.positions import repository_prefix
from spawnlint.report.safe import escape_controls


def _data(text: str) -> str:
    # GitHub renders ANSI colours in logs: other control characters are shown escaped.
    text = escape_controls(text, keep="\r\n").replace("##[", "##\\x5b")  # the legacy command form
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    prefix = repository_prefix(root)  # annotations name files of the repository, not of --root
    out = []
    for d in diagnostics:
        level = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(d.severity, "notice")
        props = f"file={_property(prefix + d.path)},line={d.line},col={d.column},title={_property(d.code)}"
        out.append(f"::{level} {props}::{_data(d.code + ' ' + d.message)}\n")
    return "".join(out)
