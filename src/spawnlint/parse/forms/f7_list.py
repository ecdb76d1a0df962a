"""F7: one spawn per bullet or table row — a spawn sentence, then one bullet per agent (`Spawn
three subagents in parallel:` + `- **legacy-analyst** — ...`), or a table with a `subagent_type`
column. Sites of bullets carry medium confidence; table rows (and F4 bullets that each give a
`subagent_type`, read in f4_param_bullets.py) high."""

from __future__ import annotations

import re
from bisect import bisect_right

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, Sentence, ValueKind
from spawnlint.parse.forms import f8_team, languages, removal
from spawnlint.parse.forms.f5_inline import sentence_params
from spawnlint.parse.forms.prose import (
    AGENT_NOUN,
    GROUP_NOUN,
    VERB_RE,
    VERB_TRIGGER,
    bullet_reference,
    is_instruction,
    strong_verb,
)
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import as_written, classify, is_absent
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, either
from spawnlint.parse.text import CODE_SPAN, Block, FormExamples, RawSite

_NAMED_NOT_AN_AGENT = lazy.compile(
    r"\s+(?:the\s+)?(?:\*\*)?`[^`\n]+`(?:\*\*)?\s+(?:skill|command|subcommand|script|tool|cli|workflow|hook|mcp)s?\b"
    # "invoke `docs:micro` with:": one target named, and the list is what it is given
    r"|\s+(?:the\s+)?(?:\*\*)?`[^`\n]+`(?:\*\*)?(?:\s+(?:sub-?)?agent)?\s+with\b[^.;:\n]{0,40}:\s*$"
    # "Invoke Monitor tool with all 4 required params:": another tool, the list its parameters
    r"|\s+(?:the\s+)?(?:\*\*)?(?-i:(?!(?:Agent|Task)\b)[A-Z][\w-]*)(?:\*\*)?\s+tool\b",
    re.IGNORECASE,
)


# "the Skill tool", "the **Skill** tool", "`Skill` tool", "Skill(…)"
_THE_SKILL_TOOL = lazy.compile(r"\b(?:the\s+)?(?:\*\*|`)?Skill(?:\*\*|`)?\s+tool\b|\bSkill\(")


def spawn_lead(text: str) -> str | None:
    """How strongly a sentence introduces a list of agents to spawn: "strong" (`Spawn three
    subagents in parallel:`, `Launch in parallel:`), "weak" (`Run these agents:`) or None."""
    for verb in VERB_RE.finditer(text):
        if not is_instruction(text, verb):
            continue
        after = text[verb.end() :]
        if re.match(r"\s+(?:whenever|when|if|after|before|once|while|unless|on)\b", after, re.IGNORECASE):
            continue  # "Invoke whenever:" lists occasions, not agents
        if _NAMED_NOT_AN_AGENT.match(after) or _THE_SKILL_TOOL.search(text):
            # "Invoke the `jtbd` skill with this context:" lists its inputs; "using the Skill tool:", skills
            continue
        agents = re.search(rf"{AGENT_NOUN}|\b{GROUP_NOUN}\b", after, re.IGNORECASE)
        if strong_verb(verb.group(0)) and (agents or text.rstrip().endswith(":")):
            return "strong"
        if agents and re.match(rf"^\s*(?:[\w*`-]+\s+){{0,4}}?{AGENT_NOUN}\b", after, re.IGNORECASE):
            return "weak"
    return "strong" if languages.foreign_lead(text) else None


def list_spawns(
    lines: list[str],
    sentence: Sentence,
    lead: Block,
    items: tuple[tuple[int, int], ...],
    claimed: frozenset[int],
) -> list[RawSite]:
    """`Spawn three subagents:` and one bullet per agent: a site per bullet that names one. A lead
    that builds a team is F8's."""
    text = sentence.text
    if f8_team.team_verb(text) is not None:
        return []
    strength = spawn_lead(text)
    if strength is None:
        return []
    if 2 * sum(bool(_SLASH_COMMAND.search(lines[a])) for a, _end in items) >= len(items):
        return []  # "dispatch as follows:" and "- **init** → Run `/jira:init`": a router to commands
    sites = []
    for a, _end in items:
        if _COMMAND_LINE_ITEM.match(lines[a]):
            continue
        ref = bullet_reference(lines[a], strong_lead=strength == "strong")
        if ref is not None and a not in claimed:
            name, at = ref
            value, kind = classify(name)
            target = Param("subagent_type", value, as_written(kind), a, at + 1, a, at + 1)
            # "... — each with `name: "track-N"`": a name given in the agent's own bullet
            given = [p for p in sentence_params(Sentence(a + 1, a + 1, 1, lines[a])) if p.key == "name"]
            given = given or _quoted_bullet_name(lines[a], a)
            sites.append(RawSite(Form.F7, a, at + 1, None, (target, *given), lead, "medium"))
    return sites


_SLASH_COMMAND = lazy.compile(r"`/[a-z][\w-]*(?::[\w-]+)?(?:\s[^`\n]*)?`")


# "- bootstrap: `baseline-manager.sh --bootstrap --registry <reg>`": a variant of a command line,
# labelled (the lead "invoke it without `--confirmed`:" runs a program)
_COMMAND_LINE_ITEM = lazy.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*)?[\w-]+(?:\*\*)?\s*:\s*"
    r"`[^`\n]*?(?:\.(?:sh|py|js|mjs|ts|rb|ps1)\b|\s--?[a-z])[^`\n]*`"
)


LIST_TRIGGER = either(VERB_TRIGGER, languages.TRIGGER)


# Agents named as the steps of a pipeline under a heading that says to run them: "## Phase 2 — Run
# subagents in order", then "**Step 1: requirement-analyst → docs/requirements.md**". Candidates:
# a step spawns where its name is an agent of the project.
_STEP = lazy.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(?:(?:step|phase|stage)\s*\d+[a-z]?\s*[:.—–-]\s*)?"
    r"(?:\*\*|__)?(?P<mark>`?)(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][\w-]*:[a-z][\w-]*|(?<=`)[a-z][\w-]*(?=`))(?P=mark)"
    r"(?:\*\*|__)?\s*(?:→|->|:|—|–|\(|$|\*\*)",
    re.IGNORECASE,
)


def _steps(doc: Doc, claims: Claims) -> Found:
    lines = doc.lines
    sites: list[RawSite] = []
    heads = doc.structure.headings
    ordered = sorted(doc.structure.blocks, key=lambda b: b.start)
    starts = [b.start for b in ordered]
    for k, (line, level, text) in enumerate(heads):
        if spawn_lead(text) is None:
            continue
        end = next((h for h, lv, _ in heads[k + 1 :] if lv <= level), len(lines))
        for j in range(line + 1, end):
            m = _STEP.match(lines[j]) if j not in claims.lines else None
            at = bisect_right(starts, j) - 1
            if m is None or at < 0 or not ordered[at].start <= j < ordered[at].end:
                continue
            column = m.start("name") + 1
            param = Param("subagent_type", m.group("name"), ValueKind.LITERAL, j, column, j, column)
            sites.append(RawSite(Form.F7, j, column, None, (param,), ordered[at], "medium", candidate=True))
    return Found(tuple(sites))


STEPS = Pass("pipeline steps", (Form.F7,), VERB_TRIGGER, _steps)


# `` `shop:critic` (name: "critic-a") ``, `` `shop:critic`, name: 'critic-b' ``: a quoted name after a
# parenthesis or a comma of the agent's own bullet; "your name: x" in a prompt is not one.
_BULLET_NAME = lazy.compile(r"(?:\(|,)\s*name\s*[:=]\s*(?P<q>[\"'])(?P<value>[^\"'\n]+)(?P=q)")


def _quoted_bullet_name(line: str, at: int) -> list[Param]:
    m = _BULLET_NAME.search(line)
    if m is None or is_absent(m.group("value")):
        return []
    key_column = line.index("name", m.start()) + 1
    value, kind = classify(m.group("value"))
    return [Param("name", value, as_written(kind), at, key_column, at, m.start("value") + 1)]


_KIND_HEADERS = ("subagent_type", "subagent type")


def _has_type_column(text: str, low: str, paragraphs: Paragraphs) -> bool:
    if "|" not in text or "type" not in low:
        return False
    cells = low.replace("`", "").replace("*", "")
    return any(header in cells for header in _KIND_HEADERS)


TABLE_TRIGGER = Trigger(("type",), _has_type_column, words=("agent",))  # subagent_type, subagent type


def _tables(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    claimed: set[int] = set()
    for block in doc.blocks(TABLE_TRIGGER, ("paragraph",)):
        found, rows = _table_sites(doc.lines, block, claims.lines | claimed)
        sites.extend(found)
        claimed.update(rows)
    return Found(tuple(sites), frozenset(claimed))


def _cells(line: str) -> list[tuple[str, int]]:
    """The cells of a table row with the 0-based column where each starts."""
    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
    return [(line[a + 1 : b], a + 1) for a, b in zip(bars, bars[1:], strict=False)]


def _table_sites(
    lines: list[str], block: Block, claimed: frozenset[int] | set[int]
) -> tuple[list[RawSite], list[int]]:
    """F7 as a table: a `subagent_type` column (and usually a name column), one spawn per row;
    and the rows it claims."""
    rows = [
        j for j in range(block.start, block.end) if lines[j].lstrip().startswith("|") and j not in claimed
    ]
    if len(rows) < 3 or not re.fullmatch(r"[\s|:-]+", lines[rows[1]]):
        return [], []
    header = [re.sub(r"[`*]", "", c).strip().lower() for c, _ in _cells(lines[rows[0]])]
    kind_col = next((i for i, h in enumerate(header) if h in _KIND_HEADERS), None)
    name_col = next(
        (i for i, h in enumerate(header) if h in ("name", "teammate", "member", "teammate name")), None
    )
    if name_col is not None and header[name_col] == "name" and any(h in _ROW_LABELS for h in header):
        name_col = None  # "| Phase | Name | subagent_type |": the name of the phase, not of a spawn
    if kind_col is None:
        return [], []
    sites = []
    for j in rows[2:]:
        cells = _cells(lines[j])
        params = [
            p
            for col, key in ((kind_col, "subagent_type"), (name_col, "name"))
            if (p := _cell_param(cells, col, key, j))
        ]
        if any(p.key == "subagent_type" for p in params):
            column = len(lines[j]) - len(lines[j].lstrip()) + 1
            sites.append(RawSite(Form.F7, j, column, None, tuple(params), block))
    return sites, (rows if sites else [])


# Columns that make the rows steps of a procedure, each with its own title in a Name column
_ROW_LABELS = frozenset({"phase", "step", "stage", "#", "no.", "order"})


def _cell_param(cells: list[tuple[str, int]], col: int | None, key: str, line: int) -> Param | None:
    if col is None or col >= len(cells):
        return None
    text, start = cells[col]
    span = CODE_SPAN.search(text)
    raw, at = (
        (span.group(1), start + span.start(1))
        if span
        else (text.strip(), start + len(text) - len(text.lstrip()))
    )
    if not raw or is_absent(raw):
        return None
    value, kind = classify(raw)
    return Param(key, value, as_written(kind), line, at + 1, line, at + 1)


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    """A quoted name in the agent's bullet (`` (name: "a") ``), or a `` `name: x` `` code span of
    its own."""
    if param.key == "name":
        quoted = removal.bullet_name(param, path, lines)
        if quoted:
            return quoted
    if not removal.on_its_line(param, lines):
        return ()
    return removal.key_value(param, path, lines, gone, code_span="closed", alone=False)


TABLES = Pass("tables", (Form.F7,), TABLE_TRIGGER, _tables)

EXAMPLES = FormExamples(
    Form.F7,
    valid=(
        "Spawn these agents in parallel:\n\n- **security-auditor**\n- **code-reviewer**\n",
        "Dispatch with the Agent tool:\n\n- **security-auditor**\n- **code-reviewer**\n",
        "以下の専門エージェントを並行または順次実行してレビューを収集：\n\n"
        "- @agent-review-srp-reviewer による評価\n- @agent-review-kiss-reviewer による評価\n",
    ),
    invalid=(
        "Invoke it without `--confirmed`:\n\n- bootstrap: `manager.sh --bootstrap --registry <reg>`\n"
        "- update: `manager.sh --update --registry <reg>`",
        "Read these files:\n\n- **security-auditor**\n- **code-reviewer**\n",
        "以下のエージェントは実行しない：\n\n- @agent-review-srp-reviewer\n",
        "Invoke the `docs:summarise` skill with this context:\n\n- `ticket_id`: the ticket\n- `pr`: the PR\n",
        "Invoke the matching skill using the Skill tool:\n\n"
        "- `story` → `docs:plan-story`\n- `arc` → `docs:plan-arc`\n",
        "When the user picks one, invoke `docs:micro` with:\n\n"
        "- `topic` = the node's label\n- `level` = its level\n",
        "Invoke Monitor tool with all 4 required params:\n\n"
        "- `command`: the constructed command\n- `persistent`: true\n",  # another tool's parameters
        # 起動 is Japanese's own verb, negated; Chinese 起 ("start one") does not stand in it
        "所見を1件ずつ直す（専用の fixer Agent は起動しない）:\n\n1. `confirmed_fix` の所見を直す\n",
        "Based on the first word, dispatch as follows:\n\n- **init** → Run `/shop:init`\n"
        "- **start** → Run `/shop:start` with the rest\n- **help** or empty → Show the subcommands\n",
        "Delegate to `/setup-issue` via the **Skill** tool with a self-contained prompt:\n\n"
        "- **title** — the issue's title\n- **body** — the learning text\n",  # a skill's inputs
    ),
)

SPEC = FormSpec(Form.F7, either(LIST_TRIGGER, TABLE_TRIGGER), _remove, (EXAMPLES,))
