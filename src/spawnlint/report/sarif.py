"""SARIF 2.1.0, for code-scanning uploads. Paths are relative to the repository that holds the
project (`%SRCROOT%`, declared in `originalUriBaseIds`), so `--root examples/demo` still points
code scanning at `examples/demo/agents/critic.md`; columns count Unicode code points, as the
run's `columnKind` says; `partialFingerprints` follow a finding when lines move above it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spawnlint import RULE_PAGES_URL, __version__
from spawnlint.model import Diagnostic, Severity
from spawnlint.pages import page_for
from spawnlint.report.json_format import rule_url
from spawnlint.report.positions import end_position, repository_prefix, repository_root
from spawnlint.report.safe import json_text
from spawnlint.rules import CODES, RULES, Rule
from spawnlint.source_lines import SourceLines
from spawnlint.suppress import fingerprint

BASE = "%SRCROOT%"
FINGERPRINT = "spawnlint/v1"


def _location(
    prefix: str, path: str, line: int, column: int = 1, end: tuple[int, int] | None = None
) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": line, "startColumn": column}
    if end is not None and end > (line, column):
        region.update(endLine=end[0], endColumn=end[1])
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(prefix + path), "uriBaseId": BASE},
            "region": region,
        }
    }


def _uri(path: str) -> str:
    """A relative URI reference: the characters a path may hold that a URI may not, escaped."""
    from urllib.parse import quote

    return quote(path, safe="/!$&'()*+,;=:@-._~")


_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule(rule: Rule) -> dict[str, Any]:
    page = page_for(rule.code)
    help_text = f"{rule.summary}. Run `spawnlint rule {rule.code}` for the rule's page."
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "helpUri": rule_url(rule.code),
        "help": {"text": help_text, **({"markdown": page} if page else {})},
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
    }


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    prefix = repository_prefix(root)
    lines = SourceLines(Path(root))
    seen: Counter[tuple[str, str]] = Counter()
    results = []
    for d in diagnostics:
        print_ = fingerprint(d, lines)
        seen[d.path, print_] += 1  # a second finding on an identical line is another alert
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": CODES.index(d.code),
                "level": _LEVELS[d.severity],
                "message": {"text": d.message},
                "locations": [_location(prefix, d.path, d.line, d.column, end_position(d, lines))],
                "partialFingerprints": {FINGERPRINT: f"{print_}:{seen[d.path, print_]}"},
                "relatedLocations": [
                    {"id": i, "message": {"text": r.message}, **_location(prefix, r.path, r.line, r.column)}
                    for i, r in enumerate(d.related)
                ],
            }
        )
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
                        "rules": [_rule(r) for r in RULES],
                    }
                },
                "originalUriBaseIds": {
                    BASE: {
                        "uri": repository_root(root).as_uri() + "/",
                        "description": {"text": "The root of the repository that holds the project."},
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json_text(log)
