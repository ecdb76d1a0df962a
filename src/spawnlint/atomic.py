"""Writing a file so that readers see the old bytes or the new ones, never a torn file, and
clearing the temporary files that a writer killed mid-write left behind."""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# As tempfile.mkstemp opens its file (tempfile itself costs ~4 ms of imports a run): created
# here and now, by this process only, never through a symlink, readable by the owner alone.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
# The names _temporary_beside gives, and no other: `.<target name>.<12 hex digits>.tmp`.
_TEMPORARY = re.compile(r"\..+\.[0-9a-f]{12}\.tmp")
# A writer holds a lock on its temporary file from just after creating it until it is renamed
# (POSIX): one older than this and not locked was left by a writer that was killed. Without
# locks (Windows) only age tells, and a live write never takes minutes.
_STALE_SECONDS = 2.0 if fcntl is not None else 600.0


def write_atomically(path: Path, data: bytes, mode: int | None = None, keep_owner: bool = False) -> None:
    """A temporary file beside the target, then a rename; an existing file keeps its mode, unless
    `mode` is given, and with `keep_owner` its owner and group (PermissionError when this user
    cannot give the new file to them: the old one is then left as it was)."""
    existing = os.stat(path) if path.exists() else None
    if mode is None:
        mode = existing.st_mode & 0o7777 if existing is not None else _new_file_mode()
    fd, temp = _temporary_beside(path)
    is_open = True
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # held until the rename: clear_leftovers sees it in use
        if keep_owner and existing is not None and hasattr(os, "fchown"):
            own = os.fstat(fd)
            if (own.st_uid, own.st_gid) != (existing.st_uid, existing.st_gid):
                os.fchown(fd, existing.st_uid, existing.st_gid)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.chmod(temp, mode)  # after the owner: a chown clears the set-id bits
        if fcntl is None:  # Windows renames no file that is open
            os.close(fd)
            is_open = False
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    finally:
        if is_open:
            os.close(fd)


def clear_leftovers(folder: Path) -> list[str]:
    """Remove from `folder` the temporary files of writers that were killed before their rename
    (kill -9 runs no clean-up): files of this user named as _temporary_beside names them, not
    locked by a live writer and not written within the last seconds. Returns their names."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if _TEMPORARY.fullmatch(e.name)]
    except OSError:
        return []
    return [name for name in names if _remove_if_stale(os.path.join(folder, name))]


def _remove_if_stale(path: str) -> bool:
    try:  # O_NONBLOCK: a FIFO given such a name does not block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or time.time() - status.st_mtime < _STALE_SECONDS:
            return False
        if hasattr(os, "geteuid") and status.st_uid != os.geteuid():
            return False
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False  # its writer is alive
        if os.lstat(path).st_ino != status.st_ino:
            return False  # renamed or replaced since it was opened
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _temporary_beside(path: Path) -> tuple[int, str]:
    folder = path.parent or Path(".")
    for _ in range(100):
        temp = os.path.join(folder, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(temp, _NEW_FILE, 0o600), temp
        except FileExistsError:
            continue  # 48 random bits taken: try other ones
    raise FileExistsError(f"no free temporary name beside {path}")


def _new_file_mode() -> int:
    umask = os.umask(0o022)  # read the umask (it can only be read by setting it) and restore it
    os.umask(umask)
    return 0o666 & ~umask
