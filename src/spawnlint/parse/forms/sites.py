"""The spawn forms in markdown text: F1 calls, F2 blocks, F3 objects, F4 parameter bullets, F5
inline parameters, F7 lists and tables, and the prose sentences of F6/F8 (via prose.py)."""

from __future__ import annotations

import re
from bisect import bisect_right

from spawnlint.model import Form, Param, Section, Sentence, SpawnSite, ValueKind, section_of
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.forms.counter_examples import example_lines
from spawnlint.parse.forms.prefilter import could_be_prose, hot_lines
from spawnlint.parse.forms.prose import (
    bullet_reference,
    find_prose_spawns,
    spawn_lead,
    team_verb,
    teammate_names,
)
from spawnlint.parse.forms.rule_sentence import is_rule_sentence
from spawnlint.parse.forms.syntax import (
    BLOCK_HEADER,
    PARAM_ITEM,
    PARAM_ITEM_INLINE,
    PARAM_KEYS,
    LineIndex,
    RawParam,
    as_written,
    classify,
    find_calls,
    find_objects,
    is_absent,
    is_spawn_params,
    split_params,
)
from spawnlint.parse.send_message import mentions_send_message_tool
from spawnlint.parse.text import (
    CODE_SPAN,
    Block,
    FormExamples,
    RawSite,
    Structure,
    block_sentences,
    previous_nonblank,
    split_sentences,
)

_KV_LINE = re.compile(r"^(?P<indent>\s*)(?:[-*+]\s+)?(?P<key>[a-z_]+)\s*:")


_SUBAGENT_KV = re.compile(r"^\s*(?:[-*+]\s+)?subagent_type\s*:")


_TOOL_MENTION = re.compile(
    r"\b(?:\*\*|`)?(?:Agent|Task)(?:\*\*|`)?\s+tool\b|`(?:Agent|Task)`|\b(?:Agent|Task)\s*\("
    r"|\btool\s+`?(?:Agent|Task)\b"
)


_SPAWN_VERB = re.compile(rf"\b{vocabulary.alternation(vocabulary.TOOL_SENTENCE_VERBS)}\b", re.IGNORECASE)


_AGENT_WORD = re.compile(
    rf"\b{vocabulary.alternation(vocabulary.TOOL_SENTENCE_NOUNS, plural=True)}\b", re.IGNORECASE
)


_SPAN_KV = re.compile(r"^\s*([a-z_]+)\s*[=:]\s*(.+?)\s*$", re.DOTALL)


_BARE_KV = re.compile(
    r"""\b(?P<key>subagent_type|name)\s*[:=]\s*(?P<value>"[^"\n]+"|'[^'\n]+'|[\w:.-]+(?=[\s,.;)]|$))"""
)


_SPAN_KEY_THEN_VALUE = re.compile(
    r"`(?P<key>subagent_type|name|team_name)`\s*(?:set\s+to|=|:|as|of|to)\s*`(?P<value>[^`\n]+)`"
)


_FORBID = re.compile(rf"\b{vocabulary.alternation(vocabulary.FORBIDDING_A_PARAMETER)}\b", re.IGNORECASE)


_NEGATED_VALUE = re.compile(
    r"^\W*(?:omit\w*|none|n/a|never|do\s+not|don[’']?t|not\s+set|leave\b|unset|no\b|-\s*$)",
    re.IGNORECASE,
)


def find_sites(structure: Structure, hot: list[Block] | None = None) -> list[RawSite]:
    sites: list[RawSite] = []
    claimed: set[int] = set()  # 0-based lines already holding a structured site's parameters
    hot = hot_blocks(structure) if hot is None else hot  # every form needs a prefilter word in its block
    for block in hot:
        sites.extend(_structured_sites(structure, block, claimed))
    for lead, items in structure.leads:
        site = _param_bullets(structure, lead, items, claimed)
        sites.extend(site)
    for block in hot:
        if block.kind == "paragraph":
            sites.extend(_table_sites(structure, block, claimed))
    for block in hot:
        if block.kind == "paragraph":
            sites.extend(_inline_param_sites(structure, block, claimed))
    structured_lines = {s.line for s in sites}
    for block in _leads_of(structure, structured_lines):
        claimed.update(range(block.start, block.end))
    sites.extend(_prose_sites(structure, claimed, set(hot)))
    return sites


# Prose in a fence is an instruction quoted for the lead ("send it this verbatim"); a markdown
# fence holds an example document, and a fence after "For example:" a sample to read.
_PROSE_FENCES = frozenset({"", "text", "txt", "prompt", "plaintext"})


_EXAMPLE_LEAD = re.compile(
    r"\b(?:for\s+example|e\.g\.|example|sample|for\s+instance|such\s+as|you\s+can\s+(?:say|type|ask)"
    r"|tell\s+claude|ask\s+claude|natural\s+language)\b",
    re.IGNORECASE,
)


def hot_blocks(structure: Structure) -> list[Block]:
    """The blocks that hold a word some recogniser needs; no site can stand in the others."""
    hot = hot_lines(structure.lines)
    return [b for b in structure.blocks if any(j in hot for j in range(b.start, b.end))]


def _prose_blocks(structure: Structure) -> list[Block]:
    return [b for b in structure.blocks if b.kind == "paragraph" or _quoted_instruction(structure, b)]


def _quoted_instruction(structure: Structure, block: Block) -> bool:
    if block.kind != "fence" or block.fence_open is None:
        return False
    if _fence_info(structure, block) not in _PROSE_FENCES:
        return False
    lead = previous_nonblank(structure.lines, block.fence_open - 1, max(0, block.fence_open - 3))
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


def _prose_sites(structure: Structure, claimed: set[int], hot: set[Block]) -> list[RawSite]:
    """F7 lists, then F6/F8 sentences, in text outside the structured sites."""
    lines = structure.lines
    sites: list[RawSite] = []
    examples = example_lines(lines)
    for lead, items in structure.leads:
        if lead.start in claimed or lead.start in examples:
            continue
        sentences = split_sentences(lines, lead.start, lead.end)
        if not sentences:
            continue
        found = _list_spawns(structure, sentences[-1], lead, items, claimed)
        if found:
            sites.extend(found)
            claimed.update(range(lead.start, lead.end))
            claimed.update(line for a, b in items for line in range(a, b))
    for block in (b for b in _prose_blocks(structure) if b in hot):
        if not could_be_prose("\n".join(lines[block.start : block.end])):
            continue  # no verb with an agent, team or id after it: no sentence to split
        for sentence in block_sentences(structure, block):
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
                    params.append(_param_at("subagent_type", spawn.target, index, spawn.target_offset))
                if spawn.name:
                    params.append(_param_at("name", spawn.name, index, spawn.name_offset))
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
                sites.append(RawSite(Form.F8, line, column, None, (param,), lead, "medium"))
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
            # "... — each with `name: "track-N"`": a name given in the agent's own bullet
            given = [p for p in _sentence_params(Sentence(a + 1, a + 1, 1, lines[a])) if p.key == "name"]
            given = given or _quoted_bullet_name(lines[a], a)
            sites.append(RawSite(Form.F7, a, at + 1, None, (target, *given), lead, "medium"))
    return sites


def _structured_sites(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F1 calls, F3 objects and F2 blocks inside one block of text."""
    text = "\n".join(structure.lines[block.start : block.end])
    index = LineIndex(text, block.start)
    sites: list[RawSite] = []
    calls = find_calls(text)
    covered = [(m.start, m.end) for m in calls]
    objects = find_objects(text, covered)
    covered += [(m.start, m.end) for m in objects]
    for form, matches in ((Form.F1, calls), (Form.F3, objects)):
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
        header = BLOCK_HEADER.match(lines[i])
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
    params = [_yaml_literal(p) for p in _params(tuple(raw), index)]
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
        for a, params in _per_spawn(per_item):
            column = len(lines[a]) - len(lines[a].lstrip()) + 1
            sites.append(RawSite(Form.F7, a, column, tool, params, lead))
    else:
        group: dict[str, Param] = {}
        for _a, params in per_item:
            for p in params:
                group.setdefault(p.key, p)
        keys = set(group)
        if (len(group) >= 2 or "subagent_type" in keys) and {"subagent_type", "prompt", "description"} & keys:
            line = lead.start + lead_text[:mention].count("\n")
            column = len(lines[line]) - len(lines[line].lstrip()) + 1
            sites.append(RawSite(Form.F4, line, column, tool, tuple(group.values()), lead))
    if sites:
        claimed.update(range(lead.start, lead.end))
        for a, b in items:
            claimed.update(range(a, b))
    return sites


def _per_spawn(per_item: list[tuple[int, tuple[Param, ...]]]) -> list[tuple[int, tuple[Param, ...]]]:
    """One group per `subagent_type` item, with the items below it up to the next one: a `name`
    bullet belongs to the nearest spawn's own `subagent_type` bullet above it."""
    groups: list[tuple[int, dict[str, Param]]] = []
    for a, params in per_item:
        if any(p.key == "subagent_type" for p in params):
            groups.append((a, {p.key: p for p in reversed(params)}))
        elif groups:
            for p in params:
                groups[-1][1].setdefault(p.key, p)
    return [(a, tuple(group.values())) for a, group in groups]


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
            sites.append(RawSite(Form.F7, j, column, None, tuple(params), block))
    if sites:
        claimed.update(rows)
    return sites


def _cell_param(cells: list[tuple[str, int]], col: int | None, key: str, line: int) -> Param | None:
    if col is None or col >= len(cells):
        return None
    text, start = cells[col]
    span = CODE_SPAN.search(text)
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


# `` `shop:critic` (name: "critic-a") ``, `` `shop:critic`, name: 'critic-b' ``: a quoted name after a
# parenthesis or a comma of the agent's own bullet; "your name: x" in a prompt is not one.
_BULLET_NAME = re.compile(r"(?:\(|,)\s*name\s*[:=]\s*(?P<q>[\"'])(?P<value>[^\"'\n]+)(?P=q)")


def _quoted_bullet_name(line: str, at: int) -> list[Param]:
    m = _BULLET_NAME.search(line)
    if m is None or is_absent(m.group("value")):
        return []
    key_column = line.index("name", m.start()) + 1
    value, kind = classify(m.group("value"))
    return [Param("name", value, as_written(kind), at, key_column, at, m.start("value") + 1)]


def _item_params(lines: list[str], at: int) -> tuple[Param, ...]:
    """The parameters one list item gives: `` - `name`: x ``, or several `` `key: value` `` spans."""
    line = lines[at]
    if PARAM_ITEM_INLINE.match(line):
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


# A quoted value followed by the author's commentary: `"general-purpose" (it needs every tool)`
_QUOTED_THEN_NOTE = re.compile(r"""^("[^"\n]+"|'[^'\n]+')(?=\s+(?:\(|—|–|-\s|--\s|#|//))""")


def _item_param(lines: list[str], at: int) -> Param | None:
    line = lines[at]
    m = PARAM_ITEM_INLINE.match(line) or PARAM_ITEM.match(line)
    if m is None or m.group("key") not in PARAM_KEYS:
        return None
    raw_value = m.group("value").strip()
    value_column = m.start("value") + 1 + (len(m.group("value")) - len(m.group("value").lstrip()))
    span = CODE_SPAN.search(raw_value) if m.re is PARAM_ITEM else None
    if span and span.start() == 0:
        raw_value = span.group(1)
        value_column += 1
    elif m.group("key") in ("subagent_type", "name") and (quoted := _QUOTED_THEN_NOTE.match(raw_value)):
        raw_value = quoted.group(1)  # `"general-purpose" (it needs every tool)`: the quoted value
    if m.group("key") == "name" and (_NEGATED_VALUE.match(m.group("value")) or not raw_value):
        return None
    value, kind = classify(raw_value)
    kind = as_written(kind)
    if m.group("key") == "name" and is_absent(value):
        return None
    return Param(m.group("key"), value, kind, at, m.start("key") + 1, at, value_column)


_CONSTRUCTOR = re.compile(r"\bnew\s+(?:Agent|Task)\s*\(")


def _inline_param_sites(structure: Structure, block: Block, claimed: set[int]) -> list[RawSite]:
    """F5: parameters as inline code inside one sentence."""
    if any(j in claimed for j in range(block.start, block.end)):
        return []
    if not may_give_parameters("\n".join(structure.lines[block.start : block.end])):
        return []
    sites: list[RawSite] = []
    for sentence in split_sentences(structure.lines, block.start, block.end):
        params = _sentence_params(sentence)
        keys = {p.key for p in params}
        mentions_spawn = _last_spawn_mention(sentence.text) is not None
        if not mentions_spawn and not ({"name", "prompt", "description"} & keys):
            continue  # "Why `subagent_type: "default"`?" explains a spawn; it is not one
        if "subagent_type" not in keys and not ("name" in keys and mentions_spawn):
            continue
        if is_rule_sentence(sentence.text) or _CONSTRUCTOR.search(sentence.text):
            continue  # `new Agent({ name: ... })` builds an agent of another framework
        confidence = "high"
        if "subagent_type" not in keys:
            # ``Spawn the `shop:critic` agent with `name: "c1"` ``: the prose names the target
            target = _prose_target(sentence)
            if target is not None:
                params, confidence = (*params, target), "medium"
        tool = _tool_in(sentence.text)
        sites.append(RawSite(Form.F5, sentence.line - 1, sentence.column, tool, params, block, confidence))
        claimed.update(range(sentence.line - 1, sentence.end_line))  # one spawn, one site
    return sites


def may_give_parameters(text: str) -> bool:
    """An F5 site needs a subagent_type, or a name and a spawn mention."""
    return "subagent_type" in text or "name" in text


def _prose_target(sentence: Sentence) -> Param | None:
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    for spawn in find_prose_spawns(sentence.text):
        if spawn.target:
            return _param_at("subagent_type", spawn.target, index, spawn.target_offset)
    return None


def _param_at(key: str, raw: str, index: LineIndex, offset: int) -> Param:
    """A parameter named in prose, as written, at its offset in the sentence."""
    value, kind = classify(raw)
    line, column = index.position(offset)
    return Param(key, value, as_written(kind), line, column, line, column)


def _sentence_params(sentence: Sentence) -> tuple[Param, ...]:
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    found: dict[str, Param] = {}
    for m in CODE_SPAN.finditer(sentence.text):
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
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


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


def to_site(
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
        prompt_at=(prompt.line + 1, prompt.column) if prompt else (0, 0),
    )


def _shift(param: Param | None) -> Param | None:
    """Param lines are 0-based inside the recognisers; the model is 1-based."""
    if param is None:
        return None
    value_line = param.value_line + 1 if param.value_line or param.value_column else 0
    return Param(
        param.key, param.value, param.kind, param.line + 1, param.column, value_line, param.value_column
    )


# The examples are spawn text on purpose, and spawnlint reads its own source:
# their targets (`shop:critic`) are no agents of this repository.
# spawnlint: ignore-file[SL301]
EXAMPLES = (
    FormExamples(
        Form.F1,
        valid=(
            'Agent(subagent_type: "shop:critic", name: "c1", prompt: "Review the plan.")',
            'Task(subagent_type="general-purpose", description="Research", prompt="Find the bug")',
        ),
        invalid=('new Agent({name: "x", instructions: "y"})', "The Agent (see below) decides."),
    ),
    FormExamples(
        Form.F2,
        valid=('Task:\n  subagent_type: "shop:critic"\n  name: "critic-1"\n  prompt: Review the plan.\n',),
        invalid=("Task:\n  Read the file and summarise it.\n",),
    ),
    FormExamples(
        Form.F3,
        valid=('```json\n{"subagent_type": "general-purpose", "prompt": "Find the bug"}\n```\n',),
        invalid=('```json\n{"type": "general-purpose", "prompt": "Find the bug"}\n```\n',),
    ),
    FormExamples(
        Form.F4,
        valid=(
            "Use the Task tool with:\n\n- `subagent_type`: `shop:critic`\n- `name`: `{area}-reviewer`\n"
            "- `prompt`: Review the plan.\n",
        ),
        invalid=(
            "With the Task tool:\n\n- Write a clear description of the change\n- Pass the prompt to it\n",
        ),
    ),
    FormExamples(
        Form.F5,
        valid=('Use the Task tool with `subagent_type="shop:critic"` and `name: "c1"`.',),
        invalid=("Never pass `name` to the Agent tool: a named spawn runs as an `in_process_teammate`.",),
    ),
)
