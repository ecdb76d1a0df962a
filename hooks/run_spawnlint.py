#!/usr/bin/env python3
"""spawnlint from this plugin's own files: what the plugin's hook and its /spawnlint:audit command
run, with the Python found on PATH (3.10 or later) and nothing installed.

The linter's code is the plugin's `src/` folder. The guard needs only the standard library: a
frontmatter that the plain reader cannot settle would need PyYAML, and where PyYAML is not
installed that one decision is left undecided, and the guard allows the call (it fails open, as
on any error). markdown-it-py and libcst, which `audit` uses for a few files, are not needed by
the guard at all."""

from __future__ import annotations

import os
import sys
import types

_PLUGIN_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FrontmatterNeedsYAML(Exception):
    """Raised where PyYAML would have read a frontmatter: nothing catches it on the way, so the
    guard's fail-open handler allows the call and says why."""


def _undecided_yaml() -> types.ModuleType:
    """A stand-in for PyYAML with the names spawnlint refers to; loading anything refuses."""
    module = types.ModuleType("yaml")

    class YAMLError(Exception):
        pass

    class MarkedYAMLError(YAMLError):
        pass

    def load(*args: object, **kwargs: object) -> object:
        raise FrontmatterNeedsYAML(
            "a frontmatter needs PyYAML to be read and PyYAML is not installed (pip install PyYAML)"
        )

    module.YAMLError = YAMLError  # type: ignore[attr-defined]
    module.MarkedYAMLError = MarkedYAMLError  # type: ignore[attr-defined]
    module.SafeLoader = object  # type: ignore[attr-defined]
    module.load = load  # type: ignore[attr-defined]
    module.__spawnlint_stand_in__ = True  # type: ignore[attr-defined]
    return module


def _separate_cache() -> None:
    """Parses made without PyYAML (a file it would have read is SL000) must never be served from
    the cache to a full install of the same version: they get a cache folder of their own."""
    from spawnlint.cache import cache_dir

    os.environ["SPAWNLINT_CACHE_DIR"] = str(cache_dir() / "without-pyyaml")


def main(argv: list[str]) -> int:
    verb = argv[0] if argv else ""
    if sys.version_info < (3, 10):  # noqa: UP036 - the Python on PATH may be older than ours
        sys.stderr.write(f"spawnlint: needs Python 3.10 or later, not {sys.version.split()[0]}\n")
        return 0 if verb == "guard" else 2  # a hook that cannot judge never blocks
    sys.path.insert(0, os.path.join(_PLUGIN_ROOT, "src"))
    try:
        import yaml  # noqa: F401 - only whether it is there
    except ImportError:
        sys.modules["yaml"] = _undecided_yaml()
        if verb != "guard":  # the guard caches only discovery, which PyYAML has no part in
            _separate_cache()
    if verb == "guard":
        try:
            from spawnlint.guard import run_hook
        except Exception as exc:  # noqa: BLE001 - a broken copy of the plugin must not block spawns
            sys.stderr.write(f"spawnlint guard: cannot start ({type(exc).__name__}: {exc}); call allowed\n")
            return 0
        return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr)
    from spawnlint.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
