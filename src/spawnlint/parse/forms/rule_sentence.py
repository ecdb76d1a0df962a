"""The default matcher of the no-name rule sentence (SPEC §5)."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, word_at

_NAME = lazy.compile(r"\bname\b", re.IGNORECASE)
_SPAWN = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.RULE_SPAWN_NOUNS)}\b|\b{vocabulary.alternation(vocabulary.RULE_SPAWN_STEMS)}",
    re.IGNORECASE,
)
_FORBID = lazy.compile(rf"\b{vocabulary.alternation(vocabulary.FORBIDDING)}\b", re.IGNORECASE)
_MECHANISM = lazy.compile(vocabulary.MECHANISM, re.IGNORECASE)
# `name` as the parameter, not the word: "a `name`", `name=`, "the name parameter"
_NAME_PARAMETER = lazy.compile(
    r"`name`|\bname\s*[=:]|\bname\s+(?:param\w*|argument|arg|field|key|option)\b|[\"'“]name[\"'”]",
    re.IGNORECASE,
)
# A rule that makes room for named teammates: "spawn subagents (not teammates) ...", "unless its
# prompt says how to report", "in plain Agent spawns", "for the other steps"
_EXCEPTION = lazy.compile(
    rf"\b{vocabulary.alternation(vocabulary.RULE_EXCEPTIONS)}\b|SendMessage", re.IGNORECASE
)


def is_rule_sentence(text: str, require_mechanism: bool = True) -> bool:
    """A sentence that states the no-name rule: it mentions the `name` parameter, forbids it,
    refers to the Agent/Task tool or to spawning, and (by default) names the mechanism."""
    return bool(
        _NAME.search(text)
        and _FORBID.search(text)
        and _SPAWN.search(text)
        and (not require_mechanism or _MECHANISM.search(text))
    )


# The forbidding governs the `name` mention: a few words between them, no clause break
# ("omit `team_name=` and use `name=`" forbids team_name, not name)
_GAP = r"(?:(?![,;:]|\s(?:and|but|or|then|use)\s)[^.!?\n]){0,40}?"


def is_own_words_rule(text: str) -> bool:
    """A sentence that forbids the `name` parameter at spawns without naming the mechanism
    ("Don't give the Agent tool a `name`: named agents just sit there"): the rule, incomplete."""
    if _MECHANISM.search(text) or not is_rule_sentence(text, require_mechanism=False):
        return False
    flat = " ".join(text.split())
    return any(
        re.search(rf"{_FORBID.pattern}{_GAP}(?:{n.pattern})", flat, re.IGNORECASE)
        or re.search(rf"(?:{n.pattern}){_GAP}{_FORBID.pattern}", flat, re.IGNORECASE)
        for n in (_NAME_PARAMETER,)
    )


def states_team_exception(text: str) -> bool:
    """Whether a rule sentence makes room for teammates ("spawn subagents (not teammates)
    without `name`"): a team unit may carry it."""
    return bool(_EXCEPTION.search(text))


MECHANISM_CLAUSE = "(a named spawn runs as an `in_process_teammate`, whose final answer never returns)"


def canonical_rule(kind: str, mixed: bool = False) -> str:
    """The sentence `--fix` inserts; it satisfies the default matcher. In a unit that also spawns
    teammates on purpose, it is for the subagent spawns only."""
    who = "subagents (not teammates)" if mixed else "agents"
    return (
        f"Spawn {who} without the Agent tool's `name` parameter: a named spawn runs as an"
        f" `in_process_teammate`, whose final answer never returns to this {kind}."
    )


# The trigger of the default matcher: `name` as a word, and in its paragraph a forbidding word and
# agents, tasks or spawning (a literal inside each of their words, found by plain searches: "do
# not": not; "omits": omit; "subagent": agent), then the matcher itself on that paragraph.
_FORBID_WORDS = vocabulary.probes(vocabulary.FORBIDDING)
_SPAWN_WORDS = vocabulary.probes((*vocabulary.RULE_SPAWN_NOUNS, *vocabulary.RULE_SPAWN_STEMS))


def _holds_rule(text: str, low: str, paragraphs: Paragraphs) -> bool:
    at = low.find("name")
    while at >= 0:
        if not word_at(low, at, at + 4):
            at = low.find("name", at + 4)  # "filename", "named": the sentence needs the word
            continue
        start, end = paragraphs.around(at)
        if _has_rule_words(low[start:end]) and is_rule_sentence(text[start:end], require_mechanism=False):
            return True
        at = low.find("name", end)
    return False


def _has_rule_words(low: str) -> bool:
    return any(w in low for w in _FORBID_WORDS) and any(w in low for w in _SPAWN_WORDS)


TRIGGER = Trigger(("name",), _holds_rule, words=_SPAWN_WORDS)


# Sentences the default matcher reads as the no-name rule (VALID) or not (INVALID); the body
# test must let each VALID one through, wherever it is written.
VALID = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an"
    " `in_process_teammate`, whose final answer never returns.",
    "Never give a subagent a `name`: it would run as an in_process_teammate.",
    "Do not pass name to the Task tool; named tasks become in_process_teammate peers.",
)
INVALID = ("Give each agent a short name.", "Never rename the task file.")
