"""spawnlint's findings, fixes and spawn facts as Language Server Protocol values (lsprotocol):
diagnostics, code actions and hover text. Lines and columns here are 1-based characters, as the
model has them; the position codec turns them into the client's units."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from spawnlint.fix import fixable, unfixable_files
from spawnlint.lsp import suppressing
from spawnlint.model import Agent, Diagnostic, Edit, Fix, Project, Severity, Spawn
from spawnlint.pages import pages_dir
from spawnlint.rules import BY_CODE
from spawnlint.rules.return_channel import why_mute

SOURCE = "spawnlint"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_NEWLINE = re.compile(r"\r\n|\r|\n")


class Texts:
    """The project's files as the editor holds them (read once a request): lines without their
    endings, and each file's line ending."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self._read = read
        self._lines: dict[str, list[str]] = {}
        self._eols: dict[str, str] = {}

    def lines(self, path: str) -> list[str]:
        if path not in self._lines:
            text = self._read(path) or ""
            self._lines[path] = _NEWLINE.split(text)
            m = _NEWLINE.search(text)
            self._eols[path] = m.group(0) if m else "\n"
        return self._lines[path]

    def eol(self, path: str) -> str:
        self.lines(path)
        return self._eols[path]


def uri_of(root: Path, path: str) -> str:
    return (root / path).as_uri()


def rule_page(code: str) -> str | None:
    """The file URI of the rule's page as installed (the page of this very version)."""
    rule, folder = BY_CODE.get(code), pages_dir()
    if rule is None or folder is None:
        return None
    page = folder / f"{rule.code}-{rule.name}.md"
    return page.resolve().as_uri() if page.is_file() else None


def position(lines: list[str], line: int, column: int, codec: PositionCodec) -> types.Position:
    """A 1-based (line, character column) as the client counts, clamped into the text."""
    if not lines:
        return types.Position(0, 0)
    row = min(max(line, 1), len(lines)) - 1
    text = lines[row]
    character = min(max(column, 1) - 1, len(text))
    return types.Position(row, codec.client_num_units(text[:character]))


def line_range(lines: list[str], line: int, column: int, codec: PositionCodec) -> types.Range:
    """From the column to the end of the line's text (an empty range past it)."""
    start = position(lines, line, column, codec)
    row = start.line
    text = lines[row] if row < len(lines) else ""
    end_column = max(len(text.rstrip()) + 1, min(max(column, 1), len(text) + 1))
    return types.Range(start, position(lines, row + 1, end_column, codec))


def diagnostic(d: Diagnostic, root: Path, texts: Texts, codec: PositionCodec) -> types.Diagnostic:
    page = rule_page(d.code)
    related = [
        types.DiagnosticRelatedInformation(
            types.Location(uri_of(root, r.path), line_range(texts.lines(r.path), r.line, r.column, codec)),
            r.message or "related",
        )
        for r in d.related
    ]
    return types.Diagnostic(
        range=line_range(texts.lines(d.path), d.line, d.column, codec),
        message=d.message,
        severity=_SEVERITY[d.severity],
        code=d.code,
        code_description=types.CodeDescription(href=page) if page else None,
        source=SOURCE,
        related_information=related or None,
        data={"code": d.code, "line": d.line, "column": d.column},
    )


def config_diagnostic(message: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=f"spawnlint cannot use this configuration: {message}",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def same_finding(ours: Diagnostic, theirs: types.Diagnostic) -> bool:
    """Whether the client's diagnostic (sent back with a code action request) is this finding."""
    data = theirs.data if isinstance(theirs.data, dict) else {}
    return theirs.source == SOURCE and data.get("code") == ours.code and data.get("line") == ours.line


def code_actions(
    found: Iterable[Diagnostic],
    project: Project | None,
    root: Path,
    texts: Texts,
    codec: PositionCodec,
    callables: Sequence[str] = ("Agent", "Task"),
) -> list[types.CodeAction]:
    """For each finding: its fix as `--fix` makes it (an unsafe one titled so, never preferred),
    and an inline suppression where the file can hold one."""
    blocked = unfixable_files(project) if project is not None else set()
    actions = []
    for d in found:
        lsp = diagnostic(d, root, texts, codec)
        fix = fixable(d, unsafe=True)
        edit = _workspace_edit(fix, root, texts, codec) if fix is not None else None
        if fix is not None and edit is not None and not any(e.path in blocked for e in fix.edits):
            actions.append(
                types.CodeAction(
                    title=f"Fix {d.code} ({BY_CODE[d.code].name})" + ("" if fix.safe else " (unsafe)"),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp],
                    edit=edit,
                    is_preferred=fix.safe,
                )
            )
        kind = project.files[d.path].kind if project is not None and d.path in project.files else None
        if kind is None:
            continue
        lines = texts.lines(d.path)
        for title, insertion in (
            (f"Suppress {d.code} here (inline comment)", suppressing.here(d, lines, kind, callables)),
            (f"Suppress {d.code} in this file", suppressing.file_wide(d, lines, kind, callables)),
        ):
            if insertion is None:
                continue
            line, column, text = insertion
            where = position(lines, line, column, codec)
            change = types.TextEdit(types.Range(where, where), text.replace("\n", texts.eol(d.path)))
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp],
                    edit=types.WorkspaceEdit(changes={uri_of(root, d.path): [change]}),
                )
            )
    return actions


def _workspace_edit(fix: Fix, root: Path, texts: Texts, codec: PositionCodec) -> types.WorkspaceEdit | None:
    """The fix's edits as text edits, or None when a file no longer holds the text it replaces
    (the fix waits for the next lint, as `--fix` waits for its next pass)."""
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in fix.edits:
        text = texts.lines(edit.path)
        if _old_text(text, edit) != edit.old:
            return None
        new = edit.text.replace("\n", texts.eol(edit.path))  # as --fix writes it
        start = position(text, edit.line, edit.column, codec)
        rng = types.Range(start, position(text, edit.end_line, edit.end_column, codec))
        changes.setdefault(uri_of(root, edit.path), []).append(types.TextEdit(rng, new))
    return types.WorkspaceEdit(changes=changes)


def _old_text(lines: list[str], edit: Edit) -> str | None:
    if not 1 <= edit.line <= edit.end_line <= len(lines):
        return None
    first, last = lines[edit.line - 1], lines[edit.end_line - 1]
    if edit.column - 1 > len(first) or edit.end_column - 1 > len(last):
        return None
    if edit.line == edit.end_line:
        return first[edit.column - 1 : edit.end_column - 1]
    middle = lines[edit.line : edit.end_line - 1]
    return "\n".join([first[edit.column - 1 :], *middle, last[: edit.end_column - 1]])


def spawn_at(project: Project, path: str, line: int) -> Spawn | None:
    """The spawn whose site spans the 1-based line (from its first line to its last parameter)."""
    best: Spawn | None = None
    for spawn in project.spawns:
        site = spawn.site
        if site.path != path:
            continue
        rows = [site.line] + [
            row
            for p in (site.subagent_type, site.name, site.team_name)
            if p is not None
            for row in (p.line, p.value_position[0])
        ]
        if min(rows) <= line <= max(rows) and (best is None or site.line > best.site.line):
            best = spawn
    return best


def hover_text(spawn: Spawn) -> str:
    """What a plugin author wants to know of a spawn: what it resolves to, with which tools,
    whether its answer can come back, and why."""
    site = spawn.site
    tool = f"{site.tool} spawn" if site.tool else "spawn"
    out = [f"**spawnlint: {tool}** (form {site.form}, {site.confidence} confidence)", ""]
    wanted = site.subagent_type.value if site.subagent_type is not None else None
    status = spawn.target.status
    out.append(f"- subagent_type: `{wanted}` ({status})" if wanted else f"- no subagent_type ({status})")
    for agent in spawn.target.agents:
        out.append(f"- agent `{agent.id}`" + (f" in `{agent.path}`" if agent.path else " (built in)"))
        out.append(f"  - tools: {_tools(agent)}")
    if site.name is not None:
        out.append(
            f"- named `{site.name.value}`: it runs as an `in_process_teammate`; its answer comes back "
            "only through SendMessage"
        )
        if spawn.target.agents:
            mute = [a for a in spawn.target.agents if not a.can_report]
            if mute:
                out.append(f"- can report: **no**, {why_mute(mute[0])}")
            elif site.told_to_report:
                out.append("- can report: yes, it has SendMessage and its prompt or section says to use it")
            elif any(a.mentions_send_message for a in spawn.target.agents):
                out.append("- can report: yes, it has SendMessage and its definition says to use it")
            else:
                out.append(
                    "- can report: it has SendMessage, but **nothing tells it to** use it (neither the"
                    " prompt, its section nor the agent's definition), so its answer is likely lost"
                )
        else:
            out.append("- can report: unknown (the agent is not resolved)")
    elif site.is_fork:
        out.append("- a fork: it shares this conversation; nothing needs to come back")
    else:
        out.append("- unnamed: its final answer returns to the caller (no SendMessage needed)")
    return "\n".join(out)


def _tools(agent: Agent) -> str:
    if not agent.tools_known:
        return "computed by code (not known)"
    listed = "every tool (no `tools` key)" if agent.tools is None else ", ".join(agent.tools.raw) or "none"
    if agent.disallowed is not None:
        listed += "; disallowed: " + (", ".join(agent.disallowed.raw) or "none")
    return listed
