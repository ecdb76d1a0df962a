"""The benchmark's corpus generator keeps producing a project the linter reads in full."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from conftest import REPO
from spawnlint.config import Settings
from spawnlint.engine import lint

sys.path.insert(0, str(REPO / "bench"))
from generate import generate  # noqa: E402


def test_generated_marketplace_is_read_in_full(tmp_path: Path) -> None:
    files = generate(tmp_path, plugins=2, commands=3, agents=2, seed=7)
    result = lint(tmp_path, Settings())
    assert files == 2 * (3 + 2 * 2 + 4)
    assert {p[1] for p in result.project.plugins} == {None, "p0", "p1"}
    assert len(result.project.agents) == 8
    forms = Counter(s.site.form for s in result.project.spawns)
    # per plugin: 3 commands (F1 + F4 each), a template (F3), a hook (F4 in a string, F10 dict)
    assert forms["F1"] == 6 and forms["F4"] == 8 and forms["F3"] == 2 and forms["F10"] == 2
    assert {d.code for d in result.diagnostics} <= {"SL101", "SL102", "SL103", "SL201"}
