"""SARIF 2.1.0, for code-scanning uploads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spawnlint import __version__
from spawnlint.model import Diagnostic, Severity
from spawnlint.report.safe import json_text
from spawnlint.rules import RULES


def _location(path: str, line: int, column: int = 1) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": line, "startColumn": column},
        }
    }


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "defaultConfiguration": {"level": "error" if r.severity is Severity.ERROR else "warning"},
        }
        for r in RULES
    ]
    results = [
        {
            "ruleId": d.code,
            "level": "error" if d.severity is Severity.ERROR else "warning",
            "message": {"text": d.message},
            "locations": [_location(d.path, d.line, d.column)],
            "relatedLocations": [
                {"id": i, "message": {"text": r.message}, **_location(r.path, r.line, r.column)}
                for i, r in enumerate(d.related)
            ],
        }
        for d in diagnostics
    ]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "spawnlint", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
    return json_text(log)
