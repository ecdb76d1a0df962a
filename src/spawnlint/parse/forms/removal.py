"""Where a spawn's `name`/`team_name` parameter is written, as the edits that delete it and leave
the rest well-formed — computed from the file's lines, or nothing when the shape is not certain.
The pieces each form's removal is built from (a `key: value` and its commas, a bullet line, a
code span with its joining word, a prose "named x"), and `apply`, which gives a site its edits."""

from __future__ import annotations

import re
from dataclasses import replace

from spawnlint import lazy
from spawnlint.model import Edit, Param, SpawnSite
from spawnlint.parse.forms.spec import Removal
from spawnlint.parse.forms.syntax import PARAM_KEYS, TAG_ATTRIBUTE
from spawnlint.parse.grant import report_instruction
from spawnlint.parse.text import LIST_ITEM

_QUOTES = "\"'"
_BARE_VALUE = lazy.compile(r"(?:\{[^{}\s]*\}|[^\s,(){}\[\]\"'`\\])+")
_STRING_PREFIX = lazy.compile(r"[rRbBfFuU]{0,2}")
_SEPARATOR = lazy.compile(r"\s*[:=]\s*")
_LINE_LEAD = lazy.compile(r"\s*(?:[-*+]\s+|\d+[.)]\s+)?")
_LINE_TAIL = lazy.compile(r"\s*(,)?\s*(?:(?:#|//).*)?")
_AFTER_INLINE = lazy.compile(r"\s*(?:[,)}\]`]|$)")
_AFTER_SENTENCE = lazy.compile(r"\s*(?:[,)}\]`.;]|$)")  # F5 without code spans ends its sentence
_BULLET_KEY = lazy.compile(r"(?P<lead>\s*(?:[-*+]|\d+[.)])\s+)(?:`|\*\*|__)?(?P<key>[a-z_]+)")
_JOIN_BEFORE = lazy.compile(r"(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+|\s+or\s+)$")
_SERIAL_COMMA = lazy.compile(r",\s+(?:and|or)\s")
_JOIN_AFTER = lazy.compile(r"\s*,\s*|\s+and\s+")
_SPAN_KEY_VALUE = lazy.compile(r"`(?:name|team_name)`\s*(?:set\s+to|=|:|as|of|to)\s*`[^`\n]+`")
_PARAM_KEY = lazy.compile(r"\b(?:" + "|".join(sorted(PARAM_KEYS)) + r")\b")
_UNFINISHED = {"", "|", ">", "|-", ">-", "|+", ">+"}
_PROSE_NAMED = lazy.compile(r"[ \t]+(?:named|called)[ \t]+$", re.IGNORECASE)
_PROSE_MORE_NAMES = lazy.compile(r"\s*(?:,|\band\b|\bor\b|/|&)", re.IGNORECASE)


# `` `shop:critic` (name: "a") — ... ``: the parenthesis goes; `` `shop:critic`, name: 'a' — ``: the
# comma and the name go.
_BULLET_NAME_TEXT = lazy.compile(
    r"""[ \t]*(?:\(\s*name\s*[:=]\s*(["'])[^"'\n]+\1\s*\)|,\s*name\s*[:=]\s*(["'])[^"'\n]+\2)"""
)


def bullet_name(param: Param, path: str, lines: list[str]) -> tuple[Edit, ...]:
    if not 1 <= param.line <= len(lines):
        return ()
    line = lines[param.line - 1]
    for m in _BULLET_NAME_TEXT.finditer(line):
        if m.start() <= param.column - 1 < m.end():
            return (Edit(path, param.line, m.start() + 1, param.line, m.end() + 1, m.group(0)),)
    return ()


_TAG_ATTRIBUTE = lazy.compile(rf"[ \t]+{TAG_ATTRIBUTE}")


def tag_attribute(param: Param, path: str, lines: list[str]) -> tuple[Edit, ...]:
    """A parameter written as an attribute of a tag, `<Task agent="x" name="c1">`: the attribute
    goes with the white space before it."""
    if not 1 <= param.line <= len(lines):
        return ()
    line = lines[param.line - 1]
    for m in _TAG_ATTRIBUTE.finditer(line):
        if m.start(1) == param.column - 1 and m.group(1) == param.key:
            return (Edit(path, param.line, m.start() + 1, param.line, m.end() + 1, m.group(0)),)
    return ()


def prose_name(param: Param, path: str, lines: list[str]) -> tuple[Edit, ...]:
    """A prose spawn's one name, `Launch the critic agent named "c1" to ...`: the words
    ` named "c1"` go. Nothing for a list of names or any other wording."""
    if not 1 <= param.line <= len(lines):
        return ()
    line = lines[param.line - 1]
    start = param.column - 1
    if line[start : start + len(param.value)] != param.value:
        return ()
    quote = line[start - 1] if start > 0 and line[start - 1] in "`\"'" else ""
    end = start + len(param.value)
    if quote:
        if line[end : end + 1] != quote:
            return ()
        start, end = start - 1, end + 1
    lead = _PROSE_NAMED.search(line[:start])
    if lead is None or _PROSE_MORE_NAMES.match(line, end):
        return ()
    return (Edit(path, param.line, lead.start() + 1, param.line, end + 1, line[lead.start() : end]),)


def apply(site: SpawnSite, lines: list[str], remove: Removal | None, has_syntax: bool) -> SpawnSite:
    """The site with each of its `name`/`team_name` params carrying the edits (from its form's
    `remove`) that delete it, and, where its parameters have a syntax and it is named, the edit
    that tells it in its prompt to report with SendMessage."""
    site = _removals(site, lines, remove, has_syntax)
    if site.name is None or not has_syntax:
        return site
    line, column = site.prompt_at if site.prompt_at[0] else (site.line, site.column)
    return replace(site, report_instruction=report_instruction(site.path, lines, line, column))


def _removals(site: SpawnSite, lines: list[str], remove: Removal | None, has_syntax: bool) -> SpawnSite:
    if remove is None:
        return site
    if not has_syntax:  # prose: its one name, nothing else
        if site.name is None:
            return site
        return replace(site, name=replace(site.name, removal=_guarded(remove, site.name, site.path, lines)))
    params = [p for p in (site.name, site.team_name) if p is not None]
    edits = {p.key: _guarded(remove, p, site.path, lines) for p in params}
    gone = frozenset(e.line for found in edits.values() for e in found if _is_line(e))
    if gone:  # both lines go: a dangling comma is looked for past the other one
        edits = {p.key: _guarded(remove, p, site.path, lines, gone - {p.line}) for p in params}
    if "team_name" in edits and _collide(edits.get("name", ()), edits["team_name"]):
        edits["team_name"] = ()  # the name goes; an ignored team_name may stay
    return replace(
        site,
        name=replace(site.name, removal=edits["name"]) if site.name else None,
        team_name=replace(site.team_name, removal=edits["team_name"]) if site.team_name else None,
    )


def _guarded(
    remove: Removal, param: Param, path: str, lines: list[str], gone: frozenset[int] = frozenset()
) -> tuple[Edit, ...]:
    try:
        return remove(param, path, lines, gone)
    except IndexError:
        return ()


def _is_line(edit: Edit) -> bool:
    return edit.column == 1 and edit.end_column == 1 and edit.end_line == edit.line + 1


def _collide(first: tuple[Edit, ...], second: tuple[Edit, ...]) -> bool:
    return any(
        (a.line, a.column) < (b.end_line, b.end_column) and (b.line, b.column) < (a.end_line, a.end_column)
        for a in first
        for b in second
    )


def on_its_line(param: Param, lines: list[str]) -> bool:
    """Whether the param's value is written on its key's line, in the file: the only shape whose
    removal is certain."""
    return 1 <= param.line <= len(lines) and param.value_position[0] == param.line


def written(
    param: Param, path: str, lines: list[str], gone: frozenset[int] = frozenset()
) -> tuple[Edit, ...]:
    """A `key: value` / `key=value` / `"key": value` parameter of a call, block or object: its
    line goes when it is alone there, else the parameter with one of its commas."""
    if not on_its_line(param, lines):
        return ()  # a value on another line than its key: no shape we can be sure of
    return key_value(param, path, lines, gone)


def key_value(
    param: Param,
    path: str,
    lines: list[str],
    gone: frozenset[int],
    code_span: str | None = None,
    alone: bool = True,
    joiners: bool = False,
) -> tuple[Edit, ...]:
    """The edits that delete the param written as key, separator and value on one line; `gone`
    holds 1-based lines deleted along with it. Where the key opens a code span, `code_span` says
    how it may end: "closed" (with the value), "open" (one of several in the span), or None
    (backticks are not read). Without `alone`, a parameter is never removed with its line or
    commas (a bullet with more on it); `joiners` lets "and"/"or" go with it (a sentence)."""
    text = lines[param.line - 1]
    key = _key_token(text, param.column - 1, param.key)
    if key is None:
        return ()
    start, end = key
    sep = _SEPARATOR.match(text, end)
    if sep is None or sep.end() != param.value_position[1] - 1:
        return ()
    value_end = _value_end(text, sep.end())
    if value_end is None:
        return ()
    if code_span is not None and text[start - 1 : start] == "`":
        if code_span == "closed" and text[value_end : value_end + 1] != "`":
            return ()
        return _code_span(param, path, text, start, value_end)
    if not alone:
        return ()  # a bullet with more on it than this parameter
    tail = _LINE_TAIL.fullmatch(text, value_end)
    if _LINE_LEAD.fullmatch(text, 0, start) and tail is not None:
        return _whole_line(param, path, lines, start, tail.group(1) is not None, gone)
    if not text[:start].strip() and _AFTER_INLINE.match(text, value_end):
        return _after_comma_above(param, path, lines, value_end, gone)
    return _inline(param, path, text, start, value_end, joiners=joiners)


def other_keys(text: str, key: str) -> bool:
    """Whether the line gives another parameter than `key`."""
    return any(m.group(0) != key for m in _PARAM_KEY.finditer(text))


def _key_token(text: str, at: int, key: str) -> tuple[int, int] | None:
    """The key as written, with its quotes (`"name"`, `\\"name\\"`) — None if it is not there."""
    word = next((w for w in (at, at + 1, at + 2) if text.startswith(key, w)), None)
    if word is None or _is_word(text, word - 1) or _is_word(text, word + len(key)):
        return None
    quote = ""
    if word >= 1 and text[word - 1] in _QUOTES:
        quote = text[word - 1]
        if word >= 2 and text[word - 2] == "\\":
            quote = "\\" + quote
    end = word + len(key)
    if quote:
        if not text.startswith(quote, end):
            return None
        end += len(quote)
    return word - len(quote), end


def _is_word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] == "_")


def _value_end(text: str, at: int) -> int | None:
    prefix = _STRING_PREFIX.match(text, at)
    q = prefix.end() if prefix else at
    if text.startswith("\\", q) and text[q + 1 : q + 2] in _QUOTES and text[q + 1 : q + 2]:
        close = text.find(text[q : q + 2], q + 2)
        return None if close < 0 else close + 2
    if q < len(text) and text[q] in _QUOTES:
        if text.startswith(text[q] * 3, q):
            return None  # a triple-quoted value may span lines
        i = q + 1
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == text[q]:
                return i + 1
            i += 1
        return None
    bare = _BARE_VALUE.match(text, at)
    if bare is None or bare.group(0) in _UNFINISHED:
        return None
    end = bare.end()
    while end > at + 1 and text[end - 1] in ".:;!?":
        end -= 1  # the sentence's full stop, not the value's
    return end


def _whole_line(
    param: Param, path: str, lines: list[str], key_start: int, own_comma: bool, gone: frozenset[int]
) -> tuple[Edit, ...]:
    """`name: "x",` alone on its line (a block, a JSON object or a call one key per line): the
    line goes, and a comma left dangling before a closing bracket goes with it."""
    n = param.line  # 1-based
    following = _next_nonblank(lines, n, gone)
    # a bullet (`- name: x`) may open an item whose other keys follow, indented to the key
    deeper = key_start if lines[n - 1][:key_start].strip() else key_start + 1
    if following is not None and _indent(lines[following]) >= deeper and not _closes(lines[following]):
        return ()  # the value, or the item, may continue on the next line
    edits = [_delete_line(path, lines, n)]
    previous = _previous_nonblank(lines, n - 2, gone)
    if not own_comma and previous is not None and following is not None and _closes(lines[following]):
        before = lines[previous].rstrip()
        if before.endswith(","):
            col = len(before)
            edits.insert(0, Edit(path, previous + 1, col, previous + 1, col + 1, ","))
    return tuple(edits)


def _after_comma_above(
    param: Param, path: str, lines: list[str], end: int, gone: frozenset[int]
) -> tuple[Edit, ...]:
    """`  "name": "x"}` first on its line, a closing bracket after it: it goes with the comma that
    ends the line above."""
    n = param.line
    text = lines[n - 1]
    if text[end:].lstrip()[:1] not in (")", "}", "]"):
        return ()
    previous = _previous_nonblank(lines, n - 2, gone)
    if previous is None or not lines[previous].rstrip().endswith(","):
        return ()
    col = len(lines[previous].rstrip()) - 1
    old = "\n".join([lines[previous][col:], *lines[previous + 1 : n - 1], text[:end]])
    return (Edit(path, previous + 1, col + 1, n, end + 1, old),)


def _delete_line(path: str, lines: list[str], n: int) -> Edit:
    text = lines[n - 1]
    if n < len(lines):
        return Edit(path, n, 1, n + 1, 1, text + "\n")
    if n > 1:  # the last line, without a line ending: take the one before it instead
        return Edit(path, n - 1, len(lines[n - 2]) + 1, n, len(text) + 1, "\n" + text)
    return Edit(path, n, 1, n, len(text) + 1, text)


def bullet_line(param: Param, path: str, lines: list[str]) -> tuple[Edit, ...]:
    """F4: the parameter's own bullet goes, when nothing but the bullet is on it."""
    n = param.line
    m = _BULLET_KEY.match(lines[n - 1])
    if m is None or m.group("key") != param.key or m.start("key") != param.column - 1:
        return ()
    following = lines[n] if n < len(lines) else ""
    if following.strip() and not LIST_ITEM.match(following):
        return ()  # the item continues on the next line (indented or lazily)
    return (_delete_line(path, lines, n),)


def _inline(param: Param, path: str, text: str, start: int, end: int, joiners: bool) -> tuple[Edit, ...]:
    """`a, name: "x", b` inside one line: the parameter goes with one of its commas."""
    if not (_AFTER_SENTENCE if joiners else _AFTER_INLINE).match(text, end):
        return ()
    before = _JOIN_BEFORE if joiners else re.compile(r"\s*,\s*$")
    m = before.search(text, 0, start)
    if m is not None and m.end() == start:
        return (_cut(param, path, text, m.start(), end),)
    after = (_JOIN_AFTER if joiners else re.compile(r"\s*,\s*")).match(text, end)
    if after is not None:
        return (_cut(param, path, text, start, after.end()),)
    opened = text[:start].rstrip()[-1:]
    closed = text[end:].lstrip()[:1]
    if (opened, closed) in (("(", ")"), ("{", "}")):
        return (_cut(param, path, text, start, end),)
    return ()


def _code_span(param: Param, path: str, text: str, start: int, value_end: int) -> tuple[Edit, ...]:
    """F5: `` `name: "x"` `` in a sentence goes with the word or comma that joins it."""
    span_start = start - 1
    if text[value_end : value_end + 1] != "`":
        return _inline(param, path, text, start, value_end, joiners=False)  # one of several in a span
    span_end = value_end + 1
    return _joined(param, path, text, span_start, span_end)


def _joined(param: Param, path: str, text: str, a: int, b: int) -> tuple[Edit, ...]:
    m = _JOIN_BEFORE.search(text, 0, a)
    if m is not None and m.end() == a:
        if m.group(0).strip() == "," and _SERIAL_COMMA.match(text, b):
            b += 1  # "`a`, `name`, and `b`" becomes "`a` and `b`"
        return (_cut(param, path, text, m.start(), b),)
    after = _JOIN_AFTER.match(text, b)
    if after is not None and text[after.end() : after.end() + 1] == "`":
        return (_cut(param, path, text, a, after.end()),)
    return ()


def _cut(param: Param, path: str, text: str, a: int, b: int) -> Edit:
    return Edit(path, param.line, a + 1, param.line, b + 1, text[a:b])


def key_then_value_span(param: Param, path: str, lines: list[str]) -> tuple[Edit, ...]:
    """F5 written as `` `name` set to `x` ``: both code spans go, with their joining word."""
    text = lines[param.line - 1]
    a = param.column - 2
    m = _SPAN_KEY_VALUE.match(text, a) if a >= 0 else None
    if m is None:
        return ()
    return _joined(param, path, text, m.start(), m.end())


def _next_nonblank(lines: list[str], start: int, gone: frozenset[int] = frozenset()) -> int | None:
    """The 0-based index of the next line with text, from `start`, past the `gone` (1-based) lines."""
    for j in range(start, len(lines)):
        if lines[j].strip() and j + 1 not in gone:
            return j
    return None


def _previous_nonblank(lines: list[str], start: int, gone: frozenset[int] = frozenset()) -> int | None:
    for j in range(start, -1, -1):
        if lines[j].strip() and j + 1 not in gone:
            return j
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _closes(line: str) -> bool:
    return line.lstrip()[:1] in (")", "}", "]")
