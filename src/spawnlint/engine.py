"""The pipeline, one way: discover → parse → build project → rules. Filtering and reporting
happen after, in suppress.py and report/."""

from __future__ import annotations

import multiprocessing
import os
import stat
import traceback
from concurrent.futures import ProcessPoolExecutor, TimeoutError
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from spawnlint.config import Settings
from spawnlint.discover import Discovery, SourceFile, discover
from spawnlint.model import Diagnostic, FileKind, Finding, ParsedFile, Problem, Project
from spawnlint.parse import decode, parse_text, python_could_spawn
from spawnlint.parse.spawn_syntax import TooComplex
from spawnlint.project import build_project
from spawnlint.rules import RULES, stamp


@dataclass(frozen=True)
class Result:
    project: Project
    diagnostics: tuple[Diagnostic, ...]


def lint(root: Path, settings: Settings) -> Result:
    discovery = discover(root, settings.exclude)
    parsed = parse_all(discovery, settings)
    project = build_project(discovery, parsed, settings)
    return Result(project, run_rules(project, settings))


def parse_all(discovery: Discovery, settings: Settings) -> dict[str, ParsedFile]:
    parsed: dict[str, ParsedFile] = {}
    python: list[tuple[str, str]] = []
    for source in discovery.files:
        result = parse_source(discovery.root, source, settings)
        if isinstance(result, str):
            python.append((source.path, result))
        elif result is not None:
            parsed[source.path] = result
    parsed.update(parse_python_isolated(python, settings.spawn_callables))
    return dict(sorted(parsed.items()))


def parse_python_isolated(jobs: list[tuple[str, str]], callables: tuple[str, ...]) -> dict[str, ParsedFile]:
    """Parse Python files in a child process: libcst's native parser can kill the process that
    runs it (a segmentation fault on, say, a chain of 8,000 `+`). A file that kills the child,
    or outlasts the timeout, is SL000 and the rest are parsed in a fresh one. libcst is never
    imported here."""
    results: dict[str, ParsedFile] = {}
    pool: ProcessPoolExecutor | None = None
    try:
        for path, text in jobs:
            pool = pool or ProcessPoolExecutor(max_workers=1, mp_context=_CONTEXT)
            try:
                results[path] = pool.submit(_parse_python, path, text, callables).result(
                    timeout=_PYTHON_TIMEOUT
                )
            except (BrokenProcessPool, TimeoutError) as exc:
                why = "took too long" if isinstance(exc, TimeoutError) else "crashed"
                results[path] = internal_error(path, FileKind.PYTHON, f"the Python parser {why} on this file")
                _discard(pool)
                pool = None
            except Exception as exc:  # noqa: BLE001 - a fault in one file's parse costs only that file
                results[path] = internal_error(path, FileKind.PYTHON, _fault(exc), traceback.format_exc())
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return results


# libcst is quadratic on long operator chains (8,000 `+` terms: 18 s, then a crash); a
# pre-commit hook must not hang on one generated file.
_PYTHON_TIMEOUT = 30.0
# fork is cheap and needs no re-import; where it does not exist, the platform default.
_CONTEXT = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _parse_python(path: str, text: str, callables: tuple[str, ...]) -> ParsedFile:
    from spawnlint.parse.python import parse_python  # imports libcst (~140 ms), in the child only

    return parse_python(path, text, callables)


def _discard(pool: ProcessPoolExecutor) -> None:
    for process in list(getattr(pool, "_processes", {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def parse_source(root: Path, source: SourceFile, settings: Settings) -> ParsedFile | str | None:
    """The parsed file; for a Python file that could spawn, its text (parsed in isolation)."""
    try:
        status = os.stat(root / source.path)
        if not stat.S_ISREG(status.st_mode):
            return _unreadable(source, "is not a regular file; not read")  # a FIFO would block
        if status.st_size > settings.max_file_bytes:
            why = f"is {status.st_size} bytes, over the {settings.max_file_bytes}-byte cap; not checked"
            return _unreadable(source, why)
        with open(root / source.path, "rb") as handle:
            data = handle.read(settings.max_file_bytes + 1)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return _unreadable(source, f"cannot be read ({why})")
    text, problem = decode(source.path, data, settings.max_file_bytes)
    if text is None:
        return ParsedFile(source.path, source.kind, problems=(problem,) if problem else ())
    if source.kind is FileKind.PYTHON:
        return text if python_could_spawn(text, settings.spawn_callables) else None
    try:
        return parse_text(source.path, text, source.kind)
    except TooComplex as exc:
        return _unreadable(source, str(exc).removeprefix("file "))
    except Exception as exc:  # noqa: BLE001 - a bug of ours must not cost the user the rest of the project
        return internal_error(source.path, source.kind, _fault(exc), traceback.format_exc())


def internal_error(path: str, kind: FileKind, what: str, detail: str = "") -> ParsedFile:
    """SL000: parsing this file failed in spawnlint itself; the file is not checked, the rest is."""
    message = f"{what}; not checked" + (" (--verbose shows the traceback)" if detail else "")
    return ParsedFile(path, kind, problems=(Problem("SL000", Finding(path, 1, 1, message), detail=detail),))


def _fault(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text[:120] + "..." if len(text) > 120 else text
    return f"internal error while parsing: {type(exc).__name__}" + (f": {text}" if text else "")


def _unreadable(source: SourceFile, why: str) -> ParsedFile:
    problem = Problem("SL002", Finding(source.path, 1, 1, f"file {why}"))
    return ParsedFile(source.path, source.kind, problems=(problem,))


def run_rules(project: Project, settings: Settings) -> tuple[Diagnostic, ...]:
    found: set[Diagnostic] = set()
    for rule in RULES:
        if rule.stage == "project":
            found.update(stamp(rule, rule.check_project(project), settings.severity))
    return tuple(sorted(found))
