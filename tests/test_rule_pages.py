"""Rule pages are tests: each page's Example produces exactly its output block, and the files
under "Use instead" produce no finding at all."""

from __future__ import annotations

import builtins
import re
import shlex
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import spawnlint.parse.file
from conftest import REPO, run_cli, write_project
from spawnlint.model import FileKind, ParsedFile
from spawnlint.rules import RULES

PAGES = REPO / "rules"
HEADINGS = ["What it does", "Why is this bad?", "Example", "Use instead", "Options", "References"]


def _page(rule_code: str) -> Path:
    rule = next(r for r in RULES if r.code == rule_code)
    return PAGES / f"{rule.code}-{rule.name}.md"


def _sections(text: str) -> dict[str, list[tuple[str, str]]]:
    """Heading -> fenced blocks (info, content) under it."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = ""
    tokens = MarkdownIt("commonmark").parse(text)
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h2":
            current = tokens[i + 1].content.strip()
            sections[current] = []
        elif tok.type == "fence" and current:
            sections[current].append((tok.info.strip(), tok.content))
    return sections


def _files(blocks: list[tuple[str, str]]) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    for info, content in blocks:
        attrs = dict(part.split("=", 1) for part in shlex.split(info)[1:] if "=" in part)
        if "file" in attrs:
            # `encoding=latin-1` writes the text in another encoding (the SL002 example)
            encoding = attrs.get("encoding")
            files[attrs["file"]] = content.encode(encoding) if encoding else content
    return files


def _faults(blocks: list[tuple[str, str]]) -> dict[str, type[BaseException]]:
    """`fault=RecursionError` on a file: the parser raises on it, as a bug would. No real input
    provokes SL000 on purpose, so its page (and only its page) simulates one."""
    faults = {}
    for info, _ in blocks:
        attrs = dict(part.split("=", 1) for part in shlex.split(info)[1:] if "=" in part)
        if "fault" in attrs:
            faults[attrs["file"]] = getattr(builtins, attrs["fault"])
    return faults


def _output(blocks: list[tuple[str, str]]) -> list[str]:
    outputs = [
        content for info, content in blocks if info.split()[:1] == ["output"] or "output" in info.split()[1:]
    ]
    assert len(outputs) == 1, "an Example has exactly one output block"
    return [line for line in outputs[0].splitlines() if line.strip()]


@pytest.mark.parametrize("code", [r.code for r in RULES])
def test_page_has_fixed_headings(code: str) -> None:
    text = _page(code).read_text("utf-8")
    found = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert found == HEADINGS
    assert text.startswith(f"# {code} ")


@pytest.mark.parametrize("code", [r.code for r in RULES])
def test_page_example_output_is_exact(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sections = _sections(_page(code).read_text("utf-8"))
    example = sections["Example"]
    root = write_project(tmp_path / "example", _files(example))
    faults = _faults(example)
    assert bool(faults) == (code == "SL000"), "only the internal-error page may simulate a fault"
    if faults:
        real_parse_text = spawnlint.parse.file.parse_text

        def faulty_parse_text(path: str, text: str, kind: FileKind, *rest: bool) -> ParsedFile:
            if path in faults:
                raise faults[path]("simulated")
            return real_parse_text(path, text, kind, *rest)

        monkeypatch.setattr(spawnlint.parse.file, "parse_text", faulty_parse_text)
    run = run_cli("check", "--root", str(root), "--select", code)
    assert run.lines == _output(example)
    assert run.lines, "an Example must show the rule firing"


@pytest.mark.parametrize("code", [r.code for r in RULES])
def test_page_use_instead_is_clean(code: str, tmp_path: Path) -> None:
    sections = _sections(_page(code).read_text("utf-8"))
    files = _files(sections["Example"])
    files.update(_files(sections["Use instead"]))
    root = write_project(tmp_path / "fixed", files)
    run = run_cli("check", "--root", str(root))
    assert run.lines == []
    assert run.code == 0


@pytest.mark.parametrize("code", [r.code for r in RULES])
def test_rule_command_prints_the_page(code: str) -> None:
    run = run_cli("rule", code)
    assert run.code == 0
    assert run.out == _page(code).read_text("utf-8")
