"""`check --fix` / `--diff`: apply the edits the rules attached to their diagnostics, keeping each
file's encoding, BOM and line endings, and writing atomically."""

from __future__ import annotations

import difflib
import os
import re
import stat
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from spawnlint.atomic import clear_leftovers, write_atomically
from spawnlint.model import Diagnostic, Edit, Fix, Project

_BOM = b"\xef\xbb\xbf"
_NEWLINE = re.compile(r"\r\n|\r|\n")  # what parse.spawn_syntax.split_lines splits on
_LINE_WITH_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def fixed_count(changes: Iterable[FileChange]) -> int:
    """Findings fixed (one whose fix spans files counts once)."""
    return len({d for c in changes for d in c.fixed})


@dataclass(frozen=True)
class FileChange:
    path: str  # posix, relative to the project root
    before: bytes
    after: bytes
    fixed: tuple[Diagnostic, ...]


def fixable(diagnostic: Diagnostic, unsafe: bool) -> Fix | None:
    fix = diagnostic.fix
    if fix is None or not fix.edits or not (fix.safe or unsafe):
        return None
    return fix


def plan(root: Path, diagnostics: Iterable[Diagnostic], project: Project, unsafe: bool) -> list[FileChange]:
    """The change to each file that the fixes of these diagnostics make; files with parse
    problems, or not read as text, are never touched (frontmatter that is closed but not valid
    YAML is the exception: the body was parsed as usual, and the edits are all in the body)."""
    wanted: dict[str, list[tuple[Diagnostic, Fix]]] = defaultdict(list)
    for d in diagnostics:
        fix = fixable(d, unsafe)
        if fix is None:
            continue
        for path in sorted({e.path for e in fix.edits}):  # each file's part is applied whole
            wanted[path].append((d, Fix(tuple(e for e in fix.edits if e.path == path), fix.safe)))
    blocked = unfixable_files(project)
    changes = []
    for path in sorted(wanted):
        if path in blocked:
            continue
        change = _change(root, path, wanted[path])
        if change is not None:
            changes.append(change)
    return changes


def unfixable_files(project: Project) -> set[str]:
    out = {p.finding.path for p in project.problems if not p.body_intact}
    out.update(path for path, parsed in project.files.items() if not parsed.editable)
    return out


def _change(root: Path, path: str, fixes: list[tuple[Diagnostic, Fix]]) -> FileChange | None:
    before = _read(root / path)
    if before is None:
        return None
    try:
        text = before.removeprefix(_BOM).decode("utf-8")
    except UnicodeDecodeError:
        return None
    after, fixed = apply_edits(text, _completed(path, text, fixes))
    if not fixed or after == text:
        return None
    data = (_BOM if before.startswith(_BOM) else b"") + after.encode("utf-8")
    return FileChange(path, before, data, tuple(fixed))


def _completed(path: str, text: str, fixes: list[tuple[Diagnostic, Fix]]) -> list[tuple[Diagnostic, Fix]]:
    """The fixes with each Python keyword or dict entry to delete made a plain edit by the Python
    fixer (libcst, imported only here); a fix it cannot complete is left out."""
    nodes = [e for _d, fix in fixes for e in fix.edits if e.python_node]
    if not nodes:
        return fixes
    try:
        from spawnlint.parse.python.fix import complete_removals
    except ImportError:  # libcst missing (the plugin's own copy, run with the system's Python)
        return [(d, fix) for d, fix in fixes if not any(e.python_node for e in fix.edits)]
    done = complete_removals(path, text, nodes)
    out = []
    for diagnostic, fix in fixes:
        edits = [done.get(e) if e.python_node else e for e in fix.edits]
        if all(e is not None for e in edits):
            out.append((diagnostic, Fix(tuple(e for e in edits if e is not None), fix.safe)))
    return out


def _read(full: Path) -> bytes | None:
    try:
        if full.is_symlink() or not stat.S_ISREG(os.stat(full).st_mode):
            return None  # a link is never replaced by a copy of its target
        data = full.read_bytes()
    except OSError:
        return None
    return None if b"\x00" in data else data


def apply_edits(text: str, fixes: list[tuple[Diagnostic, Fix]]) -> tuple[str, list[Diagnostic]]:
    """Apply each fix whole, or not at all: a fix whose text moved, or whose edits overlap another
    fix's, waits for the next pass."""
    starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
    eol = m.group(0) if (m := _NEWLINE.search(text)) else "\n"
    spans: list[tuple[int, int, str, int]] = []  # (start, end, replacement, fix index)
    for index, (_d, fix) in enumerate(fixes):
        located = _located(text, starts, fix)
        if located is not None:
            spans.extend((a, b, replacement.replace("\n", eol), index) for a, b, replacement in located)
    spans = sorted(set(spans))
    dropped = _overlapping(spans)
    kept = [s for s in spans if s[3] not in dropped]
    applied = {s[3] for s in kept}
    out = text
    done: set[tuple[int, int, str]] = set()
    for a, b, replacement, _index in reversed(kept):
        if (a, b, replacement) in done:
            continue  # the same edit asked for by two findings
        done.add((a, b, replacement))
        out = out[:a] + replacement + out[b:]
    return out, [fixes[i][0] for i in sorted(applied)]


def _located(text: str, starts: list[int], fix: Fix) -> list[tuple[int, int, str]] | None:
    out = []
    for edit in fix.edits:
        span = _locate(text, starts, edit)
        if span is None:
            return None
        out.append((span[0], span[1], edit.text))
    return out


def _locate(text: str, starts: list[int], edit: Edit) -> tuple[int, int] | None:
    a = _offset(text, starts, edit.line, edit.column)
    b = _offset(text, starts, edit.end_line, edit.end_column)
    if a is None or b is None or b < a:
        return None
    if _NEWLINE.sub("\n", text[a:b]) != edit.old:
        return None  # not the text the parser saw there
    return a, b


def _offset(text: str, starts: list[int], line: int, column: int) -> int | None:
    if not 1 <= line <= len(starts) or column < 1:
        return None
    start = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    content = len(_NEWLINE.sub("", text[start:end]))
    return start + column - 1 if column - 1 <= content else None


def _overlapping(spans: list[tuple[int, int, str, int]]) -> set[int]:
    """The fixes with an edit that overlaps an edit of another fix (or of itself)."""
    dropped: set[int] = set()
    for (a1, b1, r1, i1), (a2, b2, r2, i2) in zip(spans, spans[1:], strict=False):
        if (a1, b1, r1) == (a2, b2, r2):
            continue
        if a2 < b1 or a1 == b1 == a2 == b2:  # two different insertions at one point: which first?
            dropped.update((i1, i2))
    return dropped


def write(root: Path, change: FileChange) -> str | None:
    """Replace the file atomically (a temporary file beside it, then a rename), keeping its mode,
    owner and group; None when done, else why it was left as it was: it changed since it was
    read, it is read-only, it has other hard links (a rename would split them, and an edit in
    place could be torn), or its owner cannot be kept."""
    full = root / change.path
    try:
        status = os.stat(full)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if _read(full) != change.before:
        return "changed while spawnlint ran"
    if not status.st_mode & 0o222 or not os.access(full, os.W_OK):
        return "read-only"
    if status.st_nlink > 1:
        return f"has {status.st_nlink} hard links; replacing it would split them"
    try:
        write_atomically(full, change.after, keep_owner=True)
    except PermissionError:
        return "its owner and group cannot be kept by this user"
    except OSError as exc:
        return f"cannot be written ({exc.strerror or exc})"
    return None


def clear_temporary_files(root: Path, project: Project) -> int:
    """Remove the temporary files that an earlier --fix, killed before its rename, left in the
    folders of the project's files; how many."""
    folders = {os.path.dirname(path) for path in project.files} | {""}
    return sum(len(clear_leftovers(root / folder)) for folder in sorted(folders))


def unified_diff(change: FileChange) -> str:
    before = change.before.removeprefix(_BOM).decode("utf-8")
    after = change.after.removeprefix(_BOM).decode("utf-8")
    lines = difflib.unified_diff(
        _LINE_WITH_END.findall(before),
        _LINE_WITH_END.findall(after),
        f"a/{change.path}",
        f"b/{change.path}",
    )
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines
    )
