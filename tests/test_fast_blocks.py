"""The fast block scan reads every document it accepts exactly as markdown-it does."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, run_cli
from spawnlint.parse.blocks import fast_structure, scan
from spawnlint.parse.markdown import build_structure, markdown_it_structure
from spawnlint.parse.text import Structure
from spawnlint.source_lines import split_lines

sys.path.insert(0, str(REPO / "bench"))
from generate import generate  # noqa: E402

# Real public plugin repositories, on the machines that hold them (never committed).
# Local snapshots of public plugin repositories, when a developer points at them (never in CI)
REAL_TREES = [Path(p) for p in os.environ.get("SPAWNLINT_REAL_TREES", "").split(os.pathsep) if p]


def body_lines(path: Path) -> list[str]:
    """A markdown file's lines as analyse() hands them over: the frontmatter blanked."""
    lines = split_lines(path.read_bytes().decode("utf-8", "replace"))
    if lines and lines[0].rstrip() == "---":
        close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
        if close is not None:
            lines = [""] * (close + 1) + lines[close + 1 :]
    return lines


def markdown_files(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield from sorted(root.rglob("*.md"))


def fast_share(paths: list[Path]) -> float:
    """The share of the files the fast scan reads; fails on the first it reads wrongly."""
    fast = 0
    for path in paths:
        lines = body_lines(path)
        got = fast_structure(lines)
        if got is not None:
            assert got == markdown_it_structure(lines), path
            fast += 1
    return fast / len(paths)


def test_repository_markdown_reads_as_markdown_it_does() -> None:
    paths = list(markdown_files(REPO / "tests", REPO / "examples", REPO / "rules"))
    assert len(paths) > 100
    assert fast_share(paths) >= 0.9


def test_benchmark_tree_reads_as_markdown_it_does(tmp_path: Path) -> None:
    generate(tmp_path, plugins=20)
    paths = list(markdown_files(tmp_path))
    assert len(paths) > 500
    assert fast_share(paths) >= 0.95


@pytest.mark.skipif(not any(p.is_dir() for p in REAL_TREES), reason="no real plugin repositories here")
def test_real_plugin_markdown_reads_as_markdown_it_does() -> None:
    paths = list(markdown_files(*(p for p in REAL_TREES if p.is_dir())))
    assert fast_share(paths) >= 0.9


INDENTS = ("", "", "", " ", "  ", "   ", "    ", "     ", "      ", "        ", "\t", " \t", "  \t")
BODIES = (
    # headings
    "# Title", "## Section ##", "###### six", "####### seven", "#", "#hash", "# a #", "#\tx", "## ",
    "# trailing #  #", "### x ###b",
    # fences
    "```", "````", "~~~", "~~~~", "```python", "``` js", "~~~ ```", "```a`b", "``", "`` x", "~~~~~",
    "```  ", "~~~\t",
    # list items
    "-", "- ", "- item", "* item", "+ item", "1. item", "1) item", "10. item", "2. item", "0. x",
    "01. x", "1.", "2)", "-    x", "-     x", "-\titem", "- - x", "- # h", "- ```", "1. ```",
    "- [ ] task", "* * *", "- ---", "-\t-", "1234567890. x", "123456789. x", "-x", "1.x", "+",
    # paragraphs, tables, setext underlines, rules
    "text", "more text", "a | b |", "| col | col |", "|---|---|", "---", "===", "***", "___",
    "- - -", "--", "==", "= =", "-----  ", "_ _ _", "**bold**", "*em*", "x  ", "trailing \\",
    "# \u2003x\xa0", "\xa0x", "\x0c", "#\x1cx",
    # HTML blocks of each kind, and lines that only look like one
    "<div>", "</div>", "<DIV class=x>", "<p", "<details>", "<summary>x</summary>", "<!-- c -->",
    "<!-- c", "-->", "<script>", "</script>", "<pre x>", "<?php", "?>", "<!DOCTYPE html>",
    "<![CDATA[", "]]>", "<example>", "</example>", "<x-y/>", "<a href='x'>", '<a b="c" d=e>',
    "<br/> x", "<b>x</b>", "<placeholder> text", "< div>", "<search>", "</ul >", "<a\xa0b>",
    # blockquotes
    "> quote", ">", "> > x", ">quote", ">  x", ">     code", "> - item", "> ```", "> # h", "> ---",
    ">>", "> 1. x", "> <div>", "> text", ">\tx",
    "[ref]: /url", "[link](x) text", "[x]", "[a] [b]", "[", "\\[x]:",
    # blank lines
    "", "", "", " ",
)  # fmt: skip
TRAILS = ("", "", "", "  ", "\t", " #", " ```")

awkward_line = st.builds(
    lambda i, b, t: i + b + t if b.strip() else i + b,
    st.sampled_from(INDENTS),
    st.sampled_from(BODIES),
    st.sampled_from(TRAILS),
)


@settings(max_examples=max(1500, settings.default.max_examples))
@given(st.lists(awkward_line, max_size=24))
def test_awkward_documents_read_as_markdown_it_does(lines: list[str]) -> None:
    got = fast_structure(lines)
    assert got is None or got == markdown_it_structure(lines)


# Few kinds of line, so that hypothesis meets their combinations often: list items of each
# indent, empty items, fences, quotes, HTML, setext underlines.
DENSE = (
    "", "", "-", "- a", "  - b", "   - c", "*", "1.", "1. x", "2) y", "text", "  text", "```", "~~~",
    "    code", " ", "#", "## h", "---", "===", "<div>", "<!--", "-->", "\tx", "> q", ">", "> - a",
    ">   - b", "> ```", "> > c",
)  # fmt: skip


@settings(max_examples=max(1500, settings.default.max_examples))
@given(st.lists(st.sampled_from(DENSE), max_size=12))
def test_dense_documents_read_as_markdown_it_does(lines: list[str]) -> None:
    got = fast_structure(lines)
    assert got is None or got == markdown_it_structure(lines)


@pytest.mark.parametrize(
    "lines",
    [
        ["-", "", "-"],  # an empty item followed by a blank line ends two lines on
        ["Run:", "", "-", "", "foo"],  # ... which the lead's item shows
        ["> ```", ">"],  # a fence in a quote ends before a last ">": markdown-it reads past the end
        ["> - a", ">", ">", "", "foo"],  # the item runs over the blank lines after the quote
        ["> q", "> - a", ">", "", ""],  # ... but steps over one blank line only to the quote's end
        ["text", "2. two"],  # only "1." starts a list inside a paragraph
        ["text", "-"],  # an empty item does not interrupt a paragraph
        ["- a", "     - b"],  # indented 4 past the item's content: a continuation line
        ["Title", "  ===", "- a", "---"],  # setext headings, and "---" after an item
        ["<!-- a", "", "b -->", "after"],  # a comment runs over blank lines
        ["<example>", "text", "", "- after"],  # an HTML block ends at a blank line
        ["text", "<example>"],  # ... and a bare tag does not interrupt a paragraph
        ["text", "<div>"],  # ... but a block tag does
        ["```", "a", "````", "b"],  # a longer closer closes
        ["  ```", "  a", "   ```"],
        [("  " * k) + "- x" for k in range(12)],  # nested past markdown-it's maxNesting
    ],
)
def test_markdown_it_quirks_are_reproduced(lines: list[str]) -> None:
    got = fast_structure(lines)
    assert got is None or got == markdown_it_structure(lines)
    assert got is not None or lines[-1].endswith("- x")


def test_build_structure_takes_the_fast_scan_and_falls_back() -> None:
    plain = ["# Title", "", "Run:", "- a", "  - b", "", "> quoted", "", "```", "code", "```"]
    lazy = ["> a quote", "that goes on without its >", "", "text"]
    reference = ["[docs]: https://example.com", "", "text"]
    assert isinstance(scan(plain), Structure)
    assert scan(lazy) == "a lazy continuation line, or a block ending a blockquote"
    assert scan(reference) == "perhaps a link reference definition"
    assert scan(["a\rb"]) == "a carriage return, NUL or line feed inside a line"
    for lines in (plain, lazy, reference):
        assert build_structure(lines) == markdown_it_structure(lines)


SPAWNING_COMMAND = """---
description: Review
---

# Review

Use the Task tool with:
- `subagent_type`: `reviewer`
- `prompt`: Review the diff.

> Wait for its answer.
"""


def test_markdown_it_is_not_imported_when_every_file_takes_the_fast_scan(
    project: Callable[[dict[str, str | bytes]], Path],
) -> None:
    root = project({"commands/review.md": SPAWNING_COMMAND})
    found = run_cli("check", "--root", str(root), "--no-cache", "--output-format", "json").out
    assert '"path": "commands/review.md"' in found  # the spawn was read
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "spawnlint", "check", "--root", str(root), "--no-cache"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "spawnlint.parse.markdown" in proc.stderr  # the file was read in full
    assert "markdown_it" not in proc.stderr
