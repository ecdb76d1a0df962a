"""Markdown files (commands, skills, agent bodies, references): their block structure is read
here, by blocks.py's fast scan or else markdown-it-py (imported here only); the spawn forms
(forms/) find the sites in it, counter_examples.py drops the ones shown as wrong, send_message.py
reads what the text says about reporting."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

from spawnlint import lazy
from spawnlint.model import Param, Section, Sentence, SpawnSite, ValueKind, section_of
from spawnlint.parse.blocks import fast_structure
from spawnlint.parse.forms.counter_examples import is_counter_example, shown_documents
from spawnlint.parse.forms.registry import document, find_sites, rule_blocks, with_removals
from spawnlint.parse.forms.syntax import is_absent
from spawnlint.parse.text import HEADING_IN_TEXT, Block, RawSite, Structure, block_sentences
from spawnlint.send_message import mentions_send_message_tool, report_lines

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


@dataclass(frozen=True)
class MarkdownFacts:
    sites: tuple[SpawnSite, ...]
    candidates: tuple[SpawnSite, ...]
    sentences: tuple[Sentence, ...]
    sections: tuple[Section, ...]
    mentions_send_message: bool
    report_lines: tuple[tuple[int, int], ...]
    unread_line: int = 0  # see Structure.unread_line


def analyse(path: str, lines: list[str], body_start: int, all_sentences: bool = True) -> MarkdownFacts:
    """Everything the markdown body (lines from `body_start`, 0-based) says. Without
    `all_sentences`, only the sentences of blocks that could hold a no-name rule sentence of the
    default matcher (it needs agent, task or spawn)."""
    blanked = [""] * body_start + lines[body_start:]
    structure = build_structure(blanked)
    sections = sections_of(structure)
    doc = document(structure)
    raw_sites = find_sites(doc)
    documents = shown_documents(structure.lines) if raw_sites else ()
    told: dict[Section | None, bool] = {}  # per section: does it name the SendMessage tool?
    tops = list(structure.tops)
    headings = frozenset(line + 1 for line, _, _ in structure.headings)
    read = [
        (
            raw.candidate,
            with_removals(
                _in_block(to_site(path, structure, sections, raw, told), tops, lines, headings), lines
            ),
        )
        for raw in raw_sites
        if not is_counter_example(structure, raw, documents)
    ]
    sites = [site for candidate, site in read if not candidate]
    candidates = [site for candidate, site in read if candidate]
    body = "\n".join(blanked)
    return MarkdownFacts(
        sites=tuple(sorted(sites, key=lambda s: (s.line, s.column))),
        candidates=tuple(sorted(candidates, key=lambda s: (s.line, s.column))),
        sentences=tuple(sentences_of(structure, None if all_sentences else rule_blocks(doc))),
        sections=sections,
        mentions_send_message=mentions_send_message_tool(body),
        report_lines=report_lines(lines, body_start),
        unread_line=structure.unread_line,
    )


def _in_block(site: SpawnSite, tops: list[int], lines: list[str], headings: frozenset[int]) -> SpawnSite:
    if site.line in headings:  # a heading that says to spawn: the rule goes first under it
        after = next((j for j in range(site.line + 1, len(lines) + 1) if lines[j - 1].strip()), None)
        if after is None:
            return site
        return replace(site, block_line=after, block_joined=bool(lines[after - 2].strip()))
    at = bisect_right(tops, site.line)
    if not at:
        return site
    start = tops[at - 1]
    if at >= 2 and _introduces(lines, tops[at - 2], start):
        start = tops[at - 2]  # "Run:" and the block it introduces stay together
    while start > 1 and _TAG_LINE.match(lines[start - 2]):
        start -= 1  # a block wrapped in a tag (`<Task>`) starts at the tag
    return replace(site, block_line=start, block_joined=start > 1 and bool(lines[start - 2].strip()))


def _introduces(lines: list[str], lead: int, block: int) -> bool:
    """Whether the top-level block at 1-based line `lead` is a paragraph ending in a colon that
    introduces the block starting at line `block`."""
    text = [line for line in lines[lead - 1 : block - 1] if line.strip()]
    return bool(text) and not HEADING_IN_TEXT.match(text[0]) and text[-1].rstrip().endswith(":")


def build_structure(lines: list[str]) -> Structure:
    """The block structure of the markdown lines: the fast scan where it is certain to read it as
    markdown-it does, markdown-it elsewhere. A line that is only a tag of the prompt's own is read
    as a blank line (see `untagged`)."""
    read = untagged(lines)
    fast = fast_structure(read)
    structure = fast if fast is not None else markdown_it_structure(read)
    return structure if read is lines else replace(structure, lines=lines)


# A line that is only an opening or closing tag: `<exploration priority="first">`, `</steps>`.
_TAG_LINE = lazy.compile(r"^\s{0,3}</?([A-Za-z][\w-]*)(?:\s[^<>]*)?/?>\s*$")
# Tags whose content is raw text to markdown and to the model alike.
_RAW_TAGS = frozenset({"pre", "script", "style", "textarea"})
# Lines after which a tag line opens an HTML block (it cannot interrupt a paragraph: there it is
# the paragraph's text, read as markdown anyway): a blank line, a heading, a fence marker.
_BLOCK_BEFORE = lazy.compile(r"^\s{0,3}(?:#{1,6}(?:\s|$)|`{3,}|~{3,})|^\s*$")


def untagged(lines: list[str]) -> list[str]:
    """The lines with each line that is only a tag blanked. Prompts wrap their steps in tags of
    their own (`<exploration>` ... `</exploration>`); markdown opens an HTML block at such a line
    and reads nothing in it as markdown until a blank line, but the model reads the text inside as
    instructions, lists and all."""
    if not any("<" in line for line in lines):
        return lines
    out = None
    for j, line in enumerate(lines):
        m = _TAG_LINE.match(line) if "<" in line else None
        if m is None or m.group(1).lower() in _RAW_TAGS:
            continue
        before = (out if out is not None else lines)[j - 1] if j else ""
        if _BLOCK_BEFORE.match(before):
            out = out if out is not None else list(lines)
            out[j] = ""
    return out if out is not None else lines


# How deep markdown-it nests blocks (its commonmark preset stops at 20: a spawn under 20
# blockquotes, or in a list 10 levels deep, went unread without a word). Each list level is two
# (the list and its item); 100 reads a 30-level list and stays far below the recursion limit.
MAX_NESTING = 100


@cache
def _markdown_it() -> MarkdownIt:
    """The parser, imported and built on first use: most files never need it."""
    from markdown_it import MarkdownIt

    # Only the block structure is needed: skip the inline pass (emphasis, links), a fifth of the time.
    return MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).disable("inline")


def markdown_it_structure(lines: list[str]) -> Structure:
    tokens = _markdown_it().parse("\n".join(lines))
    blocks: list[Block] = []
    headings: list[tuple[int, int, str]] = []
    leads: list[tuple[Block, tuple[tuple[int, int], ...]]] = []
    tops: list[int] = []
    unread = 0
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.nesting == 1 and tok.level >= MAX_NESTING - 1 and not unread:
            unread = a + 1  # markdown-it skips what this container holds
        if tok.level == 0 and tok.nesting >= 0:
            tops.append(a + 1)
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
    return Structure(lines, tuple(blocks), tuple(headings), tuple(leads), tuple(tops), unread)


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


def sections_of(structure: Structure) -> tuple[Section, ...]:
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


def sentences_of(structure: Structure, only: list[Block] | None = None) -> list[Sentence]:
    """The sentences of every block, or of the blocks in `only`."""
    blocks = structure.blocks if only is None else only
    return [s for block in blocks for s in block_sentences(structure, block)]


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
