"""Linting files as an editor or standard input holds them: the project is read from the disk,
the named files' bytes come from a mapping (see engine.lint's `overrides`), and a buffer with no
file on disk yet is listed as a file of the project."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from spawnlint.config import Settings
from spawnlint.discover import Listing, list_files
from spawnlint.engine import Result, lint
from spawnlint.focus import Wanted

_NO_IDENTITY = (0, 0, 0, 0, 0, 0)  # a buffer not on disk: no stat can match it


def lint_buffers(
    root: Path,
    settings: Settings,
    buffers: Mapping[str, bytes],
    use_cache: bool = True,
    focus: Wanted | None = None,
    listing: Listing | None = None,
) -> Result:
    """The project and its findings with each buffer (a path relative to the root -> bytes) in
    place of its file; `listing`, when given, is the disk's files as listed a moment ago."""
    listing = with_paths(listing or list_files(root), buffers)
    return lint(root, settings, use_cache, listing, focus, overrides=buffers)


def with_paths(listing: Listing, buffers: Mapping[str, bytes]) -> Listing:
    """The listing with the buffers that have no file on disk yet (a new, unsaved file)."""
    known = set(listing.paths)
    extra = sorted(p for p in buffers if p not in known)
    if not extra:
        return listing
    identities = listing.identities or (_NO_IDENTITY,) * len(listing.paths)
    pairs = sorted([*zip(listing.paths, identities, strict=True), *((p, _NO_IDENTITY) for p in extra)])
    return replace(listing, paths=tuple(p for p, _ in pairs), identities=tuple(i for _, i in pairs))
