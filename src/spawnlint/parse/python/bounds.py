"""How large a Python file's shape may be before it is read: the token pass that bounds what
`ast.parse` is given (bracket depth, operator chains, token count), and the cheap tests that show
most files need no such pass.

A few kilobytes of `-` or `1+1+...` cost libcst seconds and gigabytes, and CPython 3.10's ast
module, which builds the Python tree by C recursion without a depth check, crashes the process on
about 100,000 `+` in a row. CPython 3.11 and later refuse deep trees themselves (a MemoryError or
RecursionError, within milliseconds) and every version refuses 200 nested brackets, so from 3.11
on the token pass runs only for a file that may hold too many tokens, a file ast refused (to say
why in the same words), and a file with a logical line long enough to hold a refused chain."""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from dataclasses import dataclass
from itertools import accumulate

from spawnlint import lazy

# CPython's parser refuses 200 nested brackets ("too many nested parentheses").
MAX_NESTING = 200
# Operators in a row at one bracket level (`-` * 20,000 + `1`, `1+1+...`): each is one level of
# the tree that ast builds. No hand-written expression comes near.
MAX_CHAIN = 1000
# ast keeps about 1 KB a node: a file of more tokens than this is generated data, not a prompt.
MAX_TOKENS = 100_000
# CPython 3.10 builds the Python tree of a deep expression by unchecked C recursion.
AST_GUARDS_ITSELF = sys.version_info >= (3, 11)

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


def refusal(text: str) -> str | None:
    """Why the token pass refuses the text, or None."""
    try:
        string_tokens(text)
    except Refused as exc:
        return str(exc)
    return None


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


def may_hold_too_many_tokens(text: str) -> bool:
    """False when the text is sure to hold at most MAX_TOKENS tokens: every token but the line
    ends, indents and dedents holds a character that is no white space (an f-string's middle
    part of blanks on 3.12+ stands before a brace or a quote), and each line has at most one
    line end, one indent and one dedent."""
    if 2 * len(text) + 8 <= MAX_TOKENS:
        return False  # at most one token a character, and a dedent for each indent
    blank = text.count(" ") + text.count("\t") + text.count("\f")
    ends = text.count("\n") + text.count("\r")
    bound = len(text) - blank - ends + 3 * (ends + 1) + 3
    if _FSTRING_START >= 0:
        bound += text.count("{") + text.count("}") + text.count('"') + text.count("'")
    return bound > MAX_TOKENS


# What a chain counts, as characters: every operator and opening bracket holds one of these,
# and each word of _CHAIN_WORDS is one word.
_NOT_OPERATOR = lazy.compile(r"[^-+*/%@&|^~<>=!.:(\[{]+")
_CHAIN_WORD = lazy.compile(r"(?:" + "|".join(sorted(_CHAIN_WORDS)) + r")\b")  # `sand` too: a bound
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def chains_are_short(tree: ast.Module, lines: list[str]) -> bool:
    """True when no logical line of the parsed file chains more than MAX_CHAIN operators; False
    when one might (the token pass then decides). A chain never passes a `;` or a line end, so it
    lies in one simple statement, with the header of a compound statement when it shares the
    line (`if x: y = -1`), or in a header. A logical line has at most as many operators as
    characters, or as operator characters where it is long; where even those are many (a long
    prompt full of markdown), the tokens of a simple statement that starts a line are counted."""
    ends = list(accumulate(map(len, lines)))  # the characters up to each line's end, line feeds not
    if not ends or ends[-1] + len(ends) <= MAX_CHAIN:
        return True
    stack: list[tuple[list[ast.stmt], int]] = [(tree.body, 1)]
    while stack:
        statements, uncovered = stack.pop()  # `uncovered`: the first line no statement holds yet
        for statement in statements:
            first, last = _first_line(statement), statement.end_lineno or statement.lineno
            uncovered = min(uncovered, first)  # statements after a `;` share the line
            if _characters(ends, uncovered, last) <= MAX_CHAIN:
                uncovered = last + 1
                continue  # short with the lines before it
            fresh = _starts_chain(statement, lines)
            if fresh and not _few_operators(lines, ends, uncovered, first - 1):
                return False  # the lines before it: comments, and the headers of clauses
            start = first if fresh else uncovered  # else the header it follows is in its chain
            uncovered = last + 1
            if _characters(ends, start, last) <= MAX_CHAIN:
                continue
            inner = [s for block in _BLOCKS for s in _statements(statement, block)]
            if inner:
                stack.append((inner, start))
                continue
            if _few_operators(lines, ends, start, last):
                continue
            if not fresh or not _counted_chains_short(statement, lines):
                return False
    return True


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    return decorators[0].lineno if decorators else statement.lineno


def _starts_chain(statement: ast.stmt, lines: list[str]) -> bool:
    """Whether an operator chain starts afresh at the statement: it opens a logical line (only
    white space before it, no backslash ending the line above) or follows a `;`."""
    line = lines[statement.lineno - 1]
    before = line.encode("utf-8")[: statement.col_offset].strip()
    if before:
        return before.endswith(b";")
    return statement.lineno == 1 or not lines[statement.lineno - 2].endswith("\\")


def _characters(ends: list[int], first: int, last: int) -> int:
    """The characters of lines first to last (1-based), their line feeds included."""
    if last < first:
        return 0
    return ends[last - 1] - (ends[first - 2] if first > 1 else 0) + last - first + 1


def _few_operators(lines: list[str], ends: list[int], first: int, last: int) -> bool:
    if _characters(ends, first, last) <= MAX_CHAIN:
        return True
    text = "\n".join(lines[first - 1 : last])
    return len(_NOT_OPERATOR.sub("", text)) + len(_CHAIN_WORD.findall(text)) <= MAX_CHAIN


def _counted_chains_short(statement: ast.stmt, lines: list[str]) -> bool:
    """The token pass over the statement's own source alone (in brackets: one level deeper, with
    the same chains)."""
    first, last = lines[statement.lineno - 1], lines[(statement.end_lineno or statement.lineno) - 1]
    start, end = _column(first, statement.col_offset), _column(last, statement.end_col_offset or 0)
    if statement.lineno == statement.end_lineno:
        source = first[start:end]
    else:
        middle = lines[statement.lineno : (statement.end_lineno or statement.lineno) - 1]
        source = "\n".join([first[start:], *middle, last[:end]])
    try:
        return string_tokens("(" + source + ")") is not None
    except Refused:
        return False


def _column(line: str, byte_offset: int) -> int:
    """ast's UTF-8 byte offset on a line as a character offset."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore"))


def _statements(node: ast.stmt, block: str) -> list[ast.stmt]:
    """The statements of one block of a compound statement, in order (those of each `except` or
    `case` clause for handlers and cases)."""
    found = getattr(node, block, None)
    if not isinstance(found, list):
        return []
    if block in ("handlers", "cases"):
        return [s for clause in found for s in clause.body]
    return found
