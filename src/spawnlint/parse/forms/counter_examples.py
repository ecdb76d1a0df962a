"""Counter-examples: spawns shown as wrong (under WRONG / Bad / ❌ / Don't headings, lead lines
and fence comments), `<example>` dialogues and whole files shown in a markdown fence, which are
not spawn sites."""

from __future__ import annotations

import re
from functools import lru_cache

from spawnlint import lazy
from spawnlint.model import Form
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.text import CODE_SPAN, HEADING_IN_TEXT, RawSite, Structure, previous_nonblank

_EMOJI = vocabulary.alternation(vocabulary.COUNTER_EMOJI)
_COUNTER_EMOJI = lazy.compile(_EMOJI)
# what the unit leaves to others: "## Out of Scope" / "- Exhaustive grep (use completeness-verifier
# agent)" points elsewhere, it does not spawn
# ("## What this skill will NOT do" likewise)
_OUT_OF_SCOPE = lazy.compile(
    r"^\W*(?:out\s+of\s+scope|not\s+in\s+scope|non-goals?"
    r"|what\s+(?:this|the)\s+(?:skill|command|agent|plugin)\s+(?:will\s+not|won't|does\s+not|doesn't)\s+do)\b",
    re.IGNORECASE,
)
# the cases a unit is not for, and where they go instead: "This skill should NOT be used when the
# user needs:" / "- Troubleshooting (use the pandoc-guide agent)", "## When NOT to use"
_NOT_FOR = lazy.compile(
    r"\b(?:(?:should|must)\s+not\s+be\s+used|(?:do\s+not|don't)\s+use\s+(?:this|the)\s+(?:skill|command))"
    r"\s+(?:when|for|if)\b|^\W*when\s+not\s+to\s+use\b",
    re.IGNORECASE,
)


# pointers for the reader: "## See Also" / "- `code-reviewer` agent — pre/post review", "**Related
# resources:**" / "- **After**: Use the `code-reviewer` agent to verify the refactoring" (not "## Related
# Agents", which may say what the unit runs: "This command invokes the `e2e-runner` agent")
_POINTERS = lazy.compile(
    r"^[\s#>*_-]*(?:\*\*|__)?\s*(?:related(?:\s+(?:resources|docs|documentation|links|reading))?|see\s+also"
    r"|further\s+reading)\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)


_LEADING_EMOJI = lazy.compile(rf"^[\s>*#+|`/<!\-]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*{_EMOJI}")


_COUNTER_LABEL = lazy.compile(
    r"^[\s#>*_\-+|`/<!]*(?:\d+[.)]\s*)?(?:\*\*|__)?\s*"
    rf"(?P<word>{vocabulary.alternation(vocabulary.COUNTER_LABELS)})\b"
    rf"|\b{vocabulary.alternation(vocabulary.COUNTER_VERDICTS)}\s*(?::|\)|—|–|-\s)"
    # (not a file's or an id's part: "the predicates of anti-pattern-detection.md")
    rf"|(?<![\w/.-]){vocabulary.alternation(vocabulary.COUNTER_ANYWHERE)}(?![\w/-]|\.\w)",
    re.IGNORECASE,
)


_WEAK_WORDS = lazy.compile(vocabulary.alternation(vocabulary.WEAK_COUNTER_LABELS), re.IGNORECASE)


_TRAILING_COUNTER = lazy.compile(
    rf"(?:#|//|<!--)\s*(?:❌|{vocabulary.alternation(vocabulary.COUNTER_COMMENT_WORDS)})\b", re.IGNORECASE
)


_COMMENT_LINE = lazy.compile(r"^\s*(?:#|//|<!--|--|/\*|\*)")


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


_DOCUMENT_FENCE = lazy.compile(r"^\s{0,3}(?:`{3,}|~{3,})\s*(?:markdown|md)\b", re.IGNORECASE)


def opens_a_document(lines: list[str], at: int) -> bool:
    """Whether line `at` opens a markdown fence that holds a whole file with frontmatter: a command
    or agent shown to the author (a template, an example), whose instructions are not its own."""
    return bool(_DOCUMENT_FENCE.match(lines[at])) and at + 1 < len(lines) and lines[at + 1].strip() == "---"


_ANY_FENCE = lazy.compile(r"^\s{0,3}(?:`{3,}|~{3,})")
_BARE_FENCE = lazy.compile(r"^\s{0,3}(?:`{3,}|~{3,})\s*$")


def shown_documents(lines: list[str]) -> tuple[tuple[int, int], ...]:
    """The 0-based line ranges [open, close] of markdown fences (```markdown, ```md) that hold a
    document, its frontmatter or a heading first: a file or a section shown or written (a block to
    paste into CLAUDE.md, an example command), whose instructions are not the unit's (a fence so
    labelled that opens with a call holds the call: labels lie). The fences inside one nest as
    their author meant: one with an info string opens, and so does a bare one after a blank line
    with text right below it ("ask the user:", blank, ```, the question, ```); any other bare one
    closes. A document whose fences do not balance so ends where CommonMark ends it, at its first
    bare fence."""
    found: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        first = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if not (_DOCUMENT_FENCE.match(lines[i]) and (first == "---" or HEADING_IN_TEXT.match(first))):
            i += 1
            continue
        depth, j, first_bare = 1, i + 1, None
        while j < len(lines) and depth:
            if _ANY_FENCE.match(lines[j]):
                bare = _BARE_FENCE.match(lines[j]) is not None
                first_bare = j if bare and first_bare is None else first_bare
                below = lines[j + 1] if j + 1 < len(lines) else ""
                opens = not bare or (
                    not lines[j - 1].strip() and below.strip() != "" and not _ANY_FENCE.match(below)
                )
                depth += 1 if opens else -1
            j += 1
        end = j - 1 if depth == 0 else (first_bare if first_bare is not None else len(lines) - 1)
        found.append((i, end))
        i = end + 1
    return tuple(found)


_EXAMPLE_HEADER = lazy.compile(r"^\s*(?:\*\*)?(?:examples?|e\.g\.?|usage|sample|syntax)\b", re.IGNORECASE)


def _in_example_column(lines: list[str], line: int, column: int) -> bool:
    """Whether the position is in a table cell under an "Example" (or "Usage", "Syntax") header:
    a reference table of tools shows how a call is written (`| Task | Delegate | `Task(...)` |`)."""
    if not lines[line].lstrip().startswith("|"):
        return False
    top = line
    while top > 0 and lines[top - 1].lstrip().startswith("|"):
        top -= 1
    if top == line:
        return False  # the header row itself
    cell = lines[line][: column - 1].count("|") - 1
    headers = lines[top].strip().strip("|").split("|")
    return 0 <= cell < len(headers) and bool(_EXAMPLE_HEADER.match(headers[cell]))


def is_counter_example(structure: Structure, site: RawSite, documents: tuple[tuple[int, int], ...]) -> bool:
    """A spawn shown as wrong: under a heading or lead line marked WRONG / Bad / ❌ / Don't...
    "Never"/"Don't" leads often introduce the *right* way too, so they mark only named spawns.
    A spawn inside a document in a markdown fence (`documents`, the file's `shown_documents`: a
    command shown whole, a block written into CLAUDE.md) is shown, not run."""
    if any(start < site.line < end for start, end in documents):
        return True
    if _in_example_column(structure.lines, site.line, site.column):
        return True
    named = any(p.key == "name" for p in site.params)
    first_emoji, trailing = _line_marks(structure.lines[site.line])
    # A ❌ before the call marks it (`❌ Task(...)`); one inside its prompt does not.
    if first_emoji < site.column - 1 or trailing:
        return True
    heading, *leads = _context_lines(structure, site)[1:] or [""]
    if heading and (_COUNTER_EMOJI.search(heading) or _OUT_OF_SCOPE.match(heading)):
        return True
    listed_under = _list_lead(structure, site.line)
    if any(_NOT_FOR.search(line) for line in [heading, *leads, *listed_under]):
        return True
    if site.form in (Form.F6, Form.F7) and any(_POINTERS.match(line) for line in [heading, *listed_under]):
        return True  # a pointer for the reader, not a step
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


def _list_lead(structure: Structure, line: int) -> list[str]:
    """The last line of the paragraph that leads the list whose item holds the line, if any."""
    for lead, items in structure.leads:
        if any(start <= line < end for start, end in items):
            return [structure.lines[lead.end - 1]]
    return []


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
    # (a table's last row introduces nothing: "| The guess was wrong | … |" above a step)
    if (
        lead is not None
        and not HEADING_IN_TEXT.match(lines[lead])
        and not lines[lead].lstrip().startswith("|")
    ):
        context.append(lines[lead])
    return context
