"""How large a Python file's shape may be before ast is given it: the token pass that bounds
bracket depth, operator chains and token count (a few kilobytes of `-` or `1+1+...` cost a parser
seconds and gigabytes), and records where every string token is written, implicit concatenation
included."""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass

# CPython's parser refuses 200 nested brackets ("too many nested parentheses").
MAX_NESTING = 200
# Operators in a row at one bracket level (`-` * 20,000 + `1`, `1+1+...`): each is one level of
# the tree that ast builds. No hand-written expression comes near.
MAX_CHAIN = 1000
# ast keeps about 1 KB a node: a file of more tokens than this is generated data, not a prompt.
MAX_TOKENS = 100_000

_RESETS = frozenset({",", ";", "="})  # an operator chain ends at these (and at a line's end)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_CHAIN_WORDS = frozenset({"not", "await", "lambda", "if", "else", "and", "or", "in", "is"})
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)  # Python 3.12+: f-strings are split up
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)


class Refused(Exception):
    """The file's shape is past what is read safely; the message says why."""


@dataclass(frozen=True)
class StringToken:
    """A string token as written: its text and where it starts and ends (1-based line, 0-based
    character column, as tokenize counts)."""

    start: tuple[int, int]
    end: tuple[int, int]
    text: str


def string_tokens(text: str) -> list[StringToken] | None:
    """Every string token (an f-string whole), in order; None when tokenize fails (ast then
    says why). Raises Refused for brackets nested too deep, an operator chain too long or too
    many tokens — the first of them in the text."""
    out: list[StringToken] = []
    depth = count = 0
    runs = [0]  # operators in a row, per open bracket
    fstring: list[tuple[int, int]] = []  # 3.12+: where each open f-string starts
    physical = text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if _FSTRING_START >= 0 else []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            count += 1
            if count > MAX_TOKENS:
                raise Refused(f"holds more than {MAX_TOKENS} tokens")
            kind, string = token.type, token.string
            if kind == _FSTRING_START:
                fstring.append(token.start)
                continue
            if kind == _FSTRING_END and fstring:
                start = fstring.pop()
                if not fstring:
                    out.append(StringToken(start, token.end, _slice(physical, start, token.end)))
                continue
            if fstring:
                continue
            if kind == tokenize.STRING:
                out.append(StringToken(token.start, token.end, string))
            elif kind == tokenize.OP:
                if string in _OPEN:
                    runs[-1] += 1
                    depth += 1
                    if depth > MAX_NESTING:
                        raise Refused(f"nests brackets more than {MAX_NESTING} deep (line {token.start[0]})")
                    runs.append(0)
                elif string in _CLOSE:
                    depth = max(0, depth - 1)
                    if len(runs) > 1:
                        runs.pop()
                elif string in _RESETS:
                    runs[-1] = 0
                else:
                    runs[-1] += 1
            elif kind == tokenize.NAME and string in _CHAIN_WORDS:
                runs[-1] += 1
            elif kind == tokenize.NEWLINE:
                depth, runs = 0, [0]
            if runs[-1] > MAX_CHAIN:
                line = token.start[0]
                raise Refused(f"chains more than {MAX_CHAIN} operators in one expression (line {line})")
    except (tokenize.TokenError, SyntaxError) as exc:
        if "too many nested parentheses" in str(exc):  # Python 3.12+ tokenizes in C, with this limit
            raise Refused(f"nests brackets more than {MAX_NESTING} deep (line {_line_of(exc)})") from None
        return None
    return out


def _line_of(exc: Exception) -> int:
    if isinstance(exc, SyntaxError):
        return exc.lineno or 1
    where = exc.args[1] if len(exc.args) > 1 else None
    return where[0] if isinstance(where, tuple) and where and isinstance(where[0], int) else 1


def _slice(physical: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return physical[start[0] - 1][start[1] : end[1]]
    middle = physical[start[0] : end[0] - 1]
    return "\n".join([physical[start[0] - 1][start[1] :], *middle, physical[end[0] - 1][: end[1]]])
