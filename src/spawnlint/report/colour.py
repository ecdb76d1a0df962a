"""ANSI colour for the concise and full formats on a terminal, and dropping the summary line for
--quiet. Project text is escaped before it gets here, so the only escape sequences are ours."""

from __future__ import annotations

import re
from collections.abc import Sequence

from spawnlint.model import Diagnostic
from spawnlint.report.concise import summary

_BOLD, _RED, _YELLOW, _CYAN, _DIM, _RESET = (
    "\x1b[1m",
    "\x1b[31m",
    "\x1b[33m",
    "\x1b[36m",
    "\x1b[2m",
    "\x1b[0m",
)
_LEVEL = {"error": _RED, "warning": _YELLOW, "info": _CYAN}
# A path is quoted when it holds a colon (report.concise.shown_path), else it holds none.
_FINDING = re.compile(
    r'^(?P<where>(?:"(?:[^"\\]|\\.)*"|[^":\s][^:]*):\d+:\d+:)'
    r" (?P<code>SL\d{3}) \[(?P<level>error|warning|info)\]",
    re.M,
)


def colourise(text: str) -> str:
    def paint(m: re.Match[str]) -> str:
        level = m.group("level")
        return (
            f"{_BOLD}{m.group('where')}{_RESET} {_LEVEL[level]}{_BOLD}{m.group('code')}{_RESET}"
            f" {_LEVEL[level]}[{level}]{_RESET}"
        )

    return _FINDING.sub(paint, text).replace("  = related:", f"  {_DIM}= related:{_RESET}")


def without_summary(text: str, diagnostics: Sequence[Diagnostic]) -> str:
    last = summary(diagnostics) + "\n"
    return text[: -len(last)] if text.endswith(last) else text
