"""Whole-project fixtures: tests/projects/<case>/project is linted as its own project and must
produce exactly the findings of expected.txt (`path:line: CODE`), nothing else, no crash."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from conftest import REPO, run_cli

CASES = sorted(p for p in (REPO / "tests" / "projects").glob("*/") if (p / "expected.txt").is_file())


def _expected(case: Path) -> list[str]:
    lines = (case / "expected.txt").read_text("utf-8").splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_project_findings(case: Path) -> None:
    args_file = case / "args.txt"
    extra = shlex.split(args_file.read_text("utf-8")) if args_file.is_file() else []
    run = run_cli("check", "--root", str(case / "project"), "--output-format", "json", *extra)
    assert run.code in (0, 1), run.err
    found = sorted(f"{d['path']}:{d['line']}: {d['code']}" for d in json.loads(run.out))
    assert found == _expected(case)


def test_there_are_project_fixtures() -> None:
    assert len(CASES) >= 10
