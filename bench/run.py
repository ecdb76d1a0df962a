"""The benchmark: generate a synthetic marketplace, then time, as whole processes, the floors
(interpreter + imports; + reading every file; + YAML frontmatter), `spawnlint check` cold
(--no-cache), warm, and warm with one changed file passed as pre-commit does, the guard's
per-call latency (when the `guard` verb exists) and other plugin linters (when installed).
Prints the median wall time and peak RSS of each, and each time as a ratio to the floor and to
spawnlint's cold run. Standard library only.

    python bench/run.py                          # about 10,000 files (227 plugins), 5 runs
    python bench/run.py --plugins 40 --runs 3
    python bench/run.py --scale 1,4,16 --plugins 14  # cold and warm at 1x, 4x, 16x, and the slope
    python bench/run.py --other 'claudelint=claudelint check {root}'  # time another linter
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate  # noqa: E402

# Other plugin linters, run on the same tree when found on PATH (or given with --other).
KNOWN_LINTERS = {
    "claudelint": "claudelint {root}",
    "claude-code-lint": "claude-code-lint {root}",
    "frontmatter-guard": "frontmatter-guard check {root}",
    "skilllint": "skilllint {root}",
    "skillsaw": "skillsaw {root}",
}

READ_ALL = """
import os, sys
for d, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [x for x in dirs if x != ".git"]
    for f in files:
        with open(os.path.join(d, f), "rb") as h:
            h.read()
"""

FRONTMATTER = READ_ALL.replace(
    "            h.read()",
    """            data = h.read()
            if f.endswith(".md") and data.startswith(b"---"):
                end = data.find(b"\\n---", 3)
                if end > 0:
                    yaml.load(data[3:end], Loader=yaml.CSafeLoader)""",
).replace("import os, sys", "import os, sys, yaml, markdown_it")


@dataclass(frozen=True)
class Timing:
    label: str
    seconds: float
    peak_kib: int
    note: str = ""


def run_once(cmd: list[str], stdin: bytes = b"", env: dict[str, str] | None = None) -> tuple[float, int, int]:
    """Wall seconds, exit code and peak RSS (KiB) of one child process and what it waited for."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, proc.returncode, usage.ru_maxrss


def median_of(
    label: str, runs: int, cmd: list[str], before: Callable[[int], None] | None = None, **kw: object
) -> Timing:
    times, peaks, codes = [], [], set()
    for i in range(runs):
        if before:
            before(i)
        elapsed, code, peak = run_once(cmd, **kw)  # type: ignore[arg-type]
        times.append(elapsed)
        peaks.append(peak)
        codes.add(code)
    note = "" if codes == {0} else f"exit codes {sorted(codes)}"
    return Timing(label, statistics.median(times), max(peaks), note)


def spawnlint(*args: str) -> list[str]:
    return [sys.executable, "-m", "spawnlint", *args]


def has_guard(env: dict[str, str]) -> bool:
    probe = subprocess.run(spawnlint("guard", "--help"), capture_output=True, env=env, check=False)
    return probe.returncode == 0


def _a_command(root: Path) -> Path:
    """The file the single-file run edits: a command of the tree (any markdown file if none)."""
    for pattern in ("plugins/*/commands/*.md", "**/commands/*.md", "**/*.md"):
        found = sorted(p for p in root.glob(pattern) if ".git" not in p.parts)
        if found:
            return found[0]
    raise SystemExit(f"{root}: no markdown file to edit for the single-file run")


def measure(root: Path, runs: int, others: dict[str, str], cache: Path) -> list[Timing]:
    env = {**os.environ, "SPAWNLINT_CACHE_DIR": str(cache)}
    py = sys.executable
    out = [
        median_of(
            "floor: interpreter + import yaml, markdown_it", runs, [py, "-c", "import yaml, markdown_it"]
        ),
        median_of(
            "floor: + reading every file",
            runs,
            [py, "-c", "import yaml, markdown_it\n" + READ_ALL, str(root)],
        ),
        median_of("floor: + YAML frontmatter (C loader)", runs, [py, "-c", FRONTMATTER, str(root)]),
    ]
    check = ["check", "--root", str(root), "--output-format", "json", "--exit-zero"]
    out.append(median_of("spawnlint check cold (--no-cache)", runs, spawnlint(*check, "--no-cache"), env=env))
    run_once(spawnlint(*check), env=env)  # fill the cache
    out.append(median_of("spawnlint check warm", runs, spawnlint(*check), env=env))
    changed = _a_command(root)
    original = changed.read_text("utf-8")

    def touch(i: int) -> None:
        changed.write_text(original + f"\nEdit {i} at {time.time()}.\n", "utf-8")

    single = check + [str(changed)]
    out.append(
        median_of("spawnlint check warm, one changed file", runs, spawnlint(*single), before=touch, env=env)
    )
    changed.write_text(original, "utf-8")
    out.extend(guard_latency(root, runs, env))
    for name, template in others.items():
        cmd = shlex.split(template.format(root=shlex.quote(str(root))))
        if shutil.which(cmd[0]) is None:
            out.append(Timing(name, math.nan, 0, "not installed"))
            continue
        out.append(median_of(name, runs, cmd))
    return out


def guard_latency(root: Path, runs: int, env: dict[str, str]) -> list[Timing]:
    if not has_guard(env):
        return [Timing("spawnlint guard (one call)", math.nan, 0, "no `guard` verb in this build")]
    agents = sorted(p for p in root.glob("**/agents/*.md") if ".git" not in p.parts)
    if not agents:
        return [Timing("spawnlint guard (one call)", math.nan, 0, "no agent in this tree")]
    agent = agents[0]
    payload = {
        "session_id": "bench",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Agent",
        "tool_input": {"subagent_type": f"{agent.parts[-3]}:{agent.stem}", "name": "x", "prompt": "p"},
    }
    data = json.dumps(payload).encode()
    run_once(spawnlint("guard"), stdin=data, env=env)  # warm
    return [median_of("spawnlint guard (one call, warm)", runs, spawnlint("guard"), stdin=data, env=env)]


def report(files: int, size: int, runs: int, timings: list[Timing]) -> None:
    floor = next(t.seconds for t in timings if t.label == "floor: + reading every file")
    cold = next(t.seconds for t in timings if t.label.startswith("spawnlint check cold"))
    print(f"files: {files}  bytes: {size / 2**20:.1f} MiB  runs: {runs} (medians)")
    print(f"{'':48} {'seconds':>8} {'peak MiB':>9} {'/ floor':>8} {'/ cold':>8}")
    for t in timings:
        if math.isnan(t.seconds):
            print(f"{t.label:48} {t.note}")
            continue
        mib = f"{t.peak_kib / 1024:9.1f}"
        print(
            f"{t.label:48} {t.seconds:8.3f} {mib} {t.seconds / floor:8.2f} {t.seconds / cold:8.2f} {t.note}"
        )
    others = [
        t for t in timings if not t.label.startswith(("floor", "spawnlint")) and not math.isnan(t.seconds)
    ]
    for t in others:
        print(f"cold check / {t.label}: {cold / t.seconds:.2f}")


def tree_size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def scaling(base_plugins: int, factors: list[int], runs: int, mention_rate: float) -> None:
    """Cold and warm check at each size; the slope of log(time) over log(files): 1.0 is linear."""
    rows: list[tuple[int, int, Timing, Timing]] = []
    for k in factors:
        with tempfile.TemporaryDirectory() as tmp:
            root, cache = Path(tmp) / "tree", Path(tmp) / "cache"
            files = generate(root, base_plugins * k, seed=7, mention_rate=mention_rate)
            env = {**os.environ, "SPAWNLINT_CACHE_DIR": str(cache)}
            check = spawnlint("check", "--root", str(root), "--output-format", "json", "--exit-zero")
            cold = median_of("cold", runs, [*check, "--no-cache"], env=env)
            run_once(check, env=env)
            warm = median_of("warm", runs, check, env=env)
            rows.append((k, files, cold, warm))
            print(
                f"{k:>3}x  files {files:>6}  cold {cold.seconds:7.3f} s  warm {warm.seconds:7.3f} s  "
                f"peak {max(cold.peak_kib, warm.peak_kib) / 1024:.1f} MiB",
                flush=True,
            )
    xs = [math.log(r[1]) for r in rows]
    for name, ys in (
        ("cold", [math.log(r[2].seconds) for r in rows]),
        ("warm", [math.log(r[3].seconds) for r in rows]),
    ):
        print(f"slope ({name}, log time / log files): {_slope(xs, ys):.2f}")


def _slope(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plugins", type=int, default=227, help="44 files each (227: about 10,000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mention-rate", type=float, default=0.25)
    parser.add_argument("--root", type=Path, help="benchmark this tree instead of a generated one")
    parser.add_argument("--scale", help="comma-separated size factors, e.g. 1,4,16")
    parser.add_argument(
        "--other", action="append", default=[], help="NAME=COMMAND with {root}; also $SPAWNLINT_BENCH_OTHER"
    )
    args = parser.parse_args()
    if args.scale:
        scaling(args.plugins, [int(k) for k in args.scale.split(",")], args.runs, args.mention_rate)
        return
    others = dict(KNOWN_LINTERS)
    extra = args.other + [o for o in os.environ.get("SPAWNLINT_BENCH_OTHER", "").split(";") if o]
    others.update(dict(o.split("=", 1) for o in extra))
    with tempfile.TemporaryDirectory() as tmp:
        root = args.root or Path(tmp) / "tree"
        files = 0 if args.root else generate(root, args.plugins, seed=7, mention_rate=args.mention_rate)
        files = files or sum(1 for p in root.rglob("*") if p.suffix in (".md", ".py"))
        report(files, tree_size(root), args.runs, measure(root, args.runs, others, Path(tmp) / "cache"))


if __name__ == "__main__":
    main()
