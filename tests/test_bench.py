"""The benchmark's corpus generator keeps producing a project the linter reads in full."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from conftest import REPO
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.parse.forms import could_yield, has_spawn_word

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
    assert not any(has_spawn_word(t) for t in quiet)
    assert all(has_spawn_word(t) for t in loud)
    # a task list, the CI agent: words the first test lets through, but no spawn and no rule
    assert not any(could_yield(t) for t in loud)
    assert all(3500 < len(t) < 6000 for t in quiet)
