"""The byte test that picks the markdown files worth the full parse: only a file holding one of
the words every spawn recogniser, report instruction or no-name rule sentence needs can yield
one; the others get the cheap parse (frontmatter and suppressions only)."""

from __future__ import annotations

import re

# Each recogniser needs at least one of these (lower-cased) words in the file:
# F1-F5 and tables an `Agent`/`Task` tool, `subagent_type` or a `Subagent:` header; prose F6-F8 an
# agent noun (agent, teammate, worker, reviewer, critic, helper), a team, or a strong verb
# followed by an id (`Dispatch \`x-y\``); report instructions `SendMessage`; the default no-name
# rule sentence agent/task/spawn. F9 (`context: fork`) is frontmatter, read on the cheap path too.
_NEEDLES = (
    b"agent",
    b"task",
    b"spawn",
    b"team",
    b"worker",
    b"reviewer",
    b"critic",
    b"helper",
    b"launch",
    b"dispatch",
    b"delegate",
    b"invoke",
    b"sendmessage",
)
# The strong verbs of two words: their first word alone is too common to be worth a parse.
_PHRASAL = ((b"kick", b"off"), (b"fire", b"off"), (b"spin", b"up"), (b"fan", b"out"))
_PHRASAL_RE = re.compile(rb"\b(?:kick\s+off|fire\s+off|spin\s+up|fan\s+out)\b")


def needs_full_parse(data: bytes, custom_rule_pattern: bool) -> bool:
    """Whether a markdown file could hold a spawn site, a report instruction or a no-name rule
    sentence. A custom rule `pattern` may match any sentence, so then every file qualifies."""
    if custom_rule_pattern:
        return True
    lowered = data.lower()
    if any(needle in lowered for needle in _NEEDLES):
        return True
    if any(head in lowered and tail in lowered for head, tail in _PHRASAL):
        return _PHRASAL_RE.search(lowered) is not None
    return False
