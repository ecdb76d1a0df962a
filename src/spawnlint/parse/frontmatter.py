"""YAML frontmatter of agents, commands and skills: strict reading, a lenient line-based
fallback (Claude Code loads agents whose frontmatter is not valid YAML), and the
`tools`/`disallowedTools` grammar."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from spawnlint import lazy
from spawnlint.model import ToolList

_KEY_LINE = lazy.compile(r"^([A-Za-z_][\w-]*)\s*:(.*)$")
_MAX_FRONTMATTER_CHARS = 256 * 1024


@dataclass(frozen=True)
class Frontmatter:
    data: dict[str, Any]  # strict YAML when it loaded, else the lenient reading
    key_lines: dict[str, int]  # top-level key -> 1-based file line
    errors: tuple[tuple[int, str], ...]  # (file line, what is wrong)
    closed: bool = True  # False: no closing `---`, so where the body starts is a guess


def split_frontmatter(lines: list[str]) -> tuple[Frontmatter | None, int]:
    """Find and read the frontmatter. Returns it and the index of the first body line."""
    if not lines or lines[0].rstrip() != "---":
        return None, 0
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    errors: list[tuple[int, str]] = []
    if close is None:
        errors.append((1, "frontmatter has no closing `---`"))
        block = _unclosed_block(lines)
        body_start = 1 + len(block)
    else:
        block = lines[1:close]
        body_start = close + 1
    key_lines = _key_lines(block)
    data = _strict(block, errors) if close is not None else None
    if data is None:
        data = _lenient(block)
    return (
        Frontmatter(data, key_lines, tuple(errors), closed=close is not None),
        body_start,
    )


def _unclosed_block(lines: list[str]) -> list[str]:
    """Without a closing `---`, read the leading run of YAML-looking lines."""
    block: list[str] = []
    for line in lines[1:]:
        if not line.strip() or not (_KEY_LINE.match(line) or line[:1] in (" ", "\t", "-")):
            break
        block.append(line)
    return block


def _key_lines(block: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for offset, line in enumerate(block):
        m = _KEY_LINE.match(line)
        if m and m.group(1) not in found:
            found[m.group(1)] = offset + 2  # +1 for the opening `---`, +1 for 1-based
    return found


def _strict(block: list[str], errors: list[tuple[int, str]]) -> dict[str, Any] | None:
    simple = _plain_mapping(block)
    if simple is not None:
        return simple
    text = "\n".join(block)
    if len(text) > _MAX_FRONTMATTER_CHARS:
        errors.append((1, "frontmatter is too large to read as YAML"))
        return None
    import yaml  # ~13 ms, only for a frontmatter `_plain_mapping` cannot read

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # C, when PyYAML was built with libyaml
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        errors.append((line, f"frontmatter is not valid YAML ({problem})"))
        return None
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        errors.append((1, f"frontmatter is not valid YAML ({type(exc).__name__})"))
        return None
    if data is None:
        return {}
    if not isinstance(data, dict):
        errors.append((2, "frontmatter is not a mapping of keys to values"))
        return None
    return {str(k): v for k, v in data.items()}


# `key: value` where the value is a plain YAML scalar that can only be a string: it starts with a
# letter and holds nothing YAML reads specially (`: `, ` #`, a colon at the end, tabs); or a
# quoted string without escapes; or `[words]`; or nothing (a list or a `|` text may follow).
_PLAIN = r"[A-Za-z0-9$(/<](?:(?!: | #)[^\t:])*(?::(?! |$)(?:(?!: | #)[^\t:])*)*"
# A plain value that starts with a digit is a string only as a version (`1.0.0`) or with a space
# and no date before it (`2 minutes`); `12` is an int; anything else (floats, dates, octals,
# `1:20`) PyYAML reads.
_VERSION = lazy.compile(r"[0-9]+(?:\.[0-9]+){2,}")
_DIGITS_AND_WORDS = lazy.compile(r"(?![0-9]{4}-)[0-9][^ ]* .*")
_INT = lazy.compile(r"0|[1-9][0-9]*")
_WORD = r"[A-Za-z][A-Za-z0-9_-]*"
_ENTRY = lazy.compile(
    rf"(?P<key>[A-Za-z_][A-Za-z0-9_-]*):(?: +(?:(?P<plain>{_PLAIN})|\"(?P<double>[^\"\\]*)\""
    r"|'(?P<single>(?:[^']|'')*)'"
    rf"|\[(?P<flow> *(?:{_WORD} *(?:, *{_WORD} *)*)?)\]"
    r"|(?P<literal>\|)))?"
)
_ITEM = lazy.compile(rf"(?P<indent> *)- (?P<plain>{_PLAIN})")
# Characters PyYAML rejects, or reads as line breaks.
_NOT_PLAIN = lazy.compile("[^\x0a\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")
# Plain words YAML 1.1 reads as booleans or null, as a key or as a value.
_RESOLVED_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})


def _plain_mapping(block: list[str]) -> dict[str, Any] | None:
    """The mapping PyYAML would load from a block of `key: text` entries (text plain, quoted
    without escapes, a `|` literal, or a list of plain words), read without it; None when the
    block holds anything else (then PyYAML reads it)."""
    if any(_NOT_PLAIN.search(line) for line in block):
        return None
    data: dict[str, Any] = {}
    i = 0
    while i < len(block):
        if not block[i]:
            i += 1
            continue
        m = _ENTRY.fullmatch(block[i].rstrip(" "))  # trailing spaces: none in the pattern
        if m is None or m.group("key").lower() in _RESOLVED_WORDS:
            return None
        value: Any = m.group("plain")
        i += 1
        if value is not None:
            value = _plain_value(value.rstrip(" "))
            if value is None:
                return None
        elif m.group("double") is not None:
            value = m.group("double")
        elif m.group("single") is not None:
            value = m.group("single").replace("''", "'")
        elif m.group("flow") is not None:  # `[path]`, `[a, b]`: words only
            value = [word.strip() for word in m.group("flow").split(",")] if m.group("flow").strip() else []
            if any(word.lower() in _RESOLVED_WORDS for word in value):
                return None
        else:
            end = _nested_end(block, i)
            read = _literal(block[i:end], end < len(block)) if m.group("literal") else _items(block[i:end])
            if read is None:
                return None
            value, i = read, end
        data[m.group("key")] = value
    return data


def _plain_value(text: str) -> str | int | None:
    """What PyYAML makes of a plain value, when that is sure: a string or an int; else None."""
    if text.lower() in _RESOLVED_WORDS or text == "<<":
        return None
    if not text[0].isdigit() or _VERSION.fullmatch(text) or _DIGITS_AND_WORDS.fullmatch(text):
        return text
    return int(text) if _INT.fullmatch(text) else None


def _nested_end(block: list[str], i: int) -> int:
    """Where the lines that belong to the entry before line i end: at the next key."""
    while i < len(block) and not _ENTRY.match(block[i]):
        i += 1
    return i


def _literal(lines: list[str], more: bool) -> str | None:
    """A `|` block (clip chomping): the lines less their indentation, and one final newline
    unless its last line ends the frontmatter (`more`: another key follows)."""
    if not lines or not lines[0].startswith(" ") or not lines[0].strip(" "):
        return None  # an empty text or one that starts with a blank line: PyYAML decides
    indent = len(lines[0]) - len(lines[0].lstrip(" "))
    text = []
    for line in lines:
        if line.strip(" ") and not line.startswith(" " * indent):
            return None
        text.append(line[indent:])
    ended = bool(text[-1])  # the text's last line is the frontmatter's: no line break after it
    while text and not text[-1]:
        text.pop()
    return "\n".join(text) + ("" if ended and not more else "\n")


def _items(lines: list[str]) -> list[str] | None:
    """A block list of plain words, one `- item` a line at one indentation (none: no value)."""
    items: list[str] = []
    indent = None
    for line in lines:
        if not line:
            continue
        m = _ITEM.fullmatch(line.rstrip(" "))
        if m is None or (indent is not None and m.group("indent") != indent):
            return None
        indent = m.group("indent")
        value = _plain_value(m.group("plain").rstrip(" "))
        if not isinstance(value, str):
            return None
        items.append(value)
    return items or None


def _lenient(block: list[str]) -> dict[str, Any]:
    """Line-based reading: top-level `key: value` lines and block lists under them."""
    data: dict[str, Any] = {}
    current: str | None = None
    for line in block:
        m = _KEY_LINE.match(line)
        if m:
            current = m.group(1)
            value = m.group(2).strip()
            data.setdefault(current, _unquote(value) if value else None)
            continue
        item = re.match(r"^\s+-\s+(.*)$", line) or re.match(r"^-\s+(.*)$", line)
        if item and current is not None and data.get(current) in (None, []):
            data[current] = []
        if item and current is not None and isinstance(data.get(current), list):
            data[current].append(_unquote(item.group(1).strip()))
    return data


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def parse_tool_list(value: Any, line: int) -> tuple[ToolList | None, str | None]:
    """Read a `tools`-style value. Returns (tools, problem); tools None means the key says
    nothing (null), so the agent inherits every tool."""
    if value is None:
        return None, None
    if isinstance(value, str):
        entries = _split_tool_string(value)
    elif isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            return None, "is not a flat list of tool names"
        entries = [e for v in value for e in _split_tool_string(v)]
    else:
        return None, f"is a {type(value).__name__}, not a string or a list of tool names"
    entries = [_unquote(e.strip()) for e in entries if e.strip()]
    names = {e.split("(", 1)[0].strip() for e in entries}
    if "*" in names:
        return ToolList(None, tuple(entries), line), None
    return ToolList(frozenset(names), tuple(entries), line), None


def _split_tool_string(text: str) -> list[str]:
    """Split `Read, Grep`, `Read Grep` or `[Read, Bash(git add:*)]` at top-level separators."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    has_comma = _top_level_index(text, ",") >= 0
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth == 0 and (ch == "," or (not has_comma and ch.isspace())):
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def _top_level_index(text: str, sep: str) -> int:
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == sep and depth == 0:
            return i
    return -1
