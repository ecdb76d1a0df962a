"""Command, skill, agent and reference markdown: the block structure (markdown-it-py), the
spawn sites of forms F1–F5 and F9, sentences for the no-name rule, sections, and what an
agent's body says about reporting."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from spawnlint.model import Param, Section, Sentence, SpawnSite, ValueKind, section_of
from spawnlint.parse.rule_sentence import is_rule_sentence
from spawnlint.parse.spawn_syntax import (
    PARAM_KEYS,
    LineIndex,
    RawParam,
    as_written,
    classify,
    find_calls,
    find_objects,
    is_absent,
    is_spawn_params,
    split_lines,
    split_params,
)

# Only the block structure is needed: skip the inline pass (emphasis, links), a fifth of the time.
_MD = MarkdownIt("commonmark").disable("inline")

_BLOCK_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)?(?:use\s+(?:the\s+)?)?"
    r"(?:(?P<tool>Task|Agent)(?:\s+tool)?(?:\s+(?:invocation|call|parameters|params))?"
    r"|Subagent)(?:\s*\((?P<type>[^)]*)\))?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_KV_LINE = re.compile(r"^(?P<indent>\s*)(?:[-*+]\s+)?(?P<key>[a-z_]+)\s*:")
_SUBAGENT_KV = re.compile(r"^\s*(?:[-*+]\s+)?subagent_type\s*:")
_PARAM_ITEM = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:`|\*\*|__)?(?P<key>[a-z_]+)(?:`|\*\*|__)?"
    r"(?:\s*(?:[:=—–]|-\s|\bis\b|\bset to\b|\bas\b))?\s*(?P<value>.*)$"
)
# `` - `subagent_type: x` ``, also behind a short label: `` - Native path: `subagent_type: x` ``
_PARAM_ITEM_INLINE = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[\w*][\w *-]{0,30}:\s+)?`(?P<key>[a-z_]+)\s*[:=]\s*(?P<value>[^`]*)`"
)
_TOOL_MENTION = re.compile(
    r"\b(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?\s+tool\b|`(?:Agent|Task)`|\b(?:Agent|Task)\s*\("
    r"|\btool\s+`?(?:Agent|Task)\b"
)
_SPAWN_VERB = re.compile(
    r"\b(?:spawn|launch|dispatch|start|invoke|delegate|create|run|call|use)\w*\b", re.IGNORECASE
)
_AGENT_WORD = re.compile(r"\b(?:sub-?agents?|agents?|teammates?|workers?)\b", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_SPAN_KV = re.compile(r"^\s*([a-z_]+)\s*[=:]\s*(.+?)\s*$", re.DOTALL)
_BARE_KV = re.compile(
    r"""\b(?P<key>subagent_type|name)\s*[:=]\s*(?P<value>"[^"\n]+"|'[^'\n]+'|[\w:.-]+(?=[\s,.;)]|$))"""
)
_SPAN_KEY_THEN_VALUE = re.compile(
    r"`(?P<key>subagent_type|name|team_name)`\s*(?:set\s+to|=|:|as|of|to)\s*`(?P<value>[^`\n]+)`"
)
_FORBID = re.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|mustn[’']?t|without|omit\w*|no)\b", re.IGNORECASE
)
_NEGATED_VALUE = re.compile(
    r"^\W*(?:omit\w*|none|n/a|never|do\s+not|don[’']?t|not\s+set|leave\b|unset|no\b|-\s*$)",
    re.IGNORECASE,
)
_COUNTER_EMOJI = re.compile(r"❌|✗|✘|🚫|⛔|👎")
_LEADING_EMOJI = re.compile(r"^[\s>*#+|`/<!\-]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*(?:❌|✗|✘|🚫|⛔|👎)")
_COUNTER_LABEL = re.compile(
    r"^[\s#>*_\-+|`/<!]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*"
    r"(?P<word>wrong|bad|incorrect|broken|anti-?patterns?|avoid|don[’']?t|do\s+not|never)\b"
    r"|\b(?:wrong|bad|incorrect)\s*(?::|\)|—|–|-\s)|\banti-?patterns?\b|\bWRONG\b|\bINCORRECT\b",
    re.IGNORECASE,
)
_WEAK_WORDS = frozenset({"avoid", "don't", "don’t", "dont", "do not", "never"})
_TRAILING_COUNTER = re.compile(r"(?:#|//|<!--)\s*(?:❌|wrong|bad|incorrect|don[’']?t|never)\b", re.IGNORECASE)
_COMMENT_LINE = re.compile(r"^\s*(?:#|//|<!--|--|/\*|\*)")
_SEND_MESSAGE = re.compile(r"\bSendMessage\b")
_NOT_THE_TOOL = re.compile(
    r"\.\s*SendMessage\b|\bSendMessage\s*\(\s*[\"'][A-Z]|SendMessageOptions|SendMessageUpwards"
    r"|\bgameObject\b|MonoBehaviour|\bUnity\b",
)
_NEGATED_BEFORE = re.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|without|not|no)\b[^.;:!?]{0,60}$", re.IGNORECASE
)
_REPORT_WORDS = re.compile(
    r"\b(?:report|send|return|deliver|notify|reply|respond|result|results|finding|findings|answer"
    r"|summary|lead|team-lead|parent|orchestrator|coordinator|main|message|use|call|tool)\b",
    re.IGNORECASE,
)
_HEADING_IN_TEXT = re.compile(r"^\s{0,3}(#{1,6})\s")


@dataclass(frozen=True)
class Block:
    kind: str  # "fence", "code", "paragraph", "html"
    start: int  # 0-based index of the first line of the block's text
    end: int  # 0-based, exclusive
    fence_open: int | None  # 0-based line of the opening fence, for "fence"


@dataclass(frozen=True)
class Structure:
    lines: list[str]
    blocks: tuple[Block, ...]
    headings: tuple[tuple[int, int, str], ...]  # (0-based line, level, text)
    leads: tuple[tuple[Block, tuple[tuple[int, int], ...]], ...]  # paragraph, its list's items


@dataclass(frozen=True)
class MarkdownFacts:
    sites: tuple[SpawnSite, ...]
    sentences: tuple[Sentence, ...]
    sections: tuple[Section, ...]
    mentions_send_message: bool
    report_lines: tuple[tuple[int, int], ...]


def analyse(path: str, lines: list[str], body_start: int) -> MarkdownFacts:
    """Everything the markdown body (lines from `body_start`, 0-based) says."""
    blanked = [""] * body_start + lines[body_start:]
    structure = _structure(blanked)
    sections = _sections(structure)
    raw_sites = _find_sites(structure)
    told: dict[Section | None, bool] = {}  # per section: does it name the SendMessage tool?
    sites = tuple(
        _to_site(path, structure, sections, raw, told)
        for raw in raw_sites
        if not _is_counter_example(structure, raw)
    )
    body = "\n".join(blanked)
    return MarkdownFacts(
        sites=tuple(sorted(sites, key=lambda s: (s.line, s.column))),
        sentences=tuple(_sentences(structure)),
        sections=sections,
        mentions_send_message=mentions_send_message_tool(body),
        report_lines=_report_lines(structure),
    )


# --- structure -------------------------------------------------------------------------------


def _structure(lines: list[str]) -> Structure:
    tokens = _MD.parse("\n".join(lines))
    blocks: list[Block] = []
    headings: list[tuple[int, int, str]] = []
    leads: list[tuple[Block, tuple[tuple[int, int], ...]]] = []
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type == "fence":
            closed = b - a >= 2 and lines[b - 1].strip().startswith(tok.markup)
            blocks.append(Block("fence", a + 1, b - 1 if closed else b, a))
        elif tok.type == "code_block":
            blocks.append(Block("code", a, b, None))
        elif tok.type == "html_block":
            blocks.append(Block("html", a, b, None))
        elif tok.type == "paragraph_open":
            block = Block("paragraph", a, b, None)
            blocks.append(block)
            items = _following_list_items(tokens, i)
            if items:
                leads.append((block, items))
        elif tok.type == "heading_open" and i + 1 < len(tokens):
            headings.append((a, int(tok.tag[1:]), tokens[i + 1].content))
    return Structure(lines, tuple(blocks), tuple(headings), tuple(leads))


def _following_list_items(tokens: list[Token], i: int) -> tuple[tuple[int, int], ...]:
    """The (start, end) lines of the items of a list that directly follows paragraph i."""
    j = i + 1
    while j < len(tokens) and tokens[j].type != "paragraph_close":
        j += 1
    j += 1
    if j >= len(tokens) or tokens[j].type not in ("bullet_list_open", "ordered_list_open"):
        return ()
    level = tokens[j].level + 1
    items: list[tuple[int, int]] = []
    for tok in tokens[j + 1 :]:
        if tok.level < level:
            break
        if tok.type == "list_item_open" and tok.level == level and tok.map:
            items.append((tok.map[0], tok.map[1]))
    return tuple(items)


def _sections(structure: Structure) -> tuple[Section, ...]:
    n = len(structure.lines)
    heads = structure.headings
    sections = [Section(1, (heads[0][0] if heads else n), 0)] if (not heads or heads[0][0] > 0) else []
    for k, (line, level, _text) in enumerate(heads):
        end = n
        for later_line, later_level, _ in heads[k + 1 :]:
            if later_level <= level:
                end = later_line
                break
        sections.append(Section(line + 1, max(line + 1, end), level))
    return tuple(sections)


# --- spawn sites -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RawSite:
    form: str
    line: int  # 0-based
    column: int  # 1-based
    tool: str | None
    params: tuple[Param, ...]
    block: Block
    confidence: str = "high"


def _find_sites(structure: Structure) -> list[RawSite]:
    sites: list[RawSite] = []
    claimed: set[int] = set()  # 0-based lines already holding a structured site's parameters
    for block in structure.blocks:
        sites.extend(_structured_sites(structure, block, claimed))
    for lead, items in structure.leads:
        site = _param_bullets(structure, lead, items, claimed)
        sites.extend(site)
    for block in structure.blocks:
        if block.kind == "paragraph":
            sites.extend(_table_sites(structure, block, claimed))
    for block in structure.blocks:
        if block.kind == "paragraph":
            sites.extend(_inline_param_sites(structure, block, claimed))
    structured_lines = {s.line for s in sites}
    for block in _leads_of(structure, structured_lines):
        claimed.update(range(block.start, block.end))
    sites.extend(_prose_sites(structure, claimed))
    return sites


# Prose in a fence is an instruction quoted for the lead ("send it this verbatim"); a markdown
# fence holds an example document, and a fence after "For example:" a sample to read.
_PROSE_FENCES = frozenset({"", "text", "txt", "prompt", "plaintext"})
_EXAMPLE_LEAD = re.compile(
    r"\b(?:for\s+example|e\.g\.|example|sample|for\s+instance|such\s+as|you\s+can\s+(?:say|type|ask)"
    r"|tell\s+claude|ask\s+claude|natural\s+language)\b",
    re.IGNORECASE,
)


def _prose_blocks(structure: Structure) -> list[Block]:
    return [b for b in structure.blocks if b.kind == "paragraph" or _quoted_instruction(structure, b)]


def _quoted_instruction(structure: Structure, block: Block) -> bool:
    if block.kind != "fence" or block.fence_open is None:
        return False
    if _fence_info(structure, block) not in _PROSE_FENCES:
        return False
    lead = _previous_nonblank(structure.lines, block.fence_open - 1, max(0, block.fence_open - 3))
    return lead is None or not _EXAMPLE_LEAD.search(structure.lines[lead])


def _fence_info(structure: Structure, block: Block) -> str:
    assert block.fence_open is not None
    return structure.lines[block.fence_open].strip().lstrip("`~").strip().split(" ")[0].lower()


def _leads_of(structure: Structure, site_lines: set[int]) -> list[Block]:
    """Paragraphs that introduce a structured spawn right below them (`Spawn the critic:` and
    then the call): the same spawn, so their prose is not a second site."""
    leads = []
    list_leads = {lead.start for lead, _items in structure.leads}
    ordered = sorted(structure.blocks, key=lambda b: b.start)
    starts = [b.start for b in ordered]
    for block in (b for b in ordered if b.kind == "paragraph"):
        nxt = block.end
        while nxt < len(structure.lines) and not structure.lines[nxt].strip():
            nxt += 1
        # the block holding line nxt (a fence's text starts a line after its opening marker)
        k = bisect_right(starts, nxt + 1) - 1
        following = ordered[k] if k >= 0 and ordered[k].end > nxt else None
        if following is None or following is block:
            continue
        introduces = (
            structure.lines[block.end - 1].rstrip().endswith(":")
            or following.kind != "paragraph"
            or block.start in list_leads
        )
        if not introduces:
            continue  # "3. Spawn a `team-lead` agent" before "4. Use the Agent tool:" is its own spawn
        if any(line in site_lines for line in range(following.start - 1, following.end)):
            leads.append(block)
    return leads


def _prose_sites(structure: Structure, claimed: set[int]) -> list[RawSite]:
    """F7 lists, then F6/F8 sentences, in text outside the structured sites."""
    from spawnlint.parse.prose import find_prose_spawns

    lines = structure.lines
    sites: list[RawSite] = []
    examples = _example_lines(lines)
    for lead, items in structure.leads:
        if lead.start in claimed or lead.start in examples:
            continue
        sentences = _split_sentences(lines, lead.start, lead.end)
        if not sentences:
            continue
        found = _list_spawns(structure, sentences[-1], lead, items, claimed)
        if found:
            sites.extend(found)
            claimed.update(range(lead.start, lead.end))
            claimed.update(line for a, b in items for line in range(a, b))
    for block in _prose_blocks(structure):
        for sentence in _block_sentences(structure, block):
            if any(
                j - 1 in claimed or j - 1 in examples for j in range(sentence.line, sentence.end_line + 1)
            ):
                continue
            if block.kind == "fence" and re.match(r"^[\w-]+:\s", sentence.text):
                continue  # a YAML line in a fence, not an instruction
            if is_rule_sentence(sentence.text, require_mechanism=False):
                continue  # the no-name rule itself ("spawn agents without `name`") is no spawn
            index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
            for spawn in find_prose_spawns(sentence.text):
                line, column = index.position(spawn.offset)
                params = []
                if spawn.target:
                    t_line, t_col = index.position(spawn.target_offset)
                    params.append(
                        Param("subagent_type", spawn.target, ValueKind.LITERAL, t_line, t_col, t_line, t_col)
                    )
                if spawn.name:
                    n_line, n_col = index.position(spawn.name_offset)
                    value, kind = classify(spawn.name)
                    kind = as_written(kind)
                    params.append(Param("name", value, kind, n_line, n_col, n_line, n_col))
                sites.append(RawSite(spawn.form, line, column, None, tuple(params), block, "medium"))
    return sites


def _list_spawns(
    structure: Structure,
    lead_sentence: Sentence,
    lead: Block,
    items: tuple[tuple[int, int], ...],
    claimed: set[int],
) -> list[RawSite]:
    """F7 (`Spawn three subagents:` + one bullet per agent) and F8 whose teammates are the
    bullets (`Create a team with one teammate per name below:` + `` - `frontend` ``)."""
    from spawnlint.parse.prose import bullet_reference, spawn_lead, team_verb, teammate_names

    lines = structure.lines
    text = lead_sentence.text
    index = LineIndex(text, lead_sentence.line - 1, lead_sentence.column)
    verb = team_verb(text)
    if verb is not None and teammate_names(text, verb.end()):
        return []  # the sentence names its teammates itself: one F8 site per name, not a list
    if verb is not None:
        line, column = index.position(verb.start())
        sites = []
        for a, _end in items:
            ref = bullet_reference(lines[a], strong_lead=True)
            if ref is not None and a not in claimed:
                name, at = ref
                param = Param("name", name, ValueKind.LITERAL, a, at + 1, a, at + 1)
                sites.append(RawSite("F8", line, column, None, (param,), lead, "medium"))
        return sites
    strength = spawn_lead(text)
    if strength is None:
        return []
    sites = []
    for a, _end in items:
        ref = bullet_reference(lines[a], strong_lead=strength == "strong")
        if ref is not None and a not in claimed:
            name, at = ref
            value, kind = classify(name)
            kind = as_written(kind)
            target = Param("subagent_type", value, kind, a, at + 1, a, at + 1)
            sites.append(RawSite("F7", a, at + 1, None, (target,), lead, "medium"))
    return sites


def _block_sentences(structure: Structure, block: Block) -> list[Sentence]:
    """Sentences of a paragraph; of a fence or code block, paragraph by blank-line paragraph."""
    if block.kind == "paragraph":
        return _split_sentences(structure.lines, block.start, block.end)
    out: list[Sentence] = []
    start = block.start
    for j in range(block.start, block.end + 1):
        if j == block.end or not structure.lines[j].strip():
            if j > start:
                out.extend(_split_sentences(structure.lines, start, j))
            start = j + 1
    return out


def _example_lines(lines: list[str]) -> set[int]:
    """Lines inside `<example>` ... `</example>` (and `<commentary>` ... `</commentary>`, often
    nested in them): dialogues that show delegation, not spawns."""
    inside: set[int] = set()
    depth = {"example": 0, "commentary": 0}
    for j, line in enumerate(lines):
        tags = re.findall(r"<(/?)(example|commentary)>", _CODE_SPAN.sub("", line), re.IGNORECASE)
        for closing, tag in tags:  # a tag named in `code` opens nothing
            if not closing:
                depth[tag.lower()] += 1
        if any(depth.values()):
            inside.add(j)
        for closing, tag in tags:
            if closing:
                depth[tag.lower()] = max(0, depth[tag.lower()] - 1)
    return inside


def _structured_sites(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F1 calls, F3 objects and F2 blocks inside one block of text."""
    text = "\n".join(structure.lines[block.start : block.end])
    index = LineIndex(text, block.start)
    sites: list[RawSite] = []
    calls = find_calls(text)
    covered = [(m.start, m.end) for m in calls]
    objects = find_objects(text, covered)
    covered += [(m.start, m.end) for m in objects]
    for form, matches in (("F1", calls), ("F3", objects)):
        for m in matches:
            first, column = index.position(m.start)
            last, _ = index.position(m.end - 1)
            claimed.update(range(first, last + 1))
            sites.append(RawSite(form, first, column, m.tool, _params(m.params, index), block))
    sites.extend(_blocks(structure, block, claimed))
    return sites


def _params(raw: tuple[RawParam, ...], index: LineIndex) -> tuple[Param, ...]:
    out = []
    for p in raw:
        line, column = index.position(p.offset)
        value_line, value_column = index.position(p.value_offset)
        out.append(Param(p.key, p.value, p.kind, line, column, value_line, value_column))
    return tuple(out)


def _blocks(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F2: a `Task:`-style header with indented `key: value` lines, or a bare run of
    `key: value` lines that holds `subagent_type:`."""
    lines = structure.lines
    sites: list[RawSite] = []
    i = block.start
    while i < block.end:
        if i in claimed:
            i += 1
            continue
        # In a list each item is a paragraph of its own: a block may run on into the next items.
        limit = len(lines) if block.kind == "paragraph" else block.end
        header = _BLOCK_HEADER.match(lines[i])
        if header:
            end = _indented_run(lines, i + 1, limit, len(header.group("indent")))
            site = _block_site(structure, block, i, i + 1, end, header, claimed)
            if site:
                sites.append(site)
                i = end
                continue
        if _SUBAGENT_KV.match(lines[i]):
            start, end = _kv_run(lines, i, block.start, limit, claimed)
            site = _block_site(structure, block, start, start, end, None, claimed)
            if site:
                sites.append(site)
                i = end
                continue
        i += 1
    return sites


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
    while end < hi and end not in claimed and lines[end].strip():
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
    params = [_yaml_literal(p) for p in _params(tuple(raw), index)]
    if header_type and header_type.strip() and not any(p.key == "subagent_type" for p in params):
        value, kind = classify(header_type)
        column = lines[site_line].find(header_type) + 1
        params.append(Param("subagent_type", value, kind, site_line, column, site_line, column))
    claimed.update(range(site_line, end))
    tool = header.group("tool") if header else None
    tool = tool.capitalize() if tool else None
    column = len(lines[site_line]) - len(lines[site_line].lstrip()) + 1
    return RawSite("F2", site_line, column, tool, tuple(params), block)


def _yaml_literal(param: Param) -> Param:
    kind = as_written(param.kind)
    return Param(param.key, param.value, kind, param.line, param.column, param.value_line, param.value_column)


def _strip_bullet(line: str) -> str:
    """Blank a list marker so `- name: x` reads as `name: x` with columns kept."""
    m = re.match(r"^(\s*)([-*+]\s+)", line)
    return line if m is None else m.group(1) + " " * len(m.group(2)) + line[m.end() :]


def _param_bullets(
    structure: Structure,
    lead: Block,
    items: tuple[tuple[int, int], ...],
    claimed: set[int],
) -> list[RawSite]:
    """F4: a lead sentence naming the Agent/Task tool (or spawning agents), then one list item
    per parameter. When several items each give a `subagent_type`, each is a spawn (F7)."""
    lines = structure.lines
    lead_text = "\n".join(lines[lead.start : lead.end])
    mention = _last_spawn_mention(lead_text)
    if mention is None or any(a in claimed for a, _ in items):
        return []
    per_item = [(a, _item_params(lines, a)) for a, _end in items]
    typed = [(a, params) for a, params in per_item if any(p.key == "subagent_type" for p in params)]
    tool = _tool_in(lead_text)
    sites: list[RawSite] = []
    if len(typed) >= 2:
        for a, params in typed:
            column = len(lines[a]) - len(lines[a].lstrip()) + 1
            sites.append(RawSite("F7", a, column, tool, params, lead))
    else:
        group: dict[str, Param] = {}
        for _a, params in per_item:
            for p in params:
                group.setdefault(p.key, p)
        keys = set(group)
        if (len(group) >= 2 or "subagent_type" in keys) and {"subagent_type", "prompt", "description"} & keys:
            line = lead.start + lead_text[:mention].count("\n")
            column = len(lines[line]) - len(lines[line].lstrip()) + 1
            sites.append(RawSite("F4", line, column, tool, tuple(group.values()), lead))
    if sites:
        claimed.update(range(lead.start, lead.end))
        for a, b in items:
            claimed.update(range(a, b))
    return sites


def _cells(line: str) -> list[tuple[str, int]]:
    """The cells of a table row with the 0-based column where each starts."""
    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
    return [(line[a + 1 : b], a + 1) for a, b in zip(bars, bars[1:], strict=False)]


def _table_sites(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F7 as a table: a `subagent_type` column (and usually a name column), one spawn per row."""
    lines = structure.lines
    rows = [
        j for j in range(block.start, block.end) if lines[j].lstrip().startswith("|") and j not in claimed
    ]
    if len(rows) < 3 or not re.fullmatch(r"[\s|:-]+", lines[rows[1]]):
        return []
    header = [re.sub(r"[`*]", "", c).strip().lower() for c, _ in _cells(lines[rows[0]])]
    kind_col = next((i for i, h in enumerate(header) if h in ("subagent_type", "subagent type")), None)
    name_col = next(
        (i for i, h in enumerate(header) if h in ("name", "teammate", "member", "teammate name")), None
    )
    if kind_col is None:
        return []
    sites = []
    for j in rows[2:]:
        cells = _cells(lines[j])
        params = [
            p
            for col, key in ((kind_col, "subagent_type"), (name_col, "name"))
            if (p := _cell_param(cells, col, key, j))
        ]
        if any(p.key == "subagent_type" for p in params):
            column = len(lines[j]) - len(lines[j].lstrip()) + 1
            sites.append(RawSite("F7", j, column, None, tuple(params), block))
    if sites:
        claimed.update(rows)
    return sites


def _cell_param(cells: list[tuple[str, int]], col: int | None, key: str, line: int) -> Param | None:
    if col is None or col >= len(cells):
        return None
    text, start = cells[col]
    span = _CODE_SPAN.search(text)
    raw, at = (
        (span.group(1), start + span.start(1))
        if span
        else (text.strip(), start + len(text) - len(text.lstrip()))
    )
    if not raw or is_absent(raw):
        return None
    value, kind = classify(raw)
    kind = as_written(kind)
    return Param(key, value, kind, line, at + 1, line, at + 1)


def _item_params(lines: list[str], at: int) -> tuple[Param, ...]:
    """The parameters one list item gives: `` - `name`: x ``, or several `` `key: value` `` spans."""
    line = lines[at]
    if _PARAM_ITEM_INLINE.match(line):
        found: dict[str, Param] = {}
        sentence = Sentence(at + 1, at + 1, 1, line)
        for param in _sentence_params(sentence):
            found.setdefault(param.key, param)
        return tuple(found.values())
    single = _item_param(lines, at)
    return (single,) if single else ()


def _last_spawn_mention(text: str) -> int | None:
    tool = list(_TOOL_MENTION.finditer(text))
    if tool:
        return tool[-1].start()
    verb = _SPAWN_VERB.search(text)
    if verb and _AGENT_WORD.search(text):
        return verb.start()
    return None


def _tool_in(text: str) -> str | None:
    m = re.search(r"\b(Agent|Task)\b", text)
    return m.group(1) if m else None


def _item_param(lines: list[str], at: int) -> Param | None:
    line = lines[at]
    m = _PARAM_ITEM_INLINE.match(line) or _PARAM_ITEM.match(line)
    if m is None or m.group("key") not in PARAM_KEYS:
        return None
    raw_value = m.group("value").strip()
    value_column = m.start("value") + 1 + (len(m.group("value")) - len(m.group("value").lstrip()))
    span = _CODE_SPAN.search(raw_value) if m.re is _PARAM_ITEM else None
    if span and span.start() == 0:
        raw_value = span.group(1)
        value_column += 1
    if m.group("key") == "name" and (_NEGATED_VALUE.match(m.group("value")) or not raw_value):
        return None
    value, kind = classify(raw_value)
    kind = as_written(kind)
    if m.group("key") == "name" and is_absent(value):
        return None
    return Param(m.group("key"), value, kind, at, m.start("key") + 1, at, value_column)


def _inline_param_sites(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F5: parameters as inline code inside one sentence."""
    if any(j in claimed for j in range(block.start, block.end)):
        return []
    sites: list[RawSite] = []
    for sentence in _split_sentences(structure.lines, block.start, block.end):
        params = _sentence_params(sentence)
        keys = {p.key for p in params}
        mentions_spawn = bool(_TOOL_MENTION.search(sentence.text)) or bool(
            _SPAWN_VERB.search(sentence.text) and _AGENT_WORD.search(sentence.text)
        )
        if not mentions_spawn and not ({"name", "prompt", "description"} & keys):
            continue  # "Why `subagent_type: "default"`?" explains a spawn; it is not one
        if "subagent_type" not in keys and not ("name" in keys and mentions_spawn):
            continue
        if is_rule_sentence(sentence.text):
            continue
        confidence = "high"
        if "subagent_type" not in keys:
            # ``Spawn the `shop:critic` agent with `name: "c1"` ``: the prose names the target
            target = _prose_target(sentence)
            if target is not None:
                params, confidence = (*params, target), "medium"
        tool = _tool_in(sentence.text)
        sites.append(RawSite("F5", sentence.line - 1, sentence.column, tool, params, block, confidence))
        claimed.update(range(sentence.line - 1, sentence.end_line))  # one spawn, one site
    return sites


def _prose_target(sentence: Sentence) -> Param | None:
    from spawnlint.parse.prose import find_prose_spawns

    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    for spawn in find_prose_spawns(sentence.text):
        if spawn.target:
            line, column = index.position(spawn.target_offset)
            return Param("subagent_type", spawn.target, ValueKind.LITERAL, line, column, line, column)
    return None


def _sentence_params(sentence: Sentence) -> tuple[Param, ...]:
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    found: dict[str, Param] = {}
    for m in _CODE_SPAN.finditer(sentence.text):
        kv = _SPAN_KV.match(m.group(1))
        if kv is None or kv.group(1) not in PARAM_KEYS:
            continue
        at = (m.start(1), m.start(1) + kv.start(2))
        _add_inline(found, sentence.text, kv.group(1), kv.group(2), at, index)
    for m in _SPAN_KEY_THEN_VALUE.finditer(sentence.text):
        at = (m.start("key"), m.start("value"))
        _add_inline(found, sentence.text, m.group("key"), m.group("value"), at, index)
    if "subagent_type" not in found and _TOOL_MENTION.search(sentence.text):
        # `Use Task tool with subagent_type: "general-purpose" to:` written without backticks
        for m in _BARE_KV.finditer(_blank_code_spans(sentence.text)):
            at = (m.start("key"), m.start("value"))
            _add_inline(found, sentence.text, m.group("key"), m.group("value"), at, index)
    return tuple(found.values())


def _blank_code_spans(text: str) -> str:
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def _add_inline(
    found: dict[str, Param], text: str, key: str, raw: str, at: tuple[int, int], index: LineIndex
) -> None:
    if key in found:
        return
    value, kind = classify(raw)
    kind = as_written(kind)
    if key == "name" and (is_absent(value) or _FORBID.search(text[: at[0]].split(",")[-1])):
        return
    line, column = index.position(at[0])
    value_line, value_column = index.position(at[1])
    found[key] = Param(key, value, kind, line, column, value_line, value_column)


# --- counter-examples ----------------------------------------------------------------------


def _is_counter_example(structure: Structure, site: RawSite) -> bool:
    """A spawn shown as wrong: under a heading or lead line marked WRONG / Bad / ❌ / Don't...
    "Never"/"Don't" leads often introduce the *right* way too, so they mark only named spawns."""
    named = any(p.key == "name" for p in site.params)
    own = structure.lines[site.line]
    # A ❌ before the call marks it (`❌ Task(...)`); one inside its prompt does not.
    if _COUNTER_EMOJI.search(own[: site.column - 1]) or _TRAILING_COUNTER.search(own):
        return True
    heading, *leads = _context_lines(structure, site)[1:] or [""]
    if heading and _COUNTER_EMOJI.search(heading):
        return True
    for line in [heading, *leads]:
        if _LEADING_EMOJI.match(line):
            return True
        # "... like this. Don't do this:" — the lead is the line's last sentence
        text = re.split(r"(?<=[.!?])\s+", line.strip())[-1] if line.strip() else line
        m = _COUNTER_LABEL.search(line) or _COUNTER_LABEL.search(text)
        if m is None:
            continue
        word = (m.group("word") or "").lower()
        if named or re.sub(r"\s+", " ", word) not in _WEAK_WORDS:
            return True
    return False


def _context_lines(structure: Structure, site: RawSite) -> list[str]:
    """The site's line, the heading above it ("" when none), and the lines that introduce it."""
    lines = structure.lines
    context: list[str] = [lines[site.line]]
    heading = next((h for h in reversed(structure.headings) if h[0] < site.line), None)
    context.append(heading[2] if heading is not None else "")
    block = site.block
    if block.kind == "fence":
        inner = _previous_nonblank(lines, site.line - 1, block.start)
        if inner is not None and _COMMENT_LINE.match(lines[inner]):
            context.append(lines[inner])
            return context
        above = block.fence_open if block.fence_open is not None else block.start
    else:
        above = block.start
        if site.line > block.start:
            context.append(lines[site.line - 1])
    lead = _previous_nonblank(lines, above - 1, max(0, above - 3))
    if lead is not None and not _HEADING_IN_TEXT.match(lines[lead]):
        context.append(lines[lead])
    return context


def _previous_nonblank(lines: list[str], start: int, stop: int) -> int | None:
    for j in range(start, stop - 1, -1):
        if j < 0:
            return None
        if lines[j].strip():
            return j
    return None


# --- sites, sentences, reports ---------------------------------------------------------------


def _to_site(
    path: str,
    structure: Structure,
    sections: tuple[Section, ...],
    raw: RawSite,
    told: dict[Section | None, bool],
) -> SpawnSite:
    by_key: dict[str, Param] = {}
    for p in raw.params:
        by_key.setdefault(p.key, p)
    name = by_key.get("name")
    if name is not None and is_absent(name.value) and name.kind is ValueKind.LITERAL:
        name = None
    section = section_of(sections, raw.line + 1)
    if section not in told:
        text = "\n".join(structure.lines[section.start_line - 1 : section.end_line]) if section else ""
        told[section] = mentions_send_message_tool(text)
    prompt = by_key.get("prompt")
    return SpawnSite(
        path=path,
        line=raw.line + 1,
        column=raw.column,
        form=raw.form,
        tool=raw.tool,
        subagent_type=_shift(by_key.get("subagent_type")),
        name=_shift(name),
        team_name=_shift(by_key.get("team_name")),
        prompt=prompt.value if prompt else None,
        confidence=raw.confidence,
        told_to_report=told[section] or mentions_send_message_tool(prompt.value if prompt else ""),
    )


def _shift(param: Param | None) -> Param | None:
    """Param lines are 0-based inside the recognisers; the model is 1-based."""
    if param is None:
        return None
    value_line = param.value_line + 1 if param.value_line or param.value_column else 0
    return Param(
        param.key, param.value, param.kind, param.line + 1, param.column, value_line, param.value_column
    )


def _split_sentences(lines: list[str], start: int, end: int) -> list[Sentence]:
    text = "\n".join(lines[start:end])
    index = LineIndex(text, start + 1)
    out: list[Sentence] = []
    begin = 0
    in_code = False
    for i, ch in enumerate(text):
        if ch == "`":
            in_code = not in_code
        if ch == "\n" and (_table_row_edge(text, begin, i) or _is_label_line(text, i)):
            out.append(_sentence(text, begin, i, index))  # a table row, a "**Label:**" line
            begin, in_code = i + 1, False
            continue
        if in_code or ch not in ".!?" or i + 1 >= len(text) or not text[i + 1].isspace():
            continue
        if re.search(r"(?<![\w.])(?:e\.g|i\.e|etc|vs|cf)$", text[max(0, i - 5) : i], re.IGNORECASE):
            continue
        out.append(_sentence(text, begin, i + 1, index))
        begin = i + 1
    if text[begin:].strip():
        out.append(_sentence(text, begin, len(text), index))
    return [s for s in out if s.text]


_LABEL_LINE = re.compile(r"\s*\*\*[^*\n]{1,60}(?::\*\*|\*\*:)\s*")


def _is_label_line(text: str, newline: int) -> bool:
    """A line that is only a bold label (`**Task Instructions:**`) ends its sentence."""
    return _LABEL_LINE.fullmatch(text, text.rfind("\n", 0, newline) + 1, newline) is not None


def _table_row_edge(text: str, begin: int, newline: int) -> bool:
    """A newline that ends or starts a table row: each row is a sentence of its own."""
    return text[begin:newline].lstrip().startswith("|") or text[newline + 1 : newline + 80].lstrip(
        " \t"
    ).startswith("|")


def _sentence(text: str, a: int, b: int, index: LineIndex) -> Sentence:
    chunk = text[a:b]
    lead = len(chunk) - len(chunk.lstrip())
    line, column = index.position(a + lead)
    end_line, _ = index.position(max(a + lead, b - 1))
    return Sentence(line, end_line, column, chunk.strip())


def _sentences(structure: Structure) -> list[Sentence]:
    return [s for block in structure.blocks for s in _block_sentences(structure, block)]


def mentions_send_message_tool(text: str) -> bool:
    """Whether the text names the SendMessage tool (Unity's `gameObject.SendMessage()` and
    other APIs of that name do not count)."""
    return any(_names_the_tool(line) for line in split_lines(text) if "SendMessage" in line)


def _names_the_tool(line: str) -> re.Match[str] | None:
    """The SendMessage mention of a line, unless it is another API's (`gameObject.SendMessage(`)
    or a negated one ("Do not use SendMessage; return your findings")."""
    m = _SEND_MESSAGE.search(line)
    if m is None or _NOT_THE_TOOL.search(line) or _NEGATED_BEFORE.search(line, 0, m.start()):
        return None
    return m


def _report_lines(structure: Structure) -> tuple[tuple[int, int], ...]:
    """Body lines that tell the agent to report with the SendMessage tool."""
    found = []
    for j, line in enumerate(structure.lines):
        m = _names_the_tool(line) if "SendMessage" in line else None
        if m and _REPORT_WORDS.search(line):
            found.append((j + 1, m.start() + 1))
    return tuple(found)
