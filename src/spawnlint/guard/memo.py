"""What the guard found out about a named call's target, kept for the next call to it. A named
call costs a listing of the project and a read of its agents; the next call to the same target,
from the same folder, is answered from this memo while every path that answer was read from (each
folder of the listing, the agent files and folders, manifests, settings, the user's agents and
installed plugins) keeps its size, times and inode: one stat a path, and no import of the linter.

A target the memo does not hold (a new agent, a typo) is judged in full, so a memo never hides an
agent. The memo holds everything of a verdict but the prompt, which `hook.judge` reads each call.
The standard library only, through `cache_folder`."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from spawnlint import cache_folder
from spawnlint.guard.call import Call, Judged

_FORMAT = 1
_MAX_BYTES = 16 * 1024 * 1024  # a memo larger than this is not read (and a fresh one is made)


def recall(call: Call) -> Judged | None:
    """The memo's answer for the call's target, or None: no memo, another code version, a target
    not judged before, or a watched path that changed."""
    memo = _load(_path(call))
    if memo is None:
        return None
    entry = memo["targets"].get(_target(call))
    if not isinstance(entry, list) or len(entry) != len(Judged._fields):
        return None
    judged = Judged(*entry)
    if not _well_typed(judged) or any(_identity(path) != known for path, known in memo["watched"].items()):
        return None
    return judged


def remember(call: Call, judged: Judged, watched: set[str]) -> None:
    """Keep the answer, with the state of the paths it was read from; none is kept when one of
    them changed too recently for its times to tell a later change (git's "racily clean")."""
    stamp = {path: _identity(path) for path in sorted(watched)}
    horizon = time.time_ns() - cache_folder.RACY_NS
    if any(known is not None and max(known[0], known[1]) > horizon for known in stamp.values()):
        return
    path = _path(call)
    memo = _load(path)
    targets = memo["targets"] if memo is not None and memo["watched"] == stamp else {}
    targets[_target(call)] = list(judged)
    data = {"format": _FORMAT, "code": cache_folder.code_version(), "watched": stamp, "targets": targets}
    try:
        folder = path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if cache_folder.distrusted(folder):
            return
        from spawnlint.atomic import write_atomically

        write_atomically(path, json.dumps(data, separators=(",", ":")).encode(), mode=0o600)
    except OSError:
        return


def _path(call: Call) -> Path:
    return cache_folder.cache_dir() / f"{cache_folder.pack_name(call.cwd)}.guard.json"


def _target(call: Call) -> str:
    return call.subagent_type.strip().lower()


def _identity(path: str) -> list[int] | None:
    """What tells that a path changed (as JSON has it: a list); None when it is not there."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return [status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino]


def _load(path: Path) -> dict[str, dict[str, object]] | None:
    if cache_folder.distrusted(path.parent):
        return None
    try:
        with open(path, "rb") as handle:
            if not cache_folder.own_file(handle.fileno()):
                return None
            data = handle.read(_MAX_BYTES + 1)
        memo = json.loads(data) if len(data) <= _MAX_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(memo, dict)
        or memo.get("format") != _FORMAT
        or memo.get("code") != cache_folder.code_version()
        or not isinstance(memo.get("watched"), dict)
        or not isinstance(memo.get("targets"), dict)
    ):
        return None
    return memo


def _well_typed(judged: Judged) -> bool:
    texts = (judged.root, judged.status, judged.agent_id, judged.why_mute, judged.mode)
    flags = (judged.judged, judged.mute, judged.untold_unless_told)
    return all(isinstance(t, str) for t in texts) and all(isinstance(f, bool) for f in flags)
