"""The triggers lose nothing (fast path equals slow path, tested once for every form): every
markdown body of the repository that no trigger fires on yields no spawn, report instruction or
rule sentence under the block parse; running only the passes whose trigger fires on a block changes
no file's sites or rule sentences; every project gives the same findings and facts with and
without the triggers; and generated text agrees too."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import spawnlint.parse.forms.registry as registry
from conftest import REPO
from spawnlint.config import load_settings
from spawnlint.engine import lint
from spawnlint.model import FileKind, Form
from spawnlint.parse import markdown, parse_text
from spawnlint.parse.forms import rule_sentence, vocabulary
from spawnlint.parse.forms.registry import PASSES, could_yield, document, find_sites, has_spawn_word
from spawnlint.parse.forms.rule_sentence import is_rule_sentence
from spawnlint.parse.forms.spec import Doc
from spawnlint.parse.frontmatter import split_frontmatter
from spawnlint.source_lines import split_lines


def spellings(words: tuple[str, ...]) -> list[str]:
    """Ways a text writes each word of the vocabulary's notation (optional parts, apostrophes,
    endings), each lower-case, capitalised and upper-case: the fuzzing pieces come from the word
    lists themselves, never from a copy kept here."""
    out: list[str] = []
    for word in words:
        forms = [word.rstrip("*")] + (
            [word.rstrip("*") + "ing", word.rstrip("*") + "s"] if word.endswith("*") else []
        )
        while any("(" in f for f in forms):
            forms = [
                variant
                for f in forms
                for variant in (
                    (re.sub(r"\(([^)]*)\)", r"\1", f, count=1), re.sub(r"\([^)]*\)", "", f, count=1))
                    if "(" in f
                    else (f,)
                )
            ]
        forms = [
            v for f in forms for v in ({f, f.replace("'", "’"), f.replace("'", "")} if "'" in f else {f})
        ]
        for f in forms:
            for cased in (f, f.capitalize(), f.upper()):
                if cased not in out:
                    out.append(cased)
    return out


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


def _body(text: str) -> str:
    lines = split_lines(text)
    return "\n".join(lines[split_frontmatter(lines)[1] :])


def _full_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every body gets the block parse, and every pass reads every block (no trigger asked)."""
    monkeypatch.setattr(registry, "could_yield", lambda text: True)
    monkeypatch.setattr(Doc, "fires", lambda self, trigger, block: True)
    monkeypatch.setattr(Doc, "fires_on", lambda self, trigger, block, text: True)
    monkeypatch.setattr(markdown, "rule_blocks", lambda doc: list(doc.structure.blocks))


def test_the_corpus_exercises_both_paths() -> None:
    texts = [p.read_bytes().decode("utf-8-sig", errors="replace") for p in MARKDOWN]
    words = [t for t in texts if has_spawn_word(_body(t))]
    passed = [t for t in words if could_yield(_body(t))]
    assert len(MARKDOWN) > 200 and 0 < len(passed) < len(words) < len(MARKDOWN)


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(REPO)))
@pytest.mark.parametrize("kind", [FileKind.COMMAND, FileKind.AGENT])
def test_a_skipped_file_has_nothing_the_full_parse_would_find(
    path: Path, kind: FileKind, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = path.read_bytes().decode("utf-8-sig", errors="replace")
    if could_yield(_body(text)):
        return
    cheap = parse_text("x.md", text, kind, all_sentences=False)
    _full_parse(monkeypatch)
    full = parse_text("x.md", text, kind)
    assert [s for s in full.sites if s.form is not Form.F9] == []
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
    _full_parse(monkeypatch)
    assert facts() == gated


def test_a_custom_rule_pattern_turns_the_body_test_off() -> None:
    assert not could_yield("Keep names short.")
    parsed = parse_text("c.md", "Keep names short.\n", FileKind.COMMAND, all_sentences=True)
    assert [s.text for s in parsed.sentences] == ["Keep names short."]


@pytest.mark.parametrize(
    "text",
    [
        "Dispatch `codebase-recon` now.",
        "Kick  off `x-y` now.",
        "Spin\nup `x-y`.",
        "Run the **x** critic.",
        "Use the ta\u017fk tool.",  # a case-insensitive regex reads the long s as an s
        "\u212aick off `x-y`.",  # and the Kelvin sign as a k
    ],
)
def test_words_that_start_a_spawn_pass(text: str) -> None:
    assert has_spawn_word(text)


def _facts(root: Path) -> tuple[object, ...]:
    result = lint(root, load_settings(root), use_cache=False)
    p = result.project
    return result.diagnostics, p.spawns, p.agents, p.units, p.uncovered, p.problems


@pytest.mark.parametrize("root", PROJECTS + SNIPPETS, ids=lambda p: p.stem)
def test_same_results_with_and_without_the_triggers(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if root.suffix == ".md":  # a corpus snippet, linted as a command of the corpus project
        snippet, root = root, tmp_path / "p"
        shutil.copytree(REPO / "tests" / "corpus" / "_project", root)
        (root / "commands").mkdir(exist_ok=True)
        shutil.copy(snippet, root / "commands" / snippet.name)
    with_triggers = _facts(root)
    _full_parse(monkeypatch)
    assert _facts(root) == with_triggers


# Pieces of the texts every recogniser reads: spawn verbs strong and weak, agent nouns, teams,
# marked ids, parameters, list markers, headers, calls, objects, tables, rule words, and the
# separators (spaces, newlines, blank lines, colons) whose placement the second test relies on.
_SPAWN_WORDS = spellings(
    (
        *vocabulary.STRONG_VERBS,
        *vocabulary.PHRASAL_VERBS,
        *vocabulary.WEAK_VERBS,
        *vocabulary.TEAM_VERBS,
        *vocabulary.GERUND_LEADS,
        *(vocabulary.gerund(v) for v in (*vocabulary.STRONG_VERBS, *vocabulary.WEAK_VERBS)),
        *(f"{noun}(s)" for noun in vocabulary.AGENT_NOUNS),
        *vocabulary.GROUP_NOUNS,
        *vocabulary.NEGATIONS,
        *vocabulary.REPLACING,
        *vocabulary.RULE_SPAWN_STEMS,
        *(
            word
            for language in vocabulary.LANGUAGES
            for word in (
                *language.verbs,
                *language.subagent_nouns,
                *language.agent_nouns,
                *language.negations,
                *language.counters,
                *language.making_verbs,
                *language.new_words,
                *language.noun_particles,
                *language.joined,
                *language.joined_negations,
            )
        ),
    )
)
_SPAWN_PIECES = [
    "**one**",  # a count in bold
    "2",
    "if the user asks,",  # a condition about someone, closed by a comma
    "`x` with:",  # a target named, then its inputs
    "= x",
    "across",  # the work split across agents
    "→",
    "must be assigned to",
    "via",
    "using the Skill tool",
    "tell Claude to",
    "attempting to x,",
    "<step>",  # a prompt in XML-like tags: HTML to markdown, and code when indented past a blank line
    "</action>",
    "\n\n    <action>",
    "<!--",
    "を",
    "`@x-y`",
    "@agent-x-y",
    "the",
    "a",
    "two",
    "parallel",
    "critical",
    "useAgentEvents",
    "agent_x",
    "`shop:critic`",
    "**code-reviewer**",
    "code-reviewer",
    "general-purpose",
    "named",
    "`c1`",
    '"c2"',
    "name:",
    '`name: "x"`',
    "`name`",
    "set to",
    "subagent_type:",
    "prompt:",
    "description:",
    "- ",
    "1. ",
    "Task:",
    "**Agent tool:**",
    "Agent(",
    "Task(",
    ")",
    "{",
    "}",
    "|",
    "---",
    "```",
    ":",
    ".",
    ",",
    "then",
    "\n",
    "\n\n",
    "\n  ",
]


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_SPAWN_WORDS), st.sampled_from(_SPAWN_PIECES)), max_size=24).map(
        " ".join
    )
)
def test_a_body_no_trigger_fires_on_has_nothing_the_block_parse_finds(body: str) -> None:
    full = parse_text("x.md", body, FileKind.COMMAND)  # every body, all sentences
    rules = [s.text for s in full.sentences if is_rule_sentence(s.text, require_mechanism=False)]
    if full.sites or rules:  # the body test and the coarser word test both let it through
        assert could_yield(body) and has_spawn_word(body)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_SPAWN_WORDS), st.sampled_from(_SPAWN_PIECES)), max_size=24).map(
        " ".join
    )
)
# bodies generation once found where a trigger hid its own form's site (kept as fixed examples)
@example("starte parallel `shop:critic`")  # a role in parallel is read in CJK text only
@example("**Agent tool:** start `shop:critic`")  # naming the tool makes any spawn verb strong
@example("Subagente : code-reviewer ,")  # a space before the label's colon
@example("name: . Spawns ) `name` agents")  # a unit describing itself after a full stop
def test_only_the_passes_whose_trigger_fires_on_a_block_find_anything(body: str) -> None:
    """Each pass, run on every block, finds exactly what it finds on the blocks its trigger
    fires on: no trigger hides a site of its own form."""
    structure = markdown.build_structure(split_lines(body))
    assert find_sites(document(structure, gated=False)) == find_sites(document(structure))


@pytest.mark.parametrize(
    "body",
    [
        "Agents must not be given a name.",  # a rule sentence, nothing else
        "With the Task tool:\n\n- prompt: Find the bug\n- description: Research\n",  # F4 bullets
        "With the Task tool:\n\n- **prompt**: Find the bug\n- `description`: Research\n",  # marked keys
        "With the Task tool:\n\n1. prompt \u2014 Find the bug\n2. model is haiku\n",  # numbered, no colon
        "With the Task tool:\n\n- The prompt path: `description: x`, `prompt: y`\n",  # spans behind a label
        'With the Task tool, pass name: "scout" and a prompt.',  # F5, a bare name by the tool
        "With the Task tool, set `name` to `critic-1`.",  # F5, a name span then its value
        "Task:\n  prompt: Find the bug\n  description: Research\n",  # F2 under a header
        "Spawn `shop:critic` now.",  # a strong verb and a marked id
        "Dispatch in parallel:\n\n- **security-auditor**\n- **code-reviewer**\n",  # F7, a colon
        "Create a team with one member per bullet:\n\n- `frontend`\n- `backend`\n",  # F8
        "Have the **code-reviewer** agent check it.",  # F6, a weak verb before its agent
        "| subagent type | name |\n|---|---|\n| `shop:critic` | c1 |\n",  # an F7 table
        'Agent({"description": "x", "prompt": "y"})',  # F1
        "1. **Scope** - Counts the files\n2. **Launches 5 agents** - Scans in parallel\n",  # not line 1
    ],
)
def test_each_condition_of_the_body_test_lets_its_form_through(body: str) -> None:
    full = parse_text("x.md", body, FileKind.COMMAND)
    rules = [s for s in full.sentences if is_rule_sentence(s.text, require_mechanism=False)]
    assert full.sites or rules
    assert could_yield(body)


@pytest.mark.parametrize(
    "body",
    [
        "With the Task tool:\n\n- Write a clear description of the change\n- Pass the prompt to it\n",
        "With the Task tool:\n\n- _prompt: x\n- _description: y\n",
        "With the Task tool:\n\n- prompts: x\n- descriptions: y\n",
        "With the Task tool:\n\n> - prompt: x\n> - description: y\n",
    ],
)
def test_parameter_words_inside_list_items_are_not_parameter_bullets(body: str) -> None:
    """A key counts only where f4_param_bullets.py reads one: the item's first word, or in an item that
    opens with a `key: value` span. The words further into an item are prose."""
    assert parse_text("x.md", body, FileKind.COMMAND).sites == ()
    assert not could_yield(body)


@pytest.mark.parametrize(
    "body",
    [
        "Run the critical path analysis on the build.",  # "critic" inside a longer word
        "Use `useAgentEvents` to read the stream.",  # "agent" inside an identifier
        "The `name` field names the file; the Task tool reads it.",  # a `name` span, no value
    ],
)
def test_words_and_colons_no_recogniser_reads_that_way_are_skipped(body: str) -> None:
    assert parse_text("x.md", body, FileKind.COMMAND).sites == ()
    assert not could_yield(body)


_RULE_PIECES = [
    *spellings((*vocabulary.FORBIDDING, *vocabulary.RULE_SPAWN_NOUNS, *vocabulary.RULE_SPAWN_STEMS)),
    "Do\tnot",
    "`name`",
    "name",
    "the",
    ".",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_RULE_PIECES), max_size=10).map(" ".join))
def test_every_rule_sentence_fires_the_rule_trigger(text: str) -> None:
    if is_rule_sentence(text, require_mechanism=False):
        assert rule_sentence.TRIGGER.fires(text) and has_spawn_word(text)


def test_every_pass_has_a_trigger_of_its_own() -> None:
    assert all(step.trigger is not None for step in PASSES)
    assert len({step.name for step in PASSES}) == len(PASSES)
