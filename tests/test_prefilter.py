"""The prefilter loses nothing: every markdown file of the repository that it lets skip the full
parse yields no spawn, report instruction or rule sentence under the full parse; skipping the
blocks without its words changes no file's sites or rule sentences; and every project gives
the same findings and facts with and without both."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spawnlint.parse as parse_module
from conftest import REPO
from spawnlint import engine
from spawnlint.config import load_settings
from spawnlint.engine import lint
from spawnlint.model import FileKind
from spawnlint.parse import forms, parse_text
from spawnlint.parse.prefilter import hot_lines, may_spawn, needs_full_parse
from spawnlint.parse.rule_sentence import is_rule_sentence

MARKDOWN = sorted(
    p
    for folder in ("tests", "examples", "rules")
    for p in (REPO / folder).rglob("*.md")
    if ".venv" not in p.parts
)
PROJECTS = sorted(p.parent for p in (REPO / "tests" / "projects").glob("*/expected.txt")) + [
    REPO / "examples" / "demo-plugin"
]
SNIPPETS = sorted(p for p in (REPO / "tests" / "corpus").glob("*.md") if p.name != "README.md")


def test_the_corpus_exercises_both_paths() -> None:
    skipped = [p for p in MARKDOWN if not needs_full_parse(p.read_bytes(), False)]
    assert len(MARKDOWN) > 200 and 0 < len(skipped) < len(MARKDOWN)


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(REPO)))
@pytest.mark.parametrize("kind", [FileKind.COMMAND, FileKind.AGENT])
def test_a_skipped_file_has_nothing_the_full_parse_would_find(
    path: Path, kind: FileKind, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    if needs_full_parse(data, custom_rule_pattern=False):
        return
    text = data.decode("utf-8-sig", errors="replace")
    cheap = parse_text("x.md", text, kind, body=False)
    monkeypatch.setattr(forms, "hot_lines", lambda lines: set(range(len(lines))))
    monkeypatch.setattr(parse_module, "may_spawn", lambda text: True)
    full = parse_text("x.md", text, kind)
    assert [s for s in full.sites if s.form != "F9"] == []
    assert [s.text for s in full.sentences if is_rule_sentence(s.text, require_mechanism=False)] == []
    assert full.agents == cheap.agents  # SendMessage mentions and report lines included
    assert (full.unit_frontmatter, full.suppressions, full.problems) == (
        cheap.unit_frontmatter,
        cheap.suppressions,
        cheap.problems,
    )
    assert full.sites == cheap.sites


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(REPO)))
def test_skipping_cold_blocks_changes_no_site_or_rule_sentence(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = path.read_bytes().decode("utf-8-sig", errors="replace")

    def facts() -> tuple[object, ...]:
        parsed = parse_text("x.md", text, FileKind.COMMAND, all_sentences=False)
        rules = [s for s in parsed.sentences if is_rule_sentence(s.text, require_mechanism=False)]
        return parsed.sites, rules, parsed.agents

    gated = facts()
    monkeypatch.setattr(forms, "hot_lines", lambda lines: set(range(len(lines))))
    monkeypatch.setattr(parse_module, "may_spawn", lambda text: True)
    assert facts() == gated


def test_a_custom_rule_pattern_turns_the_prefilter_off() -> None:
    assert needs_full_parse(b"Keep names short.", custom_rule_pattern=True)
    assert not needs_full_parse(b"Keep names short.", custom_rule_pattern=False)


@pytest.mark.parametrize(
    "text",
    [
        "Dispatch `codebase-recon` now.",
        "Kick  off `x-y` now.",
        "Spin\nup `x-y`.",
        "Use SENDMESSAGE to report.",
        "Run the **x** critic.",
        "Use the ta\u017fk tool.",  # a case-insensitive regex reads the long s as an s
        "\u212aick off `x-y`.",  # and the Kelvin sign as a k
    ],
)
def test_words_that_start_a_spawn_pass(text: str) -> None:
    assert needs_full_parse(text.encode(), custom_rule_pattern=False)
    assert may_spawn(text)


def _facts(root: Path) -> tuple[object, ...]:
    result = lint(root, load_settings(root), use_cache=False)
    p = result.project
    return result.diagnostics, p.spawns, p.agents, p.units, p.uncovered, p.problems


@pytest.mark.parametrize("root", PROJECTS + SNIPPETS, ids=lambda p: p.stem)
def test_same_results_with_and_without_the_prefilter(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if root.suffix == ".md":  # a corpus snippet, linted as a command of the corpus project
        snippet, root = root, tmp_path / "p"
        shutil.copytree(REPO / "tests" / "corpus" / "_project", root)
        (root / "commands").mkdir(exist_ok=True)
        shutil.copy(snippet, root / "commands" / snippet.name)
    with_prefilter = _facts(root)
    monkeypatch.setattr(engine, "needs_full_parse", lambda data, custom: True)
    monkeypatch.setattr(forms, "hot_lines", lambda lines: set(range(len(lines))))
    monkeypatch.setattr(parse_module, "may_spawn", lambda text: True)
    assert _facts(root) == with_prefilter


_PIECES = [
    "Agent",
    "TASK",
    "kick",
    "off",
    "spin",
    "up",
    "plain words",
    "",
    "  ",
    "ta\u017fk",
    "sendMessage",
    "x",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=4).map(" ".join), max_size=8))
def test_hot_lines_cover_every_span_that_may_spawn(lines: list[str]) -> None:
    hot = hot_lines(lines)
    for a in range(len(lines)):
        for b in range(a + 1, len(lines) + 1):
            if may_spawn("\n".join(lines[a:b])):
                assert any(j in hot for j in range(a, b)), (a, b)
