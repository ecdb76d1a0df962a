"""Writing a file so that readers see the old bytes or the new ones, never a torn file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """A temporary file beside the target, then a rename; an existing file keeps its mode."""
    mode = os.stat(path).st_mode & 0o7777 if path.exists() else _new_file_mode()
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    umask = os.umask(0o022)  # read the umask (it can only be read by setting it) and restore it
    os.umask(umask)
    return 0o666 & ~umask
