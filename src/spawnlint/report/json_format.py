"""A JSON array, one object per finding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spawnlint.model import Diagnostic
from spawnlint.report.safe import json_text
from spawnlint.rules import BY_CODE


def as_dict(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "name": BY_CODE[d.code].name,
        "severity": d.severity.value,
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "message": d.message,
        "related": [{"path": r.path, "line": r.line, "message": r.message} for r in d.related],
    }


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    return json_text([as_dict(d) for d in diagnostics])
