"""The fast block scan against markdown-it on a tree's markdown files: the share of files the scan
reads, why it leaves the others, whether any read differs, and the time of build_structure with
and without the scan on the files it reads (best of a few rounds).

    python bench/blocks.py                  # a generated marketplace of 227 plugins
    python bench/blocks.py DIR [DIR ...]    # every .md under the folders
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from spawnlint.parse.blocks import scan
from spawnlint.parse.frontmatter import split_frontmatter
from spawnlint.parse.markdown import build_structure, markdown_it_structure
from spawnlint.parse.text import Structure, split_lines

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate  # noqa: E402


def body_lines(path: Path) -> list[str]:
    """The lines build_structure gets for a markdown file: its frontmatter blanked."""
    lines = split_lines(path.read_bytes().decode("utf-8", "replace"))
    _, body_start = split_frontmatter(lines)
    return [""] * body_start + lines[body_start:]


def best_time(fn: Callable[[list[str]], object], docs: list[list[str]], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for doc in docs:
            fn(doc)
        best = min(best, time.perf_counter() - start)
    return best


def report(roots: list[Path], rounds: int) -> int:
    docs = [body_lines(p) for root in roots for p in sorted(root.rglob("*.md"))]
    if not docs:
        print("no markdown files")
        return 1
    reasons: Counter[str] = Counter()
    handled: list[list[str]] = []
    wrong = 0
    for lines in docs:
        read = scan(lines)
        if isinstance(read, Structure):
            handled.append(lines)
            wrong += read != markdown_it_structure(lines)
        else:
            reasons[read] += 1
    share = len(handled) / len(docs)
    print(f"{len(docs)} markdown files, {len(handled)} ({share:.1%}) read by the fast scan, {wrong} differ")
    for reason, count in reasons.most_common():
        print(f"  {count:6d} left to markdown-it: {reason}")
    if handled:
        slow = best_time(markdown_it_structure, handled, rounds)
        fast = best_time(build_structure, handled, rounds)
        per = 1e6 / len(handled)
        print(
            f"build_structure on those files: markdown-it {slow * 1000:.0f} ms ({slow * per:.0f} us/file), "
            f"fast scan {fast * 1000:.0f} ms ({fast * per:.0f} us/file): {slow / fast:.1f}x"
        )
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", type=Path)
    parser.add_argument("--plugins", type=int, default=227, help="size of the generated tree")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.roots:
        return report(args.roots, args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp), plugins=args.plugins)
        return report([Path(tmp)], args.rounds)


if __name__ == "__main__":
    sys.exit(main())
