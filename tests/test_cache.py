"""The parse cache: hits on unchanged bytes, misses on changed bytes or parse settings, ignores a
corrupt pack, survives concurrent writers, stays out of the way with --no-cache."""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli, write_project
from spawnlint.cache import ParseCache
from spawnlint.cache_folder import cache_dir
from spawnlint.config import Settings
from spawnlint.engine import lint
from spawnlint.model import Diagnostic
from spawnlint.parse import file as parse_file

AGENT = "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
COMMAND = 'Use the Agent tool with `subagent_type: "critic"`, `name: "c1"`.\n'
HOOK = 'Agent(subagent_type="critic", name="h", prompt="p")\n'


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    files: dict[str, str | bytes] = {
        "agents/critic.md": AGENT,
        "commands/a.md": COMMAND,
        "hook.py": HOOK,
        "util.py": "VALUE = 1\n",  # no spawn cue: not parsed, and not decoded again either
    }
    return write_project(tmp_path / "proj", files)


def _packs(tree: Path) -> list[Path]:
    return sorted((tree.parent / "cache").glob("*.pack"))


@pytest.fixture
def one_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole pack in one file, for tests that edit records of several files at once."""
    monkeypatch.setattr("spawnlint.cache._SHARDS", 1)
    monkeypatch.setattr("spawnlint.cache._GROUPS", ("a",))
    monkeypatch.setattr("spawnlint.cache._shard_of", lambda path, kind: "a00")


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real_data = parse_file.parse_data

    def data(source: object, *args: object, **kw: object) -> object:
        parsed.append(source.path)  # type: ignore[attr-defined]
        return real_data(source, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(parse_file, "parse_data", data)
    return parsed


def _lint(root: Path, settings: Settings | None = None) -> tuple[Diagnostic, ...]:
    return lint(root, settings or Settings()).diagnostics


def test_a_second_run_parses_nothing_and_finds_the_same(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _lint(tree)
    assert {d.path for d in first} == {"commands/a.md", "hook.py"}
    parsed = _count_parses(monkeypatch)
    assert _lint(tree) == first
    assert parsed == []
    assert 1 < len(_packs(tree)) <= 4  # the files' records in shards, none of them empty
    assert len({p.name.split("-")[0] for p in _packs(tree)}) == 1  # of one project


def test_a_changed_file_alone_is_parsed_again(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _lint(tree)
    (tree / "commands/a.md").write_text(COMMAND.replace("c1", "c2"), "utf-8")
    parsed = _count_parses(monkeypatch)
    found = _lint(tree)
    assert parsed == ["commands/a.md"]
    assert any('"c2"' in d.message for d in found)


def test_settings_that_affect_parsing_are_part_of_the_key(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _lint(tree)
    parsed = _count_parses(monkeypatch)
    _lint(tree, Settings(strict=True, ignore=("SL201",)))  # reporting settings leave it valid
    assert parsed == []
    _lint(tree, Settings(spawn_callables=("Agent", "Task", "spawn_agent")))
    assert sorted(parsed) == ["agents/critic.md", "commands/a.md", "hook.py", "util.py"]


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"not a pickle at all",
        pickle.dumps({"a": 1})[:-3],
        pickle.dumps(("wrong salt", {})),
        pickle.dumps([1, 2, 3]),
    ],
    ids=["empty", "text", "truncated", "other-salt", "other-shape"],
)
def test_a_corrupt_pack_is_ignored_and_replaced(tree: Path, garbage: bytes) -> None:
    expected = lint(tree, Settings(), use_cache=False).diagnostics
    _lint(tree)
    for pack in _packs(tree):
        pack.write_bytes(garbage)
    assert _lint(tree) == expected
    assert all(pack.read_bytes() != garbage for pack in _packs(tree))


@pytest.mark.usefixtures("one_shard")
def test_entries_of_the_wrong_type_or_path_are_misses(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _lint(tree)
    (pack,) = _packs(tree)
    salt, entries, stats = pickle.loads(pack.read_bytes())
    keys = list(entries)
    entries[keys[0]] = "not a parsed file"
    entries[keys[1]] = entries[keys[2]]  # a parse result stored under another file's key
    pack.write_bytes(pickle.dumps((salt, entries, {})))
    parsed = _count_parses(monkeypatch)
    assert _lint(tree) == expected
    assert len(parsed) == 2


def test_no_cache_neither_reads_nor_writes(tree: Path) -> None:
    run = run_cli("check", "--root", str(tree), "--no-cache", "--output-format", "json")
    assert run.code == 1 and _packs(tree) == []
    run_cli("check", "--root", str(tree), "--output-format", "json")
    for pack in _packs(tree):
        pack.write_bytes(b"junk")
    again = run_cli("check", "--root", str(tree), "--no-cache", "--output-format", "json")
    assert again.out == run.out and _packs(tree) and all(p.read_bytes() == b"junk" for p in _packs(tree))


def test_an_unwritable_cache_folder_costs_nothing_but_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(blocker / "cache"))
    root = write_project(tmp_path / "proj", {"agents/critic.md": AGENT, "commands/a.md": COMMAND})
    assert sorted(d.code for d in _lint(root)) == ["SL101", "SL201"]


def _lint_in_child(root: str) -> None:
    lint(Path(root), Settings())


def test_concurrent_runs_leave_one_whole_pack(tree: Path) -> None:
    for n in range(20):
        (tree / f"commands/c{n}.md").write_text(COMMAND.replace("c1", f"x{n}"), "utf-8")
    context = multiprocessing.get_context("spawn")
    children = [context.Process(target=_lint_in_child, args=(str(tree),)) for _ in range(4)]
    for child in children:
        child.start()
    for child in children:
        child.join(60)
    assert [c.exitcode for c in children] == [0, 0, 0, 0]
    assert not list((tree.parent / "cache").glob(".*"))  # no temporary file left behind
    cache = ParseCache.open(tree, Settings())
    assert sum(len(shard.entries) for shard in cache._shards.values()) == 24


def test_cache_dir_follows_the_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SPAWNLINT_CACHE_DIR")
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    cases: list[tuple[str, dict[str, str], Callable[[], Path]]] = [
        ("linux", {"XDG_CACHE_HOME": "/xdg"}, lambda: Path("/xdg/spawnlint")),
        ("linux", {"XDG_CACHE_HOME": "relative"}, lambda: tmp_path / ".cache" / "spawnlint"),
        ("darwin", {}, lambda: tmp_path / "Library" / "Caches" / "spawnlint"),
        ("win32", {"LOCALAPPDATA": "C:/Local"}, lambda: Path("C:/Local") / "spawnlint" / "Cache"),
    ]
    for platform, env, expected in cases:
        monkeypatch.setattr(sys, "platform", platform)
        for key in ("XDG_CACHE_HOME", "LOCALAPPDATA"):
            monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        assert cache_dir() == expected()
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", os.fspath(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


class _RunsACommand:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_pack_that_would_run_code_is_a_miss_and_runs_nothing(tree: Path, tmp_path: Path) -> None:
    """Anyone who can write the cache folder (a CI cache restored from a pull request) must not
    be able to run code through it: only spawnlint's model classes unpickle."""
    expected = _lint(tree)
    marker = tmp_path / "pwned"
    for pack in _packs(tree):
        salt, entries, stats = pickle.loads(pack.read_bytes())
        entries[next(iter(entries))] = _RunsACommand(marker)
        pack.write_bytes(pickle.dumps((salt, entries, {})))
    assert _lint(tree) == expected
    assert not marker.exists()


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real = parse_file.read_source

    def counting(root: Path, source: object, settings: Settings) -> object:
        reads.append(source.path)  # type: ignore[attr-defined]
        return real(root, source, settings)  # type: ignore[arg-type]

    monkeypatch.setattr(parse_file, "read_source", counting)
    return reads


def test_unchanged_files_are_not_read_again(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)  # the tree was written just now
    expected = _lint(tree)
    reads = _count_reads(monkeypatch)
    assert _lint(tree) == expected
    assert reads == []


@pytest.mark.usefixtures("one_shard")
def test_stat_records_of_the_wrong_shape_are_misses(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    expected = _lint(tree)
    (pack,) = _packs(tree)
    salt, entries, stats = pickle.loads(pack.read_bytes())
    assert len(stats) == 4
    first, second, third, _ = sorted(stats)
    stats.update({first: 42, second: ["a list"], third: "0" * 40, "a path": "0" * 40, (1, 2): None})
    pack.write_bytes(pickle.dumps((salt, entries, stats)))
    reads = _count_reads(monkeypatch)
    assert _lint(tree) == expected
    assert sorted(reads) == [first[0], second[0], third[0]]  # read again; the fourth was trusted


def test_a_rewrite_that_keeps_size_and_mtime_is_still_seen(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    command = tree / "commands" / "a.md"
    before = os.stat(command)
    assert any(d.code == "SL101" and d.path == "commands/a.md" for d in _lint(tree))
    command.write_text(COMMAND.replace('"c1"', '"c2"'))  # same size
    os.utime(command, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old mtime
    assert os.stat(command).st_size == before.st_size
    found = [d for d in _lint(tree) if d.code == "SL101" and d.path == "commands/a.md"]
    assert found and '"c2"' in found[0].message  # the change time told: the file was read again


def test_files_written_moments_ago_are_not_trusted_by_their_stat(tree: Path) -> None:
    _lint(tree)
    assert _packs(tree)
    for pack in _packs(tree):
        _, entries, stats = pickle.loads(pack.read_bytes())
        assert entries and stats == {}  # every file of the tree is younger than the clock's granularity


def test_discovery_is_remembered_until_a_path_or_a_manifest_changes(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    from spawnlint import discover

    calls: list[Path] = []
    real = discover.discover

    def counting(root: Path, *args: object) -> discover.Discovery:
        calls.append(root)
        return real(root, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(discover, "discover", counting)
    (tree / ".claude-plugin").mkdir()
    (tree / ".claude-plugin" / "plugin.json").write_text('{"name": "shop"}')
    first = _lint(tree)
    assert _lint(tree) == first and len(calls) == 1  # nothing changed: remembered
    (tree / "commands" / "a.md").write_text(COMMAND + "\nMore text.\n")
    _lint(tree)
    assert len(calls) == 1  # a command's text does not change what is discovered
    (tree / ".claude-plugin" / "plugin.json").write_text('{"name": "store"}')
    renamed = _lint(tree)
    assert len(calls) == 2 and renamed != first  # the plugin's name is part of every agent id
    (tree / "commands" / "b.md").write_text(COMMAND)
    _lint(tree)
    assert len(calls) == 3


def test_a_changed_file_rewrites_only_the_shard_holding_it(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    for n in range(40):
        (tree / f"commands/c{n}.md").write_text(COMMAND.replace("c1", f"x{n}"), "utf-8")
    _lint(tree)
    assert len(_packs(tree)) > 4
    _lint(tree)  # the stat records of the first run, now trusted, are written once
    before = {p.name: os.stat(p).st_ino for p in _packs(tree)}
    (tree / "commands/c7.md").write_text(COMMAND.replace("c1", "renamed"), "utf-8")
    found = _lint(tree)
    assert found == lint(tree, Settings(), use_cache=False).diagnostics
    assert any('"renamed"' in d.message for d in found)
    after = {p.name: os.stat(p).st_ino for p in _packs(tree)}
    assert before.keys() == after.keys()
    assert len([name for name in before if before[name] != after[name]]) == 1
    before = after
    _lint(tree)
    assert {p.name: os.stat(p).st_ino for p in _packs(tree)} == before  # nothing changed: nothing written


def test_loading_a_pack_leaves_the_collector_as_it_was(tree: Path) -> None:
    _lint(tree)
    assert gc.isenabled()
    ParseCache.open(tree, Settings())
    assert gc.isenabled()
    gc.disable()
    try:
        ParseCache.open(tree, Settings())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_keyed_record_of_another_key_is_not_unpickled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spawnlint import cache
    from spawnlint.model import Finding

    path = tmp_path / "records"
    records = [Finding("a.md", 1, 1, "m")]
    cache.store_keyed(path, "key", records)
    resolved: list[str] = []
    real = cache._ModelOnly.find_class

    def counting(self: pickle.Unpickler, module: str, name: str) -> object:
        resolved.append(name)
        return real(self, module, name)

    monkeypatch.setattr(cache._ModelOnly, "find_class", counting)
    assert cache.load_keyed(path, "other key") is None
    assert resolved == []  # the records were not even unpickled
    assert cache.load_keyed(path, "key") == records
    assert resolved == ["Finding"]
    path.write_bytes(path.read_bytes()[:-5])
    assert cache.load_keyed(path, "key") is None


def test_an_atomic_write_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    from spawnlint.atomic import write_atomically

    target = tmp_path / "f.txt"
    write_atomically(target, b"one")
    assert target.read_bytes() == b"one"
    target.chmod(0o640)
    write_atomically(target, b"two")
    assert target.read_bytes() == b"two" and target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]
    with pytest.raises(FileNotFoundError):
        write_atomically(tmp_path / "missing" / "g.txt", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]
