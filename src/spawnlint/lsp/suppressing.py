"""Where an inline suppression can go without changing what spawnlint reads in the file. A
comment line can split a list, a table or a paragraph from the code fence it introduces, so each
place is tried on a parse of the file with the comment in it: the spawn sites, rule sentences,
agents and problems must read as before, and the comment must cover the finding."""

from __future__ import annotations

import re
from collections.abc import Sequence

from spawnlint.model import Diagnostic, FileKind, Param, ParsedFile
from spawnlint.parse import _SUPPRESS_HASH, _SUPPRESS_MD, parse_text
from spawnlint.parse.frontmatter import split_frontmatter

Insertion = tuple[int, int, str]  # 1-based line and column, and the text ("\n": the line ending)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def here(d: Diagnostic, lines: list[str], kind: FileKind, callables: Sequence[str]) -> Insertion | None:
    """The first place near the finding where a comment silences it and changes nothing else."""
    if d.code == "SL900" or not 1 <= d.line <= len(lines):
        return None
    before = _reading(_parse(d.path, lines, kind, callables))
    for insertion in _places(d, lines, kind):
        if _holds(d, lines, kind, insertion, before, callables):
            return insertion
    return None


def file_wide(d: Diagnostic, lines: list[str], kind: FileKind, callables: Sequence[str]) -> Insertion | None:
    """An `ignore-file` comment for the finding's code at the end of the file, if it holds."""
    if d.code == "SL900" or not lines:
        return None
    marker = f"spawnlint: ignore-file[{d.code}]"  # not written out whole: it would silence this file
    comment = f"# {marker}" if kind is FileKind.PYTHON else f"<!-- {marker} -->"
    last = lines[-1]
    insertion = (len(lines), len(last) + 1, ("\n" if last else "") + "\n" + comment + "\n")
    before = _reading(_parse(d.path, lines, kind, callables))
    return insertion if _holds(d, lines, kind, insertion, before, callables) else None


def _places(d: Diagnostic, lines: list[str], kind: FileKind) -> list[Insertion]:
    marker = f"spawnlint: ignore[{d.code}]"
    if kind is FileKind.PYTHON:
        return [_above(lines, d.line, f"# {marker}")]
    _, body_start = split_frontmatter(lines)
    text = lines[d.line - 1]
    if d.line <= body_start:
        # a YAML comment on the frontmatter line (never on a `---` fence, which it would break)
        return [] if text.rstrip() == "---" else [(d.line, len(text) + 1, f" # {marker}")]
    fence = _fence_start(lines, body_start, d.line)
    places = [_above(lines, fence, f"<!-- {marker} -->")]
    if fence == d.line:
        places.append((d.line, len(text) + 1, f" <!-- {marker} -->"))  # at the end of the line
    return places


def _above(lines: list[str], line: int, comment: str) -> Insertion:
    indent = re.match(r"[ \t]*", lines[line - 1])
    return line, 1, f"{indent.group(0) if indent else ''}{comment}\n"


def _fence_start(lines: list[str], body_start: int, line: int) -> int:
    """The line of the fence opening the code block that holds `line`, or `line` itself."""
    opened: tuple[int, str] | None = None
    for number in range(body_start + 1, line + 1):
        m = _FENCE.match(lines[number - 1])
        if opened is None and m:
            opened = (number, m.group(1))
        elif opened is not None and m and m.group(1).startswith(opened[1][0] * len(opened[1])):
            if number == line:
                return opened[0]  # the closing fence is part of the block
            opened = None
    return opened[0] if opened is not None else line


def _holds(
    d: Diagnostic,
    lines: list[str],
    kind: FileKind,
    insertion: Insertion,
    before: tuple[object, ...],
    callables: Sequence[str],
) -> bool:
    line, column, text = insertion
    edited = lines[: line - 1] + _insert(lines[line - 1], column, text) + lines[line:]
    parsed = _parse(d.path, edited, kind, callables)
    moved = d.line + text.count("\n") if column == 1 and line <= d.line else d.line
    return parsed.suppressions.covers(moved, d.code) and _reading(parsed) == before


def _insert(line: str, column: int, text: str) -> list[str]:
    return (line[: column - 1] + text + line[column - 1 :]).split("\n")


def _parse(path: str, lines: list[str], kind: FileKind, callables: Sequence[str]) -> ParsedFile:
    text = "\n".join(lines)
    if kind is FileKind.PYTHON:
        from spawnlint.parse.python import parse_python  # libcst: the server imported it already

        return parse_python(path, text, callables)
    return parse_text(path, text, kind, all_sentences=True)


def _reading(parsed: ParsedFile) -> tuple[object, ...]:
    """What the rules read in the file, without line numbers (a line inserted moves them)."""

    def value(param: Param | None) -> tuple[str, str] | None:
        return (param.key, param.value) if param is not None else None

    sites = tuple(
        (
            s.form,
            s.tool,
            value(s.subagent_type),
            value(s.name),
            value(s.team_name),
            s.prompt,
            s.told_to_report,
        )
        for s in parsed.sites
    )
    agents = tuple(
        (
            a.name,
            a.tools.raw if a.tools else None,
            a.disallowed.raw if a.disallowed else None,
            a.mentions_send_message,
        )
        for a in parsed.agents
    )
    sentences = tuple(text for s in parsed.sentences if (text := _bare(s.text)))
    return sites, agents, sentences, tuple(p.code for p in parsed.problems), parsed.unit_frontmatter


def _bare(text: str | None) -> str | None:
    """The text without its suppression comments (the one inserted is read as part of it)."""
    if text is None:
        return None
    return " ".join(_SUPPRESSION.sub(" ", text).split())


_SUPPRESSION = re.compile(rf"{_SUPPRESS_MD.pattern}|{_SUPPRESS_HASH.pattern}")
