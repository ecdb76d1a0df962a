"""Where spawnlint keeps what it remembers between runs, whether that folder can be trusted, and
the names and code version its files are kept under. The standard library only: the guard reads
its memo through this module before anything else of spawnlint is imported."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

from spawnlint import __version__

# A file whose stat this recent is not remembered: a write within the clock's granularity could
# leave size and times unchanged (git's "racily clean" entries).
RACY_NS = 2_000_000_000


@functools.cache
def code_version() -> str:
    """spawnlint's version and a fingerprint of its own source files (names, sizes, times): an
    edited checkout or an editable install never reads what an older code cached."""
    digest = hashlib.blake2b(__version__.encode(), digest_size=12)
    package = Path(__file__).parent
    for source in sorted(package.rglob("*.py")):
        status = source.stat()
        digest.update(f"{source.relative_to(package)}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def pack_name(root: Path) -> str:
    """The name of a project's files in the cache folder: one project, one name."""
    return hashlib.blake2b(str(root.resolve()).encode(), digest_size=12).hexdigest()


# Whoever can write the cache can hide every finding (a record of no findings is well-formed), so
# only a folder of this user that no one else can write is used; spawnlint makes its own 0700.
_OTHERS_WRITE = 0o022


def distrusted(folder: Path | None = None) -> str | None:
    """Why the cache folder (by default the configured one) must not be used, or None: it belongs
    to another user, or its group or others can write to it. A folder not made yet is fine."""
    folder = cache_dir() if folder is None else folder
    if not hasattr(os, "geteuid"):
        return None  # Windows: the folder is under the user's own profile
    try:
        status = os.stat(folder)
    except OSError:
        return None  # missing (made private when first written) or unusable (nothing is stored)
    if status.st_uid != os.geteuid():
        return f"it belongs to another user (uid {status.st_uid})"
    if status.st_mode & _OTHERS_WRITE:
        return f"{'others' if status.st_mode & 0o002 else 'its group'} can write to it"
    return None


def own_file(fd: int) -> bool:
    if not hasattr(os, "geteuid"):
        return True
    status = os.fstat(fd)
    return status.st_uid == os.geteuid() and not status.st_mode & _OTHERS_WRITE


def cache_dir() -> Path:
    """$SPAWNLINT_CACHE_DIR, else the platform's user cache folder."""
    explicit = os.environ.get("SPAWNLINT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "spawnlint" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "spawnlint"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache") / "spawnlint"
