"""Output formats. Each takes the final diagnostics and returns text; none re-parses."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spawnlint.model import Diagnostic
from spawnlint.report import concise, full, github, json_format, junit, sarif

Formatter = Callable[[Sequence[Diagnostic], str], str]

FORMATS: dict[str, Formatter] = {
    "concise": concise.render,
    "full": full.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
    "junit": junit.render,
}
