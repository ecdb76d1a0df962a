"""The project's own promises: every rule has a module, a page and a README row; codes are
unique; the README's set-up commands are the ones CI runs; the demo shows real findings."""

from __future__ import annotations

import re

from conftest import REPO, run_cli
from spawnlint.rules import RULES

README = (REPO / "README.md").read_text("utf-8")


def test_codes_are_unique_and_in_order() -> None:
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    assert len({r.name for r in RULES}) == len(RULES)


def test_every_rule_has_a_module_page_and_readme_row() -> None:
    for rule in RULES:
        assert rule.check.__module__.startswith("spawnlint.rules."), rule.code
        assert (REPO / "rules" / f"{rule.code}-{rule.name}.md").is_file(), rule.code
        row = re.search(rf"^\| {rule.code} \| {rule.name} \| {rule.severity.value} \|", README, re.MULTILINE)
        assert row, f"README rule table lacks {rule.code}"


def test_no_stray_rule_pages() -> None:
    expected = {f"{r.code}-{r.name}.md" for r in RULES}
    assert {p.name for p in (REPO / "rules").glob("*.md")} == expected


def test_readme_setup_commands_and_ci_agree() -> None:
    commands = re.findall(r"^    (python3 -m venv .*)$", README, re.MULTILINE)
    assert len(commands) == 2
    demo, tests = commands
    assert "spawnlint check --root examples/demo-plugin" in demo
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    test_command = tests.split("&& ")[-1].replace(".venv/bin/python", "")
    assert test_command.strip() in ci.replace(".venv/bin/python", "")
    assert "pip install --quiet -e '.[test]'" in ci


def test_demo_plugin_shows_real_findings() -> None:
    run = run_cli("check", "--root", str(REPO / "examples" / "demo-plugin"), "--exit-zero")
    expected = (REPO / "tests" / "demo" / "expected.txt").read_text("utf-8").splitlines()
    assert run.code == 0
    assert run.out.splitlines() == expected


def test_every_lazily_compiled_pattern_compiles() -> None:
    """Patterns are compiled at their first search (spawnlint.lazy): one with a mistake would
    raise only in the run that first needs it, so every one is compiled here."""
    import spawnlint.cli  # noqa: F401 - imports every module that makes patterns
    import spawnlint.parse.forms.registry  # noqa: F401
    from spawnlint import lazy

    assert lazy.compile_all() > 200
