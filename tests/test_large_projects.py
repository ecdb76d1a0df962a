"""Large projects stay linear: the unknown-target hint of SL301 does not compare every value
with every alias once there are many, and still names the close agent of the value's plugin."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import write_project
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.rules import targets

AGENT = "---\nname: {name}\ndescription: d\ntools: Read, SendMessage\n---\nReport with SendMessage.\n"


def _marketplace(root: Path, plugins: int) -> Path:
    files: dict[str, str | bytes] = {}
    for n in range(plugins):
        files[f"plugins/p{n}/.claude-plugin/plugin.json"] = f'{{"name": "p{n}"}}'
        for name in ("critic", "scout"):
            files[f"plugins/p{n}/agents/{name}.md"] = AGENT.format(name=name)
    files["plugins/p3/commands/go.md"] = 'Use the Task tool with `subagent_type: "p3:critc"`.\n'
    files["plugins/p3/commands/other.md"] = 'Use the Task tool with `subagent_type: "nowhere:scuot"`.\n'
    return write_project(root, files)


def test_the_hint_names_the_close_agent_of_the_same_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _marketplace(tmp_path, plugins=12)
    found = []
    for limit in (10_000, 5):  # every alias compared, then the by-name search of large projects
        monkeypatch.setattr(targets, "_EXHAUSTIVE_ALIASES", limit)
        diagnostics = lint(root, Settings(), use_cache=False).diagnostics
        found.append({d.path: d.message for d in diagnostics if d.code == "SL301"})
    exhaustive, by_name = found
    for messages in found:
        assert 'did you mean "p3:critic"' in messages["plugins/p3/commands/go.md"]
    assert by_name["plugins/p3/commands/other.md"] == exhaustive["plugins/p3/commands/other.md"]


def _reference_close_to(aliases: list[str], value: str) -> list[str]:
    """The by-name search as first written (a filter over every alias ending in a close name):
    the indexed one must answer exactly the same."""
    by_name: dict[str, list[str]] = {}
    for alias in aliases:
        by_name.setdefault(alias.rsplit(":", 1)[-1], []).append(alias)
    namespace, _, name = value.rpartition(":")
    near = difflib.get_close_matches(name, list(by_name), n=6, cutoff=0.6)
    ending = [a for n in near for a in by_name[n]]
    local = [a for a in ending if ":" not in a or a.rpartition(":")[0] == namespace]
    pool = local if any(":" in a for a in local) or not namespace else sorted(ending)[: targets._FALLBACK]
    return difflib.get_close_matches(value, pool, n=6, cutoff=0.6)


_PART = st.sampled_from(["critic", "critc", "scout", "scuot", "p1", "p2", "p12", "agents", "x", ""])


@given(
    aliases=st.lists(
        st.lists(_PART, min_size=1, max_size=3).map(":".join), min_size=1, max_size=60, unique=True
    ),
    values=st.lists(st.lists(_PART, min_size=1, max_size=3).map(":".join), min_size=1, max_size=8),
)
def test_the_indexed_search_of_large_projects_answers_as_the_filter_did(
    aliases: list[str], values: list[str]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(targets, "_EXHAUSTIVE_ALIASES", 0)
        patch.setattr(targets, "_FALLBACK", 3)
        close_to = targets._suggester(aliases)
        for value in values:
            assert close_to(value) == _reference_close_to(aliases, value)


@given(
    aliases=st.lists(
        st.lists(_PART, min_size=1, max_size=3).map(":".join), min_size=1, max_size=60, unique=True
    ),
    values=st.lists(st.lists(_PART, min_size=1, max_size=3).map(":".join), min_size=1, max_size=8),
)
def test_the_bigram_bounded_search_of_small_projects_answers_as_every_alias_compared(
    aliases: list[str], values: list[str]
) -> None:
    close_to = targets._suggester(aliases)
    for value in values:
        assert close_to(value) == difflib.get_close_matches(value, aliases, n=6, cutoff=0.6)


def test_the_hint_compares_a_bounded_number_of_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many aliases, difflib sees at most _CANDIDATES of them per unknown value."""
    aliases = [f"p{n}:{name}" for n in range(300) for name in ("critic", "scout", "planner")]
    compared: list[int] = []
    real = difflib.get_close_matches

    def counting(word: str, possibilities: list[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
        compared.append(len(possibilities))
        return real(word, possibilities, n, cutoff)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    close_to = targets._suggester(aliases)
    assert close_to("p7:critc")[0] == "p7:critic"
    assert compared and max(compared) <= targets._CANDIDATES
