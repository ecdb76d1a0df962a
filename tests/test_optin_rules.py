"""SL104 result-contract and SL105 idle-is-not-done: opt-in rules, off unless named by code."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, write_project
from spawnlint.config import ResultContract
from spawnlint.parse.idle import idle_claims
from spawnlint.rules.contracts import asks_for_structure, names_a_failure_slot

PLUGIN = '{"name": "shop"}\n'
AGENT = "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\n\nReview the change.\n"
RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
    "`in_process_teammate`, whose final answer never returns to this command.\n"
)


def _project(tmp_path: Path, command: str, config: str = 'extend-select = ["SL104", "SL105"]\n') -> Path:
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": PLUGIN,
        "agents/critic.md": AGENT,
        "commands/review.md": command,
    }
    if config:
        files[".spawnlint.toml"] = config
    return write_project(tmp_path, files)


def _spawn(prompt: str) -> str:
    return f'# Review\n\n{RULE}\n```\nAgent(subagent_type: "shop:critic", prompt: "{prompt}")\n```\n'


# --- SL104: the prompt's contract -------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        'Return JSON: {\\"files\\": [...], \\"summary\\": \\"...\\", \\"blockers\\": [...]}',
        "Reply with a YAML block with keys files, summary and blockers.",
        "Report back in this format: Summary: one line; Findings: a list; Blockers: what stopped you",
    ],
)
def test_structured_prompt_with_a_failure_slot_is_clean(tmp_path: Path, prompt: str) -> None:
    run = run_cli("check", "--root", str(_project(tmp_path, _spawn(prompt))))
    assert [line for line in run.lines if "SL104" in line] == []


def test_prose_prompt_is_flagged_at_the_prompt(tmp_path: Path) -> None:
    root = _project(tmp_path, _spawn("Review the change and tell me what you think."))
    run = run_cli("check", "--root", str(root), "--select", "SL104")
    assert len(run.lines) == 1
    assert run.lines[0].startswith("commands/review.md:7:")
    assert "asks for no structured result" in run.lines[0]
    assert "blockers" in run.lines[0]


def test_structure_without_a_failure_slot_is_flagged(tmp_path: Path) -> None:
    root = _project(tmp_path, _spawn('Return JSON: {\\"files\\": [...], \\"summary\\": \\"...\\"}'))
    run = run_cli("check", "--root", str(root), "--select", "SL104")
    assert len(run.lines) == 1
    assert "without a slot for what went wrong" in run.lines[0]


@pytest.mark.parametrize("prompt", ["...", "<PROMPT>", "{prompt}", "[the task text from step 2]"])
def test_a_prompt_that_is_only_a_placeholder_is_not_judged(tmp_path: Path, prompt: str) -> None:
    run = run_cli("check", "--root", str(_project(tmp_path, _spawn(prompt))), "--select", "SL104")
    assert run.lines == []


@pytest.mark.parametrize(
    "prompt",
    [
        "Review it.\\n\\n{structured_delegation_template}",
        "Emit one object of this schema: <paste the LEDGER schema verbatim>",
        "Read references/guide.md. You are advisor A.",
        "Include the hypothesis, the scope and the relevant context",
        "The same reviewer prompt as in Path B plus the shared task list",
        "Find every usage of the old API...",
    ],
)
def test_a_prompt_given_elsewhere_is_not_judged(tmp_path: Path, prompt: str) -> None:
    run = run_cli("check", "--root", str(_project(tmp_path, _spawn(prompt))), "--select", "SL104")
    assert run.lines == []


def test_off_by_default(tmp_path: Path) -> None:
    root = _project(tmp_path, _spawn("Review the change and tell me what you think."), config="")
    assert [line for line in run_cli("check", "--root", str(root)).lines if "SL104" in line] == []
    # a prefix selects the stable rules only; an opt-in rule is named by its code
    assert run_cli("check", "--root", str(root), "--select", "SL1").lines == []
    assert len(run_cli("check", "--root", str(root), "--extend-select", "SL104").lines) == 1


def test_failure_field_names_are_configurable(tmp_path: Path) -> None:
    config = 'extend-select = ["SL104"]\n[result-contract]\nfailure-fields = ["caveats"]\n'
    prompt = "Return JSON with keys summary and caveats."
    run = run_cli("check", "--root", str(_project(tmp_path, _spawn(prompt), config)))
    assert run.lines == []
    prompt = "Return JSON with keys summary and blockers."
    run = run_cli("check", "--root", str(_project(tmp_path / "b", _spawn(prompt), config)))
    assert len(run.lines) == 1 and "caveats" in run.lines[0]


@pytest.mark.parametrize(
    ("text", "structured"),
    [
        ("Return a JSON object with `files` and `summary`.", True),
        ("Output format:\n- Summary\n- Findings", True),
        ("## Expected outcome\n\nfiles, summary", True),
        ("| field | meaning |\n|---|---|\n| files | changed |", True),
        ("Review the code and report what you find.", False),
        ("Be thorough.", False),
        ("Return a summary of all changes made.", False),
        ("Report back: what was done, results, any blockers.", True),
        ("Produce:\n1. FAULTS\n2. VERDICT", True),
        ("Generate a readiness report with:\n  Complexity scores\n  Coupling analysis", True),
        ("Profile it.\n\n1. Flame graphs\n2. Baselines\n\nWrite your complete report as one document.", True),
        ("Implement it with TDD:\n1. Write the test first\n2. Make it pass\n3. Refactor", False),
        ("Launch training.\nBrief: {phase1.output}\nDataset: {phase2.output}", False),
    ],
)
def test_asks_for_structure(text: str, structured: bool) -> None:
    assert asks_for_structure(text) is structured


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("blockers: []", True),
        ("list any errors you hit", True),
        ("what failed, if anything", True),
        ("Unresolved questions: ...", True),
        ("Report back: what was done, output observed, any issues.", True),
        ("files, summary", False),
        ("error handling in the module", False),
    ],
)
def test_names_a_failure_slot(text: str, slot: bool) -> None:
    assert names_a_failure_slot(text, ResultContract().failure_fields) is slot


# --- SL105: idle is not done ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "When a teammate goes idle, its work is done.",
        "Collect results once all teammates are idle.",
        "Treat the idle notification as the teammate's result.",
        "An idle teammate has finished: move on to synthesis.",
        "After every reviewer has gone idle, merge their findings into the report.",
        "When a teammate's turn ends, take that as its final answer.",
    ],
)
def test_idle_as_done_is_found(text: str) -> None:
    claims = idle_claims(["# Team", "", text], 0)
    assert len(claims) == 1
    assert claims[0][0] == 3


@pytest.mark.parametrize(
    "text",
    [
        "Idle is not a result; wait for its SendMessage.",
        "Do not treat an idle notification as completion.",
        "A teammate goes idle after every turn; that does not mean it is done.",
        "When a teammate goes idle, send it the next task.",
        "Once every teammate has reported with SendMessage and gone idle, synthesise the results.",
        "Remove idle resources to cut costs.",
        "Wait for network idle before taking the screenshot.",
        "If it is idle, it may have completed its task; check its task status.",
        "state = 'idle' means the request finished",
    ],
)
def test_correct_advice_and_other_idles_stay_silent(text: str) -> None:
    assert idle_claims(["# Team", "", text], 0) == ()


def test_idle_rule_reports_in_units_and_agent_bodies_only(tmp_path: Path) -> None:
    command = f"# Team\n\n{RULE}\nCreate a team of reviewers. Collect results once all teammates are idle.\n"
    root = _project(tmp_path, command)
    write_project(root, {"docs/notes.md": "# Notes\n\nCollect results once all teammates are idle.\n"})
    run = run_cli("check", "--root", str(root), "--select", "SL105")
    assert len(run.lines) == 1
    assert run.lines[0].startswith("commands/review.md:6:")
    assert "SendMessage" in run.lines[0]


def test_idle_rule_off_by_default(tmp_path: Path) -> None:
    command = f"# Team\n\n{RULE}\nCollect results once all teammates are idle.\n"
    root = _project(tmp_path, command, config="")
    assert [line for line in run_cli("check", "--root", str(root)).lines if "SL105" in line] == []
    assert len(run_cli("check", "--root", str(root), "--extend-select", "SL105").lines) == 2  # and SL202


def test_an_unselected_opt_in_rule_does_not_run(tmp_path: Path) -> None:
    """It neither reports nor uses up a suppression (so SL900 still sees the comment as unused)."""
    command = "<!-- spawnlint: ignore-file -->\n" + _spawn("Review the change and tell me what you think.")
    root = _project(tmp_path, command, config="")
    assert [line.split(" ")[1] for line in run_cli("check", "--root", str(root)).lines] == ["SL900"]
    # selected, it runs: its finding is silenced by the comment, which is then used (no SL900)
    assert run_cli("check", "--root", str(root), "--extend-select", "SL104").lines == []
    unsuppressed = command.replace("<!-- spawnlint: ignore-file -->\n", "")
    write_project(root, {"commands/review.md": unsuppressed})
    assert [
        line.split(" ")[1] for line in run_cli("check", "--root", str(root), "--extend-select", "SL104").lines
    ] == ["SL104"]
