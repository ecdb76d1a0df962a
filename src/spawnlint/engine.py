"""The pipeline, one way: discover → parse → build project → rules. Filtering and reporting
happen after, in suppress.py and report/."""

from __future__ import annotations

import os
import stat
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from spawnlint.cache import ParseCache, discovered
from spawnlint.config import Settings
from spawnlint.discover import Discovery, Listing, SourceFile, list_files
from spawnlint.focus import Wanted, files_needed
from spawnlint.model import (
    Diagnostic,
    FileKind,
    Finding,
    ParsedFile,
    Problem,
    Project,
)
from spawnlint.parallel import cores, map_isolated, parsed_markdown, start_markdown
from spawnlint.parse import NO_SUPPRESSIONS, decode, parse_text, python_could_spawn, suppressions
from spawnlint.parse.python_outline import needs_cst
from spawnlint.parse.rule_sentence import is_rule_sentence
from spawnlint.parse.spawn_syntax import TooComplex, split_lines
from spawnlint.project import build_project
from spawnlint.rules import RULES, stamp


@dataclass(frozen=True)
class Result:
    project: Project
    diagnostics: tuple[Diagnostic, ...]


def lint(
    root: Path,
    settings: Settings,
    use_cache: bool = True,
    listing: Listing | None = None,
    focus: Wanted | None = None,
    overrides: Mapping[str, bytes] | None = None,
) -> Result:
    """The project and its findings; with `focus`, at least every finding touching a wanted path
    (and only the part of the project that can yield them: see focus.py); with `overrides`, the
    files it names are read from it, not from the disk (see parse_overridden)."""
    listing = listing or list_files(root)
    discovery = discovered(root, settings.exclude, listing, use_cache)
    needed = files_needed(discovery, focus) if focus is not None else None
    present = frozenset(listing.paths) if needed is not None else ()
    cache = ParseCache.open(root, settings, only=needed, present=present) if use_cache else None
    parsed = parse_all(discovery, settings, cache, listing, from_disk(discovery, needed, overrides))
    if cache is not None:
        cache.save()
    if overrides:
        parsed = parse_overridden(parsed, discovery, settings, overrides, needed)
    project = build_project(discovery, parsed, settings, focus)
    return Result(project, run_rules(project, settings))


def parse_all(
    discovery: Discovery,
    settings: Settings,
    cache: ParseCache | None = None,
    listing: Listing | None = None,
    files: Sequence[SourceFile] | None = None,
) -> dict[str, ParsedFile]:
    """Every file's parse (or that of `files`): from the cache when its bytes are known, else
    parsed (markdown in a process pool when there is much of it, Python in isolation). The
    listing's stat of each file (taken before any is read) tells the cache which files are
    unchanged."""
    parsed: dict[str, ParsedFile] = {}
    markdown: list[tuple[SourceFile, bytes | None]] = []  # None: the worker reads it
    python: list[tuple[str, str]] = []
    keys: dict[str, str] = {}
    root = str(discovery.root)
    identities = dict(zip(listing.paths, listing.identities, strict=True)) if listing and cache else {}
    sources = discovery.files if files is None else files
    started = None
    # Markdown first, so its workers run while this process reads and outlines the Python files.
    ordered = [s for s in sources if s.kind is not FileKind.PYTHON] + [
        s for s in sources if s.kind is FileKind.PYTHON
    ]
    for source in ordered:
        if started is None and source.kind is FileKind.PYTHON:
            started = start_markdown(discovery.root, markdown, settings)
        identity = (identities.get(source.path) or _identity(root, source)) if cache is not None else None
        known = cache.by_stat(source, identity) if cache is not None and identity is not None else None
        if known is not None:
            if not _is_no_spawn_cue(known):
                parsed[source.path] = known
            continue
        if cache is None and source.kind is not FileKind.PYTHON:
            markdown.append((source, None))  # read where it is parsed, in parallel
            continue
        data = read_source(discovery.root, source, settings)
        if isinstance(data, ParsedFile):
            parsed[source.path] = data
            continue
        if cache is not None:
            keys[source.path] = cache.key(source, data)
            if identity is not None:
                cache.remember(source, identity, keys[source.path])
            hit = cache.get(keys[source.path], source.path)
            if hit is not None:
                if not _is_no_spawn_cue(hit):
                    parsed[source.path] = hit
                continue
        if source.kind is not FileKind.PYTHON:
            markdown.append((source, data))
            continue
        result = parse_data(source, data, settings)
        if isinstance(result, ParsedFile):
            _fresh(parsed, result, cache, keys)
        elif isinstance(result, str):
            python.append((source.path, result))
        elif cache is not None:
            cache.put(keys[source.path], _no_spawn_cue(source.path))  # so it is not decoded again
    if started is None:
        started = start_markdown(discovery.root, markdown, settings)
    python_parsed = parse_python_isolated(python, settings.spawn_callables, 0 if started.in_workers else None)
    for result in [*parsed_markdown(started).values(), *python_parsed.values()]:
        _fresh(parsed, result, cache, keys)
    return dict(sorted(parsed.items()))


def from_disk(
    discovery: Discovery, files: Sequence[SourceFile] | None, overrides: Mapping[str, bytes] | None
) -> Sequence[SourceFile] | None:
    """The files (None: all) less those whose bytes `overrides` gives."""
    if not overrides:
        return files
    return [s for s in (discovery.files if files is None else files) if s.path not in overrides]


def parse_overridden(
    parsed: Mapping[str, ParsedFile],
    discovery: Discovery,
    settings: Settings,
    overrides: Mapping[str, bytes],
    files: Sequence[SourceFile] | None = None,
) -> dict[str, ParsedFile]:
    """`parsed` with each file of the project (or of `files`) that `overrides` names parsed from
    the bytes it gives (an editor's unsaved buffer) instead of the disk's. Never through the parse
    cache: those bytes are neither looked up nor kept. A path the project does not hold is
    ignored (discovery decides what is linted)."""
    out = dict(parsed)
    python: list[tuple[str, str]] = []
    for source in discovery.files if files is None else files:
        data = overrides.get(source.path)
        if data is None:
            continue
        out.pop(source.path, None)
        result = parse_data(source, data, settings)
        if isinstance(result, ParsedFile):
            out[source.path] = result
        elif isinstance(result, str):
            python.append((source.path, result))
    out.update(parse_python_isolated(python, settings.spawn_callables))
    return dict(sorted(out.items()))


def _no_spawn_cue(path: str) -> ParsedFile:
    """What the cache keeps for a Python file that failed the prefilter: it is not parsed, and
    (as on a first run) not part of the project's parsed files."""
    return ParsedFile(path, FileKind.PYTHON)


def _is_no_spawn_cue(parsed: ParsedFile) -> bool:
    """Whether the record is _no_spawn_cue(its path), without building one to compare."""
    return parsed.kind is FileKind.PYTHON and parsed == _no_spawn_cue(parsed.path)


def _identity(root: str, source: SourceFile) -> tuple[int, ...] | None:
    """The file's size, times and inode now, as the listing records them; None for anything but a
    regular file."""
    try:
        status = os.stat(os.path.join(root, source.path))
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


def _fresh(
    parsed: dict[str, ParsedFile], result: ParsedFile, cache: ParseCache | None, keys: dict[str, str]
) -> None:
    parsed[result.path] = result
    if cache is not None:
        cache.put(keys[result.path], result)


def parse_python_isolated(
    jobs: list[tuple[str, str]], callables: tuple[str, ...], cores_free: int | None = None
) -> dict[str, ParsedFile]:
    """Parse Python files in a child process: libcst's native parser can kill the process that
    runs it (a segmentation fault on, say, a chain of 8,000 `+`). A file that kills its child,
    or outlasts the timeout, is SL000 and the rest are parsed in a fresh one; with many files,
    one child per free core (each imports libcst). libcst is never imported here."""
    free = cores() if cores_free is None else cores_free
    workers = max(1, free) if len(jobs) >= _PYTHON_PARALLEL else 1
    items = [(path, text, callables) for path, text in jobs]
    parsed = map_isolated(_parse_python_job, items, _PYTHON_TIMEOUT, _python_failed, workers)
    return {p.path: p for p in parsed}


def _python_failed(job: tuple[str, str, tuple[str, ...]], why: str) -> ParsedFile:
    return internal_error(job[0], FileKind.PYTHON, f"the Python parser {why} on this file")


def _parse_python_job(job: tuple[str, str, tuple[str, ...]]) -> ParsedFile:
    try:
        return _parse_python(*job)
    except Exception as exc:  # noqa: BLE001 - a fault in one file's parse costs only that file
        return internal_error(job[0], FileKind.PYTHON, _fault(exc), traceback.format_exc())


# Each child imports libcst (~140 ms): a second child pays off only with some files to share.
_PYTHON_PARALLEL = 16
# libcst is quadratic on long operator chains (8,000 `+` terms: 18 s, then a crash); a
# pre-commit hook must not hang on one generated file.
_PYTHON_TIMEOUT = 30.0


def _parse_python(path: str, text: str, callables: tuple[str, ...]) -> ParsedFile:
    from spawnlint.parse.python import parse_python  # imports libcst (~140 ms), in the child only

    return parse_python(path, text, callables)


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
    """A markdown file parsed from its bytes (read here when not given)."""
    if data is None:
        read = read_source(root, source, settings)
        if isinstance(read, ParsedFile):
            return read
        data = read
    result = parse_data(source, data, settings)
    return result if isinstance(result, ParsedFile) else None  # markdown is never deferred


def parse_data(source: SourceFile, data: bytes, settings: Settings) -> ParsedFile | str | None:
    """The parsed file from its bytes; for a Python file that could spawn, its text."""
    text, problem = decode(source.path, data, settings.max_file_bytes)
    if text is None:
        return ParsedFile(source.path, source.kind, problems=(problem,) if problem else ())
    if source.kind is FileKind.PYTHON:
        if not python_could_spawn(text, settings.spawn_callables):
            return None
        if not needs_cst(text, settings.spawn_callables):
            return _no_site_python(source.path, text)
        return text
    return parse_markdown(source, text, all_sentences=settings.no_name_rule.pattern is not None)


def _no_site_python(path: str, text: str) -> ParsedFile:
    """What python.py gives a file where the outline finds nothing for it to read."""
    return ParsedFile(path, FileKind.PYTHON, suppressions=suppressions(split_lines(text), markdown=False))


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
    sections = parsed.sections if parsed.sites else ()
    if (sentences, sections) == (parsed.sentences, parsed.sections) and suppressions is parsed.suppressions:
        return parsed
    return replace(parsed, sentences=sentences, sections=sections, suppressions=suppressions)


def _unreadable(source: SourceFile, why: str) -> ParsedFile:
    problem = Problem("SL002", Finding(source.path, 1, 1, f"file {why}"))
    return ParsedFile(source.path, source.kind, problems=(problem,))


def run_rules(project: Project, settings: Settings) -> tuple[Diagnostic, ...]:
    found: set[Diagnostic] = set()
    chosen = {c.upper() for c in settings.select + settings.extend_select}
    for rule in RULES:
        if rule.opt_in and rule.code not in chosen:
            continue  # an opt-in rule runs only when its own code is selected
        if rule.stage == "project":
            found.update(stamp(rule, rule.check_project(project), settings.severity))
    return tuple(sorted(found))
