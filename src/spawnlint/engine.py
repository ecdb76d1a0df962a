"""The pipeline, one way: discover → parse (each file: parse/file.py) → build project → rules.
Filtering and reporting happen after, in suppress.py and report/."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from spawnlint.cache import ParseCache, discovered
from spawnlint.config import Settings
from spawnlint.discover import MANIFESTS, Discovery, Listing, SourceFile, discover, list_files
from spawnlint.focus import Wanted, files_needed
from spawnlint.model import Diagnostic, FileKind, ParsedFile, Project
from spawnlint.parse import file as parse_file
from spawnlint.project import build_project, followed_links
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
    unsaved = {p: b for p, b in (overrides or {}).items() if p.endswith(MANIFESTS)}
    if unsaved:  # an editor's manifest: discovered from its bytes, never remembered
        discovery = discover(root, settings.exclude, listing, manifests=unsaved)
    else:
        discovery = discovered(root, settings.exclude, listing, use_cache)
    needed = files_needed(discovery, focus) if focus is not None else None
    present = frozenset(listing.paths) if needed is not None else ()
    cache = ParseCache.open(root, settings, only=needed, present=present) if use_cache else None
    parsed = parse_all(discovery, settings, cache, listing, from_disk(discovery, needed, overrides))
    if needed is not None:  # a focused run reads the files its units follow, and theirs
        sources = {s.path: s for s in discovery.files}
        more = followed_unread(sources, parsed)
        while more:
            parsed.update(
                parse_all(discovery, settings, None, listing, from_disk(discovery, more, overrides))
            )
            more = followed_unread(sources, parsed)
    if cache is not None:
        cache.save()
    if overrides:
        parsed = parse_overridden(parsed, discovery, settings, overrides, needed)
    project = build_project(discovery, parsed, settings, focus)
    return Result(project, run_rules(project, settings))


def followed_unread(sources: Mapping[str, SourceFile], parsed: Mapping[str, ParsedFile]) -> list[SourceFile]:
    """The files the parsed ones tell the model to follow that are not parsed yet."""
    targets = {t for links in followed_links(sources, parsed).values() for _, _, t in links}
    return [sources[t] for t in sorted(targets - parsed.keys())]


def parse_all(
    discovery: Discovery,
    settings: Settings,
    cache: ParseCache | None = None,
    listing: Listing | None = None,
    files: Sequence[SourceFile] | None = None,
) -> dict[str, ParsedFile]:
    """Every file's parse (or that of `files`): from the cache when its bytes are known, else
    parsed (markdown in a process pool when there is much of it, Python here meanwhile). The
    listing's stat of each file (taken before any is read) tells the cache which files are
    unchanged."""
    parsed: dict[str, ParsedFile] = {}
    markdown: list[tuple[SourceFile, bytes | None]] = []  # None: the worker reads it
    keys: dict[str, str] = {}
    root = str(discovery.root)
    identities = dict(zip(listing.paths, listing.identities, strict=True)) if listing and cache else {}
    sources = discovery.files if files is None else files
    started = None
    # Markdown first, so its workers run while this process reads and parses the Python files.
    ordered = [s for s in sources if s.kind is not FileKind.PYTHON] + [
        s for s in sources if s.kind is FileKind.PYTHON
    ]
    for source in ordered:
        if started is None and source.kind is FileKind.PYTHON:
            started = parse_file.start_markdown(discovery.root, markdown, settings)
        identity = (identities.get(source.path) or _identity(root, source)) if cache is not None else None
        known = cache.by_stat(source, identity) if cache is not None and identity is not None else None
        if known is not None:
            if not _is_no_spawn_cue(known):
                parsed[source.path] = known
            continue
        if cache is None and source.kind is not FileKind.PYTHON:
            markdown.append((source, None))  # read where it is parsed, in parallel
            continue
        data = parse_file.read_source(discovery.root, source, settings)
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
        result = parse_file.parse_data(source, data, settings)
        if result is not None:
            _fresh(parsed, result, cache, keys)
        elif cache is not None:
            cache.put(keys[source.path], _no_spawn_cue(source.path))  # so it is not decoded again
    if started is None:
        started = parse_file.start_markdown(discovery.root, markdown, settings)
    for result in parse_file.parsed_markdown(started).values():
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
    for source in discovery.files if files is None else files:
        data = overrides.get(source.path)
        if data is None:
            continue
        out.pop(source.path, None)
        result = parse_file.parse_data(source, data, settings)
        if result is not None:  # None: Python that cannot spawn
            out[source.path] = result
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


def run_rules(project: Project, settings: Settings) -> tuple[Diagnostic, ...]:
    found: set[Diagnostic] = set()
    chosen = {c.upper() for c in settings.select + settings.extend_select}
    for rule in RULES:
        if rule.opt_in and rule.code not in chosen:
            continue  # an opt-in rule runs only when its own code is selected
        if rule.stage == "project":
            found.update(stamp(rule, rule.check_project(project), settings.severity))
    return tuple(sorted(found))
