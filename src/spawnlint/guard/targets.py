"""The agents a named Agent/Task call can reach — the project's, the user's and installed
plugins' — read without the markdown pass, and what SL101/SL102 say about the call."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spawnlint.cache import discovered
from spawnlint.config import Settings, candidate_files, load_settings
from spawnlint.discover import Discovery, Plugin, SourceFile, exclusion, find_root, list_files
from spawnlint.guard.call import Call, Judged
from spawnlint.model import FileKind, Finding, Form, Param, ParsedFile, Project, SpawnSite, ValueKind
from spawnlint.parse import decode, parse_agent_definition
from spawnlint.project import DEFAULT_AGENT, build_project
from spawnlint.rules import CODES
from spawnlint.rules.return_channel import named_spawn_mute_agent, named_spawn_no_report, why_mute
from spawnlint.suppress import selected

CALL_PATH = "<PreToolUse call>"  # the one spawn site of the model built for a call
USER_AGENTS = "~/.claude"  # where outside agents appear in the model (never read by path)
INSTALLED_PLUGINS = "~/.claude/plugins"
_MAX_FOLDER_FILES = 2000  # agent files read from one folder outside git's listing
_MAX_JSON = 4 * 1024 * 1024


_RESOLVED = ("resolved", "default", "ambiguous")


def target_of(call: Call) -> tuple[Judged, set[str]]:
    """What the project says about the call, and the paths whose state it was read from (the
    folders of the listing, the agent files, manifests and settings: the memo's watch list).
    Raises ConfigError when the project's configuration cannot be used."""
    root = find_root(call.cwd)
    watched = {str(path) for path in candidate_files(root, call.cwd)}
    settings = load_settings(root, call.cwd, None, CODES)
    project = agents_project(root, settings, call, watched)
    (spawn,) = (s for s in project.spawns if s.site.path == CALL_PATH)
    status, agents = spawn.target.status, spawn.target.agents
    # an agent of another repository listed under `agents` with its tools is judged by them
    judged = status in _RESOLVED or (
        status == "external" and bool(agents) and all(a.tools_known for a in agents)
    )
    first = agents[0] if agents else None
    return Judged(
        str(root),
        status,
        judged,
        first.id if first else "",
        why_mute(first) if first and not first.can_report else "",
        _enabled("SL101", settings) and bool(_findings(named_spawn_mute_agent(project))),
        _enabled("SL102", settings) and bool(_findings(named_spawn_no_report(project))),
        settings.guard_mode,
    ), watched


def _findings(found: Iterator[Finding]) -> list[Finding]:
    return [f for f in found if f.path == CALL_PATH]


def _enabled(code: str, settings: Settings) -> bool:
    """The project's own select/ignore decide whether a rule may stop its spawns too."""
    select = settings.select + settings.extend_select if settings.select else ()
    return selected(code, select, settings.ignore)


def agents_project(root: Path, settings: Settings, call: Call, watched: set[str]) -> Project:
    """The project model with only what a spawn's target needs: the agent definitions (the
    project's own, then `~/.claude/agents` and installed plugins) and the one call. Commands,
    skills and Python are never read."""
    target = call.subagent_type.strip().lower() or DEFAULT_AGENT.lower()
    reader = AgentReader(settings, target.rsplit(":", 1)[-1], watched)
    own, plugins = _project_agents(root, reader)
    files = [source for source, _ in own]
    parsed = {source.path: record for source, record in own}
    taken = {(source.plugin.name, record.agents[0].name.lower()) for source, record in own}
    for source, record in _outside_agents(root, reader):
        if (source.plugin.name, record.agents[0].name.lower()) in taken:
            continue  # Claude Code prefers the project's own definition
        files.append(source)
        parsed[source.path] = record
        if source.plugin not in plugins:
            plugins.append(source.plugin)
    parsed[CALL_PATH] = ParsedFile(CALL_PATH, FileKind.MARKDOWN, sites=(untold_site(call),))
    return build_project(Discovery(root, tuple(files), tuple(plugins), ()), parsed, settings)


Agents = list[tuple[SourceFile, ParsedFile]]
_DOT_CLAUDE = Plugin(".claude", None)  # project agents, addressed by bare name


def _project_agents(root: Path, reader: AgentReader) -> tuple[Agents, list[Plugin]]:
    """The project's agents as `check` finds them, and `.claude/agents` even where .gitignore
    hides it (Claude Code loads it all the same)."""
    if not (root / ".git").exists():
        return _unlisted_project_agents(root, reader)
    listing = list_files(root)
    reader.watch_listing(root, listing.paths)
    discovery = discovered(root, reader.settings.exclude, listing)
    files = [f for f in discovery.files if f.kind is FileKind.AGENT]
    own = [(f, record) for f in files if (record := reader.read(root / f.path, f.path)).agents]
    plugins = list(discovery.plugins)
    listed = {f.path for f in files}
    hidden = _agents_in(root / ".claude" / "agents", _DOT_CLAUDE, reader, root, skip=listed)
    own.extend((f, r) for f, r in hidden if not reader.excluded(f.path))
    if hidden and _DOT_CLAUDE not in plugins:
        plugins.append(_DOT_CLAUDE)
    return own, plugins


def _unlisted_project_agents(root: Path, reader: AgentReader) -> tuple[Agents, list[Plugin]]:
    """Outside a git work tree `check` walks the whole folder, which a hook that runs in, say,
    the home folder cannot afford: only `.claude/agents` and the agents of a plugin manifest at
    the root are read."""
    plugins = [_DOT_CLAUDE]
    reader.watch(root / ".claude-plugin" / "plugin.json", root / ".claude", root / ".claude-plugin", root)
    manifest = _manifest_name(root)
    if manifest is not None:
        plugins.insert(0, Plugin("", manifest))
    own: Agents = []
    for plugin in plugins:
        own.extend(_agents_in(root / plugin.root / "agents", plugin, reader, root))
    return own, plugins


@dataclass(frozen=True)
class AgentReader:
    """Reads agent definitions for one call. Only a file that names the call's target (the part
    after the last `:`) in its text or file name can define it, so the others skip the YAML."""

    settings: Settings
    leaf: str  # lower case
    watched: set[str]  # what was read (or looked for): the memo is good while these stay the same

    def watch(self, *paths: Path) -> None:
        self.watched.update(str(p) for p in paths)

    def watch_listing(self, root: Path, paths: tuple[str, ...]) -> None:
        """Every folder of the listing (a file added anywhere changes its folder), the manifests,
        and what decides what git lists (.gitignore files)."""
        folders = {""}
        for path in paths:
            folder = path.rpartition("/")[0]
            while folder not in folders:
                folders.add(folder)
                folder = folder.rpartition("/")[0]
            if path.endswith(("plugin.json", "marketplace.json", ".gitignore")):
                self.watched.add(str(root / path))
        self.watched.update(str(root / f) if f else str(root) for f in folders)
        self.watch(root / ".git" / "info" / "exclude", root / ".claude", root / ".claude" / "agents")

    def read(self, full: Path, rel: str) -> ParsedFile:
        """The definition; a file that cannot be read or decoded defines no agent here."""
        nothing = ParsedFile(rel, FileKind.AGENT)
        self.watched.add(str(full))
        try:
            status = os.stat(full)
            if not stat.S_ISREG(status.st_mode) or status.st_size > self.settings.max_file_bytes:
                return nothing
            data = full.read_bytes()
        except OSError:
            return nothing
        text, _ = decode(rel, data, self.settings.max_file_bytes)
        if text is None or not (full.stem.lower() == self.leaf or self.leaf in text.lower()):
            return nothing
        return parse_agent_definition(rel, text)

    def excluded(self, path: str) -> bool:
        return exclusion(self.settings.exclude)(path)  # as `check` reads `exclude`


def _config_dir() -> Path:
    """Where Claude Code keeps user agents and installed plugins (`CLAUDE_CONFIG_DIR` moves it)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else Path.home() / ".claude"


def _outside_agents(root: Path, reader: AgentReader) -> Agents:
    """User agents (bare names) and the agents of installed plugins (`plugin:name`)."""
    config = _config_dir()
    registry = config / "plugins" / "installed_plugins.json"
    reader.watch(config, config / "plugins", registry)
    found = _agents_in(config / "agents", Plugin(USER_AGENTS, None), reader)
    for name, install in _installed_plugins(registry, root):
        reader.watch(install, install / ".claude-plugin" / "plugin.json")
        plugin = Plugin(f"{INSTALLED_PLUGINS}/{name}", _manifest_name(install) or name)
        found.extend(_agents_in(install / "agents", plugin, reader))
    return found


def _agents_in(
    folder: Path, plugin: Plugin, reader: AgentReader, root: Path | None = None, skip: Set[str] = frozenset()
) -> Agents:
    """The agents of one `agents/` folder, named as paths under `root` (or under the plugin's
    own label when the folder is outside the project)."""
    reader.watch(folder)
    if not folder.is_dir():
        return []
    found: Agents = []
    for full in sorted(folder.rglob("*.md"))[:_MAX_FOLDER_FILES]:
        reader.watch(full.parent)
        inside = full.relative_to(folder).as_posix()
        rel = full.relative_to(root).as_posix() if root else f"{plugin.root}/agents/{inside}"
        if rel in skip:
            continue
        record = reader.read(full, rel)
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


def untold_site(call: Call) -> SpawnSite:
    """The call as the rules see a spawn site: a named, high-confidence spawn whose prompt does not
    tell it to report. Whether the prompt does is the one part of a verdict that changes from call
    to call to the same target (SL102 fires only when it does not), so the guard reads it apart."""
    return SpawnSite(
        path=CALL_PATH,
        line=1,
        column=1,
        form=Form.F1,
        tool=call.tool,
        subagent_type=Param("subagent_type", call.subagent_type, ValueKind.LITERAL, 1, 1)
        if call.subagent_type
        else None,
        name=Param("name", call.name, ValueKind.LITERAL, 1, 1),
        team_name=None,
        prompt=call.prompt,
        confidence="high",
        told_to_report=False,
    )
