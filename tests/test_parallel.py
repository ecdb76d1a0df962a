"""Process-parallel parsing: a pool gives the serial results, and an isolated child that dies
or hangs costs only its own file, however many children run at once."""

from __future__ import annotations

import concurrent.futures
import os
import time
from pathlib import Path

import pytest

from conftest import write_project
from spawnlint import engine, parallel
from spawnlint.config import Settings
from spawnlint.engine import lint


def _square(n: int) -> int:
    return n * n


def _die_on_odd_sleep_on_four(n: int) -> int:
    if n == 4:
        time.sleep(30)
    if n % 2:
        os._exit(9)  # what a segmentation fault in libcst looks like to the parent
    return n


def _failed(n: int, why: str) -> int:
    return -1 if why == "crashed" else -2


def test_a_pool_keeps_the_order_of_the_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    started = parallel.Started(_square, list(range(50)), min_items=10)
    assert started.in_workers
    assert started.results() == [n * n for n in range(50)]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_dead_or_hung_child_costs_only_its_item(workers: int) -> None:
    items = list(range(9))
    got = parallel.map_isolated(_die_on_odd_sleep_on_four, items, 1.0, _failed, workers)
    assert got == [0, -1, 2, -1, -2, -1, 6, -1, 8]


def _die_on_sevens(n: int) -> int:
    if n % 7 == 3:
        os._exit(9)
    return n


@pytest.mark.parametrize("workers", [1, 2])
def test_a_batch_with_a_dying_item_costs_only_that_item(workers: int) -> None:
    items = list(range(150))  # batches of 16: every one holds an item that kills its child
    got = parallel.map_isolated(_die_on_sevens, items, 30.0, _failed, workers)
    assert got == [-1 if n % 7 == 3 else n for n in items]


def test_many_python_files_parse_in_parallel_as_they_do_serially(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files: dict[str, str | bytes] = {
        "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
    }
    for n in range(20):
        files[f"hooks/h{n}.py"] = f'Agent(subagent_type="critic", name="n{n}", prompt="p")\n'
    root = write_project(tmp_path, files)
    monkeypatch.setattr(engine, "_PYTHON_PARALLEL", 1000)
    serial = lint(root, Settings(), use_cache=False).diagnostics
    monkeypatch.setattr(engine, "_PYTHON_PARALLEL", 2)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(engine, "cores", lambda: 2)
    assert lint(root, Settings(), use_cache=False).diagnostics == serial
    assert len(serial) == 20


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
