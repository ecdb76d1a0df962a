"""The bar the project sets itself: ruff and mypy --strict clean."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_ruff_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "bench"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "src"], cwd=REPO, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
