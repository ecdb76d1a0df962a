"""A process pool for large trees, knowing nothing of what it runs: a forked pool, only when there
is enough work to pay for starting it (about 30 ms a worker) and more than one core to run it on."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

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
            self._pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=_fork(),
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
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


def _exit_with_parent(parent: int) -> None:
    """A worker ends when the run that started it is gone: killed with -9, it cannot shut the pool
    down, and the workers (each holding both ends of the queue pipes) would wait on it forever."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="spawnlint-parent-watch", daemon=True).start()


def _run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(item) for item in chunk]
