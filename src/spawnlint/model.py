"""The frozen records that flow through the pipeline: parsed files, agents, spawn sites, units,
the project, and diagnostics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"  # shown, never fails the run (not even with --strict)


class ValueKind(str, Enum):
    LITERAL = "literal"  # a quoted or unmistakable literal: "shop:critic", code-reviewer
    BARE = "bare"  # an unquoted identifier: a literal in pseudo-code, a variable in real code
    PLACEHOLDER = "placeholder"  # {area}-reviewer, <agent-name>, [primary specialist], $AGENT
    DYNAMIC = "dynamic"  # task.agent_type, f"{x}", a call


class Form(str, Enum):
    """The spawn forms of SPEC §3; parse/forms/ holds one module for each."""

    F1 = "F1"  # a call: Agent(...) / Task(...)
    F2 = "F2"  # a block: `Task:` and indented `key: value` lines
    F3 = "F3"  # an object with "subagent_type"
    F4 = "F4"  # parameter bullets after a sentence naming the tool
    F5 = "F5"  # parameters as inline code in a sentence
    F6 = "F6"  # prose: a spawn verb and an agent
    F7 = "F7"  # a spawn sentence, then one bullet (or table row) per agent
    F8 = "F8"  # team prose
    F9 = "F9"  # a skill's frontmatter fork (`context: fork`)
    F10 = "F10"  # a Python call or dict

    def __str__(self) -> str:
        return self.value


class FileKind(str, Enum):
    AGENT = "agent"
    COMMAND = "command"
    SKILL = "skill"  # any markdown file inside a skill folder
    MARKDOWN = "markdown"  # other markdown searched for spawn sites
    PYTHON = "python"


@dataclass(frozen=True, order=True)
class Location:
    path: str
    line: int
    column: int = 1
    message: str = ""


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text from (line, column) to (end_line, end_column) — 1-based, the end excluded,
    a column counting characters of the line without its line ending — with `text`. `old` is the
    text the parser saw there: the edit is applied only if the file still holds it. A "\n" in
    `text` is written as the file's own line ending. A `python_node` edit deletes a keyword argument
    or a dict entry of Python (`old` is all of it): the Python fixer makes it whole (its comma, the
    lines it leaves) with libcst when --fix applies it."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    old: str
    text: str = ""
    python_node: bool = False


@dataclass(frozen=True)
class Fix:
    edits: tuple[Edit, ...]
    safe: bool


@dataclass(frozen=True)
class Finding:
    """What a rule yields; the engine stamps code and severity onto it."""

    path: str
    line: int
    column: int
    message: str
    related: tuple[Location, ...] = ()
    fix: Fix | None = None
    severity: Severity | None = None  # this finding's own level (else the rule's), unless configured


@dataclass(frozen=True)
class Problem:
    """A parse-stage problem (SL000/SL001/SL002), carried to the rule that reports it."""

    code: str
    finding: Finding
    # True for frontmatter that is closed but not valid YAML (read leniently, as Claude Code does):
    # the body was parsed as usual, so --fix may still edit it
    body_intact: bool = False
    detail: str = ""  # an internal error's traceback, printed by `check --verbose`


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    column: int
    code: str
    message: str
    severity: Severity
    related: tuple[Location, ...] = ()
    fix: Fix | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Param:
    key: str
    value: str
    kind: ValueKind
    line: int  # where the key is written
    column: int
    value_line: int = 0  # where the value is written (0: same as the key)
    value_column: int = 0
    removal: tuple[Edit, ...] = ()  # the edits that delete it and keep the rest well-formed; () if unsafe

    @property
    def value_position(self) -> tuple[int, int]:
        if self.value_line:
            return self.value_line, self.value_column
        return self.line, self.column


@dataclass(frozen=True)
class SpawnSite:
    path: str
    line: int
    column: int
    form: Form
    tool: str | None  # "Agent", "Task" or None when the form does not name it
    subagent_type: Param | None
    name: Param | None  # None when no name is attached to the spawn
    team_name: Param | None
    prompt: str | None
    confidence: str  # "high" or "medium"
    told_to_report: bool  # its prompt or its section names the SendMessage tool
    # where its top-level markdown block starts (a paragraph inserted there stays in its section),
    # and whether text sits right above that line, with no blank line between
    block_line: int = 0
    block_joined: bool = False
    # the edit that opens its prompt with an instruction to report with SendMessage (unsafe fix)
    report_instruction: tuple[Edit, ...] = ()
    prompt_at: tuple[int, int] = (0, 0)  # (line, column) of the prompt parameter; (0, 0): unknown
    # the file a unit follows here, which spawns (the site stands at the line that follows it)
    via: str | None = None

    @property
    def is_fork(self) -> bool:
        return self.form is Form.F9


@dataclass(frozen=True)
class ToolList:
    """A parsed `tools`/`disallowedTools` value. `names` is None for `*` (every tool)."""

    names: frozenset[str] | None
    raw: tuple[str, ...]
    line: int

    def includes(self, tool: str) -> bool:
        return self.names is None or tool in self.names


@dataclass(frozen=True)
class Sentence:
    line: int
    end_line: int
    column: int
    text: str


@dataclass(frozen=True)
class Section:
    start_line: int
    end_line: int  # inclusive
    level: int  # 0 for the text before the first heading


@dataclass(frozen=True)
class SuppressionComment:
    """One `spawnlint: ignore[...]` comment and the lines it silences."""

    line: int
    column: int
    codes: tuple[str, ...]  # empty: every code
    lines: tuple[int, ...]  # empty for ignore-file: the whole file

    def covers(self, line: int, code: str) -> bool:
        if self.lines and line not in self.lines:
            return False
        return not self.codes or any(code.startswith(c) for c in self.codes)


@dataclass(frozen=True)
class Suppressions:
    comments: tuple[SuppressionComment, ...] = ()

    def covering(self, line: int, code: str) -> tuple[SuppressionComment, ...]:
        return tuple(c for c in self.comments if c.covers(line, code))

    def covers(self, line: int, code: str) -> bool:
        return any(c.covers(line, code) for c in self.comments)


@dataclass(frozen=True)
class AgentRecord:
    """An agent definition as one file states it (plugin-independent)."""

    path: str
    name: str
    name_line: int
    tools: ToolList | None  # None: no `tools` key, the agent inherits every tool
    disallowed: ToolList | None
    mentions_send_message: bool
    report_lines: tuple[tuple[int, int], ...]  # (line, column) of body lines telling it to report
    namespaced: bool = True  # markdown agents take their plugin's prefix; SDK agents do not
    tools_known: bool = True  # False when code computes the tools: no finding rests on a guess
    grant_send_message: tuple[Edit, ...] = ()  # the edit adding SendMessage to its `tools:` line


@dataclass(frozen=True)
class UnitFrontmatter:
    """The frontmatter keys of a command or skill file that the rules need."""

    disallowed_tools: ToolList | None


@dataclass(frozen=True)
class ParsedFile:
    path: str
    kind: FileKind
    agents: tuple[AgentRecord, ...] = ()
    unit_frontmatter: UnitFrontmatter | None = None
    sites: tuple[SpawnSite, ...] = ()
    sentences: tuple[Sentence, ...] = ()
    sections: tuple[Section, ...] = ()
    suppressions: Suppressions = Suppressions()
    problems: tuple[Problem, ...] = ()
    # body lines that create a team (TeamCreate, `team_name`, not negated); that speak of a team
    # or teammates; that call a spawn standalone or a subagent (parse/team.py)
    team_lines: tuple[int, ...] = ()
    teammate_lines: tuple[int, ...] = ()
    subagent_lines: tuple[int, ...] = ()
    # (line, column) of body sentences that read a teammate's idle state as its result (SL105)
    idle_claims: tuple[tuple[int, int], ...] = ()
    # prose that spawns if what it names is an agent of the project (parse/forms: `candidate`);
    # build_project keeps those whose target resolves
    candidates: tuple[SpawnSite, ...] = ()
    # a skill folder's file: the names of the files and folders it refers to (`implementer-prompt.md`,
    # `references/`), lower case: a skill loads the files SKILL.md leads to, not every file beside it
    file_refs: tuple[str, ...] = ()
    # the markdown files its text tells the model to read and follow ("load and follow
    # `${CLAUDE_PLUGIN_ROOT}/commands/onboard.md`", "read ../../references/delegation.md", an
    # `@references/x.md` include): (line, column, the path as written)
    followed: tuple[tuple[int, int, str], ...] = ()

    @property
    def editable(self) -> bool:
        """--fix may change this file: no problem other than leniently read frontmatter."""
        return all(p.body_intact for p in self.problems)


@dataclass(frozen=True)
class Agent:
    """An agent of the project (or a built-in) under its full id."""

    id: str
    name: str
    path: str | None  # None for built-ins
    name_line: int
    tools: ToolList | None
    disallowed: ToolList | None
    mentions_send_message: bool
    report_lines: tuple[tuple[int, int], ...]
    builtin: bool = False
    tools_known: bool = True
    defined_in_code: bool = False  # an SDK AgentDefinition: scoped to its program, not the project

    @property
    def can_report(self) -> bool:
        if self.disallowed is not None and self.disallowed.includes("SendMessage"):
            return False
        return self.tools is None or self.tools.includes("SendMessage")

    @property
    def channel_line(self) -> int:
        """The frontmatter line that removes (or would have to grant) SendMessage."""
        if self.disallowed is not None and self.disallowed.includes("SendMessage"):
            return self.disallowed.line
        if self.tools is not None:
            return self.tools.line
        return self.name_line


@dataclass(frozen=True)
class Resolution:
    """What a spawn site's subagent_type refers to."""

    # "resolved", "default" (no subagent_type: general-purpose), "ambiguous", "unknown",
    # "external" (a configured agent of another plugin), "placeholder", "dynamic"
    status: str
    agents: tuple[Agent, ...] = ()


@dataclass(frozen=True)
class Spawn:
    site: SpawnSite
    unit: str | None  # the id of the unit holding the site
    target: Resolution


@dataclass(frozen=True)
class Unit:
    id: str  # the command file's path, or the skill folder's path
    kind: str  # "command", "skill" or "agent"
    main_file: str
    files: tuple[str, ...]
    spawns: tuple[Spawn, ...]  # every site in the unit, forks included
    rule_sentences: tuple[tuple[str, Sentence], ...]
    disallowed_tools: ToolList | None
    # a team on purpose: team prose (F8), `team_name`, TeamCreate, or named spawns told to report
    team_intent: bool = False
    teammates: tuple[Spawn, ...] = ()  # its spawns that are teammates (in a unit with team intent)
    # sentences that forbid `name` in the author's own words but do not name the mechanism
    partial_rules: tuple[tuple[str, Sentence], ...] = ()

    @property
    def spawning_sites(self) -> tuple[Spawn, ...]:
        return tuple(s for s in self.spawns if not s.site.is_fork)

    @property
    def subagent_sites(self) -> tuple[Spawn, ...]:
        """The spawning sites that are not teammates: the ones the no-name rule is for."""
        if not self.teammates:
            return self.spawning_sites
        teammates = set(self.teammates)
        return tuple(s for s in self.spawning_sites if s not in teammates)

    @property
    def is_team(self) -> bool:
        """A team unit: team intent, and every spawn a teammate (exempt from SL201)."""
        return self.team_intent and self.is_spawning and not self.subagent_sites

    @property
    def is_mixed(self) -> bool:
        """Teammates and subagents: the rule is for its subagent spawns."""
        return self.team_intent and bool(self.teammates) and bool(self.subagent_sites)

    @property
    def is_spawning(self) -> bool:
        return bool(self.spawning_sites)

    @property
    def carries_rule(self) -> bool:
        return bool(self.rule_sentences)


@dataclass(frozen=True)
class Project:
    root: str
    plugins: tuple[tuple[str, str | None], ...]  # (root folder, name); name None: bare agent ids
    files: Mapping[str, ParsedFile]
    agents: tuple[Agent, ...]
    agent_index: Mapping[str, tuple[Agent, ...]]
    duplicate_agents: tuple[tuple[Agent, Agent], ...]
    units: tuple[Unit, ...]
    spawns: tuple[Spawn, ...]
    uncovered: Mapping[str, tuple[Spawn, ...]]  # unit id -> spawn sites the no-name rule misses
    problems: tuple[Problem, ...]
    # what `--fix` may insert for SL201: unit kind -> the canonical sentence, when the configured
    # matcher accepts it; and the rule's scope ("unit", "section", "lines") with its N
    rule_insertions: Mapping[str, str] = field(default_factory=dict)
    rule_scope: tuple[str, int] = ("unit", 0)
    # pairs of plugin roots that look like copies of one plugin (root, other root, why)
    plugin_copies: tuple[tuple[str, str, str], ...] = ()
    # the names (lower case) of this project's plugins that have files here: a target in one of
    # their namespaces that matches nothing was deleted or renamed (SL301 is an error)
    own_namespaces: frozenset[str] = frozenset()
    # SL104: the words that name a result's slot for what went wrong
    failure_fields: tuple[str, ...] = ()
    # the files a unit of another file tells the model to read and follow: a change to one of them
    # can change that unit's findings (the run memo merges no focused run that changed one)
    followed: frozenset[str] = frozenset()


def section_of(sections: tuple[Section, ...], line: int) -> Section | None:
    """The innermost section holding a 1-based line: the one under the nearest heading above."""
    holding = [s for s in sections if s.start_line <= line <= s.end_line]
    return max(holding, key=lambda s: s.start_line) if holding else None
