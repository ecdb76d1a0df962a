"""The text a string literal stands for, with the source position of every character: what the
markdown recognisers read in a Python string, and how their positions are mapped back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat

from spawnlint import lazy

_ESCAPE = lazy.compile(
    r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}\n]*\}|[0-7]{1,3}|.)", re.DOTALL
)
_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}
_TOKEN_OPEN = lazy.compile(r"""^([A-Za-z]*)("{3}|'{3}|"|')""")
# The characters that are not read as written, by (raw, formatted): everything between them is.
_SPECIAL = {
    (False, False): re.compile(r"[\\\n]"),
    (True, False): re.compile(r"\n"),
    (False, True): re.compile(r"[\\\n{}]"),
    (True, True): re.compile(r"[\n{}]"),
}
_LINE_FEED = lazy.compile("\n")


@dataclass
class Doc:
    """The text of a string literal, with the source position of every character."""

    text: str
    positions: list[tuple[int, int]]  # 1-based line, 1-based column
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.starts = [0, *(m.end() for m in _LINE_FEED.finditer(self.text))]

    def at(self, line: int, column: int) -> tuple[int, int]:
        starts = self.starts
        offset = starts[min(line, len(starts)) - 1] + column - 1
        if not self.positions:
            return (1, 1)
        return self.positions[max(0, min(offset, len(self.positions) - 1))]


def decode_token(
    token: str, start: tuple[int, int], chars: list[str], positions: list[tuple[int, int]]
) -> None:
    """Add the characters a string token stands for to `chars`, and the source position of each
    (1-based line and column) to `positions`: escapes decoded, and in an f-string `{{`/`}}` as one
    brace and each replacement field as `{…}` at its opening brace."""
    m = _TOKEN_OPEN.match(token)
    if m is None:
        return
    prefix, quote = m.group(1).lower(), m.group(2)
    inner = token[m.end() : len(token) - len(quote)]
    line, column = start
    raw, formatted = "r" in prefix, "f" in prefix
    _decode_text(inner, (line, column + m.end()), raw, formatted, chars, positions)


def _decode_text(
    text: str,
    start: tuple[int, int],
    raw: bool,
    formatted: bool,
    chars: list[str],
    positions: list[tuple[int, int]],
) -> None:
    special = _SPECIAL[raw, formatted]
    line, column = start
    i, n = 0, len(text)
    while i < n:
        found = special.search(text, i)
        stop = found.start() if found else n
        if stop > i:  # read as written: one position after another on this line
            chars.append(text[i:stop])
            positions.extend(zip(repeat(line), range(column, column + stop - i)))
            column += stop - i
            i = stop
            if i == n:
                break
        ch = text[i]
        at = (line, column)
        if ch == "\\" and i + 1 < n:
            if text[i + 1] == "\n":  # a line continuation inside the string
                line, column, i = line + 1, 1, i + 2
                continue
            escape = _ESCAPE.match(text, i)
            length = escape.end() - i if escape else 2
            value = _unescape(text[i : i + length])
            chars.append(value)
            positions.extend(repeat(at, len(value)))
            column += length
            i += length
            continue
        if ch in "{}":
            if text[i + 1 : i + 2] == ch:  # `{{` is one brace
                chars.append(ch)
                positions.append(at)
                column, i = column + 2, i + 2
                continue
            if ch == "{":
                end = _field_end(text, i)
                chars.append("{…}")
                positions.extend(repeat(at, 3))
                line_feeds = text.count("\n", i, end)
                if line_feeds:
                    line, column = line + line_feeds, end - text.rfind("\n", i, end)
                else:
                    column += end - i
                i = end
                continue
        chars.append(ch)
        positions.append(at)
        if ch == "\n":
            line, column = line + 1, 1
        else:
            column += 1
        i += 1


def _unescape(escape: str) -> str:
    """The characters one escape sequence stands for (an unknown one, like `\\d`, stays as written)."""
    if escape[1:] in _ESCAPES:
        return _ESCAPES[escape[1:]]
    if escape[1:2] in ("x", "u", "U", "N") or escape[1:2].isdigit():
        try:
            return escape.encode("ascii", "backslashreplace").decode("unicode_escape")
        except (UnicodeDecodeError, ValueError):
            return escape
    return escape


def _field_end(text: str, i: int) -> int:
    """Past the `}` that closes the replacement field opened at text[i] (nested brackets,
    strings and a format spec's own fields included)."""
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch in "\"'" and depth > 0:
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
            close = text.find(quote, i + len(quote))
            i = n if close < 0 else close + len(quote)
            continue
        i += 1
    return n
