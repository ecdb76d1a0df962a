"""Whether text names the SendMessage tool, and which lines tell an agent to report with it
(`gameObject.SendMessage()` of game engines and negated mentions do not count)."""

from __future__ import annotations

import re

from spawnlint.parse.spawn_syntax import split_lines

_SEND_MESSAGE = re.compile(r"\bSendMessage\b")


_NOT_THE_TOOL = re.compile(
    r"\.\s*SendMessage\b|\bSendMessage\s*\(\s*[\"'][A-Z]|SendMessageOptions|SendMessageUpwards"
    r"|\bgameObject\b|MonoBehaviour|\bUnity\b",
)


_NEGATED_BEFORE = re.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|without|not|no)\b[^.;:!?]{0,60}$", re.IGNORECASE
)


_REPORT_WORDS = re.compile(
    r"\b(?:report|send|return|deliver|notify|reply|respond|result|results|finding|findings|answer"
    r"|summary|lead|team-lead|parent|orchestrator|coordinator|main|message|use|call|tool)\b",
    re.IGNORECASE,
)


def mentions_send_message_tool(text: str) -> bool:
    """Whether the text names the SendMessage tool (Unity's `gameObject.SendMessage()` and
    other APIs of that name do not count)."""
    return any(_names_the_tool(line) for line in split_lines(text) if "SendMessage" in line)


def _names_the_tool(line: str) -> re.Match[str] | None:
    """The SendMessage mention of a line, unless it is another API's (`gameObject.SendMessage(`)
    or a negated one ("Do not use SendMessage; return your findings")."""
    m = _SEND_MESSAGE.search(line)
    if m is None or _NOT_THE_TOOL.search(line) or _NEGATED_BEFORE.search(line, 0, m.start()):
        return None
    return m


def report_lines(lines: list[str], first: int = 0) -> tuple[tuple[int, int], ...]:
    """The 1-based lines (from index `first`) that tell the agent to report with the SendMessage
    tool, with the column of the mention."""
    found = []
    for j in range(first, len(lines)):
        line = lines[j]
        m = _names_the_tool(line) if "SendMessage" in line else None
        if m and _REPORT_WORDS.search(line):
            found.append((j + 1, m.start() + 1))
    return tuple(found)
