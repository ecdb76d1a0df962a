"""What a user coming from ruff and pre-commit expects of the command line, each through main():
precedence of the command line over the configuration, PATHS that are never dropped in silence,
and ruff's conventions (-V, -o, --show-files, --exit-non-zero-on-fix, the fixable hint, rule --all,
baseline feedback, JSON and JUnit fields)."""

from __future__ import annotations

import io
import json
import os
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from conftest import run_cli
from spawnlint import __version__
from spawnlint.cli import main
from test_cli import PLUGIN

Make = Callable[[dict[str, str | bytes]], Path]

UNKNOWN = dict(PLUGIN)
UNKNOWN["commands/review.md"] = PLUGIN["commands/review.md"].replace("shop:critic", "shop:critc")  # SL301


@pytest.fixture
def inside(project: Make) -> Iterator[Callable[[dict[str, str | bytes]], Path]]:
    """A project made the current directory, as pre-commit and CI run spawnlint."""
    cwd = os.getcwd()

    def make(files: dict[str, str | bytes]) -> Path:
        root = project(files)
        os.chdir(root)
        return root

    yield make
    os.chdir(cwd)


def _codes(run_out: str) -> list[str]:
    return [line.split()[1] for line in run_out.splitlines() if line and line[0] != "[" and ": SL" in line]


# Command line over configuration


def test_select_on_the_command_line_replaces_the_configured_ignore(project: Make) -> None:
    root = project({**PLUGIN, ".spawnlint.toml": 'ignore = ["SL101"]\n'})
    assert _codes(run_cli("check", "--root", str(root)).out) == []
    assert _codes(run_cli("check", "--root", str(root), "--select", "SL101").out) == ["SL101"]


def test_extend_select_adds_to_the_configured_select(project: Make) -> None:
    root = project({**UNKNOWN, ".spawnlint.toml": 'select = ["SL2"]\nignore = ["SL301"]\n'})
    assert _codes(run_cli("check", "--root", str(root)).out) == []
    assert _codes(run_cli("check", "--root", str(root), "--extend-select", "SL301").out) == ["SL301"]


def test_ignore_on_the_command_line_wins_over_the_configured_select(project: Make) -> None:
    root = project({**PLUGIN, ".spawnlint.toml": 'select = ["SL101"]\n'})
    assert _codes(run_cli("check", "--root", str(root)).out) == ["SL101"]
    run = run_cli("check", "--root", str(root), "--ignore", "SL1")
    assert _codes(run.out) == [] and run.code == 0


def test_within_one_layer_the_longest_prefix_still_wins(project: Make) -> None:
    root = project(PLUGIN)
    assert _codes(run_cli("check", "--root", str(root), "--select", "SL1", "--ignore", "SL10").out) == []
    assert _codes(run_cli("check", "--root", str(root), "--select", "SL101", "--ignore", "SL1").out) == [
        "SL101"
    ]


# PATHS


def test_a_path_that_does_not_exist_is_an_error(inside: Make) -> None:
    inside(PLUGIN)
    run = run_cli("check", "commands/reveiw.md")
    assert run.code == 2 and run.out == ""
    assert "commands/reveiw.md: no such file or directory" in run.err


def test_a_path_outside_the_project_is_said(inside: Make, tmp_path: Path) -> None:
    root = inside(PLUGIN)
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("# x\n")
    run = run_cli("check", "--root", str(root), str(elsewhere))
    assert run.code == 0 and "outside the project" in run.err and str(elsewhere) in run.err
    both = run_cli("check", "--root", str(root), str(elsewhere), "agents/critic.md")
    assert both.code == 1 and _codes(both.out) == ["SL101"] and "outside the project" in both.err


def test_a_path_the_configuration_excludes_is_said(inside: Make) -> None:
    inside({**PLUGIN, "archive/old.md": "# old\n", ".spawnlint.toml": 'exclude = ["archive/**"]\n'})
    run = run_cli("check", "archive/old.md")
    assert run.code == 0
    assert 'archive/old.md: excluded by the configuration ("archive/**"); not checked' in run.err


# Conventions


@pytest.mark.parametrize("verb", ["check", "audit", "transcripts", "guard", "rule"])
@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_on_every_verb(verb: str, flag: str) -> None:
    run = run_cli(verb, flag)
    assert run.code == 0 and run.out == f"spawnlint {__version__}\n"


def test_output_file_holds_the_report_and_stdout_stays_empty(project: Make, tmp_path: Path) -> None:
    root = project(PLUGIN)
    target = tmp_path / "report.json"
    run = run_cli("check", "--root", str(root), "--output-format", "json", "-o", str(target))
    assert run.code == 1 and run.out == ""
    assert [f["code"] for f in json.loads(target.read_text())] == ["SL101"]
    run = run_cli("check", "--root", str(root), "--output-file", str(tmp_path / "no" / "such" / "dir" / "x"))
    assert run.code == 2 and "--output-file" in run.err


def test_show_files_lists_what_is_read(project: Make) -> None:
    root = project({**PLUGIN, "notes.txt": "not read\n"})
    run = run_cli("check", "--root", str(root), "--show-files")
    assert run.code == 0
    assert run.out.splitlines() == ["agents/critic.md", "commands/review.md"]


def test_exit_non_zero_on_fix(project: Make) -> None:
    files = dict(PLUGIN)
    files["agents/critic.md"] = files["agents/critic.md"].replace("Read, Grep", "Read, Grep, SendMessage")
    files["commands/review.md"] = files["commands/review.md"].replace(
        PLUGIN["commands/review.md"][:9], "# Review\n\n"
    )
    plain = project(dict(PLUGIN))
    assert run_cli("check", "--root", str(plain), "--fix").code == 0  # fixed, nothing left
    again = project(dict(PLUGIN))
    assert run_cli("check", "--root", str(again), "--fix", "--exit-non-zero-on-fix").code == 1
    assert (
        run_cli("check", "--root", str(again), "--fix", "--exit-non-zero-on-fix").code == 0
    )  # nothing to fix


def test_fixable_hint_after_the_summary(project: Make) -> None:
    run = run_cli("check", "--root", str(project(PLUGIN)))
    assert run.out.splitlines()[-1] == "[*] 1 fixable with `--fix`."
    assert "[*]" not in run_cli("check", "--root", str(project(UNKNOWN))).out  # SL301 has no fix
    assert "[*]" not in run_cli("check", "--root", str(project(PLUGIN)), "-q").out


def test_rule_all_prints_every_page() -> None:
    from spawnlint.rules import RULES

    run = run_cli("rule", "--all")
    assert run.code == 0
    for rule in RULES:
        assert f"{rule.code}" in run.out
    assert run.out.count("## What it does") >= len(RULES) - 1


def test_baseline_says_how_many_it_hid_and_which_entries_are_stale(project: Make, tmp_path: Path) -> None:
    root = project(PLUGIN)
    baseline = tmp_path / "baseline.json"
    assert run_cli("check", "--root", str(root), "--write-baseline", str(baseline)).code == 0
    run = run_cli("check", "--root", str(root), "--baseline", str(baseline))
    assert (
        run.code == 0 and f"the baseline {baseline} hid 1 finding" in run.err and "hid nothing" not in run.err
    )
    (root / "commands/review.md").write_text(PLUGIN["commands/review.md"].replace('name: "critic-1", ', ""))
    run = run_cli("check", "--root", str(root), "--baseline", str(baseline))
    assert "hid 0 findings" in run.err
    assert "1 baseline entry hid nothing" in run.err and "commands/review.md (SL101)" in run.err
    assert "--write-baseline" in run.err


def test_json_findings_carry_fix_link_and_end(project: Make) -> None:
    run = run_cli("check", "--root", str(project(PLUGIN)), "--output-format", "json")
    (finding,) = json.loads(run.out)
    assert finding["url"].endswith("/rules/SL101-named-spawn-mute-agent.md")
    assert (finding["end_line"], finding["end_column"]) >= (finding["line"], finding["column"] + 1)
    fix = finding["fix"]
    assert fix["applicability"] == "safe" and fix["edits"]
    edit = fix["edits"][0]
    assert set(edit) == {"path", "line", "column", "end_line", "end_column", "content"}
    assert edit["path"] == "commands/review.md"


def test_json_finding_without_fix_says_null(project: Make) -> None:
    (finding,) = json.loads(run_cli("check", "--root", str(project(UNKNOWN)), "--output-format", "json").out)
    assert finding["code"] == "SL301" and finding["fix"] is None


def test_junit_cases_carry_their_line(project: Make) -> None:
    run = run_cli("check", "--root", str(project(PLUGIN)), "--output-format", "junit")
    cases = [c for c in ET.fromstring(run.out).iter("testcase") if c.get("file")]
    assert [(c.get("file"), c.get("line")) for c in cases] == [("commands/review.md", "7")]


def test_audit_json_has_format_and_version(project: Make) -> None:
    data = json.loads(run_cli("audit", str(project(PLUGIN)), "--output-format", "json").out)
    assert data["format"] == "spawnlint-audit/1" and data["spawnlint_version"] == __version__


# Progress on long runs


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> _Terminal:
    """Standard error is a terminal, and the progress line shows at once (no timing in tests)."""
    from spawnlint.report import progress

    for name in ("PRE_COMMIT", "CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(progress, "_DELAY", 0.0)
    return _Terminal()  # each test makes it sys.stderr: pytest's capture resets it after setup


def _main(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


@pytest.mark.parametrize("verb", ["check", "audit"])
def test_progress_on_a_terminal_goes_to_stderr_and_is_erased(
    project: Make, terminal: _Terminal, monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    root = project(PLUGIN)
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out = _main(verb, "--root", str(root))
    assert "spawnlint: " in terminal.getvalue() and terminal.getvalue().endswith("\r\x1b[K")
    assert "\r" not in out and "\x1b" not in out  # the report itself is untouched


@pytest.mark.parametrize("variable", ["PRE_COMMIT", "CI", "GITHUB_ACTIONS"])
def test_no_progress_under_pre_commit_or_ci(
    project: Make, terminal: _Terminal, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "1" if variable == "PRE_COMMIT" else "true")
    monkeypatch.setattr(sys, "stderr", terminal)
    _main("check", "--root", str(project(PLUGIN)))
    _main("audit", "--root", str(project(PLUGIN)))
    assert terminal.getvalue() == ""


def test_no_progress_when_stderr_is_not_a_terminal(project: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    from spawnlint.report import progress

    monkeypatch.setattr(progress, "_DELAY", 0.0)
    run = run_cli("check", "--root", str(project(PLUGIN)))
    assert "\r" not in run.err and "\x1b" not in run.err


def test_opt_in_rules_stay_off_unless_named_on_either_layer() -> None:
    from spawnlint.rules import CODES
    from spawnlint.suppress import layered_selection

    def enabled(*layers: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]) -> set[str]:
        return set(layered_selection(layers, CODES, {"SL104"}))

    assert "SL104" not in enabled(((), (), ()), ((), (), ()))
    assert "SL104" not in enabled((("SL1",), (), ()), ((), (), ()))  # a prefix does not opt in
    assert "SL104" in enabled(((), ("SL104",), ()), ((), (), ()))  # the configuration opts in
    assert "SL104" in enabled(((), (), ()), (("SL104",), (), ()))  # the command line does
    assert "SL104" not in enabled(((), ("SL104",), ()), ((), (), ("SL104",)))  # and its --ignore wins
    assert enabled(((), ("SL104",), ()), (("SL101",), (), ())) == {"SL101"}  # --select replaces
