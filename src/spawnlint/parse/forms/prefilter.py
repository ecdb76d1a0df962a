"""The tests that pick the markdown bodies (and, inside one, the blocks) worth the block parse:
a word test (`_has_word`), then each recogniser's necessary condition (`could_yield`). Other
bodies get the cheap parse (frontmatter, suppressions, SendMessage lines), other blocks no
sentence splitting or site search."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from spawnlint.parse.forms import vocabulary

# Each recogniser needs at least one of these (lower-cased) words in the file:
# F1-F5 and tables an `Agent`/`Task` tool, `subagent_type` or a `Subagent:` header; prose F6-F8 an
# agent noun, a team, or a strong verb followed by an id (`Dispatch \`x-y\``); the default no-name
# rule sentence agent/task/spawn. What a body says about SendMessage is read from its lines
# without any parse; F9 (`context: fork`) is frontmatter, read on the cheap path too.
_FOREIGN_NOUNS = tuple(
    noun for language in vocabulary.LANGUAGES for noun in (*language.subagent_nouns, *language.agent_nouns)
)
_WORDS = vocabulary.probes(
    (
        *vocabulary.SPAWN_TOOL_WORDS,
        *vocabulary.RULE_SPAWN_STEMS,
        vocabulary.TEAM_NOUN,
        *vocabulary.AGENT_NOUNS,
        *vocabulary.STRONG_VERBS,
        *_FOREIGN_NOUNS,
    )
)
# The strong verbs of two words: their first word alone is too common to be worth a parse.
_PHRASAL_WORDS = tuple(tuple(verb.split()) for verb in vocabulary.PHRASAL_VERBS)
_PHRASAL_TEXT = re.compile(r"\b" + vocabulary.alternation(vocabulary.PHRASAL_VERBS) + r"\b")
# Letters a case-insensitive regex equates with ASCII ones (long s, Kelvin sign, dotless and
# dotted I): `taſk` matches `task` there, so text holding one always gets the full parse.
_FOLDING = "\u017f\u212a\u0131\u0130"
_LF = re.compile("\n")
_BLANK_LINE = re.compile("\n(?=\n)")


def hot_lines(lines: list[str]) -> set[int]:
    """The 0-based lines holding (part of) a word of the word test: a few C-speed scans per file."""
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


# The second test, for a body that passed the word test. Each check below is a necessary
# condition of one recogniser (forms.py, prose.py, rule_sentence.py), found with a search that
# starts on a literal word: a regex that starts with a look-behind or a character class costs 20
# times more over a large tree.

_AGENT_CALL = re.compile(r"Agent\s*\(")
_TASK_CALL = re.compile(r"Task\s*\(")
# The end of a `Task:` / `**Agent tool:**` / `Subagent (x):` header line.
_COLON_AT_END = re.compile(r":(?:\*\*|__)?[^\S\n]*$", re.MULTILINE)
_SPAN_NAME = re.compile(r"`[^\S\n]*name[^\S\n]*[=:]")
# `` `name` set to `x` ``: forms.py's key-then-value spans, the name's form.
_NAME_SPAN_THEN_VALUE = re.compile(r"`name`\s*(?:set\s+to|=|:|as|of|to)\s*`")
_BARE_NAME = re.compile(r"name\s*[:=]")
_STRONG_VERBS = tuple(
    (word.split()[0], re.compile(vocabulary.pattern(word) + r"(?![\w-])"))
    for word in (*vocabulary.STRONG_VERBS, *vocabulary.PHRASAL_VERBS)
)
_NOUNS = vocabulary.probes(vocabulary.AGENT_NOUNS)
_STRONG_OBJECTS = (*_NOUNS, *vocabulary.GROUP_NOUNS)
_MARKED_NEXT = re.compile(r"\s*(?:(?:the|a|an|one)\s+)?(?:`|\*\*)")
# An agent named after a verb stands within 160 characters of it (prose.py's window); 10 more
# for the verb itself.
_REFERENCE_WINDOW = 170
# A team verb, then up to three words (an article among them), then the team (or TeamCreate).
_TEAM_LEAD = re.compile(vocabulary.alternation(vocabulary.TEAM_VERBS) + r"\s*(?:[\w`*-]+\s+){0,3}`?$")


def has_spawn_word(text: str) -> bool:
    """The word test alone, in any case: whether some recogniser could read the text at all."""
    return any(c in text for c in _FOLDING) or _has_word(text.lower())


def could_yield(body: str) -> bool:
    """Whether a markdown body could hold a spawn site or a sentence the default no-name rule
    matcher accepts (a custom pattern may match anything: not asked then): the word test
    (`_has_word`), then each recogniser's necessary condition. A body that cannot is not given
    the block parse; what it says about SendMessage is read from its lines alone."""
    if any(c in body for c in _FOLDING):
        return True  # a case-insensitive recogniser may read `ſpawn` as spawn
    low = body.lower()
    present = frozenset(word for word in _WORDS if word in low)  # each word searched once
    if not _has_word(low, present):
        return False
    paragraphs = _Paragraphs(body)
    return (
        _structured(body, low, paragraphs)
        or _prose(body, low, present, paragraphs)
        or _rule_sentence(body, low, paragraphs)
    )


def could_be_prose(text: str) -> bool:
    """Whether a block could hold an F6/F7/F8 prose spawn (`could_yield`'s prose conditions)."""
    if any(c in text for c in _FOLDING):
        return True
    low = text.lower()
    return _prose(text, low, frozenset(word for word in _WORDS if word in low), _Paragraphs(text))


def _has_word(low: str, present: frozenset[str] | None = None) -> bool:
    if present if present is not None else any(word in low for word in _WORDS):
        return True
    phrasal = any(h in low and t in low for h, t in _PHRASAL_WORDS)
    return phrasal and _PHRASAL_TEXT.search(low) is not None


def _structured(body: str, low: str, paragraphs: _Paragraphs) -> bool:
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
    if _SPAN_NAME.search(body) or ("`name`" in body and _NAME_SPAN_THEN_VALUE.search(body)):
        return True
    return ("Agent" in body or "Task" in body) and _bare_name_by_tool(body, paragraphs)


def _header_line(body: str, low: str) -> bool:
    """F2 under a `Task:` header (its parameters may leave out subagent_type): a line ending in
    a colon that holds task or agent, tested with the recogniser's own pattern."""
    from spawnlint.parse.forms.syntax import block_header

    for m in _COLON_AT_END.finditer(body):
        start = body.rfind("\n", 0, m.start()) + 1
        end = body.find("\n", m.start())
        end = len(body) if end < 0 else end
        if ("task" in low[start:end] or "agent" in low[start:end]) and block_header(body[start:end]):
            return True
    return False


def _parameter_bullets(body: str) -> bool:
    """F4 without a subagent_type: list items giving two parameters, prompt or description
    among them."""
    if not (_item_gives(body, "prompt") or _item_gives(body, "description")):
        return False
    from spawnlint.parse.forms.syntax import PARAM_KEYS

    return sum(1 for key in PARAM_KEYS if _item_gives(body, key)) >= 2


def _item_gives(body: str, key: str) -> bool:
    """Whether a list item could give `key`, read with forms.py's own patterns: as the item's
    first word (`- prompt: x`, `` 1. `name` is y ``; PARAM_ITEM), or anywhere in an item that
    opens with a `` `key: value` `` span (PARAM_ITEM_INLINE). A key further into a plain item is
    prose ("- Write a clear description") and gives nothing."""
    from spawnlint.parse.forms.syntax import PARAM_ITEM, PARAM_ITEM_INLINE

    at = body.find(key)
    while at >= 0:
        end = _line_end(body, at)
        line = body[max(body.rfind("\n", 0, at), body.rfind("\r", 0, at)) + 1 : end]
        if "`" in line and PARAM_ITEM_INLINE.match(line):
            return True  # the key may stand anywhere in such an item, a label too
        item = PARAM_ITEM.match(line)
        if item is not None and item.group("key") == key:
            return True
        at = body.find(key, end)  # one test a line
    return False


def _line_end(text: str, at: int) -> int:
    ends = [e for e in (text.find("\n", at), text.find("\r", at)) if e >= 0]
    return min(ends) if ends else len(text)


def _bare_name_by_tool(body: str, paragraphs: _Paragraphs) -> bool:
    """A bare `name: "x"` counts only in a sentence naming the Agent/Task tool: here, in a
    paragraph holding Agent or Task."""
    seen = -1
    for m in _BARE_NAME.finditer(body):
        start, end = paragraphs.around(m.start())
        if start == seen:
            continue  # each paragraph is searched once
        seen = start
        paragraph = body[start:end]
        if "Agent" in paragraph or "Task" in paragraph:
            return True
    return False


class _Paragraphs:
    """The text between the blank lines around an offset (only an empty line counts as blank
    here, so this may be more than markdown's paragraph, never less): one search for the blank
    lines, then each question in log time (a line of 10,000 spawns asks 10,000 of them)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._breaks: list[int] | None = None

    def around(self, at: int) -> tuple[int, int]:
        if self._breaks is None:
            self._breaks = [m.start() for m in _BLANK_LINE.finditer(self._text)]
        before = bisect_right(self._breaks, at - 2) - 1  # a "\n\n" ending by `at`
        after = bisect_left(self._breaks, at)  # the first "\n\n" from `at` on
        start = self._breaks[before] + 1 if before >= 0 else 0
        return start, self._breaks[after] if after < len(self._breaks) else len(self._text)


def _prose(body: str, low: str, present: frozenset[str], paragraphs: _Paragraphs) -> bool:
    """F6, F7 and F8 in prose. Every prose recogniser needs, in one sentence, a spawn verb and
    after it: for a strong verb (spawn, launch, ...) an agent noun, a team, a panel, a marked id
    right after it or a colon that ends a line; for any verb an agent noun (agent, teammate,
    worker, reviewer, critic, helper) standing as a word within 160 characters or five words,
    or a team within four words."""
    return (
        _strong_verb(low, present, paragraphs)
        or _verb_before_noun(body, low, present, paragraphs)
        or _team_verb(low, present, paragraphs)
        or _foreign(low)
    )


# Another language's spawn (prose.foreign_spawns) needs one of its verbs and an agent noun.
_FOREIGN_VERBS = vocabulary.probes(verb for language in vocabulary.LANGUAGES for verb in language.verbs)
_FOREIGN_NOUN_PROBES = vocabulary.probes((*_FOREIGN_NOUNS, "agent"))


def _foreign(low: str) -> bool:
    return any(noun in low for noun in _FOREIGN_NOUN_PROBES) and any(verb in low for verb in _FOREIGN_VERBS)


def _strong_verb(low: str, present: frozenset[str], paragraphs: _Paragraphs) -> bool:
    last_object: dict[int, int] = {}  # paragraph start -> where its last colon or noun starts
    for word, pattern in _STRONG_VERBS:
        if word not in present and (word in _WORDS or word not in low):
            continue  # a phrasal verb's first word (kick, fire, ...) is searched only here
        for m in pattern.finditer(low):
            if _MARKED_NEXT.match(low, m.end()):
                return True  # ``Spawn `shop:critic` ``
            start, end = paragraphs.around(m.end())
            if start not in last_object:
                nouns = (low.rfind(mark, start, end) for mark in _STRONG_OBJECTS)
                last_object[start] = max(_last_line_colon(low, start, end), *nouns)
            if last_object[start] >= m.end():
                return True  # a colon or an agent, team or panel after the verb
    return False


def _last_line_colon(low: str, start: int, end: int) -> int:
    """Where the last colon that ends a line of low[start:end] stands (-1: none). A strong verb
    with no agent after it leads a list of agents only in a sentence that ends with a colon
    (prose.spawn_lead), and a sentence ends only where its line or a full stop does."""
    if "\r" in low[start:end]:
        return low.rfind(":", start, end)  # lines that end in CR alone: any colon
    last = -1
    for m in _COLON_AT_END.finditer(low, start, end):
        last = m.start()
    return last


def _verb_before_noun(body: str, low: str, present: frozenset[str], paragraphs: _Paragraphs) -> bool:
    from spawnlint.parse.forms.prose import verb_in  # the prose recogniser's own verbs

    searched = (0, 0)  # no verb in body[searched[0]:searched[1]]
    # a noun that holds a word of the word test (teammate: team) is there only if that word is
    nouns = tuple(
        noun for noun in _NOUNS if noun in present or (noun not in _WORDS and any(w in noun for w in present))
    )
    for at in _noun_words(low, nouns):
        paragraph_start = paragraphs.around(at)[0]
        start = max(paragraph_start, at - _REFERENCE_WINDOW)
        if start > paragraph_start and len(low[start:at].split()) <= 5:
            start = paragraph_start  # five long words: the verb may stand further back
        if searched[0] <= start <= searched[1]:
            start = searched[1]
        if verb_in(body, start, at):
            return True
        searched = (min(searched[0], start) if start <= searched[1] else start, at)
    return False


def _team_verb(low: str, present: frozenset[str], paragraphs: _Paragraphs) -> bool:
    at = low.find("team") if "team" in present else -1
    while at >= 0:
        paragraph_start = paragraphs.around(at)[0]
        start = max(paragraph_start, at - 400)
        window = low[start:at]
        if _TEAM_LEAD.search(window) or (start > paragraph_start and len(window.split()) <= 4):
            return True
        at = low.find("team", at + 4)
    return False


def _noun_words(low: str, nouns: tuple[str, ...]) -> list[int]:
    """Where a noun stands as prose.py's weak-verb patterns read one, in order: after white
    space (or `sub`, `sub-`), then an optional plural `s` and no letter, digit or `_` (their
    `\\s+noun\\b`). "critical", "agentize" and "useAgentEvents" hold no noun."""
    found = []
    for noun in nouns:
        at = low.find(noun)
        while at >= 0:
            end = at + len(noun)
            end += low.startswith("s", end)
            if (end == len(low) or not _is_word_char(low[end])) and _after_space(low, at):
                found.append(at)
            at = low.find(noun, at + 1)
    return sorted(found)


def _after_space(low: str, at: int) -> bool:
    if low.endswith("sub-", 0, at):
        at -= 4
    elif low.endswith("sub", 0, at):
        at -= 3
    return at > 0 and low[at - 1].isspace()


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # the re module's \w


def _rule_sentence(body: str, low: str, paragraphs: _Paragraphs) -> bool:
    """A no-name rule sentence (rule_sentence.py) names `name`, forbids it and names agents,
    tasks or spawning: all three in one paragraph."""
    from spawnlint.parse.forms.rule_sentence import is_rule_sentence

    at = low.find("name")
    while at >= 0:
        if not _word_at(low, at, at + 4):
            at = low.find("name", at + 4)  # "filename", "named": the sentence needs the word
            continue
        start, end = paragraphs.around(at)
        if _has_rule_words(low[start:end]) and is_rule_sentence(body[start:end], require_mechanism=False):
            return True
        at = low.find("name", end)
    return False


# A literal inside each word of rule_sentence.py's forbidding and spawning patterns ("do not":
# not; "don't": don; "omits": omit; "subagent": agent): found by plain searches, which cost a
# tenth of those patterns over a long paragraph.
_FORBID_WORDS = vocabulary.probes(vocabulary.FORBIDDING)
_SPAWN_WORDS = vocabulary.probes((*vocabulary.RULE_SPAWN_NOUNS, *vocabulary.RULE_SPAWN_STEMS))


def _has_rule_words(low: str) -> bool:
    return any(w in low for w in _FORBID_WORDS) and any(w in low for w in _SPAWN_WORDS)


def _word_at(low: str, start: int, end: int) -> bool:
    """Whether low[start:end] is a whole word (`\\b` on both sides)."""
    return (start == 0 or not _is_word_char(low[start - 1])) and (
        end >= len(low) or not _is_word_char(low[end])
    )
