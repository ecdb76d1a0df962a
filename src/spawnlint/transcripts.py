"""`spawnlint transcripts`: read Claude Code transcript folders and tell, per spawned teammate or
subagent, whether its report reached the lead, what that report was, how often the lead asked,
which named spawns left no transcript, and which completions reached the lead more than once."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, TextIO

from spawnlint.atomic import write_atomically
from spawnlint.report.concise import printable
from spawnlint.report.progress import wanted
from spawnlint.report.safe import escape_controls

SCHEMA_VERSION = 2  # of the JSON output; version 1 was a bare list of agents
# A transcript line longer than this is skipped unread (and counted): memory stays bounded even
# for one enormous line. Real records are far smaller; a final answer of 16 MiB is not one.
LINE_CAP = 16 * 1024 * 1024
_SKIP_CHUNK = 1024 * 1024
_META_CAP = 1024 * 1024
_META = re.compile(r"agent-(.+)\.meta\.json")
_TEXT_LINES = 40
_TEXT_CHARS = 4000
_SCAN_CHARS = 64 * 1024  # of a message, searched for a notification's or hand-back's header
_STUB_CHARS = 400
SPAWN_TOOLS = ("Agent", "Task")
HANDBACK_TOOL = "SubagentHandback"
HANDBACK_MARK = "[Subagent hand-back]"
_FOLLOWS = "The report follows:"
_NOTIFICATION = re.compile(r"<(task|agent)-notification>(.*?)(?:</\1-notification>|\Z)", re.S)
_AGENT_MESSAGE = re.compile(r'<agent-message from="([^"]+)">')

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TextRef:
    """Where a report is: one transcript line (read again when the report is shown, so that a scan
    of a multi-gigabyte folder never holds the texts), the content block in it, and what to take."""

    path: str
    offset: int
    block: int  # index in message.content; -1: the content is one string
    take: str  # "text", "message" (tool_use input.message), "result" (tool_result content)
    frame: bool = False  # the text is a `[Subagent hand-back]` frame: take the report inside it


@dataclass(frozen=True)
class Reply:
    """A tool_result the lead received for one of its Agent calls."""

    ref: TextRef
    handback: bool  # marked `[Subagent hand-back]`: the subagent's delivered report
    empty: bool


@dataclass(frozen=True)
class Spawn:
    """An Agent/Task call in a transcript."""

    tool_use_id: str
    name: str | None
    subagent_type: str | None
    description: str | None


@dataclass
class Completion:
    """One child completion as the lead's transcript holds it, and how often it arrived."""

    kind: str  # "task-notification" or "hand-back"
    task_id: str
    status: str | None = None
    summary: str | None = None
    tool_use_id: str | None = None
    ingested: int = 0  # user records and queued-command attachments: what the lead read
    enqueued: int = 0  # queue-operation enqueue records (counted when nothing was ingested)

    @property
    def count(self) -> int:
        return self.ingested or self.enqueued


@dataclass
class FileFacts:
    """What one streaming pass over one transcript file found; texts only as references."""

    path: str
    top_level: bool = False  # a session's own transcript: a lead's, or a teammate's own process
    records: int = 0
    malformed: int = 0
    oversized: int = 0
    tool_calls: int = 0
    send_calls: int = 0
    send_to: Counter[str] = field(default_factory=Counter)
    last_send: TextRef | None = None
    handback_calls: int = 0
    handback: TextRef | None = None
    last_text: TextRef | None = None
    last_text_stub: bool = False
    agent_name: str | None = None  # `agentName` on the records: a teammate in its own process
    team_name: str | None = None
    spawns: list[Spawn] = field(default_factory=list)
    replies: dict[str, Reply] = field(default_factory=dict)
    handback_messages: dict[str, TextRef] = field(default_factory=dict)  # agent id -> frame
    completions: dict[tuple[str, str, str | None], Completion] = field(default_factory=dict)


@dataclass(frozen=True)
class AgentTranscript:
    """One spawned teammate or subagent, as its files and the lead's transcript record it."""

    kind: str  # "teammate" or "subagent"
    layout: str  # "in-process" (subagents/agent-<id>.*) or "process" (<project>/<uuid>.jsonl)
    name: str | None
    agent_type: str | None
    session: str
    project: str
    agent_id: str
    tool_use_id: str | None  # the lead's Agent call that spawned it (a subagent's meta says)
    team_name: str | None
    description: str | None
    meta: str | None  # posix paths relative to the scanned folder
    transcript: str | None  # None: the .jsonl file is missing or unreadable
    delivered: str  # "SendMessage", "SubagentHandback", "final text" or "lost"
    report: TextRef | None  # the hand-back's message, else the last assistant text
    report_source: str | None  # "SendMessage", "SubagentHandback", "hand-back result", "last text"
    messages_from_lead: int  # SendMessage calls of the lead addressed to this name
    replies: int  # this agent's own SendMessage calls
    handback_calls: int
    last_text_stub: bool  # its last text only says the report went by SubagentHandback
    lead_transcript: str | None
    tool_calls: int
    records: int
    malformed_lines: int
    oversized_lines: int

    @property
    def lost(self) -> bool:
        return self.delivered == "lost"

    @property
    def mute(self) -> bool:
        """A teammate whose answer never reached the lead: it never called SendMessage."""
        return self.kind == "teammate" and self.lost


@dataclass(frozen=True)
class MissingSpawn:
    """A named Agent call in a lead's transcript that left no transcript under the folder."""

    name: str
    agent_type: str | None
    description: str | None
    session: str
    project: str
    tool_use_id: str
    messages_from_lead: int
    lead_transcript: str


@dataclass(frozen=True)
class Duplicate:
    """A child completion that reached the lead's transcript more than once."""

    kind: str
    task_id: str
    status: str | None
    summary: str | None
    tool_use_id: str | None
    count: int
    session: str
    project: str
    lead_transcript: str


@dataclass(frozen=True)
class Scan:
    agents: tuple[AgentTranscript, ...]
    missing: tuple[MissingSpawn, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    problems: tuple[str, ...] = ()  # files that could not be used, with the reason
    sessions: int = 0
    skipped_links: int = 0


@dataclass(frozen=True)
class Filters:
    since: float | None = None  # seconds since the epoch: sessions with a file modified since
    session: str | None = None  # a session id, or the start of one


def parse_since(text: str, now: float | None = None) -> float:
    """`2h`, `30m`, `3d`, `1w` ago, or an ISO date or date-time (local time unless it says)."""
    now = time.time() if now is None else now
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text)
    if match:
        unit = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[match.group(2)]
        return now - float(match.group(1)) * unit
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is neither a duration (2h, 3d) nor an ISO date") from None
    return when.timestamp()


# Finding the files


@dataclass
class _Session:
    project: str
    session: str
    lead: Path | None = None
    agents: list[tuple[str, Path]] = field(default_factory=list)  # (agent id, meta file)
    mtime: float = 0.0


def _plain_file(path: Path) -> os.stat_result | str:
    """The file's status, or why it is not read: a symlink is never followed (it may lead out of
    the scanned folder), and a FIFO would block the read."""
    try:
        status = os.lstat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or type(exc).__name__})"
    if stat.S_ISLNK(status.st_mode):
        return "a symbolic link; not followed"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file"
    return status


def _sessions(root: Path, problems: list[str]) -> tuple[list[_Session], int]:
    """Every session under root: its top-level `<session>.jsonl` and its `subagents/` meta files;
    folder links are never followed, file links are skipped and counted."""
    found: dict[tuple[str, str], _Session] = {}
    links = 0

    def session(project: str, name: str) -> _Session:
        return found.setdefault((project, name), _Session(project, name))

    def rel(path: Path) -> str:
        return path.relative_to(root).as_posix()

    for directory, folders, files in os.walk(root, followlinks=False):
        folders.sort()
        here = Path(directory)
        if here.name == "subagents" and here != root:
            session_dir = here.parent
            project = "" if session_dir == root else _project(root, session_dir.parent)
            name = "" if session_dir == root else session_dir.name
            for file in sorted(f for f in files if _META.fullmatch(f)):
                status = _plain_file(here / file)
                if isinstance(status, str):
                    links += status.startswith("a symbolic link")
                    problems.append(f"{rel(here / file)}: {status}; skipped")
                    continue
                agent_id = file[len("agent-") : -len(".meta.json")]
                beside = here / f"agent-{agent_id}.jsonl"
                if os.path.islink(beside):  # the meta file is used; its transcript is not read
                    links += 1
                    problems.append(f"{rel(beside)}: a symbolic link; not followed; skipped")
                entry = session(project, name)
                entry.agents.append((agent_id, here / file))
                entry.mtime = max(entry.mtime, status.st_mtime)
            continue
        # `agent-<id>.jsonl` beside the session files is a subagent of builds before `subagents/`
        for file in sorted(f for f in files if f.endswith(".jsonl") and not f.startswith("agent-")):
            status = _plain_file(here / file)
            if isinstance(status, str):
                links += status.startswith("a symbolic link")
                problems.append(f"{rel(here / file)}: {status}; skipped")
                continue
            entry = session(_project(root, here), file[: -len(".jsonl")])
            entry.lead = here / file
            entry.mtime = max(entry.mtime, status.st_mtime)
    return [found[key] for key in sorted(found)], links


def _project(root: Path, folder: Path) -> str:
    project = folder.relative_to(root).as_posix()
    return "" if project == "." else project


def _wanted(entry: _Session, filters: Filters) -> bool:
    if filters.session is not None and not entry.session.startswith(filters.session):
        return False
    if filters.since is not None:
        mtimes = [entry.mtime]
        for agent_id, meta in entry.agents:  # the transcript beside each meta file counts too
            with contextlib.suppress(OSError):
                mtimes.append(os.lstat(meta.with_name(f"agent-{agent_id}.jsonl")).st_mtime)
        return max(mtimes) >= filters.since
    return True


# The scan


def scan(
    root: Path, progress: Progress | None = None, line_cap: int = LINE_CAP, filters: Filters = Filters()
) -> Scan:
    problems: list[str] = []
    every, links = _sessions(root, problems)
    sessions = [s for s in every if _wanted(s, filters)]
    total = sum(len(s.agents) + (s.lead is not None) for s in sessions)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    leads: dict[tuple[str, str], FileFacts] = {}
    processes: list[tuple[_Session, FileFacts]] = []
    for entry in sessions:
        if entry.lead is not None:
            facts = _read_lines(entry.lead, line_cap, top_level=True) or FileFacts(str(entry.lead))
            tick()
            if is_process_teammate(facts):
                processes.append((entry, facts))
            else:
                leads[entry.project, entry.session] = facts
    agents: list[AgentTranscript] = []
    for entry in sessions:
        lead = leads.get((entry.project, entry.session))
        for agent_id, meta_path in entry.agents:
            found = _in_process(root, entry, agent_id, meta_path, lead, line_cap)
            tick()
            if isinstance(found, str):
                problems.append(found)
            else:
                agents.append(found)
    for entry, facts in processes:
        agents.append(_process_teammate(root, entry, facts, leads))
    agents.sort(key=lambda a: (a.kind != "teammate", a.project, a.session, a.name or "", a.agent_id))
    return Scan(
        tuple(agents),
        tuple(_missing(root, leads, agents)),
        tuple(_duplicates(root, leads)),
        tuple(problems),
        len({(a.project, a.session) for a in agents if a.layout == "in-process"} | set(leads)),
        links,
    )


def _rel(root: Path, path: str | Path) -> str:
    return Path(path).relative_to(root).as_posix()


def _in_process(
    root: Path, entry: _Session, agent_id: str, meta_path: Path, lead: FileFacts | None, line_cap: int
) -> AgentTranscript | str:
    rel = _rel(root, meta_path)
    meta = _read_meta(meta_path)
    if isinstance(meta, str):
        return f"{rel}: {meta}; skipped"
    transcript = meta_path.with_name(f"agent-{agent_id}.jsonl")
    status = _plain_file(transcript)
    facts = _read_lines(transcript, line_cap) if not isinstance(status, str) else None
    teammate = meta.get("taskKind") == "in_process_teammate" or meta.get("spawnDepth") == 0
    name = _string(meta.get("name"))
    reply = lead.replies.get(_string(meta.get("toolUseId")) or "") if lead else None
    framed = lead.handback_messages.get(agent_id) if lead else None
    kind = "teammate" if teammate else "subagent"
    delivered, report, source = _delivery(kind, facts, reply, framed)
    return AgentTranscript(
        kind=kind,
        layout="in-process",
        name=name,
        agent_type=_string(meta.get("agentType")),
        session=entry.session,
        project=entry.project,
        agent_id=agent_id,
        tool_use_id=_string(meta.get("toolUseId")),
        team_name=_string(meta.get("teamName")),
        description=_string(meta.get("description")),
        meta=rel,
        transcript=_rel(root, transcript) if facts else None,
        delivered=delivered,
        report=report,
        report_source=source,
        messages_from_lead=lead.send_to[name] if lead and name else 0,
        **_counts(facts),
        lead_transcript=_rel(root, lead.path) if lead else None,
    )


def _process_teammate(
    root: Path, entry: _Session, facts: FileFacts, leads: dict[tuple[str, str], FileFacts]
) -> AgentTranscript:
    """A teammate run as its own process: the lead is the session of its project that spawned a
    teammate of that name."""
    name = facts.agent_name or ""
    lead = next(
        (
            f
            for (project, _), f in sorted(leads.items(), key=lambda item: item[0])
            if project == entry.project and any(s.name == name for s in f.spawns)
        ),
        None,
    )
    spawn = next((s for s in lead.spawns if s.name == name), None) if lead else None
    delivered, report, source = _delivery("teammate", facts, None, None)
    return AgentTranscript(
        kind="teammate",
        layout="process",
        name=name,
        agent_type=spawn.subagent_type if spawn else None,
        session=entry.session,
        project=entry.project,
        agent_id=entry.session,
        tool_use_id=spawn.tool_use_id if spawn else None,
        team_name=facts.team_name,
        description=spawn.description if spawn else None,
        meta=None,
        transcript=_rel(root, facts.path),
        delivered=delivered,
        report=report,
        report_source=source,
        messages_from_lead=lead.send_to[name] if lead else 0,
        **_counts(facts),
        lead_transcript=_rel(root, lead.path) if lead else None,
    )


def _counts(facts: FileFacts | None) -> dict[str, Any]:
    facts = facts or FileFacts("")
    return {
        "replies": facts.send_calls,
        "handback_calls": facts.handback_calls,
        "last_text_stub": facts.last_text_stub,
        "tool_calls": facts.tool_calls,
        "records": facts.records,
        "malformed_lines": facts.malformed,
        "oversized_lines": facts.oversized,
    }


def _delivery(
    kind: str, facts: FileFacts | None, reply: Reply | None, framed: TextRef | None
) -> tuple[str, TextRef | None, str | None]:
    """How the report reached the lead (or "lost"), the report, and where it was taken from.

    A teammate delivers only with SendMessage. A subagent delivers with SubagentHandback (its own
    tool_use block, or the `[Subagent hand-back]` frame the lead received), else by its final
    text — unless the lead's transcript shows that final text never arrived. A last text that
    only says the report went by SubagentHandback is never the report."""
    last = facts.last_text if facts and not facts.last_text_stub else None
    if kind == "teammate":
        if facts and facts.send_calls:
            return "SendMessage", facts.last_send, "SendMessage"
        return "lost", last, "last text" if last else None
    if facts and facts.handback is not None:
        return "SubagentHandback", facts.handback, "SubagentHandback"
    if reply is not None and reply.handback:
        return "SubagentHandback", reply.ref, "hand-back result"
    if framed is not None:
        return "SubagentHandback", framed, "hand-back result"
    if reply is not None and reply.empty:
        return "lost", last, "last text" if last else None
    if last is not None:
        return "final text", last, "last text"
    return "lost", None, None


def _missing(
    root: Path, leads: dict[tuple[str, str], FileFacts], agents: list[AgentTranscript]
) -> Iterator[MissingSpawn]:
    in_session = {(a.project, a.session, a.name) for a in agents if a.layout == "in-process"}
    in_project = {(a.project, a.name) for a in agents if a.layout == "process"}
    spawned = {(a.project, a.session, a.tool_use_id) for a in agents if a.tool_use_id}
    for (project, session), lead in sorted(leads.items(), key=lambda item: item[0]):
        seen: set[str] = set()
        for spawn in lead.spawns:
            name = spawn.name
            if name is None or name in seen:
                continue
            seen.add(name)
            if (project, session, name) in in_session or (project, name) in in_project:
                continue
            if (project, session, spawn.tool_use_id) in spawned:
                continue  # named, yet run as a subagent (headless runs ignore `name`)
            yield MissingSpawn(
                name,
                spawn.subagent_type,
                spawn.description,
                session,
                project,
                spawn.tool_use_id,
                lead.send_to[name],
                _rel(root, lead.path),
            )


def _duplicates(root: Path, leads: dict[tuple[str, str], FileFacts]) -> Iterator[Duplicate]:
    for (project, session), lead in sorted(leads.items(), key=lambda item: item[0]):
        for c in lead.completions.values():
            if c.count > 1:
                yield Duplicate(
                    c.kind,
                    c.task_id,
                    c.status,
                    c.summary,
                    c.tool_use_id,
                    c.count,
                    session,
                    project,
                    _rel(root, lead.path),
                )


LEAD_NAMES = ("team-lead", "lead")


def is_process_teammate(facts: FileFacts) -> bool:
    """A session transcript whose records carry `agentName` belongs to a teammate in its own
    process, unless it is the lead's: the lead's records may carry its team name and agent name
    too, and only the lead makes named spawns (a teammate cannot)."""
    if facts.agent_name is None or facts.agent_name in LEAD_NAMES:
        return False
    return not any(spawn.name for spawn in facts.spawns)


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _read_meta(path: Path) -> dict[str, Any] | str:
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


# Reading one transcript, one line at a time


def _read_lines(path: Path, line_cap: int, top_level: bool = False) -> FileFacts | None:
    """The facts of one transcript; None when it cannot be opened. The file is opened without
    following a symlink that replaced it after it was listed."""
    if isinstance(_plain_file(path), str):
        return None
    facts = FileFacts(str(path), top_level)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            for offset, line in bounded_lines(handle, line_cap):
                _take(facts, offset, line)
    except OSError:
        return facts if facts.records else None
    return facts


def bounded_lines(handle: IO[bytes], cap: int) -> Iterator[tuple[int, bytes | None]]:
    """Each line of a binary stream with its offset, holding at most `cap` bytes of it in memory;
    None for a line longer than cap, which is read past in small chunks and never materialised."""
    offset = 0
    while True:
        line = handle.readline(cap + 1)
        if not line:
            return
        start = offset
        offset += len(line)
        if len(line) > cap and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = handle.readline(_SKIP_CHUNK)
                offset += len(line)
            yield start, None
            continue
        yield start, line


def _take(facts: FileFacts, offset: int, line: bytes | None) -> None:
    if line is None:
        facts.oversized += 1
        return
    if not line.strip():
        return
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        facts.malformed += 1
        return
    if not isinstance(record, dict):
        facts.malformed += 1
        return
    facts.records += 1
    if record.get("isCompactSummary") is True:
        return  # a summary of the conversation so far quotes what was already counted
    if facts.top_level and record.get("isSidechain") is True:
        return  # a subagent's record that older builds wrote into the session's own transcript
    if facts.agent_name is None and isinstance(record.get("agentName"), str) and record["agentName"]:
        facts.agent_name = record["agentName"]
        facts.team_name = _string(record.get("teamName"))
    kind = record.get("type")
    if kind == "assistant":
        _assistant(facts, offset, record)
    elif kind in ("user", "tool_result"):  # some builds type a tool-result record by its block
        _user(facts, offset, record)
    elif kind == "queue-operation" and record.get("operation") == "enqueue":
        _notifications(facts, _string(record.get("content")), enqueued=True)
    elif kind == "attachment":
        attachment = record.get("attachment")
        if isinstance(attachment, dict) and attachment.get("type") == "queued_command":
            _notifications(facts, _string(attachment.get("prompt")), enqueued=False)


def _content(record: dict[str, Any]) -> list[Any]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content, "whole": True}]
    return content if isinstance(content, list) else []


def _assistant(facts: FileFacts, offset: int, record: dict[str, Any]) -> None:
    for index, block in enumerate(_content(record)):
        if not isinstance(block, dict):
            continue
        at = -1 if block.get("whole") else index
        if block.get("type") == "tool_use":
            facts.tool_calls += 1
            given = block.get("input")
            tool_input: dict[str, Any] = given if isinstance(given, dict) else {}
            name = block.get("name")
            if name == "SendMessage":
                facts.send_calls += 1
                facts.last_send = TextRef(facts.path, offset, at, "message")
                to = tool_input.get("to", tool_input.get("recipient"))  # early builds: recipient
                if isinstance(to, str):
                    facts.send_to[to] += 1
            elif name == HANDBACK_TOOL:
                facts.handback_calls += 1
                facts.handback = TextRef(facts.path, offset, at, "message")
            elif name in SPAWN_TOOLS and isinstance(block.get("id"), str):
                spawn_name = tool_input.get("name")
                facts.spawns.append(
                    Spawn(
                        block["id"],
                        spawn_name.strip() if isinstance(spawn_name, str) and spawn_name.strip() else None,
                        _string(tool_input.get("subagent_type")),
                        _string(tool_input.get("description")),
                    )
                )
        elif block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            facts.last_text = TextRef(facts.path, offset, at, "text")
            facts.last_text_stub = is_stub(block["text"])


def is_stub(text: str) -> bool:
    """A closing line such as "Report delivered via SubagentHandback": it points at the report,
    it is not the report."""
    short = len(text) <= _STUB_CHARS
    return short and bool(re.search(r"subagent\s*hand-?back|hand-?back\b", text, re.I))


def _user(facts: FileFacts, offset: int, record: dict[str, Any]) -> None:
    spawned = {s.tool_use_id for s in facts.spawns}
    for index, block in enumerate(_content(record)):
        if not isinstance(block, dict):
            continue
        at = -1 if block.get("whole") else index
        use_id = block.get("tool_use_id")
        if block.get("type") == "tool_result" and isinstance(use_id, str) and use_id in spawned:
            text = result_text(block.get("content"), _SCAN_CHARS)
            facts.replies[use_id] = Reply(
                TextRef(facts.path, offset, at, "result", HANDBACK_MARK in text),
                HANDBACK_MARK in text,
                not text.strip(),
            )
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            text = block["text"][:_SCAN_CHARS]
            _notifications(facts, text, enqueued=False)
            sender = _AGENT_MESSAGE.search(text)
            if sender and HANDBACK_MARK in text:
                agent_id = sender.group(1)
                facts.handback_messages[agent_id] = TextRef(facts.path, offset, at, "text", True)
                done = facts.completions.setdefault(
                    ("hand-back", agent_id, None), Completion("hand-back", agent_id)
                )
                done.ingested += 1


def result_text(content: object, limit: int | None = None) -> str:
    """A tool_result's content as text: a string, or the text blocks of a list."""
    if isinstance(content, str):
        return content[:limit] if limit else content
    parts = []
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            parts.append(block["text"])
    text = "\n".join(parts)
    return text[:limit] if limit else text


def _notifications(facts: FileFacts, text: str | None, enqueued: bool) -> None:
    """Count each `<task-notification>` (older builds: `<agent-notification>`) in a message by
    its task id and status: the same completion ingested twice is the duplicate."""
    if not text or "-notification>" not in text:
        return
    for match in _NOTIFICATION.finditer(text[:_SCAN_CHARS]):
        body = match.group(2)
        task_id = _tag(body, "task-id") or _tag(body, "agent-id")
        if task_id is None:
            continue
        status = _tag(body, "status")
        entry = facts.completions.setdefault(
            ("task-notification", task_id, status),
            Completion(
                "task-notification", task_id, status, _tag(body, "summary"), _tag(body, "tool-use-id")
            ),
        )
        if enqueued:
            entry.enqueued += 1
        else:
            entry.ingested += 1


def _tag(body: str, tag: str) -> str | None:
    match = re.search(rf"<{tag}>(.*?)</{tag}>", body, re.S)
    return match.group(1).strip() if match else None


# Reading a report back


def load(ref: TextRef, line_cap: int = LINE_CAP) -> str | None:
    """The text a reference points at, read again from its line; None if it is gone."""
    try:
        fd = os.open(ref.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            handle.seek(ref.offset)
            line = handle.readline(line_cap + 1)
        record = json.loads(line)
    except (OSError, ValueError, RecursionError):
        return None
    content = _content(record) if isinstance(record, dict) else []
    index = 0 if ref.block == -1 else ref.block
    block = content[index] if 0 <= index < len(content) else None
    if not isinstance(block, dict):
        return None
    if ref.take == "message":
        raw = block.get("input")
        given: dict[str, Any] = raw if isinstance(raw, dict) else {}
        value = given.get("message", given.get("content"))  # early SendMessage builds: content
        text = value if isinstance(value, str) or value is None else json.dumps(value, ensure_ascii=False)
    elif ref.take == "result":
        text = result_text(block.get("content"))
    else:
        text = _string(block.get("text"))
    return handback_report(text) if ref.frame and text is not None else text


def handback_report(text: str) -> str:
    """The report inside a `[Subagent hand-back]` frame: the lines after "The report follows:",
    which the harness indents by two spaces, up to the first line it did not indent."""
    start = text.find(HANDBACK_MARK)
    if start < 0:
        return text
    rest = text[start + len(HANDBACK_MARK) :]
    follows = rest.find(_FOLLOWS)
    rest = rest[follows + len(_FOLLOWS) :] if follows >= 0 else rest.split("\n", 1)[-1]
    lines = []
    for line in rest.lstrip(" ").removeprefix("\n").split("\n"):
        if line.startswith("  ") or not line.strip():
            lines.append(line[2:])
        else:
            break
    return "\n".join(lines).strip("\n")


# Rendering


def as_dict(agent: AgentTranscript, report: str | None) -> dict[str, Any]:
    return {
        "kind": agent.kind,
        "layout": agent.layout,
        "name": agent.name,
        "agent_type": agent.agent_type,
        "team_name": agent.team_name,
        "description": agent.description,
        "project": agent.project,
        "session": agent.session,
        "agent_id": agent.agent_id,
        "tool_use_id": agent.tool_use_id,
        "delivered": agent.delivered,
        "lost": agent.lost,
        "mute": agent.mute,
        "report": report,
        "report_source": agent.report_source if report is not None else None,
        "messages_from_lead": agent.messages_from_lead,
        "replies": agent.replies,
        "handback_calls": agent.handback_calls,
        "last_text_stub": agent.last_text_stub,
        "tool_calls": agent.tool_calls,
        "meta": agent.meta,
        "transcript": agent.transcript,
        "lead_transcript": agent.lead_transcript,
        "records": agent.records,
        "malformed_lines": agent.malformed_lines,
        "oversized_lines": agent.oversized_lines,
    }


def write_json(result: Scan, root: str, out: TextIO, recovered: dict[str, str] | None = None) -> None:
    """The JSON report, one agent at a time: each report is read back, written and let go."""
    out.write(
        f'{{\n  "schema_version": {SCHEMA_VERSION},\n  "root": {json.dumps(root, ensure_ascii=False)},\n'
    )
    out.write('  "agents": [')
    for i, agent in enumerate(result.agents):
        item = as_dict(agent, load(agent.report) if agent.report else None)
        item["recovered_to"] = (recovered or {}).get(_key(agent))
        out.write(("," if i else "") + "\n    " + json.dumps(item, ensure_ascii=False))
    out.write("\n  ],\n" if result.agents else "],\n")
    rest = {
        "missing": [m.__dict__ for m in result.missing],
        "duplicate_completions": [d.__dict__ for d in result.duplicates],
        "sessions": result.sessions,
        "malformed_lines": sum(a.malformed_lines for a in result.agents),
        "oversized_lines": sum(a.oversized_lines for a in result.agents),
        "skipped_links": result.skipped_links,
        "problems": list(result.problems),
    }
    body = json.dumps(rest, indent=2, ensure_ascii=False)
    out.write(body[2:-1].rstrip() + "\n}\n")


def write_text(result: Scan, where: str, out: TextIO, recovered: dict[str, str] | None = None) -> None:
    agents = result.agents
    teammates = [a for a in agents if a.kind == "teammate"]
    processes = sum(a.layout == "process" for a in teammates)
    subagents = len(agents) - len(teammates)
    lost = [a for a in agents if a.lost]
    delivered = [a for a in agents if not a.lost]
    own = (
        f" ({processes:,} in its own process)"
        if processes == 1
        else f" ({processes:,} in their own processes)"
    )
    head = (
        f"{_count(len(agents), 'spawned agent')} in {_count(result.sessions, 'session')}"
        f" under {printable(where)}:"
        f" {_count(len(teammates), 'teammate')}{own if processes else ''}, {_count(subagents, 'subagent')}"
    )
    if result.missing:
        head += f"; {_count(len(result.missing), 'named spawn')} left no transcript"
    out.write(head + ".\n\n")
    out.write(f"Lost: the lead never got these answers ({len(lost)})\n")
    for agent in lost:
        out.write("\n".join(_lost_entry(agent, (recovered or {}).get(_key(agent)))) + "\n")
    if result.missing:
        out.write(f"\nNamed spawns that left no transcript ({len(result.missing)})\n")
        for m in result.missing:
            kind = f" ({printable(m.agent_type)})" if m.agent_type else ""
            out.write(
                f"  {printable(m.name)}{kind}: spawned in session {printable(_where(m.project, m.session))},"
                f" {_count(m.messages_from_lead, 'message')} from the lead; no transcript under this folder\n"
            )
    out.write(f"\nDelivered ({len(delivered)})\n")
    for agent in delivered:
        out.write(f"  {_name(agent)}: {_delivered(agent)}\n")
    if result.duplicates:
        out.write(f"\nCompletions that reached the lead more than once ({len(result.duplicates)})\n")
        for d in result.duplicates:
            what = f' ("{printable(d.summary)}")' if d.summary else ""
            status = f", status {printable(d.status)}" if d.status else ""
            out.write(
                f"  session {printable(_where(d.project, d.session))}: {d.kind} of task"
                f" {printable(d.task_id)}{what}{status}, {d.count} times\n"
            )
    out.write("".join(line + "\n" for line in _skipped(result)))


def _key(agent: AgentTranscript) -> str:
    return agent.meta or agent.transcript or agent.agent_id


def _name(agent: AgentTranscript) -> str:
    return printable(agent.name) if agent.name else f"agent {printable(agent.agent_id)}"


def _where(project: str, session: str) -> str:
    return f"{project}/{session}" if project else session


def _lost_entry(agent: AgentTranscript, recovered_to: str | None) -> list[str]:
    kind = f"mute {agent.kind}" if agent.kind == "teammate" else f"{agent.kind} whose report never arrived"
    if agent.layout == "process":
        kind += " in its own process"
    if agent.agent_type:
        kind += f" ({printable(agent.agent_type)})"
    asked = (
        f", {_count(agent.messages_from_lead, 'reminder')} from the lead" if agent.kind == "teammate" else ""
    )
    replies = f", {_count(agent.replies, 'reply', 'replies')}" if agent.kind == "teammate" else ""
    text = load(agent.report) if agent.report else None
    answer = "; its answer:" if text is not None else "; no answer in its transcript"
    out = ["", f"  {_name(agent)}: {kind}{asked}{replies}{answer}"]
    if text is not None:
        lines = text.splitlines()
        shown, chars = [], 0
        for text_line in lines[:_TEXT_LINES]:
            if chars > _TEXT_CHARS:
                break
            shown.append(("      | " + escape_controls(text_line)).rstrip())
            chars += len(text_line)
        out += shown
        if len(shown) < len(lines):
            out.append(
                f"      | … {len(lines) - len(shown)} more lines"
                " (--output-format json or --recover has it all)"
            )
    where = (
        f"    session {printable(_where(agent.project, agent.session))}, agent id {printable(agent.agent_id)}"
    )
    if agent.transcript is None:
        out.append(where + "; no transcript beside its meta file")
    else:
        out.append(
            where + f", transcript {printable(agent.transcript)} ({_count(agent.tool_calls, 'tool call')})"
        )
    if recovered_to:
        out.append(f"    recovered to {printable(recovered_to)}")
    return out


def _delivered(agent: AgentTranscript) -> str:
    kind = agent.kind + (f" ({printable(agent.agent_type)})" if agent.agent_type else "")
    if agent.delivered == "SendMessage":
        return (
            f"{kind}, reported with SendMessage ({_count(agent.replies, 'call')}),"
            f" {_count(agent.messages_from_lead, 'message')} from the lead"
        )
    if agent.delivered == "SubagentHandback":
        via = (
            "its SubagentHandback call"
            if agent.report_source == "SubagentHandback"
            else "the lead's hand-back result"
        )
        return f"{kind}, delivered with SubagentHandback (read from {via})"
    return f"{kind}, its final text was its return value"


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
    elif result.problems:
        out.append("")
    if result.skipped_links:
        out.append(f"Skipped {_count(result.skipped_links, 'symbolic link')} to files (never followed).")
    for problem in result.problems:
        out.append(f"Skipped {printable(problem)}")
    return out


def _count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


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
    """Write each lost answer (a mute teammate's last text, a subagent's undelivered report) to
    OUTDIR/<session>--<name>.md, atomically; returns agent key -> the file written."""
    outdir.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}
    taken: set[str] = set()
    for agent in result.agents:
        text = load(agent.report) if agent.lost and agent.report else None
        if text is None:
            continue
        filename = _file_name(agent, taken)
        taken.add(filename)
        write_atomically(outdir / filename, (text if text.endswith("\n") else text + "\n").encode("utf-8"))
        written[_key(agent)] = str(outdir / filename)
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


# The verb


def run(
    folder: Path | None,
    output_format: str,
    recover_to: Path | None,
    since: str | None,
    session: str | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """`spawnlint transcripts`: exit 0 after a report, 2 on a usage error."""
    folder = folder if folder is not None else Path.home() / ".claude" / "projects"
    if not folder.is_dir():
        err.write(f"spawnlint: {folder}: not a directory\n")
        return 2
    try:
        filters = Filters(parse_since(since) if since is not None else None, session or None)
    except ValueError as exc:
        err.write(f"spawnlint: --since {exc}\n")
        return 2
    progress = TerminalProgress(err) if wanted(err) else None
    result = scan(folder, progress, filters=filters)
    if progress is not None:
        progress.clear()
    try:
        recovered = recover(result, recover_to) if recover_to is not None else None
    except OSError as exc:
        err.write(f"spawnlint: --recover {recover_to}: {exc.strerror or exc}\n")
        return 2
    if output_format == "json":
        write_json(result, str(folder), out, recovered)
        if recovered is not None:
            err.write(f"spawnlint: recovered {len(recovered)} answer(s) into {recover_to}\n")
    else:
        write_text(result, str(folder), out, recovered)
    return 0
