"""spawnlint guard: a Claude Code PreToolUse hook that denies a named Agent/Task call whose answer
would never come back (SL101/SL102 applied to that one call), and fails open on anything else."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import IO, Any

from spawnlint.config import ConfigError, Settings, load_settings
from spawnlint.discover import Discovery, Plugin, SourceFile, discover, find_root
from spawnlint.model import Agent, FileKind, Finding, Param, ParsedFile, Project, SpawnSite, ValueKind
from spawnlint.parse import decode, parse_agent_definition
from spawnlint.parse.send_message import mentions_send_message_tool
from spawnlint.project import build_project
from spawnlint.rules.return_channel import named_spawn_mute_agent, named_spawn_no_report

SPAWN_TOOLS = ("Agent", "Task")
CALL_PATH = "<PreToolUse call>"  # the one spawn site of the model the guard builds
USER_AGENTS = "~/.claude"  # where outside agents appear in the model (never read by path)
INSTALLED_PLUGINS = "~/.claude/plugins"
_MAX_FOLDER_FILES = 2000  # agent files read from one folder outside git's listing
_MAX_JSON = 4 * 1024 * 1024
_MAX_PAYLOAD = 16 * 1024 * 1024
_RESOLVED = ("resolved", "default", "ambiguous")
_REPORT_LINE = (
    '"When you finish, send your complete result to team-lead with the SendMessage tool;'
    ' your final message is not delivered to me."'
)


@dataclass(frozen=True)
class Call:
    """The parts of a named Agent/Task call the rules need."""

    tool: str
    name: str
    subagent_type: str
    prompt: str
    cwd: Path


@dataclass(frozen=True)
class Verdict:
    deny: str | None = None  # the reason shown to the model; None allows the call
    note: str | None = None  # one line for stderr when the call is allowed for want of facts


def run_hook(stdin: IO[bytes], stdout: IO[str], stderr: IO[str]) -> int:
    """The hook: read the payload, decide, print a deny decision or nothing. Always exit 0, so
    that no input and no bug of ours can block the model's work."""
    try:
        verdict = decide(stdin.read(_MAX_PAYLOAD + 1))
    except Exception as exc:  # noqa: BLE001 - fail open: an error of ours must never block a spawn
        verdict = Verdict(note=f"internal error {type(exc).__name__}: {exc}; call allowed")
    if verdict.deny is not None:
        stdout.write(json.dumps(deny_output(verdict.deny)) + "\n")
    elif verdict.note is not None:
        stderr.write(f"spawnlint guard: {verdict.note}\n")
    return 0


def deny_output(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def decide(raw: bytes) -> Verdict:
    call = read_call(raw)
    if isinstance(call, Verdict):
        return call
    return judge(call)


def read_call(raw: bytes) -> Call | Verdict:
    """The named spawn in the payload, or the verdict that lets the call through."""
    if len(raw) > _MAX_PAYLOAD:
        return Verdict(note="hook input is too large to read; call allowed")
    try:
        payload = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return Verdict(note="hook input is not JSON; call allowed")
    if not isinstance(payload, dict):
        return Verdict(note="hook input is not a JSON object; call allowed")
    tool = payload.get("tool_name")
    if tool not in SPAWN_TOOLS:
        return Verdict()
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return Verdict(note=f"{tool} call without a tool_input object; call allowed")
    name = tool_input.get("name")
    if not isinstance(name, str) or not name.strip():
        return Verdict()  # an unnamed spawn is a subagent: its answer returns
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd or not os.path.isdir(cwd):
        return Verdict(note=f"hook input has no usable cwd ({cwd!r}); call allowed")
    subagent_type = tool_input.get("subagent_type")
    prompt = tool_input.get("prompt")
    if subagent_type is not None and not isinstance(subagent_type, str):
        return Verdict(note="subagent_type is not a string; call allowed")
    return Call(
        str(tool),
        name.strip(),
        subagent_type or "",
        prompt if isinstance(prompt, str) else "",
        Path(cwd),
    )


def judge(call: Call) -> Verdict:
    root = find_root(call.cwd)
    try:
        settings = load_settings(root)
    except ConfigError as exc:
        return Verdict(note=f"{exc}; call allowed")
    project = agents_project(root, settings, call)
    (spawn,) = (s for s in project.spawns if s.site.path == CALL_PATH)
    if spawn.target.status not in _RESOLVED:
        return Verdict(
            note=f'subagent_type "{call.subagent_type}" is {_unknown(call)} (in {root}); call allowed'
        )
    if _enabled("SL101", settings) and _findings(named_spawn_mute_agent(project)):
        return Verdict(deny=mute_reason(call, spawn.target.agents))
    if _enabled("SL102", settings) and _findings(named_spawn_no_report(project)):
        return Verdict(deny=untold_reason(call, spawn.target.agents[0]))
    return Verdict()


def _unknown(call: Call) -> str:
    """A call's values are what the model sent, never variables: a target that reads like a
    template (`{area}-reviewer`, `<agent>`) was left unfilled, and matches no agent."""
    if re.search(r"[{}<>\[\]$]", call.subagent_type):
        return "an unfilled placeholder, no agent"
    return "not an agent of the project, the user or an installed plugin"


def _findings(found: Iterator[Finding]) -> list[Finding]:
    return [f for f in found if f.path == CALL_PATH]


def _enabled(code: str, settings: Settings) -> bool:
    """The project's own select/ignore decide whether a rule may stop its spawns too."""
    if settings.select and not any(code.startswith(s) for s in settings.select):
        return False
    return not any(code.startswith(i) for i in settings.ignore)


def agents_project(root: Path, settings: Settings, call: Call) -> Project:
    """The project model with only what a spawn's target needs: the agent definitions (the
    project's own, then `~/.claude/agents` and installed plugins) and the one call. Commands,
    skills and Python are never read."""
    own, plugins = _project_agents(root, settings)
    files = [source for source, _ in own]
    parsed = {source.path: record for source, record in own}
    taken = {(source.plugin.name, record.agents[0].name.lower()) for source, record in own}
    for source, record in _outside_agents(root, settings):
        if (source.plugin.name, record.agents[0].name.lower()) in taken:
            continue  # Claude Code prefers the project's own definition
        files.append(source)
        parsed[source.path] = record
        if source.plugin not in plugins:
            plugins.append(source.plugin)
    parsed[CALL_PATH] = ParsedFile(CALL_PATH, FileKind.MARKDOWN, sites=(call_site(call),))
    return build_project(Discovery(root, tuple(files), tuple(plugins), ()), parsed, settings)


Agents = list[tuple[SourceFile, ParsedFile]]
_DOT_CLAUDE = Plugin(".claude", None)  # project agents, addressed by bare name


def _project_agents(root: Path, settings: Settings) -> tuple[Agents, list[Plugin]]:
    """The project's agents as `check` finds them, and `.claude/agents` even where .gitignore
    hides it (Claude Code loads it all the same)."""
    if not (root / ".git").exists():
        return _unlisted_project_agents(root, settings)
    discovery = discover(root, settings.exclude)
    files = [f for f in discovery.files if f.kind is FileKind.AGENT]
    own = [(f, record) for f in files if (record := _read_agent(root / f.path, f.path, settings)).agents]
    plugins = list(discovery.plugins)
    listed = {f.path for f in files}
    hidden = _agents_in(root / ".claude" / "agents", _DOT_CLAUDE, settings, root, skip=listed)
    own.extend((f, r) for f, r in hidden if not _excluded(f.path, settings))
    if hidden and _DOT_CLAUDE not in plugins:
        plugins.append(_DOT_CLAUDE)
    return own, plugins


def _unlisted_project_agents(root: Path, settings: Settings) -> tuple[Agents, list[Plugin]]:
    """Outside a git work tree `check` walks the whole folder, which a hook that runs in, say,
    the home folder cannot afford: only `.claude/agents` and the agents of a plugin manifest at
    the root are read."""
    plugins = [_DOT_CLAUDE]
    manifest = _manifest_name(root)
    if manifest is not None:
        plugins.insert(0, Plugin("", manifest))
    own: Agents = []
    for plugin in plugins:
        own.extend(_agents_in(root / plugin.root / "agents", plugin, settings, root))
    return own, plugins


def _excluded(path: str, settings: Settings) -> bool:
    return any(fnmatch(path, p) or path.startswith(p.rstrip("/") + "/") for p in settings.exclude)


def _config_dir() -> Path:
    """Where Claude Code keeps user agents and installed plugins (`CLAUDE_CONFIG_DIR` moves it)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else Path.home() / ".claude"


def _outside_agents(root: Path, settings: Settings) -> Agents:
    """User agents (bare names) and the agents of installed plugins (`plugin:name`)."""
    config = _config_dir()
    found = _agents_in(config / "agents", Plugin(USER_AGENTS, None), settings)
    for name, install in _installed_plugins(config / "plugins" / "installed_plugins.json", root):
        plugin = Plugin(f"{INSTALLED_PLUGINS}/{name}", _manifest_name(install) or name)
        found.extend(_agents_in(install / "agents", plugin, settings))
    return found


def _agents_in(
    folder: Path, plugin: Plugin, settings: Settings, root: Path | None = None, skip: Set[str] = frozenset()
) -> Agents:
    """The agents of one `agents/` folder, named as paths under `root` (or under the plugin's
    own label when the folder is outside the project)."""
    if not folder.is_dir():
        return []
    found: Agents = []
    for full in sorted(folder.rglob("*.md"))[:_MAX_FOLDER_FILES]:
        inside = full.relative_to(folder).as_posix()
        rel = full.relative_to(root).as_posix() if root else f"{plugin.root}/agents/{inside}"
        if rel in skip:
            continue
        record = _read_agent(full, rel, settings)
        if record.agents:
            found.append((SourceFile(rel, FileKind.AGENT, plugin, None), record))
    return found


def _installed_plugins(registry: Path, root: Path) -> Iterator[tuple[str, Path]]:
    """(plugin name, install folder) of `installed_plugins.json`: version 1 maps each
    `name@marketplace` to one entry, version 2 to a list of entries (user, project or local
    scope; a project-scoped one counts only in its own project)."""
    data = _read_json(registry)
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return
    for key, entries in sorted(plugins.items()):
        for entry in entries if isinstance(entries, list) else [entries]:
            install = entry.get("installPath") if isinstance(entry, dict) else None
            if not isinstance(install, str) or not install or not _in_scope(entry, root):
                continue
            yield str(key).split("@", 1)[0], Path(install)
            break


def _in_scope(entry: Mapping[str, Any], root: Path) -> bool:
    project = entry.get("projectPath")
    if entry.get("scope", "user") == "user" or not isinstance(project, str):
        return True
    try:
        return Path(project).resolve() == root
    except OSError:
        return False


def _manifest_name(install: Path) -> str | None:
    data = _read_json(install / ".claude-plugin" / "plugin.json")
    name = data.get("name") if isinstance(data, dict) else None
    return name.strip() if isinstance(name, str) and name.strip() else None


def _read_json(path: Path) -> Any:
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_JSON + 1)
        return json.loads(data.decode("utf-8-sig")) if len(data) <= _MAX_JSON else None
    except (OSError, ValueError, RecursionError):
        return None


def _read_agent(full: Path, rel: str, settings: Settings) -> ParsedFile:
    """An agent definition; a file that cannot be read or decoded defines no agent here."""
    try:
        status = os.stat(full)
        if not stat.S_ISREG(status.st_mode) or status.st_size > settings.max_file_bytes:
            return ParsedFile(rel, FileKind.AGENT)
        data = full.read_bytes()
    except OSError:
        return ParsedFile(rel, FileKind.AGENT)
    text, _ = decode(rel, data, settings.max_file_bytes)
    return parse_agent_definition(rel, text) if text is not None else ParsedFile(rel, FileKind.AGENT)


def call_site(call: Call) -> SpawnSite:
    """The call as the rules see a spawn site: a named, high-confidence spawn whose prompt is
    the call's prompt."""
    return SpawnSite(
        path=CALL_PATH,
        line=1,
        column=1,
        form="F1",
        tool=call.tool,
        subagent_type=Param("subagent_type", call.subagent_type, ValueKind.LITERAL, 1, 1)
        if call.subagent_type
        else None,
        name=Param("name", call.name, ValueKind.LITERAL, 1, 1),
        team_name=None,
        prompt=call.prompt,
        confidence="high",
        told_to_report=mentions_send_message_tool(call.prompt),
    )


def _why_mute(agent: Agent) -> str:
    if agent.disallowed is not None and agent.disallowed.includes("SendMessage"):
        return "its disallowedTools remove SendMessage"
    if agent.tools is not None and not agent.tools.raw:
        return "it has no tools at all"
    listed = ", ".join(agent.tools.raw) if agent.tools else ""
    return f"its tools are limited to {listed}, without SendMessage"


def _respawn_unnamed(call: Call) -> str:
    return (
        f"1. Call {call.tool} again with the same subagent_type, description and prompt but WITHOUT"
        " the `name` parameter. It then runs as an ordinary subagent and its final answer comes back"
        " to you as the tool result. This is almost always what you want."
    )


def mute_reason(call: Call, agents: tuple[Agent, ...]) -> str:
    agent = agents[0]
    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and this agent"
        f" cannot call SendMessage ({_why_mute(agent)}). It would do the work, its answer would be"
        " lost, and you would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: spawn an agent that has the SendMessage tool"
        " (for example subagent_type general-purpose) and end its prompt with: "
        f"{_REPORT_LINE}"
    )


def untold_reason(call: Call, agent: Agent) -> str:
    return (
        f'spawnlint guard stopped this {call.tool} call: `name: "{call.name}"` spawns agent'
        f' "{agent.id}" as an in_process_teammate, not as a subagent. A teammate\'s final answer is'
        " never returned to you; only what it sends with the SendMessage tool arrives, and neither"
        " your prompt nor the agent's definition tells it to use SendMessage. Named spawns that were"
        " not told to report returned nothing in measured runs: its answer would be lost and you"
        " would receive only an idle notification. Respawn it in one of two ways:\n"
        f"{_respawn_unnamed(call)}\n"
        "2. Only if you really need a named teammate: keep `name` and add to the prompt: "
        f"{_REPORT_LINE}"
    )
