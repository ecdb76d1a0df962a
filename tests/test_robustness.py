"""Inputs the linter must survive (SPEC §7): each gets a diagnostic or nothing, never a crash,
and the rest of the project is still checked."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from spawnlint.model import FileKind
from spawnlint.parse import parse_text

Make = Callable[[dict[str, str | bytes]], Path]

MUTE_AGENT = "---\nname: critic\ndescription: d\ntools: Read\n---\nReview.\n"
NAMED_SPAWN = '# R\n\nAgent(subagent_type: "critic", name: "c1", prompt: "p")\n'


def codes(root: Path) -> list[tuple[str, int, str]]:
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    assert run.code in (0, 1), run.err
    return [(d["path"], d["line"], d["code"]) for d in json.loads(run.out)]


def test_bad_files_do_not_stop_the_rest(project: Make) -> None:
    root = project(
        {
            "agents/critic.md": MUTE_AGENT,
            "commands/run.md": NAMED_SPAWN,
            "commands/latin.md": "caf\xe9 Agent(".encode("latin-1"),
            "commands/binary.md": b"\x00\x01\x02PNG",
            "commands/empty.md": "",
            "agents/bom.md": "\ufeff---\nname: bommed\ndescription: d\n---\nHi\n",
            "commands/deep.md": "> " * 5000 + "x\n" + "- " * 3000 + "y\n" + "[" * 10000 + "\n",
        }
    )
    found = codes(root)
    assert ("commands/latin.md", 1, "SL002") in found
    assert ("commands/binary.md", 1, "SL002") in found
    assert ("commands/run.md", 3, "SL101") in found
    assert not any(path == "agents/bom.md" for path, _, _ in found)


def test_size_cap(project: Make) -> None:
    root = project(
        {
            "commands/huge.md": "x" * 5000 + "\n",
            "pyproject.toml": "[tool.spawnlint]\nmax-file-size = 1000\n",
        }
    )
    assert codes(root) == [("commands/huge.md", 1, "SL002")]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(project: Make) -> None:
    root = project({"commands/secret.md": "x\n"})
    (root / "commands/secret.md").chmod(0)
    assert codes(root) == [("commands/secret.md", 1, "SL002")]


def test_fifo_is_not_opened(project: Make) -> None:
    root = project({"commands/ok.md": "Nothing.\n"})
    os.mkfifo(root / "commands" / "pipe.md")
    assert codes(root) == [("commands/pipe.md", 1, "SL002")]


def test_symlinks_never_leave_the_project(project: Make, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(NAMED_SPAWN)
    root = project({"agents/critic.md": MUTE_AGENT, "commands/ok.md": "Nothing.\n"})
    (root / "commands/escape.md").symlink_to(outside)
    (root / "commands/loop.md").symlink_to(root / "commands/loop.md")
    (root / "commands/inside.md").symlink_to(root / "commands/ok.md")
    found = codes(root)
    assert ("commands/escape.md", 1, "SL002") in found
    assert ("commands/loop.md", 1, "SL002") in found
    assert not any(code == "SL101" for _, _, code in found)


def test_marketplace_source_outside_is_refused(project: Make, tmp_path: Path) -> None:
    (tmp_path / "evil" / "commands").mkdir(parents=True)
    (tmp_path / "evil" / "commands" / "x.md").write_text(NAMED_SPAWN)
    root = project(
        {
            ".claude-plugin/marketplace.json": json.dumps(
                {"name": "m", "plugins": [{"name": "evil", "source": "../evil"}]}, indent=2
            )
        }
    )
    assert codes(root) == [(".claude-plugin/marketplace.json", 6, "SL002")]  # the "source" line


def test_paths_with_spaces_and_non_ascii(project: Make) -> None:
    root = project({"agents/krítik agent.md": MUTE_AGENT, "commands/rev iew ü.md": NAMED_SPAWN})
    assert ("commands/rev iew ü.md", 3, "SL101") in codes(root)


def test_gitignored_files_are_not_read(project: Make) -> None:
    import subprocess

    root = project(
        {".gitignore": "build/\n", "agents/critic.md": MUTE_AGENT, "build/commands/x.md": NAMED_SPAWN}
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert codes(root) == []


def test_agent_referencing_itself(project: Make) -> None:
    body = "---\nname: lead\ndescription: d\ntools: Read, Agent\n---\n" + NAMED_SPAWN.replace(
        "critic", "lead"
    )
    assert codes(project({"agents/lead.md": body})) == [("agents/lead.md", 8, "SL101")]


def test_deeply_nested_markdown_parses() -> None:
    text = "\n".join("  " * i + "- item" for i in range(400)) + "\n" + "(" * 20000 + "\n"
    assert parse_text("c.md", text, FileKind.COMMAND).sites == ()


@settings(max_examples=max(400, settings.default.max_examples))  # cheap examples: more by default
@given(
    st.lists(
        st.sampled_from(
            list("-\n :`{}()[]\"'#|*>_abnmeAgtTsk=,!❌")
            + ["---\n", "Agent(", "Task:", "name", "subagent_type", "prompt", "```", "tools:", "  "]
        ),
        max_size=200,
    ).map("".join)
)
def test_markdown_parser_never_crashes(text: str) -> None:
    for kind in (FileKind.AGENT, FileKind.COMMAND, FileKind.SKILL, FileKind.MARKDOWN):
        parsed = parse_text("x.md", text, kind)
        for site in parsed.sites:
            assert site.line >= 1 and site.column >= 1


@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text: str) -> None:
    parse_text("x.md", text, FileKind.COMMAND)
    parse_text("agents/x.md", "---\n" + text + "\n---\n", FileKind.AGENT)


def _fail_on(monkeypatch: pytest.MonkeyPatch, failing: str, exc: BaseException) -> None:
    import spawnlint.parse.file
    from spawnlint.model import ParsedFile

    real = spawnlint.parse.file.parse_text

    def parse(path: str, text: str, kind: FileKind, *rest: bool) -> ParsedFile:
        if path == failing:
            raise exc
        return real(path, text, kind, *rest)

    monkeypatch.setattr(spawnlint.parse.file, "parse_text", parse)


def test_a_parser_fault_is_sl000_on_that_file_only(project: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on(monkeypatch, "commands/bad.md", ZeroDivisionError("division by zero " + "x" * 500))
    root = project(
        {"agents/critic.md": MUTE_AGENT, "commands/run.md": NAMED_SPAWN, "commands/bad.md": NAMED_SPAWN}
    )
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    assert run.code == 1 and "Traceback" not in run.out + run.err
    found = json.loads(run.out)
    assert [(d["path"], d["code"]) for d in found if d["path"] == "commands/bad.md"] == [
        ("commands/bad.md", "SL000")
    ]
    assert ("commands/run.md", "SL101") in [(d["path"], d["code"]) for d in found]
    (bad,) = [d for d in found if d["code"] == "SL000"]
    assert bad["message"].startswith("internal error while parsing: ZeroDivisionError: division by zero")
    assert len(bad["message"]) < 250  # short: the traceback is for --verbose


def test_verbose_prints_the_traceback_on_stderr(project: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on(monkeypatch, "commands/bad.md", ValueError("boom\n::error::x ##[error]y \x1b[2J"))
    root = project({"commands/bad.md": "x\n"})
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--verbose")
    assert run.code == 1
    assert [d["code"] for d in json.loads(run.out)] == ["SL000"]  # stdout stays valid JSON
    assert "Traceback" in run.err and "ValueError: boom" in run.err and "commands/bad.md" in run.err
    # the exception's text came from the project: it runs no workflow command, clears no screen
    assert not any(line.lstrip().startswith("::") or "##[" in line for line in run.err.splitlines())
    assert "\x1b" not in run.err


def test_a_python_parser_exception_is_sl000_with_its_traceback(
    project: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    import spawnlint.parse.file

    monkeypatch.setattr(spawnlint.parse.file, "_parse_python", _raising_parse)
    root = project({"a.py": 'Agent(subagent_type="critic", name="n", prompt="p")\n'})
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--verbose")
    assert [(d["path"], d["code"]) for d in json.loads(run.out)] == [("a.py", "SL000")]
    assert "LookupError: from the parser" in run.err


def _raising_parse(path: str, text: str, callables: tuple[str, ...]) -> None:
    raise LookupError("from the parser")


def test_plugin_manifest_paths_outside_are_refused(project: Make) -> None:
    manifest = {
        "name": "p",
        "commands": "./commands",
        "agents": ["./agents/a.md", "../../etc/x.md", "/etc/passwd"],
    }
    root = project(
        {".claude-plugin/plugin.json": json.dumps(manifest, indent=2), "agents/critic.md": MUTE_AGENT}
    )
    assert codes(root) == [
        (".claude-plugin/plugin.json", 6, "SL002"),
        (".claude-plugin/plugin.json", 7, "SL002"),
    ]


def test_symlinked_folder_out_of_a_project_without_git(project: Make, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    (outside / "commands").mkdir(parents=True)
    (outside / "commands" / "x.md").write_text(NAMED_SPAWN)
    root = project({"agents/critic.md": MUTE_AGENT})
    (root / "commands").symlink_to(outside / "commands")
    (root / "loop").symlink_to(root / "loop")
    assert codes(root) == [("commands", 1, "SL002"), ("loop", 1, "SL002")]


def test_a_file_of_unclosed_calls_is_refused_quickly(project: Make) -> None:
    """Each unclosed `Agent(` scans ahead for its `)`: thousands of them once took minutes."""
    import time

    root = project(
        {
            "commands/calls.md": "Agent(subagent_type: x name: y " * 20_000 + "\n",
            "commands/objects.md": '{"subagent_type": x, ' * 20_000 + "\n",
            "commands/run.md": NAMED_SPAWN,
            "agents/critic.md": MUTE_AGENT,
        }
    )
    started = time.monotonic()
    found = codes(root)
    assert time.monotonic() - started < 20
    assert ("commands/calls.md", 1, "SL002") in found and ("commands/objects.md", 1, "SL002") in found
    assert ("commands/run.md", 3, "SL101") in found


def test_thousands_of_calls_on_one_line_are_all_read_in_linear_time() -> None:
    import time

    text = 'Agent(subagent_type: "critic", prompt: "p") ' * 10_000 + "\n"
    started = time.monotonic()
    parsed = parse_text("commands/c.md", text, FileKind.COMMAND)
    assert len(parsed.sites) == 10_000
    assert time.monotonic() - started < 40  # ~5 s alone here; quadratic reading took many minutes


def test_unreadable_file_even_as_root(project: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    import spawnlint.parse.file

    def denying_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file).endswith("secret.md"):
            raise PermissionError(13, "Permission denied", str(file))
        return builtins.open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(spawnlint.parse.file, "open", denying_open, raising=False)
    root = project(
        {"commands/secret.md": NAMED_SPAWN, "commands/run.md": NAMED_SPAWN, "agents/critic.md": MUTE_AGENT}
    )
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    found = {(d["path"], d["code"], d["message"]) for d in json.loads(run.out)}
    assert ("commands/secret.md", "SL002", "file cannot be read (Permission denied)") in found
    assert any(path == "commands/run.md" and code == "SL101" for path, code, _ in found)


def test_yaml_alias_bombs_are_bounded() -> None:
    import time

    from spawnlint.parse.frontmatter import split_frontmatter
    from spawnlint.source_lines import split_lines

    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    levels += [
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]" for i in range(1, 12)
    ]
    bomb = "---\nname: bomb\n" + "\n".join(levels) + "\ntools: *l\ndisallowedTools: *l\n---\nBody\n"
    recursive = "---\nname: &n [*n]\ntools: &t [*t, *t]\n---\nBody\n"
    for text in (bomb, recursive):
        started = time.monotonic()
        parsed = parse_text("agents/bomb.md", text, FileKind.AGENT)
        frontmatter, _ = split_frontmatter(split_lines(text))
        assert frontmatter is not None and time.monotonic() - started < 2
        assert all(p.code == "SL001" for p in parsed.problems)
    assert [p.finding.line for p in parse_text("agents/bomb.md", bomb, FileKind.AGENT).problems] == [15, 16]


@pytest.mark.parametrize(
    "text",
    [
        'Agent(subagent_type: "critic", prompt: "p") ' * 20_000,  # nouns and calls on one line
        "spawn " * 100_000,  # strong verbs with no object
        "name: x Agent " * 50_000,  # bare names by a tool, one paragraph
        "use the team " * 50_000,
        "- prompt " * 100_000,  # parameter keys on one line
        "Task foo bar:\n" * 20_000,  # header candidates
        "spawn\n\n" * 100_000,  # many paragraphs
    ],
    ids=["calls", "strong-verbs", "bare-names", "teams", "keys", "headers", "paragraphs"],
)
def test_the_body_test_is_linear_on_one_huge_paragraph(text: str) -> None:
    import time

    from spawnlint.parse.forms.registry import PASSES, could_yield

    started = time.monotonic()
    could_yield(text)
    for step in PASSES:  # each trigger on its own
        step.trigger.fires(text)
    # ~0.1-3.5 s each alone (more on a loaded machine); a search per occurrence took minutes
    assert time.monotonic() - started < 30
