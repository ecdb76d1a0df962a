"""The prose spawn forms: F6 (a spawn verb and an agent reference), F7 (a spawn sentence then
one bullet per agent) and F8 (team creation that names its teammates). Pure text rules over
sentences; the sites they yield carry medium confidence."""

from __future__ import annotations

import re
from dataclasses import dataclass

_VERB = (
    r"(?:spawn|launch|dispatch|delegate|invoke|start|run|use|call|kick\s+off|fire\s+off|create"
    r"|deploy|send|hand\s+(?:it|this|that)?\s*(?:off\s+)?to|assign|trigger|engage|bring\s+in)"
)
_VERB_RE = re.compile(rf"(?<![\w`*-]){_VERB}(?![\w-])", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|mustn[’']?t|should\s+not|shouldn[’']?t|cannot|can[’']?t"
    r"|no\s+need\s+to|instead\s+of|avoid|without)\b[^.;:]*$",
    re.IGNORECASE,
)
_AGENT_NOUN = r"(?:sub-?agents?|agents?|teammates?|workers?|reviewers?)"
# A name that can only be an agent id: kebab-case or namespaced (`shop:critic`, `a:b:c`).
_AGENT_ID = r"[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*"
_MARKED_NAME = re.compile(rf"(?P<mark>\*\*|__|`)(?P<name>{_AGENT_ID})(?P=mark)")
_NAMED_REF = re.compile(
    rf"(?P<mark>\*\*|__|`)(?P<name>{_AGENT_ID})(?P=mark)\s+(?:{_AGENT_NOUN}|agent\b)", re.IGNORECASE
)
_PLAIN_REF = re.compile(r"\bthe\s+(?P<name>[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s+(?:sub-?)?agents?\b")
_QUALIFIED_AFTER_VERB = re.compile(
    r"^\s*(?:(?:the|a|an|one)\s+)?(?P<mark>`|\*\*)(?P<name>[A-Za-z][\w-]*(?::{1,2}[A-Za-z][\w.-]*)+)(?P=mark)"
)
# "launch 5 parallel agents", "use a Haiku agent", "dispatch one subagent per task"; not
# "the agent template", "an Agent SDK application".
_GENERIC = re.compile(
    r"^\s*(?:\S+\s+){0,3}?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+\+?"
    r"(?:\s*[-–]\s*\d+)?|several|multiple|parallel|new|fresh|separate|dedicated|additional|another)"
    r"\s+(?:[\w*-]+\s+){0,3}?(?:sub-?agents?|agents?|teammates?)\b"
    r"(?!\s*(?:sdk|files?|templates?|definitions?|frontmatter|tools?|names?|types?|prompts?|config"
    r"|descriptions?|\.md|teams?|dispatch\w*|calls?|runs?|outputs?|results?|reports?|sessions?)\b)",
    re.IGNORECASE,
)
_SELF = re.compile(r"\b(?:this|that|the\s+same|each|which|whose|which)\s+(?:sub-?)?agent\b", re.IGNORECASE)
_TEAM = re.compile(r"\bteam\b|\bteammates?\b", re.IGNORECASE)
_NAMED_LIST = re.compile(r"\b(?:named|called)\s+(?P<names>.+)", re.IGNORECASE)
_NAME_TOKEN = re.compile(r"""(?:`([^`\s]+)`|\*\*([^*\s]+)\*\*|"([^"\s]+)"|'([^'\s]+)'|“([^”\s]+)”)""")
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
        "general-purpose",
        "claude-code",
        "agent-teams",
        "todo",
        "team",
    }
)


@dataclass(frozen=True)
class ProseSpawn:
    form: str
    offset: int  # of the spawn verb (F6/F8) or the bullet's reference (F7), in the text
    target: str | None
    target_offset: int
    name: str | None
    name_offset: int


def find_prose_spawns(text: str) -> list[ProseSpawn]:
    """F6 and F8 sites in one sentence. Each spawn verb governs the text up to the next verb."""
    if _DIALOGUE.match(text):
        return []  # `assistant: I'll launch the x agent` is an example dialogue, not an instruction
    verbs = list(_VERB_RE.finditer(text))
    for i, verb in enumerate(verbs):
        if _NEGATION.search(text[: verb.start()]):
            continue
        end = verbs[i + 1].start() if i + 1 < len(verbs) else len(text)
        rest = text[verb.end() : min(end, verb.end() + 240)]
        names = _teammate_names(text[: verb.end() + len(rest)], verb.end())
        if names and _TEAM.search(text):
            return [ProseSpawn("F8", verb.start(), None, 0, n, o) for n, o in names]
        word = verb.group(0).lower().split()[0]
        if word == "create" and re.match(r"\s+(?:an?\s+)?(?:agent\s+)?team\b", rest, re.IGNORECASE):
            named = _teammate_names(text, verb.end())  # "create a team and spawn 3 named ..."
            if named:
                return [ProseSpawn("F8", verb.start(), None, 0, n, o) for n, o in named]
            return [ProseSpawn("F8", verb.start(), None, 0, None, 0)]  # teammates come with the team
        refs = _references(rest, verb.end(), strong=word in _STRONG_VERBS)
        if refs:
            return [ProseSpawn("F6", verb.start(), n, o, None, 0) for n, o in refs]
        generic = _GENERIC.search(rest[:160])
        if generic and not _SELF.search(rest[: generic.end()]) and _is_spawn_verb_for_generic(word):
            return [ProseSpawn("F6", verb.start(), None, 0, None, 0)]
    return []


_STRONG_VERBS = frozenset({"spawn", "launch", "dispatch", "delegate", "invoke", "start", "kick", "fire"})


def _is_spawn_verb_for_generic(word: str) -> bool:
    # "use an agent" / "run two agents" are spawns; "create an agent" writes a file
    return word not in ("call", "send", "assign", "trigger", "engage", "hand", "create")


def _references(rest: str, base: int, strong: bool) -> list[tuple[str, int]]:
    """Agent names the spawn verb governs: `**security-auditor** agent`, `the code-reviewer
    agent`, and after spawn/launch/dispatch a bare namespaced id (`` Spawn `shop:critic` ``)."""
    window = rest[:160]
    stop = re.search(r"[.;]\s|\bthen\b|\bafter\b|\bwhen\b|\bif\b", window)
    window = window[: stop.start()] if stop else window
    found: dict[str, int] = {}
    patterns = [_NAMED_REF, _PLAIN_REF]
    if strong:
        patterns.append(_QUALIFIED_AFTER_VERB)
    for pattern in patterns:
        for m in pattern.finditer(window):
            name = m.group("name")
            if name.lower() not in _NOT_AN_AGENT and name not in found:
                found[name] = base + m.start("name")
    return sorted(found.items(), key=lambda item: item[1])


def _teammate_names(text: str, after: int) -> list[tuple[str, int]]:
    m = _NAMED_LIST.search(text, after)
    if m is None:
        return []
    before = text[max(after, m.start() - 40) : m.start()]
    if not re.search(rf"{_AGENT_NOUN}|\bmembers?\b", before, re.IGNORECASE) or re.search(
        r"\bteam\s*$", before, re.IGNORECASE
    ):
        return []  # "a team called x" names the team, not a teammate
    names = []
    for token in _NAME_TOKEN.finditer(m.group("names")):
        value = next(g for g in token.groups() if g)
        names.append((value.rstrip(".,;:"), m.start("names") + token.start() + 1))
    return names


def bullet_reference(item: str) -> tuple[str, int] | None:
    """The agent a one-per-agent bullet (F7) names at its start: `- **legacy-analyst** — ...`."""
    m = re.match(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ x]\]\s+)?", item)
    if m is None:
        return None
    head = item[m.end() :]
    ref = _MARKED_NAME.match(head)
    if ref is None:
        return None
    name = ref.group("name")
    tail = head[ref.end() : ref.end() + 20]
    agent_like = ("-" in name or ":" in name) or re.match(rf"\s+{_AGENT_NOUN}", tail, re.IGNORECASE)
    if not agent_like or name.lower() in _NOT_AN_AGENT:
        return None
    return name, m.end() + ref.start("name")


def is_spawn_lead(text: str) -> bool:
    """A sentence that introduces a list of agents to spawn: `Spawn three subagents in parallel:`,
    `Launch these agents:` (the agent noun within a few words of the verb)."""
    for verb in _VERB_RE.finditer(text):
        if _NEGATION.search(text[: verb.start()]):
            continue
        near = rf"^\s*(?:[\w*`-]+\s+){{0,4}}?(?:{_AGENT_NOUN}|team)\b"
        if re.search(near, text[verb.end() :], re.IGNORECASE):
            return True
    return False
