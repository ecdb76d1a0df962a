"""The tests that pick the markdown bodies (and, inside one, the blocks) worth the block parse:
a word test (`may_spawn`), then each recogniser's necessary condition (`could_yield`). Other
bodies get the cheap parse (frontmatter, suppressions, SendMessage lines), other blocks no
sentence splitting or site search."""

from __future__ import annotations

import re
from bisect import bisect_right

# Each recogniser needs at least one of these (lower-cased) words in the file:
# F1-F5 and tables an `Agent`/`Task` tool, `subagent_type` or a `Subagent:` header; prose F6-F8 an
# agent noun (agent, teammate, worker, reviewer, critic, helper), a team, or a strong verb
# followed by an id (`Dispatch \`x-y\``); the default no-name rule sentence agent/task/spawn.
# What a body says about SendMessage is read from its lines without any parse; F9
# (`context: fork`) is frontmatter, read on the cheap path too.
_WORDS = (
    "agent",
    "task",
    "spawn",
    "team",
    "worker",
    "reviewer",
    "critic",
    "helper",
    "launch",
    "dispatch",
    "delegate",
    "invoke",
)
# The strong verbs of two words: their first word alone is too common to be worth a parse.
_PHRASAL_WORDS = (("kick", "off"), ("fire", "off"), ("spin", "up"), ("fan", "out"))
_PHRASAL_TEXT = re.compile(r"\b(?:kick\s+off|fire\s+off|spin\s+up|fan\s+out)\b")
# Letters a case-insensitive regex equates with ASCII ones (long s, Kelvin sign, dotless and
# dotted I): `taſk` matches `task` there, so text holding one always gets the full parse.
_FOLDING = "\u017f\u212a\u0131\u0130"
_LF = re.compile("\n")


def hot_lines(lines: list[str]) -> set[int]:
    """The 0-based lines holding (part of) a word of `may_spawn`: a few C-speed scans per file."""
    original = "\n".join(lines)
    if any(c in original for c in _FOLDING):
        return set(range(len(lines)))  # rare enough to search every block
    text = original.lower()
    starts = [0, *(m.end() for m in _LF.finditer(text))]
    spans: list[tuple[int, int]] = []
    for word in _WORDS:
        at = text.find(word)
        while at >= 0:
            spans.append((at, at + len(word)))
            at = text.find(word, at + 1)
    if any(h in text and t in text for h, t in _PHRASAL_WORDS):
        spans.extend(m.span() for m in _PHRASAL_TEXT.finditer(text))
    hot: set[int] = set()
    for a, b in spans:
        hot.update(range(bisect_right(starts, a) - 1, bisect_right(starts, max(a, b - 1))))
    return hot


def may_spawn(text: str) -> bool:
    """Whether the text holds a word some recogniser needs (the first, cheapest test)."""
    return any(c in text for c in _FOLDING) or _has_word(text.lower())


# The second test, for a body that passed the word test. Each check below is a necessary
# condition of one recogniser (forms.py, prose.py, rule_sentence.py), found with a search that
# starts on a literal word: a regex that starts with a look-behind or a character class costs 20
# times more over a large tree.

_AGENT_CALL = re.compile(r"Agent\s*\(")
_TASK_CALL = re.compile(r"Task\s*\(")
# A `Task:` / `**Agent tool:**` / `Subagent (x):` header line: the word, then a colon ending the line.
_HEADER_ENDS = tuple(
    re.compile(word + r"[^\n]*:(?:\*\*|__)?[^\S\n]*$", re.MULTILINE) for word in ("task", "agent")
)
_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")
_SPAN_NAME = re.compile(r"`[^\S\n]*name[^\S\n]*[=:]")
_BARE_NAME = re.compile(r"name\s*[:=]")
_STRONG_VERBS = tuple(
    (word.split()[0], re.compile(word + r"(?![\w-])"))
    for word in ("spawn", "launch", "dispatch", "delegate", "invoke")
) + tuple(
    (word, re.compile(word + r"\s+" + tail + r"(?![\w-])"))
    for word, tail in (("kick", "off"), ("fire", "off"), ("spin", "up"), ("fan", "out"))
)
_NOUNS = ("agent", "teammate", "worker", "reviewer", "critic", "helper")
_STRONG_OBJECTS = (*_NOUNS, "team", "panel")
_MARKED_NEXT = re.compile(r"\s*(?:(?:the|a|an|one)\s+)?(?:`|\*\*)")
# An agent named after a verb stands within 160 characters of it (prose.py's window); 10 more
# for the verb itself.
_REFERENCE_WINDOW = 170
# A team verb, then up to three words (an article among them), then the team (or TeamCreate).
_TEAM_LEAD = re.compile(
    r"(?:create|form|set\s+up|spin\s+up|start|assemble|use|spawn)\s*(?:[\w`*-]+\s+){0,3}`?$"
)


def could_yield(body: str) -> bool:
    """Whether a markdown body could hold a spawn site or a sentence the default no-name rule
    matcher accepts (a custom pattern may match anything: not asked then): the word test of
    `may_spawn`, then each recogniser's necessary condition. A body that cannot is not given
    the block parse; what it says about SendMessage is read from its lines alone."""
    if any(c in body for c in _FOLDING):
        return True  # a case-insensitive recogniser may read `ſpawn` as spawn
    low = body.lower()
    present = frozenset(word for word in _WORDS if word in low)  # each word searched once
    if not _has_word(low, present):
        return False
    return _structured(body, low) or _prose(body, low, present) or _rule_sentence(body, low)


def could_be_prose(text: str) -> bool:
    """Whether a block could hold an F6/F7/F8 prose spawn (`could_yield`'s prose conditions)."""
    if any(c in text for c in _FOLDING):
        return True
    low = text.lower()
    return _prose(text, low, frozenset(word for word in _WORDS if word in low))


def _has_word(low: str, present: frozenset[str] | None = None) -> bool:
    if present if present is not None else any(word in low for word in _WORDS):
        return True
    phrasal = any(h in low and t in low for h, t in _PHRASAL_WORDS)
    return phrasal and _PHRASAL_TEXT.search(low) is not None


def _structured(body: str, low: str) -> bool:
    """F1 calls, F2 blocks, F3 objects, F4 parameter bullets, F5 inline parameters, F7 tables."""
    if "subagent_type" in body:
        return True  # F2 `subagent_type:` runs, F3 objects, F5 and F7 typed parameters
    if ("Agent" in body and _AGENT_CALL.search(body)) or ("Task" in body and _TASK_CALL.search(body)):
        return True  # F1 (and a positional `Task(x) - "..."`)
    if "|" in body and "type" in low:
        cells = low.replace("`", "").replace("*", "")
        if "subagent_type" in cells or "subagent type" in cells:
            return True  # an F7 table with a subagent_type column
    if _header_line(body, low) or _parameter_bullets(body):
        return True
    # F5 without subagent_type needs a `name`: in a code span, `name` set to `x`, or bare
    # (`name: "x"`) in a sentence naming the Agent/Task tool.
    if "name" not in body:
        return False
    if "`name`" in body or _SPAN_NAME.search(body):
        return True
    return ("Agent" in body or "Task" in body) and _bare_name_by_tool(body)


def _header_line(body: str, low: str) -> bool:
    """F2 under a `Task:` header (its parameters may leave out subagent_type)."""
    from spawnlint.parse.forms import block_header  # the recogniser's own test, on the few candidates

    for pattern in _HEADER_ENDS:
        for m in pattern.finditer(low):
            start = body.rfind("\n", 0, m.start()) + 1
            end = body.find("\n", m.start())
            if block_header(body[start : end if end >= 0 else len(body)]):
                return True
    return False


def _parameter_bullets(body: str) -> bool:
    """F4 without a subagent_type: list items giving two parameters, prompt or description
    among them."""
    if not (_list_item_with(body, "prompt") or _list_item_with(body, "description")):
        return False
    from spawnlint.parse.spawn_syntax import PARAM_KEYS

    return sum(1 for key in PARAM_KEYS if _list_item_with(body, key)) >= 2


def _list_item_with(body: str, key: str) -> bool:
    """Whether some line holding `key` is a list item."""
    at = body.find(key)
    while at >= 0:
        start = body.rfind("\n", 0, at) + 1
        if _LIST_ITEM.match(body, start, at + 1):
            return True
        at = body.find(key, at + len(key))
    return False


def _bare_name_by_tool(body: str) -> bool:
    """A bare `name: "x"` counts only in a sentence naming the Agent/Task tool: here, in a
    paragraph holding Agent or Task."""
    for m in _BARE_NAME.finditer(body):
        start, end = _paragraph(body, m.start())
        paragraph = body[start:end]
        if "Agent" in paragraph or "Task" in paragraph:
            return True
    return False


def _paragraph(text: str, at: int) -> tuple[int, int]:
    """The text between the blank lines around offset `at` (only an empty line counts as
    blank here, so this may be more than markdown's paragraph, never less)."""
    end = text.find("\n\n", at)
    return text.rfind("\n\n", 0, at) + 1, len(text) if end < 0 else end


def _prose(body: str, low: str, present: frozenset[str]) -> bool:
    """F6, F7 and F8 in prose. Every prose recogniser needs, in one sentence, a spawn verb and
    after it: for a strong verb (spawn, launch, ...) an agent noun, a team, a panel, a marked id
    right after it or a colon; for any verb an agent noun (agent, teammate, worker, reviewer,
    critic, helper) within 160 characters or five words, or a team within four words."""
    return _strong_verb(low, present) or _verb_before_noun(body, low, present) or _team_verb(low, present)


def _strong_verb(low: str, present: frozenset[str]) -> bool:
    for word, pattern in _STRONG_VERBS:
        if word not in present and (word in _WORDS or word not in low):
            continue  # a phrasal verb's first word (kick, fire, ...) is searched only here
        for m in pattern.finditer(low):
            if _MARKED_NEXT.match(low, m.end()):
                return True  # ``Spawn `shop:critic` ``
            rest = low[m.end() : _paragraph(low, m.end())[1]]
            if ":" in rest or any(noun in rest for noun in _STRONG_OBJECTS):
                return True
    return False


def _verb_before_noun(body: str, low: str, present: frozenset[str]) -> bool:
    from spawnlint.parse.prose import verb_in  # the prose recogniser's own verbs

    searched = (0, 0)  # no verb in body[searched[0]:searched[1]]
    nouns = tuple(noun for noun in _NOUNS if noun in present or (noun == "teammate" and "team" in present))
    for at in sorted(_occurrences(low, nouns)):
        paragraph_start = _paragraph(low, at)[0]
        start = max(paragraph_start, at - _REFERENCE_WINDOW)
        if start > paragraph_start and len(low[start:at].split()) <= 5:
            start = paragraph_start  # five long words: the verb may stand further back
        if searched[0] <= start <= searched[1]:
            start = searched[1]
        if verb_in(body, start, at):
            return True
        searched = (min(searched[0], start) if start <= searched[1] else start, at)
    return False


def _team_verb(low: str, present: frozenset[str]) -> bool:
    at = low.find("team") if "team" in present else -1
    while at >= 0:
        paragraph_start = _paragraph(low, at)[0]
        start = max(paragraph_start, at - 400)
        window = low[start:at]
        if _TEAM_LEAD.search(window) or (start > paragraph_start and len(window.split()) <= 4):
            return True
        at = low.find("team", at + 4)
    return False


def _occurrences(low: str, words: tuple[str, ...]) -> list[int]:
    found = []
    for word in words:
        at = low.find(word)
        while at >= 0:
            found.append(at)
            at = low.find(word, at + 1)
    return found


def _rule_sentence(body: str, low: str) -> bool:
    """A no-name rule sentence (rule_sentence.py) names `name`, forbids it and names agents,
    tasks or spawning: all three in one paragraph."""
    from spawnlint.parse.rule_sentence import is_rule_sentence

    at = low.find("name")
    while at >= 0:
        start = body.rfind("\n\n", 0, at) + 1
        end = body.find("\n\n", at)
        end = len(body) if end < 0 else end
        if is_rule_sentence(body[start:end], require_mechanism=False):
            return True
        at = low.find("name", end)
    return False
