"""Process-parallel parsing: a pool gives the serial results."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
        def __init__(self, max_workers: int, **options: Any) -> None:
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **options)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(parallel, "MIN_PARALLEL", 5)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert lint(root, Settings(), use_cache=False).diagnostics == serial
    assert len(serial) == 60  # per command: SL101 (named, mute agent) and SL201 (no rule)
    assert pools == [2]  # the markdown files went to one pool of two workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_workers_exit_when_the_run_is_killed(tmp_path: Path) -> None:
    """kill -9 of a run leaves no worker behind (each would otherwise wait on its queue forever)."""
    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys, time\n"
        "from spawnlint import parallel\n"
        "parallel.cores = lambda: 2\n"
        "def work(n):\n"
        "    os.write(1, f'{os.getpid()}\\n'.encode())  # one write: two workers' lines never mix\n"
        "    time.sleep(60)\n"
        "    return n\n"
        "started = parallel.Started(work, list(range(4)), min_items=1)\n"
        "time.sleep(60)\n",
        "utf-8",
    )
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert run.stdout is not None
    workers = {int(run.stdout.readline()), int(run.stdout.readline())}
    run.kill()
    run.wait()
    deadline = time.monotonic() + 15
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = {pid for pid in alive if _alive(pid)}
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "workers outlived the killed run"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:  # a zombie has exited
        return stat.read().split(") ", 1)[1][0] != "Z"
