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
    STRONG_VERBS,
    VERB_RE,
    VERB_TRIGGER,
    ProseSpawn,
    governed,
    is_instruction,
    references,
    teammate_names,
)
from spawnlint.parse.forms.spec import FormSpec
from spawnlint.parse.forms.trigger import either
from spawnlint.parse.text import FormExamples

# "launch 5 parallel agents", "use a Haiku agent"; not "the agent template", "an Agent SDK app".
_GENERIC = re.compile(
    r"^\s*(?:\S+\s+){0,3}?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+\+?"
    r"(?:\s*[-–]\s*\d+)?|several|multiple|parallel|new|fresh|separate|dedicated|additional|another|both|all|these)"
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
        if (
            generic
            and not _SELF.search(rest[: generic.end()])
            and word not in ("call", "send", "create", "form")
        ):
            names = teammate_names(text, verb.end())  # "Spawn a teammate named 'coder-1'"
            if names:
                return [ProseSpawn(Form.F6, verb.start(), None, 0, n, o) for n, o in names]
            return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
    return []


TRIGGER = VERB_TRIGGER


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
    ),
    invalid=(
        "Do not spawn the **security-auditor** agent.",
        "Run the critical path analysis on the build.",
        "Run the same check as the **linter** agent.",
        "You have two agents in this repository.",
    ),
)

SPEC = FormSpec(
    Form.F6,
    either(TRIGGER, languages.TRIGGER),
    _remove,
    (EXAMPLES, *languages.EXAMPLES),
    has_syntax=False,
)
