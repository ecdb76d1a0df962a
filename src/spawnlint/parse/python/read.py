"""Python files, read with the standard library's `ast` and `tokenize` (never imported or executed):
spawn calls, spawn dicts and tool-use blocks, spawn text inside string literals (scanned with the
markdown recognisers, positions mapped back into the file through the string tokens), and
`AgentDefinition` agents.

`bounds.py` decides whether the file is small and shallow enough to give `ast`; `reach.py` finds
the lines where anything could be read, and the walk goes down only into nodes that span one. A
string's tokens (implicit concatenation, escapes, f-strings) are read by tokenizing its own source
when the markdown recognisers need its text."""

from __future__ import annotations

import ast
import bisect
import gc
import sys
import warnings
from collections.abc import Sequence
from dataclasses import replace

from spawnlint.model import (
    AgentRecord,
    Edit,
    FileKind,
    Finding,
    Form,
    Param,
    ParsedFile,
    Problem,
    Severity,
    SpawnSite,
    ToolList,
    ValueKind,
)
from spawnlint.parse.forms.f3_object import EVENT_KEYS, HOOK_INPUT_KEY, TRANSCRIPT_KEY, TRANSCRIPT_ROLES
from spawnlint.parse.forms.registry import could_yield, has_spawn_word, with_removals
from spawnlint.parse.forms.syntax import TooComplex, classify, is_absent
from spawnlint.parse.frontmatter import parse_tool_list
from spawnlint.parse.markdown import analyse
from spawnlint.parse.python.bounds import (
    AST_GUARDS_ITSELF,
    Refused,
    StringToken,
    chains_are_short,
    may_hold_too_many_tokens,
    refusal,
    string_tokens,
)
from spawnlint.parse.python.reach import reached_lines
from spawnlint.parse.python.strings import Doc, decode_token
from spawnlint.send_message import mentions_send_message_tool
from spawnlint.source_lines import split_lines

# A string scanned with the markdown recognisers has 12 characters or more
_SHORTEST_SCANNED = 12


def may_be_scanned(value: str) -> bool:
    """Whether a string's text is given to the markdown recognisers."""
    # the markdown word test, in any case (parse/vocabulary.py's words, never a copy here)
    return len(value) >= _SHORTEST_SCANNED and ("subagent_type" in value or has_spawn_word(value))


def parse_python(path: str, text: str, callables: Sequence[str]) -> ParsedFile:
    lines = split_lines(text)
    # The token pass comes first where ast cannot be trusted with the file (CPython 3.10, or more
    # tokens than MAX_TOKENS may be there); elsewhere only where ast refused the file (to say why
    # in its words) or a logical line is long enough to chain too many operators.
    passed = not AST_GUARDS_ITSELF or may_hold_too_many_tokens(text)
    tokens: list[StringToken] | None = None
    if passed:
        try:
            tokens = string_tokens(text)
        except Refused as exc:
            return _refused(path, str(exc))
    try:
        tree = _ast(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
        why = None if passed else refusal(text)
        return _refused(path, why) if why is not None else _unparsed(path, exc)
    if not passed and not chains_are_short(tree, lines):
        passed = True
        try:
            tokens = string_tokens(text)
        except Refused as exc:
            return _refused(path, str(exc))
    if passed and tokens is None:  # ast read what tokenize could not: no string positions to map back to
        return _untokenized(path)
    reader = _Reader(path, tuple(callables), lines, tokens)
    try:
        reader.read(tree, reached_lines(text, lines))
    except TooComplex as exc:
        return _problem(path, str(exc))
    except Refused as exc:
        return _refused(path, str(exc))
    except _Untokenized:
        return _untokenized(path)
    from spawnlint.parse import suppressions

    return ParsedFile(
        path=path,
        kind=FileKind.PYTHON,
        agents=tuple(reader.agents()),
        sites=tuple(_with_edits(s, lines) for s in sorted(reader.sites, key=lambda s: (s.line, s.column))),
        candidates=tuple(sorted(reader.candidates, key=lambda s: (s.line, s.column))),
        suppressions=suppressions(lines, markdown=False),
    )


class _Untokenized(Exception):
    """tokenize could not read the file that ast did."""


def _ast(text: str) -> ast.Module:
    """The tree, built with the cyclic garbage collector paused: an ast holds no cycles, and the
    collector went through every node ast made while making it (18% of ast.parse on nine copies of
    claude-plugins-official, 40% beside 300,000 live objects such as a project's)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "invalid escape sequence" and the like
            return ast.parse(text)
    finally:
        if collecting:
            gc.enable()


def _untokenized(path: str) -> ParsedFile:
    return _problem(path, "Python file cannot be tokenized; not checked")


def _refused(path: str, why: str) -> ParsedFile:
    return _problem(path, f"file {why}, past what can be parsed safely; not checked")


def _unparsed(path: str, exc: BaseException) -> ParsedFile:
    if isinstance(exc, SyntaxError):
        # a warning: newer Python accepts what an older interpreter running spawnlint calls an
        # error (`except A, B:` in 3.14, a backslash inside an f-string in 3.12)
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        why = f"Python syntax error on line {exc.lineno or 1} ({exc.msg}) as Python {version} reads it"
        return _problem(path, why + "; not checked", Severity.WARNING)
    why = "nests too deep to be parsed" if not isinstance(exc, ValueError) else str(exc)
    return _problem(path, f"Python file cannot be parsed ({why}); not checked")


def _with_edits(site: SpawnSite, lines: list[str]) -> SpawnSite:
    """The site with its edits; a call's or dict's `name`/`team_name` keeps the Python fixer's."""
    done = with_removals(site, lines)
    return replace(done, name=site.name, team_name=site.team_name) if site.form == Form.F10 else done


def _problem(path: str, why: str, severity: Severity | None = None) -> ParsedFile:
    finding = Finding(path, 1, 1, why, severity=severity)
    return ParsedFile(path, FileKind.PYTHON, problems=(Problem("SL002", finding),))


_Func = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class _Reader:
    def __init__(
        self, path: str, callables: tuple[str, ...], lines: list[str], tokens: list[StringToken] | None
    ) -> None:
        """`tokens`: every string token of the file when the token pass ran; otherwise a string's
        tokens are read from its own source when needed."""
        self.path = path
        self.callables = callables
        self.lines = lines
        self.tokens = tokens
        self.token_starts = [t.start for t in tokens] if tokens is not None else []
        self.sites: list[SpawnSite] = []
        self.candidates: list[SpawnSite] = []  # prose naming an agent plainly, for the project to confirm
        self.claimed: set[int] = set()  # ids of nodes already read as part of a spawn
        self.definitions: dict[str, ast.Call] = {}  # variable -> AgentDefinition(...) call
        self.agent_entries: list[tuple[ast.expr, ast.Call]] = []

    # --- positions ---------------------------------------------------------------------------

    def _column(self, line: int, byte_offset: int) -> int:
        """ast's UTF-8 byte offset on a line as the 0-based character column."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "ignore"))

    def _start(self, node: ast.AST) -> tuple[int, int]:
        """1-based line and column where the node starts."""
        line: int = getattr(node, "lineno", 1)
        return line, self._column(line, getattr(node, "col_offset", 0)) + 1

    def _end(self, node: ast.AST) -> tuple[int, int]:
        end_line: int | None = getattr(node, "end_lineno", None)
        line = end_line if end_line is not None else self._start(node)[0]
        end_column: int | None = getattr(node, "end_col_offset", None)
        column = end_column if end_column is not None else 0
        return line, self._column(line, column) + 1

    def _source(self, node: ast.AST) -> str:
        return self._source_between(self._start(node), self._end(node))

    # --- the walk ----------------------------------------------------------------------------

    def read(self, tree: ast.Module, reach: list[int] | None = None) -> None:
        """Every node, parents before children, in the order they are written (no recursion: a
        tree a few thousand levels deep is walked like any other); with `reach` (sorted 1-based
        lines) only the nodes that span one of those lines, and their parents."""
        stack: list[ast.AST] = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._skip_docstring(node)
            elif isinstance(node, ast.Assign):
                self._assign(node)
            elif isinstance(node, ast.Call):
                self._call(node)
            elif isinstance(node, ast.Dict):
                self._dict(node)
            elif isinstance(node, ast.JoinedStr):
                self._scan_string(node)
                continue  # its parts were read as one document
            elif isinstance(node, ast.Constant):
                if isinstance(node.value, (str, bytes)):
                    self._scan_string(node)
                continue  # nothing below it
            children = _children(node)
            if reach is not None:
                children = _reaching(children, reach)
            stack.extend(reversed(children))

    def _skip_docstring(self, node: ast.Module | _Func) -> None:
        """A docstring describes code; it instructs no model, so it holds no spawn site. (Only
        that of a block on its own lines: `def f(): "x"` is a statement like any other.)"""
        first = node.body[0] if node.body else None
        if not isinstance(first, ast.Expr):
            return
        if not isinstance(node, ast.Module):
            line = self.lines[first.lineno - 1] if first.lineno <= len(self.lines) else ""
            if line.encode("utf-8")[: first.col_offset].strip():
                return  # the statement follows the colon on its line
        self.claimed.add(id(first.value))

    def _assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Call) and _callee(node.value).endswith("AgentDefinition"):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.definitions[target.id] = node.value

    # --- calls -------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> None:
        callee = _callee(node)
        if not any(callee == c or callee.endswith(c) for c in self.callables):
            return
        keywords = {k.arg: k for k in node.keywords if k.arg is not None}
        if "subagent_type" not in keywords and not ("description" in keywords and "prompt" in keywords):
            return  # Agent(name=..., instructions=...) of other frameworks is not a spawn
        params = {key: self._param(key, arg, arg.value) for key, arg in keywords.items()}
        tool = callee if callee in ("Agent", "Task") else None
        prompt = keywords.get("prompt")
        self._add_site(node, tool, params, _string_value(prompt.value) if prompt else None)
        for value in [*node.args, *(k.value for k in node.keywords)]:
            self.claimed.add(id(value))
            if isinstance(value, ast.Starred):
                self.claimed.add(id(value.value))

    def _param(self, key: str, key_node: ast.AST, value: ast.expr) -> Param:
        line, column = self._start(key_node)
        value_line, value_column = self._start(value)
        text = _string_value(value)
        if isinstance(value, ast.Constant) and value.value is None:
            text, kind = "", ValueKind.LITERAL  # name=None is no name
        elif text is None:
            kind = ValueKind.DYNAMIC
            text = self._source(value)
        elif isinstance(value, ast.JoinedStr) and any(
            isinstance(v, ast.FormattedValue) for v in value.values
        ):
            kind = ValueKind.DYNAMIC
        else:
            text, kind = classify('"' + text + '"')  # re-quoted: classify reads a quoted literal
        param = Param(key, text, kind, line, column, value_line, value_column)
        if key in ("name", "team_name"):
            # what the Python fixer (libcst, at --fix time) deletes: the keyword or the entry
            end_line, end_column = self._closing((value_line, value_column), self._end(value), (line, column))
            old = self._source_between((line, column), (end_line, end_column))
            edit = Edit(self.path, line, column, end_line, end_column, old, python_node=True)
            param = Param(key, text, kind, line, column, value_line, value_column, removal=(edit,))
        return param

    def _closing(self, start: tuple[int, int], end: tuple[int, int], key: tuple[int, int]) -> tuple[int, int]:
        """Past the parentheses around a value (ast's position leaves them out: `name=("a" "b")`)."""
        opened = self._source_between(key, start).count("(")
        line, column = end
        while opened and 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            rest = text[column - 1 :]
            stripped = rest.lstrip()
            if not stripped.startswith(")"):
                break  # the value goes on past a line end or a comment: left as ast gives it
            column += len(rest) - len(stripped) + 1
            opened -= 1
        return line, column

    def _source_between(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        (line, column), (end_line, end_column) = start, end
        if line == end_line:
            return self.lines[line - 1][column - 1 : end_column - 1]
        middle = self.lines[line : end_line - 1]
        return "\n".join(
            [self.lines[line - 1][column - 1 :], *middle, self.lines[end_line - 1][: end_column - 1]]
        )

    def _add_site(
        self, node: ast.AST, tool: str | None, params: dict[str, Param], prompt: str | None
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
                form=Form.F10,
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

    def _dict(self, node: ast.Dict) -> None:
        entries = _string_entries(node)
        for _text, key, value in entries:
            if isinstance(value, ast.Call) and _callee(value).endswith("AgentDefinition"):
                self.agent_entries.append((key, value))
            elif isinstance(value, ast.Name) and value.id in self.definitions:
                self.agent_entries.append((key, self.definitions[value.id]))
        if id(node) in self.claimed:
            return
        by_key = {text: value for text, _key, value in entries}
        if _recorded(by_key):
            self.claimed.update(id(inner) for inner in ast.walk(node))
            return  # a transcript line or a hook's input: a call made, not one to make
        tool_input = by_key.get("input")
        tool_name = _string_value(by_key.get("name"))
        if _string_value(by_key.get("type")) == "tool_use" and tool_name in ("Agent", "Task"):
            if isinstance(tool_input, ast.Dict):
                # The outer "name" is the tool's name; the spawn's name is input["name"].
                self.claimed.add(id(tool_input))
                self._dict_site(tool_input, tool_name)
            return
        if "subagent_type" in by_key and not ("prompt" not in by_key and by_key.keys() & EVENT_KEYS):
            self._dict_site(node, None)

    def _dict_site(self, node: ast.Dict, tool: str | None) -> None:
        params = {}
        for text, key, value in _string_entries(node):
            params[text] = self._param(text, key, value)
            self.claimed.add(id(value))
        prompt = params.get("prompt")
        self._add_site(node, tool, params, prompt.value if prompt else None)

    # --- strings -----------------------------------------------------------------------------

    def _scan_string(self, node: ast.Constant | ast.JoinedStr) -> None:
        if id(node) in self.claimed:
            return
        value = _string_value(node)
        if value is None or not may_be_scanned(value) or not could_yield(value):
            return  # could_yield: the markdown body test, which no string with a spawn fails
        doc = self._doc(node)
        if doc is None or (doc.text != value and not (may_be_scanned(doc.text) and could_yield(doc.text))):
            return
        facts = analyse(self.path, split_lines(doc.text), 0)
        self.sites.extend(_relocate(site, doc) for site in facts.sites)
        self.candidates.extend(_relocate(site, doc) for site in facts.candidates)

    def _doc(self, node: ast.AST) -> Doc | None:
        """The string's text with the position of each character, read from its tokens."""
        if not (
            isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))
        ):
            return None
        line, column = self._start(node)
        end = self._end(node)
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        for token in self._string_tokens((line, column - 1), (end[0], end[1] - 1)):
            decode_token(token.text, (token.start[0], token.start[1] + 1), chars, positions)
        if not positions and _string_value(node):
            return None
        return Doc("".join(chars), positions)

    def _string_tokens(self, start: tuple[int, int], stop: tuple[int, int]) -> list[StringToken]:
        """The string tokens that start from `start` up to `stop` (1-based lines, 0-based
        columns): from the file's token pass, or by tokenizing that source alone (in brackets, so
        that its line ends and indents mean nothing)."""
        if self.tokens is None:
            source = self._source_between((start[0], start[1] + 1), (stop[0], stop[1] + 1))
            found = string_tokens("(" + source + ")")
            if found is not None:
                return [_moved(token, start) for token in found]
            tokens = string_tokens("\n".join(self.lines))  # never seen: the file's own tokens
            if tokens is None:
                raise _Untokenized
            self.tokens, self.token_starts = tokens, [t.start for t in tokens]
        i = bisect.bisect_left(self.token_starts, start)
        out = []
        while i < len(self.tokens) and self.tokens[i].start < stop:
            out.append(self.tokens[i])
            i += 1
        return out

    # --- agents ------------------------------------------------------------------------------

    def agents(self) -> list[AgentRecord]:
        out = []
        for key, call in self.agent_entries:
            name = _string_value(key)
            if name:
                out.append(self._agent(name, key, call))
        return out

    def _agent(self, name: str, key: ast.expr, call: ast.Call) -> AgentRecord:
        given: dict[str, tuple[ast.AST, ast.expr]] = {
            k.arg: (k, k.value) for k in call.keywords if k.arg is not None
        }
        # AgentDefinition(description, prompt, tools, model): positional arguments in that order
        positional = [a for a in call.args if not isinstance(a, ast.Starred)]
        for name_of, value in zip(("description", "prompt", "tools"), positional, strict=False):
            given.setdefault(name_of, (value, value))
        known = True
        tools: list[ToolList | None] = []
        for keys in (("tools",), ("disallowedTools", "disallowed_tools")):
            arg = next((given[k] for k in keys if k in given), None)
            if arg is None or (isinstance(arg[1], ast.Constant) and arg[1].value is None):
                tools.append(None)
                continue
            literal = _string_list(arg[1])
            if literal is None:
                known = False
                tools.append(None)
                continue
            parsed, _problem_text = parse_tool_list(literal, self._start(arg[0])[0])
            tools.append(parsed)
        prompt = given.get("prompt")
        doc = self._doc(prompt[1]) if prompt is not None else None
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


# Nodes with nothing below them that the reader looks at: not pushed at all (half of a module's).
_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Name)


def _children(node: ast.AST) -> list[ast.AST]:
    """The node's children in the order they are written (leaves left out)."""
    if isinstance(node, ast.Dict):
        out: list[ast.AST] = []
        for key, value in zip(node.keys, node.values, strict=True):
            if key is not None:
                out.append(key)
            out.append(value)
        return out
    if isinstance(node, ast.Call):
        arguments: list[ast.AST] = [*node.args, *node.keywords]
        if len(arguments) > 1:
            arguments.sort(key=lambda a: (getattr(a, "lineno", 0), getattr(a, "col_offset", 0)))
        return [node.func, *arguments]
    out = []
    for name in node._fields:
        child = getattr(node, name, None)
        if isinstance(child, list):
            out.extend(v for v in child if isinstance(v, ast.AST) and not isinstance(v, _LEAVES))
        elif isinstance(child, ast.AST) and not isinstance(child, _LEAVES):
            out.append(child)
    return out


def _reaching(nodes: list[ast.AST], reach: list[int]) -> list[ast.AST]:
    """The nodes whose lines (their decorators' included) hold one of `reach`; a node without a
    position (arguments, comprehensions, match cases) is always gone into."""
    if not reach:
        return []
    kept = []
    last_reached = reach[-1]
    for node in nodes:
        first: int | None = getattr(node, "lineno", None)
        if first is None:
            kept.append(node)
            continue
        if type(node) in _DECORATED and node.decorator_list:  # type: ignore[attr-defined]
            first = node.decorator_list[0].lineno  # type: ignore[attr-defined]
        if first > last_reached:
            continue
        if reach[bisect.bisect_left(reach, first)] <= (getattr(node, "end_lineno", None) or first):
            kept.append(node)
    return kept


_DECORATED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


def _moved(token: StringToken, start: tuple[int, int]) -> StringToken:
    """A token of `"(" + source` as it stands in the file, where that source starts at `start`."""
    (line, column), (end_line, end_column) = token.start, token.end
    if line == 1:
        column += start[1] - 1
    if end_line == 1:
        end_column += start[1] - 1
    return StringToken((line + start[0] - 1, column), (end_line + start[0] - 1, end_column), token.text)


def _relocate(site: SpawnSite, doc: Doc) -> SpawnSite:
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


def _recorded(by_key: dict[str, ast.expr]) -> bool:
    """A dict that records a call (F3's records, read the same way): a transcript line
    (`{"type": "assistant", "message": {...}}`) or a hook's input (`"tool_input": {...}`)."""
    return HOOK_INPUT_KEY in by_key or (
        _string_value(by_key.get("type")) in TRANSCRIPT_ROLES and TRANSCRIPT_KEY in by_key
    )


def _callee(node: ast.Call) -> str:
    """The name called, or the attribute (`client.Agent` -> `Agent`)."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _string_entries(node: ast.Dict) -> list[tuple[str, ast.expr, ast.expr]]:
    """(key text, key node, value node) for each entry with a string-literal key."""
    out = []
    for key, value in zip(node.keys, node.values, strict=True):
        text = _string_value(key)
        if key is not None and text is not None:
            out.append((text, key, value))
    return out


def _string_value(node: ast.AST | None) -> str | None:
    """The value of a string literal (an f-string with `{…}` for each expression); None for
    anything else."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return node.value
        if isinstance(node.value, bytes):
            return node.value.decode("latin-1")
        return None
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{…}"
            for v in node.values
        )
    return None


def _string_list(node: ast.expr) -> list[str] | str | None:
    """A literal list/tuple of strings, or a literal string; None when code computes it."""
    if isinstance(node, (ast.List, ast.Tuple)):
        values = [_string_value(e) for e in node.elts]
        if any(v is None for v in values):
            return None
        return [v for v in values if v is not None]
    return _string_value(node)
