"""Process-parallel parsing for large trees: a forked pool, only when there is enough work to pay
for starting it (about 30 ms a worker) and more than one core to run it on."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from spawnlint.config import Settings
from spawnlint.discover import SourceFile
from spawnlint.model import ParsedFile

if TYPE_CHECKING:
    from collections import deque
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


class Started(Generic[T, R]):
    """fn over items, begun in worker processes when worthwhile (this process is free meanwhile;
    `results` waits for them), else run here when `results` is asked for."""

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], min_items: int | None = None) -> None:
        self._fn, self._items = fn, items
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[list[R]]] = []
        workers = min(cores(), 8)
        if workers < 2 or len(items) < (MIN_PARALLEL if min_items is None else min_items) or _fork() is None:
            return
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        size = max(1, len(items) // (workers * 16))
        try:
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=_fork())
            self._futures = [
                self._pool.submit(_run_chunk, fn, items[i : i + size]) for i in range(0, len(items), size)
            ]
        except (BrokenProcessPool, OSError):
            self._close()  # no processes to be had: `results` parses here instead

    @property
    def in_workers(self) -> bool:
        """Whether worker processes are running it (so the cores are taken)."""
        return self._pool is not None

    def results(self) -> list[R]:
        if self._pool is not None:
            from concurrent.futures.process import BrokenProcessPool

            try:
                return [r for future in self._futures for r in future.result()]
            except (BrokenProcessPool, OSError):
                pass  # a worker died (out of memory?): parse here instead
            finally:
                self._close()
        return [self._fn(item) for item in self._items]

    def _close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool, self._futures = None, []


def _run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(item) for item in chunk]


def start_markdown(
    root: Path, jobs: Sequence[tuple[SourceFile, bytes | None]], settings: Settings
) -> Started[Any, ParsedFile | None]:
    """Markdown files from their bytes, or read from `root` (read, decoded, prefiltered and
    parsed in the workers), begun."""
    return Started(_parse_job, [(root, s, data, settings) for s, data in jobs])


def parsed_markdown(started: Started[Any, ParsedFile | None]) -> dict[str, ParsedFile]:
    return {p.path: p for p in started.results() if p is not None}


def _parse_job(job: tuple[Path, SourceFile, bytes | None, Settings]) -> ParsedFile | None:
    from spawnlint.engine import read_and_parse

    return read_and_parse(*job)


def map_isolated(
    fn: Callable[[T], R],
    items: Sequence[T],
    timeout: float,
    on_failure: Callable[[T, str], R],
    workers: int = 1,
) -> list[R]:
    """fn over items in child processes, each a pool of one worker (up to `workers` at a time),
    a batch of items a call: an item that kills its child, or outlasts `timeout`, becomes
    `on_failure(item, "crashed" | "took too long")` and only that child is replaced. A batch that
    fails is run again an item at a time, so only the item at fault fails."""
    if not items:
        return []
    from collections import deque
    from concurrent.futures import FIRST_COMPLETED, wait

    results: dict[int, R] = {}
    pools: list[ProcessPoolExecutor | None] = [None] * max(1, min(workers, len(items)))
    running: dict[Future[list[R]], tuple[tuple[int, ...], int, float]] = {}  # -> (items, slot, start)
    size = max(1, min(_BATCH, len(items) // (len(pools) * 4)))
    pending = deque(tuple(range(i, min(i + size, len(items)))) for i in range(0, len(items), size))
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
                batch, slot, _ = running.pop(future)
                why = "took too long" if future in expired else _failure(future)
                if why is None:
                    results.update(zip(batch, future.result(), strict=True))
                else:
                    _discard(pools[slot])
                    pools[slot] = None
                    if len(batch) > 1:
                        pending.extendleft((index,) for index in reversed(batch))  # find the one
                    else:
                        results[batch[0]] = on_failure(items[batch[0]], why)
                _submit(fn, items, pending, pools, slot, running)
            for slot in range(len(pools)):  # a batch split up may need the slots that sat idle
                if not any(s == slot for _, s, _ in running.values()):
                    _submit(fn, items, pending, pools, slot, running)
    finally:
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=True)
    return [results[i] for i in range(len(items))]


# Items a call to a child: a round trip per file cost ~0.5 ms of a 2 ms parse.
_BATCH = 16


def _submit(
    fn: Callable[[T], R],
    items: Sequence[T],
    pending: deque[tuple[int, ...]],
    pools: list[ProcessPoolExecutor | None],
    slot: int,
    running: dict[Future[list[R]], tuple[tuple[int, ...], int, float]],
) -> None:
    if not pending:
        return
    batch = pending.popleft()
    from concurrent.futures import ProcessPoolExecutor

    pool = pools[slot] or ProcessPoolExecutor(max_workers=1, mp_context=_fork())
    pools[slot] = pool
    running[pool.submit(_run_chunk, fn, [items[i] for i in batch])] = (batch, slot, time.monotonic())


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
