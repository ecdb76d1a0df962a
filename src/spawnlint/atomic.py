"""Writing a file so that readers see the old bytes or the new ones, never a torn file."""

from __future__ import annotations

import os
from pathlib import Path

# As tempfile.mkstemp opens its file (tempfile itself costs ~4 ms of imports a run): created
# here and now, by this process only, never through a symlink, readable by the owner alone.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def write_atomically(path: Path, data: bytes, mode: int | None = None, keep_owner: bool = False) -> None:
    """A temporary file beside the target, then a rename; an existing file keeps its mode, unless
    `mode` is given, and with `keep_owner` its owner and group (PermissionError when this user
    cannot give the new file to them: the old one is then left as it was)."""
    existing = os.stat(path) if path.exists() else None
    if mode is None:
        mode = existing.st_mode & 0o7777 if existing is not None else _new_file_mode()
    fd, temp = _temporary_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            if keep_owner and existing is not None and hasattr(os, "fchown"):
                own = os.fstat(handle.fileno())
                if (own.st_uid, own.st_gid) != (existing.st_uid, existing.st_gid):
                    os.fchown(handle.fileno(), existing.st_uid, existing.st_gid)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)  # after the owner: a chown clears the set-id bits
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


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
