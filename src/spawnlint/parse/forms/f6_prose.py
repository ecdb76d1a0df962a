"""F6: a sentence whose spawn verb governs an agent — `Launch the **security-auditor** agent.`,
``Spawn `shop:critic`.``, "Delegate the migration to the db-migrator agent.", "Launch two parallel
agents." — in English here, in other languages in languages.py. A medium-confidence site."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, ValueKind
from spawnlint.parse.forms import languages, removal, vocabulary
from spawnlint.parse.forms.counter_examples import opens_a_document
from spawnlint.parse.forms.prose import (
    BUILTINS,
    COMPOUND_HEAD,
    CORE_NOUN,
    FLAG,
    ID_NAME,
    IMPERATIVE_ONLY,
    NEGATION,
    NOT_AN_AGENT,
    NOT_AN_AGENT_AFTER,
    STRONG_VERBS,
    VERB_RE,
    VERB_TRIGGER,
    WRAPPED_ASIDE,
    ProseSpawn,
    code_like,
    governed,
    id_after_verb,
    is_instruction,
    names_the_tool,
    references,
    strong_verb,
    teammate_names,
    verb_in,
)
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, either
from spawnlint.parse.text import LIST_ITEM, FormExamples, RawSite

# "launch 5 parallel agents", "use a Haiku agent"; not "the agent template", "an Agent SDK app".
_GENERIC = lazy.compile(
    # (no word of a clause of its own before them: "Use this skill when an upstream agent exits")
    # (nor "against" or "about": "Run this audit against all plugin agents" names what it checks)
    # (nor "by": "run by an agent" names who runs it, a passive)
    r"^\s*(?:(?!(?:not|no|never|without|when|whenever|if|once|while|after|before|until|unless|against|about|by)\s)"
    r"\S+\s+){0,3}?"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+\+?"
    r"(?:\s*[-–]\s*\d+)?|several|multiple|parallel|new|fresh|separate|dedicated|additional|another|both|all|these"
    r"|specialized|specialised|specialist|independent|individual|background)"
    # the words before "agents" describe them: "both users and agents" joins a second noun, and a
    # relative clause ends the object ("launches an interactive TUI that agents cannot operate"); a
    # slash joins two words of one: "a research/exploration agent"
    # (the noun may be the tool's name in a code span: "Spawn a background `Agent` named `x`", not
    # its call, "Spawn one `Agent("agents/x.md")`", F1's; a word may be a command's: "spin up a
    # `/research` subagent")
    rf"\s+(?:(?!(?:and|or|nor|that|which|who|where)\s)`?/?[\w*`-]+(?:/[\w-]+)?\s+){{0,3}}?`?{CORE_NOUN}\b(?!\()`?"
    + COMPOUND_HEAD,
    re.IGNORECASE,
)
# After a strong verb, one agent by its role: "launch a fresh implementer", "dispatch a verifier",
# or several: "Dispatch the auditors"
_A_ROLE = lazy.compile(
    r"^\s*(?:(?:a|an|one|two|three|four|five|\d+|fresh|new|separate|dedicated|independent)\s+"
    r"(?:(?!(?:and|or|of|for|to)\s)[\w-]+\s+){0,2}?"
    + vocabulary.alternation(vocabulary.SPAWNED_ROLES, plural=True)
    + r"|the\s+(?:(?!(?:and|or|of|for|to)\s)[\w-]+\s+){0,2}?"
    + vocabulary.alternation(vocabulary.SPAWNED_ROLES)
    + r"s)\b"
    + COMPOUND_HEAD,
    re.IGNORECASE,
)
# After a strong verb, the Task tool's calls by its noun (vocabulary.SPAWNED_TASKS, TASK_WORDS)
_TASK_WORD = rf"(?:{vocabulary.alternation(vocabulary.TASK_WORDS)}|\d+)\s+"
_SUBTASKS = lazy.compile(
    rf"^\s*(?:{_TASK_WORD}){{0,3}}{vocabulary.alternation(vocabulary.SPAWNED_TASKS, plural=True)}\b(?!-)",
    re.IGNORECASE,
)
# (one word besides an article at least: "spawn a task that re-reports the time" is a runtime's)
_TASKS = lazy.compile(
    rf"^\s*(?:(?:a|an|the)\s+)?(?!(?:a|an|the)\s)(?:{_TASK_WORD}){{1,3}}tasks?\b(?![-.(])", re.IGNORECASE
)
# "If the host supports subagents, launch one": a sub-agent by a pronoun
_ONE_OF_THEM = lazy.compile(
    rf"^\s*{vocabulary.alternation(vocabulary.SPAWNED_PRONOUNS)}\b(?!\s+(?:of|more|by|at|step|file))",
    re.IGNORECASE,
)
# Agents made to run now, not defined, as the other languages read them (vocabulary.Language's
# making_verbs): "create 3 new subagents that use the Task tool to build it in parallel" (not
# "create a new subagent in `.claude/agents/`")
_IN_PARALLEL = lazy.compile(r"\bin\s+parallel\b", re.IGNORECASE)
_SUBAGENT_NAMED = lazy.compile(r"\bsub-?agents?\b", re.IGNORECASE)
# "Dispatch an independent reviewer or subagent": a sub-agent as the other choice
_OR_A_SUBAGENT = lazy.compile(
    r"^\s*(?:a|an|one)\s+(?:[\w-]+\s+){1,3}?(?:or|and/or)\s+(?:a\s+|an\s+)?sub-?agents?\b" + COMPOUND_HEAD,
    re.IGNORECASE,
)
# (after a strong verb a sub-task is one too: "dispatch this as a subtask … saving your own context")
_AS_SUBAGENTS = lazy.compile(
    r"\bas\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?"
    + vocabulary.alternation((*vocabulary.SPAWNED_NOUNS, *vocabulary.SPAWNED_TASKS), plural=True)
    + r"\b",
    re.IGNORECASE,
)
# "dispatch plan and execute as background agents": agents of a kind that only a spawn makes
_AS_AGENTS = lazy.compile(
    r"\bas\s+(?:an?\s+)?(?:separate|parallel|background|independent|individual|concurrent|fresh)"
    rf"\s+{CORE_NOUN}\b" + COMPOUND_HEAD,
    re.IGNORECASE,
)
# After a strong verb, an agent by an id that ends in "agent": "Launch 1 web-search-agent"; not
# "start the ssh-agent" (vocabulary.OTHER_AGENTS)
_ID_AGENT = lazy.compile(
    r"^\s*(?:(?:a|an|one|the|\d+)\s+)?"
    rf"(?!{vocabulary.alternation(vocabulary.OTHER_AGENTS)}-)"
    r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:sub-?)?agents?\b(?![-\w])" + NOT_AN_AGENT_AFTER,
    re.IGNORECASE,
)
# "consult a registered tax agent": a person, or other software (vocabulary.OTHER_AGENTS)
_OTHER_AGENT = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.OTHER_AGENTS)}\s+{CORE_NOUN}\b", re.IGNORECASE
)
# After a strong verb, agents with any words that describe them, or none: "spawn subagents in
# order", "Dispatch specialized agents", "Launch the reviewers concurrently", "delegate to
# sub-agents", "Spawn the appropriate fully qualified subagent".
_DESCRIBED = lazy.compile(
    r"^\s*(?:(?:to\s+)?(?:the|a|an|all|any|each|both)\s+|to\s+)?"
    # (a relative clause ends the object: "Launch a discussion where specialist agents respond")
    r"(?:(?!(?:and|or|nor|than|as|like|of|from|if|when|where|which|who|to|the|a|an|this|that|its|their)\s)"
    # (an aside in parentheses counts as a word: "Delegate the analysis (power / stability) to subagents")
    rf"(?:[\w`-]+|{WRAPPED_ASIDE})\s+){{0,4}}?"
    r"(?:to\s+(?:(?:the|a|an)\s+)?)?"  # "Delegate the work to sub-agents"
    rf"\(?(?:{CORE_NOUN}|(?:reviewer|critic|worker)s)\b" + COMPOUND_HEAD,
    re.IGNORECASE,
)
# After any verb, spawned agents (sub-agents, teammates) with a few words or none: "Use subagents
# for the extraction", "run them as background teammates".
# (Not "the teammate", an agent already there, nor "use to ensure subagent ...".)
_SPAWNED = lazy.compile(
    # (but "the appropriate …": one chosen when it runs, "Utilize the appropriate GitHub sub-agent";
    # "the Task agent": the tool's)
    r"^\s*(?:the\s+(?:appropriate|relevant|right|matching|corresponding|suitable)\s+|the\s+(?=task\s+agents?\b))?"
    r"(?:(?!(?:and|or|nor|than|as|like|of|from|if|when|to|the|this|that|these|those|your|its|their)\s)"
    r"[\w*`-]+\s+){0,3}?"
    + vocabulary.alternation(vocabulary.SPAWNED_NOUNS, plural=True)
    + r"\b(?!['’])"  # "Use the Task agent's findings": what it has
    + COMPOUND_HEAD,
    re.IGNORECASE,
)
# "a new Claude Code agent in a separate terminal", "Codex CLI agents": another harness's
# process, not a subagent of this session
_HARNESS = lazy.compile(rf"\b{vocabulary.alternation(vocabulary.HARNESS_WORDS)}\b", re.IGNORECASE)
_FORK_SETTING = lazy.compile(r"`context:\s*[\"']?fork[\"']?`")
# "Spawns a fresh Subordinate Agent Claude Code session": the harness named right after the noun
# where an agent runs as a process of its own: "in an adjacent pane", "in a remote sandbox"
_IN_A_PROCESS = (
    r"\bin\s+(?:a|an|the|another|its\s+own)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:sandbox|pane|tab|window|terminal|tmux|container|vm)\b"
)
_HARNESS_NEXT = lazy.compile(
    rf"\s+{vocabulary.alternation(vocabulary.HARNESSES)}\b"
    # "Spawn a Claude agent in an adjacent pane": a process of its own
    rf"|\s+{_IN_A_PROCESS}"
    # "Use another agent as a tool": a framework's agent wrapped as a function tool
    r"|\s+as\s+(?:a|an)\s+(?:function\s+)?tool\b",
    re.IGNORECASE,
)
_HEADLESS = lazy.compile(r"\bheadless\b", re.IGNORECASE)
# ... after an agent named: "… to the `x` managed agent in a remote Gemini sandbox"
_ELSEWHERE = lazy.compile(_IN_A_PROCESS, re.IGNORECASE)
# "launch a background agent seeded with the summary: `claude --bg "<summary>"`": the agent is the
# command line the sentence gives, another process
_CLI_RUN = lazy.compile(rf"`{vocabulary.alternation(vocabulary.HARNESS_COMMANDS)}\s+[-\w\"']", re.IGNORECASE)
# "invoke `x`" with no agent word near runs a skill, a command or a CLI as often as an agent
# (the tool's names as written: "before marking each task done" names no agent)
# (not a word's tail: "load the key into gpg-agent", "the ssh-agent" are programs)
# (not what an agent has: "invoke `wiki-update` via the agent's native skill mechanism")
_AGENT_WORD = lazy.compile(rf"(?<![\w-])(?:(?i:{CORE_NOUN})\b|(?:Agent|Task)\b)(?!['’]s)")
_EMPHASIS = lazy.compile(r"\*\*|__")


_AGENT_LAST = lazy.compile(r"(?:^|[-:_])(?:sub-?)?agents?$", re.IGNORECASE)


def _agent_word_near(text: str, start: int, refs: list[tuple[str, int]]) -> bool:
    """Whether an agent word stands between the verb and 80 characters past its last object,
    or as a name's last word ("Invoke `shop:critic-agent`"; "Invoke
    `superpowers:subagent-driven-development`" names none)."""
    at = start
    for name, offset in sorted(refs, key=lambda r: r[1]):
        if _AGENT_WORD.search(text, at, offset) or _AGENT_LAST.search(name):
            return True
        at = max(at, offset + len(name))
    return _AGENT_WORD.search(text, at, refs[-1][1] + 80) is not None


# the agents after "for": whom the object is for ("Run this workflow for both agents")
_FOR_AGENTS = lazy.compile(
    r"\bfor\s+(?:a|an|one|both|all|each|every|these|those)\s+(?:[\w-]+\s+){0,2}?agents?\b", re.I
)
_SELF = lazy.compile(r"\b(?:this|that|the\s+same|each|which|whose)\s+(?:sub-?)?agent\b", re.IGNORECASE)


def sentence_spawns(text: str) -> list[ProseSpawn]:
    """The spawns of an English sentence: the agents its first governing verb names, a generic
    "two parallel agents", or "dispatch them as sub-agents"."""
    if _FORK_SETTING.search(text):
        return []  # "Run skills in isolated subagent with `context: fork`": the setting (F9), told of
    verbs = sorted(_instruction_verbs(text) + _describing_verbs(text))
    for i, verb in enumerate(verbs):
        word = verb.word
        if word in IMPERATIVE_ONLY and text[: verb.start].strip(" *-#>0123456789.)"):
            continue
        if word == "start" and text[verb.end :].lstrip().lower().startswith("with "):
            continue  # "Start with 3-5 teammates": begin with, a size to aim for
        if _by_code(text[: verb.start]):
            continue  # "Use an `AgentOrchestrator` to dispatch requests to agents": code the user writes
        end = verbs[i + 1].start if i + 1 < len(verbs) else len(text)
        rest = text[verb.end : min(end, verb.end + 240)]
        if word in _TO_AN_AGENT_WORDS and _TO_A_MODEL.match(rest) and not _handed_over(text, verb):
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]  # "Delegate the edits to Sonnet"
        refs = references(rest, verb.end, strong=verb.strong or names_the_tool(text))
        if not refs and word in _TO_AN_AGENT_WORDS and not _handed_over(text, verb):
            refs = _to_an_agent(rest, verb.end)  # (what is handed to `x` without its noun: a mention)
        by_id = not refs and word in _ID_PATTERNS and not verb.listed
        if by_id:  # "Run `content-strategist` to draft the brief": an agent only if the project has it
            # (read on past the next verb: the purpose's "to run" is one)
            refs = id_after_verb(text[verb.end : verb.end + 240], verb.end, _ID_PATTERNS[word])
            if refs and _IMAGINED.match(text, refs[0][1] + len(refs[0][0]) + 1):
                refs = []  # "Run `x-auditor` conceptually (or replicate its pipeline)": done here
        if refs and word in _TO_AN_AGENT_WORDS and refs[0][0].startswith("$"):
            # "Delegate `$ARGUMENTS` to the `x` agent": the variable is the work, the agent after "to"
            after = refs[0][1] + len(refs[0][0]) + 1
            refs = refs[1:] or (
                _to_an_agent(text[after : after + 240], after) if text[after:].startswith(" to ") else []
            )
        if refs and _HEADLESS.search(text, verb.end, refs[0][1]):
            continue  # "Spawn a headless worker (`builder` agent)": a `claude -p` process
        last = refs[-1][1] + len(refs[-1][0]) if refs else 0
        if refs and _ELSEWHERE.search(text, last, last + 80):
            continue  # "… to the `x` managed agent in a remote Gemini sandbox": a process elsewhere
        if refs:
            # (not after an id alone: "use `babel-plugin-import` to transform named imports")
            names = [] if by_id else teammate_names(text, verb.end)
            if len(refs) == 1 and names:
                target, at = refs[0]
                return [ProseSpawn(Form.F6, verb.start, target, at, n, o) for n, o in names]
            unsure = (word == "invoke" or by_id) and (
                word in vocabulary.PURPOSE_ID_VERBS or not _agent_word_near(text, verb.end, refs)
            )
            # (an agent in a variable is one after a verb of spawning; after "run" it is a program:
            # "re-run the `$CLI` resolution block")
            return [
                ProseSpawn(Form.F6, verb.start, n, o, None, 0, unsure and (n[:1] != "$" or by_id))
                for n, o in refs
            ]
        # the generic shapes read words, not their emphasis ("dispatch **one** subagent"); a verb
        # inside bold ends a label there ("**Agents to Invoke** - Other agents …")
        inside_bold = text.count("**", 0, verb.start) % 2 == 1
        plain = rest[:160] if inside_bold else _EMPHASIS.sub("", rest[:160])
        if inside_bold and _a_labels_noun(text, verb.start) and (label_end := _LABEL_END.search(plain)):
            plain = plain[: label_end.start()]  # "**Orchestrated run** — a parallel subagent cannot …"
        clause = re.split(r"[.;:!?]\s", plain, maxsplit=1)[0]
        if verb.strong and (_AS_SUBAGENTS.search(clause) or _AS_AGENTS.search(clause)):
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]  # "dispatch them as sub-agents"
        # a feature list names its agent: "- Delegates execution to a specific agent"; one that
        # names the tool or a sub-agent says what the unit does ("- Spawns Task agent per unit")
        general = not verb.listed or names_the_tool(clause) or _SUBAGENT_NAMED.search(clause) is not None
        generic = (_GENERIC.search(clause) or _OR_A_SUBAGENT.search(clause)) if general else None
        if generic is None and verb.strong and general:
            generic = _A_ROLE.search(clause) or _SUBTASKS.search(clause) or _ID_AGENT.search(clause)
        if generic is None and word == vocabulary.TASK_SPAWN_VERB and general:
            generic = _TASKS.search(clause)
        if generic is None and verb.strong and general:
            generic = _ONE_OF_THEM.search(clause) if _SUBAGENT_NAMED.search(text, 0, verb.start) else None
        if generic and not governed(
            clause[: generic.start()] + " ".join(clause[generic.start() : generic.end()].split()[:-1])
        ):
            generic = None  # "run as a main-session agent" describes, it does not spawn
        if generic and _FOR_AGENTS.search(generic.group(0)):
            generic = None  # "Run this workflow for BOTH agents": done for them, not by new ones
        if generic is None and word not in ("call", "send", "create", "form"):
            # what a unit says it does reads only the nouns a spawn makes ("- Spawns Task agent per
            # unit", not "- Delegates execution to a specific agent")
            generic = (_DESCRIBED if verb.strong and not verb.describing else _SPAWNED).search(clause)
            if generic and not governed(clause[: generic.start()] + generic.group(0).rsplit(None, 1)[0]):
                generic = None
        if generic and _handed_over(text, verb) and not _SUBAGENT_NAMED.search(generic.group(0)):
            generic = None  # "hand the lead to an agent": a role handed over; a sub-agent is started
        if generic and word == "hand" and _ANOTHERS.search(plain[: generic.end()]):
            generic = None  # "hand off to the next agent": whichever agent the pipeline runs next
        if generic and (
            _HARNESS.search(generic.group(0))
            or _HARNESS_NEXT.match(clause, generic.end())
            or _OTHER_AGENT.search(generic.group(0))
            or _CLI_RUN.search(rest)
        ):
            generic = None  # "Spawn a new Claude Code agent in a separate terminal window"
        if (
            generic
            and not _SELF.search(plain[: generic.end()])
            and (
                word not in ("call", "send", "create", "form")
                or names_the_tool(clause)
                or _IN_PARALLEL.search(clause) is not None
            )
        ):
            names = teammate_names(text, verb.end)  # "Spawn a teammate named 'coder-1'"
            if names:
                return [ProseSpawn(Form.F6, verb.start, None, 0, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]
    return _passive(text) or _colon_list(text, verbs) or _by_the_tool(text, verbs)


# The work as the subject: "Bulk scans may be delegated to a read-only Explore agent", "each file
# is then handed off to the `linter` agent". A negation stands between the auxiliary and the verb
# ("should not be delegated to a subagent") and so never matches; "delegated to the agent's
# priors" (the model's own judgement) is no agent.
_PASSIVE = lazy.compile(
    r"\b(?:(?:can|may|should|must|will|could|might|are\s+to|is\s+to)\s+(?:(?:then|also|always)\s+)?be"
    r"|(?:is|are|gets?)(?:\s+(?:then|also|always))?)"
    r"\s+(?:delegated|dispatched|handed\s+off|offloaded)\s+to\s+"
    r"(?P<what>(?:a|an|the|one|two|three|several|parallel|multiple)\s+"
    r"(?:(?:[\w`*-]+\s+){0,3}?sub-?agents?|(?:[\w`*-]+\s+){1,3}?agents?)\b(?!['’]s))",
    re.IGNORECASE,
)


_PASSIVE_PROBES = ("delegated", "dispatched", "handed", "offloaded")


# "Dispatch all layers: `e2e-tester` (full regression), `api-contract-tester` (full spec)": the
# agents listed after a colon, a few words after a strong verb. Candidates: each is a spawn only
# where it is an agent of the project (the list may as well hold commands or files).
_COLON_LIST = lazy.compile(
    r"(?:\s+[\w-]+){0,4}\s*:\s*(?P<list>`[^`\n]+`(?:\s*\([^()\n]*\))?(?:\s*(?:,|and|&|\+)\s*`[^`\n]+`(?:\s*\([^()\n]*\))?)*)"
)
_LISTED_NAME = lazy.compile(r"`(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][\w-]*:[a-z][\w.-]*)`")


def _colon_list(text: str, verbs: list[_Verb]) -> list[ProseSpawn]:
    for verb in verbs:
        if not verb.strong or verb.describing:
            continue
        m = _COLON_LIST.match(text, verb.end)
        if m is None:
            continue
        base = m.start("list")
        names = [(n.group("name"), base + n.start("name")) for n in _LISTED_NAME.finditer(m.group("list"))]
        return [ProseSpawn(Form.F6, verb.start, n, at, None, 0, candidate=True) for n, at in names]
    return []


def _passive(text: str) -> list[ProseSpawn]:
    m = _PASSIVE.search(text)
    if m is None:
        return []
    refs = references(" " + m.group("what"), m.start("what") - 1, strong=True)
    if refs:
        return [ProseSpawn(Form.F6, m.start(), n, o, None, 0) for n, o in refs]
    return [ProseSpawn(Form.F6, m.start(), None, 0, None, 0)]


@dataclass(frozen=True, order=True)
class _Verb:
    start: int
    end: int
    word: str  # its base form, lower-case: "launch" for "Launches"
    describing: bool = False  # "Launches the x agent": what the unit does, said of it
    listed: bool = False  # "- Delegates execution to a specific agent": a feature in a list
    strong: bool = False  # it spawns by itself (prose.strong_verb)


# What the verb is done with, right before it: "Use an `AgentOrchestrator` with routing to dispatch
# …", "using `ai.handoff()` to delegate …": code of an agent framework does it, in the program the
# user builds; the tools the model calls are not that ("Use `TeamCreate` to spawn teammates")
_WITH_CODE = lazy.compile(
    r"\b(?:use|using|with|via)\s+(?:an?\s+|the\s+)?`(?P<code>[^`\n]{2,60})`[^.;:`\n]{0,60}?\bto\s+$",
    re.IGNORECASE,
)
_TOOLS_OF_THE_MODEL = frozenset({*vocabulary.SPAWN_TOOLS, "TeamCreate", "SendMessage"})


def _by_code(before: str) -> bool:
    m = _WITH_CODE.search(before[-160:])
    if m is None:
        return False
    code = m.group("code").strip()
    if code in _TOOLS_OF_THE_MODEL or "/" in code or _A_FILE.search(code):
        return False  # "Use the `templates/discovery-prompt.md` template to dispatch …": a file
    return "(" in code or "." in code or code_like(code)


_A_FILE = lazy.compile(r"\.(?:md|json|ya?ml|toml|txt|py|js|ts|sh)$")


def _a_labels_noun(text: str, at: int) -> bool:
    """Whether the verb at `at` stands inside a bold label after other words of it: "**Orchestrated
    run**", "**(a) Per-increment dispatch**" name a thing; "**Fan out readers** — one agent per
    unit" is an instruction whose object the words after the label spell out."""
    if text.count("**", 0, at) % 2 == 0:
        return False
    opened = text.rfind("**", 0, at) + 2
    return bool(_LABEL_NUMBER.sub("", text[opened:at]).strip())


_LABEL_NUMBER = lazy.compile(r"^\s*(?:\(?[a-z0-9]{1,3}[.)]\s*|step\s+\d+\s*[:.]?\s*)", re.IGNORECASE)
# The end of a bold label and the dash or colon after it: what follows is said of the label
_LABEL_END = lazy.compile(r"\*\*\s*(?:\([^()\n]{1,40}\)\s*)?[—–:-]")  # ("**x** (first-class) —")


def _instruction_verbs(text: str) -> list[_Verb]:
    """The spawn verbs of a sentence used as instructions, each by its base word and strength."""
    return [
        _Verb(v.start(), v.end(), v.group(0).lower().split()[0], strong=strong_verb(v.group(0)))
        for v in VERB_RE.finditer(text)
        if is_instruction(text, v)
    ]


# What a command or skill says it does, at a sentence's start or after "this skill" (or the role
# the model plays, "the orchestrator"): "Launches the **security-auditor** agent", "This skill
# dispatches one of two specialist agents".
_DESCRIBING = lazy.compile(
    r"(?:^[\s>*_#-]*(?:\d+[.)]\s*)?(?:\*\*)?|\bthis\s+(?:skill|command|workflow|plugin)\s+"
    # the role the model plays in a team skill: "The orchestrator spawns three reviewer agents"
    r"(?:(?:will|then|also|first)\s+)?|\bthe\s+(?:orchestrator|coordinator|team\s+lead|lead\s+agent|main\s+agent)\s+"
    r"(?:(?:will|then|also|first|now)\s+)?"
    r"|^[\s>*_#-]*(?:\d+[.)]\s*)?\*\*[^*\n]{1,60}\*\*\s*[-—–:]\s*"  # "**Compares specs** - Delegates to ..."
    r"|^[\s>*_#-]*(?:\d+[.)]\s*)?(?:\*\*[^*\n]{1,60}\*\*\s*[-—–:]\s*)?"
    r"[A-Z][a-z]+s\b[^.;:\n]{0,60},\s+(?:and\s+|then\s+)?"  # "Parses it, delegates to"
    # what a flag does: "- `--enhanced` — (Claude Code only) When passed alone, dispatches ..."
    rf"|^[\s>*_#|-]*`{FLAG}[^`\n]*`\s*(?:[-—–:|]\s*)(?:\([^)\n]{{1,40}}\)\s*)?"
    r"(?:(?:when|if|with)\b[^,.;\n]{1,40},\s+)?)"
    r"(?P<verb>spawns|launches|dispatches|delegates|invokes|activates|kicks\s+off|fans\s+out|hands(?:\s+off)?)\b",
    re.IGNORECASE | re.MULTILINE,  # a body test reads many lines at once
)


_ANOTHERS = lazy.compile(
    r"\bthe\s+(?:next|previous|calling|parent|upstream|downstream)\s+(?:sub-?)?agent\b", re.IGNORECASE
)
_HAND_OFF = lazy.compile(r"hand(?:s|ed|ing)?\s+off\b", re.IGNORECASE)


def _handed_over(text: str, verb: _Verb) -> bool:
    """ "Hand X to Y" (its object the thing handed), not the phrasal "hand off to Y"."""
    return verb.word == "hand" and not _HAND_OFF.match(text, verb.start)


_FLAG_LABEL = lazy.compile(rf"[\s>*_#|-]*`{FLAG}")  # a flag's item is no feature list


_BASE_FORMS = {"launches": "launch", "dispatches": "dispatch", "activates": "activate", "hands": "hand"}


def _describing_verbs(text: str) -> list[_Verb]:
    found = []
    for m in _DESCRIBING.finditer(text):
        word = m.group("verb").lower().split()[0]
        base = _BASE_FORMS.get(word, word.removesuffix("s"))
        before = text[: m.start("verb")]
        listed = bool(LIST_ITEM.match(before)) and not _FLAG_LABEL.match(before)
        found.append(_Verb(m.start("verb"), m.end("verb"), base, True, listed, strong=base in STRONG_VERBS))
    return found


# "Delegate the actual edit to `claude-md-steward`": the agent after "to", a few words on.
_TO_AN_AGENT_WORDS = ("delegate", "hand")  # not "send to `team-lead-2`": a message
_TO = r"^(?:\s+[\w-]+){0,5}?\s+to\s+(?:the\s+)?"  # a few words on, then "to (the)"
_TO_AN_AGENT = lazy.compile(
    _TO + r"(?:\*\*)?"
    r"`(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][\w-]*:[a-z][\w.-]*)`" + NOT_AN_AGENT_AFTER
)


_AFTER_TO = lazy.compile(
    rf"\b{vocabulary.alternation(_TO_AN_AGENT_WORDS)}\b" + _TO_AN_AGENT.pattern[1:], re.IGNORECASE
)


# ... or to a model, which only a sub-agent runs apart from this session: "Delegate multi-file
# edits to Sonnet 4.6 (`claude-sonnet-4-6`)"
_MODELS = ("sonnet", "haiku", "opus")
_TO_A_MODEL = lazy.compile(
    _TO + rf"(?:\*\*)?(?:claude\s+)?{vocabulary.alternation(_MODELS)}\b", re.IGNORECASE
)
_AFTER_TO_A_MODEL = lazy.compile(
    rf"\b{vocabulary.alternation(_TO_AN_AGENT_WORDS)}\b" + _TO_A_MODEL.pattern[1:], re.IGNORECASE
)


def _handed_to_a_model(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _AFTER_TO_A_MODEL.search(text) is not None


def _to_an_agent(rest: str, base: int) -> list[tuple[str, int]]:
    m = _TO_AN_AGENT.match(rest)
    return [(m.group("name"), base + m.start("name"))] if m else []


# The Agent/Task tool as the instrument or the object of a verb, with no agent named: "use the
# Task tool for the audit", "start several sub-agents at once with the Task tool", "make a single
# Task call with the prompt below", "send it to the chosen agent via the Agent tool".
_THE_TOOL = r"(?:the\s+)?(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?\s+tool\b(?!\s*'s)"
_TOOL_OBJECT = lazy.compile(rf"\s*{_THE_TOOL}", re.IGNORECASE)
_TOOL_INSTRUMENT = lazy.compile(rf"\b(?:via|with|using|through)\s+{_THE_TOOL}", re.IGNORECASE)
# "Dispatch via `run_in_background: true`": with no object, the verb's instrument is a parameter
# only the Agent tool takes ("launch this `Bash` pipeline with `run_in_background: true`" runs a
# shell: the Bash tool takes it too, and there the object says which)
_KEY_INSTRUMENT = lazy.compile(
    rf"\s+(?:via|with|using)\s+`{vocabulary.alternation(vocabulary.AGENT_ONLY_KEYS)}\b", re.IGNORECASE
)
_TOOL_CALLS = lazy.compile(
    r"\b(?:a|an|one|single|multiple|several|parallel|separate|two|three|four|five|\d+)\s+(?:parallel\s+)?"
    r"(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?(?:\s+tool)?\s+(?:calls?|invocations?)\b"
)


def _by_the_tool(text: str, verbs: list[_Verb]) -> list[ProseSpawn]:
    for verb in verbs:
        if verb.word in IMPERATIVE_ONLY and text[: verb.start].strip(" *-#>0123456789.)"):
            continue
        if verb.word in ("use", "call", "invoke") and _TOOL_OBJECT.match(text, verb.end):
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]
        clause = re.split(r"[.;!?]\s", text[verb.end : verb.end + 200], maxsplit=1)[0]
        if _a_labels_noun(text, verb.start) and (label_end := _LABEL_END.search(clause)):
            clause = clause[: label_end.start()]  # "**Per-increment dispatch** — … via the Agent tool"
        if _ITSELF.match(clause):
            continue  # "the delegating context dispatches this Actor via the `Agent` tool": it runs inside
        if _TOOL_INSTRUMENT.search(clause) or _TOOL_CALLS.search(clause):
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]
        if verb.strong and _KEY_INSTRUMENT.match(text, verb.end):
            return [ProseSpawn(Form.F6, verb.start, None, 0, None, 0)]
    for pattern in (
        _TOOL_CALLS,
        _BY_SUBAGENTS,
        _BY_AGENTS,
        _SPLIT_INTO,
        _ASSIGNED_TO,
        _IN_ONE_MESSAGE,
    ):  # "a single Task call"
        m = pattern.search(text)
        if m is None:
            continue
        before = text[max(0, m.start() - 160) : m.start()].replace("*", "")
        if NEGATION.search(before) or _NOT_THIS.search(before) or _ANOTHER_DOES.search(before):
            continue
        if pattern is _BY_AGENTS and (
            _DONE_BEFORE.search(before) or _FOR_WHOM.search(before) or _HARNESS.search(text)
        ):
            continue  # plain "agents", not sub-agents: what was done or whom it is for, told of
        return [ProseSpawn(Form.F6, m.start(), None, 0, None, 0)]
    m = _READ_AND_DISPATCH.search(text)  # "Read `agents/verifier.md` and call it with ..."
    definition = m is not None and (m.group("verb").lower() != "call" or _DEFINITION.search(m.group(0)))
    if m and definition and not NEGATION.search(text[: m.start()].replace("*", "")):
        group = "ref" if m.group("ref") else "link"
        ref = m.group(group)
        name = ref.rsplit("/", 1)[-1].removesuffix(".md")
        return [ProseSpawn(Form.F6, m.start("verb"), name, m.start(group) + ref.rfind(name), None, 0)]
    m = _BY_A_NAMED_AGENT.search(text)  # "Review each draft using the `writing:reviewer` agent."
    before = text[: m.start()] if m else ""
    if m and not (_ONLY_WHEN.search(before) or NEGATION.search(before.replace("*", ""))):
        group = next(g for g in ("name", "builtin", "plain") if m.group(g))
        return [ProseSpawn(Form.F6, m.start(), m.group(group), m.start(group), None, 0, group == "plain")]
    return []


# A skill's own sub-agent definition, read and then started: "Read `agents/message-verifier.md` and
# call it with the message", "Read the `stage-validator` definition and dispatch it with:". "call
# it" only for what is plainly a definition (a path under agents/ or subagents/, or so called).
_READ_AND_DISPATCH = lazy.compile(
    r"\b(?:read|load|open)\s+(?:the\s+)?(?:`(?P<ref>[\w./:-]{2,80})`|\[[^\]\n]{1,80}\]\((?P<link>[\w./:-]{2,120})\))"
    r"(?:\s+(?:definition|agent|subagent|sub-agent|prompt|file|template))?"
    r"\s+and\s+(?:then\s+)?(?P<verb>dispatch|launch|spawn|invoke|start|call)\s+it\b",
    re.IGNORECASE,
)
_DEFINITION = lazy.compile(
    r"(?:^|[/`\[(])(?:sub-?)?agents/|\s(?:definition|agent|subagent|sub-agent)\s", re.IGNORECASE
)


# An agent of the project as the means of an instruction: "Review each draft using the
# `writing:writing-reviewer` agent", "Scan the plugin using plugin-scanner agent" (a plain name:
# a candidate); not "When using the `x` agent, ..." (a condition).
_BY_A_NAMED_AGENT = lazy.compile(
    r"\b(?:using|via|through)\s+(?:the\s+(?:(?:\*\*)?`(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][\w-]*:[a-z][\w.-]*)`"
    rf"(?:\*\*)?|(?P<builtin>{BUILTINS}))"
    # "Scan the plugin using plugin-scanner agent": a plain name, a candidate (an agent of the project)
    r"|(?:the\s+)?(?P<plain>[a-z][a-z0-9]*(?:-[a-z0-9]+)+))\s+(?:sub-?)?agent\b(?!['’]s)" + COMPOUND_HEAD
)
_ONLY_WHEN = lazy.compile(r"\b(?i:when|while|if|whether|after|before|by)\s+$")


# Agents listed elsewhere, started together as Claude Code starts parallel agents: "start all of
# them in one message; their settings are in `references/crew.md`".
_IN_ONE_MESSAGE = lazy.compile(
    r"\b(?:start|launch|spawn|dispatch|run|invoke|kick\s+off|fire\s+off)\s+(?:them|all\s+of\s+them|them\s+all|each"
    r"(?:\s+of\s+them)?|both(?:\s+of\s+them)?|all)\s+(?:[\w-]+\s+){0,2}?in\s+(?:one|a\s+single|the\s+same)\s+"
    r"(?:message|response|turn)\b",
    re.IGNORECASE,
)
# What another command does, or a kind of them: "`/implement-plan` executes each phase via a
# subagent", "Commands that execute multi-phase plans via subagents"
_ANOTHER_DOES = lazy.compile(
    r"`/[\w:.-]+`\s+(?:\w+\s+)?\w+s\b[^.;]*$|\b(?:commands|skills|workflows|plugins)\s+(?:that|which)\s+\w+[^.;]*$",
    re.IGNORECASE,
)
# Sub-agents as the means: "fall back to meta-prompting using a subagent", "Parallelize this step
# with individual sub-agents", "run it in a fresh subagent".
# (the words that make agents ones only a spawn makes, in both patterns)
_SPAWNED_KINDS = (
    r"parallel|separate|dedicated|individual|multiple|several|isolated|specialized|specialised|\d+"
)
_BY_SUBAGENTS = lazy.compile(
    rf"\b(?:(?:using|via|through|with|in)\s+(?:a|an|one|fresh|new|{_SPAWNED_KINDS})"
    r"\s+(?:(?!(?:per|of|for|each|and|or)\s)[\w-]+\s+){0,2}?"
    r"|(?:using|via|through)\s+(?=sub-?agents\b))"  # "orchestrate the drafting via sub-agents"
    + r"sub-?agents?"  # not "share it with a teammate": a person
    + r"\b(?!['’])"  # not "in a subagent's context": what it has
    + COMPOUND_HEAD,
    re.IGNORECASE,
)


# Agents of a kind only a spawn makes as the means: "Orchestrate the review using specialized
# agents" (not "with": "works with multiple agents" names what it supports)
_BY_AGENTS = lazy.compile(
    rf"\b(?:using|via|through)\s+(?:{_SPAWNED_KINDS})"
    r"\s+(?:(?!(?:per|of|for|each|and|or)\s)[\w-]+\s+){0,2}?agents\b(?!['’])" + COMPOUND_HEAD,
    re.IGNORECASE,
)


# ... not where the sentence says whom it is for ("For teams using multiple agents (Cursor 2.0)")
# or how something was done ("The plugin was tested using multiple agents")
_FOR_WHOM = lazy.compile(r"(?:^|[.;:!?]\s)[\s*_>-]*for\s+(?:[\w-]+\s+){1,3}$", re.IGNORECASE)
_DONE_BEFORE = lazy.compile(r"\b(?:is|are|was|were|been)\s+\w+(?:ed|en)\b[^.;:!?]*$", re.IGNORECASE)
# "this use is in the script, not in a subagent": the means set aside ("rather than" is NEGATION's)
_NOT_THIS = lazy.compile(r"\bnot\s+$", re.IGNORECASE)
# the unit itself as the object: what dispatches it, not what it dispatches
_ITSELF = lazy.compile(
    r"\s+this\s+(?:actor|agent|sub-?agent|skill|command|grader|worker|reviewer)\b", re.IGNORECASE
)


# The work divided among sub-agents: "Split the checks into two parallel Explore subagents"; not
# "turn this command into a subagent" (a definition to write).
_SPLIT_INTO = lazy.compile(
    # (not "Splitting two tasks across agents that …": a gerund names the act, as in a list of mistakes)
    r"\b(?:split|divide|break|partition|shard|fan)(?!\w*ing\b)\w*\s+(?:[\w-]+\s+){0,8}?(?:into\s+"
    r"(?:\d+|two|three|four|five|six|several|multiple|parallel|separate|independent)\s+"
    r"(?:[\w-]+\s+){0,2}?sub-?agents"
    # "split independent questions across agents"
    r"|across\s+(?:the\s+)?(?:multiple\s+|parallel\s+|several\s+|separate\s+)?(?:sub-?)?agents)\b"
    + COMPOUND_HEAD,
    re.IGNORECASE,
)
# The work given to sub-agents in the passive, as a rule: "fixes must be assigned to sub-agents"
_ASSIGNED_TO = lazy.compile(
    r"\b(?:must|should|shall|will|are\s+to|is\s+to)\s+be\s+(?:assigned|delegated|dispatched|handed\s+off|given)"
    r"\s+to\s+(?:the\s+|a\s+|an\s+|separate\s+|parallel\s+|dedicated\s+|fresh\s+)?sub-?agents?\b"
    + COMPOUND_HEAD,
    re.IGNORECASE,
)


_USE_THE_TOOL = lazy.compile(rf"\b(?:use|call|invoke)\s+{_THE_TOOL}", re.IGNORECASE)


def _tool_or_description(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """The tool as `_by_the_tool` reads it (the object of use/call/invoke, an instrument after a
    verb, counted calls, sub-agents as the means), an agent after "delegate ... to", or what a
    unit says it does."""
    # each pattern only where a literal it needs is there (a plain search: a tenth of its cost)
    tool = "tool" in low
    if tool and _USE_THE_TOOL.search(text):
        return True
    if ("call" in low or "invocation" in low) and _TOOL_CALLS.search(text):
        return True
    if "message" in low and _IN_ONE_MESSAGE.search(text):
        return True
    if ("subagent" in low or "sub-agent" in low) and any(
        p.search(text) for p in (_BY_SUBAGENTS, _SPLIT_INTO, _ASSIGNED_TO)
    ):
        return True
    if "across" in low and _SPLIT_INTO.search(text):
        return True  # "split the questions across agents"
    if " agents" in low and _BY_AGENTS.search(text):
        return True  # "using specialized agents"
    if ": `" in text and any(_COLON_LIST.match(text, v.end()) for v in VERB_RE.finditer(text)):
        return True  # "Dispatch all layers: `e2e-tester`, `api-contract-tester`"
    means = any(w in low for w in ("using ", "via ", "through "))
    if means and "agent" in low and _BY_A_NAMED_AGENT.search(text):
        return True
    if " it" in low and ("read" in low or "load" in low or "open" in low) and _READ_AND_DISPATCH.search(text):
        return True
    if ("delegate" in low or "hand" in low) and "`" in text and _AFTER_TO.search(text):
        return True
    if any(w in low for w in _PASSIVE_PROBES) and _PASSIVE.search(text):
        return True  # "may be delegated to a read-only Explore agent"
    if any(word in low for word in _DESCRIBING_PROBES) and _describes(text, low, paragraphs):
        return True  # "Launches the x agent": its agents are read like those of the verb
    for m in _TOOL_INSTRUMENT.finditer(text) if tool else ():
        if verb_in(text, max(paragraphs.around(m.start())[0], m.start() - 200), m.start()):
            return True
    # a sentence that names the tool makes any spawn verb strong ("**Agent tool:** start `x`")
    return names_the_tool(text) and VERB_RE.search(text) is not None


_DESCRIBING_PROBES = (
    "spawns",
    "launches",
    "dispatches",
    "delegates",
    "invokes",
    "activates",
    "kicks",
    "fans",
    "hands",
)


# The id right after the verb in code marks, "the" at most before it: what the trigger's probes
# ("run `", "run the `") see
_RUN_ID = lazy.compile(rf"^\s+(?:(?i:the)\s+)?`{ID_NAME}`" + NOT_AN_AGENT_AFTER)
# ... and then a purpose ("to run", not "to be"), after a verb of vocabulary.PURPOSE_ID_VERBS
# (in code marks or in bold: "Use the **swarm-coordinator** to orchestrate")
_ID_WITH_PURPOSE = lazy.compile(
    rf"^\s+(?:(?i:the)\s+)?(?P<mark>`|\*\*){ID_NAME}(?P=mark)\s+to\s+(?!be\b)[a-z]{{3,}}\b"
)
_ID_PATTERNS = {
    **dict.fromkeys(vocabulary.ID_VERBS, _RUN_ID),
    **dict.fromkeys(vocabulary.PURPOSE_ID_VERBS, _ID_WITH_PURPOSE),
}
_IMAGINED = lazy.compile(r"\s*(?:conceptually|mentally|in\s+your\s+head)\b", re.IGNORECASE)
_ID_VERB = lazy.compile(rf"\b{vocabulary.alternation(tuple(_ID_PATTERNS))}\b", re.IGNORECASE)


def _id_after_a_verb(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return any(
        id_after_verb(text[m.end() :], m.end(), _ID_PATTERNS[m.group(0).lower()])
        for m in _ID_VERB.finditer(text)
    )


# A spawn verb with its agents (prose.VERB_TRIGGER), or the shapes above, or a weak verb with an
# agent's id right after it (vocabulary.ID_VERBS: "Run `content-strategist`").
TRIGGER = either(
    VERB_TRIGGER,
    Trigger(
        (*VERB_TRIGGER.probes, "agent", "task", "one message", "single message", "same message"),
        _tool_or_description,
    ),
    Trigger(
        tuple(
            f"{verb}{the} {mark}"
            for verb in _ID_PATTERNS
            for the in ("", " the")
            for mark in ("`", *(("**",) if verb in vocabulary.PURPOSE_ID_VERBS else ()))
        ),
        _id_after_a_verb,
    ),
    Trigger(_MODELS, _handed_to_a_model),
)


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
        "The orchestrator spawns three `editability-reviewer` agents in parallel.",  # the model's role
        "Bulk scans may be delegated to a read-only Explore agent.",
        "Each file is then handed off to the `linter` agent.",
        "Have the **code-reviewer** agent check it.",
        "Use the **docs-writer** critic for the prose.",
        "Launch two parallel agents, one per module.",
        "- Spawns Task agent (fullstack-developer) in a fresh context",  # what the unit says it does
        "Delegate codebase exploration to a research/exploration agent.",
        "Utilize the appropriate GitHub sub-agent to commit the pending changes.",
        "Delegate multi-file edits to **Sonnet 4.6** with precise specs.",  # a model runs it apart
        "Because of that, prefer\ndelegating the audit to a read-only sub-agent.",  # a line broken
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
        "Activates the **auth-architect** agent to help you.",
        "Hands the request to the `doc-expert` agent, which loads the `adr-discovery` skill.",
        "This command launches two parallel subagents.",
        "Delegate the actual edit to `claude-md-steward`.",
        "If the server is down, fall back to meta-prompting using a subagent.",
        "Check each migration via the `schema-auditor` agent.",
        "Map the repository in parallel where possible using the Explore subagent.",
        "Orchestrate a thorough PR review using specialized agents.",
        "Split the lint and the type checks into two parallel Explore subagents.",
        "Read `agents/message-checker.md` and call it with the proposed message.",
        "Read the `stage-checker` definition and dispatch it with the stage name.",
        "Read [agents/json-checker.md](agents/json-checker.md) and call it with the JSON.",
        "### Step 3: Dispatch two reviewer subagents in parallel",
        "## 2. Launch the `schema-auditor` agent",
        "### 3. Spawn Workers\n\nEach worker reviews one module.",  # a step the heading names
        "### 1.2 Spawn Research Agent (if web search is available)\n\nSearch for the upgrade guide.",
        "Spawn parallel research tasks to map the code.",  # the Task tool's calls, by its noun
        "Spawn parallel sub-tasks for the research.",
        "Parallelize this step with individual sub-agents.",
        "Spawn one `Task` subagent to read the skill cold.",
        "Start all of them in one message; their settings are in `references/crew.md`.",
        "Dispatch an independent reviewer or subagent only when the user explicitly requests one.",
        "If the host supports subagents, launch one with `code-reviewer.md`.",  # a pronoun
        "If the host supports subagents, launch a fresh implementer.",  # one agent by its role
        "For a large audit, fan the work out to fresh-context agents, one per plugin.",  # split
        "Re-dispatch a fresh verification agent against the merged tree.",
        "Dispatch spoke workers (sub-agents) into their worktrees.",
        "Once the plan is set, fixes and reviews must be assigned to sub-agents.",  # passive, must
        "For broad research, split independent questions across agents and merge the findings.",
        "Your job is to orchestrate the drafting via sub-agents.",
        "If the user asks for depth, dispatch **one** subagent and say so.",  # emphasis
        "When subagents are available, prefer dispatching a fresh subagent per task.",  # a gerund
        "If a fact needs real digging, fire a background subagent for it.",
        "Usually spawn two reviewer agents, one per module.",  # an adverb first: still an instruction
        "You should usually delegate the review to a fresh subagent.",  # after a modal: one too
        "Instead of vector search → use the Explore agent for conceptual exploration.",  # the replacement
        "Launch 1 web-search-agent (background) with this prompt:",  # an id that ends in "agent"
        "Then dispatch plan and execute as background agents and wait for both.",
        # a flag's item says what the model does when given the flag
        "- `--enhanced` — When passed alone, dispatches the five personas as parallel sub-agents.",
        "| `--parallel` | Launch three reviewer subagents, one per module |",
        "- `--parallel` — Launches 3 parallel reviewer subagents.",
        "Capture the staged diff yourself and hand it to a manual sub-agent.",
        "Dispatch via `run_in_background: true` so the main context stays clean.",  # the tool's key
        "For large diffs, delegate the per-file review (style / logic / tests) to subagents.",  # an aside
        "Use `Agent` with a short prompt to dispatch two reviewer subagents.",  # the model's own tool
        "Spawn 2-3 `shop-scout` calls in one message and merge what they find.",  # a count, then the id
        "**Large inputs — parallel subagents:** Dispatch all four in one turn, then merge.",
        "Use Task agents to gather context from the linked issues.",
        "Use the Task agent for deep research on:",  # the tool's agent, with its article
        "You can dispatch this as a subtask with the brief, saving your own context.",
        "Create 3 new subagents that use the Task tool to build it in parallel.",  # made to run
        "Spawn a background `Agent` that polls the pull request every two minutes.",  # the tool's name
        "For each open question, spin up a `/research` subagent to answer it.",  # a command's word
        "2. **Fan out readers** — one agent per unit, each returning a structured summary.",  # a label
        "Use the `templates/discovery-prompt.md` template to dispatch a source discovery subagent.",
        "Run the checks via parallel subagents, one per file.",
        "Would you like to run the **skeptic** agent for a feasibility review?",  # an offer to the user
        "If it still fails, hand off to the **debugger agent**, which works in a clean context.",
        # arrows inside parentheses name the agent's own steps, not a diagram
        "Invoke the content-manager agent to run the workflow (research → outline → draft → publish).",
    ),
    invalid=(
        "Use the Task agent's findings as the summary.",  # what it has
        "- You want to delegate tasks to another AI agent without leaving the editor",  # a wish
        "**Why**: Delegate to focused agents with their own tools and prompts.",  # a reason
        'Add guidance: "Use subagents for parallel, independent workstreams. Otherwise work directly."',
        "Current models proactively spawn subagents for small tasks.",  # what models do
        "For detailed guidance, use the `database-reviewer` agent.",  # a pointer for the reader
        "Copy the file into `.claude/agents/` so `/plan` can invoke it as a subagent.",  # made possible
        'Ask the author: "Does this skill spawn sub-agents or teams? If yes, which primitive?"',
        "Orchestrators spawn subagents for autonomous cleanup; this skill runs inline.",  # others' leads
        "## See Also\n\n- Launch the **code-reviewer** agent for a second opinion.",  # a pointer
        "Launch an interactive screen that agents can watch while you type.",  # a relative clause
        # a condition that supposes something able to spawn; a tool's row; who runs a CLI
        "When the smoke target can spawn subagents or worktrees, the checkout must hold it all.",
        "| **Task** | Spawn subagents |",
        # a catalogue of skills: each sentence of a row tells what that skill does
        "| `review-loop` | After a diff exists. Dispatches a fresh reviewer subagent per step. |",
        "A command that needs a review should launch the reviewer agent with the Task tool.",
        '- "Set up an agent team to research and write this report."',  # a phrase the user may say
        # an inventory of what to install, not a step's worker
        "- Skills: `create-plan`, `run-plan`\n- Agents: `code-reviewer`, `debugger`\n- Hooks: `file-guard`",
        # agents that are processes in terminal windows, started by another program
        "You are part of a swarm: each agent runs in its own tmux window.\n\n"
        "To split the work, spawn new agents with `ccgram msg spawn` and send each one its task.",
        # the command lines the lead introduces do it (a program named for spawning, another harness)
        "2. Spawn the agent:\n\n```bash\nbun Tools/SpawnAgent.ts reviewer --params input=src/\n```",
        "## Step 2: Spawn agent\n\nIn non-blocking mode:\n\n```bash\nbun Tools/SpawnAgent.ts <recipe>\n```",
        "Spawn Goose agents for parallel, non-blocking execution.",
        # an example's title, a quoted example, what a workflow is run for, a program's helper
        "**Example 1: Spawn parallel code review agents**",
        'Good: "Launch multi-agent orchestrator with RAG by March 31." Bad: "Improve the chatbot."',
        "- Run this workflow for BOTH agents in sequence.",
        "Run `ssh-ensure` on the server to load the key into gpg-agent.",
        "Delegate `$ARGUMENTS` to the `remote-runner` managed agent in a remote Gemini sandbox.",
        "7. **Run `db-autofix`** helper tool (`pip install db-autofix`) — fixes the configs.",
        "This pattern ensures that when a command declares it will spawn agents, they are spawned.",
        # a prompt written for another model
        "Write this handoff prompt:\n\n```\nYou are the project manager for acme.\n"
        "Only use subagents if the user explicitly asks.\n```",
        # workers that are another harness's processes
        '## 3. Dispatch the workers\n\n```bash\ncodex exec --sandbox workspace-write "<worker prompt>"\n```',
        "- `--dry-run` — Prints the roster, then exits without spawning any agents.",  # a flag's negation
        "- `--agent <name>` — Run the session as the given agent.",
        "Hand the findings back to the lead agent via SendMessage.",  # what is handed, and to whom
        "Hand the result to the user.",
        "**Use an AGENT instead when:**\n- You need a context of its own",  # a guide to choosing
        "Dispatch via a background shell so the build keeps going.",  # a shell, not the Agent tool
        "Spawn 2 `dev-server` processes, one per port.",  # processes, not agents
        # code of an agent framework that the user's program runs
        "- **Orchestrated run** — a parallel subagent cannot prompt the user.",  # a label's noun
        "**Why it matters:** `/run-plan` executes each phase via a subagent with finite context.",
        "[9] orchestration - Commands that execute multi-phase plans via subagents",
        "When you spawn a subagent, include the resolved rules in its prompt.",  # the condition
        "Include the rules in the task you hand it, so a subagent honors the same grants.",
        "- Treating content in a subagent transcript as shown to the user.",  # a record of one
        "| `--disable-agent` | Run a dedicated agent process instead |",  # a flag of a cluster's CLI
        'Launch a background agent seeded with the summary: `claude --bg "<summary>"`.',  # a process
        "The delegating context dispatches this grader once per increment via the `Agent` tool.",
        "- **(a) Per-increment dispatch** (first-class) — the caller runs this grader via the `Agent` tool.",
        "**Use subagents when**:",  # the lead of a guide to choosing
        "Ask what to do when no tests exist.\n\nOptions:\n\n- spawn subagent for verification\n- skip",
        "Configure handoff rules using `ai.handoff()` to delegate tasks between agents.",
        "Use an `AgentOrchestrator` with LLM routing to dispatch requests to specialized agents.",
        "The subagents report first; then dispatch all four of the summaries to the log.",
        "6. **Delegations**: Does it spawn sub-agents (Agent tool)? If so, read their definitions.",
        "| headless | Spawn `$HEADLESS_CMD` subprocess (see the harness notes) |",  # a process
        "For `--background`, launch this `Bash` pipeline with `run_in_background: true`.",  # a shell
        "Hand off to the next agent without further edits.",  # whichever runs next
        "Reject the split and ask the task-checker to look again.",  # no such agent: a mention only
        "Hand the brief to `skill-writer`. That skill rewrites skills.",  # a skill; agents are confirmed
        "A user may name the agent:\n\n```\n> Use the code-reviewer subagent to check my changes\n```\n",
        "Use the library helpers — `stage`, `say`/`step`, `ask_secret` — and set honest estimates.",
        "You lead by default, but can hand the lead to an agent when you want them to drive.",
        "When stdout is not a TTY (piped to a process, run by an agent, or in CI), print plain text.",
        '> "My workflow at the end of a feature: Launch review subagents."',  # someone quoted
        "The bridge needs to dispatch an arbitrary reviewer instruction body against the paths.",
        "Main chat → dev-delegate (spawn agents) → Task agent → follows dev-tdd",  # a diagram
        "For tax-specific decisions, consult a registered tax agent.",  # a person
        "Start the ssh-agent before the first push.",  # other software
        "Launch a new TeamCity build agent for the nightly job.",
        "Invoke the creating-subagents skill explicitly.",  # an id that ends in "agents": a skill
        "Launch a multi-persona discussion where specialist agents respond in character.",
        "This work should not be delegated to a subagent.",
        "Tasks are delegated to agents by the scheduler.",  # no article: what some engine does
        "Every decision a skill declines is delegated to the agent's priors.",
        "Check whether this harness can spawn agents on that model.",  # what something can do
        "The orchestrator invokes this skill once per scene.",
        "- **/loop** - Start a long-running agent that polls the queue",  # what a command does
        "The orchestrator can dispatch subagents that query the store.",
        # next steps put to the user, not taken: a list after "suggest:"
        "After setup, suggest:\n\n1. **Queries**: Use the `query-builder` agent for hard queries",
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
        "Launches the build script.",
        "Do not run it in a subagent.",
        "Summarise the answers as a table with one row per teammate.",
        "This command invokes `sdd-system` CLI subcommands.",
        "Open a worktree for the change, then start a subagent workflow.",
        "When using the `code-reviewer` agent, keep each diff small.",
        "The plugin works with multiple agents and editors.",  # what it supports
        "This plugin was tested using multiple agents.",  # a passive: how it was made
        "For teams using multiple agents at once, keep one state folder each.",  # who it is for
        "Use `babel-plugin-import` to transform named imports to single ones.",  # a tool, no name
        "This is a checklist you run yourself — not a subagent dispatch.",
        "A person may invoke `run-ticket` on any ticket.",
        "- Use `resolveActionResult` helper for mutations",
        "Read `docs/setup.md` and call it done when every step passes.",
        "Spawn `node-pty` process and pipe its output over a socket.",  # a process, named
        "The 2024-01-01 release-gate run produced 5 agents with broken frontmatter.",  # a noun
        "Verify that the lead is using the Agent tool to spawn teammates.",  # what another does
        "Invoke `shop:verify-first` before marking each task done.",  # a skill as often as not
        "8. **Agents to Invoke** - Other agents this one will call",  # a label that ends at the verb
        "# Launch a Subordinate Agent (SA) session",  # an acronym before the noun's noun
        "This skill spawns a fresh Subordinate Agent Claude Code session.",  # another harness's
        "This use is in the script, not in a subagent Bash call.",  # the means set aside
        "This use is in the script rather than in a subagent Bash call.",
        "Run skills in an isolated subagent with `context: fork`:",  # the fork setting, described
        "- Attempting to close a campaign, commit, or spawn another agent from the drafter role.",
        "7. **Shared state.** Splitting two tasks across agents that both edit one file.",  # a mistake
        "Run this audit against all plugin agents to produce a fresh report.",  # what it checks
        "Commands are invoked with `/name` and typically delegate to agents.",  # as a rule, told of
        "Dispatch a `close-notification` browser event with the notification ID.",  # an event
        "In the examples, you are making the assistant use the Agent tool.",  # what it shows another do
        "**Goal:** Spawn a Claude agent in an adjacent pane so you can keep working.",  # a process
        "**Purpose**: Run the skill in an isolated subagent context.",  # a context, not an agent
        "Read `scripts/build.sh` and run it.",
        "Turn this command into a subagent definition when it grows.",
        "## Spawning subagents from a skill",
        "### Step 2: When to launch a subagent",
        "### Step 4: Delegate to Documentation Agent",
        "### 3. Spawn Workers\n\nExecute the spawn_session.py script:",  # the script spawns them
        "| Subagent query empty | Skip the section — not all sessions use subagents |",  # what is so
        "Spawn a background task to tail the log.",  # a shell's task
        "Spawn two asyncio tasks for the readers.",  # a runtime's
        "Dispatch tasks to the queue.",
        "For a long call, spawn a task that re-reports the elapsed time.",  # a runtime's
        "2. **Start Claude in all agent windows:**",  # a terminal multiplexer's windows
        "Google ADK supports hierarchies where agents can delegate to sub-agents.",  # what agents can do
        "Handoffs enable agents to delegate tasks to other specialized agents.",  # a framework's feature
        "Run an OpenAI Agent SDK agent with the given input.",  # another harness's agent
        "Use another agent as a tool:",  # a framework's agent wrapped as a tool
        "Tools extend agents by allowing them to call APIs, search the web, and delegate to other agents.",
        "Convert the checklist into three sub-agents' prompts.",
        "This checklist is read through the `code-reviewer` agent's prompt.",
        "Start with **3-5 teammates** and grow the team when it stalls.",
        "Users discover and invoke agents via `@` autocomplete.",
        "| `agent` | Delegate to specific agent | None |",
        "- Delegates command execution to a specific agent",
        "Six arkhe commands dispatch subagents on Claude Code.",
        "- `context: fork` -- runs the skill in an isolated subagent context",
        "Capture the logs to share with a teammate.",
        "If a teammate was spawned as `team-lead-2`, send to `team-lead-2`, not `team-lead`.",
        "This skill hands off **judgment** the agent cannot make to the user.",
        "- Delegates to plugin agent",
        "Delegate the commit to `git-commit` skill.",
        "A toolkit where a model can use tools and context, hand off to other agents, and stream results.",
        "It installs a rule that every task in this repo must consult the `cost-advisor` agent first.",
        "Count a turn where the assistant is about to do non-trivial work — write or edit code or docs,"
        " dispatch a subagent, or run a long tool chain.",  # what the assistant does, told of
        "Then use `report-agent` for the backlog.",  # a pointer: no purpose after the id
        "You can run up to 500 concurrent agents per account.",  # a limit told of
        "Stop if auth fails: a half-authenticated run produces an agent with empty ids.",  # a noun
        "Then invoke `superpowers:subagent-driven-development` with the plan.",  # a skill elsewhere
        "| `Task` tool (dispatch subagent) | `spawn_agent` |",  # a tool and another harness's
        "The skill doesn't need to delegate to agents; it is the expert.",
        "Spawn a headless worker (`builder` agent) through the pool engine.",  # a `claude -p` process
        "Use this skill when an upstream agent (Experience-Owner or Issue-Planner) exits its phase.",
        "The facts can appear stale in a subagent's injected `<env>` block.",  # what it has
        "Launch a browser and open the page.",
        "- **Invoke `rg-fast`, never `grep`**: the alias collides with a shell builtin.",  # a CLI
        "Option 2: invoke `notes:outline` and pass the draft's path along.",  # a skill
        "For a full design, use `/arch:plan --deep` command which invokes the deep-architect agent.",
        'Name patterns generically (e.g., "Use Task() to delegate to specialist agents").',  # quoted
        "When a job is run by an agent, it starts from a clean checkout.",  # a CI runner, passive
        "Use the existing `load_user_row` helper instead of raw SQL.",  # a function
        "Run `pool dispatch` to record a new agent entry.",  # a verb in a command's name
        "The pre-dispatch gate runs before any agent starts.",
        "Dispatch the build to CI workers.",
    ),
)

SPEC = FormSpec(
    Form.F6,
    either(TRIGGER, languages.TRIGGER),
    _remove,
    (EXAMPLES, *languages.EXAMPLES),
    has_syntax=False,
)


# Prose that names an agent plainly, read as a spawn only where the name is an agent of the project
# (the project stage confirms it): "Launch recon-invoker and the aspects", "Spawn the ferryman",
# "Have the planner agent draft it". The name right after a strong verb, or before an agent noun
# after any verb.
_NAME = r"(?P<name>`[^`\s]{2,60}`|\*\*[^*\n]{2,60}\*\*|@?[A-Za-z][\w.:-]*(?:\s+[A-Z][\w-]*){0,2})"
# A plain single word needs its article ("Spawn the ferryman"; "App Launch template" is a noun),
# or must be the verb's whole object, a step of a pipeline: "Spawn architect → Gate 0", "Spawn
# backend + frontend in parallel", "Spawn qa" at a line's end. A name the text calls a skill,
# command or tool is none of an agent.
_AFTER_STRONG = lazy.compile(
    r"^\s+(?:to\s+)?(?:(?:(?:the|our|your)\s+)(?P<plain>[a-z][a-z0-9]*)\b"
    r"|(?P<bare>[A-Za-z][a-z0-9]+)(?:\*\*)?"
    r"(?=[ \t]*$|[ \t]*(?:→|->|\+|,|\(|\.(?:\s|$))|[ \t]+(?:then|in\s+parallel)\b)"
    r"|(?:(?:the|our|your|one)\s+)?"
    # an id with a hyphen or a colon, in any case ("launch Code-Smith": agents of one public plugin)
    r"(?P<marked>`@?[^`\s]{2,60}`|\*\*[^*\n]{2,60}\*\*|@?[A-Za-z][\w.]*(?:[-:][\w.]+)+))" + NOT_AN_AGENT_AFTER
)
# "Delegate the bulk aggregation to @fit:data-cruncher": the agent after "to", not the work
_TO_A_NAME = lazy.compile(
    _TO + r"(?P<marked>`@?[^`\s]{2,60}`|\*\*[^*\n]{2,60}\*\*"
    r"|@[A-Za-z][\w.:-]*\w|[A-Za-z][\w.]*(?:[-:][\w.]+)+)" + NOT_AN_AGENT_AFTER
)
_JOINED_IMPERATIVE = lazy.compile(r"^[A-Z][a-z]+\b[^.;:!?]{0,80}\b(?:and|then)$")
# After "ask", an agent by its id asked to do something: "ask the spec-auditor to look" (a
# candidate, as every mention: an agent of the project or nothing). Its trigger's word is "ask
# the": "ask" alone is in every text, and so are "have the" and "get the" (a search of each cost
# 3% of a cold run on agentic prose)
_ASK = vocabulary.ASKING_VERB
_ASKED = lazy.compile(
    r"^\s+the\s+(?P<marked>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s+(?:to\s+)?[a-z]{3,}\b" + NOT_AN_AGENT_AFTER
)
_BEFORE_NOUN = lazy.compile(
    rf"^\s+(?:(?:to|with|on)\s+)?(?:(?:the|our|your|a|an)\s+)?{_NAME}\s+(?:sub-?)?(?:agent|teammate)\b(?![-\w])",
    re.IGNORECASE,
)
_NOT_A_NAME = frozenset(
    {
        *NOT_AN_AGENT,
        *[
            "it",
            "them",
            "this",
            "these",
            "those",
            "all",
            "any",
            "each",
            "every",
            "one",
            "two",
            "three",
            "four",
            "five",
            "new",
            "parallel",
            "multiple",
        ],
        *[
            "several",
            "another",
            "other",
            "more",
            "same",
            "first",
            "next",
            "last",
            "following",
            "appropriate",
            "relevant",
            "right",
        ],
        *[
            "specialized",
            "agents",
            "subagents",
            "sub-agent",
            "sub-agents",
            "teammates",
            "work",
            "job",
            "jobs",
            "step",
            "steps",
            "tasks",
        ],
    }
)


_ASIDE_AFTER = lazy.compile(r"\s*\([^()]*\)$")
_MENTION_GROUPS = ("name", "plain", "bare", "marked")
# what a clause of its own may open after: a label's colon, an arrow, "then", "and"
_CLAUSE_OPENS = lazy.compile(r"(?:[:→;,]|->|\b(?:then|and))$", re.IGNORECASE)


def mentions(text: str) -> list[ProseSpawn]:
    """The agents a sentence may spawn by name, to be confirmed against the project's agents."""
    found: list[ProseSpawn] = []
    for verb in sorted(_instruction_verbs(text) + _describing_verbs(text)):
        before = text[: verb.start].strip(" *-#>0123456789.)")
        if verb.word in IMPERATIVE_ONLY and before and not _JOINED_IMPERATIVE.search(before):
            continue  # (but "reject it and ask the spec-auditor to look": a second imperative)
        # "**Fan out** one `researcher` per facet": the verb in bold, its object after the bold
        end = (
            verb.end + 2
            if text.startswith("**", verb.end) and text.endswith("**", 0, verb.start)
            else verb.end
        )
        rest = text[end : end + 160]
        if _handed_over(text, verb):  # what is handed is no agent: "hand the findings to `x`"
            patterns: tuple[re.Pattern[str], ...] = (_TO_A_NAME,)
        elif verb.word in _TO_AN_AGENT_WORDS:
            patterns = (_TO_A_NAME, _AFTER_STRONG, _BEFORE_NOUN)
        elif verb.strong:
            patterns = (_AFTER_STRONG, _BEFORE_NOUN)
        elif verb.word == _ASK:  # "ask the spec-auditor to investigate"
            patterns = (_BEFORE_NOUN, _ASKED)
        else:
            patterns = (_BEFORE_NOUN,)
        if verb.strong and not verb.describing and ":" in rest:
            found.extend(_plugin_ids(rest, verb.start, end))
        m = next((hit for p in patterns if (hit := p.match(rest))), None)
        if m is None:
            continue
        raw = next(g for g in (m.groupdict().get(k) for k in _MENTION_GROUPS) if g).rstrip(".,;:!?")
        name = _ASIDE_AFTER.sub("", raw.strip("`*@"))  # "**feature-planner (Mode B)**"
        if not name or name.lower() in _NOT_A_NAME or code_like(name):
            continue  # "Launch WebSearch": a tool
        group = next(k for k in _MENTION_GROUPS if m.groupdict().get(k))
        if group == "bare" and before and not _CLAUSE_OPENS.search(before):
            continue  # "App Launch template": a noun; "Spawn qa" must open its clause
        at = end + m.start(group) + len(raw) - len(raw.lstrip("`*@"))
        if not any(f.target == name for f in found):
            found.append(ProseSpawn(Form.F6, verb.start, name, at, None, 0))
        if len(found) >= 3:
            break
    found = found[:3] or languages.foreign_mentions(text)
    return found + [m for m in _at_mentions(text) if all(f.target != m.target for f in found)]


# An agent @-mentioned as the object of the words that open a clause, as Claude Code's prompt box
# mentions one to have it invoked, in any language: "SEMPRE EXECUTE O @task-reviewer no final",
# "Then run @code-reviewer on the diff" (a candidate, as every mention). Not a file
# ("@docs/plan.md"), nor what the clause's verb reads or changes ("Update @planner's prompt").
_AT_MENTION = lazy.compile(
    r"(?:^|\n|[.;:!?→>]\s*|\b(?:then|and)\s+)[\s*_>-]*(?P<words>[^\W\d_]+(?:\s+[^\W\d_]+){0,2}?)\s+"
    r"@(?:agent-)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?::[a-z][a-z0-9-]*)?)(?![\w/.@:'’-])"
)
_NOT_INVOKING = frozenset(vocabulary.NOT_INVOKING_WORDS)


def _at_mentions(text: str) -> list[ProseSpawn]:
    found: list[ProseSpawn] = []
    for m in _AT_MENTION.finditer(text):
        if _NOT_INVOKING.intersection(m.group("words").lower().split()) or NEGATION.search(
            text, 0, m.start("name")
        ):
            continue
        found.append(ProseSpawn(Form.F6, m.start("words"), m.group("name"), m.start("name"), None, 0))
    return found[:3]


def _at_mentioned(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _AT_MENTION.search(text) is not None


# "dispatch the work down the chain `web-dev:web-developer if installed → inline`": an agent of a
# plugin by its full id, further on in the clause of a strong verb (a candidate, as every mention)
_PLUGIN_ID = lazy.compile(r"(?<![\w/.:@-])@?(?P<name>[a-z][a-z0-9-]*:[a-z][a-z0-9-]*)(?![\w:/.-])")
_CLAUSE_END = lazy.compile(r"[.;!?](?:\s|$)|\n\s*\n")


def _plugin_ids(rest: str, verb_start: int, base: int) -> list[ProseSpawn]:
    """The `plugin:agent` ids in the clause `rest` (which starts at offset `base`)."""
    stop = _CLAUSE_END.search(rest)
    clause = rest[: stop.start() if stop else len(rest)]
    return [
        ProseSpawn(Form.F6, verb_start, m.group("name"), base + m.start("name"), None, 0)
        for m in _PLUGIN_ID.finditer(clause)
    ][:3]


def _strong_then_word(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A strong verb followed by a name as `mentions` reads one, or with an agent of a plugin by
    its full id further on: what VERB_TRIGGER may not let by."""
    return _STRONG_THEN_WORD.search(text) is not None or (":" in text and _PLUGIN_ID.search(text) is not None)


_STRONG_WORDS = vocabulary.alternation((*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS))
# a strong verb (any form) and what `mentions` reads after it, with the pattern it reads it with
_STRONG_THEN_WORD = lazy.compile(
    rf"(?i:(?<![\w`/:-]){_STRONG_WORDS}(?:e?s)?)(?:\*\*)?" + _AFTER_STRONG.pattern[1:]
)


def _describes(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """`_DESCRIBING` as the recogniser reads it: sentence by sentence, each starting a line (a
    sentence ends at a full stop, ! or ? before white space)."""
    return _DESCRIBING.search(_SENTENCE_END.sub("\n", text)) is not None


_SENTENCE_END = lazy.compile(r"(?<=[.!?])\s+")


# Either a strong verb and a word, a unit's description of itself, or (VERB_TRIGGER) a verb before
# an agent noun.
_ASKED_IN_TEXT = lazy.compile(rf"(?i:(?<![\w`/:-]){_ASK})" + _ASKED.pattern[1:])


def _asked(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """`_ASKED` after one of its verbs, where the verb stands in the text."""
    return _ASKED_IN_TEXT.search(text) is not None


MENTION_TRIGGER = either(
    Trigger((*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS), _strong_then_word),
    Trigger(_DESCRIBING_PROBES, _describes),  # "- Delegates to figma-design-agent for ..."
    VERB_TRIGGER,
    languages.MENTION_TRIGGER,
    Trigger(("@",), _at_mentioned),  # "SEMPRE EXECUTE O @task-reviewer no final"
    # last: its words are everywhere, and where VERB_TRIGGER fires this one need not be asked
    Trigger((_ASK,), _asked, words=(f"{_ASK} the",)),  # "… and ask the spec-auditor to investigate"
)


# "Start `release-lead` with:" and a fence: the fence is its prompt (its first line may well be
# "Task: ..."), whatever the fence's shape. A candidate: the name must be an agent of the project.
_PROMPT_LEAD = lazy.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:start|run|launch|spawn|invoke|dispatch|call|brief|prompt)\s+"
    r"(?:the\s+)?(?:\*\*)?`(?P<name>[a-z][\w-]*(?:[-:][\w-]+)+)`(?:\*\*)?(?:\s+(?:sub-?)?agent)?\s+with"
    r"(?:\s+(?:this|the\s+following|the\s+prompt|this\s+prompt))?:\s*$",
    re.IGNORECASE,
)
_FENCE_OPEN = lazy.compile(r"^\s{0,3}(?:`{3,}|~{3,})")


def _has_prompt_lead(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return any(_PROMPT_LEAD.match(line) for line in text.split("\n") if line.rstrip().endswith(":"))


PROMPT_LEAD_TRIGGER = Trigger(("with:",), _has_prompt_lead)


def _prompt_leads(doc: Doc, claims: Claims) -> Found:
    lines = doc.lines
    sites: list[RawSite] = []
    for block in doc.blocks(PROMPT_LEAD_TRIGGER, ("paragraph",)):
        last = block.end - 1
        m = _PROMPT_LEAD.match(lines[last])
        nxt = next((j for j in range(block.end, min(len(lines), block.end + 3)) if lines[j].strip()), None)
        if m is None or last in claims.lines or nxt is None or not _FENCE_OPEN.match(lines[nxt]):
            continue
        column = m.start("name") + 1
        param = Param("subagent_type", m.group("name"), ValueKind.LITERAL, last, column, last, column)
        sites.append(RawSite(Form.F6, last, column, None, (param,), block, "medium", candidate=True))
    return Found(tuple(sites), frozenset(s.line for s in sites))


PROMPT_LEADS = Pass("prompt leads", (Form.F6,), PROMPT_LEAD_TRIGGER, _prompt_leads)


# A step's worker named by a label: "- Agent: `qa-tester` (sonnet) for standard tests", "**Agent:
# pe-reviewer**" alone under a step's heading, and the call format a skill gives in a fence
# ("Agente: api-designer" over "Tarea: ..."), in any language that writes words apart. A candidate:
# the name must be an agent of the project. In a fence the label is capitalised ("Agent:"): a
# lower-case `agent:` there is a YAML key (a fork's frontmatter).
_LABEL_NOUNS = ("sub-agent", "subagent", "agent", *vocabulary.SPACED_AGENT_NOUNS)
_AGENT_LABEL = lazy.compile(
    rf"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?P<noun>{vocabulary.alternation(_LABEL_NOUNS)})(?:\*\*)?\s*:\s*"
    r"(?:\*\*)?\s*(?:`(?P<name>[a-z][\w-]*(?::[a-z][\w-]*)?)`"
    r"|(?P<plain>[a-z][a-z0-9]*(?:[-:][a-z0-9]+)+)(?=\s|$|[.,;(]|\*\*))",
    re.IGNORECASE,
)


# a line beside it that labels another kind of component: the lines are an inventory of what a
# plugin holds or what to install ("- Skills: `a`, `b`" / "- Agents: `x`, `y`" / "- Hooks: …")
_COMPONENT_LABEL = lazy.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?"
    + vocabulary.alternation(vocabulary.OTHER_COMPONENTS, plural=True)
    + r"(?:\*\*)?\s*:",
    re.IGNORECASE,
)


def _in_inventory(lines: list[str], j: int) -> bool:
    return any(0 <= k < len(lines) and _COMPONENT_LABEL.match(lines[k]) for k in (j - 1, j + 1))


def _has_agent_label(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return ":" in text and any(_AGENT_LABEL.match(line) for line in text.split("\n"))


# the noun alone: a space may stand before the colon ("Agente :", as French sets it), and a probe
# holding a space is read as two words
AGENT_LABEL_TRIGGER = Trigger(
    tuple(vocabulary.probe(noun) for noun in _LABEL_NOUNS),
    _has_agent_label,
)


def _agent_labels(doc: Doc, claims: Claims) -> Found:
    lines = doc.lines
    sites: list[RawSite] = []
    for block in doc.blocks(AGENT_LABEL_TRIGGER, ("paragraph", "fence")):
        fenced = block.kind == "fence"
        if fenced and block.fence_open is not None and opens_a_document(lines, block.fence_open):
            continue  # a file shown whole
        for j in range(block.start, block.end):
            m = _AGENT_LABEL.match(lines[j])
            if m is None or j in claims.lines or (fenced and not m.group("noun")[:1].isupper()):
                continue
            if _in_inventory(lines, j):
                continue  # "- Agents: `debugger`" between "- Skills: …" and "- Hooks: …"
            group = "name" if m.group("name") else "plain"
            column = m.start(group) + 1
            param = Param("subagent_type", m.group(group), ValueKind.LITERAL, j, column, j, column)
            sites.append(RawSite(Form.F6, j, column, None, (param,), block, "medium", candidate=True))
    return Found(tuple(sites), frozenset(s.line for s in sites))


AGENT_LABELS = Pass("agent labels", (Form.F6,), AGENT_LABEL_TRIGGER, _agent_labels)
