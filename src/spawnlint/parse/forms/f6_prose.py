"""F6: a sentence whose spawn verb governs an agent — `Launch the **security-auditor** agent.`,
``Spawn `shop:critic`.``, "Delegate the migration to the db-migrator agent.", "Launch two parallel
agents." — in English here, in other languages in languages.py. A medium-confidence site."""

from __future__ import annotations

import re

from spawnlint.model import Edit, Form, Param
from spawnlint.parse.forms import languages, removal, vocabulary
from spawnlint.parse.forms.prose import (
    COMPOUND_HEAD,
    CORE_NOUN,
    IMPERATIVE_ONLY,
    NEGATION,
    STRONG_VERBS,
    VERB_RE,
    VERB_TRIGGER,
    ProseSpawn,
    governed,
    is_instruction,
    references,
    teammate_names,
    verb_in,
)
from spawnlint.parse.forms.spec import FormSpec
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, either
from spawnlint.parse.text import FormExamples

# "launch 5 parallel agents", "use a Haiku agent"; not "the agent template", "an Agent SDK app".
_GENERIC = re.compile(
    r"^\s*(?:\S+\s+){0,3}?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+\+?"
    r"(?:\s*[-–]\s*\d+)?|several|multiple|parallel|new|fresh|separate|dedicated|additional|another|both|all|these"
    r"|specialized|specialised|specialist|independent|individual|background)"
    # the words before "agents" describe them: "both users and agents" joins a second noun
    rf"\s+(?:(?!(?:and|or|nor)\s)[\w*-]+\s+){{0,3}}?{CORE_NOUN}\b" + COMPOUND_HEAD,
    re.IGNORECASE,
)
_AS_SUBAGENTS = re.compile(
    r"\bas\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?"
    + vocabulary.alternation(vocabulary.SPAWNED_NOUNS, plural=True)
    + r"\b",
    re.IGNORECASE,
)
# After a strong verb, agents with any words that describe them, or none: "spawn subagents in
# order", "Dispatch specialized agents", "Launch the reviewers concurrently", "delegate to
# sub-agents", "Spawn the appropriate fully qualified subagent".
_DESCRIBED = re.compile(
    r"^\s*(?:(?!(?:and|or|nor|than|as|like|of|from|if|when)\s)[\w*`-]+\s+){0,4}?"
    rf"(?:{CORE_NOUN}|(?:reviewer|critic)s)\b" + COMPOUND_HEAD,
    re.IGNORECASE,
)
# After any verb, spawned agents (sub-agents, teammates) with a few words or none: "Use subagents
# for the extraction", "run them as background teammates".
# (Not "the teammate", an agent already there, nor "use to ensure subagent ...".)
_SPAWNED = re.compile(
    r"^\s*(?:(?!(?:and|or|nor|than|as|like|of|from|if|when|to|the|this|that|these|those|your|its|their)\s)"
    r"[\w*`-]+\s+){0,3}?"
    + vocabulary.alternation(vocabulary.SPAWNED_NOUNS, plural=True)
    + r"\b"
    + COMPOUND_HEAD,
    re.IGNORECASE,
)
# "a new Claude Code agent in a separate terminal", "Codex CLI agents": another harness's
# process, not a subagent of this session
_HARNESS = re.compile(
    r"\b(?:claude\s+code|codex|gemini|cursor|opencode|copilot|cli|terminal|process)\b", re.IGNORECASE
)
_SELF = re.compile(r"\b(?:this|that|the\s+same|each|which|whose)\s+(?:sub-?)?agent\b", re.IGNORECASE)


def sentence_spawns(text: str) -> list[ProseSpawn]:
    """The spawns of an English sentence: the agents its first governing verb names, a generic
    "two parallel agents", or "dispatch them as sub-agents"."""
    verbs = [v for v in VERB_RE.finditer(text) if is_instruction(text, v)]
    for i, verb in enumerate(verbs):
        word = verb.group(0).lower().split()[0]
        if word in IMPERATIVE_ONLY and text[: verb.start()].strip(" *-#>0123456789.)"):
            continue
        end = verbs[i + 1].start() if i + 1 < len(verbs) else len(text)
        rest = text[verb.end() : min(end, verb.end() + 240)]
        refs = references(rest, verb.end(), strong=word in STRONG_VERBS)
        if refs:
            names = teammate_names(text, verb.end())
            if len(refs) == 1 and names:
                target, at = refs[0]
                return [ProseSpawn(Form.F6, verb.start(), target, at, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start(), n, o, None, 0) for n, o in refs]
        clause = re.split(r"[.;:!?]\s", rest[:160], maxsplit=1)[0]
        if word in STRONG_VERBS and _AS_SUBAGENTS.search(clause):
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]  # "dispatch them as sub-agents"
        generic = _GENERIC.search(clause)
        if generic and not governed(
            clause[: generic.start()] + " ".join(clause[generic.start() : generic.end()].split()[:-1])
        ):
            generic = None  # "run as a main-session agent" describes, it does not spawn
        if generic is None and word not in ("call", "send", "create", "form"):
            generic = (_DESCRIBED if word in STRONG_VERBS else _SPAWNED).search(clause)
            if generic and not governed(clause[: generic.start()] + generic.group(0).rsplit(None, 1)[0]):
                generic = None
        if generic and _HARNESS.search(generic.group(0)):
            generic = None  # "Spawn a new Claude Code agent in a separate terminal window"
        if (
            generic
            and not _SELF.search(rest[: generic.end()])
            and word not in ("call", "send", "create", "form")
        ):
            names = teammate_names(text, verb.end())  # "Spawn a teammate named 'coder-1'"
            if names:
                return [ProseSpawn(Form.F6, verb.start(), None, 0, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
    return _by_the_tool(text, verbs)


# The Agent/Task tool as the instrument or the object of a verb, with no agent named: "use the
# Task tool for the audit", "start several sub-agents at once with the Task tool", "make a single
# Task call with the prompt below", "send it to the chosen agent via the Agent tool".
_THE_TOOL = r"(?:the\s+)?(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?\s+tool\b(?!\s*'s)"
_TOOL_OBJECT = re.compile(rf"\s*{_THE_TOOL}", re.IGNORECASE)
_TOOL_INSTRUMENT = re.compile(rf"\b(?:via|with|using|through)\s+{_THE_TOOL}", re.IGNORECASE)
_TOOL_CALLS = re.compile(
    r"\b(?:a|an|one|single|multiple|several|parallel|separate|two|three|four|five|\d+)\s+(?:parallel\s+)?"
    r"(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?(?:\s+tool)?\s+(?:calls?|invocations?)\b"
)


def _by_the_tool(text: str, verbs: list[re.Match[str]]) -> list[ProseSpawn]:
    for verb in verbs:
        word = verb.group(0).lower().split()[0]
        if word in IMPERATIVE_ONLY and text[: verb.start()].strip(" *-#>0123456789.)"):
            continue
        if word in ("use", "call", "invoke") and _TOOL_OBJECT.match(text, verb.end()):
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
        clause = re.split(r"[.;!?]\s", text[verb.end() : verb.end() + 200], maxsplit=1)[0]
        if _TOOL_INSTRUMENT.search(clause) or _TOOL_CALLS.search(clause):
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
    calls = _TOOL_CALLS.search(text)  # "Make a single Task call", "one Agent call per file"
    if calls and not NEGATION.search(text[max(0, calls.start() - 160) : calls.start()]):
        return [ProseSpawn(Form.F6, calls.start(), None, 0, None, 0)]
    return []


_USE_THE_TOOL = re.compile(rf"\b(?:use|call|invoke)\s+{_THE_TOOL}", re.IGNORECASE)


def _verb_or_tool(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A spawn verb with its agents (prose.VERB_TRIGGER), or the tool as `_by_the_tool` reads
    it: the object of use/call/invoke, an instrument after a verb, or counted calls."""
    if VERB_TRIGGER.test is not None and VERB_TRIGGER.test(text, low, paragraphs):
        return True
    if _USE_THE_TOOL.search(text) or _TOOL_CALLS.search(text):
        return True
    for m in _TOOL_INSTRUMENT.finditer(text):
        if verb_in(text, max(paragraphs.around(m.start())[0], m.start() - 200), m.start()):
            return True
    return False


TRIGGER = Trigger((*VERB_TRIGGER.probes, "agent", "task"), _verb_or_tool)


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    return removal.prose_name(param, path, lines)


# The examples are spawn text on purpose, and spawnlint reads its own source.
EXAMPLES = FormExamples(
    Form.F6,
    valid=(
        "Launch the **security-auditor** agent.",
        "Spawn `shop:critic`.",
        'Launch the code-checker agent named "c1" to review.',
        "Dispatch `codebase-recon` via the Agent tool.",
        "Delegate the migration to the **db-migrator** agent.",
        "Invoke the `plan-checker` agent on the draft.",
        "Kick off the **test-runner** agent.",
        "Have the **code-reviewer** agent check it.",
        "Use the **docs-writer** critic for the prose.",
        "Launch two parallel agents, one per module.",
        "Spawn subagents in topological order.",
        "Dispatch specialized agents where useful.",
        "Use subagents for the extraction.",
        "Delegate the work to sub-agents and merge what they find.",
        "Hand off to the `test-generator` agent.",
        "Fan out **`rot-scout`** agents, one per area.",
        "Use specialized read-only agents (`nihil:duplication-hunter`, `nihil:dead-code`).",
        "Always consult the $GUIDE_AGENT subagent first.",
        "Use the Task tool for the audit.",
        "Start several sub-agents at once with the Task tool.",
        "Make a single Task call with the prompt below.",
        "Send it to the chosen agent via the Agent tool.",
        "Invoke the lz-advisor:advisor agent via the Agent tool.",
    ),
    invalid=(
        "Do not spawn the **security-auditor** agent.",
        "Run the critical path analysis on the build.",
        "Run the same check as the **linter** agent.",
        "You have two agents in this repository.",
        "Last night's run produced three reports.",
        "Do it yourself — this is no job for a subagent.",
        "See the `agent-shell` commands for details.",
        "The minutes are kept by the scribe (the `scribe` teammate).",
        "Do not use the Task tool.",
        "The Task tool returns a result.",
        "Use agents wisely.",
        "For complex issues, suggest running `/cloud:diagnose` to launch the diagnostician agent.",
        "- `/cloud:diagnose` — Launch the diagnostic subagent for troubleshooting.",
        "Use `lazyItems.itemKey` and `lazyItems.itemContentType` helpers.",
        "Spawn a new Claude Code agent in a separate terminal window.",
        "Failed to spawn workers:",
        "- `Task` - Launch other agents",
        "Use this contract when an agent-facing helper script returns more than one field.",
        "Claude uses Task tool to launch agent.",
        "Users can invoke agents manually.",
        "Have the teammate re-enter plan mode.",
        '- label: "Delegate to subagent"',
        "Use the literal `sg -p` patterns and do **not** fan out agents just to run them.",
        "Use `git-coworker-check` to detect concurrent agents in the same checkout.",
        "Check if `/delegate` references agents that don't exist.",
        "End with a pointer to the 'When to invoke' section in the agent body.",
        "Use to ensure subagent completed its task.",
    ),
)

SPEC = FormSpec(
    Form.F6,
    either(TRIGGER, languages.TRIGGER),
    _remove,
    (EXAMPLES, *languages.EXAMPLES),
    has_syntax=False,
)
