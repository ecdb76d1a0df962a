"""A non-editable install must still answer `spawnlint rule SL101`: the rule pages ship in the
wheel as spawnlint/rule_pages."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO
from spawnlint.rules import RULES


def test_wheel_ships_every_rule_page(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("spawnlint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for rule in RULES:
        assert f"spawnlint/rule_pages/{rule.code}-{rule.name}.md" in names
    assert {"spawnlint/parse/python/read.py", "spawnlint/parse/python/fix.py"} <= names
