"""F5: a spawn's parameters as inline code inside one sentence — ``Use the Task tool with
`subagent_type="shop:critic"` and `name: "c1"`.``, `` `name` set to `x` ``, or written bare in a
sentence that names the tool (`Use Task tool with subagent_type: "general-purpose" to:`)."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Edit, Form, Param, Sentence
from spawnlint.parse.forms import prose_passes, removal, vocabulary
from spawnlint.parse.forms.prose import (
    CORE_NOUN,
    NEGATION,
    TOOL_SENTENCE_WORDS,
    VERB_RE,
    authoring_rule,
    is_instruction,
    last_spawn_mention,
    names_the_tool,
    strong_verb,
    tool_in,
)
from spawnlint.parse.forms.rule_sentence import is_rule_sentence
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import (
    PARAM_KEYS,
    RawParam,
    as_written,
    classify,
    is_absent,
    param_at,
    split_params,
)
from spawnlint.parse.forms.trigger import Paragraphs, Trigger
from spawnlint.parse.text import CODE_SPAN, Block, FormExamples, LineIndex, RawSite, split_sentences

_SEPARATOR = r"\s*[=:]\s*"
# `key: value` inside one code span
_SPAN_KV = lazy.compile(rf"^\s*([a-z_]+){_SEPARATOR}(.+?)\s*$", re.DOTALL)
# `` `key` set to `value` ``
_KEY_THEN_VALUE = r"\s*(?:set\s+to|=|:|as|of|to)\s*`"
_SPAN_KEY_THEN_VALUE = lazy.compile(
    r"`(?P<key>subagent_type|name|team_name)`" + _KEY_THEN_VALUE + r"(?P<value>[^`\n]+)`"
)
# written bare in a sentence naming the tool
_BARE_KV = lazy.compile(
    rf"""\b(?P<key>subagent_type|name){_SEPARATOR}(?P<value>"[^"\n]+"|'[^'\n]+'|[\w:.-]+(?=[\s,.;)]|$))"""
)
# A whole call in one span, its tool name first or not: `Task: team_name="x", name="y"`
_SPAN_CALL = lazy.compile(
    r"^\s*(?:(?:Task|Agent)\s*(?::|\()\s*)?(?P<args>[a-z_]+\s*[=:].*?)\)?\s*$", re.DOTALL
)
_FORBID = lazy.compile(rf"\b{vocabulary.alternation(vocabulary.FORBIDDING_A_PARAMETER)}\b", re.IGNORECASE)
# Code, not a sentence: an object built (`new Agent(`), or a call kept in a variable (`agent =
# Agent(name=..., system_instruction=...)`, Google ADK in a docstring). F1 reads calls; one it
# finds to be another framework's is no spawn in any form.
_CONSTRUCTOR = lazy.compile(r"\bnew\s+(?:Agent|Task)\s*\(|\b\w+\s*=\s*(?:Agent|Task)\s*\(")

# The trigger reads the name's shapes with the same pieces: `name: x` opening a code span,
# `` `name` set to `x` ``, and a bare `name: x` in a paragraph that names Agent or Task.
_SPAN_NAME = lazy.compile(r"`[^\S\n]*name" + _SEPARATOR.replace(r"\s", r"[^\S\n]"))
_NAME_SPAN_THEN_VALUE = lazy.compile(r"`name`" + _KEY_THEN_VALUE)
_BARE_NAME = lazy.compile(r"name" + _SEPARATOR)


def _gives_parameters(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """A subagent_type, or a name in one of its shapes (a sentence with a name alone is a spawn
    only where it names the tool or spawning)."""
    if "subagent_type" in text:
        return True
    if "name" not in text:
        return False
    if _SPAN_NAME.search(text) or ("`name`" in text and _NAME_SPAN_THEN_VALUE.search(text)):
        return True
    if "Agent" not in text and "Task" not in text:
        return False
    seen = -1
    for m in _BARE_NAME.finditer(text):
        start, end = paragraphs.around(m.start())
        if start == seen:
            continue  # each paragraph is searched once
        seen = start
        paragraph = text[start:end]
        if "Agent" in paragraph or "Task" in paragraph:
            return True
    return False


TRIGGER = Trigger(("subagent_type", "name"), _gives_parameters, any_case=False, words=TOOL_SENTENCE_WORDS)


def _spans(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    claimed: set[int] = set()
    for block in doc.blocks(TRIGGER, ("paragraph",)):
        if any(j in claims.lines or j in claimed for j in range(block.start, block.end)):
            continue
        found, lines = _in_block(doc.lines, block)
        sites.extend(found)
        claimed.update(lines)
    return Found(tuple(sites), frozenset(claimed))


def _in_block(lines: list[str], block: Block) -> tuple[list[RawSite], set[int]]:
    """The sites of a paragraph, and the lines of their sentences (one spawn, one site)."""
    sites: list[RawSite] = []
    claimed: set[int] = set()
    for sentence in split_sentences(lines, block.start, block.end):
        params = sentence_params(sentence)
        keys = {p.key for p in params}
        mentions_spawn = last_spawn_mention(sentence.text) is not None
        if not mentions_spawn and not ({"name", "prompt", "description"} & keys):
            continue  # "Why `subagent_type: "default"`?" explains a spawn; it is not one
        if "subagent_type" not in keys and not (
            "name" in keys and mentions_spawn and _names_a_spawn(sentence.text)
        ):
            continue  # "if the folder is `research/` but `name: x`, users must type `/x` to invoke it"
        if is_rule_sentence(sentence.text) or _CONSTRUCTOR.search(sentence.text):
            continue  # `new Agent({ name: ... })` builds an agent of another framework
        if _forbidden(sentence.text):
            continue  # "Do NOT call the `Agent` tool with `subagent_type: ...`": a call that fails
        if authoring_rule(sentence.text):
            continue  # "**Skill dispatches a reviewer** → use the `Task` tool with `subagent_type: …`"
        confidence = "high"
        if "subagent_type" not in keys:
            # ``Spawn the `shop:critic` agent with `name: "c1"` ``: the prose names the target
            target = _prose_target(sentence)
            if target is not None:
                params, confidence = (*params, target), "medium"
        tool = tool_in(sentence.text)
        sites.append(RawSite(Form.F5, sentence.line - 1, sentence.column, tool, params, block, confidence))
        claimed.update(range(sentence.line - 1, sentence.end_line))
    return sites, claimed


def _names_a_spawn(text: str) -> bool:
    """A `name` alone is a spawn's where the sentence names the tool or an agent, or tells to
    spawn with a strong verb used as an instruction (not "type `/x` to invoke it", which a slash
    command does: prose.is_instruction)."""
    if tool_in(text) is not None or _AGENT_WORD.search(text):
        return True
    if _OTHER_HARNESS.search(text):
        return False  # "Codex: install the skill and invoke `name: bruno-api`": another harness's way
    return any(strong_verb(v.group(0)) and is_instruction(text, v) for v in VERB_RE.finditer(text))


_OTHER_HARNESS = lazy.compile(rf"\b{vocabulary.alternation(vocabulary.OTHER_HARNESSES)}\b", re.IGNORECASE)


# (not a folder of a path: "`rg -n "^name:" cbo/agents/x.md`" greps an agent's file)
_AGENT_WORD = lazy.compile(rf"(?<!/)\b{CORE_NOUN}\b(?!/)", re.IGNORECASE)


def _forbidden(text: str) -> bool:
    """Whether the clause before the sentence's `subagent_type` forbids the call it gives."""
    at = text.find("subagent_type")
    if at < 0:
        return False
    clause = re.split(r"[.;:!?]\s|\s--\s|\s[—–]\s", text[:at])[-1]
    return NEGATION.search(clause.replace("*", "")) is not None


def _prose_target(sentence: Sentence) -> Param | None:
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    for spawn in prose_passes.sentence_spawns(sentence.text):
        if spawn.target:
            return param_at("subagent_type", spawn.target, index, spawn.target_offset)
    return None


def sentence_params(sentence: Sentence) -> tuple[Param, ...]:
    """The parameters a sentence (or a list item) gives in code spans, or bare where it names
    the tool."""
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    found: dict[str, Param] = {}
    for m in CODE_SPAN.finditer(sentence.text):
        kv = _SPAN_KV.match(m.group(1))
        call = _SPAN_CALL.match(m.group(1))
        if call is not None and (kv is None or kv.group(1) not in PARAM_KEYS or "," in m.group(1)):
            # a whole call in one span: `Task: team_name="x", name="y", subagent_type="z"`
            base = m.start(1) + call.start("args")
            raw = [p for p in split_params(call.group("args"), base) if p.key in PARAM_KEYS]
            if len(raw) >= 2:
                for p in raw:
                    _add_written(found, p, index)
                continue
        if kv is None or kv.group(1) not in PARAM_KEYS:
            continue
        at = (m.start(1), m.start(1) + kv.start(2))
        _add_inline(found, sentence.text, kv.group(1), kv.group(2), at, index)
    for m in _SPAN_KEY_THEN_VALUE.finditer(sentence.text):
        at = (m.start("key"), m.start("value"))
        _add_inline(found, sentence.text, m.group("key"), m.group("value"), at, index)
    if "subagent_type" not in found and names_the_tool(sentence.text):
        # `Use Task tool with subagent_type: "general-purpose" to:` written without backticks
        for m in _BARE_KV.finditer(_blank_code_spans(sentence.text)):
            at = (m.start("key"), m.start("value"))
            _add_inline(found, sentence.text, m.group("key"), m.group("value"), at, index)
    return tuple(found.values())


def _add_written(found: dict[str, Param], raw: RawParam, index: LineIndex) -> None:
    if raw.key in found or (raw.key == "name" and is_absent(raw.value)):
        return
    line, column = index.position(raw.offset)
    value_line, value_column = index.position(raw.value_offset)
    found[raw.key] = Param(raw.key, raw.value, as_written(raw.kind), line, column, value_line, value_column)


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


def _remove(param: Param, path: str, lines: list[str], gone: frozenset[int]) -> tuple[Edit, ...]:
    if not removal.on_its_line(param, lines):
        return ()
    spans = removal.key_then_value_span(param, path, lines)
    if spans:
        return spans
    return removal.key_value(param, path, lines, gone, code_span="open", joiners=True)


SPANS = Pass("inline parameters", (Form.F5,), TRIGGER, _spans)

# The examples are spawn text on purpose, and spawnlint reads its own source:
# their targets (`shop:critic`) are no agents of this repository.
# spawnlint: ignore-file[SL301]
EXAMPLES = FormExamples(
    Form.F5,
    valid=(
        'Use the Task tool with `subagent_type="shop:critic"` and `name: "c1"`.',
        'Spawn the critic: `Task: name="c1", subagent_type="shop:critic"`; hand it the plan.',
        '> Spawn the reviewer with `subagent_type: "shop:critic"` and the diff.',
    ),
    invalid=(
        # an agent file's frontmatter, the expected output of a grep of it
        'Run: `rg -n "^name:|^model:" plug/agents/planner-lite.md`\n'
        "Expected: `name: planner-lite` / `model: opus`",
        "Never pass `name` to the Agent tool: a named spawn runs as an `in_process_teammate`.",
        "- Codex: install the skill folder and invoke `name: api-notes`.",  # another harness's way
        # a call forbidden, in the clause before its parameters
        'Do NOT call the `Agent` tool with `subagent_type: "docs:deep-dive"` -- it is a skill.',
        # a convention of an authoring guide, said of skills in general
        "- **Skill dispatches a reviewer** → use the `Task` tool with `subagent_type: general-purpose`.",
        # a skill's `name` field, invoked by its slash command
        "If the folder is `docs/` but `name: research-docs`, type `/research-docs` to invoke it.",
        # another framework's agent, built and kept (Google ADK in a docstring)
        'from google.adk.agents import Agent\n\nagent = Agent(\n    name="voice-assistant",\n'
        '    system_instruction="You are a helpful voice assistant."\n)',
    ),
)

SPEC = FormSpec(Form.F5, TRIGGER, _remove, (EXAMPLES,))
