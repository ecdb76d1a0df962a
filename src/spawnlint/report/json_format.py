"""A JSON array, one object per finding: where it is and ends, its rule (with a link to the
rule's page), its message, related locations and fix."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spawnlint import RULE_PAGES_URL
from spawnlint.model import Diagnostic, Fix
from spawnlint.report.positions import end_position
from spawnlint.report.safe import json_text
from spawnlint.rules import BY_CODE
from spawnlint.source_lines import SourceLines


def rule_url(code: str) -> str:
    return f"{RULE_PAGES_URL}{code}-{BY_CODE[code].name}.md"


def as_dict(d: Diagnostic, lines: SourceLines | None = None) -> dict[str, Any]:
    end_line, end_column = end_position(d, lines) if lines is not None else (d.line, d.column)
    return {
        "code": d.code,
        "name": BY_CODE[d.code].name,
        "severity": d.severity.value,
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "end_line": end_line,
        "end_column": end_column,
        "message": d.message,
        "url": rule_url(d.code),
        "related": [{"path": r.path, "line": r.line, "message": r.message} for r in d.related],
        "fix": _fix(d.fix),
    }


def _fix(fix: Fix | None) -> dict[str, Any] | None:
    """As ruff writes it: how safe it is, and each edit (replace from (line, column) to the end,
    exclusive, with `content`)."""
    if fix is None:
        return None
    return {
        "applicability": "safe" if fix.safe else "unsafe",
        "edits": [
            {
                "path": e.path,
                "line": e.line,
                "column": e.column,
                "end_line": e.end_line,
                "end_column": e.end_column,
                "content": e.text,
            }
            for e in fix.edits
        ],
    }


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    lines = SourceLines(Path(root))
    return json_text([as_dict(d, lines) for d in diagnostics])
