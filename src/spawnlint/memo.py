"""The run memo: when no file of the project changed since the last run (same list of files,
same size, times and inode for each) and the settings are the same, the findings left after the
inline suppressions are the last run's, and nothing is read, parsed or checked again."""

from __future__ import annotations

import hashlib
import pickle
import time
from pathlib import Path
from typing import TYPE_CHECKING

from spawnlint import cache
from spawnlint.cache import cache_dir, load_keyed, pack_name, store_keyed, well_formed
from spawnlint.config import Settings
from spawnlint.discover import Listing, list_files
from spawnlint.focus import wanted
from spawnlint.model import Diagnostic
from spawnlint.suppress import suppressed

if TYPE_CHECKING:
    from spawnlint.engine import Result

_FORMAT = 2


def checked(
    root: Path, settings: Settings, use_cache: bool, paths: tuple[str, ...] | None = None
) -> tuple[list[Diagnostic], Result | None]:
    """The diagnostics after inline suppressions (and SL900), and the run's result when the
    project was linted (None when the memo answered). With `paths`, those touching the paths
    are all there (others may be missing or stale): the run is focused on them, and its
    partial findings are not remembered."""
    listing = list_files(root)
    key = run_key(root, listing, settings) if use_cache else None
    if key is not None:
        remembered = _load(root, key)
        if remembered is not None:
            return remembered, None
    from spawnlint.engine import lint  # the parsers and their imports: only when something changed

    focus = wanted(paths)
    result = lint(root, settings, use_cache, listing, focus)
    kept = suppressed(result.diagnostics, result.project, settings.severity)
    if key is not None and focus is None:
        _save(root, key, kept)
    return kept, result


def run_key(root: Path, listing: Listing, settings: Settings) -> str | None:
    """A digest of everything a run's findings depend on; None when a file changed too recently
    for its times to tell a later change apart (then the memo is neither read nor written)."""
    horizon = time.time_ns() - cache.RACY_NS
    if listing.identities:
        _, mtimes, ctimes, _, _, link_ctimes = zip(*listing.identities, strict=True)
        if max(max(mtimes), max(ctimes), max(link_ctimes)) > horizon:
            return None
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{_FORMAT}\0{cache.code_version()}\0{settings!r}\0{root}".encode())
    digest.update(repr(listing.problems).encode("utf-8", "surrogateescape"))
    digest.update("\0".join(listing.paths).encode("utf-8", "surrogateescape"))  # no path holds a NUL
    # size, times and inodes, path by path (pickled, not repr'd: no int printed in decimal)
    digest.update(pickle.dumps(listing.identities, protocol=5))
    return digest.hexdigest()


def _memo_path(root: Path) -> Path:
    return cache_dir() / (pack_name(root) + ".run")


def _load(root: Path, key: str) -> list[Diagnostic] | None:
    found = load_keyed(_memo_path(root), key)
    return found if isinstance(found, list) and well_formed(found, list[Diagnostic]) else None


def _save(root: Path, key: str, found: list[Diagnostic]) -> None:
    store_keyed(_memo_path(root), key, found)
