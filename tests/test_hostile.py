"""A project written to hurt the linter (SPEC §7, in one place): it is checked quickly, with a
valid report, without running anything, reading outside the project or writing raw control
characters; and every output format escapes hostile project text."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, Run, run_cli, write_project
from spawnlint.report import FORMATS

HOSTILE_TEXT = "\x1b[31m\r\n::error::x\x07\x9b"
ONE_LINE = "\x1b[31m\x07\x9b\x1b]0;t\x07"  # what a quoted value can hold
RAW_CONTROLS = (
    {chr(c) for c in range(0x20) if chr(c) not in "\n\t"} | {chr(0x7F)} | {chr(c) for c in range(0x80, 0xA0)}
)


NAMED = 'Agent(subagent_type: "critic", name: "c1", prompt: "p")\n'


def _alias_bomb() -> str:
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, name = chr(96 + i), chr(97 + i)
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "---\nname: bomb\n" + "\n".join(levels) + "\ntools: *j\ndescription: *j\n---\nBody.\n"


def _hostile_project(root: Path, marker: Path) -> Path:
    write_project(
        root,
        {
            "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n",
            "agents/bomb.md": _alias_bomb(),
            "agents/tag.md": f'---\nname: tag\ndescription: !!python/object/apply:os.system ["touch {marker}"]\n'
            "---\nx\n",
            "commands/huge.md": "x" * (10 * 1024 * 1024),
            "commands/long-line.md": "Agent(" + "y" * (5 * 1024 * 1024) + "\n",
            "commands/quotes.md": "> " * 5000 + "Agent(subagent_type: critic, prompt: p)\n",
            "commands/lists.md": "- " * 3000 + "y\n" + "(" * 3000 + "\n",
            "tools/deep.py": "subagent_type = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
            "commands/nul.md": b"Agent(\x00subagent_type: critic)\n",
            "commands/unclosed.md": "Agent(subagent_type: x name: y " * 20_000,
            "commands/escapes.md": '# R\n\nAgent(subagent_type: "crit\x1b[31mic\x07\x9b", name: "n\x1b]0;x\x07",'
            f' prompt: "p")\n\n{HOSTILE_TEXT}\n',
            ".claude-plugin/marketplace.json": json.dumps(
                {
                    "name": "m",
                    "plugins": [{"name": "up", "source": "../../etc"}, {"name": "abs", "source": "/etc"}],
                },
                indent=2,
            ),
            ".claude-plugin/plugin.json": json.dumps(
                {"name": "p", "agents": ["/etc/passwd", "../../etc/x.md"]}
            ),
        },
    )
    (root / "commands" / "loop.md").symlink_to(root / "commands" / "loop.md")
    (root / "commands" / "passwd.md").symlink_to("/etc/passwd")
    (root / "agents" / "etc").symlink_to("/etc")
    os.mkfifo(root / "commands" / "pipe.md")  # opening one blocks until a writer comes
    (root / "commands" / os.fsdecode(b"caf\xe9.md")).write_text(NAMED)  # a latin-1 file name
    (root / "plugins" / "x" / ".claude-plugin").mkdir(parents=True)
    os.mkfifo(root / "plugins" / "x" / ".claude-plugin" / "plugin.json")
    return root


def test_hostile_project_is_checked_quickly_and_safely(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    root = _hostile_project(tmp_path / "hostile", marker)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "spawnlint", "check", "--root", str(root), "--output-format", "json"],
        capture_output=True,
        timeout=120,
        cwd=REPO,
    )
    elapsed = time.monotonic() - started
    assert proc.returncode in (0, 1), proc.stderr
    assert elapsed < 60, f"took {elapsed:.1f} s"
    assert b"Traceback" not in proc.stderr
    assert not marker.exists(), "a YAML tag ran a command"
    out = proc.stdout.decode("utf-8")
    assert not RAW_CONTROLS & set(out)
    assert "root:" not in out
    found = {(d["path"], d["code"]) for d in json.loads(out)}
    assert found >= {
        ("agents/tag.md", "SL001"),
        ("commands/huge.md", "SL002"),
        ("commands/long-line.md", "SL002"),
        ("commands/nul.md", "SL002"),
        ("commands/unclosed.md", "SL002"),
        ("commands/loop.md", "SL002"),
        ("commands/pipe.md", "SL002"),
        ("commands/passwd.md", "SL002"),
        ("agents/etc", "SL002"),
        ("tools/deep.py", "SL002"),
        (".claude-plugin/marketplace.json", "SL002"),
        (".claude-plugin/plugin.json", "SL002"),
        ("commands/escapes.md", "SL301"),
        ("commands/caf\udce9.md", "SL101"),
    }
    refused = sorted(
        (d["line"], d["message"]) for d in json.loads(out) if d["path"] == ".claude-plugin/marketplace.json"
    )
    assert [line for line, _ in refused] == [6, 10]  # each on the line that names its source

    for fmt in ("concise", "full"):  # full shows source lines: never those of /etc/passwd
        shown = subprocess.run(
            [sys.executable, "-m", "spawnlint", "check", "--root", str(root), "--output-format", fmt],
            capture_output=True,
            timeout=120,
            cwd=REPO,
        )
        assert shown.returncode in (0, 1), shown.stderr
        text = shown.stdout.decode("utf-8") + shown.stderr.decode("utf-8")
        assert not RAW_CONTROLS & set(text) and "root:" not in text and "Traceback" not in text


@pytest.mark.slow  # ~20 s: 15 MB of text through every recogniser
def test_long_line_and_huge_file_under_a_raised_cap(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "p",
        {
            "pyproject.toml": "[tool.spawnlint]\nmax-file-size = 12000000\n",
            "commands/huge.md": "x" * (10 * 1024 * 1024),
            "commands/long-line.md": "Agent(" + "y" * (5 * 1024 * 1024) + "\n",
        },
    )
    started = time.monotonic()
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    assert run.code == 0 and json.loads(run.out) == []
    assert time.monotonic() - started < 60


@pytest.fixture
def escaping_project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "esc",
        {
            "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n",
            "commands/run.md": f'# R\n\nAgent(subagent_type: "critic", name: "c{ONE_LINE}", prompt: "p")\n',
            f"commands/odd{HOSTILE_TEXT}.md": 'Agent(subagent_type: "critic", name: "c1", prompt: "p")\n',
            # GitHub Actions reads `::command::` at a line's start, and `##[command]` anywhere
            " ::warning::start.md": 'Agent(subagent_type: "critic", name: "c2", prompt: "p")\n',
            "commands/legacy.md": 'Agent(subagent_type: "critic", name: "##[error]legacy", prompt: "p")\n',
        },
    )


def _workflow_commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip().startswith("::") or "##[" in line]


@pytest.mark.skipif(sys.platform == "darwin", reason="the file name holds a newline")
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_escapes_project_text(
    fmt: str, escaping_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    run = run_cli("check", "--root", str(escaping_project), "--output-format", fmt)
    assert run.code == 1, run.err
    assert not RAW_CONTROLS & set(run.out), sorted(RAW_CONTROLS & set(run.out))
    commands = _workflow_commands(run.out)
    if fmt == "github":  # one command per finding, each its own, nothing more
        assert len(commands) == len(run.out.splitlines())  # workflow commands only
        assert all(
            re.match(r"::(error|warning) file=[^:]*,line=\d+,col=\d+,title=SL\d+::", c) for c in commands
        )
        assert not any("##[" in c for c in commands)
    else:
        assert commands == []
    if fmt in ("json", "sarif"):
        data = json.loads(run.out)
        texts = json.dumps(data, ensure_ascii=False)
        assert HOSTILE_TEXT in texts or "\\u001b" in texts  # the value itself survives, escaped
    if fmt == "json":
        messages = [d["message"] for d in json.loads(run.out)]
        assert any(ONE_LINE in m for m in messages) and any(HOSTILE_TEXT in m for m in messages)
        assert any("##[error]legacy" in m for m in messages)  # the value reads back unchanged
    if fmt == "junit":
        ET.fromstring(run.out)


@pytest.mark.skipif(sys.platform == "darwin", reason="the file name holds a newline")
@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_audit_escapes_project_text(fmt: str, escaping_project: Path) -> None:
    run = run_cli("audit", str(escaping_project), "--output-format", fmt)
    assert run.code == 0, run.err
    assert not RAW_CONTROLS & set(run.out)
    assert _workflow_commands(run.out) == []
    if fmt == "json":
        assert any(ONE_LINE in (s["name"] or "") for s in json.loads(run.out)["spawn_sites"])


def test_no_shell_or_network_module_is_used_by_parsing() -> None:
    """Nothing spawnlint does executes project code: the only subprocess is `git ls-files`."""
    src = (REPO / "src" / "spawnlint").rglob("*.py")
    # the module used, not the word ("Spawn `$CMD` subprocess" is an example sentence of a form)
    uses = re.compile(r"^\s*(?:import|from)\s+subprocess\b|\bsubprocess\.\w|\bos\.system\b", re.MULTILINE)
    users = sorted(p.name for p in src if uses.search(p.read_text("utf-8")))
    assert users == ["discover.py"] or set(users) <= {"discover.py", "guard.py"}, users
    assert os.sep  # keeps the import honest on every platform


# Round two (issue 20): each reproducer of the outside attack, on the base project `shop`.

RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an"
    " `in_process_teammate`, whose final answer never returns to this command."
)
SHOP_SPAWN = 'Agent(subagent_type: "shop:critic", name: "c1", prompt: "review it")'
SHOP = {
    ".claude-plugin/plugin.json": '{"name": "shop"}\n',
    "agents/critic.md": "---\nname: critic\ndescription: d\ntools: Read, Grep\n---\nReview.\n",
    "commands/review.md": f"# Review\n\n{RULE}\n\n{SHOP_SPAWN}\n",
}


def _shop(root: Path, extra: dict[str, str | bytes] | None = None) -> Path:
    return write_project(root, {**SHOP, **(extra or {})})


def _found(root: Path, *extra: str) -> set[tuple[str, int, str]]:
    run = run_cli("check", "--root", str(root), "--output-format", "json", *extra)
    assert run.code in (0, 1), run.err
    return {(d["path"], d["line"], d["code"]) for d in json.loads(run.out)}


# Item 13: a file name cannot forge a finding line.

FORGED = "a:1:1: SL999 [error] fake.md"


@pytest.mark.parametrize("fmt", ["concise", "full"])
def test_a_file_name_cannot_forge_a_finding_line(fmt: str, tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop", {f"commands/{FORGED}": f"{RULE}\n\n{SHOP_SPAWN}\n"})
    run = run_cli("check", "--root", str(root), "--output-format", fmt, "--color", "never")
    assert run.code == 1, run.err
    finding = re.compile(r'^(?:"(?:[^"\\]|\\.)*"|[^":\s][^:]*):\d+:\d+: SL\d{3} \[(?:error|warning|info)\] ')
    starts = [line for line in run.out.splitlines() if finding.match(line)]
    assert len(starts) == 2  # one per finding: the forged name reads as one quoted path
    assert not any(line.startswith("commands/a:1:1:") for line in run.out.splitlines())
    assert f'"commands/{FORGED}":3:37: SL101' in run.out
    assert "commands/review.md:5:37: SL101" in run.out  # an ordinary path stays unquoted


def test_a_quoted_path_is_coloured_whole() -> None:
    from spawnlint.report.colour import colourise

    text = colourise(f'"commands/{FORGED}":3:1: SL101 [error] named spawn\n')
    assert text.startswith(f'\x1b[1m"commands/{FORGED}":3:1:\x1b[0m \x1b[31m\x1b[1mSL101')


# Item 11: a root-level YAML tag as the whole frontmatter of an agent.


def test_an_agent_whose_frontmatter_is_a_root_tag_gets_sl001(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    tagged = f'---\n!!python/object/new:os.system ["touch {marker}"]\n---\nBody.\n\n{SHOP_SPAWN}\n'
    root = _shop(
        tmp_path / "shop", {"agents/evil.md": tagged, "commands/evil.md": tagged.replace("Body.", RULE)}
    )
    found = _found(root)
    assert ("agents/evil.md", 2, "SL001") in found
    assert ("commands/evil.md", 2, "SL001") in found  # the same, as for a command
    assert ("agents/evil.md", 6, "SL101") in found  # and its body is still read
    assert not marker.exists()


# Item 8: deep markdown is read, or said to be not fully read.


def _nested_list(levels: int, last: str) -> str:
    return "".join("  " * i + "- item\n" for i in range(levels)) + "  " * levels + f"- {last}\n"


@pytest.mark.parametrize("levels", [15, 20, 25, 40])
def test_a_spawn_under_deep_blockquotes_is_found(levels: int, tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop", {"commands/deep.md": f"{RULE}\n\n" + "> " * levels + SHOP_SPAWN + "\n"})
    found = _found(root, "--no-cache")
    assert ("commands/deep.md", 3, "SL101") in found
    assert not any(path == "commands/deep.md" and code == "SL002" for path, _, code in found)


def test_a_spawn_in_a_30_level_list_is_found(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop", {"commands/list.md": f"{RULE}\n\n" + _nested_list(30, SHOP_SPAWN)})
    assert ("commands/list.md", 33, "SL101") in _found(root, "--no-cache")


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("> " * 300 + SHOP_SPAWN + "\n", 5),
        (_nested_list(200, SHOP_SPAWN), 5 + 49),  # the item whose list would be the 101st level
        ("> - " * 150 + SHOP_SPAWN + "\n", 5),
    ],
    ids=["quotes", "list", "mixed"],
)
def test_markdown_nested_past_the_limit_is_said_to_be_not_fully_read(
    body: str, line: int, tmp_path: Path
) -> None:
    root = _shop(tmp_path / "shop", {"commands/deep.md": f"{RULE}\n\nIntro.\n\n{body}"})
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache")
    said = [d for d in json.loads(run.out) if d["path"] == "commands/deep.md" and d["code"] == "SL002"]
    assert len(said) == 1, run.out
    assert said[0]["line"] == line and "not fully read" in said[0]["message"]


# Item 2: a cache record of the wrong shape is a miss, never a crash.


def _tamper(path: Path, change: Callable[[object], object], keyed: bool) -> None:
    """Rewrite a cache file with `change` applied to its records (a valid pickle of spawnlint's
    own classes), keeping its salt or key so that it is read."""
    import pickle

    data = path.read_bytes()
    if keyed:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        key, records = unpickler.load(), unpickler.load()
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer)
        pickler.dump(key)
        pickler.dump(change(records))
        path.write_bytes(buffer.getvalue())
    else:
        path.write_bytes(pickle.dumps(change(pickle.loads(data))))


def _wrong_field(record: object, name: str, value: object) -> object:
    object.__setattr__(record, name, value)  # frozen dataclasses: what a pickle's state can hold
    return record


def _shop_parse_packs_tampered(name: str, value: object) -> Callable[[object], object]:
    from spawnlint.model import ParsedFile

    def change(stored: object) -> object:
        salt, entries, stats = stored  # type: ignore[misc]
        for entry in entries.values():
            if isinstance(entry, ParsedFile):
                _wrong_field(entry, name, value)
        return (salt, entries, stats)

    return change


@pytest.mark.parametrize(
    ("field", "value"),
    [("sites", 1), ("agents", 1), ("problems", [None]), ("sentences", (1, 2)), ("kind", "agent")],
)
def test_a_parse_record_of_the_wrong_shape_is_a_miss(
    field: str, value: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = _shop(tmp_path / "shop")
    expected = _found(root, "--no-cache")
    assert _found(root, "--verbose") == expected  # --verbose: linted afresh, through the parse cache
    packs = sorted((tmp_path / "cache").glob("*.pack"))
    assert packs
    for pack in packs:
        _tamper(pack, _shop_parse_packs_tampered(field, value), keyed=False)
    for _ in range(2):  # the miss is parsed again, and the next run is well too
        assert _found(root, "--verbose") == expected


def test_a_run_memo_or_discovery_of_the_wrong_shape_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spawnlint import cache_folder

    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)  # the tree was written just now
    root = _shop(tmp_path / "shop")
    expected = _found(root, "--no-cache")
    assert _found(root) == expected
    (memo,) = (tmp_path / "cache").glob("*.run")
    (found,) = (tmp_path / "cache").glob("*.discovery")

    def related_is_one(records: object) -> object:
        return [_wrong_field(d, "related", 1) for d in records]  # type: ignore[attr-defined]

    _tamper(memo, related_is_one, keyed=True)
    _tamper(found, lambda d: _wrong_field(d, "files", 1), keyed=True)
    for _ in range(2):
        assert _found(root) == expected


def test_every_cached_record_class_has_a_shape_test() -> None:
    import dataclasses

    from spawnlint import cache
    from spawnlint.model import Diagnostic, Edit, Fix, Location, Severity

    classes = [c for c in cache._RECORD_CLASSES.values() if dataclasses.is_dataclass(c)]
    assert len(classes) > 20 and all(cache.well_formed(object(), c) is False for c in classes)
    edit = Edit("a.md", 1, 1, 1, 2, "x")
    good = Diagnostic("a.md", 1, 1, "SL101", "m", Severity.ERROR, (Location("b.md", 2),), Fix((edit,), True))
    assert cache.well_formed([good], list[Diagnostic])
    bad = dataclasses.replace(good, related=(Location("b.md", True),))  # a bool is no line number
    assert not cache.well_formed([good, bad], list[Diagnostic])


# Item 3: the cache folder is private, and one that others can write is not trusted.


def _memo_hides_every_finding(folder: Path) -> None:
    (memo,) = folder.glob("*.run")
    _tamper(memo, lambda records: [], keyed=True)  # well-formed: "No findings."


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_the_cache_folder_is_0700_and_its_files_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spawnlint import cache_folder

    folder = tmp_path / "deep" / "cache"
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)
    root = _shop(tmp_path / "shop")
    old = os.umask(0o002)  # a umask that would give others more
    try:
        _found(root)
    finally:
        os.umask(old)
    files = list(folder.iterdir())
    assert {p.suffix for p in files} >= {".pack", ".run", ".discovery"}
    assert folder.stat().st_mode & 0o777 == 0o700
    assert {p.stat().st_mode & 0o777 for p in files} == {0o600}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("how", ["others-write", "group-write", "owner"])
def test_a_cache_folder_others_can_write_is_refused_with_one_warning(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spawnlint import cache_folder

    if how == "owner" and os.geteuid() != 0:
        pytest.skip("giving a folder to another user takes root")
    folder = tmp_path / "cache"
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)
    root = _shop(tmp_path / "shop")
    expected = _found(root)
    assert expected and _found(root) == expected  # the second from the memo
    _memo_hides_every_finding(folder)
    assert _found(root) == set()  # what whoever writes the folder can do
    if how == "owner":
        os.chown(folder, 1234, 1234)
    else:
        folder.chmod(0o777 if how == "others-write" else 0o770)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    assert {(d["path"], d["line"], d["code"]) for d in json.loads(run.out)} == expected
    warnings = [line for line in run.err.splitlines() if "cache" in line]
    assert len(warnings) == 1 and str(folder) in warnings[0] and "without the cache" in warnings[0], run.err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing written there either
    audit = run_cli("audit", str(root), "--output-format", "json")
    assert audit.code == 0 and len([line for line in audit.err.splitlines() if "cache" in line]) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_cache_file_others_can_write_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spawnlint import cache_folder

    folder = tmp_path / "cache"
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)
    root = _shop(tmp_path / "shop")
    expected = _found(root)
    _found(root)
    _memo_hides_every_finding(folder)
    for path in folder.iterdir():
        path.chmod(0o666)
    assert _found(root) == expected


# Item 9: a catastrophic pattern in the configuration cannot hang the run.


def test_a_catastrophic_rule_pattern_is_stopped_with_a_clear_error(tmp_path: Path) -> None:
    root = _shop(
        tmp_path / "shop",
        {
            ".spawnlint.toml": '[no-name-rule]\npattern = "(a|aa)+$"\n',
            "commands/review.md": f"# Review\n\n{'a' * 60}!\n\n{SHOP_SPAWN}\n",
        },
    )
    proc = subprocess.run(  # the timeout only keeps a hang from stalling the suite
        [sys.executable, "-m", "spawnlint", "check", "--root", str(root), "--no-cache"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no-name-rule.pattern" in proc.stderr and "(a|aa)+$" in proc.stderr
    assert "backtrack" in proc.stderr and "Traceback" not in proc.stderr


def test_an_ordinary_rule_pattern_still_matches(tmp_path: Path) -> None:
    root = _shop(
        tmp_path / "shop",
        {
            ".spawnlint.toml": '[no-name-rule]\npattern = "never pass .name."\n',
            "commands/other.md": f"Never pass `name` here.\n\n{SHOP_SPAWN}\n",
            "commands/bare.md": f"{SHOP_SPAWN}\n",
        },
    )
    found = _found(root, "--no-cache")
    assert ("commands/bare.md", 1, "SL201") in found
    assert not any(path == "commands/other.md" and code == "SL201" for path, _, code in found)


def test_a_rule_pattern_the_regex_engine_refuses_is_a_configuration_error(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop", {".spawnlint.toml": '[no-name-rule]\npattern = "(unclosed"\n'})
    run = run_cli("check", "--root", str(root))
    assert run.code == 2 and "not a valid regular expression" in run.err


# Item 6: --fix keeps a file's identity: owner, group, mode, hard links; read-only files alone.

FIXED_SPAWN = 'Agent(subagent_type: "shop:critic", prompt: "review it")'


def _fix(root: Path) -> Run:
    return run_cli("check", "--root", str(root), "--fix", "--no-cache", "--output-format", "json")


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() != 0, reason="giving a file away takes root")
def test_fix_keeps_owner_group_and_mode(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop")
    target = root / "commands/review.md"
    os.chown(target, 1234, 1234)
    target.chmod(0o640)
    run = _fix(root)
    assert FIXED_SPAWN in target.read_text("utf-8"), run.err
    status = target.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o7777) == (1234, 1234, 0o640)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX hard links")
def test_fix_never_splits_a_hard_link(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop")
    target = root / "commands/review.md"
    twin = tmp_path / "twin.md"
    os.link(target, twin)
    before = target.read_bytes()
    run = _fix(root)
    assert target.stat().st_ino == twin.stat().st_ino and target.stat().st_nlink == 2
    assert target.read_bytes() == twin.read_bytes()
    assert target.read_bytes() == before  # left unfixed ...
    assert "commands/review.md" in run.err and "hard link" in run.err  # ... and said
    assert ("commands/review.md", 5, "SL101") in {
        (d["path"], d["line"], d["code"]) for d in json.loads(run.out)
    }


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_fix_leaves_a_read_only_file_alone_and_says_so(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop", {"commands/other.md": f"{RULE}\n\n{SHOP_SPAWN}\n"})
    target = root / "commands/review.md"
    target.chmod(0o444)
    before, inode = target.read_bytes(), target.stat().st_ino
    run = _fix(root)
    assert target.read_bytes() == before and target.stat().st_ino == inode
    assert target.stat().st_mode & 0o777 == 0o444
    assert "commands/review.md" in run.err and "read-only" in run.err
    assert run.err.count("read-only") == 1  # once, though --fix runs more than one pass
    assert FIXED_SPAWN in (root / "commands/other.md").read_text("utf-8")  # the others are fixed
    assert "fixed 1 finding in 1 file" in run.err


# Item 7: a --fix killed mid-write leaves litter that the next --fix clears.


def _killed_mid_write(target: Path, data: bytes) -> Path:
    """A child process that dies (as under kill -9: no clean-up runs) after writing the temporary
    file of an atomic write and before renaming it; the temporary file it left."""
    from spawnlint import atomic

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.replace = lambda *args: os._exit(9)  # type: ignore[assignment]
        atomic.write_atomically(target, data)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 9
    (left,) = [p for p in target.parent.iterdir() if p.name.startswith(f".{target.name}.")]
    return left


def _aged(path: Path) -> Path:
    old = time.time() - 3600
    os.utime(path, (old, old), follow_symlinks=False)
    return path


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_the_next_fix_clears_what_a_killed_fix_left(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop")
    target = root / "commands/review.md"
    left = _aged(_killed_mid_write(target, b"half a fix"))
    elsewhere = _aged(_killed_mid_write(root / "agents/critic.md", b"x"))  # nothing to fix there
    assert re.fullmatch(r"\.review\.md\.[0-9a-f]{12}\.tmp", left.name)
    lookalikes = [root / "commands/.notes.md.tmp", root / "commands/.x.md.0123456789ab.tmp.bak"]
    for path in lookalikes:
        path.write_text("mine")
    run = _fix(root)
    assert FIXED_SPAWN in target.read_text("utf-8"), run.err
    assert not left.exists() and not elsewhere.exists()
    assert all(p.read_text() == "mine" for p in lookalikes)  # only spawnlint's own names


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="POSIX locks")
def test_a_temporary_file_in_use_is_left_to_its_writer(tmp_path: Path) -> None:
    import fcntl

    root = _shop(tmp_path / "shop")
    busy = _aged(_killed_mid_write(root / "commands/review.md", b"still being written"))
    with open(busy, "rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # as a live writer holds it
        _fix(root)
        assert busy.exists()
    fresh = _killed_mid_write(root / "agents/critic.md", b"written a moment ago")
    soon = time.time() + 3600  # "a moment ago" however slow this machine is
    os.utime(fresh, (soon, soon))
    _fix(root)
    assert fresh.exists()  # too new to tell from a writer that has not locked it yet
    _fix(root)
    assert not busy.exists()


# Item 10: what cannot be read gets SL002: FIFOs and sockets named like components, and folders
# without read or execute permission.


def _git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)


def _special_files(root: Path) -> None:
    import socket

    os.mkfifo(root / "agents/agent.md")
    listening = socket.socket(socket.AF_UNIX)
    try:
        listening.bind(str(root / "commands/x.md"))
    finally:
        listening.close()  # the socket file stays


@pytest.mark.skipif(sys.platform == "win32", reason="no FIFOs or UNIX sockets")
@pytest.mark.parametrize("git", [False, True], ids=["folder", "git-work-tree"])
def test_fifos_and_sockets_named_like_components_get_sl002(git: bool, tmp_path: Path) -> None:
    root = _shop(tmp_path / "s")  # short: a socket's path is at most ~100 bytes
    if git:
        _git_init(root)  # git lists neither: they are untracked and not files
    _special_files(root)
    found = _found(root, "--no-cache")
    assert ("agents/agent.md", 1, "SL002") in found
    assert ("commands/x.md", 1, "SL002") in found
    assert ("commands/review.md", 5, "SL101") in found


def test_a_gitignored_fifo_is_not_reported(tmp_path: Path) -> None:
    root = _shop(tmp_path / "s", {".gitignore": "agents/agent.md\n"})
    _git_init(root)
    os.mkfifo(root / "agents/agent.md")
    assert not any(path == "agents/agent.md" for path, _, _ in _found(root, "--no-cache"))


def _nobody() -> tuple[int, int]:
    try:
        import pwd

        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        return 65534, 65534


_NOBODY = _nobody()


def _as_another_user(call: Callable[[], object]) -> object:
    """`call()` in a forked child that runs as an ordinary user (nobody) when this process is
    root, so that permissions are really enforced; its result comes back pickled. What it
    imports must be imported already (the interpreter's own files may be root's alone)."""
    import pickle

    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(reader)
            if os.geteuid() == 0:
                os.setgid(_NOBODY[1])
                os.setuid(_NOBODY[0])
            data = pickle.dumps(call())
        except BaseException as exc:  # noqa: BLE001 - carried back to the test
            data = pickle.dumps(exc)
        with os.fdopen(writer, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as handle:
        result = pickle.loads(handle.read())
    os.waitpid(pid, 0)
    if isinstance(result, BaseException):
        raise result
    return result


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "fork"), reason="POSIX permissions")
@pytest.mark.parametrize("git", [False, True], ids=["folder", "git-work-tree"])
def test_folders_without_read_or_execute_permission_get_sl002(git: bool, tmp_path: Path) -> None:
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="sl-perm-"))  # pytest's own folder is root's alone
    try:
        root = _shop(base / "shop", {"commands/locked/a.md": SHOP_SPAWN, "agents/dark/b.md": "x\n"})
        if git:
            _git_init(root)
        # every module and codec a run loads, loaded while this user can read them all
        run_cli("check", "--root", str(root), "--no-cache", "--output-format", "json")
        (root / "commands/locked").chmod(0o000)  # neither read nor execute
        (root / "agents/dark").chmod(0o644)  # read without execute: names, but no file opens
        if os.geteuid() == 0:
            for path in [base, *base.rglob("*")]:
                os.chown(path, *_NOBODY, follow_symlinks=False)
        os.chmod(base, 0o755)
        cache = base / "cache"

        def check() -> object:
            os.environ["SPAWNLINT_CACHE_DIR"] = str(cache)
            os.environ["HOME"] = str(base)
            os.environ["GIT_CONFIG_GLOBAL"] = os.devnull
            run = run_cli("check", "--root", str(root), "--output-format", "json")
            return run.out or run.err

        out = _as_another_user(check)
        data = json.loads(str(out))
        found = {(d["path"], d["code"]) for d in data}
        assert [d["code"] for d in data if d["path"] == "commands/locked"] == ["SL002"], out
        assert any(path.startswith("agents/dark") and code == "SL002" for path, code in found), out
        assert ("commands/review.md", "SL101") in found
    finally:
        for path in [base, *base.rglob("*")] if base.exists() else []:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)
