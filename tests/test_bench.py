"""The benchmark's corpus generator keeps producing a project the linter reads in full, and its
prose modes load the gates as they say."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.parse.prefilter import could_yield, hot_lines

sys.path.insert(0, str(REPO / "bench"))
from generate import filler, generate  # noqa: E402


def test_generated_marketplace_is_read_in_full(tmp_path: Path) -> None:
    files = generate(tmp_path, plugins=2, commands=15, agents=2, seed=7)
    result = lint(tmp_path, Settings(), use_cache=False)
    # per plugin: 15 commands, 2 pairs of agents, 2 skill folders of 6 files, 2 hooks
    assert files == 2 * (15 + 4 + 12 + 2)
    assert {p[1] for p in result.project.plugins} == {None, "p0", "p1"}
    assert len(result.project.agents) == 8
    forms = Counter(s.site.form for s in result.project.spawns)
    # per plugin: one command per form (F1, F4 bullets, F3 JSON, F6 prose, F5 inline), a template
    # (F3), a hook (F4 in a string, F10 dict); some commands add a second F6 sentence
    assert (forms["F1"], forms["F3"], forms["F4"], forms["F5"], forms["F10"]) == (2, 4, 4, 2, 2)
    assert forms["F6"] >= 2
    unknown = [s for s in result.project.spawns if s.target.status != "resolved"]
    assert all(
        ":critc-" in s.site.subagent_type.value or ":scuot-" in s.site.subagent_type.value
        for s in unknown
        if s.site.subagent_type
    )
    assert len(unknown) < len(result.project.spawns) // 5
    assert {d.code for d in result.diagnostics} <= {"SL101", "SL102", "SL103", "SL201", "SL301"}


def test_prose_filler_only_lets_the_prefilter_through_at_its_mention_rate() -> None:
    quiet = [filler(random.Random(n), 4000, mention_rate=0.0) for n in range(20)]
    loud = [filler(random.Random(n), 4000, mention_rate=1.0) for n in range(20)]
    assert not any(hot_lines(t.split("\n")) for t in quiet)
    assert all(hot_lines(t.split("\n")) for t in loud)
    # a task list, the CI agent: words the first test lets through, but no spawn and no rule
    assert not any(could_yield(t) for t in loud)
    assert all(3500 < len(t) < 6000 for t in quiet)


def test_agentic_filler_reaches_the_recognisers() -> None:
    """Prose that talks about agents is what plain filler is not: text each gate must look at."""
    agentic = [filler(random.Random(n), 2000, mention_rate=0.0, prose="agentic") for n in range(30)]
    assert all(hot_lines(t.split("\n")) for t in agentic)
    assert sum(could_yield(t) for t in agentic) > len(agentic) * 2 // 3
    assert all(1500 < len(t) < 3500 for t in agentic)


def test_agentic_marketplace_holds_real_spawn_sentences_at_its_rate(tmp_path: Path) -> None:
    plain, agentic, talk = tmp_path / "plain", tmp_path / "agentic", tmp_path / "talk"
    assert generate(plain, plugins=2, commands=6, agents=2) == generate(
        agentic, plugins=2, commands=6, agents=2, prose="agentic", spawn_rate=0.5
    )
    generate(talk, plugins=2, commands=6, agents=2, prose="agentic", spawn_rate=0.0)

    def spawns_in_prose(root: Path) -> int:
        """Spawn sites outside the commands' spawning sections, the template and the hooks."""
        sites = lint(root, Settings(), use_cache=False).project.spawns
        return sum(
            "/commands/" not in s.site.path and not s.site.path.endswith(("template.md", ".py"))
            for s in sites
        )

    # talk about agents is no spawn; the spawn sentences are
    assert spawns_in_prose(plain) == spawns_in_prose(talk) == 0
    assert spawns_in_prose(agentic) > 0


def test_prose_scale_grows_the_prose_not_the_files(tmp_path: Path) -> None:
    def markdown_bytes(root: Path) -> int:
        return sum(p.stat().st_size for p in root.rglob("*.md"))

    one, three = tmp_path / "one", tmp_path / "three"
    assert generate(one, plugins=1, commands=6, agents=1) == generate(
        three, plugins=1, commands=6, agents=1, prose_scale=3.0
    )
    # (the generator's random sizes drift apart once the filler differs)
    assert 2.5 < markdown_bytes(three) / markdown_bytes(one) < 4


def test_generate_refuses_an_unknown_prose_kind(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="prose"):
        generate(tmp_path, plugins=1, prose="poetry")
