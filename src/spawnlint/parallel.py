"""Process-parallel parsing for large trees: a forked pool, only when there is enough work to pay
for starting it (about 30 ms a worker) and more than one core to run it on."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from spawnlint.discover import SourceFile
from spawnlint.model import ParsedFile

T = TypeVar("T")
R = TypeVar("R")

# Below this many full markdown parses (about 1 ms each) a pool costs more than it saves.
MIN_PARALLEL = 200
# fork shares the parent's imports for free; elsewhere (Windows) parsing stays serial.
_FORK = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def map_parallel(fn: Callable[[T], R], items: Sequence[T], min_items: int = MIN_PARALLEL) -> list[R]:
    """fn over items, in order: in worker processes when worthwhile, else here."""
    workers = min(cores(), 8)
    if workers < 2 or len(items) < min_items or _FORK is None:
        return [fn(item) for item in items]
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_FORK) as pool:
            return list(pool.map(fn, items, chunksize=max(1, len(items) // (workers * 4))))
    except (BrokenProcessPool, OSError):
        return [fn(item) for item in items]  # no processes to be had: parse here instead


def parse_markdown_many(jobs: Sequence[tuple[SourceFile, str]], all_sentences: bool) -> dict[str, ParsedFile]:
    return {p.path: p for p in map_parallel(_parse_job, [(s, t, all_sentences) for s, t in jobs])}


def _parse_job(job: tuple[SourceFile, str, bool]) -> ParsedFile:
    from spawnlint.engine import parse_markdown

    source, text, all_sentences = job
    return parse_markdown(source, text, all_sentences=all_sentences)
