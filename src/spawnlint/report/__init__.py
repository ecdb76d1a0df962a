"""Output formats. Each takes the final diagnostics and returns text; none re-parses."""

from __future__ import annotations

from typing import Callable, Sequence

from spawnlint.model import Diagnostic
from spawnlint.report import concise, github, json_format, sarif, junit, full

Formatter = Callable[[Sequence[Diagnostic], str], str]

FORMATS: dict[str, Formatter] = {
    "concise": concise.render,
    "full": full.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
    "junit": junit.render,
}
