"""The run memo: when no file of the project changed since the last run (same list of files,
same size, times and inode for each) and the settings are the same, the findings left after the
inline suppressions are the last run's, and nothing is read, parsed or checked again.

A run given paths (pre-commit passes the changed files) reads only part of the project, so its
findings are not a whole run's. When every file changed since the last whole run is a command or
skill file among those paths, though, the whole findings are the last whole run's with those of
the changed units replaced: the run reads each such unit whole and remembers the result for the
whole-tree run that usually follows."""

from __future__ import annotations

import hashlib
import pickle
import time
from pathlib import Path
from typing import TYPE_CHECKING

from spawnlint import cache_folder
from spawnlint.cache import load_keyed, store_keyed, well_formed
from spawnlint.cache_folder import cache_dir, code_version, pack_name
from spawnlint.config import Settings
from spawnlint.discover import Listing, list_files
from spawnlint.focus import Wanted, wanted
from spawnlint.model import Diagnostic, FileKind
from spawnlint.suppress import suppressed

if TYPE_CHECKING:
    from spawnlint.engine import Result

_FORMAT = 3


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
    merge = None
    if key is not None and focus is not None:
        merge = _mergeable(root, settings, listing, focus)
        if merge is not None:
            focus = _either(focus, merge[1])  # each changed unit read whole, its findings all kept
    result = lint(root, settings, use_cache, listing, focus)
    kept = suppressed(result.diagnostics, result.project, settings.severity)
    if key is not None and focus is None:
        _save(root, key, kept)
        _save_base(root, settings, listing, kept, result.project.followed)
    elif key is not None and merge is not None:
        base, redone, followed = merge
        whole = sorted([d for d in base if d.path not in redone] + [d for d in kept if d.path in redone])
        _save(root, key, whole)
        _save_base(root, settings, listing, whole, followed | result.project.followed)
    return kept, result


def _either(focus: Wanted, redone: frozenset[str]) -> Wanted:
    return lambda path: path in redone or focus(path)


def _mergeable(
    root: Path, settings: Settings, listing: Listing, focus: Wanted
) -> tuple[list[Diagnostic], frozenset[str], frozenset[str]] | None:
    """The last whole run's findings and the files whose findings this run must redo, when the
    files changed since then are all wanted command or skill files (same list of files, same
    settings); else None. The files redone are every file of each changed unit: a unit's finding
    (SL201 at its first spawn site) can move between its files."""
    from spawnlint.cache import discovered

    remembered = load_keyed(_base_path(root), _base_key(root, settings, listing))
    if not (isinstance(remembered, tuple) and len(remembered) == 4):
        return None
    paths, identities, found, followed = remembered
    if paths != listing.paths or not well_formed(found, list[Diagnostic]):
        return None
    if not well_formed(followed, frozenset[str]):
        return None
    changed = {p for p, old, new in zip(paths, identities, listing.identities, strict=True) if old != new}
    if not changed or not all(focus(p) for p in changed) or changed & followed:
        return None  # a file another unit follows: that unit's findings may change too
    sources = {s.path: s for s in discovered(root, settings.exclude, listing).files}
    units: set[str] = set()
    for path in changed:
        source = sources.get(path)  # a manifest, a configuration or an ignored file: not a source
        if source is None or source.unit is None or source.kind in (FileKind.AGENT, FileKind.PYTHON):
            return None
        units.add(source.unit)
    return found, frozenset(s.path for s in sources.values() if s.unit in units) | changed, followed


def run_key(root: Path, listing: Listing, settings: Settings) -> str | None:
    """A digest of everything a run's findings depend on; None when a file changed too recently
    for its times to tell a later change apart (then the memo is neither read nor written)."""
    horizon = time.time_ns() - cache_folder.RACY_NS
    if listing.identities:
        _, mtimes, ctimes, _, _, link_ctimes = zip(*listing.identities, strict=True)
        if max(max(mtimes), max(ctimes), max(link_ctimes)) > horizon:
            return None
    digest = hashlib.blake2b(_base_key(root, settings, listing).encode(), digest_size=20)
    digest.update("\0".join(listing.paths).encode("utf-8", "surrogateescape"))  # no path holds a NUL
    # size, times and inodes, path by path (pickled, not repr'd: no int printed in decimal)
    digest.update(pickle.dumps(listing.identities, protocol=5))
    return digest.hexdigest()


def _memo_path(root: Path) -> Path:
    return cache_dir() / (pack_name(root) + ".run")


def _base_path(root: Path) -> Path:
    return cache_dir() / (pack_name(root) + ".base")


def _base_key(root: Path, settings: Settings, listing: Listing) -> str:
    """What the last whole run's findings depend on besides the files: the format, spawnlint's
    code, the settings, the root and the listing's problems."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{_FORMAT}\0{code_version()}\0{settings!r}\0{root}".encode())
    digest.update(repr(listing.problems).encode("utf-8", "surrogateescape"))
    digest.update(repr(listing.folder_links).encode("utf-8", "surrogateescape"))  # a link retargeted
    return digest.hexdigest()


def _save_base(
    root: Path, settings: Settings, listing: Listing, found: list[Diagnostic], followed: frozenset[str]
) -> None:
    remembered = (listing.paths, listing.identities, found, followed)
    store_keyed(_base_path(root), _base_key(root, settings, listing), remembered)


def _load(root: Path, key: str) -> list[Diagnostic] | None:
    found = load_keyed(_memo_path(root), key)
    return found if isinstance(found, list) and well_formed(found, list[Diagnostic]) else None


def _save(root: Path, key: str, found: list[Diagnostic]) -> None:
    store_keyed(_memo_path(root), key, found)
