"""F1: an `Agent(...)` / `Task(...)` call whose arguments make it a spawn (`subagent_type`, or a
prompt), written with `k=v`, `k: v` or a JS object, in any fence or none; and the positional
`Task(shop:scanner) - "Scan the repo"`."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, ValueKind
from spawnlint.parse.forms import removal, syntax, vocabulary
from spawnlint.parse.forms.prose import BUILTINS, code_like, is_instruction
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import PARAM_KEYS, Match, RawParam, is_spawn_params, split_params
from spawnlint.parse.forms.trigger import Paragraphs, Trigger
from spawnlint.parse.text import Block, FormExamples, LineIndex, RawSite

_CALLEE = r"(Agent|Task)\s*\("
# not `new Agent(` (another framework's constructor), `def Task(`, `x.Agent(`
_CALL = lazy.compile(r"(?<![\w.$])(?<!new )(?<!def )(?<!class )(?<!function )" + _CALLEE)
_CALLEE_ANYWHERE = lazy.compile(_CALLEE)


def find_calls(text: str) -> list[Match]:
    """`Agent(...)` / `Task(...)` calls whose arguments make them a spawn."""
    found: list[Match] = []
    budget = syntax.budget(text)
    for m in _CALL.finditer(text):
        if found and m.start() < found[-1].end:
            continue
        open_at = m.end() - 1
        close, scanned = syntax.scan_close(text, open_at)
        budget.spend(scanned)
        if close < 0:
            continue
        inner_start, inner = open_at + 1, text[open_at + 1 : close]
        stripped = inner.strip()
        if stripped.startswith("{") and stripped.endswith("}"):
            brace = text.index("{", inner_start)
            inner_start, inner = brace + 1, text[brace + 1 : close].rstrip()[:-1]
        params = split_params(inner, inner_start)
        if _another_framework(text, m, params):
            continue
        if (
            is_spawn_params(params)
            or _teammate(params)
            or (_agent_only(params) and _PROMPT_AFTER.match(text, close + 1) is not None)
            or (_elided(inner) and any(p.key in PARAM_KEYS for p in params))
        ):
            found.append(Match(m.start(), close + 1, m.group(1), tuple(params)))
            continue
        positional = _positional_spawn(text, inner_start, inner, close)
        if positional is not None:
            found.append(Match(m.start(), close + 1, m.group(1), (positional,)))
            continue
        prompted = _prompt_spawn(text, m.start(), inner_start, inner)
        if prompted:
            found.append(Match(m.start(), close + 1, m.group(1), prompted))
    return found


# `Task("Fix the failures of parser.test.ts")`, `Task("code-quality-analyst: Lint the docs")`: the
# prompt the only argument (three words at least), an agent's id before a colon where one leads it;
# a statement of its own (`job = Task("Process the queue")` keeps another API's object)
_PROMPT_ONLY = lazy.compile(
    r"\s*([\"'])(?P<body>(?:(?P<agent>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][\w-]*:[a-z][\w-]*):\s+)?"
    r"[A-Za-z][^\"'\n]*?\s[^\"'\n]*?\s[^\"'\n]*)\1\s*$"
)


def _prompt_spawn(text: str, start: int, inner_start: int, inner: str) -> tuple[RawParam, ...]:
    m = _PROMPT_ONLY.match(inner)
    line_start = text.rfind("\n", 0, start) + 1
    if m is None or not _STANDS_ALONE.fullmatch(text, line_start, start):
        return ()
    body = inner_start + m.start("body")
    prompt = RawParam("prompt", m.group("body"), ValueKind.LITERAL, inner_start, body)
    if m.group("agent") is None:
        return (prompt,)
    at = inner_start + m.start("agent")
    return (RawParam("subagent_type", m.group("agent"), ValueKind.LITERAL, at, at), prompt)


# Another framework's agent (Google ADK, the OpenAI Agents SDK, CrewAI): its keys, or an `Agent(`
# built and kept (`specialist = Agent(name="specialist", ...)`, an item of a list) without the
# Agent tool's own `subagent_type`. A spawn is a call made; `result = Task(...)` still is one.
_FRAMEWORK_KEYS = frozenset(
    {"instruction", "instructions", "sub_agents", "handoffs", "tools", "output_type", "output_key"}
)
_KEPT_BEFORE = lazy.compile(r"(?:=|\[|,)\s*$")


def _another_framework(text: str, call: re.Match[str], params: list[RawParam]) -> bool:
    keys = {p.key for p in params}
    if keys & _FRAMEWORK_KEYS:
        return True
    if call.group(1) != "Agent" or "subagent_type" in keys:
        return False
    line_start = text.rfind("\n", 0, call.start()) + 1
    before = text[line_start : call.start()]
    if before.strip():
        return _KEPT_BEFORE.search(before) is not None
    previous = text[: max(line_start - 1, 0)].rstrip()
    # an item of a list written one to a line (not a sentence's words wrapped after a comma)
    return previous.endswith(("[", "),"))


# keys only the Agent tool takes: `Task(run_in_background=true) — "run the tests"` is a spawn
# with its other arguments left to the model, where its prompt follows ("worktrees created by
# `Agent(isolation: "worktree")`" names the tool; another framework's `Task(description=...)` is
# no spawn)
_AGENT_ONLY_KEYS = frozenset(vocabulary.AGENT_ONLY_KEYS)


def _agent_only(params: list[RawParam]) -> bool:
    keys = {p.key for p in params}
    return bool(keys) and keys <= PARAM_KEYS and bool(keys & _AGENT_ONLY_KEYS)


def _teammate(params: list[RawParam]) -> bool:
    """`Task(team_name="review", name="lead")`: a teammate spawned into a team, by the Agent tool's
    own keys alone (its type left to the default)."""
    keys = {p.key for p in params}
    return {"team_name", "name"} <= keys <= PARAM_KEYS


_ELIDED = lazy.compile(r"(?:^|,)\s*(?:\.\.\.|…)\s*(?:,|$)")


def _elided(inner: str) -> bool:
    """`Task(name="auditor", ...)`: the arguments the text leaves out make it a spawn shown in
    part (a call of another API spells its arguments)."""
    return _ELIDED.search(inner) is not None


_POSITIONAL_ID = lazy.compile(
    rf"\s*([A-Za-z][\w.-]*(?::{{1,2}}[\w.-]+)+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+|{BUILTINS})\s*$"
)
# the prompt after a gap or a separator (`Task(x)",` is a quoted permission pattern ending), on
# the lines indented under the call's colon ("Task(Explore):" over "  Explore the codebase"), or
# after the colon and a blank line ("Task(superpowers:code-reviewer):", "", "Review the changes")
_PROMPT_AFTER = lazy.compile(
    r"(?:[ \t]*(?:-|—|–|:|=>|->)[ \t]*|[ \t]+)[\"“]|[ \t]*:[ \t]*\r?\n[ \t]+\S"
    r"|[ \t]*:[ \t]*\r?\n[ \t]*\r?\n[ \t]*[A-Za-z{]"
)


def _positional_spawn(text: str, inner_start: int, inner: str, close: int) -> RawParam | None:
    """`Task(vibe-audit:scanner) - "Scan the repo"`: an agent id as the only argument, then the
    prompt. `Agent(worker)` in a tools list, or `"Task(test-runner)"` in a settings file's
    permission list, has no prompt after it and is not a spawn."""
    m = _POSITIONAL_ID.match(inner)
    if m is None or not _PROMPT_AFTER.match(text, close + 1):
        return None
    offset = inner_start + m.start(1)
    return RawParam("subagent_type", m.group(1), ValueKind.LITERAL, offset, offset)


# `Task(debugger):` above its prompt's lines, `Task(decompiler) → result`, `` `Task("shop:critic")` ``:
# an agent's id alone, with no prompt after it. A candidate (the id must be an agent of the
# project), and never in a list of tools or permissions (`tools: Read, Agent(worker)`,
# `"Task(test-runner)"` in a settings file), where the same words restrict what may be spawned.
# (`Task(scenario-reviewer, opus, parallel):`: the model and the manner may follow, bare words)
# (or the agent by its file: `Agent("agents/workflow-review-runner.md")`, an agent of the project where
# that file defines one)
_BARE_ID = lazy.compile(
    r"\s*([\"']?)([A-Za-z][\w.-]*(?::{1,2}[\w.-]+)*|(?:[\w.-]+/)*agents/[\w.-]+\.md)\1"
    r"(?:\s*,\s*[a-z][\w.-]*){0,3}\s*$"
)
_TOOL_LIST = lazy.compile(
    r"\btools?\s*[:=]|-tools\b|\bpermissions?\b|\ballow|\bdeny\b|[,\[\"'(]\s*$", re.IGNORECASE
)
# a statement of its own: first on its line (after a list marker, a step number, a heading's
# hashes, a `[RED]` tag, a bold label), or after an arrow or a colon: not a word of a sentence
_STANDS_ALONE = lazy.compile(
    r"\s*(?:[-*+>]\s+|\d+(?:\.\d+)*[.)]?\s+|#{1,6}\s+)?(?:\[[^\]\n]*\]\s*)?[`*]*"
    r"|[^\n]*(?:→|->|=>|:)\s*[`*]*"
)
# or the object of a verb of calling: "Use Task(Explore) to map the codebase" (a built-in there
# is a spawn as it stands; a list item "`Agent(Plan)`: …" under "Always deny" is a permission)
_CALLING = (*vocabulary.STRONG_VERBS, "use", "call", "run", "via", "using")
# ("Spawn one `Agent(...)` per lane": a count between; "Orchestrators spawn `Agent(...)`" tells what
# another does, no instruction)
_CALLED = lazy.compile(
    rf"[^\n]*\b(?P<verb>(?i:{vocabulary.alternation(_CALLING)}))\s+(?:(?i:one|an?|the|\d+)\s+)?[`*]*"
)
_BUILTIN = lazy.compile(rf"{BUILTINS}")

_WORD = lazy.compile(r"\w+")
_ARROW_BEFORE = lazy.compile(r"(?:→|->|=>)\s*[`*]*$")
_LIST_GOES_ON = lazy.compile(r"\s*[,\]\"']")


def bare_calls(text: str, taken: list[Match]) -> list[tuple[Match, bool]]:
    """`Task(debugger)`: calls whose only argument is an agent's id, outside the spawns found,
    each with whether it is a spawn as it stands (a built-in called: "Use Task(Explore) to …";
    the others are candidates, spawns where the id is an agent of the project)."""
    found: list[tuple[Match, bool]] = []
    for m in _CALL.finditer(text):
        if any(t.start <= m.start() < t.end for t in taken):
            continue
        open_at = m.end() - 1
        close = text.find(")", open_at)
        bare = _BARE_ID.match(text, open_at + 1, close) if close > 0 else None
        if bare is None or code_like(bare.group(2)) or bare.group(2) in vocabulary.SPAWN_TOOLS:
            continue
        before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        calling = _CALLED.fullmatch(before)
        verb = _WORD.match(before, calling.start("verb")) if calling is not None else None
        called = verb is not None and is_instruction(before, verb)
        if (
            not (_STANDS_ALONE.fullmatch(before) or called)
            or _TOOL_LIST.search(before)
            or _LIST_GOES_ON.match(text, close + 1)
        ):
            continue
        offset = bare.start(2)
        param = RawParam("subagent_type", bare.group(2), ValueKind.LITERAL, offset, offset)
        # (or the step an arrow leads to: "Complex analysis → Task(Explore): trace UI→API→DB")
        definite = (called or _ARROW_BEFORE.search(before) is not None) and _BUILTIN.fullmatch(
            bare.group(2)
        ) is not None
        found.append((Match(m.start(), close + 1, m.group(1), (param,)), definite))
    return found


# `<Task agent="architect">` … `</Task>`: the call written as a tag, its arguments attributes (the
# agent by `agent` or `subagent_type`), its prompt the lines up to the closing tag
_TAG = lazy.compile(rf"<(Agent|Task)((?:\s+{syntax.TAG_ATTRIBUTE})+)\s*/?>")
_ATTRIBUTE = lazy.compile(syntax.TAG_ATTRIBUTE)
_TAG_KEYS = {"agent": "subagent_type"}


def tag_calls(text: str) -> list[Match]:
    """`<Task agent="architect">`: a spawn written as a tag, with the agent or a teammate's keys."""
    found: list[Match] = []
    for m in _TAG.finditer(text):
        params = []
        for a in _ATTRIBUTE.finditer(text, m.start(2), m.end(2)):
            key = _TAG_KEYS.get(a.group(1), a.group(1))
            value, kind = syntax.classify(a.group(2))
            params.append(RawParam(key, value, kind, a.start(1), a.start(2)))
        keys = {p.key for p in params}
        if keys <= PARAM_KEYS and ("subagent_type" in keys or _teammate(params)):
            found.append(Match(m.start(), m.end(), m.group(1), tuple(params)))
    return found


def _has_callee(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _CALLEE_ANYWHERE.search(text) is not None or _TAG.search(text) is not None


TRIGGER = Trigger(vocabulary.SPAWN_TOOLS, _has_callee, any_case=False)


def _calls(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    lines: set[int] = set()
    spans: dict[int, tuple[tuple[int, int], ...]] = {}
    for block in doc.blocks(TRIGGER):
        text = doc.text(block)
        index = LineIndex(text, block.start)
        matches = find_calls(text)
        for m in matches:
            first, column = index.position(m.start)
            last, _ = index.position(m.end - 1)
            lines.update(range(first, last + 1))
            sites.append(RawSite(Form.F1, first, column, m.tool, syntax.params_at(m.params, index), block))
        for m in tag_calls(text):
            first, column = index.position(m.start)
            lines.add(first)
            sites.append(RawSite(Form.F1, first, column, m.tool, syntax.params_at(m.params, index), block))
        for m, definite in bare_calls(text, matches):
            first, column = index.position(m.start)
            params = syntax.params_at(m.params, index)
            sites.append(RawSite(Form.F1, first, column, m.tool, params, block, candidate=not definite))
        if matches:
            spans[block.start] = tuple((m.start, m.end) for m in matches)
    sites.extend(_tag_sites(doc))
    return Found(tuple(sites), frozenset(lines), spans)


def _tag_sites(doc: Doc) -> list[RawSite]:
    """The calls written as tags. Their lines are no block's: the markdown reader takes a tag on
    its own line for the wrapper of a prompt and reads only the lines inside it."""
    tagged = [i for i, line in enumerate(doc.lines) if "<Task" in line or "<Agent" in line]
    if not tagged:
        return []
    covered = {j for b in doc.structure.blocks for j in range(b.start, b.end)}
    sites = []
    for i in tagged:
        line = doc.lines[i]
        if i in covered:
            continue  # a block's: read with it (a fence, a paragraph)
        block = Block("html", i, i + 1, None)
        index = LineIndex(line, i)
        for m in tag_calls(line):
            _, column = index.position(m.start)
            sites.append(RawSite(Form.F1, i, column, m.tool, syntax.params_at(m.params, index), block))
    return sites


CALLS = Pass("calls", (Form.F1,), TRIGGER, _calls)

# The examples are spawn text on purpose, and spawnlint reads its own source:
# their targets (`shop:critic`) are no agents of this repository.
# spawnlint: ignore-file[SL301,SL102]
EXAMPLES = FormExamples(
    Form.F1,
    valid=(
        'Agent(subagent_type: "shop:critic", name: "c1", prompt: "Review the plan.")',
        'Task(subagent_type="general-purpose", description="Research", prompt="Find the bug")',
        '```\n1. Lead: Task(team_name="review-team", name="lead") → checks the config\n```',  # a teammate
        'Task(name="auditor", ...)',
        'Task(run_in_background=true) — "run the tests"',  # the Agent tool's own key
        'result = Task(description="Analyze the core module", prompt="Map its imports.")',  # a call made
        'result = Agent(subagent_type="shop:critic", prompt="Review the plan.")',
        'For each module, in parallel,\nAgent(description="Review", prompt="Review the module.")',
        "**If the user says yes:**\n\n```\nTask(Explore):\n  Explore the code for the topic.\n```",
        '<Task agent="architect">\nContext: the session notes\n</Task>',  # a call written as a tag
        'Then plan it: <Task agent="architect">Read the notes.</Task>',  # a tag inside a paragraph
        # the prompt the only argument, an agent's id before a colon where one leads it
        '```text\nTask("Fix the failures of parser.test.ts")\nTask("Fix the failures of lexer.test.ts")\n```',
        'Task("shop:critic: Review the diff for injection risks")',
        "```\nTask(shop:critic):\n\nReview the following changes.\n```",  # its prompt past a blank line
        "- Deep dive → Task(Explore): map the call chain from the button to the table",  # a step's tool
    ),
    invalid=(
        'new Agent({name: "x", instructions: "y"})',
        'Task(description="Write the report", expected_output="A summary")',  # another framework
        '| `.claude/worktrees/` | checkouts made by `Agent(isolation: "worktree")` |',  # named
        "The Agent (see below) decides.",
        "This command pre-approves `Agent(critic)` and `Task(Explore)` so other commands need no prompt.",
        "Task(Setup):\n  Install the dependencies.",  # a work item, not an agent
        # another framework's agents, built and kept
        'specialist = Agent(name="specialist", ...)',
        'team = [\n    Agent(name="finance", description="Finance", ...),\n    Agent(name="legal", ...),\n]',
        'Agent(name="triage", instructions="Route the ticket.", handoffs=[billing])',
        '<Task id="t1" status="open">Write the report</Task>',  # a task of a plan, as markup
        "**Always deny:**\n\n- `Agent(Plan)`: blocks the built-in Plan subagent.",  # a permission
        'job = Task("Process the whole queue")',  # another API's object, kept
        "Orchestrators spawn `Agent(Explore)` before calling this skill.",  # what another does
    ),
)


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    """A keyword of a call (`removal.written`), or an attribute of a call written as a tag."""
    line = lines[param.line - 1] if 1 <= param.line <= len(lines) else ""
    if _TAG.search(line) and line.rfind("<", 0, param.column) > line.rfind(">", 0, param.column):
        return removal.tag_attribute(param, path, lines)
    return removal.written(param, path, lines, gone)


SPEC = FormSpec(Form.F1, TRIGGER, _remove, (EXAMPLES,))
