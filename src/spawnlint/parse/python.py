"""Python files, read with libcst (never imported or executed): spawn calls, spawn dicts and
tool-use blocks, spawn text inside string literals (scanned with the markdown recognisers,
positions mapped back into the file), and `AgentDefinition` agents."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from spawnlint.model import (
    AgentRecord,
    FileKind,
    Finding,
    Param,
    ParsedFile,
    Problem,
    SpawnSite,
    ToolList,
    ValueKind,
)
from spawnlint.parse.frontmatter import parse_tool_list
from spawnlint.parse.markdown import analyse
from spawnlint.parse.prefilter import could_yield
from spawnlint.parse.python_outline import MAX_NESTING, max_nesting, may_be_scanned
from spawnlint.parse.send_message import mentions_send_message_tool
from spawnlint.parse.spans import with_removals
from spawnlint.parse.spawn_syntax import TooComplex, classify, is_absent, split_lines


@dataclass
class _Doc:
    """The text of a string literal, with the source position of every character."""

    text: str
    positions: list[tuple[int, int]]  # 1-based line, 1-based column

    def __post_init__(self) -> None:
        self.starts = [0] + [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]

    def at(self, line: int, column: int) -> tuple[int, int]:
        starts = self.starts
        offset = starts[min(line, len(starts)) - 1] + column - 1
        if not self.positions:
            return (1, 1)
        return self.positions[max(0, min(offset, len(self.positions) - 1))]


def parse_python(path: str, text: str, callables: Sequence[str]) -> ParsedFile:
    depth = max_nesting(text)
    if depth > MAX_NESTING:
        why = (
            f"file nests brackets {depth} deep, past the {MAX_NESTING} that can be parsed safely; not checked"
        )
        return _problem(path, why)
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        message = str(exc).splitlines()[0] if str(exc) else "invalid syntax"
        return _problem(path, f"Python syntax error on line {exc.raw_line} ({message}); not checked")
    except Exception as exc:  # noqa: BLE001 - libcst raises its own kinds (CSTValidationError...)
        return _problem(path, f"Python file cannot be parsed ({type(exc).__name__}); not checked")
    # Past libcst's parser, a failure is ours: the engine reports it as SL000 with its traceback.
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    collector = _Collector(path, tuple(callables))
    try:
        wrapper.visit(collector)
    except TooComplex as exc:
        return _problem(path, str(exc))
    from spawnlint.parse import suppressions

    lines = split_lines(text)
    return ParsedFile(
        path=path,
        kind=FileKind.PYTHON,
        agents=tuple(collector.agent_records),
        sites=tuple(
            with_removals(s, lines) for s in sorted(collector.sites, key=lambda s: (s.line, s.column))
        ),
        suppressions=suppressions(lines, markdown=False),
    )


def _problem(path: str, why: str) -> ParsedFile:
    return ParsedFile(path, FileKind.PYTHON, problems=(Problem("SL002", Finding(path, 1, 1, why)),))


class _Collector(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, path: str, callables: tuple[str, ...]) -> None:
        super().__init__()
        self.path = path
        self.callables = callables
        self.sites: list[SpawnSite] = []
        self.claimed: set[int] = set()  # ids of nodes already read as part of a spawn
        self.definitions: dict[str, cst.Call] = {}  # variable -> AgentDefinition(...) call
        self.agent_entries: list[tuple[cst.BaseExpression, cst.Call]] = []
        self.agent_records: list[AgentRecord] = []

    # --- positions ---------------------------------------------------------------------------

    def _start(self, node: cst.CSTNode) -> tuple[int, int]:
        position: CodeRange = self.get_metadata(PositionProvider, node)
        return position.start.line, position.start.column + 1

    # --- calls -------------------------------------------------------------------------------

    def _skip_docstring(self, body: Sequence[cst.CSTNode]) -> None:
        """A docstring describes code; it instructs no model, so it holds no spawn site."""
        first = body[0] if body else None
        if isinstance(first, cst.SimpleStatementLine) and first.body and isinstance(first.body[0], cst.Expr):
            self.claimed.add(id(first.body[0].value))

    def visit_Module(self, node: cst.Module) -> None:
        self._skip_docstring(node.body)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if isinstance(node.body, cst.IndentedBlock):
            self._skip_docstring(node.body.body)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if isinstance(node.body, cst.IndentedBlock):
            self._skip_docstring(node.body.body)

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Call) and _callee(node.value).endswith("AgentDefinition"):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.definitions[target.target.value] = node.value

    def visit_Call(self, node: cst.Call) -> None:
        callee = _callee(node)
        if not any(callee == c or callee.endswith(c) for c in self.callables):
            return
        keywords = {a.keyword.value: a for a in node.args if a.keyword is not None}
        if "subagent_type" not in keywords and not ("description" in keywords and "prompt" in keywords):
            return  # Agent(name=..., instructions=...) of other frameworks is not a spawn
        params = {k: self._param(k, arg.keyword, arg.value) for k, arg in keywords.items() if arg.keyword}
        tool = callee if callee in ("Agent", "Task") else None
        prompt = keywords.get("prompt")
        self._add_site(node, tool, params, _string_value(prompt.value) if prompt else None)
        for arg in node.args:
            self.claimed.add(id(arg.value))

    def _param(self, key: str, key_node: cst.CSTNode, value: cst.BaseExpression) -> Param:
        line, column = self._start(key_node)
        value_line, value_column = self._start(value)
        text = _string_value(value)
        if isinstance(value, cst.Name) and value.value == "None":
            text, kind = "", ValueKind.LITERAL  # name=None is no name
        elif text is None:
            kind = ValueKind.DYNAMIC
            text = cst.Module([]).code_for_node(value)
        elif isinstance(value, (cst.FormattedString, cst.ConcatenatedString)) and _has_expression(value):
            kind = ValueKind.DYNAMIC
        else:
            text, kind = classify(_quote(text))
        return Param(key, text, kind, line, column, value_line, value_column)

    def _add_site(
        self, node: cst.CSTNode, tool: str | None, params: dict[str, Param], prompt: str | None
    ) -> None:
        line, column = self._start(node)
        name = params.get("name")
        if name is not None and name.kind is ValueKind.LITERAL and is_absent(name.value):
            name = None
        self.sites.append(
            SpawnSite(
                path=self.path,
                line=line,
                column=column,
                form="F10",
                tool=tool,
                subagent_type=params.get("subagent_type"),
                name=name,
                team_name=params.get("team_name"),
                prompt=prompt,
                confidence="high",
                told_to_report=mentions_send_message_tool(prompt or ""),
            )
        )

    # --- dicts -------------------------------------------------------------------------------

    def visit_Dict(self, node: cst.Dict) -> None:
        entries = _string_entries(node)
        for _text, key, value in entries:
            if isinstance(value, cst.Call) and _callee(value).endswith("AgentDefinition"):
                self.agent_entries.append((key, value))
            elif isinstance(value, cst.Name) and value.value in self.definitions:
                self.agent_entries.append((key, self.definitions[value.value]))
        if id(node) in self.claimed:
            return
        by_key = {text: value for text, _key, value in entries}
        tool_input = by_key.get("input")
        tool_name = _string_value(by_key.get("name"))
        if _string_value(by_key.get("type")) == "tool_use" and tool_name in ("Agent", "Task"):
            if isinstance(tool_input, cst.Dict):
                # The outer "name" is the tool's name; the spawn's name is input["name"].
                self.claimed.add(id(tool_input))
                self._dict_site(tool_input, tool_name)
            return
        if "subagent_type" in by_key:
            self._dict_site(node, None)

    def _dict_site(self, node: cst.Dict, tool: str | None) -> None:
        params = {}
        for text, key, value in _string_entries(node):
            params[text] = self._param(text, key, value)
            self.claimed.add(id(value))
        prompt = params.get("prompt")
        self._add_site(node, tool, params, prompt.value if prompt else None)

    # --- strings -----------------------------------------------------------------------------

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        self._scan_string(node)

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self._scan_string(node)

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        self._scan_string(node)
        return False  # its parts were read as one document

    def _scan_string(self, node: cst.BaseExpression) -> None:
        if id(node) in self.claimed:
            return
        doc = self._doc(node)
        if doc is None or not may_be_scanned(doc.text) or not could_yield(doc.text):
            return  # could_yield: the markdown body test, which no string with a spawn fails
        lines = split_lines(doc.text)
        for site in analyse(self.path, lines, 0).sites:
            self.sites.append(_relocate(site, doc))

    def _doc(self, node: cst.CSTNode) -> _Doc | None:
        parts: list[tuple[str, tuple[int, int]]] = []
        for piece in _pieces(node):
            if isinstance(piece, cst.SimpleString):
                parts.extend(_decode(piece.value, self._start(piece)))
            elif isinstance(piece, cst.FormattedStringText):
                parts.extend(_decode_text(piece.value, self._start(piece), raw="r" in _prefix_of(node)))
            elif isinstance(piece, cst.FormattedStringExpression):
                at = self._start(piece)
                parts.extend((ch, at) for ch in "{…}")
            else:
                return None
        return _Doc("".join(ch for ch, _ in parts), [pos for _, pos in parts])

    # --- agents ------------------------------------------------------------------------------

    def leave_Module(self, original_node: cst.Module) -> None:
        # Positions are only available while visiting: read the agents before leaving.
        for key, call in self.agent_entries:
            name = _string_value(key)
            if name:
                self.agent_records.append(self._agent(name, key, call))

    def _agent(self, name: str, key: cst.BaseExpression, call: cst.Call) -> AgentRecord:
        keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
        # AgentDefinition(description, prompt, tools, model): positional arguments in that order
        positional = [a for a in call.args if a.keyword is None and not a.star]
        for field, given in zip(("description", "prompt", "tools"), positional, strict=False):
            keywords.setdefault(field, given)
        known = True
        tools: list[ToolList | None] = []
        for keys in (("tools",), ("disallowedTools", "disallowed_tools")):
            arg = next((keywords[k] for k in keys if k in keywords), None)
            if arg is None or (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                tools.append(None)
                continue
            literal = _string_list(arg.value)
            if literal is None:
                known = False
                tools.append(None)
                continue
            parsed, _problem_text = parse_tool_list(literal, self._start(arg)[0])
            tools.append(parsed)
        prompt = keywords.get("prompt")
        doc = self._doc(prompt.value) if prompt is not None else None
        report: tuple[tuple[int, int], ...] = ()
        mentions = False
        if doc is not None:
            facts = analyse(self.path, split_lines(doc.text), 0)
            mentions = facts.mentions_send_message
            report = tuple(doc.at(line, column) for line, column in facts.report_lines)
        elif prompt is not None:
            known = False
        return AgentRecord(
            path=self.path,
            name=name,
            name_line=self._start(key)[0],
            tools=tools[0],
            disallowed=tools[1],
            mentions_send_message=mentions,
            report_lines=report,
            namespaced=False,
            tools_known=known,
        )


def _relocate(site: SpawnSite, doc: _Doc) -> SpawnSite:
    def move(param: Param | None) -> Param | None:
        if param is None:
            return None
        line, column = doc.at(param.line, param.column)
        value_line, value_column = doc.at(*param.value_position)
        return Param(param.key, param.value, param.kind, line, column, value_line, value_column)

    line, column = doc.at(site.line, site.column)
    return SpawnSite(
        path=site.path,
        line=line,
        column=column,
        form=site.form,
        tool=site.tool,
        subagent_type=move(site.subagent_type),
        name=move(site.name),
        team_name=move(site.team_name),
        prompt=site.prompt,
        confidence=site.confidence,
        told_to_report=site.told_to_report,
    )


def _callee(node: cst.Call) -> str:
    func = node.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return ""


def _string_entries(node: cst.Dict) -> list[tuple[str, cst.BaseExpression, cst.BaseExpression]]:
    """(key text, key node, value node) for each entry with a string-literal key."""
    out = []
    for element in node.elements:
        if isinstance(element, cst.DictElement):
            key = _string_value(element.key)
            if key is not None:
                out.append((key, element.key, element.value))
    return out


def _string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a string literal (concatenations and f-strings with their literal parts)."""
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        return "".join(ch for ch, _ in _decode(node.value, (1, 1)))
    if isinstance(node, cst.ConcatenatedString):
        left, right = _string_value(node.left), _string_value(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, cst.FormattedString):
        out = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                out.append(
                    "".join(ch for ch, _ in _decode_text(part.value, (1, 1), raw="r" in node.prefix.lower()))
                )
            else:
                out.append("{…}")
        return "".join(out)
    return None


def _has_expression(node: cst.CSTNode) -> bool:
    return any(isinstance(p, cst.FormattedStringExpression) for p in _pieces(node))


def _pieces(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The literal pieces of a string expression, in order."""
    if isinstance(node, cst.ConcatenatedString):
        return _pieces(node.left) + _pieces(node.right)
    if isinstance(node, cst.FormattedString):
        return list(node.parts)
    return [node]


def _prefix_of(node: cst.CSTNode) -> str:
    return node.prefix.lower() if isinstance(node, cst.FormattedString) else ""


def _quote(text: str) -> str:
    """Re-quote a string value so classify() reads it as a quoted literal."""
    return '"' + text + '"'


def _string_list(node: cst.BaseExpression) -> list[str] | str | None:
    """A literal list/tuple of strings, or a literal string; None when code computes it."""
    if isinstance(node, (cst.List, cst.Tuple)):
        values = [_string_value(e.value) for e in node.elements if isinstance(e, cst.Element)]
        if len(values) != len(node.elements) or any(v is None for v in values):
            return None
        return [v for v in values if v is not None]
    return _string_value(node)


_ESCAPE = re.compile(
    r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}\n]*\}|[0-7]{1,3}|.)", re.DOTALL
)


def _unescape(escape: str) -> str:
    """The characters one escape sequence stands for (an unknown one, like `\\d`, stays as written)."""
    if escape[1:] in _ESCAPES:
        return _ESCAPES[escape[1:]]
    if escape[1:2] in ("x", "u", "U", "N") or escape[1:2].isdigit():
        try:
            return escape.encode("ascii", "backslashreplace").decode("unicode_escape")
        except (UnicodeDecodeError, ValueError):
            return escape
    return escape


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}
_TOKEN_OPEN = re.compile(r"""^([A-Za-z]*)("{3}|'{3}|"|')""")


def _decode(token: str, start: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
    """Characters of a string token with their source positions (escapes decoded)."""
    m = _TOKEN_OPEN.match(token)
    if m is None:
        return []
    prefix, quote = m.group(1), m.group(2)
    inner = token[m.end() : len(token) - len(quote)]
    line, column = start
    return _decode_text(inner, (line, column + m.end()), raw="r" in prefix.lower())


def _decode_text(text: str, start: tuple[int, int], raw: bool) -> list[tuple[str, tuple[int, int]]]:
    out: list[tuple[str, tuple[int, int]]] = []
    line, column = start
    i = 0
    while i < len(text):
        ch = text[i]
        at = (line, column)
        if ch == "\\" and not raw and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "\n":  # a line continuation inside the string
                line, column, i = line + 1, 1, i + 2
                continue
            escape = _ESCAPE.match(text, i)
            length = escape.end() - i if escape else 2
            decoded = _unescape(text[i : i + length])
            out.extend((c, at) for c in decoded)
            column += length
            i += length
            continue
        out.append((ch, at))
        if ch == "\n":
            line, column = line + 1, 1
        else:
            column += 1
        i += 1
    return out
