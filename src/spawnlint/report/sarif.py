"""SARIF 2.1.0, for code-scanning uploads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spawnlint import RULE_PAGES_URL, __version__
from spawnlint.model import Diagnostic, Severity
from spawnlint.pages import page_for
from spawnlint.report.safe import json_text
from spawnlint.rules import CODES, RULES, Rule


def _location(path: str, line: int, column: int = 1) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": line, "startColumn": column},
        }
    }


_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule(rule: Rule) -> dict[str, Any]:
    page = page_for(rule.code)
    help_text = f"{rule.summary}. Run `spawnlint rule {rule.code}` for the rule's page."
    described: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "helpUri": f"{RULE_PAGES_URL}{rule.code}-{rule.name}.md",
        "help": {"text": help_text, **({"markdown": page} if page else {})},
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
    }
    return described


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    rules = [_rule(r) for r in RULES]
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": CODES.index(d.code),
            "level": _LEVELS[d.severity],
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
                "tool": {
                    "driver": {
                        "name": "spawnlint",
                        "version": __version__,
                        "informationUri": RULE_PAGES_URL.rsplit("/blob/", 1)[0],
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json_text(log)
