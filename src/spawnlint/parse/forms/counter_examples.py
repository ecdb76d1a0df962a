"""Counter-examples: spawns shown as wrong (under WRONG / Bad / ❌ / Don't headings, lead lines
and fence comments) and `<example>` dialogues, which are not spawn sites."""

from __future__ import annotations

import re
from functools import lru_cache

from spawnlint.parse.forms import vocabulary
from spawnlint.parse.text import CODE_SPAN, HEADING_IN_TEXT, RawSite, Structure, previous_nonblank

_EMOJI = vocabulary.alternation(vocabulary.COUNTER_EMOJI)
_COUNTER_EMOJI = re.compile(_EMOJI)


_LEADING_EMOJI = re.compile(rf"^[\s>*#+|`/<!\-]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*{_EMOJI}")


_COUNTER_LABEL = re.compile(
    r"^[\s#>*_\-+|`/<!]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*"
    rf"(?P<word>{vocabulary.alternation(vocabulary.COUNTER_LABELS)})\b"
    rf"|\b{vocabulary.alternation(vocabulary.COUNTER_VERDICTS)}\s*(?::|\)|—|–|-\s)"
    rf"|\b{vocabulary.alternation(vocabulary.COUNTER_ANYWHERE)}\b",
    re.IGNORECASE,
)


_WEAK_WORDS = re.compile(vocabulary.alternation(vocabulary.WEAK_COUNTER_LABELS), re.IGNORECASE)


_TRAILING_COUNTER = re.compile(
    rf"(?:#|//|<!--)\s*(?:❌|{vocabulary.alternation(vocabulary.COUNTER_COMMENT_WORDS)})\b", re.IGNORECASE
)


_COMMENT_LINE = re.compile(r"^\s*(?:#|//|<!--|--|/\*|\*)")


def example_lines(lines: list[str]) -> set[int]:
    """Lines inside `<example>` ... `</example>` (and `<commentary>` ... `</commentary>`, often
    nested in them): dialogues that show delegation, not spawns."""
    inside: set[int] = set()
    lowered = "\n".join(lines).lower()
    if "example>" not in lowered and "commentary>" not in lowered:
        return inside  # no tag to open: the common case, without a search per line
    depth = {"example": 0, "commentary": 0}
    for j, line in enumerate(lines):
        tags = re.findall(r"<(/?)(example|commentary)>", CODE_SPAN.sub("", line), re.IGNORECASE)
        for closing, tag in tags:  # a tag named in `code` opens nothing
            if not closing:
                depth[tag.lower()] += 1
        if any(depth.values()):
            inside.add(j)
        for closing, tag in tags:
            if closing:
                depth[tag.lower()] = max(0, depth[tag.lower()] - 1)
    return inside


def is_counter_example(structure: Structure, site: RawSite) -> bool:
    """A spawn shown as wrong: under a heading or lead line marked WRONG / Bad / ❌ / Don't...
    "Never"/"Don't" leads often introduce the *right* way too, so they mark only named spawns."""
    named = any(p.key == "name" for p in site.params)
    first_emoji, trailing = _line_marks(structure.lines[site.line])
    # A ❌ before the call marks it (`❌ Task(...)`); one inside its prompt does not.
    if first_emoji < site.column - 1 or trailing:
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
        if named or not _WEAK_WORDS.fullmatch(word):
            return True
    return False


@lru_cache(maxsize=16)
def _line_marks(line: str) -> tuple[int, bool]:
    """Where the line's first ❌ is (its length when none) and whether it ends in a counter
    comment: searched once a line, not once per spawn on it (a line of thousands of calls)."""
    emoji = _COUNTER_EMOJI.search(line)
    return (emoji.start() if emoji else len(line)), bool(_TRAILING_COUNTER.search(line))


def _context_lines(structure: Structure, site: RawSite) -> list[str]:
    """The site's line, the heading above it ("" when none), and the lines that introduce it."""
    lines = structure.lines
    context: list[str] = [lines[site.line]]
    heading = next((h for h in reversed(structure.headings) if h[0] < site.line), None)
    context.append(heading[2] if heading is not None else "")
    block = site.block
    if block.kind == "fence":
        inner = previous_nonblank(lines, site.line - 1, block.start)
        if inner is not None and _COMMENT_LINE.match(lines[inner]):
            context.append(lines[inner])
            return context
        above = block.fence_open if block.fence_open is not None else block.start
    else:
        above = block.start
        if site.line > block.start:
            context.append(lines[site.line - 1])
    lead = previous_nonblank(lines, above - 1, max(0, above - 3))
    if lead is not None and not HEADING_IN_TEXT.match(lines[lead]):
        context.append(lines[lead])
    return context
