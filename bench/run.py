"""The benchmark: generate a synthetic marketplace, then time `spawnlint check` on it as a whole
process over several runs; print the minimum, median and maximum wall time and the peak memory
(maximum resident set size) of the runs. Standard library only.

    python bench/run.py                     # the default size (about 1,700 files)
    python bench/run.py --plugins 10 --runs 3
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate  # noqa: E402


def run_once(root: Path) -> tuple[float, int, int]:
    """Wall seconds, exit code and this child's peak RSS in KiB (Linux reports KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "spawnlint", "check", "--root", str(root), "--output-format", "json"],
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, proc.returncode, max(peak, before)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plugins", type=int, default=40)
    parser.add_argument("--commands", type=int, default=20)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = generate(root, args.plugins, args.commands, args.agents, seed=7)
        run_once(root)  # warm the file cache and the bytecode cache
        times, peak, code = [], 0, 0
        for _ in range(args.runs):
            elapsed, code, peak = run_once(root)
            times.append(elapsed)
    print(f"files: {files}  runs: {args.runs}  exit code: {code}")
    print(f"wall seconds: min {min(times):.3f}  median {statistics.median(times):.3f}  max {max(times):.3f}")
    print(f"per file (median): {statistics.median(times) / files * 1000:.2f} ms")
    print(f"peak RSS: {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
