"""F2: a header line (`Task:`, `**Agent tool:**`, `Use the Task tool (x):`, `Subagent:`) followed
by indented `key: value` lines, or a bare run of `key: value` lines that holds `subagent_type:`."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Form, Param
from spawnlint.parse.forms import removal, syntax
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import PARAM_KEYS, as_written, classify, is_spawn_params, split_params
from spawnlint.parse.forms.trigger import Paragraphs, Trigger
from spawnlint.parse.text import Block, FormExamples, LineIndex, RawSite, Structure

BLOCK_HEADER = lazy.compile(
    r"^(?P<indent>\s*)(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(?:use\s+(?:the\s+)?)?"
    r"(?:(?P<tool>Task|Agent)(?:\s+tool)?(?:\s+(?:invocation|call|parameters|params))?"
    r"|Subagent)(?:\s*\((?P<type>[^)]*)\))?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_SUBAGENT_KV = lazy.compile(r"^\s*(?:[-*+]\s+)?subagent_type\s*:")
_KV_LINE = lazy.compile(r"^(?P<indent>\s*)(?:[-*+]\s+)?(?P<key>[a-z_]+)\s*:")
# The end of a header line: a colon, perhaps inside bold, then the line's end.
_COLON_AT_END = lazy.compile(r":(?:\*\*|__)?[^\S\n]*$", re.MULTILINE)


def block_header(line: str) -> bool:
    """Whether the line is an F2 header (`Task:`, `**Agent tool:**`, `Subagent (x):`)."""
    return BLOCK_HEADER.match(line) is not None


def _has_block(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A `subagent_type:` line, or a header line (it ends in a colon and holds task or agent,
    read with the recogniser's own pattern)."""
    if "subagent_type" in text:
        return True
    for m in _COLON_AT_END.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.start())
        end = len(text) if end < 0 else end
        if ("task" in low[start:end] or "agent" in low[start:end]) and block_header(text[start:end]):
            return True
    return False


TRIGGER = Trigger(("task", "agent"), _has_block)


def _blocks(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    claimed = set(claims.lines)
    for block in doc.blocks(TRIGGER):
        sites.extend(_in_block(doc.structure, block, claimed))
    return Found(tuple(sites), frozenset(claimed - claims.lines))


def _in_block(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    lines = structure.lines
    sites: list[RawSite] = []
    i = block.start
    while i < block.end:
        if i in claimed:
            i += 1
            continue
        # In a list each item is a paragraph of its own: a block may run on into the next items.
        limit = len(lines) if block.kind == "paragraph" else block.end
        header = BLOCK_HEADER.match(lines[i])
        if header:
            end = _indented_run(lines, i + 1, limit, len(header.group("indent")))
            site = _block_site(structure, block, i, i + 1, end, header, claimed)
            if site:
                sites.append(site)
                i = end
                continue
        if _SUBAGENT_KV.match(lines[i]) and not _a_parameter_of_another(lines, i):
            start, end = _kv_run(lines, i, block.start, limit, claimed)
            site = _block_site(structure, block, start, start, end, None, claimed)
            if site:
                sites.append(site)
                i = end
                continue
        i += 1
    return sites


# `skill: commit-msg-generator` / `params:` / `subagent_type: "from_context"`: a value handed to
# something else (a skill's parameters), not a spawn's
_OTHER_PARAMS = lazy.compile(
    r"^\s*(?:[-*+]\s+)?(?:params|parameters|args|arguments|inputs|with|options|metadata)\s*:\s*$"
)


def _a_parameter_of_another(lines: list[str], at: int) -> bool:
    indent = len(lines[at]) - len(lines[at].lstrip())
    for j in range(at - 1, max(-1, at - 40), -1):
        line = lines[j]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            return _OTHER_PARAMS.match(line) is not None
    return False


def _indented_run(lines: list[str], start: int, stop: int, header_indent: int) -> int:
    end = start
    for j in range(start, stop):
        line = lines[j]
        if not line.strip():
            continue
        if len(line) - len(line.lstrip()) <= header_indent:
            break
        end = j + 1
    return end


def _kv_run(lines: list[str], at: int, lo: int, hi: int, claimed: set[int]) -> tuple[int, int]:
    """The run of `key: value` lines (and lines indented under them) around line `at`."""
    indent = len(lines[at]) - len(lines[at].lstrip())

    def key_at(j: int) -> str | None:
        m = _KV_LINE.match(lines[j])
        if m and len(m.group("indent")) == indent and m.group("key") in PARAM_KEYS:
            return m.group("key")
        return None

    seen = {"subagent_type"}  # a second `subagent_type:` starts the next spawn
    start = at
    while start - 1 >= lo and start - 1 not in claimed and lines[start - 1].strip():
        key = key_at(start - 1)
        if key is None or key in seen:
            break
        seen.add(key)
        start -= 1
    end = at + 1
    while end < hi and end not in claimed and (lines[end].strip() or _continues(lines, end, hi, indent)):
        if not lines[end].strip():
            end += 1
            continue
        key = key_at(end)
        deeper = len(lines[end]) - len(lines[end].lstrip()) > indent
        if key is None and not deeper:
            break
        if key is not None:
            if key in seen:
                break
            seen.add(key)
        end += 1
    return start, end


def _continues(lines: list[str], blank: int, hi: int, indent: int) -> bool:
    """A blank line inside a value indented under its key (a `prompt: |` block with paragraphs)."""
    nxt = next((j for j in range(blank + 1, hi) if lines[j].strip()), None)
    return nxt is not None and len(lines[nxt]) - len(lines[nxt].lstrip()) > indent


def _block_site(
    structure: Structure,
    block: Block,
    site_line: int,
    first: int,
    end: int,
    header: re.Match[str] | None,
    claimed: set[int],
) -> RawSite | None:
    lines = structure.lines
    if end <= first:
        return None
    dedented = [_strip_bullet(lines[j]) for j in range(first, end)]
    text = "\n".join(dedented)
    index = LineIndex(text, first)
    raw = [p for p in split_params(text) if p.key in PARAM_KEYS]
    header_type = header.group("type") if header else None
    if not raw or not (is_spawn_params(raw) or (header_type and header_type.strip())):
        return None
    # A block is YAML: an unquoted word is a string, never a variable.
    params = [_yaml_literal(p) for p in syntax.params_at(tuple(raw), index)]
    if header_type and header_type.strip() and not any(p.key == "subagent_type" for p in params):
        value, kind = classify(header_type)
        column = lines[site_line].find(header_type) + 1
        params.append(Param("subagent_type", value, kind, site_line, column, site_line, column))
    claimed.update(range(site_line, end))
    tool = header.group("tool") if header else None
    tool = tool.capitalize() if tool else None
    column = len(lines[site_line]) - len(lines[site_line].lstrip()) + 1
    return RawSite(Form.F2, site_line, column, tool, tuple(params), block)


def _yaml_literal(param: Param) -> Param:
    kind = as_written(param.kind)
    return Param(param.key, param.value, kind, param.line, param.column, param.value_line, param.value_column)


def _strip_bullet(line: str) -> str:
    """Blank a list marker so `- name: x` reads as `name: x` with columns kept."""
    m = re.match(r"^(\s*)([-*+]\s+)", line)
    return line if m is None else m.group(1) + " " * len(m.group(2)) + line[m.end() :]


BLOCKS = Pass("blocks", (Form.F2,), TRIGGER, _blocks)

# The examples are spawn text on purpose, and spawnlint reads its own source:
# their targets (`shop:critic`) are no agents of this repository.
# spawnlint: ignore-file[SL301]
EXAMPLES = FormExamples(
    Form.F2,
    valid=('Task:\n  subagent_type: "shop:critic"\n  name: "critic-1"\n  prompt: Review the plan.\n',),
    invalid=(
        "Task:\n  Read the file and summarise it.\n",
        # a value handed to a skill, under its `params:`
        'C.1 - Git commit:\n  skill: commit-msg-generator\n  params:\n    subagent_type: "from_context"\n',
    ),
)

SPEC = FormSpec(Form.F2, TRIGGER, removal.written, (EXAMPLES,))
