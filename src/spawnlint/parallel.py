"""Process-parallel parsing for large trees: a forked pool, only when there is enough work to pay
for starting it (about 30 ms a worker) and more than one core to run it on."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from spawnlint.config import Settings
from spawnlint.discover import SourceFile
from spawnlint.model import ParsedFile

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

T = TypeVar("T")
R = TypeVar("R")

# Below this many uncached markdown files (0.1 to 2 ms each) a pool costs more than it saves.
MIN_PARALLEL = 200


@functools.cache
def _fork() -> BaseContext | None:
    """fork shares the parent's imports for free; elsewhere (Windows) parsing stays serial.
    multiprocessing and concurrent.futures are imported only for a pool (~10 ms a warm run)."""
    import multiprocessing

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def map_parallel(fn: Callable[[T], R], items: Sequence[T], min_items: int | None = None) -> list[R]:
    """fn over items, in order: in worker processes when worthwhile, else here."""
    min_items = MIN_PARALLEL if min_items is None else min_items
    workers = min(cores(), 8)
    if workers < 2 or len(items) < min_items or _fork() is None:
        return [fn(item) for item in items]
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_fork()) as pool:
            return list(pool.map(fn, items, chunksize=max(1, len(items) // (workers * 16))))
    except (BrokenProcessPool, OSError):
        return [fn(item) for item in items]  # no processes to be had: parse here instead


def parse_markdown_many(
    jobs: Sequence[tuple[SourceFile, bytes]], settings: Settings
) -> dict[str, ParsedFile]:
    """Markdown files from their bytes (decoded, prefiltered and parsed in the workers)."""
    parsed = map_parallel(_parse_job, [(s, data, settings) for s, data in jobs])
    return {p.path: p for p in parsed if p is not None}


def _parse_job(job: tuple[SourceFile, bytes, Settings]) -> ParsedFile | None:
    from spawnlint.engine import parse_data

    result = parse_data(*job)
    return result if isinstance(result, ParsedFile) else None  # markdown is never deferred


def map_isolated(
    fn: Callable[[T], R],
    items: Sequence[T],
    timeout: float,
    on_failure: Callable[[T, str], R],
    workers: int = 1,
) -> list[R]:
    """fn over items, each in a child process of its own pool of one worker (up to `workers`
    at a time): an item that kills its child, or outlasts `timeout`, becomes
    `on_failure(item, "crashed" | "took too long")` and only that child is replaced."""
    from concurrent.futures import FIRST_COMPLETED, wait

    results: dict[int, R] = {}
    pools: list[ProcessPoolExecutor | None] = [None] * max(1, min(workers, len(items)))
    running: dict[Future[R], tuple[int, int, float]] = {}  # future -> (item, pool slot, start)
    pending = iter(range(len(items)))
    try:
        for slot in range(len(pools)):
            _submit(fn, items, pending, pools, slot, running)
        while running:
            now = time.monotonic()
            wait_for = max(0.0, min(start + timeout - now for _, _, start in running.values()))
            done, _ = wait(running, timeout=wait_for, return_when=FIRST_COMPLETED)
            expired = [
                f
                for f, (_, _, start) in running.items()
                if f not in done and time.monotonic() - start >= timeout
            ]
            for future in [*done, *expired]:
                index, slot, _ = running.pop(future)
                why = "took too long" if future in expired else _failure(future)
                results[index] = future.result() if why is None else on_failure(items[index], why)
                if why is not None:
                    _discard(pools[slot])
                    pools[slot] = None
                _submit(fn, items, pending, pools, slot, running)
    finally:
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=True)
    return [results[i] for i in range(len(items))]


def _submit(
    fn: Callable[[T], R],
    items: Sequence[T],
    pending: Iterator[int],
    pools: list[ProcessPoolExecutor | None],
    slot: int,
    running: dict[Future[R], tuple[int, int, float]],
) -> None:
    index = next(pending, None)
    if index is None:
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = pools[slot] or ProcessPoolExecutor(max_workers=1, mp_context=_fork())
    pools[slot] = pool
    running[pool.submit(fn, items[index])] = (index, slot, time.monotonic())


def _failure(future: Future[R]) -> str | None:
    from concurrent.futures.process import BrokenProcessPool

    exc = future.exception()
    if isinstance(exc, BrokenProcessPool):
        return "crashed"
    if exc is not None:
        raise exc
    return None


def _discard(pool: ProcessPoolExecutor | None) -> None:
    if pool is None:
        return
    for process in list(getattr(pool, "_processes", {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
