"""The guard's per-call latency: `echo PAYLOAD | spawnlint guard` as a whole process, as Claude
Code runs it before each Agent call, in a generated plugin (a git work tree) with an empty HOME.
Prints, per payload, the first call (the project read in full) and the median and minimum wall
and CPU time of the calls after it (answered from the guard's memo while nothing changed).
Standard library only.

    python bench/guard.py                   # one plugin: 20 commands, 20 agents (44 files)
    python bench/guard.py --plugins 40      # a marketplace of 40 such plugins (800 agents)
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate  # noqa: E402

MUTE_AGENT = "---\nname: guarded\ndescription: A mute reviewer.\ntools: Read, Grep\n---\nReview.\n"


def command() -> list[str]:
    script = shutil.which("spawnlint", path=str(Path(sys.executable).parent))
    return [script, "guard"] if script else [sys.executable, "-m", "spawnlint", "guard"]


def payloads(root: Path) -> dict[str, dict[str, object]]:
    def call(**tool_input: str) -> dict[str, object]:
        return {
            "session_id": "bench",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": "Agent",
            "tool_input": {"description": "Review", "prompt": "Review the plan.", **tool_input},
        }

    told = "Review the plan, then send the result to team-lead with SendMessage."
    return {
        "named, mute agent (denied)": call(subagent_type="p0:guarded", name="g1"),
        "named, told to report (allowed)": call(subagent_type="p0:critic-0", name="c1", prompt=told),
        "unnamed (allowed)": call(subagent_type="p0:guarded"),
    }


def time_runs(
    payload: dict[str, object], home: Path, runs: int
) -> tuple[float, list[float], list[float], str]:
    """Wall milliseconds of the first run; wall and CPU (user + system) milliseconds of each run
    after it, and the last run's stdout. CPU time is what the hook costs; wall time also counts
    waiting for a busy machine."""
    data = json.dumps(payload).encode()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    wall, cpu, out, first = [], [], "", 0.0
    for run in range(runs + 1):  # the first run reads the project and keeps the memo
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command(), input=data, capture_output=True, env=env, check=True)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if not run:
            first = elapsed * 1000
        else:
            wall.append(elapsed * 1000)
            cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
        out = proc.stdout.decode()
    return first, wall, cpu, out


def settle() -> None:
    """Wait as long as a checkout rests between edits: the guard keeps no memo while a file it read
    was written within the last two seconds (a change within the file system clock's granularity
    could go unseen)."""
    time.sleep(2.5)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plugins", type=int, default=1)
    parser.add_argument("--commands", type=int, default=20)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, home = Path(tmp) / "project", Path(tmp) / "home"
        home.mkdir()
        files = generate(root, args.plugins, args.commands, args.agents, seed=7)
        (root / "plugins" / "p0" / "agents" / "guarded.md").write_text(MUTE_AGENT)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        settle()
        print(f"{' '.join(Path(c).name for c in command())}: {files + 1} files, {args.runs} runs each")
        for label, payload in payloads(root).items():
            first, wall, cpu, out = time_runs(payload, home, args.runs)
            if ("denied" in label) != ('"deny"' in out):
                raise SystemExit(f"{label}: unexpected output {out!r}")
            print(
                f"  {label:<32} first {first:4.0f} ms, then wall median {statistics.median(wall):4.0f} ms"
                f" (min {min(wall):3.0f})"
                f"   CPU median {statistics.median(cpu):4.0f} ms (min {min(cpu):3.0f})"
            )


if __name__ == "__main__":
    main()
