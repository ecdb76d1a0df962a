"""The `--unsafe-fixes` edits that let a teammate report (SL101 in a team unit): SendMessage
added to an agent's `tools:` line, and a report instruction at the start of a spawn's prompt."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Edit, ToolList

REPORT_INSTRUCTION = (
    "When you finish, send your complete result to team-lead with the SendMessage tool;"
    " your final text is not delivered. "
)
_TOOLS_LINE = lazy.compile(r"^(?P<key>\s*tools\s*:\s*)(?P<value>.*?)\s*$")
_BLOCK_ITEM = lazy.compile(r"^(?P<indent>\s*)-\s+\S")


def grant_send_message(
    path: str, lines: list[str], tools: ToolList | None, disallowed: ToolList | None
) -> tuple[Edit, ...]:
    """The edit that adds SendMessage to the `tools:` value (a comma list, a flow list or a block
    list), or () when there is nothing to add or the shape is not certain (quotes, comments, a
    `disallowedTools` that removes it again)."""
    if tools is None or tools.includes("SendMessage") or not 1 <= tools.line <= len(lines):
        return ()
    if disallowed is not None and disallowed.includes("SendMessage"):
        return ()
    raw = lines[tools.line - 1]
    m = _TOOLS_LINE.match(raw)
    if m is None or any(c in m.group("value") for c in "#\"'{"):
        return ()
    value, at = m.group("value"), m.start("value") + 1  # 1-based column of the value
    end = at + len(value)
    if value.startswith("[") and value.endswith("]"):
        joiner = ", " if value[1:-1].strip() else ""
        return (Edit(path, tools.line, end - 1, tools.line, end, "]", f"{joiner}SendMessage]"),)
    if value:
        return (Edit(path, tools.line, end - 1, tools.line, end, value[-1], f"{value[-1]}, SendMessage"),)
    return _block_item(path, lines, tools.line)


def _block_item(path: str, lines: list[str], key_line: int) -> tuple[Edit, ...]:
    last, indent = None, ""
    for j in range(key_line, len(lines)):
        item = _BLOCK_ITEM.match(lines[j])
        if item is None:
            break
        last, indent = j, item.group("indent")
    if last is None or last + 1 >= len(lines):
        return ()
    line = last + 2  # 1-based line after the last item: the new item goes before it
    return (Edit(path, line, 1, line, 1, "", f"{indent}- SendMessage\n"),)


_PROMPT_VALUE = lazy.compile(r"""["'`]?\bprompt\b["'`]?\s*[:=]\s*(?P<quote>["'])""")
_NEXT_SPAWN = lazy.compile(r"\b(?:Agent|Task)\s*\(|^\s*(?:Task|Agent)\s*:", re.MULTILINE)
_REACH = 3000  # characters after the spawn's start where its prompt may open


def _window(lines: list[str], first: int, size: int) -> str:
    """The text from 0-based line `first`, at most `size` characters (never the rest of a big file
    for each of its spawns)."""
    taken: list[str] = []
    length = 0
    for raw in lines[first:]:
        taken.append(raw)
        length += len(raw) + 1
        if length >= size:
            break
    return "\n".join(taken)[:size]


def report_instruction(path: str, lines: list[str], line: int, column: int) -> tuple[Edit, ...]:
    """The edit that opens the spawn's quoted prompt (the first after 1-based line:column, before
    any other spawn) with the report instruction, or () when there is none."""
    if not 1 <= line <= len(lines):
        return ()
    start = column - 1
    text = _window(lines, line - 1, start + _REACH)
    m = _PROMPT_VALUE.search(text, start)
    if m is None or _NEXT_SPAWN.search(text, start + 1, m.start()):
        return ()
    at_line = line + text.count("\n", 0, m.start("quote"))
    at_column = m.start("quote") - (text.rfind("\n", 0, m.start("quote")) + 1) + 1
    quote = m.group("quote")
    if lines[at_line - 1][at_column:].startswith(REPORT_INSTRUCTION):
        return ()
    return (Edit(path, at_line, at_column, at_line, at_column + 1, quote, quote + REPORT_INSTRUCTION),)
