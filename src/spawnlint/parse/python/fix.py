"""The Python fixer: libcst, whose concrete syntax tree keeps every byte of formatting, deletes a
`name=` keyword of a spawn call or a `"name"` key of a spawn dict (and `team_name` with it), its
comma included, and nothing else. Imported only when --fix or --diff edits a Python spawn site."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from spawnlint.model import Edit

_Item = TypeVar("_Item", cst.Arg, cst.BaseDictElement)


def complete_removals(path: str, text: str, edits: Sequence[Edit]) -> dict[Edit, Edit | None]:
    """For each `python_node` edit (a keyword argument or a dict entry, from its key to its value),
    the plain edit that deletes it whole; None where the file no longer holds it there or libcst
    cannot read the file. Two edits in one call or dict give one edit, the same for both."""
    out: dict[Edit, Edit | None] = dict.fromkeys(edits)
    try:
        module = cst.parse_module(text)
        finder = _Finder({(e.line, e.column) for e in edits})
        MetadataWrapper(module, unsafe_skip_copy=True).visit(finder)
    except Exception:  # noqa: BLE001 - libcst raises its own kinds (ParserSyntaxError, CSTValidationError...)
        return out
    groups: dict[int, list[Edit]] = {}
    for edit in edits:
        found = finder.found.get((edit.line, edit.column))
        if found is not None and _spelled(found[1], module) == _normal(edit.old):
            groups.setdefault(id(found[0]), []).append(edit)
    for group in groups.values():
        parent = finder.found[(group[0].line, group[0].column)][0]
        drop = {id(finder.found[(e.line, e.column)][1]) for e in group}
        try:
            replaced = module.deep_replace(parent, _without(parent, drop))
            after = replaced.code if isinstance(replaced, cst.Module) else text
        except Exception:  # noqa: BLE001 - a tree libcst cannot print back is left alone
            continue
        edit = _difference(path, module.code, after)
        for e in group:
            out[e] = edit
    return out


class _Finder(cst.CSTVisitor):
    """The keyword arguments and dict entries whose key starts at one of `starts`, with the
    call or dict that holds them."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, starts: set[tuple[int, int]]) -> None:
        super().__init__()
        self.starts = starts
        self.found: dict[tuple[int, int], tuple[cst.Call | cst.Dict, cst.Arg | cst.DictElement]] = {}

    def _at(self, node: cst.CSTNode) -> tuple[int, int]:
        start = self.get_metadata(PositionProvider, node).start
        return start.line, start.column + 1

    def visit_Call(self, node: cst.Call) -> None:
        for arg in node.args:
            if arg.keyword is not None and (at := self._at(arg.keyword)) in self.starts:
                self.found[at] = (node, arg)

    def visit_Dict(self, node: cst.Dict) -> None:
        for element in node.elements:
            if isinstance(element, cst.DictElement) and (at := self._at(element.key)) in self.starts:
                self.found[at] = (node, element)


def _spelled(item: cst.Arg | cst.DictElement, module: cst.Module) -> str:
    """The item's text from its key to its value, as the reader records it in `Edit.old`."""
    if isinstance(item, cst.Arg):
        item = item.with_changes(
            comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace("")
        )
    else:
        item = item.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return _normal(module.code_for_node(item))


def _without(parent: cst.Call | cst.Dict, drop: set[int]) -> cst.Call | cst.Dict:
    if isinstance(parent, cst.Call):
        return parent.with_changes(args=_kept(parent.args, drop))
    return parent.with_changes(elements=_kept(parent.elements, drop))


def _kept(items: Sequence[_Item], drop: set[int]) -> list[_Item]:
    """The items but those dropped; when the last goes, the new last one takes its comma (none,
    or the trailing comma of a list written one item a line)."""
    kept = [item for item in items if id(item) not in drop]
    if kept and items and id(items[-1]) in drop:
        kept[-1] = kept[-1].with_changes(comma=items[-1].comma)
    return kept


def _difference(path: str, before: str, after: str) -> Edit:
    """The one edit that turns `before` into `after`: the span between their common start and end."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    line, column = _position(before, start)
    end_line, end_column = _position(before, len(before) - end)
    return Edit(
        path,
        line,
        column,
        end_line,
        end_column,
        _normal(before[start : len(before) - end]),
        _normal(after[start : len(after) - end]),
    )


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (characters of the line) of a character offset."""
    head = text[:offset]
    line_start = max(head.rfind("\n"), head.rfind("\r")) + 1
    lines = _normal(head).count("\n")
    return lines + 1, offset - line_start + 1


def _normal(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
