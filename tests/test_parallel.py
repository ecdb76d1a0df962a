"""Process-parallel parsing: a pool gives the serial results."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from conftest import write_project
from spawnlint import parallel
from spawnlint.config import Settings
from spawnlint.engine import lint


def _square(n: int) -> int:
    return n * n


def test_a_pool_keeps_the_order_of_the_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    started = parallel.Started(_square, list(range(50)), min_items=10)
    assert started.in_workers
    assert started.results() == [n * n for n in range(50)]


def test_many_markdown_files_parse_in_a_pool_as_they_do_serially(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files: dict[str, str | bytes] = {
        "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
    }
    for n in range(30):
        files[f"commands/c{n}.md"] = f'Use the Agent tool with `subagent_type: "critic"`, `name: "c{n}"`.\n'
    root = write_project(tmp_path, files)
    serial = lint(root, Settings(), use_cache=False).diagnostics
    pools: list[int] = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers: int, mp_context: object) -> None:
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, mp_context=mp_context)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(parallel, "MIN_PARALLEL", 5)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert lint(root, Settings(), use_cache=False).diagnostics == serial
    assert len(serial) == 60  # per command: SL101 (named, mute agent) and SL201 (no rule)
    assert pools == [2]  # the markdown files went to one pool of two workers
