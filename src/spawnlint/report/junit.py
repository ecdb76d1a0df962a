"""JUnit XML: one test suite per rule, one failing test case per finding that fails the run (a
warning is a passing case with the finding in its output), and one passing case for a rule with
no findings, so a CI's test view shows every rule."""

from __future__ import annotations

from collections.abc import Sequence

from spawnlint.model import Diagnostic, Severity
from spawnlint.report.safe import escape_controls
from spawnlint.rules import RULES


def _text(text: str) -> str:
    # XML 1.0 cannot hold most control characters at all, even as references; and a newline from
    # a path could start a CI log line with `::command::`.
    return escape_controls(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: str) -> str:
    return '"' + _text(text).replace('"', "&quot;") + '"'


def render(diagnostics: Sequence[Diagnostic], root: str) -> str:
    failures = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    suites = []
    total = 0
    for rule in RULES:
        found = [d for d in diagnostics if d.code == rule.code]
        cases = [_case(d) for d in found] or [
            f'    <testcase classname="spawnlint.{rule.code}" name={_attr(rule.name)}/>'
        ]
        failed = sum(1 for d in found if d.severity is Severity.ERROR)
        total += len(cases)
        suite_name = _attr(f"{rule.code} {rule.name}")
        suites.append(
            f'  <testsuite name={suite_name} tests="{len(cases)}" failures="{failed}" errors="0">\n'
            + "\n".join(cases)
            + "\n  </testsuite>"
        )
    head = f'<testsuites name="spawnlint" tests="{total}" failures="{failures}" errors="0">'
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + head + "\n" + "\n".join(suites) + "\n</testsuites>\n"
    return text.replace("##[", "##&#91;")  # a CI log must not run a legacy `##[command]`


def _case(d: Diagnostic) -> str:
    where = f"{d.path}:{d.line}:{d.column}"
    opening = (
        f"    <testcase classname={_attr('spawnlint.' + d.code)} name={_attr(where)} file={_attr(d.path)}"
        f' line="{d.line}">'
    )
    message = f"{where}: {d.code} {d.message}"
    if d.severity is Severity.ERROR:
        body = f"      <failure type={_attr(d.code)} message={_attr(d.message)}>{_text(message)}</failure>"
    else:
        body = f"      <system-out>{_text(f'[{d.severity.value}] {message}')}</system-out>"
    return f"{opening}\n{body}\n    </testcase>"
