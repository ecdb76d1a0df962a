"""The syntax of spawn parameters, shared by the structured forms: `key=value`, `key: value` and
`"key": value` lists, value classification (literal, placeholder, dynamic), the bracket scan
that finds where a call or object closes (bounded per character of text), and parameters placed
at their lines."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

from spawnlint import lazy
from spawnlint.model import Param, ValueKind
from spawnlint.parse.text import LineIndex

# A parameter written as an attribute of a tag, `<Task agent="x" name="c1">`: its key, then its value
# in quotes (F1 reads it, removal deletes it)
TAG_ATTRIBUTE = r"(?P<key>[A-Za-z_][\w-]*)\s*=\s*(?P<value>\"[^\"\n]*\"|'[^'\n]*')"

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
_MAX_SCAN = 40_000  # a call or object longer than this is not a spawn we can read
MAX_LOOK_BACK = 4_000  # how far before a `subagent_type` key its object may open
# Each unclosed `Agent(` scans up to _MAX_SCAN characters: a file of them (a 60 KB line took
# 20 s) would hang a hook. Scanning is capped at this many characters per character of text.
_SCAN_PER_CHAR = 8


class TooComplex(ValueError):
    """The text would take too long to search for calls and objects; it is not checked."""


@dataclass
class Budget:
    left: int

    def spend(self, scanned: int) -> None:
        self.left -= scanned
        if self.left < 0:
            raise TooComplex(
                "file has too many unclosed `Agent(`/`Task(` calls or `subagent_type` objects to search"
                " in reasonable time; not checked"
            )


def budget(text: str) -> Budget:
    return Budget(_SCAN_PER_CHAR * len(text) + _MAX_SCAN + MAX_LOOK_BACK)


_KEY = lazy.compile(r"""\s*(["']?)([A-Za-z_]\w*)\1\s*(:(?!:)|=(?!=))[ \t]*""")
_INDENT = lazy.compile(r"[ \t]*")
_NAME_LIKE = lazy.compile(r"^[a-z][a-z0-9-]*$")
_PLACEHOLDER = lazy.compile(
    r"\{[^{}\n]*\}|<[A-Za-z][^<>\n]*>|\[[^\]\n]+\]|\$\{?[A-Za-z_]|\.\.\.|…|^[A-Z][A-Z0-9_]{2,}$"
)
_DOTTED = lazy.compile(r"^[A-Za-z_][\w]*(?:\s*(?:\.|\[|\()\s*[^\s]*)+$")
_IDENT = lazy.compile(r"^[A-Za-z_]\w*$")
ELISIONS = frozenset({"...", "…"})
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
        if stripped in ELISIONS:
            continue  # `Task(name="auditor", ...)`: the other arguments left out, not a value
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


def scan_close(text: str, open_at: int) -> tuple[int, int]:
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


def span_test(spans: list[tuple[int, int]]) -> Callable[[int], bool]:
    """A test for "offset lies in one of the spans" in log time (a file of thousands of calls
    made the linear test quadratic)."""
    ordered = sorted(spans)
    starts = [a for a, _ in ordered]
    reach = list(accumulate((b for _, b in ordered), max))  # furthest end among spans so far

    def inside(offset: int) -> bool:
        i = bisect_right(starts, offset) - 1
        return i >= 0 and reach[i] > offset

    return inside


def params_at(raw: tuple[RawParam, ...], index: LineIndex) -> tuple[Param, ...]:
    """The parameters read from a text, at their places in the file (0-based lines)."""
    out = []
    for p in raw:
        line, column = index.position(p.offset)
        value_line, value_column = index.position(p.value_offset)
        out.append(Param(p.key, p.value, p.kind, line, column, value_line, value_column))
    return tuple(out)


def param_at(key: str, raw: str, index: LineIndex, offset: int) -> Param:
    """A parameter named in prose, as written, at its offset in the sentence."""
    value, kind = classify(raw)
    line, column = index.position(offset)
    return Param(key, value, as_written(kind), line, column, line, column)
