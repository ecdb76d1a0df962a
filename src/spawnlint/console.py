"""The console script: `spawnlint guard` runs before every Agent call, so it starts without the
linter's modules (cli.py imports them all); every other command line goes to cli.main."""

from __future__ import annotations

import sys


def main() -> int:
    if sys.argv[1:] == ["guard"]:
        from spawnlint.guard import run_hook

        return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr)
    from spawnlint.cli import main as cli_main

    return cli_main()
