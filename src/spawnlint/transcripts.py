"""`spawnlint transcripts`: find teammates that never called SendMessage and recover their last text."""

from __future__ import annotations

import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, TextIO

from spawnlint.atomic import write_atomically
from spawnlint.report.concise import printable
from spawnlint.report.safe import escape_controls

# A transcript line longer than this is skipped unread (and counted): memory stays bounded even
# for one enormous line. Real records are far smaller; a final answer of 16 MiB is not one.
LINE_CAP = 16 * 1024 * 1024
_SKIP_CHUNK = 1024 * 1024
_META_CAP = 1024 * 1024
_META = re.compile(r"agent-(.+)\.meta\.json")
_TEXT_LINES = 40
_TEXT_CHARS = 4000

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class AgentTranscript:
    """One spawned agent as its meta file and transcript record it."""

    kind: str  # "teammate" (taskKind in_process_teammate or spawnDepth 0) or "subagent"
    name: str | None
    agent_type: str | None
    session: str
    project: str
    agent_id: str
    team_name: str | None
    description: str | None
    meta: str  # posix paths relative to the scanned folder
    transcript: str | None  # None: the .jsonl file is missing or unreadable
    called_sendmessage: bool
    sendmessage_calls: int
    tool_calls: int
    last_text: str | None
    records: int
    malformed_lines: int
    oversized_lines: int

    @property
    def mute(self) -> bool:
        """A teammate's final text is not returned: without SendMessage the parent got nothing."""
        return self.kind == "teammate" and not self.called_sendmessage


@dataclass(frozen=True)
class Scan:
    agents: tuple[AgentTranscript, ...]
    problems: tuple[str, ...]  # meta files that could not be used, with the reason


@dataclass
class _Reading:
    records: int = 0
    malformed: int = 0
    oversized: int = 0
    tool_calls: int = 0
    sendmessage_calls: int = 0
    last_text: str | None = None


def find_meta_files(root: Path) -> list[Path]:
    """Every `subagents/agent-*.meta.json` below root, at any depth; symlinks are not followed."""
    found: list[Path] = []
    for directory, folders, files in os.walk(root, followlinks=False):
        folders.sort()
        if os.path.basename(directory) == "subagents":
            found.extend(Path(directory) / f for f in sorted(files) if _META.fullmatch(f))
    return found


def scan(root: Path, progress: Progress | None = None, line_cap: int = LINE_CAP) -> Scan:
    metas = find_meta_files(root)
    agents, problems = [], []
    for done, meta_path in enumerate(metas, 1):
        result = _agent(root, meta_path, line_cap)
        if isinstance(result, str):
            problems.append(result)
        else:
            agents.append(result)
        if progress is not None:
            progress(done, len(metas))
    agents.sort(key=lambda a: (a.kind != "teammate", a.project, a.session, a.name or "", a.agent_id))
    return Scan(tuple(agents), tuple(problems))


def _agent(root: Path, meta_path: Path, line_cap: int) -> AgentTranscript | str:
    rel = meta_path.relative_to(root).as_posix()
    meta = _read_meta(meta_path)
    if isinstance(meta, str):
        return f"{rel}: {meta}; skipped"
    match = _META.fullmatch(meta_path.name)
    agent_id = match.group(1) if match else meta_path.name
    transcript = meta_path.with_name(f"agent-{agent_id}.jsonl")
    found = _read_transcript(transcript, line_cap)
    reading = found or _Reading()
    session_dir = meta_path.parent.parent
    project = session_dir.parent.relative_to(root).as_posix() if session_dir != root else ""
    teammate = meta.get("taskKind") == "in_process_teammate" or meta.get("spawnDepth") == 0
    return AgentTranscript(
        kind="teammate" if teammate else "subagent",
        name=_string(meta.get("name")),
        agent_type=_string(meta.get("agentType")),
        session=session_dir.name if session_dir != root else "",
        project="" if project == "." else project,
        agent_id=agent_id,
        team_name=_string(meta.get("teamName")),
        description=_string(meta.get("description")),
        meta=rel,
        transcript=transcript.relative_to(root).as_posix() if found else None,
        called_sendmessage=reading.sendmessage_calls > 0,
        sendmessage_calls=reading.sendmessage_calls,
        tool_calls=reading.tool_calls,
        last_text=reading.last_text,
        records=reading.records,
        malformed_lines=reading.malformed,
        oversized_lines=reading.oversized,
    )


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)  # a FIFO would block the read
    except OSError:
        return False


def _read_meta(path: Path) -> dict[str, Any] | str:
    if not _regular(path):
        return "not a regular file"
    try:
        with open(path, "rb") as handle:
            data = handle.read(_META_CAP + 1)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or type(exc).__name__})"
    if len(data) > _META_CAP:
        return f"over {_META_CAP} bytes"
    try:
        meta = json.loads(data)
    except (ValueError, RecursionError):
        return "not valid JSON"
    return meta if isinstance(meta, dict) else "not a JSON object"


def _read_transcript(path: Path, line_cap: int) -> _Reading | None:
    if not _regular(path):
        return None
    reading = _Reading()
    try:
        with open(path, "rb") as handle:
            for line in bounded_lines(handle, line_cap):
                _take(reading, line)
    except OSError:
        return reading if reading.records else None
    return reading


def bounded_lines(handle: IO[bytes], cap: int) -> Iterator[bytes | None]:
    """Each line of a binary stream, holding at most `cap` bytes of it in memory; None for a line
    longer than cap, which is read past in small chunks and never materialised."""
    while True:
        line = handle.readline(cap + 1)
        if not line:
            return
        if len(line) > cap and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = handle.readline(_SKIP_CHUNK)
            yield None
            continue
        yield line


def _take(reading: _Reading, line: bytes | None) -> None:
    if line is None:
        reading.oversized += 1
        return
    if not line.strip():
        return
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        reading.malformed += 1
        return
    if not isinstance(record, dict):
        reading.malformed += 1
        return
    reading.records += 1
    if record.get("type") != "assistant":
        return
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use":
            reading.tool_calls += 1
            if block.get("name") == "SendMessage":
                reading.sendmessage_calls += 1
        elif block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            reading.last_text = block["text"]


# Rendering


def as_dict(agent: AgentTranscript) -> dict[str, Any]:
    return {**asdict(agent), "mute": agent.mute}


def render_json(result: Scan) -> str:
    return json.dumps([as_dict(a) for a in result.agents], indent=2, ensure_ascii=False) + "\n"


def render_text(result: Scan, where: str, recovered: dict[str, str] | None = None) -> str:
    agents = result.agents
    teammates = [a for a in agents if a.kind == "teammate"]
    mute = [a for a in teammates if a.mute]
    reporting = [a for a in teammates if not a.mute]
    subagents = [a for a in agents if a.kind == "subagent"]
    sessions = len({(a.project, a.session) for a in agents})
    found = f"{_count(len(agents), 'agent transcript')} in {_count(sessions, 'session')}"
    out = [
        f"{found} under {printable(where)}: "
        f"{_count(len(teammates), 'teammate')}, {_count(len(subagents), 'subagent')}.",
        "",
    ]
    out.append(f"Teammates that never called SendMessage (the parent never got their answer): {len(mute)}")
    for agent in mute:
        out += _mute_entry(agent, (recovered or {}).get(agent.meta))
    out += ["", f"Teammates that reported with SendMessage: {len(reporting)}"]
    for agent in reporting:
        out.append(f"  {_who(agent)}: {_count(agent.sendmessage_calls, 'SendMessage call')}")
    out += [
        "",
        f"Subagents: {len(subagents)} (a subagent's final text is its return value: nothing was lost)",
    ]
    out += _skipped(result)
    return "\n".join(out) + "\n"


def _mute_entry(agent: AgentTranscript, recovered_to: str | None) -> list[str]:
    out = ["", f"  {_who(agent)}"]
    if agent.transcript is None:
        return out + ["    no transcript beside its meta file: nothing to recover"]
    out.append(f"    transcript: {printable(agent.transcript)} ({_count(agent.tool_calls, 'tool call')})")
    if agent.last_text is None:
        return out + ["    no assistant text in the transcript: nothing to recover"]
    out.append(f"    last text ({_count(len(agent.last_text), 'character')}):")
    lines = agent.last_text.splitlines()
    shown, chars = [], 0
    for text_line in lines[:_TEXT_LINES]:
        if chars > _TEXT_CHARS:
            break
        shown.append(("      | " + escape_controls(text_line)).rstrip())
        chars += len(text_line)
    out += shown
    if len(shown) < len(lines):
        out.append(
            f"      | … {len(lines) - len(shown)} more lines (--output-format json or --recover has it all)"
        )
    if recovered_to:
        out.append(f"    recovered to {printable(recovered_to)}")
    return out


def _who(agent: AgentTranscript) -> str:
    name = printable(agent.name) if agent.name else f"agent {printable(agent.agent_id)}"
    kind = f" ({printable(agent.agent_type)})" if agent.agent_type else ""
    where = f"{agent.project}/{agent.session}" if agent.project else agent.session
    return f"{name}{kind}, session {printable(where)}, agent id {printable(agent.agent_id)}"


def _skipped(result: Scan) -> list[str]:
    malformed = sum(a.malformed_lines for a in result.agents)
    oversized = sum(a.oversized_lines for a in result.agents)
    out = []
    if malformed or oversized:
        cap = f"the {LINE_CAP // 2**20} MiB line cap"
        out += [
            "",
            f"Skipped {_count(malformed, 'malformed line')} and {_count(oversized, 'line')} over {cap}.",
        ]
    for problem in result.problems:
        out.append(f"Skipped {printable(problem)}")
    return out


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"


class TerminalProgress:
    """`scanning 12/300 transcripts` on a terminal, once a scan has taken a moment; cleared after."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started > 0.5 and now - self.shown > 0.1:
            self.stream.write(f"\rscanning {done}/{total} transcripts")
            self.stream.flush()
            self.shown = now

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")


# Recovery


def recover(result: Scan, outdir: Path) -> dict[str, str]:
    """Write each mute teammate's last text to OUTDIR/<session>--<name>.md, atomically; returns
    meta path -> the file written."""
    outdir.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}
    taken: set[str] = set()
    for agent in result.agents:
        if not agent.mute or agent.last_text is None:
            continue
        filename = _file_name(agent, taken)
        taken.add(filename)
        text = agent.last_text if agent.last_text.endswith("\n") else agent.last_text + "\n"
        write_atomically(outdir / filename, text.encode("utf-8"))
        written[agent.meta] = str(outdir / filename)
    return written


def safe_name(text: str) -> str:
    """A file-name part: no separators, no `..`, no leading dot, no control characters."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_")
    return cleaned[:80] or "unnamed"


def _file_name(agent: AgentTranscript, taken: set[str]) -> str:
    stem = f"{safe_name(agent.session)}--{safe_name(agent.name or agent.agent_id)}"
    if f"{stem}.md" in taken:
        stem += f"--{safe_name(agent.agent_id)}"
    return f"{stem}.md"
