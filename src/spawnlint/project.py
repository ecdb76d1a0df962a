"""build_project(): the cross-file model — agents by id, units, spawn sites and their targets,
the derived spawning set and the rule-carrying set — computed once for every rule."""

from __future__ import annotations

import functools
import posixpath
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fnmatch import fnmatch

from spawnlint.config import ConfiguredAgent, Settings, rule_pattern_matcher
from spawnlint.discover import Discovery, Plugin, SourceFile
from spawnlint.focus import Wanted, problem_wanted, spawn_wanted, unit_wanted
from spawnlint.model import (
    Agent,
    FileKind,
    Form,
    ParsedFile,
    Project,
    Resolution,
    Sentence,
    Spawn,
    SpawnSite,
    ToolList,
    Unit,
    ValueKind,
    section_of,
)
from spawnlint.parse.forms.rule_sentence import canonical_rule, is_own_words_rule, is_rule_sentence


def _tools(*names: str) -> ToolList:
    return ToolList(frozenset(names), names, 0)


# Built-in agent types of Claude Code; `None` tools means every tool (so SendMessage too).
BUILTIN_AGENTS: tuple[tuple[str, ToolList | None], ...] = (
    ("general-purpose", None),
    ("Explore", None),
    ("Plan", None),
    ("fork", None),
    ("claude", None),
    ("statusline-setup", _tools("Read", "Edit")),
    ("claude-code-guide", _tools("Glob", "Grep", "Read", "WebFetch", "WebSearch")),
    ("web-fetch", _tools("WebFetch")),
    ("output-style-setup", _tools("Read", "Write", "Edit", "Glob", "Grep")),
    ("Bash", _tools("Bash")),  # the command-execution agent type of recent Claude Code versions
)
DEFAULT_AGENT = "general-purpose"


def build_project(
    discovery: Discovery, parsed: Mapping[str, ParsedFile], settings: Settings, focus: Wanted | None = None
) -> Project:
    """The cross-file model. With `focus`, its units, spawns, agents and problems are only those
    that can yield a finding touching a wanted path (see focus.py); the index is whole."""
    sources = {f.path: f for f in discovery.files}
    named = _agents(discovery, parsed)
    agents = [agent for agent, _ in named]
    index = _index(named)
    loaders = {f.path: _loader_root(f) for f in discovery.files}
    duplicates = _duplicates(agents, loaders)
    builtins = tuple(_builtin(name, tools) for name, tools in BUILTIN_AGENTS)
    for agent in builtins:
        index.setdefault(agent.id.lower(), (agent,))
    unit_ids = _unit_ids(discovery, parsed, settings)
    invocable = functools.cache(lambda: _invocable_names(discovery))  # for a prose target only
    plugin_names = frozenset(p.name.lower() for p in discovery.plugins if p.name)
    spawns = tuple(
        Spawn(site, unit_ids.get(site.path), _resolve(site, index, settings.agents, sources))
        for path in sorted(parsed)
        for site in (*parsed[path].sites, *_confirmed(parsed[path], index, _plugin_of(sources, path)))
        if not _names_a_skill_or_command(site, index, invocable, plugin_names, sources)
    )
    links = followed_links(sources, parsed)
    spawns += tuple(
        Spawn(site, unit_ids[site.path], _resolve(site, index, settings.agents, sources))
        for site in _followed_sites(links, unit_ids, spawns)
    )
    if focus is not None:
        wanted_spawns = tuple(s for s in spawns if spawn_wanted(s, focus))
        spawning = frozenset(s.unit for s in wanted_spawns if s.unit is not None)
        units = _units(discovery, parsed, settings, unit_ids, spawns, (focus, spawning))
        spawns = wanted_spawns
    else:
        units = _units(discovery, parsed, settings, unit_ids, spawns)
    units = tuple(_with_team_facts(u, parsed, settings) for u in units)
    uncovered = {u.id: _uncovered(u, parsed, settings) if u.spawns else () for u in units}
    problems = list(discovery.problems)
    for path in sorted(parsed):
        if parsed[path].problems:
            problems.extend(parsed[path].problems)
    if focus is not None:
        agents = [a for a in agents if a.path is not None and focus(a.path)]
        duplicates = tuple(
            pair for pair in duplicates if any(a.path is not None and focus(a.path) for a in pair)
        )
        problems = [p for p in problems if problem_wanted(p, focus)]
    return Project(
        root=str(discovery.root),
        plugins=tuple((p.root, p.name) for p in discovery.plugins),
        files=parsed,
        agents=tuple(agents),
        agent_index=index,
        duplicate_agents=duplicates,
        plugin_copies=_plugin_copies(discovery.plugins, agents, loaders),
        units=units,
        spawns=spawns,
        uncovered=uncovered,
        problems=tuple(problems),
        rule_insertions=_rule_insertions(settings),
        rule_scope=(settings.no_name_rule.scope, settings.no_name_rule.lines),
        failure_fields=settings.result_contract.failure_fields,
        own_namespaces=_own_namespaces(discovery),
        followed=frozenset(target for targets in links.values() for _, _, target in targets),
    )


def followed_links(
    sources: Mapping[str, SourceFile], parsed: Mapping[str, ParsedFile]
) -> dict[str, tuple[tuple[int, int, str], ...]]:
    """path -> (line, column, path of the file followed) for each file that tells the model to
    read and follow another markdown file of the project (`parse.followed_files`)."""
    links = {}
    for path, file in parsed.items():
        source = sources.get(path)
        if not file.followed or source is None:
            continue
        found = tuple(
            (line, column, target)
            for line, column, ref in file.followed
            if (target := _follow(ref, source, sources)) is not None and target != path
        )
        if found:
            links[path] = found
    return links


_MEMORY_FILES = frozenset({"CLAUDE.MD", "AGENTS.MD"})


def _follow(ref: str, source: SourceFile, sources: Mapping[str, SourceFile]) -> str | None:
    """The markdown file of the project a reference names: `${CLAUDE_PLUGIN_ROOT}/x` from the
    plugin's root; `~/.claude/x` from the personal configuration's own folder; `./x`, `../x` and
    `x/y.md` from the file's folder, then from the plugin's root, then (`x/y.md` only) from the
    repository's root, as its author wrote it (a bare "plan.md" or `@CLAUDE.md` is the user's file
    as often as the plugin's: none; a CLAUDE.md or AGENTS.md is the memory of whatever project is
    open, unless the plugin's root is named). An agent's file counts: a unit that includes it to
    take on its role ("Read @~/.claude/agents/flow/supervisor.md to assume the supervisor role")
    spawns where it does."""
    root = source.plugin.root
    here = posixpath.dirname(source.path)
    if ref.startswith("${CLAUDE_PLUGIN_ROOT}/"):
        tries = [posixpath.join(root, ref.partition("/")[2])]
    elif ref.startswith("~/.claude/"):  # the configuration's own folder (`_config_folder`)
        folder = _config_folder(source.path)
        tries = [] if folder is None else [posixpath.join(folder, ref[len("~/.claude/") :])]
    elif "/" not in ref or posixpath.basename(ref).upper() in _MEMORY_FILES:
        return None
    else:
        tries = [posixpath.join(here, ref), posixpath.join(root, ref)]
        if not ref.startswith("."):
            tries.append(ref)  # "plugins/x/references/patterns/audit.md"
    for path in tries:
        path = posixpath.normpath(path)
        if path in sources:
            return path
    return None


_CONFIG_PARTS = frozenset({"commands", "skills", "agents"})


def _config_folder(path: str) -> str | None:
    """The folder a personal configuration kept in git holds as `~/.claude` (`dot-claude` for
    `dot-claude/commands/x.md`): the one above the file's `commands`, `skills` or `agents`."""
    parts = path.split("/")
    at = next((i for i, part in enumerate(parts[:-1]) if part in _CONFIG_PARTS), None)
    return None if at is None else "/".join(parts[:at]) or "."


def _followed_sites(
    links: Mapping[str, tuple[tuple[int, int, str], ...]],
    unit_ids: Mapping[str, str],
    spawns: tuple[Spawn, ...],
) -> list[SpawnSite]:
    """A site at each line where a unit tells the model to read and follow a file outside it that
    spawns, or leads to one that does (SPEC §2: a unit is what it loads): "load and follow
    `commands/onboard.md`" makes the unit spawning, and the rule belongs above that line."""
    spawning = {s.site.path for s in spawns if not s.site.is_fork}
    memo: dict[str, bool] = {}

    def spawns_from(path: str) -> bool:
        if path in spawning:
            return True
        if path not in memo:
            memo[path] = False  # a circle of references spawns nothing
            memo[path] = any(spawns_from(t) for _, _, t in links.get(path, ()))
        return memo[path]

    taken = {(s.site.path, s.site.line) for s in spawns}
    sites = []
    for path in sorted(links):
        unit = unit_ids.get(path)
        if unit is None:
            continue
        for line, column, target in links[path]:
            if (path, line) not in taken and unit_ids.get(target) != unit and spawns_from(target):
                sites.append(
                    SpawnSite(
                        path, line, column, Form.F6, None, None, None, None, None, "medium", False, via=target
                    )
                )
                break
    return sites


def _plugin_of(sources: Mapping[str, SourceFile], path: str) -> str | None:
    source = sources.get(path)
    return source.plugin.name.lower() if source is not None and source.plugin.name else None


def _confirmed(
    file: ParsedFile, index: Mapping[str, tuple[Agent, ...]], plugin: str | None
) -> tuple[SpawnSite, ...]:
    """The file's candidate sites (prose that names an agent plainly: "Launch recon-invoker") whose
    name is an agent of the project, as that agent's id; a built-in does not count ("Launch the
    explore step"), nor a line that holds a site already. One lookup a candidate (two for a
    `plugin/name`, which is read as `plugin:name`; two for a role of the file's plugin named with
    the plugin's name before it: "the scaffolder agent" in plugin `deck` is `deck-scaffolder`)."""
    if not file.candidates:
        return ()
    taken = {s.line for s in file.sites}
    found = []
    for site in file.candidates:
        target = site.subagent_type
        if target is None or site.line in taken:
            continue
        key = "-".join(target.value.strip().lower().replace("_", " ").split())
        folder, slash, stem = key.rpartition("/")
        if slash and "agents" in folder.split("/"):  # "Dispatch `agents/evidence-producer.md`": its file
            key = stem[:-3] if stem.endswith(".md") else stem
        agents = index.get(key, ())
        if not agents and key.count("/") == 1:  # "delegate to `security/triage-agent`": plugin/name
            key = key.replace("/", ":")
            agents = index.get(key, ())
        if not agents and plugin and ":" not in key and "/" not in key and f"{plugin}-{key}" in index:
            key = f"{plugin}-{key}"
            agents = index[key]
        if agents and not all(a.builtin for a in agents):
            # (a name in capitals reads as a placeholder until it resolves: "委派 ARCHITECT agent")
            found.append(replace(site, subagent_type=replace(target, value=key, kind=ValueKind.LITERAL)))
            taken.add(site.line)
    return tuple(found)


def _own_namespaces(discovery: Discovery) -> frozenset[str]:
    """The plugins of the project that are here (a marketplace may list a plugin whose folder is
    absent from this tree: nothing can be said about its agents)."""
    return frozenset(f.plugin.name.lower() for f in discovery.files if f.plugin.name)


def _stem(unit: str) -> str:
    """The name a unit is invoked by: a skill's folder, a command's file without its suffix."""
    base = unit.rpartition("/")[2]
    dot = base.rfind(".")
    return (base[:dot] if dot > 0 and unit.endswith(".md") else base).lower()


def _invocable_names(discovery: Discovery) -> frozenset[str]:
    """The project's commands and skills by the names a sentence invokes them with: `review`,
    `shop:review` (lower case)."""
    names: set[str] = set()
    for source in discovery.files:
        if source.kind is FileKind.COMMAND:
            base = source.path.rpartition("/")[2]
            dot = base.rfind(".")
            stem = base[:dot] if dot > 0 and base[:dot].lstrip(".") else base  # posixpath.splitext, inline
        elif source.kind is FileKind.SKILL and source.path.endswith("SKILL.md"):
            folder, _, base = source.path.rpartition("/")
            if base != "SKILL.md":
                continue
            stem = folder.rpartition("/")[2]
        else:
            continue
        names.add(stem.lower())
        if source.plugin.name:
            names.add(f"{source.plugin.name}:{stem}".lower())
    return frozenset(names)


def _names_a_skill_or_command(
    site: SpawnSite,
    index: Mapping[str, tuple[Agent, ...]],
    invocable: Callable[[], frozenset[str]],
    plugins: frozenset[str],
    sources: Mapping[str, SourceFile],
) -> bool:
    """A prose "spawn" whose target is one of the project's skills or commands and no agent:
    "Invoke `manifest-dev:auto` with the ticket" runs a skill, it spawns nothing. A unit naming
    itself does not invoke itself: "Launch parallel fix-grammar agents" in the fix-grammar skill
    hands its own steps to subagents."""
    target = site.subagent_type
    if site.confidence != "medium" or target is None or target.kind is not ValueKind.LITERAL:
        return False
    value = target.value.strip().lower()
    if value in index:
        return False
    source = sources.get(site.path)
    if source is not None and source.unit is not None and value.rpartition(":")[2] == _stem(source.unit):
        return False
    if value in invocable():
        return True
    # `other-plugin:define` where `define` is a skill here too: a plugin whose skills this
    # project vendors (Claude Code would resolve it to that skill), not an unknown agent
    prefix, _, last = value.rpartition(":")
    return bool(prefix) and prefix not in plugins and last in invocable()


def _builtin(name: str, tools: ToolList | None) -> Agent:
    return Agent(name, name, None, 0, tools, None, False, (), builtin=True)


def _agents(discovery: Discovery, parsed: Mapping[str, ParsedFile]) -> list[tuple[Agent, set[str]]]:
    """Every agent with the names that reach it (full id, plugin:name, bare name, file stem)."""
    found: list[tuple[Agent, set[str]]] = []
    for source in discovery.files:
        record = parsed.get(source.path)
        if record is None or not record.agents:
            continue
        for a in record.agents:
            if a.namespaced:  # prefix:folders:name, each part present or not
                folders, stem = _agent_path_parts(source)
                prefix = source.plugin.name + ":" if source.plugin.name else ""
                middle = ":".join(folders) + ":" if folders else ""
            else:
                stem, prefix, middle = a.name, "", ""
            full_id = prefix + middle + a.name
            agent = Agent(
                full_id,
                a.name,
                a.path,
                a.name_line,
                a.tools,
                a.disallowed,
                a.mentions_send_message,
                a.report_lines,
                tools_known=a.tools_known,
                defined_in_code=not a.namespaced,
            )
            names = {
                full_id,
                prefix + a.name,
                middle + a.name,
                a.name,
                prefix + middle + stem,
                prefix + stem,
                stem,
            }
            found.append((agent, {n.lower() for n in names if n}))
    return found


def _agent_path_parts(source: SourceFile) -> tuple[list[str], str]:
    """Sub-folders between the last `agents/` folder and the file, and the file stem."""
    path = "/" + source.path
    start = path.rfind("/agents/", 0, path.rfind("/") + 1)
    after = path[start + len("/agents/") :] if start >= 0 else path.rpartition("/")[2]
    *folders, base = after.split("/")
    return folders, posixpath.splitext(base)[0]


def _index(agents: list[tuple[Agent, set[str]]]) -> dict[str, tuple[Agent, ...]]:
    index: dict[str, list[Agent]] = defaultdict(list)
    # a set, not a list scan: a bare name shared by many; equal agents are one (each hashed once)
    canonical: dict[Agent, int] = {}
    seen: set[tuple[str, int]] = set()
    for agent, aliases in agents:
        identity = canonical.setdefault(agent, len(canonical))
        for alias in sorted(aliases):
            if (alias, identity) not in seen:
                seen.add((alias, identity))
                index[alias].append(agent)
    return {k: tuple(v) for k, v in index.items()}


def _loader_root(source: SourceFile) -> str:
    """The folder whose agents Claude Code loads together: the plugin root (with the paths its
    manifest names), or for agents outside any manifest the folder holding their `agents/`."""
    if source.plugin.name is not None and source.plugin.root:
        return source.plugin.root
    rel = source.path[len(source.plugin.root) + 1 :] if source.plugin.root else source.path
    folders = rel.split("/")[:-1]
    if "agents" not in folders:
        return source.plugin.root
    above = "/".join(folders[: folders.index("agents")])
    return posixpath.join(source.plugin.root, above) if above else source.plugin.root


def _plugin_copies(
    plugins: Iterable[Plugin], agents: list[Agent], loaders: Mapping[str, str]
) -> tuple[tuple[str, str, str], ...]:
    """Pairs of plugin roots that look like copies of one plugin (the same manifest name, or most
    of their agent names in common), with why: Claude Code installs one, the other is stale.
    Only roots that share a name or an agent name are compared (a marketplace of hundreds of
    plugins has tens of thousands of pairs, nearly all sharing nothing)."""
    names: dict[str, set[str]] = defaultdict(set)
    for agent in agents:
        if agent.path is not None and not agent.defined_in_code:
            names[loaders.get(agent.path, "")].add(agent.name.lower())
    named = sorted((p.root, p.name) for p in plugins if p.name and p.root != ".claude")
    holders: dict[str, set[str]] = defaultdict(set)  # an agent's name, or a plugin's: its roots
    for root, name in named:
        holders["\0" + name.lower()].add(root)
        for agent_name in names[root]:
            holders[agent_name].add(root)
    near: dict[str, set[str]] = defaultdict(set)
    for roots in holders.values():
        if len(roots) > 1:
            for root in roots:
                near[root] |= roots
    at: dict[str, list[int]] = defaultdict(list)  # where each root stands in `named`
    for i, (root, _) in enumerate(named):
        at[root].append(i)
    copies = []
    for i, (root, name) in enumerate(named):
        later = sorted(j for other in near[root] - {root} for j in at[other] if j > i)
        for other, other_name in (named[j] for j in later):
            shared = names[root] & names[other]
            if name.lower() == other_name.lower():
                copies.append((root, other, f'both are named "{name}"'))
            elif len(shared) >= 3 and 2 * len(shared) >= min(len(names[root]), len(names[other])):
                copies.append((root, other, f"{len(shared)} agent names in common"))
    return tuple(copies)


def _duplicates(agents: list[Agent], loaders: Mapping[str, str]) -> tuple[tuple[Agent, Agent], ...]:
    """Pairs of agents one plugin root loads under one id. Two plugin roots never collide: Claude
    Code never loads both a plugin and a stale copy of it."""
    first: dict[tuple[str, str], Agent] = {}
    pairs = []
    for agent in sorted(agents, key=lambda a: a.path or ""):
        if agent.defined_in_code:
            continue  # each SDK program passes its own agents; the same key twice is no clash
        key = (loaders.get(agent.path or "", ""), agent.id.lower())
        if key in first:
            pairs.append((first[key], agent))
        else:
            first[key] = agent
    return tuple(pairs)


def _resolve(
    site: SpawnSite,
    index: Mapping[str, tuple[Agent, ...]],
    configured: tuple[ConfiguredAgent, ...],
    sources: Mapping[str, SourceFile],
) -> Resolution:
    target = site.subagent_type
    if target is None:
        return Resolution("default", index[DEFAULT_AGENT])
    if target.kind is ValueKind.PLACEHOLDER:
        return Resolution("placeholder")
    if target.kind is ValueKind.DYNAMIC:
        return Resolution("dynamic")
    value = target.value.strip().lower()
    if not value:
        return Resolution("default", index[DEFAULT_AGENT])
    found = index.get(value, ())
    if len(found) > 1:
        source = sources.get(site.path)
        local = tuple(a for a in found if source and _same_plugin(a, source.plugin))
        found = local if len(local) == 1 else found
    if len(found) == 1:
        return Resolution("resolved", found)
    if found:
        return Resolution("ambiguous", found)
    elsewhere = next((c for c in configured if fnmatch(value, c.pattern)), None)
    if elsewhere is not None:
        return Resolution("external", (_configured(target.value.strip(), elsewhere),))
    if target.kind is ValueKind.BARE:
        return Resolution("dynamic")
    if is_placeholder(value):
        return Resolution("placeholder")
    return Resolution("unknown")


# Words that stand for an agent in documentation ("agent-name", "your-agent-type", "plugin:name").
_PLACEHOLDER_WORDS = frozenset(
    [
        "agent",
        "agents",
        "subagent",
        "sub",
        "name",
        "type",
        "plugin",
        "your",
        "my",
        "the",
        "some",
        "appropriate",
        "specialist",
        "role",
        "x",
        "xx",
        "xxx",
        "foo",
        "bar",
        "baz",
        "example",
        "custom",
        "specific",
        "relevant",
        "selected",
        "chosen",
        "target",
        "id",
        "kind",
        "namespace",
        "prefix",
        "n",
        "placeholder",
        "tbd",
        "todo",
    ]
)
_WORDS = re.compile(r"[-_:./\s]+")


def is_placeholder(value: str) -> bool:
    """Whether a literal that matches no agent stands for one (a lower-case value): an
    HTML-escaped `&lt;agent&gt;`, a glob (`team-*`), or generic words only (`agent-name`,
    `plugin:name`, `your-agent-type`)."""
    if any(mark in value for mark in ("&lt;", "&gt;", "&#", "*", "?", "%s", "{{")):
        return True
    return all(word in _PLACEHOLDER_WORDS for word in _WORDS.split(value) if word)


def _configured(agent_id: str, configured: ConfiguredAgent) -> Agent:
    """An agent of another repository, as the configuration states its tools."""
    tools = None if configured.tools is None else _tools(*configured.tools)
    return Agent(agent_id, agent_id, None, 0, tools, None, False, (), tools_known=configured.tools_known)


def _same_plugin(agent: Agent, plugin: Plugin) -> bool:
    return agent.path is not None and (plugin.root == "" or agent.path.startswith(plugin.root + "/"))


def _unit_ids(discovery: Discovery, parsed: Mapping[str, ParsedFile], settings: Settings) -> dict[str, str]:
    """file path -> id of the unit it belongs to, for the unit kinds that are enabled."""
    enabled = {"commands": FileKind.COMMAND, "skills": FileKind.SKILL, "agents": FileKind.AGENT}
    kinds = {enabled[u] for u in settings.units}
    out = {}
    for source in discovery.files:
        if source.unit is None or source.kind not in kinds:
            continue
        if source.kind is FileKind.AGENT and (source.path not in parsed or not parsed[source.path].agents):
            continue
        out[source.path] = source.unit
    skills: dict[str, list[str]] = defaultdict(list)
    for f in discovery.files:
        if f.kind is FileKind.SKILL and f.path in out:
            skills[out[f.path]].append(f.path)
    for unit, members in skills.items():
        for path in set(members) - _loaded(unit, members, parsed):
            del out[path]
        followed = {
            posixpath.basename(ref).lower()
            for path in members
            if path in parsed
            for _, _, ref in parsed[path].followed
        }
        for path in members:
            if path in out and _template(unit, path) and posixpath.basename(path).lower() not in followed:
                del out[path]
    return out


def _template(folder: str, path: str) -> bool:
    """A file of a skill that holds what the skill writes, not what it does: in a `templates/`
    folder of the skill (`templates/output-template.md`, `templates/command.md`). A spawn there is
    the text of a command or report being made ("Fill in `templates/x.md` and write it"), unless
    the skill says to follow the file; the labelled corpus (over 5,000 units) has no spawning skill
    whose spawn stands in such a file. SL1xx still read it."""
    parts = path[len(folder) + 1 :].lower().split("/")
    return any(p in ("templates", "template") for p in parts[:-1])


def _loaded(folder: str, members: list[str], parsed: Mapping[str, ParsedFile]) -> set[str]:
    """The files of a skill folder the skill loads: SKILL.md, and each file that a loaded file
    names (`./implementer-prompt.md`) or whose folder it names (`references/`). A template beside
    SKILL.md that nothing names is never read (a fork that dropped a step keeps its file)."""
    main = posixpath.join(folder, "SKILL.md")
    if main not in parsed:
        return set(members)  # nothing to follow: every file counts
    loaded, todo = {main}, [main]
    rest = {path: path[len(folder) + 1 :].lower().split("/") for path in members if path != main}
    while todo:
        current = parsed.get(todo.pop())
        refs = set(current.file_refs) if current else set()
        for path, parts in list(rest.items()):
            if parts[-1] in refs or any(part in refs for part in parts[:-1]):
                loaded.add(path)
                todo.append(path)
                del rest[path]
    return loaded


def _units(
    discovery: Discovery,
    parsed: Mapping[str, ParsedFile],
    settings: Settings,
    unit_ids: Mapping[str, str],
    spawns: Iterable[Spawn],
    focus: tuple[Wanted, frozenset[str]] | None = None,
) -> tuple[Unit, ...]:
    """The enabled units; with `focus` (the test of a wanted path, and the units holding a
    wanted spawn), only the units that reach a wanted path."""
    files: dict[str, list[str]] = defaultdict(list)
    kinds: dict[str, FileKind] = {}
    for source in discovery.files:
        unit = unit_ids.get(source.path)
        if unit is not None and source.path in parsed:
            files[unit].append(source.path)
            kinds[unit] = source.kind
    by_unit: dict[str, list[Spawn]] = defaultdict(list)
    for spawn in spawns:
        if spawn.unit is not None:
            by_unit[spawn.unit].append(spawn)
    matcher = _memoised(_rule_matcher(settings))
    units = []
    for unit_id in sorted(files):
        if (
            focus is not None
            and unit_id not in focus[1]
            and not unit_wanted(unit_id, files[unit_id], focus[0])
        ):
            continue
        kind = kinds[unit_id]
        main = posixpath.join(unit_id, "SKILL.md") if kind is FileKind.SKILL else unit_id
        main_file = parsed.get(main)
        members = tuple(sorted(files[unit_id]))
        sentences = tuple(
            (path, s)
            for path in members
            if parsed[path].sentences
            for s in parsed[path].sentences
            if matcher(s.text)
        )
        fm = main_file.unit_frontmatter if main_file else None
        units.append(
            Unit(
                id=unit_id,
                kind=_UNIT_KINDS.get(kind, "agent"),
                main_file=main if main_file else unit_id,
                files=members,
                spawns=tuple(by_unit.get(unit_id, ())),
                rule_sentences=sentences,
                disallowed_tools=fm.disallowed_tools if fm else None,
            )
        )
    return tuple(units)


_UNIT_KINDS = {FileKind.SKILL: "skill", FileKind.COMMAND: "command"}


def _memoised(matcher: Callable[[str], bool]) -> Callable[[str], bool]:
    """The matcher, asked once per distinct sentence (boilerplate repeats across units)."""
    answers: dict[str, bool] = {}

    def matches(text: str) -> bool:
        if text not in answers:
            answers[text] = matcher(text)
        return answers[text]

    return matches


def _rule_insertions(settings: Settings) -> dict[str, str]:
    """The canonical sentence per unit kind (and, as "mixed <kind>", the one for a unit that also
    spawns teammates), where the configured matcher accepts it."""
    matcher = _rule_matcher(settings)
    sentences = {kind: canonical_rule(kind) for kind in ("command", "skill", "agent")}
    sentences.update(
        {f"mixed {kind}": canonical_rule(kind, mixed=True) for kind in ("command", "skill", "agent")}
    )
    return {kind: text for kind, text in sentences.items() if matcher(text)}


def _with_team_facts(unit: Unit, parsed: Mapping[str, ParsedFile], settings: Settings) -> Unit:
    """The unit with its team intent, its teammate spawns (SPEC §5, team units) and the sentences
    that forbid `name` in its own words without naming the mechanism (SL203)."""
    partial = _partial_rules(unit, parsed, settings)
    intent = unit.is_spawning and _team_intent(unit, parsed)
    if not intent and not partial:
        return unit
    teammates = tuple(s for s in unit.spawning_sites if _is_teammate(s.site, parsed)) if intent else ()
    return replace(unit, team_intent=intent, teammates=teammates, partial_rules=partial)


def _team_intent(unit: Unit, parsed: Mapping[str, ParsedFile]) -> bool:
    """Whether the unit builds a team on purpose: team prose (F8), `team_name`, TeamCreate, or a
    named spawn told to report through SendMessage."""
    if any(path in parsed and parsed[path].team_lines for path in unit.files):
        return True
    return any(
        s.site.form == Form.F8
        or s.site.team_name is not None
        or (s.site.name is not None and s.site.told_to_report)
        for s in unit.spawning_sites
    )


def _is_teammate(site: SpawnSite, parsed: Mapping[str, ParsedFile]) -> bool:
    """In a unit with team intent: a named spawn, a team's spawn (F8), or a member described in
    prose where it speaks of the team ("Spawn a `team-lead` agent to coordinate" in the section
    that calls TeamCreate). An unnamed structured spawn is a subagent, `team_name` or not (it is
    ignored since 2.1.178: `name` alone makes a teammate), and so is a prose spawn called
    standalone or a subagent."""
    if site.name is not None or site.form == Form.F8:
        return True
    file = parsed.get(site.path)
    if site.confidence == "high" or file is None or _holds(file.subagent_lines, site.line):
        return False
    if _holds(file.teammate_lines, site.line):
        return True
    section = section_of(file.sections, site.line)
    if section is None:
        return False
    if section.level and _holds(file.teammate_lines, section.start_line):
        return True  # under a heading that speaks of the team ("### Preset Teams")
    at = bisect_left(file.team_lines, section.start_line)  # team_lines are in line order
    return at < len(file.team_lines) and file.team_lines[at] <= section.end_line


def _holds(lines: tuple[int, ...], line: int) -> bool:
    """Whether a sorted tuple of line numbers holds `line`."""
    at = bisect_left(lines, line)
    return at < len(lines) and lines[at] == line


def _partial_rules(
    unit: Unit, parsed: Mapping[str, ParsedFile], settings: Settings
) -> tuple[tuple[str, Sentence], ...]:
    """The unit's own-words rule sentences that do not name the mechanism, when the default
    matcher (requiring it) is in force: a custom pattern alone decides what carries the rule."""
    rule = settings.no_name_rule
    if rule.pattern is not None or not rule.require_mechanism or unit.carries_rule:
        return ()
    return tuple(
        (path, s)
        for path in unit.files
        if path in parsed
        for s in parsed[path].sentences
        if is_own_words_rule(s.text)
    )


def _rule_matcher(settings: Settings) -> Callable[[str], bool]:
    """The configured test for a no-name rule sentence: a custom regex, or the default matcher."""
    rule = settings.no_name_rule
    if rule.pattern is not None:
        return rule_pattern_matcher(rule.pattern, settings.source)
    return lambda text: is_rule_sentence(text, rule.require_mechanism)


def _uncovered(unit: Unit, parsed: Mapping[str, ParsedFile], settings: Settings) -> tuple[Spawn, ...]:
    """The unit's spawning sites that the no-name rule does not cover, in the configured scope."""
    # a team unit's spawns are all teammates: the rule would contradict it; the first site is
    # the unit's first in reading order (its main file first)
    sites = sorted(
        unit.subagent_sites,
        key=lambda s: (s.site.path != unit.main_file, s.site.path, s.site.line, s.site.column),
    )
    rule = settings.no_name_rule
    stated = unit.rule_sentences + unit.partial_rules  # an incomplete rule is SL203, not SL201
    if rule.scope == "unit":
        return () if stated else tuple(sites)
    return tuple(s for s in sites if not _covers(stated, s.site, parsed, rule.scope, rule.lines))


def _covers(
    sentences: tuple[tuple[str, Sentence], ...],
    site: SpawnSite,
    parsed: Mapping[str, ParsedFile],
    scope: str,
    lines: int,
) -> bool:
    same_file = [s for path, s in sentences if path == site.path]
    if scope == "lines":
        if site.block_line > site.line:  # a heading that spawns: its rule is first under it
            return any(site.line < s.line <= site.line + lines for s in same_file)
        return any(s.line <= site.line and s.end_line >= site.line - lines for s in same_file)
    section = section_of(parsed[site.path].sections, site.line)
    if section is None:
        return False
    return any(section.start_line <= s.line <= section.end_line for s in same_file)
