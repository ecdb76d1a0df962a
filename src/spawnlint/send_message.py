"""Whether text names the SendMessage tool, and which lines tell an agent to report with it
(`gameObject.SendMessage()` of game engines and negated mentions do not count)."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.source_lines import split_lines

_SEND_MESSAGE = lazy.compile(r"\bSendMessage\b", re.IGNORECASE)  # "use sendMessage to reply" too


_NOT_THE_TOOL = lazy.compile(
    r"\.\s*SendMessage\b|\bSendMessage\s*\(\s*[\"'][A-Z]|SendMessageOptions|SendMessageUpwards"
    r"|\bgameObject\b|MonoBehaviour|\bUnity\b",
)
# Other APIs of that name, whatever their case: a method of an object (`bot.sendMessage(`), a
# Windows call (`::SendMessage(hWnd, ...)`, `SendMessageW(hDlg, ...)`, `SendMessage(HWND_BROADCAST`)
_ANOTHER_API = lazy.compile(
    r"[\w)\]]\.SendMessage|::\s*SendMessage|\bSendMessage[AW]?\s*\(\s*(?:h[A-Z]\w*|hwnd\w*|hdlg\w*|HWND_\w+)\b",
    re.IGNORECASE,
)
# Fenced code in these languages calls another API named SendMessage (Win32, game engines, bots)
_OTHER_LANGUAGES = frozenset(
    [
        "c",
        "cpp",
        "c++",
        "cc",
        "cxx",
        "h",
        "hpp",
        "cs",
        "csharp",
        "c#",
        "java",
        "kotlin",
        "kt",
        "swift",
        "objc",
        "objective-c",
        "objectivec",
        "go",
        "golang",
        "rust",
        "rs",
        "php",
        "ruby",
        "rb",
        "lua",
        "gdscript",
        "vb",
        "vbnet",
        "visualbasic",
        "delphi",
        "pascal",
        "dart",
        "scala",
        "perl",
    ]
)
_FENCE = lazy.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([^\s`{]*)")


def _other_language_lines(lines: list[str]) -> frozenset[int]:
    """The 0-based lines inside fenced code labelled with another programming language."""
    inside: set[int] = set()
    fence: str | None = None
    other = False
    for j, line in enumerate(lines):
        m = _FENCE.match(line) if "``" in line or "~~" in line else None
        if fence is None:
            if m:
                fence, other = m.group(1), m.group(2).lower() in _OTHER_LANGUAGES
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2):
            fence = None
        elif other:
            inside.add(j)
    return frozenset(inside)


_NEGATED_BEFORE = lazy.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|without|not|no)\b[^.;:!?]{0,60}$", re.IGNORECASE
)


_REPORT_WORDS = lazy.compile(
    r"\b(?:report|send|return|deliver|notify|reply|respond|result|results|finding|findings|answer"
    r"|summary|lead|team-lead|parent|orchestrator|coordinator|main|message|use|call|tool)\b",
    re.IGNORECASE,
)


def _may_name(text: str) -> bool:
    """Whether the text may hold the word, in any case: a plain search of the lower-cased text
    (a tenth of the case-blind pattern's cost), and the pattern where a long s could stand for s."""
    return "sendmessage" in text.lower() or ("\u017f" in text and _SEND_MESSAGE.search(text) is not None)


def mentions_send_message_tool(text: str) -> bool:
    """Whether the text names the SendMessage tool (Unity's `gameObject.SendMessage()`, a Windows
    `::SendMessage(hWnd, ...)` and other APIs of that name do not count)."""
    if not _may_name(text):
        return False
    lines = split_lines(text)
    code = _other_language_lines(lines)
    return any(_names_the_tool(line) for j, line in enumerate(lines) if j not in code)


def _names_the_tool(line: str) -> re.Match[str] | None:
    """The SendMessage mention of a line, unless it is another API's (`gameObject.SendMessage(`)
    or a negated one ("Do not use SendMessage; return your findings")."""
    m = _SEND_MESSAGE.search(line)
    if m is None or _NOT_THE_TOOL.search(line) or _ANOTHER_API.search(line):
        return None
    if _NEGATED_BEFORE.search(line, 0, m.start()):
        return None
    return m


def report_lines(lines: list[str], first: int = 0) -> tuple[tuple[int, int], ...]:
    """The 1-based lines (from index `first`) that tell the agent to report with the SendMessage
    tool, with the column of the mention."""
    found: list[tuple[int, int]] = []
    if not _may_name("\n".join(lines[first:])):
        return ()  # one search of the text, not one a line
    code: frozenset[int] | None = None
    for j in range(first, len(lines)):
        line = lines[j]
        m = _names_the_tool(line) if _SEND_MESSAGE.search(line) else None
        if m and _REPORT_WORDS.search(line):
            code = _other_language_lines(lines) if code is None else code
            if j not in code:
                found.append((j + 1, m.start() + 1))
    return tuple(found)
