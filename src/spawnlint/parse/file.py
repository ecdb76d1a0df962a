"""One file, read and parsed: its bytes (or why they cannot be read: SL002), decoded, and given to
the parser of its kind. A pure function of the bytes, the kind and the few settings that affect
parsing; a fault of spawnlint's own costs only that file (SL000). Markdown can be parsed in worker
processes (`start_markdown`); Python is parsed here, in-process: its reader bounds what it gives
`ast` (see parse/python/read.py)."""

from __future__ import annotations

import os
import stat
import traceback
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from spawnlint.config import Settings
from spawnlint.discover import SourceFile
from spawnlint.model import FileKind, Finding, ParsedFile, Problem
from spawnlint.parallel import Started
from spawnlint.parse import NO_SUPPRESSIONS, decode, parse_text, python_could_spawn
from spawnlint.parse.forms.rule_sentence import is_rule_sentence
from spawnlint.parse.forms.syntax import TooComplex


def read_source(root: Path, source: SourceFile, settings: Settings) -> bytes | ParsedFile:
    """The file's bytes, or its SL002 when it cannot be read."""
    full = os.path.join(root, source.path)  # not pathlib: two Path objects a file cost 0.1 s in 10,000
    try:
        status = os.stat(full)
        if not stat.S_ISREG(status.st_mode):
            return _unreadable(source, "is not a regular file; not read")  # a FIFO would block
        if status.st_size > settings.max_file_bytes:
            why = f"is {status.st_size} bytes, over the {settings.max_file_bytes}-byte cap; not checked"
            return _unreadable(source, why)
        with open(full, "rb") as handle:
            # read(cap + 1) would allocate 2 MiB a file; a file that grew since stat reads on
            data = handle.read(status.st_size + 1)
            if len(data) > status.st_size:
                data += handle.read(settings.max_file_bytes + 1 - len(data))
            return data
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return _unreadable(source, f"cannot be read ({why})")


def read_and_parse(
    root: Path, source: SourceFile, data: bytes | None, settings: Settings
) -> ParsedFile | None:
    """The file parsed from its bytes (read here when not given); None for a Python file that
    cannot spawn."""
    if data is None:
        read = read_source(root, source, settings)
        if isinstance(read, ParsedFile):
            return read
        data = read
    return parse_data(source, data, settings)


def parse_data(source: SourceFile, data: bytes, settings: Settings) -> ParsedFile | None:
    """The parsed file from its bytes; None for a Python file that cannot spawn (the prefilter)."""
    text, problem = decode(source.path, data, settings.max_file_bytes)
    if text is None:
        return ParsedFile(source.path, source.kind, problems=(problem,) if problem else ())
    if source.kind is FileKind.PYTHON:
        if not python_could_spawn(text, settings.spawn_callables):
            return None
        return parse_python_file(source.path, text, settings.spawn_callables)
    return parse_markdown(source, text, all_sentences=settings.no_name_rule.pattern is not None)


def parse_python_file(path: str, text: str, callables: tuple[str, ...]) -> ParsedFile:
    try:
        return _parse_python(path, text, callables)
    except Exception as exc:  # noqa: BLE001 - a fault in one file's parse costs only that file
        return internal_error(path, FileKind.PYTHON, _fault(exc), traceback.format_exc())


def _parse_python(path: str, text: str, callables: tuple[str, ...]) -> ParsedFile:
    from spawnlint.parse.python import parse_python  # ast and tokenize: only for Python that may spawn

    return parse_python(path, text, callables)


def parse_markdown(source: SourceFile, text: str, all_sentences: bool = True) -> ParsedFile:
    """The parsed markdown file. Unless a custom rule pattern may match any sentence
    (`all_sentences`), only the sentences the default rule matcher could accept are kept:
    a tenth of the size, to cache and to load."""
    try:
        parsed = parse_text(source.path, text, source.kind, all_sentences)
    except TooComplex as exc:
        return _unreadable(source, str(exc).removeprefix("file "))
    except Exception as exc:  # noqa: BLE001 - a bug of ours must not cost the user the rest of the project
        return internal_error(source.path, source.kind, _fault(exc), traceback.format_exc())
    return _compact(parsed, all_sentences)


def internal_error(path: str, kind: FileKind, what: str, detail: str = "") -> ParsedFile:
    """SL000: parsing this file failed in spawnlint itself; the file is not checked, the rest is."""
    message = f"{what}; not checked" + (" (--verbose shows the traceback)" if detail else "")
    return ParsedFile(path, kind, problems=(Problem("SL000", Finding(path, 1, 1, message), detail=detail),))


def _fault(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text[:120] + "..." if len(text) > 120 else text
    return f"internal error while parsing: {type(exc).__name__}" + (f": {text}" if text else "")


def _compact(parsed: ParsedFile, all_sentences: bool) -> ParsedFile:
    """Only what later stages read, to keep the cache small and quick to load: sentences the
    rule matcher could accept (all of them when a custom pattern may match any), sections only
    where a site needs one, and one shared empty Suppressions."""
    sentences = parsed.sentences
    if not all_sentences:
        sentences = tuple(s for s in sentences if is_rule_sentence(s.text, require_mechanism=False))
    suppressions = parsed.suppressions
    if not suppressions.comments:
        suppressions = NO_SUPPRESSIONS
    sections = parsed.sections if parsed.sites or parsed.candidates else ()  # a candidate may be confirmed
    if (sentences, sections) == (parsed.sentences, parsed.sections) and suppressions is parsed.suppressions:
        return parsed
    return replace(parsed, sentences=sentences, sections=sections, suppressions=suppressions)


def _unreadable(source: SourceFile, why: str) -> ParsedFile:
    problem = Problem("SL002", Finding(source.path, 1, 1, f"file {why}"))
    return ParsedFile(source.path, source.kind, problems=(problem,))


def start_markdown(
    root: Path, jobs: Sequence[tuple[SourceFile, bytes | None]], settings: Settings
) -> Started[Any, ParsedFile | None]:
    """Markdown files from their bytes, or read from `root` (read, decoded, prefiltered and
    parsed in the workers), begun."""
    return Started(_parse_job, [(root, s, data, settings) for s, data in jobs])


def parsed_markdown(started: Started[Any, ParsedFile | None]) -> dict[str, ParsedFile]:
    return {p.path: p for p in started.results() if p is not None}


def _parse_job(job: tuple[Path, SourceFile, bytes | None, Settings]) -> ParsedFile | None:
    return read_and_parse(*job)
