"""Every spawn form's VALID and INVALID examples (kept beside its recogniser) through every gate:
in markdown and inside Python strings (plain, triple-quoted, f-string, concatenated), with each
capitalisation of the first word. No cheap test may hide its own form's VALID examples, and a word
taught to the vocabulary reaches every gate."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest

from spawnlint.config import load_settings
from spawnlint.engine import lint
from spawnlint.model import FileKind, Form
from spawnlint.parse import parse_text, python_could_spawn
from spawnlint.parse.forms import f9_fork, f10_python, languages, rule_sentence, vocabulary
from spawnlint.parse.forms.registry import SPECS, could_yield, has_spawn_word
from spawnlint.parse.python.read import may_be_scanned
from spawnlint.parse.text import FormExamples

# F9 lives in frontmatter and F10 is Python itself: the others are run in markdown and in strings.
EXAMPLES = tuple(e for spec in SPECS.values() if spec.code not in (Form.F9, Form.F10) for e in spec.examples)
CALLABLES = ("Agent", "Task")
_TOOL_NAMES = frozenset({"Agent", "Task"})


def test_every_form_has_a_module_with_examples() -> None:
    assert set(SPECS) == set(Form)
    assert all(spec.examples and all(e.valid and e.invalid for e in spec.examples) for spec in SPECS.values())
    assert all(e.form is spec.code for spec in SPECS.values() for e in spec.examples)
    assert len(languages.EXAMPLES) == len(vocabulary.LANGUAGES)  # one entry per language


def capitalisations(text: str) -> dict[str, str]:
    """The text with its first word as written, lower-case, capitalised and upper-case (a tool
    name, `Task:`, keeps its case: `task(` is no call)."""
    m = re.match(r"[A-Za-z]+", text)
    if m is None or m.group(0) in _TOOL_NAMES:
        return {"as-written": text}
    word, rest = m.group(0), text[m.end() :]
    return {
        "as-written": text,
        "lower": word.lower() + rest,
        "capitalised": word.capitalize() + rest,
        "upper": word.upper() + rest,
    }


def _triple_quoted_body(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return body[:-1] + '\\"' if body.endswith('"') else body


def _split_point(text: str) -> int:
    """Where to cut the text in two literals: the space (or the place between two CJK characters)
    nearest its middle; never inside a word, which no test on the source could read whole."""
    cuts = [
        i
        for i in range(1, len(text))
        if text[i - 1].isspace() or (not text[i - 1].isascii() and not text[i].isascii())
    ]
    return min(cuts, key=lambda i: abs(i - len(text) // 2)) if cuts else len(text) // 2


def python_sources(text: str) -> dict[str, str]:
    """A module that hands the text to a model, in each way Python writes a string."""
    middle = _split_point(text)
    fstring = _triple_quoted_body(text).replace("{", "{{").replace("}", "}}")
    return {
        "plain": f"PROMPT = {text!r}\n",
        "triple": f'PROMPT = """{_triple_quoted_body(text)}"""\n',
        "fstring": f'topic = "x"\nPROMPT = f"""{fstring}\n\nTopic: {{topic}}\n"""\n',
        "concatenated": f"PROMPT = (\n    {text[:middle]!r}\n    {text[middle:]!r}\n)\n",
    }


def _write_project(root: Path, examples: FormExamples) -> dict[str, tuple[bool, str, str]]:
    """Every example in every shape, one file each: path -> (valid, form, text)."""
    expected: dict[str, tuple[bool, str, str]] = {}
    for valid, texts in ((True, examples.valid), (False, examples.invalid)):
        for i, text in enumerate(texts):
            for cap, variant in capitalisations(text).items():
                stem = f"{'valid' if valid else 'invalid'}{i}_{cap}"
                md = root / "commands" / f"{stem}.md"
                md.parent.mkdir(parents=True, exist_ok=True)
                md.write_text(variant, encoding="utf-8")
                expected[f"commands/{stem}.md"] = (valid, examples.form, variant)
                for shape, source in python_sources(variant).items():
                    py = root / "hooks" / f"{stem}_{shape}.py"
                    py.parent.mkdir(parents=True, exist_ok=True)
                    py.write_text(source, encoding="utf-8")
                    expected[f"hooks/{stem}_{shape}.py"] = (valid, examples.form, variant)
    return expected


_LANGUAGE_IDS = {
    id(e): f"F6-{language.code}" for e, language in zip(languages.EXAMPLES, vocabulary.LANGUAGES, strict=True)
}
_IDS = [_LANGUAGE_IDS.get(id(e), str(e.form)) for e in EXAMPLES]


@pytest.mark.parametrize("examples", EXAMPLES, ids=_IDS)
def test_each_form_is_found_through_every_gate(examples: FormExamples, tmp_path: Path) -> None:
    trigger = SPECS[examples.form].trigger
    assert trigger is not None
    for text in examples.valid:
        for variant in capitalisations(text).values():
            assert trigger.fires(variant), variant  # the form's own trigger
            assert could_yield(variant), variant  # the markdown body test
            for source in python_sources(variant).values():
                assert python_could_spawn(source, CALLABLES), source  # the Python file test
    expected = _write_project(tmp_path, examples)
    result = lint(tmp_path, load_settings(tmp_path), use_cache=False)
    forms_by_path: dict[str, set[str]] = defaultdict(set)
    for spawn in result.project.spawns:
        forms_by_path[spawn.site.path].add(spawn.site.form)
    python_form = {examples.form, "F10"}  # a string's spawn keeps its markdown form
    missed = [p for p, (valid, _, _) in expected.items() if valid and not forms_by_path[p] & python_form]
    wrong = [p for p, (valid, form, _) in expected.items() if not valid and form in forms_by_path[p]]
    assert (missed, wrong) == ([], [])
    # the Python reader's string test is the vocabulary's word test: no VALID string is turned away
    assert all(
        may_be_scanned(expected[p][2]) for p, (valid, _, _) in expected.items() if valid and p.endswith(".py")
    )


@pytest.mark.parametrize("text", f9_fork.EXAMPLES.valid)
def test_the_fork_form_is_read_from_a_skill_frontmatter(text: str) -> None:
    parsed = parse_text("skills/review/SKILL.md", text, FileKind.SKILL, all_sentences=False)
    assert [s.form for s in parsed.sites] == ["F9"]


@pytest.mark.parametrize("text", f9_fork.EXAMPLES.invalid)
def test_a_skill_that_does_not_fork_has_no_fork_site(text: str) -> None:
    assert parse_text("skills/review/SKILL.md", text, FileKind.SKILL, all_sentences=False).sites == ()


@pytest.mark.parametrize(
    "source, valid",
    [(s, True) for s in f10_python.EXAMPLES.valid] + [(s, False) for s in f10_python.EXAMPLES.invalid],
)
def test_python_calls_and_dicts(source: str, valid: bool, tmp_path: Path) -> None:
    """F10's examples are Python modules: a VALID one holds a spawn site of the form, through the
    file test and the reader; an INVALID one none."""
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "spawn.py").write_text(source, encoding="utf-8")
    assert python_could_spawn(source, CALLABLES) or not valid
    result = lint(tmp_path, load_settings(tmp_path), use_cache=False)
    assert [s.site.form for s in result.project.spawns] == ([Form.F10] if valid else [])


def _rule_sentences(text: str) -> list[str]:
    parsed = parse_text("commands/x.md", text, FileKind.COMMAND, all_sentences=False)
    return [s.text for s in parsed.sentences if rule_sentence.is_rule_sentence(s.text)]


@pytest.mark.parametrize("text", rule_sentence.VALID)
def test_the_body_test_lets_every_rule_sentence_through(text: str) -> None:
    for variant in capitalisations(text).values():
        assert could_yield(variant)
        assert _rule_sentences(variant) != []


@pytest.mark.parametrize("text", rule_sentence.INVALID)
def test_sentences_that_are_not_the_rule(text: str) -> None:
    assert _rule_sentences(text) == []


_NEW_WORD = """
import importlib.util, json, sys
from pathlib import Path

# the vocabulary module first, taught a word, then everything that builds its patterns from it
spec = importlib.util.find_spec("spawnlint")
path = Path(spec.origin).parent / "parse" / "forms" / "vocabulary.py"
vspec = importlib.util.spec_from_file_location("spawnlint.parse.forms.vocabulary", path)
vocabulary = importlib.util.module_from_spec(vspec)
sys.modules["spawnlint.parse.forms.vocabulary"] = vocabulary
vspec.loader.exec_module(vocabulary)
vocabulary.STRONG_VERBS = (*vocabulary.STRONG_VERBS, "summon")

from spawnlint.config import load_settings
from spawnlint.engine import lint

root = Path(sys.argv[1])
result = lint(root, load_settings(root), use_cache=False)
print(json.dumps(sorted([s.site.path, s.site.form, s.site.line] for s in result.project.spawns)))
"""


@pytest.mark.parametrize("word, found", [("summon", True), ("conjure", False)])
def test_a_word_taught_to_the_vocabulary_reaches_every_gate(word: str, found: bool, tmp_path: Path) -> None:
    """ "Summon" is no spawn verb; taught as a strong verb (one edit, in vocabulary.py), a
    sentence with it is a spawn site in markdown and in a Python string alike. A word that was
    not taught stays unread."""
    sentence = f"{word.capitalize()} `shop:scout` to map the code."
    (tmp_path / "commands").mkdir()
    (tmp_path / "commands" / "review.md").write_text(f"# Review\n\n{sentence}\n", encoding="utf-8")
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "inject.py").write_text(f"PROMPT = {sentence!r}\n", encoding="utf-8")
    assert not has_spawn_word(sentence)  # without the new word, the word test hides the sentence
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_NEW_WORD), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    spawns = json.loads(run.stdout)
    if not found:
        assert spawns == []
        return
    assert ["commands/review.md", "F6", 3] in spawns
    assert spawns == [["commands/review.md", "F6", 3], ["hooks/inject.py", "F6", 1]]
