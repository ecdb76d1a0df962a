"""JUnit XML: one test case per finding, for CI systems that show test reports."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from spawnlint.model import Diagnostic, Severity
from spawnlint.report.safe import escape_controls


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    failures = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="spawnlint" tests="{len(diagnostics)}" failures="{failures}">',
        f'  <testsuite name="spawnlint" tests="{len(diagnostics)}" failures="{failures}">',
    ]
    for d in diagnostics:
        # XML 1.0 cannot hold most control characters at all, even as references.
        path, message = escape_controls(d.path), escape_controls(d.message)
        name = quoteattr(f"{d.code} {path}:{d.line}:{d.column}")
        out.append(f"    <testcase classname={quoteattr(path)} name={name}>")
        tag = "failure" if d.severity is Severity.ERROR else "skipped"
        out.append(f"      <{tag} message={quoteattr(message)}>{escape(message)}</{tag}>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out).replace("##[", "##&#91;") + "\n"  # a CI log must not run `##[command]`
