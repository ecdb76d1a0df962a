"""The grammar of English spawn prose that the prose forms share (F6 sentences, F7 leads, F8 team
sentences, and the tool sentences of F4 and F5): spawn verbs and whether one is an instruction,
the agents a verb governs, teammate names, the Agent/Task tool named in a sentence, and the
trigger built from those verbs and nouns. Pure text rules over one sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spawnlint import lazy
from spawnlint.model import Form
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.forms.syntax import PARAM_KEYS
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, is_word_char

# a phrasal verb may hold a short object: "fan the work out to agents", "hand it off"
_PHRASAL = "|".join(
    rf"{vocabulary.pattern(first)}\s+(?:[a-z]+\s+){{0,2}}?{vocabulary.pattern(last)}"
    for first, last in (verb.split() for verb in vocabulary.PHRASAL_VERBS)
)
_VERB_WORDS = (
    f"(?:{vocabulary.alternation(vocabulary.STRONG_VERBS)[3:-1]}|{_PHRASAL}"
    f"|{vocabulary.alternation(vocabulary.WEAK_VERBS)[3:-1]})"
)
# "prefer dispatching a fresh subagent": the -ing form after a verb of choosing (its first word,
# lower-cased, is no verb of the lists: the sentence readers take it for a weak verb)
# (a one-letter look back first: most places fail there, not at the leads)
# (a line may break between them: "prefer" at a line's end, "delegating" opening the next)
_GERUNDS = (
    "(?<=["
    + "".join(sorted({lead[-1] for lead in vocabulary.GERUND_LEADS}))
    + "][ \n])(?:"
    + "|".join(rf"(?<=\b{lead}[ \n])" for lead in vocabulary.GERUND_LEADS)
    + ")"
    + vocabulary.alternation(
        vocabulary.gerund(v) for v in (*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS)
    )
)
# not `/delegate`, `x-run`; "re-dispatch" is the verb again (its look back only after a "-")
VERB_RE = lazy.compile(
    rf"(?<![\w`/:-])(?:{_VERB_WORDS}|{_GERUNDS})(?![\w-])|(?<=-)(?<=\bre-){_VERB_WORDS}(?![\w-])",
    re.IGNORECASE,
)


def verb_in(text: str, start: int, end: int) -> bool:
    """Whether a spawn verb (used as a verb or not) stands in text[start:end]."""
    return VERB_RE.search(text, start, end) is not None


STRONG_VERBS = vocabulary.first_words((*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS))
_STRONG_ALONE = frozenset(vocabulary.STRONG_VERBS)


def strong_verb(matched: str) -> bool:
    """Whether a verb VERB_RE matched spawns by itself: a strong verb, or a phrasal one in whole
    ("fire off"); the first word of a phrasal verb alone is a weak verb ("fire a subagent")."""
    words = matched.lower().split()
    return words[0] in _STRONG_ALONE or (len(words) > 1 and words[0] in STRONG_VERBS)


IMPERATIVE_ONLY = vocabulary.first_words(vocabulary.IMPERATIVE_ONLY)
NEGATION = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.NEGATIONS)}\b[^.;:]*$"
    rf"|\b{vocabulary.alternation(vocabulary.REPLACING)}\b[^.;:,→]*$",
    re.IGNORECASE,
)
AGENT_NOUN = vocabulary.alternation(vocabulary.AGENT_NOUNS, plural=True)
CORE_NOUN = vocabulary.alternation(vocabulary.CORE_AGENT_NOUNS, plural=True)
GROUP_NOUN = vocabulary.alternation(vocabulary.GROUP_NOUNS)
BUILTINS = r"(?:general-purpose|Explore|Plan|statusline-setup|claude-code-guide|output-style-setup)"
ID = r"[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*"
# `x`, **x**, __x__, and a code span in bold (**`x`**)
MARKED = rf"(?:\*\*|__)?(?P<mark>\*\*|__|`)(?P<name>{ID})(?P=mark)(?:\*\*|__)?"
FROM_REF = re.compile(  # eager: matches are told apart by `m.re is FROM_REF`
    rf"\b(?:from|using|of|as)\s+(?:the\s+|an?\s+)?{MARKED}(?:\s+(?:sub-?)?agent\b)?", re.IGNORECASE
)
# "agent execution", "agent outputs", "a subagent workflow": a noun after "agent" makes it part of
# a compound noun.
COMPOUND_HEAD = (
    r"(?!-\w)"  # "agent-facing", "agent-spawn": part of a longer word
    r"(?!\s*(?:\([A-Z0-9]{1,6}\)\s*)?(?:sdk|files?|templates?|definitions?|frontmatter|tools?|names?|types?|prompts?|config"
    r"|descriptions?|\.md|teams?|dispatch\w*|calls?|runs?|outputs?|results?|reports?|sessions?"
    r"|execution|runtimes?|time|times|speed|loops?|framework|mode|behaviou?r"
    r"|workflows?|patterns?|architectures?|systems?|approach|strateg(?:y|ies)|orchestration|support"
    # "subagent context": a context, not an agent; "agent windows" (tmux); "reviewer instruction body"
    r"|contexts?|windows?|panes?|instructions?|bod(?:y|ies)"
    # "content in a subagent transcript": a record of one
    r"|transcripts?|logs?|traces?|histor(?:y|ies)"
    r"|process(?:es)?|nodes?|daemons?)\b)"  # "Run a dedicated agent process" (a k3s node's)
)
# (a compound's head after the noun: "**Run `dbt-autofix`** helper tool" names a program)
_NAMED_REF = lazy.compile(rf"{MARKED}\s+{AGENT_NOUN}\b" + COMPOUND_HEAD, re.IGNORECASE)
_PLAIN_REF = re.compile(  # eager: `m.re is _PLAIN_REF`
    rf"\b(?:(?:the|an?|one|two|three|four|five|\d+|all|both)\s+)?"
    rf"(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?::[a-z][a-z0-9-]*)?|[a-z][a-z0-9-]*:[a-z][a-z0-9-]*|{BUILTINS})"
    rf"\s+{CORE_NOUN}\b{COMPOUND_HEAD}"
)
# Agents named right after their noun: "read-only agents (`a`, `b`)", "the subagent: `x`".
_NOUN_THEN_IDS = re.compile(  # eager: `m.re is _NOUN_THEN_IDS`
    rf"\b{AGENT_NOUN}\s*(?:\(|:|—|–)\s*{MARKED}", re.IGNORECASE
)
_CODE_HELPERS = lazy.compile(r"\b(?:library|shell|bash|utility|script|code|function)\s+$", re.IGNORECASE)
_MORE_IDS = lazy.compile(rf"\s*(?:,|\band\b|\bor\b)\s*(?:and\s+|or\s+)?{MARKED}")
# An agent held in a variable: "the $CLAUDE_CODE_GUIDE_AGENT subagent", "`$REVIEWER` agent".
_VARIABLE_REF = lazy.compile(rf"`?(?P<name>\$\{{?[A-Z][A-Z0-9_]*\}}?)`?\s+{CORE_NOUN}\b", re.IGNORECASE)
# What follows a name that is not an agent's: "the `x` skill", "`sdd-system` CLI subcommands".
NOT_AN_AGENT_AFTER = (
    r"(?!\s*(?i:skill|command|subcommand|tool|script|file|cli|hook|workflow|mcp|server|plugin|template"
    r"|(?:sub)?process(?:e)?|daemon|thread|container|job|shell)s?\b)"
    # "Dispatch a `close-notification` browser event": an event, a word describing it or none
    r"(?!\s*(?:[\w-]+\s+)?(?i:events?|signals?|notifications?)\b)"
)
# What may stand before an id a verb governs: an article or a count ("Spawn 2-3 `scout` calls")
_DETERMINER = r"(?:the|a|an|one|two|three|four|five|\d+(?:\s*[-–]\s*\d+)?)"
# an agent's id: `code-reviewer`, `shop:critic`, `$REVIEWER`
ID_NAME = (
    r"(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[A-Za-z][\w-]*(?::{1,2}[A-Za-z][\w.-]*)+"
    r"|\$\{?[A-Z][A-Z0-9_]*\}?)"
)
# After spawn/launch/dispatch, an id right after the verb: ``Spawn `shop:critic` ``,
# ``Dispatch `codebase-recon` via the Agent tool``, `` `Agent(shop:critic)` ``.
_ID_AFTER_VERB = lazy.compile(
    rf"^\s*(?:{_DETERMINER}\s+)?(?:\*\*)?(?P<mark>`|\*\*)(?:Agent\(|Task\()?"
    + ID_NAME
    + r"\)?(?P=mark)"
    + NOT_AN_AGENT_AFTER
)


def id_after_verb(rest: str, base: int, pattern: re.Pattern[str] | None = None) -> list[tuple[str, int]]:
    """The id right after a verb (`rest` follows it, at `base`; `pattern` says how it stands
    there, an article or a count before it by default): ``Spawn 2 `scout` ``."""
    m = (pattern or _ID_AFTER_VERB).match(rest)
    if m is None or m.group("name").lower() in NOT_AN_AGENT or not _agent_like(m.group("name"), m):
        return []
    return [(m.group("name"), base + m.start("name"))]


_NAMED_LIST = lazy.compile(r"\b(?:named|called)\s+", re.IGNORECASE)
_NAME_TOKEN = lazy.compile(
    r"""`([^`\s]+)`|\*\*([^*\s]+)\*\*|"([^"\s]+)"|'([^'\s]+)'|“([^”\s]+)”|([a-z][\w-]*)"""
)
_LIST_JOINER = lazy.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)")
_DIALOGUE = lazy.compile(
    r"^\s*(?:[-*>]\s*)?(?:\*\*)?(?:assistant|user|human|commentary|claude)(?:\*\*)?\s*:", re.IGNORECASE
)
NOT_AN_AGENT = frozenset(
    {
        "agent",
        "agents",
        "subagent",
        "task",
        "the",
        "a",
        "an",
        "claude-code",
        "agent-teams",
        "todo",
        "team",
        "and",
        "or",
        "with",
        "to",
        "for",
        "from",
        "each",
        "who",
        "that",
        "which",
        # a count set in bold ("dispatch **one** subagent"), not an agent's name
        *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
        *("all", "both", "every", "several", "multiple", "another", "single"),
    }
)


_PLAIN_STOP = frozenset(
    {
        "then",
        "keep",
        "so",
        "while",
        "when",
        "it",
        "them",
        "let",
        "ask",
        "have",
        "give",
        "send",
        "wait",
        "use",
        "run",
        "make",
        "tell",
        "in",
        "on",
        "at",
        "by",
        "as",
        "but",
        "if",
        "after",
        "before",
    }
)


@dataclass(frozen=True)
class ProseSpawn:
    form: Form
    offset: int  # of the spawn verb
    target: str | None
    target_offset: int
    name: str | None
    name_offset: int
    # what it names spawns only if that is an agent of the project ("invoke `x`" may run a skill,
    # a command or a CLI just as well): the project stage confirms it
    candidate: bool = False


_NOUN_BEFORE = lazy.compile(
    r"\b(?:a|an|the|each|every|this|that|one|named|unnamed|first|next|last|same|its|their|your|our|dry|test)\s+$"
    r"|\b(?:way|how|when|whether|ability|able|order|time|prepares?|ready|about|failed|unable|trying|tried"
    r"|attempt(?:s|ed|ing)?)\s+to\s+$"
    # "Attempting to commit, or spawn another agent"
    r"|\b(?:trying|tried|attempt(?:s|ed|ing)?)\s+to\s+[^.;:]{0,80},\s+(?:or|and)\s+$"
    r"|\b(?:at|on|per|upon|of|for|after|before|during)\s+$"  # "set at spawn time"
    r"|\b(?:a|an|the|each|every|this|that|one)\s+[a-z]+-[a-z-]+\s+$",  # "a half-authenticated run produces"
    re.IGNORECASE,
)


def is_instruction(text: str, verb: re.Match[str]) -> bool:
    """The word is used as a verb that is not negated: not "a named spawn", not "do not spawn";
    nor what a slash command does ("run `/x:diagnose` to launch the diagnostician agent")."""
    before = text[max(0, verb.start() - _CLAUSE_WINDOW) : verb.start()]
    if text.lstrip().startswith("|"):
        before = before[before.rfind("|") + 1 :]  # a table row: its cell, not "Don't know" two cells back
    if _CJK_AFTER.match(text, verb.end()):
        return False  # an English word in a CJK sentence: a noun ("run 比較は"), or a verb that other
        # languages read ("invoke しない", "spawn する")
    if _QUOTE_OPENS.search(before) and _QUOTE_CLOSES.match(text, verb.end()):
        return False  # a quoted label ("Delegate to subagent" as an option, a todo item)
    if text.count("`", 0, verb.start()) % 2 and "`" in text[verb.end() : verb.end() + 200]:
        return False  # in a code span: a command's name (`worker dispatch`), a phrase quoted
    return not (
        # "do **not** fan out"; not "(it never means none), then spawn": an aside closed before the verb
        NEGATION.search(_outside_asides(before.replace("*", "").replace("__", "")))
        or any(p.search(before) for p in _NOT_AN_INSTRUCTION_BEFORE)
        or (_THIRD_PARTY.search(before) and not _CONDITION_CLOSED.search(before))
        or (_YOU_CAN.search(before) is not None and _UP_TO.match(text, verb.end()) is not None)
        or (_YES_NO.search(before) is not None and _ASKED_AFTER.match(text, verb.end()) is not None)
    )


_ASIDE = lazy.compile(r"\([^()\n]*\)")
_PASSIVE = lazy.compile(r"\b(?:is|are|was|were|been|being)\s+$", re.IGNORECASE)  # "a step is run by an agent"
_CJK_AFTER = lazy.compile(rf"[ \t*_]*[{vocabulary.CJK_LETTERS}]")


def _outside_asides(before: str) -> str:
    """The text before a verb without the parenthetical asides closed before it (one opened
    before the sentence began ends at its ")")."""
    before = _ASIDE.sub("", before)
    return before[before.rfind(")") + 1 :]


_QUOTE_OPENS = lazy.compile(r"(?:^|[\s(:\[])[\"“][^\"”\n]{0,60}$")  # ("Use Task() to delegate …")
_QUOTE_CLOSES = lazy.compile(r"[^\"”\n.!?]{0,80}[\"”]")
# "Users can invoke agents manually", "Claude uses Task tool to launch agent": what someone
# else does, described ("you" is the model the prompt instructs)
_THIRD_PARTY = lazy.compile(
    r"\b(?:users?|the\s+user|claude(?:\s+code)?|developers?|authors?|people|humans?|someone|anyone"
    r"|(?:a|any|the)\s+(?:person|human|maintainer|reviewer|teammate|assistant)"
    # "Six arkhe commands dispatch subagents on ...", "a model can ... hand off to other agents"
    r"|commands|skills|hooks|plugins|agents|they|models?|(?:a|an|the)\s+model|llms?"
    r"|orchestrators|(?:an|any)\s+orchestrator)\s+"  # other agents' leads (the orchestrator: the model)
    r"(?:(?:can|may|might|could|will|would|also|automatically|then|must|should|[a-z]+ly)\s+){0,2}"
    r"(?:[a-z]+\s+(?:and|or)\s+)?"  # "Users discover and invoke agents"
    r"(?:[a-z]+\b[^.;:]{0,40}\bto\s+"
    r"|[a-z]+\b[^.;:]{0,80},\s+(?:(?:then|and|or)\s+)?)?$",  # "can use tools and context, hand off"
    re.IGNORECASE,
)
# "The 2024-01-01 release-gate run produced …": a noun phrase that opens the sentence ends in the
# word, a noun or the verb of that subject; an imperative opens its sentence or follows a clause
# "… — not all sessions use subagents": a quantified subject opening its clause tells what is so
_SUBJECT_BEFORE = lazy.compile(
    r"(?:^[\s>*_#-]*(?:\d+[.)]\s+)?(?:the|a|an)\s+"
    r"|(?:^|[—–|;]\s*)[\s>*_#-]*(?:not\s+)?(?:all|most|some|many|few|no)\s+(?:of\s+(?:the|our|your)\s+)?)"
    r"(?:(?!(?:must|should|will|shall|can|may|then|and|or|to|now|first|also)\s)[\w'.-]+\s+){1,3}$",
    re.IGNORECASE,
)
# "Commands ... typically delegate to agents": what something does as a rule, told of (a word
# before the adverb: a sentence that opens "Usually spawn two agents" is still an instruction)
# (nor after a modal or "you": "You should usually delegate to the reviewer agent" is one)
_HABITUAL = lazy.compile(
    r"(?<![\w'])(?!(?:should|must|shall|will|would|can|could|may|to|please|you|we)\b)[\w`/>-]+\s+"
    r"(?:and\s+)?(?:typically|usually|often|generally|normally|commonly)\s+$",
    re.IGNORECASE,
)
# "Handoffs enable agents to delegate tasks": what something lets another do, told of
# ("… by allowing them to execute functions, call APIs, and delegate to other agents")
_ENABLED = lazy.compile(
    r"\b(?:enables?|enabling|allows?|allowing|permits?|lets?|letting)\s+(?:(?:the|its|your|other|an?)\s+)?"
    r"(?:agents?|models?|claude|users?|teammates?|sub-?agents?|them)\s+(?:to\s+)?"
    r"(?:[^.;:]{0,80},\s+(?:and\s+|or\s+)?)?$",
    re.IGNORECASE,
)
# "check whether this harness can spawn agents", "The orchestrator can dispatch subagents that
# query it": what something is able to do, told of ("may" stays an instruction: a permission)
_CAPABLE = lazy.compile(
    r"\b(?:harness(?:es)?|orchestrators?|coordinators?|(?:the|this|that)\s+(?:lead|main\s+agent|session)|it)"
    r"\s+(?:can|could|might)\s+(?:also\s+)?$",
    re.IGNORECASE,
)
# "When the smoke target can spawn subagents or task worktrees, the sandbox matters": what a
# condition supposes something able to do (a comma after it, then the instruction: "If you can,
# spawn one" instructs)
_CAN_IN_A_CONDITION = lazy.compile(
    r"(?:^|[.!?]\s|,\s|\bthat\s)[\s>*_#-]*(?:\d+[.)]\s+)?(?:when|whenever|if|once|while|unless|until|where)\s+"
    r"[^,;:.!?()]{1,60}?(?<!\byou)(?<!\bwe)\s(?:can|could|might|will|would)\s+(?:also\s+)?$",
    re.IGNORECASE,
)
# "Does this skill spawn sub-agents or teams?": a question about what something does
_YES_NO = lazy.compile(
    r"(?:^|[\"“:]\s*)(?:does|do|did|will|is|are)\s+(?:this|the|it|your|its|a|an)\b[^.;:!?]{0,40}$",
    re.IGNORECASE,
)
_ASKED_AFTER = lazy.compile(r"[^.;:!?\n]{0,80}\?")
# "You can run up to 500 concurrent agents per account": a limit told of
_YOU_CAN = lazy.compile(r"\b(?:you|we|users?)\s+can\s+$", re.IGNORECASE)
_UP_TO = lazy.compile(r"\s+up\s+to\s+\d", re.IGNORECASE)
# "a mandate that every task in this repo must consult the `x` agent": what a rule someone keeps
# says (a relative clause with a subject of its own); not "make sure that each …"
_MANDATE = lazy.compile(
    r"(?<!\bso\s)(?<!\bsure\s)(?<!\bensure\s)\bthat\s+(?:every|each|all|any|no)\s+(?:[\w-]+\s+){1,6}?"
    r"(?:must|should|shall|will)\s+(?:always\s+|first\s+)?$",
    re.IGNORECASE,
)
# "- You want to delegate tasks to another AI agent": a wish, what a skill is for (a trigger
# condition), not an instruction
_WISH = lazy.compile(
    r"\b(?:you|we|users?|the\s+user)\s+(?:want|wants|wish|wishes|would\s+like|['’]d\s+like)\s+to\s+$",
    re.IGNORECASE,
)
# "**Why**: Delegate to focused agents with their own tools": a reason given for a pattern
_REASON_LABEL = lazy.compile(
    r"(?:^|\n)[\s>*_-]*(?:\*\*|__)?(?:why|rationale|benefits?|purpose|motivation)(?:\*\*|__)?\s*[:：]"
    r"\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
# 'Add guidance: "Use subagents for parallel, independent workstreams. …"': words to write into a
# prompt, quoted after what names them
_TEXT_TO_WRITE = lazy.compile(
    r"\b(?:add|write|include|insert|append|guidance|instructions?|principles?|rules?|sentences?"
    r"|wording|prompts?|like)\s*:\s*[\"“][^\"”\n]{0,60}$",
    re.IGNORECASE,
)
# "Copy it into `.claude/agents/` so `/plan` and `/code-review` can invoke it as a subagent": what
# the step makes possible for something else
_SO_IT_CAN = lazy.compile(
    r"\bso(?:\s+that)?\s+(?!you\b|we\b)[^,;:.!?]{1,60}?\s(?:can|could|will|would|may)\s+$", re.IGNORECASE
)
# "For detailed guidance, use the `database-reviewer` agent": a reference for the reader
_FOR_MORE = lazy.compile(
    r"(?:^|\n)[\s>*_-]*for\s+(?:more|detailed|further|additional|in-depth|deeper|full|complete)\s+"
    r"(?:guidance|details?|information|info|help|reference|documentation|docs|explanations?|examples?)\s*,\s*$",
    re.IGNORECASE,
)
# "When you spawn a subagent, include the rules": the spawn is the condition of another instruction
# ("the task you hand it, so a subagent …": a relative clause, what you do to something named)
_WHEN_YOU = lazy.compile(
    r"\b(?:when(?:ever)?|each\s+time|every\s+time|before|after|once|if)\s+you\s+(?:later\s+|then\s+)?$"
    r"|\b(?:the|a|an|each|every|any)\s+[\w-]+\s+(?:that\s+|which\s+)?you\s+$",
    re.IGNORECASE,
)
# "Tell Claude to create an agent team": what the user says to Claude (a guide for the user)
_TOLD_TO_CLAUDE = lazy.compile(r"\b(?:tell|ask|instruct|prompt)\s+claude(?:\s+code)?\s+to\s+$", re.IGNORECASE)
# "Verify that the lead is using the Agent tool to spawn teammates": what someone is doing
_PROGRESSIVE = lazy.compile(r"\b(?:is|are|was|were)\s+[a-z]+ing\b[^.;:]{0,60}\bto\s+$", re.IGNORECASE)
# "If the user asks for depth, dispatch one subagent": the someone is in a condition closed by a
# comma, and the verb after it is the instruction
_CONDITION_CLOSED = lazy.compile(
    r"\b(?:if|when|whenever|once|unless|after|while|until)\s[^.;:,]{0,80},\s+(?:(?:then|and)\s+)?$",
    re.IGNORECASE,
)
# "suggest running `/cloudflare:diagnose` to launch ...": the command does the launching
_BY_A_COMMAND = lazy.compile(r"`/[\w:.-]+[^`]*`[^.;:`]{0,40}\bto\s+$", re.IGNORECASE)
# "- `/cloudflare:diagnose` — Launch the diagnostic subagent", "- **/a2a-loop** - Start a long-running
# agent", "- `Task` - Launch other agents",
# "- `context: fork` -- runs the skill in a subagent": what a command, tool or key does
# A flag as a code span opens: `` `--team` ``, `` `-p` `` (its item says what the model does when given it)
FLAG = r"--?[A-Za-z]"
# (not a flag's item: "- `--team` — Dispatch a planning team" is what the model does when given it)
_COMMAND_ITEM = lazy.compile(
    rf"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?`(?!{FLAG})[^`\n]+`(?:\*\*)?\s*(?:—|–|--|-|:)"
    r"|^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*/[\w:.-]+[^*\n]*\*\*\s*(?:—|–|--|-|:)"  # "- **/a2a-loop** - Start ..."
    # a table row about a field: "| `agent` | Delegate to ..."
    rf"|^\s*\|\s*(?:\*\*)?`(?!{FLAG})[^`\n]+`(?:\*\*)?\s*\|"
    r"|^\s*\|\s*\*\*(?:Agent|Task)\*\*\s*\|"  # a table of tools: "| **Task** | Spawn subagents |"
    # a table mapping tools to another harness's: "| `Task` tool (dispatch subagent) | `spawn_agent` |"
    r"|^\s*\|\s*(?:\*\*)?(?:multiple\s+)?`(?:Agent|Task)`(?:\*\*)?\s+(?:tool|calls?)\b"
)


_CLAUSE_WINDOW = 160  # negation and determiners stand close to their verb; long lines stay linear


def references(rest: str, base: int, strong: bool, whole_sentence: bool = False) -> list[tuple[str, int]]:
    """Agent names the spawn verb governs: `**security-auditor** agent`, `the code-reviewer
    agent`, and after spawn/launch/dispatch an id (`` `shop:critic` ``). The first must stand
    within a few words of the verb ("Run the same check as the x agent" spawns nothing); in a
    team sentence (`whole_sentence`) any agent the sentence names counts, `from **planner**` too."""
    text = rest if whole_sentence else rest[:160]
    stop = None if whole_sentence else re.search(r"[.;:]\s|\bthen\b|\bafter\b|\bwhen\b|\bif\b", text)
    text = text[: stop.start()] if stop else text
    if not whole_sentence and (clause := _RELATIVE_CLAUSE.search(text)):
        text = text[: clause.start()]  # "use the `/plan` command, which invokes the x agent"
    found: dict[str, int] = {}
    patterns = [_NAMED_REF, _PLAIN_REF, _NOUN_THEN_IDS, _VARIABLE_REF]
    if whole_sentence:
        patterns.append(FROM_REF)
    if strong:
        patterns.append(_ID_AFTER_VERB)
    for pattern in patterns:
        for m in pattern.finditer(text):
            name = m.group("name")
            if name.lower() in NOT_AN_AGENT or name in found or not _agent_like(name, m):
                continue
            if m.re is _NOUN_THEN_IDS and _CODE_HELPERS.search(text, max(0, m.start() - 12), m.start()):
                continue  # "the library helpers — `stage`, `say`": functions of a script
            if not whole_sentence and not found and not governed(text[: m.start()]):
                continue
            found[name] = base + m.start("name")
            if m.re is _NOUN_THEN_IDS:  # the rest of the list: "agents (`a`, `b`, `c`)"
                pos = m.end()
                while more := _MORE_IDS.match(text, pos):
                    found.setdefault(more.group("name"), base + more.start("name"))
                    pos = more.end()
    return sorted(found.items(), key=lambda item: item[1])


# A relative clause says what the object does: its agents are governed by its own verb, not the
# sentence's ("Use `/rd:plan` command which invokes the super-architect agent").
_RELATIVE_CLAUSE = lazy.compile(
    r",?\s+(?:which|that|who)\s+(?:(?:also|then|in\s+turn)\s+)?"
    r"(?:invokes|launches|spawns|dispatches|runs|calls|delegates|starts|uses|creates|hands)\b",
    re.IGNORECASE,
)


def governed(between: str) -> bool:
    """Whether the words between a verb and an agent let the verb govern it: "Delegate the
    migration to the x agent" does; "Run the same check as the x agent" does not. An aside in
    parentheses is one word ("Delegate the analysis (power / stability) to subagents")."""
    words = _WRAPPED_ASIDE.sub(" (aside) ", between).lower().split()
    return len(words) <= 6 and not _COMPARISON & set(words)


# An aside in parentheses, its lines perhaps wrapped: one word between a verb and its agents
WRAPPED_ASIDE = r"\([^()]{1,160}\)"
_WRAPPED_ASIDE = lazy.compile(WRAPPED_ASIDE)
_HYPHENATED_ADJECTIVE = lazy.compile(
    r"-(?:ready|based|powered|driven|level|grade|aware|specific|like|style|enabled|capable|friendly"
    r"|native|first|only|safe|heavy|intensive|out|context|lived|scoped|isolated)$"
)
_COMPARISON = frozenset({"as", "like", "than", "instead", "from", "of", "about", "unlike", "same"})


_CODE_CASE = lazy.compile(r"[a-z]+[A-Z]|[A-Z][a-z]+[A-Z]")


def code_like(name: str) -> bool:
    """A name in camel or Pascal case (`resolveActionResult`, `WebSearch`): code or a tool, never
    an agent's (agent names are lower case)."""
    return _CODE_CASE.match(name) is not None


def _agent_like(name: str, m: re.Match[str]) -> bool:
    if name.startswith("$"):
        return True  # a variable: the target is not known, the spawn is
    if re.search(r"\.(?:md|json|js|ts|py|sh|ya?ml|toml|txt)$|/", name):
        return False  # a file, not an agent
    if re.search(r"[a-z]\.[A-Za-z_]", name) or code_like(name):
        return False  # `lazyItems.itemKey`, `resolveActionResult`: code (agent names have no capitals)
    if "_" in name and m.group(0).rstrip().lower().endswith(("helper", "helpers")):
        return False  # "use the existing `find_by_email` helper": a function
    if m.re is _PLAIN_REF and _HYPHENATED_ADJECTIVE.search(name):
        return False  # "production-ready agents", "LLM-based agents": a kind of agent, not its name
    if m.re is FROM_REF and not m.group(0).rstrip().lower().endswith("agent"):
        return bool(re.match(r"^[a-z][\w.-]*(?::[\w.-]+)*$", name))  # `from **planner**`
    return True


def teammate_names(text: str, after: int = 0) -> list[tuple[str, int]]:
    """Names given to teammates: `named a, b and c`, `teammates \\`x\\` and \\`y\\``,
    `spawn \\`lead\\` from **planner**`; a team's own name (`a team called x`) is not one."""
    for m in _NAMED_LIST.finditer(text, after):
        before = text[max(after, m.start() - 40) : m.start()]
        if re.search(r"\b(?:team|the)\s*$", before, re.IGNORECASE):
            continue  # "a team called x"; "amend the named parent" (the one named before)
        names = _name_list(text, m.end())
        if names:
            return names
    for m in re.finditer(r"\b(?:teammates?|spawn|spawns)\s+(?=`)", text[after:], re.IGNORECASE):
        names = _name_list(text, after + m.end(), marked_only=True)
        if names and not all(n.lower() in NOT_AN_AGENT for n, _ in names):
            return names
    return []


# After a plain word, another that makes it part of a noun phrase ("named taste anchors"); a
# name is followed by a joiner, a preposition, a clause or a verb ("named alpha, beta and gamma",
# "named alpha to review", "named alpha reviewing the diff")
_NOUN_AFTER_NAME = lazy.compile(
    r"[ \t]+(?!(?:and|or|nor|to|with|for|from|using|of|as|who|that|which|in|on|at|by|then|each"
    r"|is|are|was|will|should|must|can|may|via|per|under|into|plus|while|when|if|so)\b)[a-z]+(?<!ing)\b(?![-:`])"
)


def _name_list(text: str, at: int, marked_only: bool = False) -> list[tuple[str, int]]:
    """`a`, `b` and `c` (all marked) or alpha, beta and gamma (all plain)."""
    names: list[tuple[str, int]] = []
    pos = at
    plain: bool | None = None
    while True:
        token = _NAME_TOKEN.match(text, pos)
        if token is None or (marked_only and token.group(6)):
            break
        value = next(g for g in token.groups() if g)
        is_plain = bool(token.group(6))
        if plain is not None and is_plain != plain:
            break
        plain = is_plain
        if value.lower() in NOT_AN_AGENT or (is_plain and value.lower() in _PLAIN_STOP):
            break
        if is_plain and (
            re.match(rf"\s+{AGENT_NOUN}\b", text[token.end() :], re.IGNORECASE)
            or _NOUN_AFTER_NAME.match(text, token.end())
        ):
            break  # "a named review agent", "named taste anchors": an adjective, not a name
        group = next(k for k, g in enumerate(token.groups(), start=1) if g)
        names.append((value.rstrip(".,;:"), token.start(group)))
        pos = token.end()
        skip = re.match(
            rf"\s+(?:from|using|of|as)\s+(?:the\s+|an?\s+)?{MARKED}(?:\s+(?:sub-?)?agent\b)?", text[pos:]
        )
        if skip:
            pos += skip.end()
        joiner = _LIST_JOINER.match(text, pos)
        if joiner is None:
            break
        pos = joiner.end()
    return names


def no_instruction(text: str, diagrams: bool = True) -> bool:
    """A sentence that instructs no one, whatever verbs it holds: a line of an example dialogue
    (`assistant: I'll launch the x agent`), a flow diagram ("1.Setup → 2.Spawn Team → 3.Review";
    not with `diagrams` false: a step of one may name a project's agent, "Dispatch
    domain-researcher → Share findings"), an item saying what a slash command does ("-
    `/x:diagnose` — Launch the diagnostic agent"), a question ("Does it spawn sub-agents (Agent
    tool)?"), or the lead of a list of when to choose an agent ("**Use an AGENT instead when:**")."""
    return (
        _DIALOGUE.match(text) is not None
        or (diagrams and _flow_diagram(text))
        or _COMMAND_ITEM.match(text) is not None
        or _QUESTION.match(text) is not None
        or _WHEN_TO_CHOOSE.match(text) is not None
        or authoring_rule(text)
        or _QUOTED_ITEM.match(text) is not None
        or _EXAMPLE_LABEL.match(text) is not None
    )


# An example's title, or a quotation under a label of one: "**Example 1: Spawn parallel review
# agents**", 'Good: "Launch multi-agent orchestrator by March 31."'
_EXAMPLE_LABEL = lazy.compile(
    r"^[\s>*_#-]*(?:\*\*)?(?:examples?(?:\s+\d+)?\s*:"
    r'|(?:good|bad|better|worse|e\.g\.|for\s+example)(?:\*\*)?\s*[:—–-]\s*(?:\*\*)?\s*["“])',
    re.IGNORECASE,
)


# A list item that is all one quotation: someone's words (a phrase the user may say, a sample
# request), not the unit's ("- "Set up an agent team to research this."")
_QUOTED_ITEM = lazy.compile(r'^\s*(?:[-*+]\s+|\d+[.)]\s+)(?:"[^"\n]+"|“[^”\n]+”)\s*$')


def describes_a_row(line: str) -> bool:
    """Whether a table row tells what a field, command, skill or tool does (its first cell a code
    span): each sentence of the row does, not only its first ("| `review` | After a diff exists.
    Dispatches a reviewer subagent. |" tells what the `review` skill does)."""
    return line.lstrip().startswith("|") and _COMMAND_ITEM.match(line) is not None


# A rule for writing skills or commands, said of them in general: "**Skill dispatches a reviewer**
# → use the `Task` tool with …", "Skills that spawn agents use …", "A command that needs review
# should launch …" (an authoring guide's convention; "This skill dispatches …" is the unit's own)
_AUTHORING_RULE = lazy.compile(
    r"^[\s>*_#-]*(?:\d+[.)]\s*)?(?:\*\*)?(?:(?:a|an|any|every|each)\s+)?(?:skill|command)"
    r"(?:s\s+(?:that|which)|\s+(?:that|which|[a-z]+s))\b",
    re.IGNORECASE,
)


def authoring_rule(text: str) -> bool:
    """Whether the sentence is a rule for writing skills or commands in general, not a step."""
    return _AUTHORING_RULE.match(text) is not None


# "6. **Delegations**: Does it spawn sub-agents (Agent tool)?": asked of what is read, not told
# (not a question put to the user: "Would you like to run the skeptic agent?" offers the spawn)
_QUESTION = lazy.compile(
    r"^[\s>*_#-]*(?:\d+[.)]\s*)?(?:\*\*[^*\n]{1,40}\*\*\s*:?\s*)?"
    r"(?:does|do|did|is|are|was|were|can|has|have)\s+(?:it|they|this|that|these|those|the|any)\s[^?\n]*\?\s*$",
    re.IGNORECASE,
)
# "**Use an AGENT instead when:**" and the conditions below it: a guide to choosing a component
_WHEN_TO_CHOOSE = lazy.compile(
    r"^[\s>*_#-]*(?:\*\*)?use\s+(?:an?\s+)?(?:sub-?)?agents?\s+(?:instead\s+)?(?:when|if)\s*(?:\*\*)?\s*:",
    re.IGNORECASE,
)


_ARROW = lazy.compile(r"→|->|⇒")


def _flow_diagram(text: str) -> bool:
    """Steps joined by arrows ("1.Setup → 2.Spawn Team → 3.Review") outside parentheses, or a
    diagram drawn with box lines; not a sentence that names a chain of two arrows after a clause
    of its own ("dispatch the work down the chain `a if installed → b if installed → inline`")."""
    if _BOX_LINES.search(text):
        return True
    arrows = _ARROW.split(_ASIDE.sub("", text), maxsplit=3)  # not "(research → outline → draft)"
    return len(arrows) == 4 or (len(arrows) == 3 and len(arrows[0].split()) <= 6)


# (three in a row: "──" is a dash in Japanese prose)
_BOX_LINES = lazy.compile(r"[─━]{3}|[│┃┌┐└┘├┤┬┴┼]")


# The Agent/Task tool named in a sentence (the lead of F4's parameter bullets, an F5 sentence).
_TOOL_MENTION = lazy.compile(
    r"\b(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?\s+tool\b|`(?:Agent|Task)`|\b(?:Agent|Task)\s*\("
    r"|\btool\s+`?(?:Agent|Task)\b"
)
_TOOL_SENTENCE_VERB = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.TOOL_SENTENCE_VERBS)}\b", re.IGNORECASE
)
_TOOL_SENTENCE_NOUN = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.TOOL_SENTENCE_NOUNS, plural=True)}\b", re.IGNORECASE
)


_STRONG_VERB_WORD = lazy.compile(
    rf"(?<![\w`/:-]){vocabulary.alternation((*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS))}(?![\w-])",
    re.IGNORECASE,
)


def names_the_tool(text: str) -> bool:
    return _TOOL_MENTION.search(text) is not None


# Agents that are processes in terminal windows: "Each agent runs in its own tmux window", "herdr,
# a terminal-native agent multiplexer … panes"; a document that says so and never names the spawn
# tool, a sub-agent, a teammate or `subagent_type` spawns its agents with that program
_TERMINAL_AGENTS = lazy.compile(r"\b(?:tmux|panes?|multiplexer)\b", re.IGNORECASE)
_SPAWNED_HERE = lazy.compile(r"\b(?:sub-?agents?|teammates?|subagent_type|TeamCreate)\b", re.IGNORECASE)


def agents_are_processes(text: str) -> bool:
    """Whether a document's agents run as programs in terminal windows, not as subagents."""
    return (
        _TERMINAL_AGENTS.search(text) is not None
        and _SPAWNED_HERE.search(text) is None
        and not names_the_tool(text)
    )


def last_spawn_mention(text: str) -> int | None:
    """Where the text last names the Agent/Task tool, else where a spawn verb stands in a text
    that names agents; None when it does neither."""
    tool = list(_TOOL_MENTION.finditer(text))
    if tool:
        return tool[-1].start()
    verb = _TOOL_SENTENCE_VERB.search(text)
    if verb and _TOOL_SENTENCE_NOUN.search(text):
        return verb.start()
    strong = _STRONG_VERB_WORD.search(text)  # "Spawn the reviewer with `subagent_type: x`"
    return strong.start() if strong else None


def tool_in(text: str) -> str | None:
    m = re.search(r"\b(Agent|Task)\b", text)
    return m.group(1) if m else None


# The trigger of English spawn prose (F6 sentences, F7 leads). Every reading of a verb and its
# agents above needs, in one paragraph, a spawn verb and after it: for a strong verb (spawn,
# launch, ...) an agent noun, a team, a panel, a marked id right after it or a colon that ends a
# line; for any verb an agent noun (agent, teammate, worker, reviewer, critic, helper) standing
# as a word within 160 characters (`references`' window) or five words.
_STRONG_VERB_PATTERNS = tuple(
    (word.split()[0], re.compile(vocabulary.pattern(word) + r"(?![\w-])"))
    for word in (*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS)
)
_NOUN_PROBES = vocabulary.probes(vocabulary.AGENT_NOUNS)
_STRONG_OBJECTS = (
    *_NOUN_PROBES,
    *vocabulary.GROUP_NOUNS,
    *vocabulary.SPAWNED_ROLES,
    *vocabulary.probes(vocabulary.SPAWNED_TASKS),
    "task",  # "Spawn parallel research tasks" (vocabulary.TASK_WORDS)
    *vocabulary.AGENT_ONLY_KEYS,  # "Dispatch via `run_in_background: true`"
)
_PRONOUN_NEXT = lazy.compile(rf"\s+{vocabulary.alternation(vocabulary.SPAWNED_PRONOUNS)}\b")
_MARKED_NEXT = lazy.compile(rf"\s*(?:{_DETERMINER}\s+)?(?:`|\*\*)")
_REFERENCE_WINDOW = 170  # 160 after the verb, and the verb itself
_COLON_AT_END = lazy.compile(r":(?:\*\*|__)?[^\S\n]*$", re.MULTILINE)


def _verb_with_object(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _strong_verb(low, paragraphs) or _verb_before_noun(text, low, paragraphs)


def _strong_verb(low: str, paragraphs: Paragraphs) -> bool:
    last_object: dict[int, int] = {}  # paragraph start -> where its last colon or noun starts
    for word, pattern in _STRONG_VERB_PATTERNS:
        if word not in low:
            continue
        for m in pattern.finditer(low):
            if _MARKED_NEXT.match(low, m.end()):
                return True  # ``Spawn `shop:critic` ``
            start, end = paragraphs.around(m.end())
            if _PRONOUN_NEXT.match(low, m.end()) and "agent" in low[start : m.start()]:
                return True  # "... subagents, launch one"
            if start not in last_object:
                nouns = (low.rfind(mark, start, end) for mark in _STRONG_OBJECTS)
                last_object[start] = max(_last_line_colon(low, start, end), *nouns)
            if last_object[start] >= m.end():
                return True  # a colon or an agent, team or panel after the verb
    return False


def _last_line_colon(low: str, start: int, end: int) -> int:
    """Where the last colon that ends a line of low[start:end] stands (-1: none). A strong verb
    with no agent after it leads a list of agents only in a sentence that ends with a colon
    (f7_list.spawn_lead), and a sentence ends only where its line or a full stop does."""
    if "\r" in low[start:end]:
        return low.rfind(":", start, end)  # lines that end in CR alone: any colon
    last = -1
    for m in _COLON_AT_END.finditer(low, start, end):
        last = m.start()
    return last


def _verb_before_noun(text: str, low: str, paragraphs: Paragraphs) -> bool:
    searched = (0, 0)  # no verb in text[searched[0]:searched[1]]
    for at in _noun_words(low, tuple(n for n in _NOUN_PROBES if n in low)):
        paragraph_start = paragraphs.around(at)[0]
        start = max(paragraph_start, at - _REFERENCE_WINDOW)
        if start > paragraph_start and len(low[start:at].split()) <= 5:
            start = paragraph_start  # five long words: the verb may stand further back
        if searched[0] <= start <= searched[1]:
            start = searched[1]
        if verb_in(text, start, at):
            return True
        searched = (min(searched[0], start) if start <= searched[1] else start, at)
    return False


def _noun_words(low: str, nouns: tuple[str, ...]) -> list[int]:
    """Where a noun stands as the weak-verb patterns read one, in order: after white space (or
    `sub`, `sub-`), then an optional plural `s` and no letter, digit or `_` (their `\\s+noun\\b`).
    "critical", "agentize" and "useAgentEvents" hold no noun."""
    found = []
    for noun in nouns:
        at = low.find(noun)
        while at >= 0:
            end = at + len(noun)
            end += low.startswith("s", end)
            if (end == len(low) or not is_word_char(low[end])) and _after_space(low, at):
                found.append(at)
            at = low.find(noun, at + 1)
    return sorted(found)


def _after_space(low: str, at: int) -> bool:
    if low.endswith("sub-", 0, at):
        at -= 4
    elif low.endswith("sub", 0, at):
        at -= 3
    return at > 0 and low[at - 1].isspace()


VERB_TRIGGER = Trigger(
    (*vocabulary.probes((*vocabulary.STRONG_VERBS, *vocabulary.AGENT_NOUNS)), *vocabulary.PHRASAL_VERBS),
    _verb_with_object,
)

# Every sentence that names the Agent/Task tool or spawns agents (`last_spawn_mention`) holds one
# of these, in some case: the word test of the forms whose sites need one (F4, F5).
TOOL_SENTENCE_WORDS = (
    *vocabulary.probes(
        (*vocabulary.SPAWN_TOOL_WORDS, *vocabulary.TOOL_SENTENCE_NOUNS, *vocabulary.STRONG_VERBS)
    ),
    *vocabulary.PHRASAL_VERBS,
)


def bullet_reference(item: str, strong_lead: bool) -> tuple[str, int] | None:
    """The agent a one-per-agent bullet (F7) names at its start: `- **legacy-analyst** — ...`,
    `` - `shop:critic` ``, `- security-auditor: ...`. Capitalised labels (`**Calculations**`)
    are not agents; after a weak lead (`Run these:`) a single word is not enough."""
    m = re.match(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?", item)
    if m is None:
        return None
    head = item[m.end() :]
    marked = re.match(rf"(?P<mark>\*\*|__|`)(?P<name>\{{?{ID}\}}?(?:-[\w-]+)?)(?P=mark)", head)
    plain = re.match(r"(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)\s*(?::|—|–|\s-\s)", head)
    # `- **One `shop:union-dev` agent per track** — ...`: a few words, then the agent
    described = re.match(
        rf"(?:\*\*|__)?(?:[\w-]+\s+){{1,3}}?(?P<mark>`|\*\*)(?P<name>{ID})(?P=mark)\s+(?:sub-?)?agents?\b",
        head,
        re.IGNORECASE,
    )
    # Claude Code's mention of an agent: `- @agent-review-srp-reviewer による評価`
    mention = re.match(r"@(?:agent-)?(?P<name>[a-z][\w.-]*(?::[\w.-]+)*)", head)
    ref = marked or mention or plain or described
    if ref is None:
        return None
    name = ref.group("name")
    builtin = re.fullmatch(BUILTINS, name) is not None
    kebab = "-" in name or ":" in name or name.startswith("{")
    if name.lower() in NOT_AN_AGENT or not (builtin or name[0].islower() or name.startswith("{")):
        return None
    if name in PARAM_KEYS:
        return None  # `` - `team_name`: ... `` is a parameter of the call, not an agent
    if not (
        builtin or kebab or strong_lead or re.match(rf"\s+{AGENT_NOUN}", head[ref.end() :], re.IGNORECASE)
    ):
        return None
    return name, m.end() + ref.start("name")


# What stands before a verb that makes it no instruction (each pattern above says what it reads)
_NOT_AN_INSTRUCTION_BEFORE = (
    _NOUN_BEFORE,
    _PASSIVE,
    _BY_A_COMMAND,
    _SUBJECT_BEFORE,
    _TOLD_TO_CLAUDE,
    _WHEN_YOU,
    _HABITUAL,
    _PROGRESSIVE,
    _ENABLED,
    _CAPABLE,
    _CAN_IN_A_CONDITION,
    _MANDATE,
    _WISH,
    _REASON_LABEL,
    _TEXT_TO_WRITE,
    _FOR_MORE,
    _SO_IT_CAN,
)
