"""The syntax of spawn parameters, shared by every recogniser: `key=value`, `key: value` and
`"key": value` lists, value classification (literal, placeholder, dynamic), and the search
for `Agent(...)`/`Task(...)` calls and `{"subagent_type": ...}` objects in a piece of text."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

from spawnlint.model import ValueKind

PARAM_KEYS = frozenset(
    {
        "subagent_type",
        "name",
        "team_name",
        "prompt",
        "description",
        "model",
        "run_in_background",
        "isolation",
        "mode",
    }
)
# An F2 header line: `Task:`, `- **Agent tool:**`, `Use the Task tool (x):`, `Subagent:`.
BLOCK_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(?:use\s+(?:the\s+)?)?"
    r"(?:(?P<tool>Task|Agent)(?:\s+tool)?(?:\s+(?:invocation|call|parameters|params))?"
    r"|Subagent)(?:\s*\((?P<type>[^)]*)\))?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)


# An F4 parameter bullet: `- prompt: x`, `` - `name`: x ``, `1. **description** is y` (the key is
# the item's first word); or `` - `subagent_type: x` ``, also behind a short label
# (`` - Native path: `subagent_type: x` ``).
PARAM_ITEM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:`|\*\*|__)?(?P<key>[a-z_]+)(?:`|\*\*|__)?"
    r"(?:\s*(?:[:=—–]|-\s|\bis\b|\bset to\b|\bas\b))?\s*(?P<value>.*)$"
)
PARAM_ITEM_INLINE = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[\w*][\w *-]{0,30}:\s+)?`(?P<key>[a-z_]+)\s*[:=]\s*(?P<value>[^`]*)`"
)


def block_header(line: str) -> bool:
    """Whether the line is an F2 header (`Task:`, `**Agent tool:**`, `Subagent (x):`)."""
    return BLOCK_HEADER.match(line) is not None


_MAX_SCAN = 40_000  # a call or object longer than this is not a spawn we can read
_MAX_LOOK_BACK = 4_000  # how far before a `subagent_type` key its object may open
# Each unclosed `Agent(` scans up to _MAX_SCAN characters: a file of them (a 60 KB line took
# 20 s) would hang a hook. Scanning is capped at this many characters per character of text.
_SCAN_PER_CHAR = 8


class TooComplex(ValueError):
    """The text would take too long to search for calls and objects; it is not checked."""


@dataclass
class _Budget:
    left: int

    def spend(self, scanned: int) -> None:
        self.left -= scanned
        if self.left < 0:
            raise TooComplex(
                "file has too many unclosed `Agent(`/`Task(` calls or `subagent_type` objects to search"
                " in reasonable time; not checked"
            )


def _budget(text: str) -> _Budget:
    return _Budget(_SCAN_PER_CHAR * len(text) + _MAX_SCAN + _MAX_LOOK_BACK)


_CALL = re.compile(r"(?<![\w.$])(?<!new )(?<!def )(?<!class )(?<!function )(Agent|Task)\s*\(")
_OBJECT_KEY = re.compile(r"""(?<![\w$])(["']?)subagent_type\1\s*:""")
_KEY = re.compile(r"""\s*(["']?)([A-Za-z_]\w*)\1\s*(:(?!:)|=(?!=))[ \t]*""")
_INDENT = re.compile(r"[ \t]*")
_NAME_LIKE = re.compile(r"^[a-z][a-z0-9-]*$")
_PLACEHOLDER = re.compile(
    r"\{[^{}\n]*\}|<[A-Za-z][^<>\n]*>|\[[^\]\n]+\]|\$\{?[A-Za-z_]|\.\.\.|…|^[A-Z][A-Z0-9_]{2,}$"
)
_DOTTED = re.compile(r"^[A-Za-z_][\w]*(?:\s*(?:\.|\[|\()\s*[^\s]*)+$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")
_NULLS = frozenset({"none", "null", "undefined", "nil", "~", ""})


@dataclass(frozen=True)
class RawParam:
    key: str
    value: str
    kind: ValueKind
    offset: int  # offset of the key in the scanned text
    value_offset: int


@dataclass(frozen=True)
class Match:
    start: int  # offset of the call / object / block start
    end: int
    tool: str | None
    params: tuple[RawParam, ...]


_LF = re.compile("\n")


class LineIndex:
    """Offsets in a text to 1-based (line, column), shifted by the text's first line."""

    def __init__(self, text: str, first_line: int = 1, first_column: int = 1) -> None:
        self._starts = [0] + [m.end() for m in _LF.finditer(text)]
        self._first_line = first_line
        self._first_column = first_column

    def position(self, offset: int) -> tuple[int, int]:
        row = bisect_right(self._starts, offset) - 1
        column = offset - self._starts[row] + 1
        if row == 0:
            column += self._first_column - 1
        return self._first_line + row, column


_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as git, editors and libcst count them: only CR, LF and CRLF end a line (not the form
    feeds and Unicode separators that str.splitlines() also splits on)."""
    lines = text.split("\n") if "\r" not in text else _NEWLINE.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def classify(raw: str) -> tuple[str, ValueKind]:
    """Classify a value as written: `"x"` literal, `{area}-x` placeholder, `task.type` dynamic."""
    text = raw.strip().rstrip(",;").strip()
    quoted = _unquote(text)
    if quoted is not None:
        value, is_fstring = quoted
        if is_fstring and "{" in value:
            return value, ValueKind.DYNAMIC
        if text.startswith("`") and "${" in value:
            return value, ValueKind.PLACEHOLDER
        if _PLACEHOLDER.search(value):
            return value, ValueKind.PLACEHOLDER
        return value, ValueKind.LITERAL
    if _PLACEHOLDER.search(text) or re.search(r"\s", text):
        return text, ValueKind.PLACEHOLDER  # unquoted words describe a value: "the selected role"
    if text.lower() in _NULLS:
        return "", ValueKind.LITERAL
    if _IDENT.match(text):
        return text, ValueKind.BARE
    if _DOTTED.match(text):
        return text, ValueKind.DYNAMIC
    return text, ValueKind.LITERAL


def _unquote(text: str) -> tuple[str, bool] | None:
    is_f = False
    if text[:1] and text[:1] in "fFrRbB" and text[1:2] and text[1:2] in "\"'":
        is_f = text[0] in "fF"
        text = text[1:]
    for quote in ('"""', "'''", '"', "'", "`"):
        if len(text) >= 2 * len(quote) and text.startswith(quote) and text.endswith(quote):
            return text[len(quote) : -len(quote)], is_f
    return None


def as_written(kind: ValueKind) -> ValueKind:
    """Markdown and YAML hold no variables: an unquoted word there is the value as written."""
    return ValueKind.LITERAL if kind is ValueKind.BARE else kind


def is_absent(value: str) -> bool:
    return value.strip().lower() in _NULLS


def split_params(text: str, base: int = 0) -> list[RawParam]:
    """Read `k=v, k: v, "k": v` pairs at the top level of `text` (call arguments, an object's
    inside or a block's lines). Lines that carry no key continue the previous value, and lines
    indented under a block scalar (`prompt: |`) belong to it."""
    params: list[RawParam] = []
    pending: list[tuple[str, int, int, list[str]]] = []  # key, key offset, key indent, value parts
    value_at: dict[int, int] = {}  # key offset -> value offset
    yaml_like: set[int] = set()  # key offsets written `key: value`
    for start, segment in _segments(text):
        stripped = segment.strip()
        if not stripped:
            if pending:
                pending[-1][3].append("")
            continue
        indent = _indent_at(text, start)
        if pending and _continues(pending[-1], indent, segment):
            pending[-1][3].append(segment)
            continue
        m = _KEY.match(segment)
        if m is None:
            if pending:
                pending[-1][3].append(segment)
            continue
        pending.append((m.group(2), base + start + m.start(2), indent, [segment[m.end() :]]))
        value_at[base + start + m.start(2)] = base + start + m.end()
        if m.group(3) == ":":
            yaml_like.add(base + start + m.start(2))
    for key, offset, _indent, parts in pending:
        raw = "\n".join(parts).strip()
        value, kind = classify(raw)
        if kind is ValueKind.BARE and offset in yaml_like and _NAME_LIKE.match(value):
            kind = ValueKind.LITERAL  # `subagent_type: reviewer` in YAML-like text is a name
        params.append(RawParam(key, value, kind, offset, value_at[offset]))
    return params


def _continues(previous: tuple[str, int, int, list[str]], indent: int, segment: str) -> bool:
    first = previous[3][0].strip()
    block_scalar = first in ("|", ">", "|-", ">-", "|+", ">+") or not first
    return block_scalar and indent > previous[2] and "\n" not in segment[:1]


def _indent_at(text: str, offset: int) -> int:
    line_start = text.rfind("\n", 0, offset) + 1
    if text[line_start:offset].strip():
        return 10_000  # the segment starts mid-line (after a comma): not an indented line
    m = _INDENT.match(text, line_start)
    return m.end() - line_start if m else 0


def _segments(text: str) -> list[tuple[int, str]]:
    """Split at top-level commas and newlines, skipping strings, brackets and comments."""
    out: list[tuple[int, str]] = []
    depth = 0
    i = 0
    seg_start = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'`" and _opens_string(text, i, seg_start):
            i = _skip_string(text, i)
            continue
        if ch in "#/" and _opens_comment(text, i):
            end = text.find("\n", i)
            out.append((seg_start, text[seg_start:i]))
            i = n if end < 0 else end
            seg_start = i
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in ",\n":
            out.append((seg_start, text[seg_start:i]))
            seg_start = i + 1
        i += 1
    out.append((seg_start, text[seg_start:]))
    return out


def _opens_string(text: str, i: int, seg_start: int) -> bool:
    before = text[seg_start:i].rstrip(" \t")
    if not before:
        return True
    return before[-1] in ":=([{,+" or (
        before[-1] in "fFrRbB" and (len(before) == 1 or before[-2] in " \t:=([{,+")
    )


def _opens_comment(text: str, i: int) -> bool:
    if text[i] == "/" and text[i + 1 : i + 2] != "/":
        return False
    return i == 0 or text[i - 1] in " \t\n"


def _skip_string(text: str, i: int) -> int:
    """Return the offset just past the string starting at i (or the line end if unterminated
    single-line string, so a stray apostrophe cannot swallow the rest of the text)."""
    for quote in ('"""', "'''", "```"):
        if text.startswith(quote, i):
            end = text.find(quote, i + 3)
            return len(text) if end < 0 else end + 3
    quote = text[i]
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == quote:
            return j + 1
        if ch == "\n" and quote != "`":
            return i + 1
        j += 1
    return i + 1


def _scan_close(text: str, open_at: int) -> tuple[int, int]:
    """(offset of the closing bracket or -1, how many characters were scanned)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[open_at]]]
    i = open_at + 1
    limit = min(len(text), open_at + _MAX_SCAN)
    seg_start = i
    while i < limit:
        ch = text[i]
        if ch in "\"'`" and _opens_string(text, i, seg_start):
            i = _skip_string(text, i)
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}":
            if ch != stack[-1]:
                return -1, i - open_at
            stack.pop()
            if not stack:
                return i, i - open_at
        if ch in ",\n([{":
            seg_start = i + 1
        i += 1
    return -1, i - open_at


def is_spawn_params(params: list[RawParam] | tuple[RawParam, ...]) -> bool:
    keys = {p.key for p in params}
    return "subagent_type" in keys or "prompt" in keys


def find_calls(text: str) -> list[Match]:
    """`Agent(...)` / `Task(...)` calls whose arguments make them a spawn."""
    found: list[Match] = []
    budget = _budget(text)
    for m in _CALL.finditer(text):
        if found and m.start() < found[-1].end:
            continue
        open_at = m.end() - 1
        close, scanned = _scan_close(text, open_at)
        budget.spend(scanned)
        if close < 0:
            continue
        inner_start, inner = open_at + 1, text[open_at + 1 : close]
        stripped = inner.strip()
        if stripped.startswith("{") and stripped.endswith("}"):
            brace = text.index("{", inner_start)
            inner_start, inner = brace + 1, text[brace + 1 : close].rstrip()[:-1]
        params = split_params(inner, inner_start)
        if is_spawn_params(params):
            found.append(Match(m.start(), close + 1, m.group(1), tuple(params)))
            continue
        positional = _positional_spawn(text, inner_start, inner, close)
        if positional is not None:
            found.append(Match(m.start(), close + 1, m.group(1), (positional,)))
    return found


_POSITIONAL_ID = re.compile(r"\s*([A-Za-z][\w.-]*(?::{1,2}[\w.-]+)+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*$")
# the prompt after a gap or a separator: `Task(x)",` is a quoted permission pattern ending
_PROMPT_AFTER = re.compile(r"(?:[ \t]*(?:-|—|–|:|=>|->)[ \t]*|[ \t]+)[\"“]")


def _positional_spawn(text: str, inner_start: int, inner: str, close: int) -> RawParam | None:
    """`Task(vibe-audit:scanner) - "Scan the repo"`: an agent id as the only argument, then the
    prompt. `Agent(worker)` in a tools list, or `"Task(test-runner)"` in a settings file's
    permission list, has no prompt after it and is not a spawn."""
    m = _POSITIONAL_ID.match(inner)
    if m is None or not _PROMPT_AFTER.match(text, close + 1):
        return None
    offset = inner_start + m.start(1)
    return RawParam("subagent_type", m.group(1), ValueKind.LITERAL, offset, offset)


def find_objects(text: str, covered: list[tuple[int, int]]) -> list[Match]:
    """Objects (JSON, JS, Python dicts) with a `subagent_type` key, outside `covered`."""
    found: list[Match] = []
    budget = _budget(text)
    inside = _span_test(covered)
    for m in _OBJECT_KEY.finditer(text):
        if inside(m.start()) or (found and m.start() < found[-1].end):
            continue
        open_at = _enclosing_brace(text, m.start())
        budget.spend(m.start() - open_at if open_at >= 0 else min(m.start(), _MAX_LOOK_BACK))
        if open_at < 0:
            continue
        close, scanned = _scan_close(text, open_at)
        budget.spend(scanned)
        if close < m.start():
            continue
        params = split_params(text[open_at + 1 : close], open_at + 1)
        found.append(Match(open_at, close + 1, _tool_of_enclosing(text, open_at), tuple(params)))
    return found


def _enclosing_brace(text: str, offset: int) -> int:
    depth = 0
    for i in range(offset - 1, max(-1, offset - _MAX_LOOK_BACK), -1):
        ch = text[i]
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                return i
            depth -= 1
    return -1


def _tool_of_enclosing(text: str, open_at: int) -> str | None:
    """For a tool-use block `{"name": "Agent", "input": {...}}`, the outer tool name."""
    before = text[max(0, open_at - 400) : open_at]
    m = re.search(r"""["']name["']\s*:\s*["'](Agent|Task)["'][^{}]*["']input["']\s*:\s*$""", before)
    return m.group(1) if m else None


def _span_test(spans: list[tuple[int, int]]) -> Callable[[int], bool]:
    """A test for "offset lies in one of the spans" in log time (a file of thousands of calls
    made the linear test quadratic)."""
    ordered = sorted(spans)
    starts = [a for a, _ in ordered]
    reach = list(accumulate((b for _, b in ordered), max))  # furthest end among spans so far

    def inside(offset: int) -> bool:
        i = bisect_right(starts, offset) - 1
        return i >= 0 and reach[i] > offset

    return inside
