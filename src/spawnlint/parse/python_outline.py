"""Which Python files need libcst. The standard library's parser (C, ~50 times faster than
libcst's tree walks; it imports and executes nothing) outlines the file, and a file where no
node could give libcst's reader (python.py) a spawn site or an agent is not given to it: no call
to a spawn callable or `AgentDefinition`, no dict keyed `subagent_type` or typed `tool_use`, no
string that the markdown recognisers could find a spawn in. Each test is a necessary condition
of python.py's; anything the outline cannot read goes to libcst, which says why."""

from __future__ import annotations

import ast
import re
import warnings

from spawnlint.parse.prefilter import could_yield
from spawnlint.parse.spawn_syntax import split_lines

# libcst's native parser kills the process at about 1,500 nested brackets: refuse far sooner.
MAX_NESTING = 200
# A string python.py scans with the markdown recognisers holds one of these (and 12 characters).
STRING_CUES = re.compile(
    r"subagent_type|\bAgent\b|\bTask\b|spawn|teammate|sub-?agent|launch|dispatch", re.IGNORECASE
)
_SHORTEST_SCANNED = 12
_BRACE = re.compile("[{}]")


def needs_cst(text: str, callables: tuple[str, ...]) -> bool:
    """Whether libcst's reading of the file could find a spawn site or an agent in it (or must
    say why it cannot read it)."""
    if sum(text.count(c) for c in "([{") > MAX_NESTING and max_nesting(text) > MAX_NESTING:
        return True  # python.py refuses it with a problem
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "invalid escape sequence" and the like
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # libcst reports the syntax error (or reads what this Python cannot)
    docstrings = _docstrings(tree, text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if _spawn_call(node, callables):
                return True
        elif isinstance(node, ast.Dict):
            if any(_spawn_key(key, value) for key, value in zip(node.keys, node.values, strict=True)):
                return True
        elif id(node) in docstrings:
            continue  # a docstring describes code: python.py does not scan it
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            value = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if _string_spawns(value):
                return True
        elif isinstance(node, ast.JoinedStr):
            document = _f_string_document(node)
            if document is None or _string_spawns(document):
                return True
    return False


def _spawn_call(node: ast.Call, callables: tuple[str, ...]) -> bool:
    """A call python.py reads: `AgentDefinition(...)` (an agent), or a spawn callable given a
    `subagent_type`, or a `description` and a `prompt`."""
    callee = _callee(node)
    if not callee:
        return False
    if callee.endswith("AgentDefinition"):
        return True
    if not any(callee.endswith(c) for c in callables):
        return False
    keywords = {k.arg for k in node.keywords if k.arg}
    return "subagent_type" in keywords or {"description", "prompt"} <= keywords


def _docstrings(tree: ast.Module, text: str) -> set[int]:
    """The ids of the docstring nodes python.py skips: the module's, and those of classes and
    functions whose body is an indented block (`def f(): "x"` on one line is scanned)."""
    lines: list[str] | None = None
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0] if node.body else None
        if not isinstance(first, ast.Expr):
            continue
        if not isinstance(node, ast.Module):
            lines = lines if lines is not None else split_lines(text)
            before = (
                lines[first.lineno - 1].encode("utf-8")[: first.col_offset]
                if first.lineno <= len(lines)
                else b""
            )
            if before.strip():
                continue  # the statement follows the colon on its line
        found.add(id(first.value))
    return found


def _string_spawns(text: str) -> bool:
    """Whether python.py's scan of a string would find a spawn site in it: the markdown
    recognisers run here on the string's text (its positions in the file need libcst)."""
    if not (may_be_scanned(text) and could_yield(text)):
        return False
    from spawnlint.parse.markdown import analyse

    try:
        return bool(analyse("string", split_lines(text), 0).sites)
    except Exception:  # noqa: BLE001 - TooComplex, or a fault of ours: python.py reports it
        return True


def _f_string_document(node: ast.JoinedStr) -> str | None:
    """The text python.py scans for an f-string: its literal text, `{…}` for each expression;
    None when braces in the text (`{{`) leave that uncertain."""
    out = []
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            out.append("{…}")
        elif isinstance(part, ast.Constant) and isinstance(part.value, str) and not _BRACE.search(part.value):
            out.append(part.value)
        else:
            return None
    return "".join(out)


def _callee(node: ast.Call) -> str:
    """python.py's callee: the name called, or the attribute (`client.Agent` -> `Agent`)."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _spawn_key(key: ast.expr | None, value: ast.expr) -> bool:
    """An entry of a spawn dict (`"subagent_type": ...`) or of a tool-use block
    (`"type": "tool_use"`); an f-string key is not read here."""
    if isinstance(key, ast.JoinedStr):
        return True
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return False
    if key.value == "subagent_type":
        return True
    return key.value == "type" and (
        isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and value.value == "tool_use")
    )


def may_be_scanned(value: str) -> bool:
    """Whether python.py gives a string's text to the markdown recognisers."""
    return len(value) >= _SHORTEST_SCANNED and STRING_CUES.search(value) is not None


def max_nesting(text: str) -> int:
    """How deep brackets nest in the code (strings and comments skipped)."""
    depth = deepest = 0
    quote: str | None = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            if ch == "\n" and len(quote) == 1:
                quote = None
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        elif ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest
