"""The benchmark of issue 17: spawnlint's figures on one tree, each beside its target, as whole
processes and medians over --runs rounds (each round runs every command once, in turn, so a
ratio compares runs made moments apart on a shared, noisy machine). Standard library only.

    python bench/run.py                               # generated tree: 227 plugins, ~10,000 files
    python bench/run.py --prose agentic --plugins 205 # prose that talks about agents, ~9,000 files
    python bench/run.py --root DIR --copies 9         # DIR copied nine times into a git repository
    python bench/run.py --root DIR                    # DIR as it is (no slopes; one file edited, put back)
    python bench/run.py --runs 3 --no-slopes          # quicker
    python bench/run.py --other 'name=command {root}' # one more linter beside the peers

It prints: cold `check --no-cache` over the reference peer's time (frontmatter-guard, the fastest
peer that reads every file); warm `check` and warm `check FILE` after FILE changed (as pre-commit
runs it) over the floor (the interpreter importing yaml and markdown_it, then reading every file
of the tree); one `guard` call; the peak RSS of spawnlint's runs; and the slopes of log cold time
over log files (the tree at a quarter, half and full size; for copies: 1, a third, all of them)
and over log bytes of markdown at a fixed file count (a generated quarter tree with its prose at
1x, 2x, 4x). Linters are found on PATH. The generated trees and the copies are git repositories
with their files committed, as a clone is: `check` lists files through git there, and the guard
finds the project's plugins only in a git work tree.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import PROSE_KINDS, generate  # noqa: E402

# Other plugin linters, run on the same tree when found on PATH (or given with --other).
KNOWN_LINTERS = {
    "frontmatter-guard": "frontmatter-guard check {root}",
    "claudelint": "claudelint {root}",
    "claude-code-lint": "claude-code-lint {root}",
    "skilllint": "skilllint {root}",
    "skillsaw": "skillsaw {root}",
}
# The peer the cold run is held to: the fastest that reads every file (claudelint reads less).
REFERENCE_PEER = "frontmatter-guard"

# Issue 17's targets. The cold run is held to the reference peer's own time (no ratio above it);
# a slope of 1.0 is linear growth, and 0.1 above it allows for the noise of a shared machine.
COLD_OVER_PEER = 1.0
WARM_OVER_FLOOR = 1.2
SINGLE_OVER_FLOOR = 1.5
GUARD_MS = 100.0
PEAK_MB = 150.0
LINEAR_SLOPE = 1.1

# spawnlint's run memo ignores files changed in the last 2 seconds (their times cannot yet tell a
# later change apart); the benchmark lets its own edits age past that before a warm run.
RACY_SECONDS = 2.2

FLOOR = """
import os, sys
import yaml, markdown_it
for d, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [x for x in dirs if x != ".git"]
    for f in files:
        with open(os.path.join(d, f), "rb") as h:
            h.read()
"""


@dataclass(frozen=True)
class Sample:
    seconds: float  # wall time
    cpu: float  # user + system time of the process and the children it waited for
    code: int
    peak_bytes: int


def run_once(cmd: Sequence[str], stdin: bytes = b"", env: dict[str, str] | None = None) -> Sample:
    """Wall time, exit code and peak RSS of one child process (the largest of it and the
    processes it waited for, such as its pool's workers)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(cmd), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is in KiB on Linux, in bytes on macOS
    peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return Sample(elapsed, usage.ru_utime + usage.ru_stime, proc.returncode, peak)


def spawnlint(*args: str) -> list[str]:
    return [sys.executable, "-m", "spawnlint", *args]


def check(root: Path, *args: str) -> list[str]:
    """`check` as the pre-commit hook runs it (its entry is `spawnlint check --quiet`)."""
    return spawnlint("check", "--root", str(root), "--quiet", "--exit-zero", *args)


@dataclass(frozen=True)
class Tree:
    root: Path
    files: int  # the files spawnlint reads
    markdown_bytes: int  # the bytes of the markdown among them
    all_files: int  # every file of the tree, as the floor reads it


def describe(root: Path, env: dict[str, str]) -> Tree:
    """The tree as spawnlint sees it: the files `check --show-files` lists."""
    done = subprocess.run(
        spawnlint("check", "--root", str(root), "--show-files"), capture_output=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"spawnlint check --show-files failed on {root}: {done.stderr.decode()[-500:]}")
    listed = [root / line for line in done.stdout.decode("utf-8", "surrogateescape").splitlines() if line]
    markdown = sum(p.stat().st_size for p in listed if p.suffix == ".md")
    every = sum(len(files) for _, _, files in _walk(root))
    return Tree(root, len(listed), markdown, every)


def _walk(root: Path) -> Iterator[tuple[str, list[str], list[str]]]:
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != ".git"]
        yield d, dirs, files


def copy_tree(source: Path, copies: int, dest: Path) -> Path:
    """`copies` copies of `source` (its .git left out) as dest/copy1 ... in a new git repository
    with one commit, as a clone of a monorepo of them would be."""
    if not source.is_dir():
        raise SystemExit(f"{source}: no such folder")
    dest.mkdir(parents=True)
    for k in range(1, copies + 1):
        shutil.copytree(source, dest / f"copy{k}", symlinks=True, ignore=shutil.ignore_patterns(".git"))
    return commit_all(dest)


def commit_all(root: Path) -> Path:
    """Make `root` a git repository holding its files in one commit: a project is a clone, and
    a hook finds its project (and `check` its files) through git."""
    if shutil.which("git") is None:
        raise SystemExit("git is not on PATH: the benchmark's trees are git repositories")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "commit.gpgsign=false"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "bench tree"]):
        subprocess.run([*git, *step], cwd=root, check=True, capture_output=True)
    return root


def a_markdown_file(root: Path) -> Path:
    """The file the single-file run edits: a command of the tree (any markdown file if none)."""
    for pattern in ("plugins/*/commands/*.md", "**/commands/*.md", "**/*.md"):
        found = sorted(p for p in root.glob(pattern) if ".git" not in p.parts)
        if found:
            return found[0]
    raise SystemExit(f"{root}: no markdown file to edit for the single-file run")


def guard_payload(root: Path) -> bytes | None:
    """A PreToolUse payload spawning the tree's first agent with a name (the guard reads it)."""
    agents = sorted(p for p in root.glob("**/agents/*.md") if ".git" not in p.parts)
    if not agents:
        return None
    agent = agents[0]
    # Claude Code calls a plugin's agent `plugin:name`, its name from the frontmatter
    declared = re.search(r"^name:[ \t]*['\"]?([\w.-]+)", agent.read_text("utf-8", "replace"), re.MULTILINE)
    name = declared.group(1) if declared else agent.stem
    tool_input = {"subagent_type": f"{agent.parts[-3]}:{name}", "name": "x", "prompt": "p"}
    payload = {
        "session_id": "bench",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Agent",
        "tool_input": tool_input,
    }
    return json.dumps(payload).encode()


@dataclass(frozen=True)
class Measured:
    """The samples of every round, by what was run."""

    samples: dict[str, list[Sample]]

    def median(self, key: str, cpu: bool = False) -> float:
        return statistics.median(s.cpu if cpu else s.seconds for s in self.samples[key])

    def ratio(self, top: str, bottom: str, cpu: bool = False) -> float:
        """The median over the rounds of each round's ratio (of wall or of CPU times)."""
        pairs = zip(self.samples[top], self.samples[bottom], strict=True)
        return statistics.median(
            _over(a.cpu, b.cpu) if cpu else _over(a.seconds, b.seconds) for a, b in pairs
        )

    def codes(self, key: str) -> set[int]:
        return {s.code for s in self.samples[key]}


def _run_ignoring_round(cmd: Sequence[str], _round: int, env: dict[str, str] | None = None) -> Sample:
    return run_once(cmd, env=env)


def settle(*paths: Path) -> None:
    """Wait until the newest of the files changed RACY_SECONDS ago: spawnlint's run memo trusts a
    file's times only then (it is neither read nor written before), so a run sooner would leave
    the next warm run to lint again what nothing changed."""
    newest = max((p.stat().st_mtime for p in paths), default=0.0)
    time.sleep(max(0.0, newest + RACY_SECONDS - time.time()))


def _over(a: float, b: float) -> float:
    """a / b; a process too short for the clock's tick (a CPU time of 0) is infinitely faster."""
    return a / b if b else math.inf


def measure(
    tree: Tree,
    runs: int,
    peers: dict[str, list[str]],
    slope_trees: Sequence[Tree],
    env: dict[str, str],
) -> Measured:
    """Every command once a round, `runs` rounds, after one unmeasured run of each (bytecode,
    page cache, spawnlint's cache and run memo)."""
    root = tree.root
    changed = a_markdown_file(root)
    original = changed.read_bytes()
    payload = guard_payload(root)
    has_guard = subprocess.run(spawnlint("guard", "--help"), capture_output=True, env=env).returncode == 0
    commands: dict[str, Callable[[int], Sample]] = {
        "floor": lambda _: run_once([sys.executable, "-c", FLOOR, str(root)]),
        **{name: functools.partial(_run_ignoring_round, cmd) for name, cmd in peers.items()},
        "cold": lambda _: run_once(check(root, "--no-cache"), env=env),
        "warm": lambda _: run_once(check(root), env=env),
    }

    def single(i: int) -> Sample:
        changed.write_bytes(original + f"\nEdit {i} at {time.time()}.\n".encode())
        try:
            return run_once(check(root, str(changed)), env=env)
        finally:
            changed.write_bytes(original)
            settle(changed)
            run_once(check(root), env=env)  # the next round's warm run finds nothing changed

    commands["single"] = single
    if has_guard and payload is not None:
        commands["guard"] = lambda _: run_once(spawnlint("guard"), stdin=payload, env=env)
    for t in slope_trees:
        if t.root != root:
            cold = check(t.root, "--no-cache")
            commands[f"cold {t.root}"] = functools.partial(_run_ignoring_round, cold, env=env)
    settle(*(Path(d) / f for d, _, files in _walk(root) for f in files))
    for name, command in commands.items():
        if name != "single":
            command(-1)
    samples: dict[str, list[Sample]] = {name: [] for name in commands}
    for i in range(runs):
        for name, command in commands.items():
            samples[name].append(command(i))
    return Measured(samples)


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The least-squares slope of log y over log x: 1.0 is linear, 2.0 quadratic."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly, strict=True)) / sum((x - mx) ** 2 for x in lx)


@dataclass(frozen=True)
class Row:
    figure: str
    measured: str
    target: str
    met: bool | None  # None: not measured
    detail: str = ""  # the times behind it, printed beneath


def rows(
    tree: Tree,
    m: Measured,
    peers: Sequence[str],
    file_trees: Sequence[Tree],
    prose_trees: Sequence[Tree],
    why_no_slopes: str,
) -> list[Row]:
    def cold_of(t: Tree, cpu: bool = False) -> float:
        return m.median("cold" if t.root == tree.root else f"cold {t.root}", cpu)

    def exits(key: str) -> str:
        return "/".join(map(str, sorted(m.codes(key))))

    def ratio_row(figure: str, top: str, bottom: str, limit: float, more: str) -> Row:
        value = m.ratio(top, bottom)
        detail = (
            f"wall {m.median(top):.3f} s / {m.median(bottom):.3f} s; CPU {m.median(top, True):.3f} s"
            f" / {m.median(bottom, True):.3f} s ({m.ratio(top, bottom, True):.2f}x); {more}"
        )
        return Row(figure, f"{value:.2f}x", f"<= {limit}x", value <= limit, detail)

    others = "; ".join(f"{p} {m.median(p):.2f} s (exit {exits(p)})" for p in peers if p != REFERENCE_PEER)
    cold = f"cold check --no-cache / {REFERENCE_PEER}"
    if REFERENCE_PEER in peers:
        more = f"{REFERENCE_PEER} exits {exits(REFERENCE_PEER)}" + (f"; {others}" if others else "")
        out = [ratio_row(cold, "cold", REFERENCE_PEER, COLD_OVER_PEER, more)]
    else:
        detail = f"cold {m.median('cold'):.2f} s; " + (others or "no other linter on PATH")
        out = [Row(cold, "not on PATH", f"<= {COLD_OVER_PEER}x", None, detail)]
    floor = f"the floor reads {tree.all_files:,} files"
    out += [
        ratio_row("warm check / floor", "warm", "floor", WARM_OVER_FLOOR, floor),
        ratio_row("warm check FILE after FILE changed / floor", "single", "floor", SINGLE_OVER_FLOOR, floor),
    ]
    if "guard" in m.samples:
        ms = m.median("guard") * 1000
        detail = f"wall time; CPU {m.median('guard', True) * 1000:.0f} ms"
        out.append(Row("one guard call", f"{ms:.0f} ms", f"< {GUARD_MS:.0f} ms", ms < GUARD_MS, detail))
    else:
        out.append(Row("one guard call", "n/a", f"< {GUARD_MS:.0f} ms", None, "no guard verb or no agent"))
    ours = [k for k in m.samples if k in ("cold", "warm", "single", "guard")]
    peak = max(s.peak_bytes for k in ours for s in m.samples[k]) / 1e6
    out.append(Row("peak RSS of spawnlint's runs", f"{peak:.0f} MB", f"< {PEAK_MB:.0f} MB", peak < PEAK_MB))
    out.append(slope_row("files", file_trees, cold_of, why_no_slopes))
    out.append(slope_row("prose bytes", prose_trees, cold_of, why_no_slopes))
    return out


def slope_row(over: str, trees: Sequence[Tree], cold_of: Callable[[Tree, bool], float], why_not: str) -> Row:
    """The slope of log cold time over log files, or over log bytes of markdown (one file count)."""
    label = f"slope: log cold time / log {over}"
    by_files = over == "files"
    sizes = [t.files if by_files else t.markdown_bytes for t in trees]
    if len(set(sizes)) < 2:
        return Row(label, "n/a", f"<= {LINEAR_SLOPE}", None, why_not)
    value = slope(sizes, [cold_of(t, False) for t in trees])
    shown = " / ".join(f"{n:,}" if by_files else f"{n / 2**20:.1f}" for n in sizes)
    unit = "files" if by_files else f"MiB of markdown in {trees[0].files:,} files"
    times = " / ".join(f"{cold_of(t, False):.2f}" for t in trees)
    cpu = slope(sizes, [cold_of(t, True) for t in trees])
    detail = f"{shown} {unit}: cold {times} s wall; slope of CPU time {cpu:.2f}"
    return Row(label, f"{value:.2f}", f"<= {LINEAR_SLOPE}", value <= LINEAR_SLOPE, detail)


def table(title: str, body: Sequence[Row], notes: Sequence[str] = ()) -> str:
    """The figures, each with its target and whether it is met, the times behind them beneath."""
    width = max(len(r.figure) for r in body)
    lines = [title, f"{'figure':<{width}}  {'measured':>11}  {'target':>9}  met"]
    for r in body:
        met = "n/a" if r.met is None else ("yes" if r.met else "NO")
        lines.append(f"{r.figure:<{width}}  {r.measured:>11}  {r.target:>9}  {met}")
        if r.detail:
            lines.append(f"    {r.detail}")
    return "\n".join([*lines, *notes])


def peers_on_path(extra: Sequence[str]) -> dict[str, str]:
    """The known linters (and those given as NAME=COMMAND) whose command is on PATH, as command
    templates with {root} left to fill."""
    templates = dict(KNOWN_LINTERS)
    templates.update(dict(o.split("=", 1) for o in extra))
    return {name: t for name, t in templates.items() if shutil.which(shlex.split(t)[0])}


@dataclass(frozen=True)
class Subject:
    title: str
    tree: Tree
    file_trees: list[Tree]  # the trees of the files slope, the measured one among them
    prose_trees: list[Tree]  # the trees of the prose slope, one file count
    why_no_slopes: str = ""


def build(args: argparse.Namespace, tmp: Path, env: dict[str, str]) -> Subject:
    """The tree to measure and those its slopes need, written under `tmp`."""
    slopes = not args.no_slopes
    if args.root is not None and args.copies:
        sizes = sorted({1, max(1, round(args.copies / 3)), args.copies}) if slopes else [args.copies]
        built = {n: describe(copy_tree(args.root, n, tmp / f"copies-{n}"), env) for n in sizes}
        why = "real prose is what it is" if slopes else "--no-slopes"
        return Subject(
            f"{args.copies} copies of {args.root} in one git repository",
            built[args.copies],
            list(built.values()),
            [],
            why,
        )
    if args.root is not None:
        why = "one tree as it is (--copies N gives the files slope)" if slopes else "--no-slopes"
        return Subject(str(args.root), describe(args.root, env), [], [], why)

    def generated(name: str, plugins: int, scale: float = 1.0) -> Tree:
        root = tmp / name
        generate(root, plugins, seed=7, mention_rate=args.mention_rate, prose=args.prose, prose_scale=scale)
        return describe(commit_all(root), env)

    title = f"generated tree, {args.plugins} plugins, {args.prose} prose"
    tree = generated("tree", args.plugins)
    if not slopes:
        return Subject(title, tree, [], [], "--no-slopes")
    quarter, half = max(1, args.plugins // 4), max(1, args.plugins // 2)
    small = {n: generated(f"files-{n}", n) for n in sorted({quarter, half} - {args.plugins})}
    prose = [small.get(quarter) or tree] + [generated(f"prose-{k}x", quarter, k) for k in (2.0, 4.0)]
    return Subject(title, tree, [*small.values(), tree], prose)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plugins", type=int, default=227, help="44 files each (227: about 10,000)")
    parser.add_argument("--prose", choices=PROSE_KINDS, default="plain", help="the generated filler")
    parser.add_argument("--mention-rate", type=float, default=0.25)
    parser.add_argument("--root", type=Path, help="benchmark this folder instead of a generated tree")
    parser.add_argument(
        "--copies", type=int, default=0, help="with --root: copy it N times into a temporary git repository"
    )
    parser.add_argument("--runs", type=int, default=5, help="rounds; every figure is a median over them")
    parser.add_argument("--no-slopes", action="store_true", help="skip the trees the slopes need")
    parser.add_argument(
        "--other", action="append", default=[], help="NAME=COMMAND with {root}; also $SPAWNLINT_BENCH_OTHER"
    )
    args = parser.parse_args()
    if args.copies and args.root is None:
        parser.error("--copies needs --root, the folder to copy")
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    extra = args.other + [o for o in os.environ.get("SPAWNLINT_BENCH_OTHER", "").split(";") if o]
    with tempfile.TemporaryDirectory(prefix="spawnlint-bench-") as tmp:
        env = {**os.environ, "SPAWNLINT_CACHE_DIR": str(Path(tmp) / "cache")}
        if subprocess.run(spawnlint("--version"), capture_output=True, env=env).returncode != 0:
            raise SystemExit(f"{sys.executable} cannot run spawnlint: use the interpreter it is installed in")
        subject = build(args, Path(tmp), env)
        tree = subject.tree
        templates = peers_on_path(extra)
        peers = {n: shlex.split(t.format(root=shlex.quote(str(tree.root)))) for n, t in templates.items()}
        measured = measure(tree, args.runs, peers, [*subject.file_trees, *subject.prose_trees], env)
    title = (
        f"{subject.title}: spawnlint reads {tree.files:,} of {tree.all_files:,} files "
        f"({tree.markdown_bytes / 2**20:.1f} MiB of markdown); medians of {args.runs} rounds"
    )
    notes = [
        f"note: {name} exited {sorted(measured.codes(name))} (spawnlint runs with --exit-zero)"
        for name in ("cold", "warm", "single", "guard")
        if name in measured.samples and measured.codes(name) != {0}
    ]
    body = rows(tree, measured, list(peers), subject.file_trees, subject.prose_trees, subject.why_no_slopes)
    print(table(title, body, notes))


if __name__ == "__main__":
    main()
