"""The prose spawn forms: F6 (a spawn verb and an agent reference), F7 (a spawn sentence then
one bullet per agent) and F8 (team creation that names its teammates). Pure text rules over
one sentence (or one bullet); the sites they yield carry medium confidence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spawnlint.model import Form
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.forms.syntax import PARAM_KEYS
from spawnlint.parse.text import FormExamples

_VERB_WORDS = vocabulary.alternation(
    (*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS, *vocabulary.WEAK_VERBS)
)
_VERB_RE = re.compile(rf"(?<![\w`-]){_VERB_WORDS}(?![\w-])", re.IGNORECASE)


def verb_in(text: str, start: int, end: int) -> bool:
    """Whether a spawn verb (used as a verb or not) stands in text[start:end]."""
    return _VERB_RE.search(text, start, end) is not None


_STRONG_VERBS = vocabulary.first_words((*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS))
_IMPERATIVE_ONLY = vocabulary.first_words(vocabulary.IMPERATIVE_ONLY)
_TEAM_VERBS = vocabulary.first_words(vocabulary.TEAM_VERBS)
_NEGATION = re.compile(rf"\b{vocabulary.alternation(vocabulary.NEGATIONS)}\b[^.;:]*$", re.IGNORECASE)
_AGENT_NOUN = vocabulary.alternation(vocabulary.AGENT_NOUNS, plural=True)
_CORE_NOUN = vocabulary.alternation(vocabulary.CORE_AGENT_NOUNS, plural=True)
_GROUP_NOUN = vocabulary.alternation(vocabulary.GROUP_NOUNS)
_BUILTINS = r"(?:general-purpose|Explore|Plan|statusline-setup|claude-code-guide|output-style-setup)"
_ID = r"[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*"
_MARKED = rf"(?P<mark>\*\*|__|`)(?P<name>{_ID})(?P=mark)"
_NAMED_REF = re.compile(rf"{_MARKED}\s+{_AGENT_NOUN}\b", re.IGNORECASE)
_FROM_REF = re.compile(
    rf"\b(?:from|using|of|as)\s+(?:the\s+|an?\s+)?{_MARKED}(?:\s+(?:sub-?)?agent\b)?", re.IGNORECASE
)
# "agent execution", "agent outputs": a noun after "agent" makes it part of a compound noun.
_COMPOUND_HEAD = (
    r"(?!\s*(?:sdk|files?|templates?|definitions?|frontmatter|tools?|names?|types?|prompts?|config"
    r"|descriptions?|\.md|teams?|dispatch\w*|calls?|runs?|outputs?|results?|reports?|sessions?"
    r"|execution|runtimes?|time|times|speed|loops?|framework|mode|behaviou?r)\b)"
)
_PLAIN_REF = re.compile(
    rf"\b(?:(?:the|an?|one|two|three|four|five|\d+|all|both)\s+)?(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|{_BUILTINS})"
    rf"\s+{_CORE_NOUN}\b{_COMPOUND_HEAD}"
)
# After spawn/launch/dispatch, an id right after the verb: ``Spawn `shop:critic` ``,
# ``Dispatch `codebase-recon` via the Agent tool``, `` `Agent(shop:critic)` ``.
_ID_AFTER_VERB = re.compile(
    r"^\s*(?:(?:the|a|an|one)\s+)?(?P<mark>`|\*\*)(?:Agent\(|Task\()?"
    r"(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[A-Za-z][\w-]*(?::{1,2}[A-Za-z][\w.-]*)+)\)?(?P=mark)"
    r"(?!\s*(?:skill|command|tool|script|file|cli|hook|workflow|mcp|server|plugin)s?\b)"
)
# "launch 5 parallel agents", "use a Haiku agent"; not "the agent template", "an Agent SDK app".
_GENERIC = re.compile(
    r"^\s*(?:\S+\s+){0,3}?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+\+?"
    r"(?:\s*[-–]\s*\d+)?|several|multiple|parallel|new|fresh|separate|dedicated|additional|another|both|all|these)"
    # the words before "agents" describe them: "both users and agents" joins a second noun
    rf"\s+(?:(?!(?:and|or|nor)\s)[\w*-]+\s+){{0,3}}?{_CORE_NOUN}\b" + _COMPOUND_HEAD,
    re.IGNORECASE,
)
_AS_SUBAGENTS = re.compile(
    r"\bas\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?"
    + vocabulary.alternation(vocabulary.SPAWNED_NOUNS, plural=True)
    + r"\b",
    re.IGNORECASE,
)
_SELF = re.compile(r"\b(?:this|that|the\s+same|each|which|whose)\s+(?:sub-?)?agent\b", re.IGNORECASE)
_TEAM_AFTER_VERB = re.compile(
    r"^\s*(?:(?:an?|the|one|new|our)\s+)?(?:[\w`*-]+\s+){0,2}?team\b", re.IGNORECASE
)
_NAMED_LIST = re.compile(r"\b(?:named|called)\s+", re.IGNORECASE)
_NAME_TOKEN = re.compile(
    r"""`([^`\s]+)`|\*\*([^*\s]+)\*\*|"([^"\s]+)"|'([^'\s]+)'|“([^”\s]+)”|([a-z][\w-]*)"""
)
_LIST_JOINER = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)")
_DIALOGUE = re.compile(
    r"^\s*(?:[-*>]\s*)?(?:\*\*)?(?:assistant|user|human|commentary|claude)(?:\*\*)?\s*:", re.IGNORECASE
)
_NOT_AN_AGENT = frozenset(
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


def find_prose_spawns(text: str) -> list[ProseSpawn]:
    """F8 (a team with its teammates) or F6 (a verb and the agents it governs) in one sentence."""
    if _DIALOGUE.match(text):
        return []  # `assistant: I'll launch the x agent` is an example dialogue, not an instruction
    if len(re.findall(r"→|->|⇒", text)) >= 2:
        return []  # "1.Setup → 2.Spawn Team → 3.Review" is a flow diagram, not an instruction
    verbs = [v for v in _VERB_RE.finditer(text) if _is_instruction(text, v)]
    team = _team_spawns(text)
    if team is not None:
        return team
    for i, verb in enumerate(verbs):
        word = verb.group(0).lower().split()[0]
        if word in _IMPERATIVE_ONLY and text[: verb.start()].strip(" *-#>0123456789.)"):
            continue
        end = verbs[i + 1].start() if i + 1 < len(verbs) else len(text)
        rest = text[verb.end() : min(end, verb.end() + 240)]
        refs = _references(rest, verb.end(), strong=word in _STRONG_VERBS)
        if refs:
            names = teammate_names(text, verb.end())
            if len(refs) == 1 and names:
                target, at = refs[0]
                return [ProseSpawn(Form.F6, verb.start(), target, at, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start(), n, o, None, 0) for n, o in refs]
        clause = re.split(r"[.;:!?]\s", rest[:160], maxsplit=1)[0]
        if word in _STRONG_VERBS and _AS_SUBAGENTS.search(clause):
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]  # "dispatch them as sub-agents"
        generic = _GENERIC.search(clause)
        if generic and not _governed(
            clause[: generic.start()] + " ".join(clause[generic.start() : generic.end()].split()[:-1])
        ):
            generic = None  # "run as a main-session agent" describes, it does not spawn
        if (
            generic
            and not _SELF.search(rest[: generic.end()])
            and word not in ("call", "send", "create", "form")
        ):
            names = teammate_names(text, verb.end())  # "Spawn a teammate named 'coder-1'"
            if names:
                return [ProseSpawn(Form.F6, verb.start(), None, 0, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
    return foreign_spawns(text)


# Other languages (vocabulary.LANGUAGES): a verb and, in its clause, a sub-agent noun or an agent
# noun beside an agent of a known shape. The English nouns count too: "派 `x` agent", "派 sub-agent".
_FOREIGN_REF = re.compile(
    r"(?P<mark>`|\*\*)@?(?:agent-)?(?P<name>[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*)(?P=mark)"
    r"|(?<![\w@])@(?:agent-)?(?P<mention>[a-z][\w.-]*(?::[\w.-]+)*)"
)
_CLAUSE_END = re.compile(r"[。！？!?；;]|[.:](?:\s|$)")
_FOREIGN_WINDOW = 80  # characters between a verb and its agent (CJK sentences are short)


@dataclass(frozen=True)
class _Grammar:
    language: vocabulary.Language
    verb: re.Pattern[str]
    subagent: re.Pattern[str]
    agent: re.Pattern[str]
    negation: re.Pattern[str]


def _grammar(language: vocabulary.Language) -> _Grammar:
    edge = r"\b" if language.spaced else ""
    english_sub, english_agent = ("sub(-)agent(s)",), ("agent(s)",)

    def words(found: tuple[str, ...]) -> re.Pattern[str]:
        return re.compile(rf"{edge}{vocabulary.alternation(found)}{edge}", re.IGNORECASE)

    return _Grammar(
        language,
        words(language.verbs),
        re.compile(
            rf"{edge}{vocabulary.alternation(language.subagent_nouns)}{edge}"
            rf"|\b{vocabulary.alternation(english_sub)}\b",
            re.IGNORECASE,
        ),
        re.compile(
            rf"{edge}{vocabulary.alternation(language.agent_nouns)}{edge}|\b{vocabulary.alternation(english_agent)}\b",
            re.IGNORECASE,
        ),
        words(language.negations),
    )


_GRAMMARS = tuple(_grammar(language) for language in vocabulary.LANGUAGES)


def _nouns(grammar: _Grammar, noun: re.Pattern[str], clause: str) -> list[re.Match[str]]:
    """The noun where the clause holds it as the verb's object: before a verb that comes last, the
    noun carries an object particle ("このエージェントは" is the subject: it does the work), or
    `near_particles` right before the verb ("サブエージェントの起動")."""
    language = grammar.language
    if not language.verb_last:
        return list(noun.finditer(clause))
    found = []
    for m in noun.finditer(clause):
        after = clause[m.end() :].lstrip()
        if after.startswith(language.object_particles) or (
            after.startswith(language.near_particles) and len(after) <= 4
        ):
            found.append(m)
    return found


def _adjacent_ref(clause: str, nouns: list[re.Match[str]]) -> re.Match[str] | None:
    """The agent named right beside one of the nouns (`` `x` エージェント``, "agente `x`")."""
    for ref in _FOREIGN_REF.finditer(clause):
        if (ref.group("name") or "") in _TOOL_NAMES:
            continue  # `Agent` is the tool, not an agent
        for n in nouns:
            if n.start() < ref.end() and ref.start() < n.end():
                continue  # the noun inside the name (`seed-agent`)
            gap = clause[ref.end() : n.start()] if ref.end() <= n.start() else clause[n.end() : ref.start()]
            if len(gap) <= 2 and not gap.strip():
                return ref
    return None


_TOOL_NAMES = frozenset({"Agent", "Task"})


def _false_friend(language: vocabulary.Language, text: str, verb: re.Match[str]) -> bool:
    """Whether the verb is part of a word that is not it ("派生" holds "派")."""
    for word in language.false_friends:
        at = text.find(word, max(0, verb.start() - len(word) + 1), verb.end() + len(word))
        if 0 <= at < verb.end() and at + len(word) > verb.start():
            return True
    return False


def _foreign_clause(grammar: _Grammar, text: str, verb: re.Match[str]) -> tuple[int, str, bool]:
    """Where the verb's object stands (before a verb that comes last, after one that comes
    first), that text, and whether the verb is no instruction (negated, a passive, a false
    friend)."""
    if grammar.language.verb_last:
        start = max(0, verb.start() - _FOREIGN_WINDOW)
        ends = [m.end() for m in _CLAUSE_END.finditer(text, start, verb.start())]
        clause_start = ends[-1] if ends else start
        clause = text[clause_start : verb.start()]
        negated = grammar.negation.match(text, verb.end()) is not None
    else:
        clause_start = verb.end()
        end = _CLAUSE_END.search(text, verb.end(), verb.end() + _FOREIGN_WINDOW)
        clause = text[clause_start : end.start() if end else verb.end() + _FOREIGN_WINDOW]
        before = _CLAUSE_END.split(text[max(0, verb.start() - 30) : verb.start()])[-1]
        negated = grammar.negation.search(before) is not None or (
            grammar.language.code == "de" and grammar.negation.search(clause) is not None
        )
    return clause_start, clause, negated or _false_friend(grammar.language, text, verb)


def foreign_lead(text: str) -> bool:
    """A sentence in another language that introduces a list of agents (F7): a spawn verb, an
    agent noun, and a colon at its end ("以下の専門エージェントを並行または順次実行してレビューを収集：")."""
    if not text.rstrip().endswith((":", "：")):
        return False
    for grammar in _GRAMMARS:
        for verb in grammar.verb.finditer(text):
            if not _foreign_clause(grammar, text, verb)[2] and (
                grammar.agent.search(text) or grammar.subagent.search(text)
            ):
                return True
    return False


def foreign_spawns(text: str) -> list[ProseSpawn]:
    """F6 in another language: "`x` エージェントを起動する", "派一个只读 subagent",
    `Lanza el subagente`. The verb's clause must hold a sub-agent noun, or an agent noun and an
    agent of a known shape; a negated verb spawns nothing."""
    for grammar in _GRAMMARS:
        for verb in grammar.verb.finditer(text):
            clause_start, clause, negated = _foreign_clause(grammar, text, verb)
            if negated:
                continue
            subagents = _nouns(grammar, grammar.subagent, clause)
            ref = _adjacent_ref(clause, subagents + _nouns(grammar, grammar.agent, clause))
            if not (subagents or ref):
                continue
            if ref is None:
                return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
            group = "name" if ref.group("name") else "mention"
            return [
                ProseSpawn(Form.F6, verb.start(), ref.group(group), clause_start + ref.start(group), None, 0)
            ]
    return []


_NOUN_BEFORE = re.compile(
    r"\b(?:a|an|the|each|every|this|that|one|named|unnamed|first|next|last|same|its|their|your|our|dry|test)\s+$"
    r"|\b(?:way|how|ability|able|order|time|prepares?|ready|about)\s+to\s+$"
    r"|\b(?:at|on|per|upon|of|for|after|before|during)\s+$",  # "set at spawn time"
    re.IGNORECASE,
)


def _is_instruction(text: str, verb: re.Match[str]) -> bool:
    """The word is used as a verb that is not negated: not "a named spawn", not "do not spawn"."""
    before = text[max(0, verb.start() - _CLAUSE_WINDOW) : verb.start()]
    return not _NEGATION.search(before) and not _NOUN_BEFORE.search(before)


_CLAUSE_WINDOW = 160  # negation and determiners stand close to their verb; long lines stay linear


# A team sentence spawns when agents are in view: `TeamCreate` alone only makes the team.
_AGENT_CONTEXT = re.compile(rf"{_AGENT_NOUN}|\bspawn|\bagent\s+team", re.IGNORECASE)


def team_verb(text: str) -> re.Match[str] | None:
    """The verb of a sentence that creates an agent team (`Create a team ...`, `Use TeamCreate`)."""
    for verb in _VERB_RE.finditer(text):
        if not _is_instruction(text, verb):
            continue
        word = verb.group(0).lower().split()[0]
        after = text[verb.end() :]
        if word in _TEAM_VERBS and (_TEAM_AFTER_VERB.match(after) or re.match(r"\s*`?TeamCreate\b", after)):
            return verb
    return None


def _team_spawns(text: str) -> list[ProseSpawn] | None:
    verb = team_verb(text)
    if verb is None or not _AGENT_CONTEXT.search(text):
        return None  # "form the team" of people, a "Team" inside some app
    refs = _references(text[verb.end() :], verb.end(), strong=True, whole_sentence=True)
    names = teammate_names(text, verb.end())
    if not names:
        target, at = refs[0] if refs else (None, 0)
        return [ProseSpawn(Form.F8, verb.start(), target, at, None, 0)]
    spawns = []
    for name, at in names:
        target, target_at = _target_for(name, at, text, refs)
        spawns.append(ProseSpawn(Form.F8, verb.start(), target, target_at, name, at))
    return spawns


def _target_for(name: str, at: int, text: str, refs: list[tuple[str, int]]) -> tuple[str | None, int]:
    """`lead-planner` from **planner**: the reference right after a name is its own; otherwise
    the one reference of the sentence applies to every teammate."""
    follow = _FROM_REF.match(text, at + len(name) + 1) or _FROM_REF.match(
        text[at + len(name) :].lstrip("`'\" ")
    )
    if follow:
        local = next(((n, o) for n, o in refs if n == follow.group("name")), None)
        if local:
            return local
    distinct = {n for n, _ in refs}
    if len(distinct) == 1:
        return refs[0]
    return None, 0


def _references(rest: str, base: int, strong: bool, whole_sentence: bool = False) -> list[tuple[str, int]]:
    """Agent names the spawn verb governs: `**security-auditor** agent`, `the code-reviewer
    agent`, and after spawn/launch/dispatch an id (`` `shop:critic` ``). The first must stand
    within a few words of the verb ("Run the same check as the x agent" spawns nothing); in a
    team sentence (`whole_sentence`) any agent the sentence names counts, `from **planner**` too."""
    text = rest if whole_sentence else rest[:160]
    stop = None if whole_sentence else re.search(r"[.;:]\s|\bthen\b|\bafter\b|\bwhen\b|\bif\b", text)
    text = text[: stop.start()] if stop else text
    found: dict[str, int] = {}
    patterns = [_NAMED_REF, _PLAIN_REF]
    if whole_sentence:
        patterns.append(_FROM_REF)
    if strong:
        patterns.append(_ID_AFTER_VERB)
    for pattern in patterns:
        for m in pattern.finditer(text):
            name = m.group("name")
            if name.lower() in _NOT_AN_AGENT or name in found or not _agent_like(name, m):
                continue
            if not whole_sentence and not found and not _governed(text[: m.start()]):
                continue
            found[name] = base + m.start("name")
    return sorted(found.items(), key=lambda item: item[1])


def _governed(between: str) -> bool:
    """Whether the words between a verb and an agent let the verb govern it: "Delegate the
    migration to the x agent" does; "Run the same check as the x agent" does not."""
    words = between.lower().split()
    return len(words) <= 6 and not _COMPARISON & set(words)


_HYPHENATED_ADJECTIVE = re.compile(
    r"-(?:ready|based|powered|driven|level|grade|aware|specific|like|style|enabled|capable|friendly"
    r"|native|first|only|safe|heavy|intensive)$"
)
_COMPARISON = frozenset({"as", "like", "than", "instead", "from", "of", "about", "unlike", "same"})


def _agent_like(name: str, m: re.Match[str]) -> bool:
    if re.search(r"\.(?:md|json|js|ts|py|sh|ya?ml|toml|txt)$|/", name):
        return False  # a file, not an agent
    if m.re is _PLAIN_REF and _HYPHENATED_ADJECTIVE.search(name):
        return False  # "production-ready agents", "LLM-based agents": a kind of agent, not its name
    if m.re is _FROM_REF and not m.group(0).rstrip().lower().endswith("agent"):
        return bool(re.match(r"^[a-z][\w.-]*(?::[\w.-]+)*$", name))  # `from **planner**`
    return True


def teammate_names(text: str, after: int = 0) -> list[tuple[str, int]]:
    """Names given to teammates: `named a, b and c`, `teammates \\`x\\` and \\`y\\``,
    `spawn \\`lead\\` from **planner**`; a team's own name (`a team called x`) is not one."""
    for m in _NAMED_LIST.finditer(text, after):
        before = text[max(after, m.start() - 40) : m.start()]
        if re.search(r"\bteam\s*$", before, re.IGNORECASE):
            continue
        names = _name_list(text, m.end())
        if names:
            return names
    for m in re.finditer(r"\b(?:teammates?|spawn|spawns)\s+(?=`)", text[after:], re.IGNORECASE):
        names = _name_list(text, after + m.end(), marked_only=True)
        if names and not all(n.lower() in _NOT_AN_AGENT for n, _ in names):
            return names
    return []


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
        if value.lower() in _NOT_AN_AGENT or (is_plain and value.lower() in _PLAIN_STOP):
            break
        if is_plain and re.match(rf"\s+{_AGENT_NOUN}\b", text[token.end() :], re.IGNORECASE):
            break  # "a named review agent": an adjective, not a name
        group = next(k for k, g in enumerate(token.groups(), start=1) if g)
        names.append((value.rstrip(".,;:"), token.start(group)))
        pos = token.end()
        skip = re.match(
            rf"\s+(?:from|using|of|as)\s+(?:the\s+|an?\s+)?{_MARKED}(?:\s+(?:sub-?)?agent\b)?", text[pos:]
        )
        if skip:
            pos += skip.end()
        joiner = _LIST_JOINER.match(text, pos)
        if joiner is None:
            break
        pos = joiner.end()
    return names


def bullet_reference(item: str, strong_lead: bool) -> tuple[str, int] | None:
    """The agent a one-per-agent bullet (F7) names at its start: `- **legacy-analyst** — ...`,
    `` - `shop:critic` ``, `- security-auditor: ...`. Capitalised labels (`**Calculations**`)
    are not agents; after a weak lead (`Run these:`) a single word is not enough."""
    m = re.match(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?", item)
    if m is None:
        return None
    head = item[m.end() :]
    marked = re.match(rf"(?P<mark>\*\*|__|`)(?P<name>\{{?{_ID}\}}?(?:-[\w-]+)?)(?P=mark)", head)
    plain = re.match(r"(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)\s*(?::|—|–|\s-\s)", head)
    # `- **One `shop:union-dev` agent per track** — ...`: a few words, then the agent
    described = re.match(
        rf"(?:\*\*|__)?(?:[\w-]+\s+){{1,3}}?(?P<mark>`|\*\*)(?P<name>{_ID})(?P=mark)\s+(?:sub-?)?agents?\b",
        head,
        re.IGNORECASE,
    )
    # Claude Code's mention of an agent: `- @agent-review-srp-reviewer による評価`
    mention = re.match(r"@(?:agent-)?(?P<name>[a-z][\w.-]*(?::[\w.-]+)*)", head)
    ref = marked or mention or plain or described
    if ref is None:
        return None
    name = ref.group("name")
    builtin = re.fullmatch(_BUILTINS, name) is not None
    kebab = "-" in name or ":" in name or name.startswith("{")
    if name.lower() in _NOT_AN_AGENT or not (builtin or name[0].islower() or name.startswith("{")):
        return None
    if name in PARAM_KEYS:
        return None  # `` - `team_name`: ... `` is a parameter of the call, not an agent
    if not (
        builtin or kebab or strong_lead or re.match(rf"\s+{_AGENT_NOUN}", head[ref.end() :], re.IGNORECASE)
    ):
        return None
    return name, m.end() + ref.start("name")


def spawn_lead(text: str) -> str | None:
    """How strongly a sentence introduces a list of agents to spawn: "strong" (`Spawn three
    subagents in parallel:`, `Launch in parallel:`), "weak" (`Run these agents:`) or None."""
    for verb in _VERB_RE.finditer(text):
        if not _is_instruction(text, verb):
            continue
        word = verb.group(0).lower().split()[0]
        after = text[verb.end() :]
        if re.match(r"\s+(?:whenever|when|if|after|before|once|while|unless|on)\b", after, re.IGNORECASE):
            continue  # "Invoke whenever:" lists occasions, not agents
        agents = re.search(rf"{_AGENT_NOUN}|\b{_GROUP_NOUN}\b", after, re.IGNORECASE)
        if word in _STRONG_VERBS and (agents or text.rstrip().endswith(":")):
            return "strong"
        if agents and re.match(rf"^\s*(?:[\w*`-]+\s+){{0,4}}?{_AGENT_NOUN}\b", after, re.IGNORECASE):
            return "weak"
    return "strong" if foreign_lead(text) else None


# The examples are spawn text on purpose, and spawnlint reads its own source:
# the F8 example names its teammates.
# spawnlint: ignore-file[SL102]
EXAMPLES = (
    FormExamples(
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
        ),
        invalid=(
            "Do not spawn the **security-auditor** agent.",
            "Run the critical path analysis on the build.",
            "Run the same check as the **linter** agent.",
            "You have two agents in this repository.",
        ),
    ),
    FormExamples(
        Form.F7,
        valid=(
            "Spawn these agents in parallel:\n\n- **security-auditor**\n- **code-reviewer**\n",
            "以下の専門エージェントを並行または順次実行してレビューを収集：\n\n"
            "- @agent-review-srp-reviewer による評価\n- @agent-review-kiss-reviewer による評価\n",
        ),
        invalid=(
            "Read these files:\n\n- **security-auditor**\n- **code-reviewer**\n",
            "以下のエージェントは実行しない：\n\n- @agent-review-srp-reviewer\n",
        ),
    ),
    FormExamples(
        Form.F8,
        valid=("Create a team and spawn 3 teammates named alpha, beta and gamma.",),
        invalid=("Form the team of people who review the budget.",),
    ),
)

# Another language's F6, one entry per language of vocabulary.LANGUAGES (the shapes of issue 19).
FOREIGN_EXAMPLES = (
    FormExamples(
        Form.F6,
        valid=(
            "各調査項目について `mgzl:budgeted-investigator` エージェントを Agent ツールで起動する。",
            "判定結果に応じて `@test-implementer` サブエージェントを起動して修正する。",
            "`@implementation-plan-creator-lite` エージェントを利用する。",
        ),
        invalid=(
            "サブエージェントを起動しない。",
            "このエージェントは `lint` を実行する。",  # the agent does the running: no agent shape
            "それ以外のサブエージェントを起動してはならない。",
            "サブエージェントの `description` は、エージェントがいつ呼び出されるかを決める。",  # passive
        ),
    ),
    FormExamples(
        Form.F6,
        valid=("`code-reviewer` 에이전트를 실행하세요.", "서브에이전트를 호출해서 테스트를 돌리세요."),
        invalid=(
            "서브에이전트를 호출하지 마세요.",
            "에이전트 설정을 확인하세요.",
            "서브에이전트를 사용했다면 더 빨랐을 것이다.",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "派 `seed-prototype` agent 造一次性原型。",
            "用户要求更干净的视角时，派一个只读 subagent 执行同一份清单。",
            "轻调查派 sub-agent，结论直接写票。",
        ),
        invalid=(
            "不要派 subagent 做这件事。",
            "这个流派的 agent 很多。",
            "`pro` 在内部会派生 `flash` 级 `subagent` 分担工具调用。",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=("Starte den `code-reviewer` Agenten.", "Beauftrage einen Subagenten mit der Suche."),
        invalid=("Starte den Subagenten nicht.", "Starte den Server neu und prüfe den Agenten."),
    ),
    FormExamples(
        Form.F6,
        valid=("Lanza el subagente `code-reviewer`.", "Delega la búsqueda al agente **shop:critic**."),
        invalid=("No lances el subagente.", "Inicia sesión con el agente de usuario."),
    ),
    FormExamples(
        Form.F6,
        valid=("Lancez le sous-agent **critic** sur le diff.", "Invoque l'agent `shop:critic`."),
        invalid=("Ne lancez jamais le sous-agent.", "Lance le serveur avant l'agent de build."),
    ),
    FormExamples(
        Form.F6,
        valid=("Inicie o agente `shop:critic`.", "Delegue a busca a um subagente."),
        invalid=("Não inicie o subagente.", "Inicie o servidor do agente de usuário."),
    ),
)
