"""A run that reports on some paths (pre-commit passes the changed files) builds only the part of
the project that can touch them, and reports exactly what the whole run reports for them."""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import REPO, run_cli, write_project
from spawnlint import cache_folder, discover, engine
from spawnlint.cache import _shard_of
from spawnlint.config import ConfiguredAgent, NoNameRule, Settings, load_settings
from spawnlint.focus import files_needed, in_paths, wanted
from spawnlint.model import FileKind
from spawnlint.parse import file as parse_file
from spawnlint.project import build_project
from spawnlint.rules import CODES
from spawnlint.source_lines import SourceLines
from spawnlint.suppress import Filters, narrow, suppressed

CASES = sorted(p / "project" for p in (REPO / "tests" / "projects").glob("*/") if (p / "project").is_dir())


def _path_choices(root: Path, files: list[str]) -> list[tuple[str, ...]]:
    folders = sorted({f.rsplit("/", 1)[0] for f in files if "/" in f})
    pairs = [tuple(random.Random(n).sample(files, 2)) for n in range(3)] if len(files) > 1 else []
    return [(f,) for f in files] + [(f,) for f in folders] + [(f + "/",) for f in folders] + pairs + [("",)]


def _agree(root: Path, settings: Settings) -> int:
    listing = discover.list_files(root)
    found = discover.discover(root, settings.exclude, listing)
    parsed = engine.parse_all(found, settings)
    whole = build_project(found, parsed, settings)
    everything = suppressed(engine.run_rules(whole, settings), whole, settings.severity)
    lines = SourceLines(root)
    checked = 0
    for paths in _path_choices(root, [f.path for f in found.files]):
        focus = wanted(paths)
        needed = files_needed(found, focus) if focus is not None else None
        if needed is not None:  # what a focused run parses, or takes from the cache
            assert {f.path for f in needed} <= set(parsed) | {f.path for f in found.files}
        subset = parsed if needed is None else {f.path: parsed[f.path] for f in needed if f.path in parsed}
        if needed is not None:  # and the files those follow, as the engine reads them next
            sources = {f.path: f for f in found.files}
            while more := [f.path for f in engine.followed_unread(sources, subset) if f.path in parsed]:
                subset.update({path: parsed[path] for path in more})
        part = build_project(found, subset, settings, focus)
        kept = suppressed(engine.run_rules(part, settings), part, settings.severity)
        filters = Filters(paths=paths)
        assert narrow(kept, filters, lines) == narrow(everything, filters, lines), paths
        if focus is not None:
            assert len(part.units) <= len(whole.units) and len(part.spawns) <= len(whole.spawns)
        checked += 1
    return checked


@pytest.mark.parametrize("root", CASES, ids=[c.parent.name for c in CASES])
def test_a_focused_run_reports_what_the_whole_run_does(root: Path) -> None:
    settings = load_settings(root, root, None, CODES)
    assert _agree(root, settings) > 1
    other = replace(
        settings,
        units=("commands", "skills", "agents"),
        no_name_rule=NoNameRule(scope="section"),
        agents=(ConfiguredAgent("*critic*", None, False),),
    )
    _agree(root, other)


def test_paths_are_matched_as_the_filter_matches_them() -> None:
    paths = ("commands/a.md", "skills/s", "agents/")
    want = wanted(paths)
    assert want is not None
    for path in (
        "commands/a.md",
        "commands/a.mdx",
        "skills/s",
        "skills/s/SKILL.md",
        "skills/sx/x.md",
        "agents/c.md",
    ):
        assert want(path) == in_paths(path, paths), path
    assert wanted(None) is None and wanted(("x", ".")) is None and wanted(("",)) is None


AGENT = "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
NAMED = 'Use the Agent tool with `subagent_type: "critic"`, `name: "c1"`.\n'


def test_a_focused_run_leaves_the_memo_to_whole_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)
    root = write_project(
        tmp_path / "proj", {"agents/critic.md": AGENT, "commands/a.md": NAMED, "commands/b.md": NAMED}
    )
    args = ("check", "--root", str(root), "--output-format", "json")
    focused = run_cli(*args, str(root / "commands/a.md"))
    assert {d["path"] for d in json.loads(focused.out)} == {"commands/a.md"}
    assert not list((tmp_path / "cache").glob("*.run"))  # its findings are not the project's
    whole = run_cli(*args)
    assert {d["path"] for d in json.loads(whole.out)} == {"commands/a.md", "commands/b.md"}
    assert list((tmp_path / "cache").glob("*.run"))
    again = run_cli(*args, str(root / "commands/b.md"))  # answered from the memo of the whole run
    assert [d for d in json.loads(again.out)] == [
        d for d in json.loads(whole.out) if d["path"] == "commands/b.md"
    ]


def test_a_focused_run_reads_agents_and_the_units_of_its_paths_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)
    files: dict[str, str | bytes] = {"agents/critic.md": AGENT, "hook.py": "x = 1\n"}
    files.update({f"commands/c{n}.md": NAMED for n in range(60)})
    files.update({"skills/s/SKILL.md": NAMED, "skills/s/ref.md": "More.\n"})
    root = write_project(tmp_path / "proj", files)
    whole = run_cli("check", "--root", str(root), "--output-format", "json")
    reads: list[str] = []
    real = parse_file.read_source

    def counting(root: Path, source: discover.SourceFile, settings: Settings) -> object:
        reads.append(source.path)
        return real(root, source, settings)

    monkeypatch.setattr(parse_file, "read_source", counting)
    (root / "skills/s/ref.md").write_text("Edited.\n")
    loaded = {_shard_of(f"skills/s/{name}", FileKind.SKILL) for name in ("SKILL.md", "ref.md")}
    beside = [
        f"commands/c{n}.md" for n in range(60) if _shard_of(f"commands/c{n}.md", FileKind.COMMAND) in loaded
    ]
    changed, gone, kept = beside[:3]  # in the shards the focused run loads, not looked at
    (root / changed).write_text(NAMED.replace("c1", "changed"))
    (root / gone).unlink()  # no longer in the project: its records go
    focused = run_cli("check", "--root", str(root), "--output-format", "json", str(root / "skills/s"))
    assert reads == ["skills/s/ref.md"]
    expected = [d for d in json.loads(whole.out) if d["path"].startswith("skills/")]
    assert json.loads(focused.out) == expected
    packs = [pickle.loads(p.read_bytes()) for p in (tmp_path / "cache").glob("*.pack")]
    paths = {e.path for _, entries, _ in packs for e in entries.values()}
    stat_paths = {k[0] for _, _, stats in packs for k in stats}
    assert gone not in paths | stat_paths
    assert {kept, changed} <= paths & stat_paths  # unseen: kept as they were
    reads.clear()
    again = run_cli("check", "--root", str(root), "--output-format", "json")
    assert reads == [changed]  # the focused run kept every record it did not look at
    assert any('"changed"' in d["message"] for d in json.loads(again.out))
