"""The lines of a Python file where the reader could find anything, found with C-speed searches of
the text before the tree is walked: the walk then goes down only into nodes that span one.

What the reader acts on, and what its source must hold:
- a spawn call: a `subagent_type` keyword, or both `description` and `prompt`;
- a spawn dict or tool-use block: a string `subagent_type`, or `tool_use`;
- a string given to the markdown recognisers: a word of the word test (`has_spawn_word`);
- `AgentDefinition(...)`: its agents are named by variables that may stand anywhere, so a file
  that holds one is walked whole.
A value may differ from its source: an escape (`\\x61gent`, `kick\\toff`), a backslash that joins
lines, two literals written side by side (`"ag" "ent"`), a keyword written in compatibility
characters (`ｓubagent_type`, which Python reads as `subagent_type`). Lines with those count too."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from spawnlint import lazy
from spawnlint.parse.forms.registry import has_spawn_word

# Escapes that can write a letter, and a backslash that joins two lines.
_ESCAPE = lazy.compile(r"\\(?:[xuUN0-7]|\r\n|\r|\n)")
# Escapes that write white space: two words of the word test may stand either side (`kick\toff`).
_SPACE_ESCAPE = lazy.compile(r"\\[tnrvf]")
# Where one string literal ends and the next begins (implicit concatenation), when a word could
# run across: a letter, digit or space before the closing quote, and after the next opening
# quote (any prefix, empty literals between) a letter, digit, space or escape. Only the quote is
# taken, so that no boundary hides in a longer match.
_NEWLINE = r"(?:\r\n|\r|\n)"
_BETWEEN = r"[ \t\f]*(?:(?:\\?" + _NEWLINE + r"|#[^\r\n]*" + _NEWLINE + r")[ \t\f]*)*"
_QUOTE = "[\"']"
_TRIPLE = "(?:" + '"' * 3 + "|" + "'" * 3 + ")"
_EMPTY = "[A-Za-z]{0,2}(?:" + '"' * 6 + "|" + "'" * 6 + "|" + '"' * 2 + "|" + "'" * 2 + ")"
_SIDE_BY_SIDE = lazy.compile(
    "".join(
        (
            _QUOTE,
            r"(?<=[\w\s]" + _QUOTE + ")",  # a closing quote after a letter, digit or space
            # not a triple quote that opens a literal (`    """Add`): three or five quotes and a
            # letter are a literal, an empty one and code (unless that is the next literal's prefix)
            r"""(?!(?:""(?:"")?|''(?:'')?)(?![A-Za-z]{0,2}["'])\w)""",
            "(?=" + _QUOTE + "{0,2}",  # the rest of a triple quote
            _BETWEEN,
            "(?:" + _EMPTY + _BETWEEN + ")*",
            "[A-Za-z]{0,2}",  # the next literal's prefix and opening quote
            "(?:" + _QUOTE + r"[\w \t\f\\]|" + _TRIPLE + r"[\w\s\\]))",
        )
    )
)
# The keys and keywords of a spawn call, dict or tool-use block.
_SPAWN_KEYS = ("subagent_type", "tool_use")
_BOTH_KEYS = ("description", "prompt")
# Lines the word test is first asked about together; only a group that passes is asked line by line.
_GROUP = 8


def reached_lines(text: str, lines: list[str]) -> list[int] | None:
    """The 1-based lines, in order, that a node must span to be worth reading; None when the whole
    tree must be walked."""
    if "AgentDefinition" in text:
        return None
    found = {i + 1 for i in _word_lines(lines)}
    if not text.isascii():  # Python reads identifiers in NFKC: `ｓubagent_type` is subagent_type
        for number, line in enumerate(lines, start=1):
            if line.isascii() or unicodedata.is_normalized("NFKC", line):
                continue
            normal = unicodedata.normalize("NFKC", line)
            if "AgentDefinition" in normal:
                return None
            if any(key in normal for key in (*_SPAWN_KEYS, *_BOTH_KEYS)):
                found.add(number)
    joined = text if "\r" not in text else "\n".join(lines)
    starts = _finds(joined, _SPAWN_KEYS)
    if all(key in joined for key in _BOTH_KEYS):
        starts.extend(_finds(joined, _BOTH_KEYS[1:]))
    if "\\" in joined:
        starts.extend(m.start() for m in _ESCAPE.finditer(joined))
        found.update(i + 1 for i in _escaped_space_lines(lines, found))
    if '"' in joined or "'" in joined:
        starts.extend(m.start() for m in _SIDE_BY_SIDE.finditer(joined))
    found.update(_lines_of(joined, starts))
    return sorted(found)


def _word_lines(lines: list[str]) -> set[int]:
    """The 0-based lines where the word test finds a word, asked of groups of lines and then of
    each line of a group that passes. A two-word word (`kick off`) may run across a line end, to
    the next line that is not blank: each group is asked with that line, and where it passes
    with its lines that pass blanked, all its lines count."""
    found: set[int] = set()
    count = len(lines)
    for start in range(0, count, _GROUP):
        end = _past_next_words(lines, min(start + _GROUP, count))
        if not has_spawn_word("\n".join(lines[start:end])):
            continue
        hot = {i for i in range(start, end) if lines[i].strip() and has_spawn_word(lines[i])}
        found.update(i for i in hot if i < start + _GROUP)
        rest = "\n".join("" if i in hot else lines[i] for i in range(start, end))
        if has_spawn_word(rest):
            found.update(range(start, end))
    return found


def _past_next_words(lines: list[str], at: int) -> int:
    """Past the first line from `at` on that is not blank (or the end)."""
    while at < len(lines) and not lines[at].strip():
        at += 1
    return min(at + 1, len(lines))


def _escaped_space_lines(lines: list[str], found: set[int]) -> list[int]:
    """The 0-based lines, not yet found, where the word test finds a word once escaped white space
    is read as white space (with the lines that are not blank either side: `kick\\t` may end a
    line of a triple-quoted string)."""
    out = []
    for i, line in enumerate(lines):
        if "\\" not in line or i + 1 in found or not _SPACE_ESCAPE.search(line):
            continue
        before = i - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        window = "\n".join(lines[max(before, 0) : _past_next_words(lines, i + 1)])
        if has_spawn_word(_SPACE_ESCAPE.sub("  ", window)):
            out.append(i)
    return out


def _finds(text: str, words: Iterable[str]) -> list[int]:
    out = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            out.append(at)
            at = text.find(word, at + len(word))
    return out


def _lines_of(text: str, offsets: list[int]) -> set[int]:
    """The 1-based line of each offset, counting line feeds in one pass."""
    lines: set[int] = set()
    line, last = 1, 0
    for at in sorted(offsets):
        line += text.count("\n", last, at)
        last = at
        lines.add(line)
    return lines
