"""The first JSON value on the hook's standard input, read without waiting for end of input:
Claude Code may keep the pipe open, and a hook that waits for EOF then runs into its timeout."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import IO, NamedTuple

MAX_PAYLOAD = 16 * 1024 * 1024
WAIT_SECONDS = 5.0  # for the first complete value; hook timeouts are 10-60 s
_CHUNK = 64 * 1024
_RETRY_BELOW = 1024 * 1024  # above this a failed decode is retried only once the input doubled
_MAY_END = (b"}", b"]", b'"', b"e", b"l")  # the last byte of an object, array, string, true/false, null


class Payload(NamedTuple):
    value: object = None
    problem: str | None = None  # why no value was read; then value is None


def read_payload(stream: IO[bytes], cap: int = MAX_PAYLOAD, wait: float = WAIT_SECONDS) -> Payload:
    """One JSON value as soon as it is complete, whether or not more input follows or the stream is
    ever closed; a problem when the input ends (or `wait` seconds pass) without one."""
    buffer = bytearray()
    tried = 0
    for chunk in _chunks(stream, wait):
        if chunk is None:
            return Payload(problem=f"no complete JSON value on stdin within {wait:g} s")
        buffer += chunk
        if len(buffer) > cap:
            return Payload(problem="hook input is too large to read")
        if _may_end(chunk) and (len(buffer) < _RETRY_BELOW or len(buffer) >= 2 * tried):
            tried = len(buffer)
            found = _decode(bytes(buffer), final=False)
            if found is not None:
                return found
    return _decode(bytes(buffer), final=True) or Payload(problem="hook input is not JSON")


def _may_end(chunk: bytes) -> bool:
    tail = chunk.rstrip()
    return not tail or len(tail) < len(chunk) or tail[-1:] in _MAY_END


def _decode(data: bytes, final: bool) -> Payload | None:
    """The value at the start of data; None while it may still be incomplete."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Payload(problem="hook input is not JSON") if final else None
    start = len(text) - len(text.lstrip())
    try:
        value, _ = json.JSONDecoder().raw_decode(text, start)
    except RecursionError:
        return Payload(problem="hook input is not JSON")
    except ValueError:
        return Payload(problem="hook input is not JSON") if final else None
    return Payload(value)


def _chunks(stream: IO[bytes], wait: float) -> Iterator[bytes | None]:
    """The stream's bytes as they arrive; None once `wait` seconds have passed (then no more)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # an in-memory stream: it has an end
        while chunk := stream.read(_CHUNK):
            yield chunk
        return
    if os.name == "nt":  # select() takes only sockets there
        yield from threaded_chunks(fd, wait)
        return
    import select

    deadline = time.monotonic() + wait
    while True:
        left = deadline - time.monotonic()
        ready = select.select([fd], [], [], left)[0] if left > 0 else []
        if not ready:
            yield None
            return
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return
        yield chunk


def threaded_chunks(fd: int, wait: float) -> Iterator[bytes | None]:
    """As _chunks, with a daemon thread doing the blocking reads (it ends with the process)."""
    import queue
    import threading

    arrived: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            arrived.put(chunk)
            if not chunk:
                return

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + wait
    while True:
        try:
            chunk = arrived.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            yield None
            return
        if not chunk:
            return
        yield chunk
