"""F8: team prose — a sentence that builds an agent team and spawns its teammates ("Create a team
and spawn 3 teammates named alpha, beta and gamma", "Use TeamCreate, then spawn `api` from
**planner**"), or a team lead followed by one bullet per teammate. A medium-confidence site."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, Sentence, ValueKind
from spawnlint.parse.forms import removal, vocabulary
from spawnlint.parse.forms.prose import (
    AGENT_NOUN,
    FROM_REF,
    VERB_RE,
    ProseSpawn,
    bullet_reference,
    is_instruction,
    references,
    teammate_names,
)
from spawnlint.parse.forms.spec import FormSpec
from spawnlint.parse.forms.trigger import Paragraphs, Trigger
from spawnlint.parse.text import Block, FormExamples, LineIndex, RawSite

_TEAM_VERBS = vocabulary.first_words(vocabulary.TEAM_VERBS)
_TEAM_AFTER_VERB = lazy.compile(  # ("Use agent teams for large texts")
    r"^\s*(?:(?:an?|the|one|new|our)\s+)?(?:[\w`*-]+\s+){0,2}?(?:team|agent\s+teams)\b", re.IGNORECASE
)


# A team sentence spawns when agents are in view: `TeamCreate` alone only makes the team.
_AGENT_CONTEXT = lazy.compile(rf"{AGENT_NOUN}|\bspawn|\bagent\s+team", re.IGNORECASE)
# ... or a team dispatched with the team tool: "Dispatch a planning team under a shared `TeamCreate`"
_TEAM_TOOL = lazy.compile(r"\bTeamCreate\b")


def team_verb(text: str) -> re.Match[str] | None:
    """The verb of a sentence that creates an agent team (`Create a team ...`, `Use TeamCreate`)."""
    for verb in VERB_RE.finditer(text):
        if not is_instruction(text, verb):
            continue
        word = verb.group(0).lower().split()[0]
        after = text[verb.end() :]
        if word in _TEAM_VERBS and (_TEAM_AFTER_VERB.match(after) or re.match(r"\s*`?TeamCreate\b", after)):
            return verb
    return None


def sentence_spawns(text: str) -> list[ProseSpawn]:
    """The teammates a sentence that builds a team spawns (one site without a name when it names
    none); none when it builds no team."""
    verb = team_verb(text)
    if verb is None:
        return []
    spawned = verb.group(0).lower().split()[0] in vocabulary.TEAM_SPAWN_VERBS and _TEAM_TOOL.search(text)
    if not (spawned or _AGENT_CONTEXT.search(text)):
        return []  # "form the team" of people, a "Team" inside some app
    refs = references(text[verb.end() :], verb.end(), strong=True, whole_sentence=True)
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
    follow = FROM_REF.match(text, at + len(name) + 1) or FROM_REF.match(
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


def list_spawns(
    lines: list[str],
    sentence: Sentence,
    lead: Block,
    items: tuple[tuple[int, int], ...],
    claimed: frozenset[int],
) -> list[RawSite]:
    """A team lead whose teammates are the bullets (`Create a team with one teammate per name
    below:` + `` - `frontend` ``): one site per teammate. None where the sentence names its
    teammates itself (one F8 site per name, read as a sentence)."""
    text = sentence.text
    verb = team_verb(text)
    if verb is None or teammate_names(text, verb.end()):
        return []
    line, column = LineIndex(text, sentence.line - 1, sentence.column).position(verb.start())
    sites = []
    for a, _end in items:
        ref = bullet_reference(lines[a], strong_lead=True)
        if ref is not None and a not in claimed:
            name, at = ref
            param = Param("name", name, ValueKind.LITERAL, a, at + 1, a, at + 1)
            sites.append(RawSite(Form.F8, line, column, None, (param,), lead, "medium"))
    return sites


# A team verb, then up to three words (an article among them), then the team (or TeamCreate).
_TEAM_LEAD = lazy.compile(vocabulary.alternation(vocabulary.TEAM_VERBS) + r"\s*(?:[\w`*-]+\s+){0,3}`?$")


def _team_after_verb(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A team (or TeamCreate) within a few words after a team verb, in one paragraph."""
    at = low.find(vocabulary.TEAM_NOUN)
    while at >= 0:
        paragraph_start = paragraphs.around(at)[0]
        start = max(paragraph_start, at - 400)
        window = low[start:at]
        if _TEAM_LEAD.search(window) or (start > paragraph_start and len(window.split()) <= 4):
            return True
        at = low.find(vocabulary.TEAM_NOUN, at + 4)
    return False


TRIGGER = Trigger((vocabulary.TEAM_NOUN,), _team_after_verb)


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    return removal.prose_name(param, path, lines)


# The example names its teammates on purpose, and spawnlint reads its own source.
# spawnlint: ignore-file[SL102]
EXAMPLES = FormExamples(
    Form.F8,
    valid=(
        "Create a team and spawn 3 teammates named alpha, beta and gamma.",
        "- `--team` — Dispatch a three-persona planning team under a shared `TeamCreate`, then merge.",
        "- **Use agent teams for long sources.** Give each teammate its own region, then merge.",
    ),
    invalid=(
        "Form the team of people who review the budget.",
        "Use teams in the chat app to reach the reviewers.",
        "Launch the team's new website once the review is done.",
        "Tell Claude to create an agent team with a prompt that describes the task.",  # the user's words
    ),
)

SPEC = FormSpec(Form.F8, TRIGGER, _remove, (EXAMPLES,), has_syntax=False)
