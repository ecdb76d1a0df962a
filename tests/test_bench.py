"""The benchmark's corpus generator keeps producing a project the linter reads in full, and its
prose modes load the gates as they say."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.parse.forms.registry import could_yield, has_spawn_word

sys.path.insert(0, str(REPO / "bench"))
from generate import filler, generate  # noqa: E402
from run import RACY_SECONDS, Measured, Sample, Tree, copy_tree, rows, settle, slope, table  # noqa: E402


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


def test_agentic_filler_reaches_the_recognisers() -> None:
    """Prose that talks about agents is what plain filler is not: text each gate must look at."""
    agentic = [filler(random.Random(n), 2000, mention_rate=0.0, prose="agentic") for n in range(30)]
    assert all(has_spawn_word(t) for t in agentic)
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


def test_copies_are_one_git_repository_without_the_source_history(tmp_path: Path) -> None:
    source = tmp_path / "source"
    files = generate(source, plugins=1, commands=3, agents=1)
    (source / ".git").mkdir()
    (source / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    copies = copy_tree(source, 3, tmp_path / "copies")
    listed = subprocess.run(
        ["git", "ls-files"], cwd=copies, capture_output=True, text=True, check=True
    ).stdout.split()
    assert sorted({p.split("/", 1)[0] for p in listed}) == ["copy1", "copy2", "copy3"]
    assert sum(p.endswith((".md", ".py")) and not p.endswith("README.md") for p in listed) == 3 * files
    assert not any("/.git/" in p for p in listed)


def test_slope_is_the_power_of_the_growth() -> None:
    sizes = [100, 400, 1600]
    assert slope(sizes, [2.0 * n for n in sizes]) == pytest.approx(1.0)
    assert slope(sizes, [0.5 * n**2 for n in sizes]) == pytest.approx(2.0)


def _samples(*seconds: float) -> list[Sample]:
    return [Sample(s, s, 0, 40_000_000) for s in seconds]


def test_ratios_are_medians_of_each_rounds_ratio(tmp_path: Path) -> None:
    """A round where the machine was busy for one command only does not move the ratio."""
    tree = Tree(tmp_path, files=1000, markdown_bytes=2**20, all_files=1100)
    measured = Measured(
        {
            "floor": _samples(0.20, 0.20, 0.20),
            "frontmatter-guard": _samples(1.0, 1.0, 1.0),
            "cold": _samples(0.9, 5.0, 0.9),
            "warm": _samples(0.22, 0.22, 0.60),
            "single": _samples(0.40, 0.20, 0.40),
            "guard": _samples(0.12, 0.08, 0.09),
        }
    )
    table_rows = rows(tree, measured, ["frontmatter-guard"], [], [], "no slopes here")
    got = {r.figure: (r.measured, r.met) for r in table_rows}
    assert got["cold check --no-cache / frontmatter-guard"] == ("0.90x", True)
    assert got["warm check / floor"] == ("1.10x", True)
    assert got["warm check FILE after FILE changed / floor"] == ("2.00x", False)
    assert got["one guard call"] == ("90 ms", True)
    assert got["peak RSS of spawnlint's runs"] == ("40 MB", True)
    assert got["slope: log cold time / log files"] == ("n/a", None)
    printed = table("title", table_rows)
    assert "no slopes here" in printed
    assert [line.split()[-1] for line in printed.splitlines()[2:] if not line.startswith(" ")] == [
        "yes",
        "yes",
        "NO",
        "yes",
        "yes",
        "n/a",
        "n/a",
    ]


def _bench(tmp_path: Path, *args: str) -> list[str]:
    """bench/run.py as a person runs it, with a stand-in for the reference peer on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    peer = bin_dir / "frontmatter-guard"
    peer.write_text("#!/bin/sh\nexit 1\n")
    peer.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--runs", "1", *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.splitlines()


def _verdicts(lines: list[str]) -> dict[str, str]:
    """Each figure's row: its name and whether it is met."""
    figures = [line for line in lines[2:] if not line.startswith(" ")]
    return {line.split("  ")[0]: line.split()[-1] for line in figures}


def test_run_prints_every_target_of_a_generated_agentic_tree(tmp_path: Path) -> None:
    lines = _bench(tmp_path, "--plugins", "2", "--prose", "agentic")
    assert lines[0].startswith("generated tree, 2 plugins, agentic prose: spawnlint reads 88 of ")
    verdicts = _verdicts(lines)
    assert list(verdicts) == [
        "cold check --no-cache / frontmatter-guard",
        "warm check / floor",
        "warm check FILE after FILE changed / floor",
        "one guard call",
        "peak RSS of spawnlint's runs",
        "slope: log cold time / log files",
        "slope: log cold time / log prose bytes",
    ]
    assert all(v in ("yes", "NO") for v in verdicts.values())  # every figure measured
    assert any("frontmatter-guard exits 1" in line for line in lines)
    assert any("44 / 88 files: cold" in line for line in lines)


def test_run_copies_a_folder_into_a_repository_and_times_it(tmp_path: Path) -> None:
    source = tmp_path / "marketplace"
    generate(source, plugins=1, commands=3, agents=1)
    lines = _bench(tmp_path, "--root", str(source), "--copies", "2")
    assert lines[0].startswith(f"2 copies of {source} in one git repository: spawnlint reads ")
    verdicts = _verdicts(lines)
    assert verdicts["slope: log cold time / log files"] in ("yes", "NO")
    assert verdicts["slope: log cold time / log prose bytes"] == "n/a"
    assert (
        source.joinpath("plugins/p0/commands/step-0.md")
        .read_text()
        .endswith("| 0 | lead | keep it short |\n")
    )


def test_settle_lets_a_fresh_edit_age_past_the_memos_racy_window(tmp_path: Path) -> None:
    """Otherwise the refill after the single-file run writes no memo, and the next 'warm' run
    lints again."""
    edited = tmp_path / "command.md"
    edited.write_text("Edited just now.\n")
    settle(edited)
    assert time.time() - edited.stat().st_mtime >= RACY_SECONDS
