"""The word test that picks the markdown files (and, inside one, the blocks) worth the full
parse: only text holding one of the words every spawn recogniser, report instruction or no-name
rule sentence needs can yield one; other files get the cheap parse (frontmatter and
suppressions only), other blocks no sentence splitting or site search."""

from __future__ import annotations

import re
from bisect import bisect_right

# Each recogniser needs at least one of these (lower-cased) words in the file:
# F1-F5 and tables an `Agent`/`Task` tool, `subagent_type` or a `Subagent:` header; prose F6-F8 an
# agent noun (agent, teammate, worker, reviewer, critic, helper), a team, or a strong verb
# followed by an id (`Dispatch \`x-y\``); report instructions `SendMessage`; the default no-name
# rule sentence agent/task/spawn. F9 (`context: fork`) is frontmatter, read on the cheap path too.
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
    "sendmessage",
)
_NEEDLES = tuple(w.encode() for w in _WORDS)
# The strong verbs of two words: their first word alone is too common to be worth a parse.
_PHRASAL_WORDS = (("kick", "off"), ("fire", "off"), ("spin", "up"), ("fan", "out"))
_PHRASAL = tuple((a.encode(), b.encode()) for a, b in _PHRASAL_WORDS)
_PHRASAL_RE = re.compile(rb"\b(?:kick\s+off|fire\s+off|spin\s+up|fan\s+out)\b")
_PHRASAL_TEXT = re.compile(_PHRASAL_RE.pattern.decode())
# Letters a case-insensitive regex equates with ASCII ones (long s, Kelvin sign, dotless and
# dotted I): `taſk` matches `task` there, so text holding one always gets the full parse.
_FOLDING = "\u017f\u212a\u0131\u0130"
_FOLDING_BYTES = tuple(c.encode() for c in _FOLDING)


def needs_full_parse(data: bytes, custom_rule_pattern: bool) -> bool:
    """Whether a markdown file could hold a spawn site, a report instruction or a no-name rule
    sentence. A custom rule `pattern` may match any sentence, so then every file qualifies."""
    if custom_rule_pattern:
        return True
    lowered = data.lower()
    if any(needle in lowered for needle in _NEEDLES) or any(c in data for c in _FOLDING_BYTES):
        return True
    if any(head in lowered and tail in lowered for head, tail in _PHRASAL):
        return _PHRASAL_RE.search(lowered) is not None
    return False


def hot_lines(lines: list[str]) -> set[int]:
    """The 0-based lines holding (part of) a word of `may_spawn`: a few C-speed scans per file."""
    original = "\n".join(lines)
    if any(c in original for c in _FOLDING):
        return set(range(len(lines)))  # rare enough to search every block
    text = original.lower()
    starts = [0]
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
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
    """The same test on a block of text: whether any recogniser could find something in it."""
    lowered = text.lower()
    if any(word in lowered for word in _WORDS) or any(c in text for c in _FOLDING):
        return True
    if any(head in lowered and tail in lowered for head, tail in _PHRASAL_WORDS):
        return _PHRASAL_TEXT.search(lowered) is not None
    return False
