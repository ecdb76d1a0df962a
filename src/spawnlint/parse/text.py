"""The text model of a markdown file: its blocks and list leads (built by markdown.py), the
raw spawn sites found in them, and sentences (the unit of the no-name rule and of prose forms)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import NamedTuple

from spawnlint import lazy
from spawnlint.model import Form, Param, Sentence

_LF = lazy.compile("\n")


class LineIndex:
    """Offsets in a text to 1-based (line, column), shifted by the text's first line."""

    def __init__(self, text: str, first_line: int = 1, first_column: int = 1) -> None:
        self._starts = [0] + [m.end() for m in _LF.finditer(text)]
        self._first_line = first_line
        self._first_column = first_column

    def position(self, offset: int) -> tuple[int, int]:
        row = bisect_right(self._starts, offset) - 1
        column = offset - self._starts[row] + 1
        if row == 0:
            column += self._first_column - 1
        return self._first_line + row, column


CODE_SPAN = lazy.compile(r"`([^`\n]+)`")
HEADING_IN_TEXT = lazy.compile(r"^\s{0,3}(#{1,6})\s")
# a list item's marker at the start of a line (match it there): "- ", "* ", "3. ", "2) "
LIST_ITEM = lazy.compile(r"\s*(?:[-*+]|\d+[.)])\s")


@dataclass(frozen=True)
class FormExamples:
    """Fixit-style cases of one spawn form, kept beside its recogniser: each VALID text yields a
    site of the form (in markdown and inside a Python string), each INVALID text none of it.
    tests/test_form_examples.py runs them through every gate."""

    form: Form
    valid: tuple[str, ...]
    invalid: tuple[str, ...]


class Block(NamedTuple):
    """A block of a markdown document (a tuple: it is hashed on every question a pass asks of it,
    and a tuple's hash is the interpreter's own)."""

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
    tops: tuple[int, ...] = ()  # 1-based first lines of the top-level blocks (a list as a whole)
    # the 1-based line from which blocks nested past the parser's depth limit went unread (0: none)
    unread_line: int = 0


@dataclass(frozen=True)
class RawSite:
    form: Form
    line: int  # 0-based
    column: int  # 1-based
    tool: str | None
    params: tuple[Param, ...]
    block: Block
    confidence: str = "high"
    # a spawn only if its target is an agent of the project (prose that names an agent plainly:
    # "Launch recon-invoker"); the project stage confirms it (one lookup in the agent index)
    candidate: bool = False


def block_sentences(structure: Structure, block: Block, lines: list[str] | None = None) -> list[Sentence]:
    """Sentences of a paragraph; of a fence, code or HTML block, paragraph by blank-line paragraph
    (of `lines` where given: the block's lines read another way, the same length)."""
    lines = structure.lines if lines is None else lines
    if block.kind == "paragraph":
        return split_sentences(lines, block.start, block.end)
    out: list[Sentence] = []
    start = block.start
    for j in range(block.start, block.end + 1):
        if j == block.end or not lines[j].strip():
            if j > start:
                out.extend(split_sentences(lines, start, j))
            start = j + 1
    return out


def previous_nonblank(lines: list[str], start: int, stop: int) -> int | None:
    for j in range(start, stop - 1, -1):
        if j < 0:
            return None
        if lines[j].strip():
            return j
    return None


def split_sentences(lines: list[str], start: int, end: int) -> list[Sentence]:
    text = "\n".join(lines[start:end])
    index = LineIndex(text, start + 1)
    out: list[Sentence] = []
    begin = 0
    in_code = False
    rows_or_labels = "|" in text or "**" in text  # else no newline ends a sentence
    for mark in _SENTENCE_MARKS.finditer(text):  # only the characters that can end a sentence
        i = mark.start()
        ch = text[i]
        if ch == "`":
            in_code = not in_code
        elif ch == "\n":
            if rows_or_labels and (_table_row_edge(text, begin, i) or _is_label_line(text, i)):
                out.append(_sentence(text, begin, i, index))  # a table row, a "**Label:**" line
                begin, in_code = i + 1, False
        elif not in_code and not _ABBREVIATION.search(text[max(0, i - 5) : i]):
            out.append(_sentence(text, begin, mark.end(), index))
            begin = mark.end()
    if text[begin:].strip():
        out.append(_sentence(text, begin, len(text), index))
    return [s for s in out if s.text]


# A backtick, a newline, or a full stop / ! / ? followed by white space (str.isspace, as \s is), the
# bold it closes with it ("**Axis 2 — dispatch preference.** Decides where …": two sentences).
_SENTENCE_MARKS = lazy.compile(r"[`\n]|[.!?](?:\*\*|__)?(?=\s)")
_ABBREVIATION = lazy.compile(r"(?<![\w.])(?:e\.g|i\.e|etc|vs|cf)$", re.IGNORECASE)


_LABEL_LINE = lazy.compile(r"\s*\*\*[^*\n]{1,60}(?::\*\*|\*\*:)\s*")


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
