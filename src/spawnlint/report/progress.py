"""A progress line for long runs: only on a terminal, on standard error, and never where the
output is a log (pre-commit, which may give its hooks a terminal; CI)."""

from __future__ import annotations

import os
import threading
import time
from types import TracebackType
from typing import IO

from spawnlint.report.safe import escape_controls

# A run shorter than this shows nothing: a warm run (a tenth of a second) must not flicker.
_DELAY = 1.0
_EVERY = 0.5


def wanted(stream: IO[str]) -> bool:
    """A person is watching: the stream is a terminal, and neither pre-commit (which sets
    PRE_COMMIT for its hooks) nor a CI runner (CI, GITHUB_ACTIONS) is running us."""
    if any(os.environ.get(name) for name in ("PRE_COMMIT", "CI", "GITHUB_ACTIONS")):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """`with Progress.on_terminal(sys.stderr, "checking DIR"):` shows `spawnlint: checking DIR
    (3 s)` after a second, updated twice a second and erased when the block ends."""

    def __init__(self, stream: IO[str] | None, what: str) -> None:
        self.stream = stream
        self.what = escape_controls(what)
        self.started = time.monotonic()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.shown = False

    @classmethod
    def on_terminal(cls, stream: IO[str], what: str) -> Progress:
        return cls(stream if wanted(stream) else None, what)

    def __enter__(self) -> Progress:
        if self.stream is not None and _DELAY <= 0:
            self._show()  # no delay: shown at once (what a test can observe without timing)
        if self.stream is not None:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        if self.shown and self.stream is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        return f"spawnlint: {self.what} ({int(elapsed)} s)"

    def _show(self) -> None:
        if self.stream is not None:
            self.stream.write("\r\x1b[K" + self.line(time.monotonic() - self.started))
            self.stream.flush()
            self.shown = True

    def _run(self) -> None:
        if self.stop.wait(max(_DELAY, 0)):
            return
        while True:
            self._show()
            if self.stop.wait(_EVERY):
                return
