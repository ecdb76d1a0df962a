"""Project text made safe for an output: no control character or escape sequence from a file
name, an agent name or a spawn value reaches a terminal, a CI log or a parser raw."""

from __future__ import annotations

import json
import re
from typing import Any


def escape_controls(text: str, keep: str = "") -> str:
    """Every character that does not print (C0 and C1 controls, ESC, DEL, line and bidi
    separators, lone surrogates) as a visible `\\xNN` / `\\uNNNN`, except those in `keep`."""
    if text.isprintable():
        return text  # nearly always: one C-speed test instead of a loop a character
    return "".join(ch if ch.isprintable() or ch in keep else _visible(ch) for ch in text)


def _visible(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def log_text(text: str) -> str:
    """Text a CI runner cannot read as a workflow command: GitHub Actions runs `::command::` at
    the start of a line (after blanks) and the legacy `##[command]` anywhere in one."""
    return "\n".join(_log_line(line) for line in text.split("\n"))


def _log_line(line: str) -> str:
    line = line.replace("##[", "##\\x5b")
    stripped = line.lstrip()
    if stripped.startswith("::"):
        line = line[: len(line) - len(stripped)] + "\\x3a" + stripped[1:]
    return line


# json.dumps escapes C0 controls; DEL, C1 controls (0x9b is a one-byte CSI) and the other
# characters that do not print are passed through raw with ensure_ascii=False.
_JSON_RAW = re.compile(r"[^\x20-\x7e\n]")


def json_text(data: Any) -> str:
    """Pretty JSON that keeps readable non-ASCII text but holds no raw control character."""
    rendered = json.dumps(data, indent=2, ensure_ascii=False)
    # `##[` is only ever inside a string here; \u005b reads back as the same `[`.
    return _JSON_RAW.sub(_json_escape, rendered).replace("##[", "##\\u005b") + "\n"


def _json_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch.isprintable():
        return ch
    return json.dumps(ch)[1:-1]  # ASCII-only: \u007f, \u009b, a surrogate pair above U+FFFF


_LINE_END = re.compile(r"(\r\n|\n|\r)$")


def display_lines(text: str) -> str:
    """Multi-line project text shown as it is (a diff of a file): tabs and each line's own ending
    kept, every other control character escaped, and no line a CI runner would read as a command."""
    out = []
    for line in text.splitlines(keepends=True):
        ending = _LINE_END.search(line)
        body = line[: ending.start()] if ending else line
        out.append(escape_controls(body, keep="\t") + (ending.group() if ending else ""))
    return log_text("".join(out))
