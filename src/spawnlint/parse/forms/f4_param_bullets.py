"""F4: a sentence that names the Agent/Task tool (or spawns agents), then one list item per
parameter (`` - `subagent_type`: `shop:critic` ``, `- prompt: Review the plan.`). Where several
items each give a `subagent_type`, each item is a spawn of its own (F7)."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, Sentence
from spawnlint.parse.forms import removal
from spawnlint.parse.forms.f5_inline import sentence_params
from spawnlint.parse.forms.prose import TOOL_SENTENCE_WORDS, last_spawn_mention, tool_in
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import PARAM_KEYS, as_written, classify, is_absent
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, line_end
from spawnlint.parse.text import CODE_SPAN, Block, FormExamples, RawSite

# A parameter bullet: `- prompt: x`, `` - `name`: x ``, `1. **description** is y` (the key is the
# item's first word); or `` - `subagent_type: x` ``, also behind a short label
# (`` - Native path: `subagent_type: x` ``).
PARAM_ITEM = re.compile(  # eager: `m.re is PARAM_ITEM`
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:`|\*\*|__)?(?P<key>[a-z_]+)(?:`|\*\*|__)?"
    r"(?:\s*(?:[:=—–]|-\s|\bis\b|\bset to\b|\bas\b))?\s*(?P<value>.*)$"
)
PARAM_ITEM_INLINE = lazy.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[\w*][\w *-]{0,30}:\s+)?`(?P<key>[a-z_]+)\s*[:=]\s*(?P<value>[^`]*)`"
)
_NEGATED_VALUE = lazy.compile(
    r"^\W*(?:omit\w*|none|n/a|never|do\s+not|don[’']?t|not\s+set|leave\b|unset|no\b|-\s*$)",
    re.IGNORECASE,
)
# A quoted value followed by the author's commentary: `"general-purpose" (it needs every tool)`
_QUOTED_THEN_NOTE = lazy.compile(r"""^("[^"\n]+"|'[^'\n]+')(?=\s+(?:\(|—|–|-\s|--\s|#|//))""")
# What makes the items one spawn: a target, a prompt or a description among them.
_SPAWN_KEYS = frozenset({"subagent_type", "prompt", "description"})


def _bullets(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    claimed: set[int] = set()
    lines = doc.lines
    for lead, items in doc.structure.leads:
        if any(a in claims.lines or a in claimed for a, _ in items):
            continue
        text = "\n".join(lines[lead.start : items[-1][1]]) if items else doc.text(lead)
        if not doc.fires_on(TRIGGER, lead, text):
            continue
        found = _param_bullets(lines, lead, items, doc.text(lead))
        if found:
            sites.extend(found)
            claimed.update(range(lead.start, lead.end))
            for a, b in items:
                claimed.update(range(a, b))
    return Found(tuple(sites), frozenset(claimed))


def _param_bullets(
    lines: list[str], lead: Block, items: tuple[tuple[int, int], ...], lead_text: str
) -> list[RawSite]:
    mention = last_spawn_mention(lead_text)
    if mention is None:
        return []
    per_item = [(a, _item_params(lines, a)) for a, _end in items]
    typed = [(a, params) for a, params in per_item if any(p.key == "subagent_type" for p in params)]
    tool = tool_in(lead_text)
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
        if (len(group) >= 2 or "subagent_type" in keys) and _SPAWN_KEYS & keys:
            line = lead.start + lead_text[:mention].count("\n")
            column = len(lines[line]) - len(lines[line].lstrip()) + 1
            sites.append(RawSite(Form.F4, line, column, tool, tuple(group.values()), lead))
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


def _item_params(lines: list[str], at: int) -> tuple[Param, ...]:
    """The parameters one list item gives: `` - `name`: x ``, or several `` `key: value` `` spans."""
    line = lines[at]
    if PARAM_ITEM_INLINE.match(line):
        found: dict[str, Param] = {}
        for param in sentence_params(Sentence(at + 1, at + 1, 1, line)):
            found.setdefault(param.key, param)
        return tuple(found.values())
    single = _item_param(lines, at)
    return (single,) if single else ()


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


def _gives_parameters(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A `subagent_type`, or list items giving two parameters, prompt or description among them
    (read with the item patterns above)."""
    if "subagent_type" in text:
        return True
    if not (_item_gives(text, "prompt") or _item_gives(text, "description")):
        return False
    return sum(1 for key in PARAM_KEYS if _item_gives(text, key)) >= 2


def _item_gives(text: str, key: str) -> bool:
    """Whether a list item could give `key`: as the item's first word (`- prompt: x`,
    `` 1. `name` is y ``; PARAM_ITEM), or anywhere in an item that opens with a `` `key: value` ``
    span (PARAM_ITEM_INLINE). A key further into a plain item is prose ("- Write a clear
    description") and gives nothing."""
    at = text.find(key)
    while at >= 0:
        end = line_end(text, at)
        line = text[max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1 : end]
        if "`" in line and PARAM_ITEM_INLINE.match(line):
            return True  # the key may stand anywhere in such an item, a label too
        item = PARAM_ITEM.match(line)
        if item is not None and item.group("key") == key:
            return True
        at = text.find(key, end)  # one test a line
    return False


TRIGGER = Trigger(
    ("subagent_type", "prompt", "description"), _gives_parameters, any_case=False, words=TOOL_SENTENCE_WORDS
)


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    """The parameter's own bullet, when nothing but it is on the bullet; else its code span."""
    if not removal.on_its_line(param, lines):
        return ()
    if not removal.other_keys(lines[param.line - 1], param.key):
        return removal.bullet_line(param, path, lines)
    return removal.key_value(param, path, lines, gone, code_span="closed", alone=False)


BULLETS = Pass("parameter bullets", (Form.F4, Form.F7), TRIGGER, _bullets)

# The examples are spawn text on purpose, and spawnlint reads its own source:
# their targets (`shop:critic`) are no agents of this repository.
# spawnlint: ignore-file[SL301]
EXAMPLES = FormExamples(
    Form.F4,
    valid=(
        "Use the Task tool with:\n\n- `subagent_type`: `shop:critic`\n- `name`: `{area}-reviewer`\n"
        "- `prompt`: Review the plan.\n",
    ),
    invalid=(
        "With the Task tool:\n\n- Write a clear description of the change\n- Pass the prompt to it\n",
        # a skill's frontmatter fields: "user-invocable" holds no verb, the `agent` field no tool
        "Recognized fields: `name`, `description`, `user-invocable`, `agent`.\n\n"
        "- `name`: short hyphen-case, under 64 characters.\n- `description`: what it does.\n",
    ),
)

SPEC = FormSpec(Form.F4, TRIGGER, _remove, (EXAMPLES,))
