"""`spawnlint guard`, the PreToolUse hook: named spawns that would be mute are denied with a reason
for the model; everything else, bad input and our own errors included, passes with exit 0."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, run_cli, write_project
from spawnlint import cache_folder
from spawnlint.discover import Plugin, discover
from spawnlint.guard import hook as guard
from spawnlint.guard import targets as guard_targets
from spawnlint.model import FileKind
from spawnlint.parse import decode, parse_agent_definition, parse_text
from spawnlint.parse.forms.rule_sentence import is_rule_sentence

MUTE = "---\nname: critic\ndescription: Reviews plans.\ntools: Read, Grep\n---\nReview the plan.\n"
UNTOLD = "---\nname: helper\ndescription: Helps.\n---\nHelp with the task.\n"
TOLD = "---\nname: reporter\ndescription: Reports.\n---\nWhen done, send your result to team-lead with SendMessage.\n"
SHOP = {
    ".claude-plugin/plugin.json": '{"name": "shop"}\n',
    "agents/critic.md": MUTE,
    "agents/helper.md": UNTOLD,
    "agents/reporter.md": TOLD,
    "commands/review.md": "# Review\n\nRead the plan.\n",
}


class Hook:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def reason(self) -> str:
        decision = json.loads(self.out)["hookSpecificOutput"]
        assert decision["hookEventName"] == "PreToolUse" and decision["permissionDecision"] == "deny"
        return str(decision["permissionDecisionReason"])


def run_guard(payload: Any) -> Hook:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    out, err = io.StringIO(), io.StringIO()
    code = guard.run_hook(io.BytesIO(raw), out, err)
    return Hook(code, out.getvalue(), err.getvalue())


def spawn(cwd: Path, tool: str = "Agent", **tool_input: Any) -> dict[str, Any]:
    return {
        "session_id": "abc",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"description": "Review", "prompt": "Review the plan.", **tool_input},
        "tool_use_id": "toolu_1",
    }


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tests never read the real ~/.claude."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return folder


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = write_project(tmp_path / "shop", SHOP)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def assert_allowed_silently(hook: Hook) -> None:
    assert (hook.code, hook.out, hook.err) == (0, "", "")


def assert_allowed_with_note(hook: Hook, *words: str) -> None:
    assert hook.code == 0 and hook.out == ""
    assert hook.err.startswith("spawnlint guard: ") and hook.err.count("\n") == 1
    for word in words:
        assert word in hook.err


# --- denied ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_named_spawn_of_mute_agent_is_denied(shop: Path, tool: str) -> None:
    hook = run_guard(spawn(shop, tool, subagent_type="shop:critic", name="critic-1"))
    assert hook.code == 0 and hook.err == ""
    reason = hook.reason
    assert '`name: "critic-1"`' in reason and '"shop:critic"' in reason
    assert "in_process_teammate" in reason and "its tools (Read, Grep) lack SendMessage" in reason
    assert "answer would be" in reason and "lost" in reason  # what would be lost
    assert f"1. Call {tool} again" in reason and "WITHOUT the `name` parameter" in reason
    assert "2. Only if you really need a named teammate" in reason and "SendMessage tool" in reason
    assert "team-lead" in reason


def test_bare_name_and_file_stem_reach_the_agent(shop: Path) -> None:
    (shop / "agents" / "critic.md").rename(shop / "agents" / "plan-critic.md")
    for target in ("critic", "CRITIC", "plan-critic", "shop:plan-critic"):
        hook = run_guard(spawn(shop, subagent_type=target, name="c"))
        assert '"shop:critic"' in hook.reason, target


def test_disallowed_send_message_is_named_in_the_reason(shop: Path) -> None:
    (shop / "agents" / "critic.md").write_text(
        "---\nname: critic\ndescription: d\ndisallowedTools: SendMessage\n---\nReview.\n"
    )
    reason = run_guard(spawn(shop, subagent_type="shop:critic", name="c")).reason
    assert "disallowedTools remove SendMessage" in reason


def test_named_spawn_nothing_tells_to_report_is_denied_with_its_own_reason(shop: Path) -> None:
    reason = run_guard(spawn(shop, subagent_type="shop:helper", name="h1")).reason
    assert '`name: "h1"`' in reason and '"shop:helper"' in reason
    assert "neither your prompt nor the agent's definition tells it to use SendMessage" in reason
    assert "WITHOUT the `name` parameter" in reason and "keep `name` and add to the prompt" in reason
    assert "team-lead" in reason


def test_named_general_purpose_without_report_instruction_is_denied(shop: Path) -> None:
    reason = run_guard(spawn(shop, subagent_type="general-purpose", name="gp")).reason
    assert '"general-purpose"' in reason and "neither your prompt" in reason


def test_named_spawn_of_a_mute_builtin_is_denied(shop: Path) -> None:
    reason = run_guard(spawn(shop, subagent_type="statusline-setup", name="s")).reason
    assert '"statusline-setup"' in reason and "its tools (Read, Edit) lack SendMessage" in reason


def test_missing_subagent_type_means_general_purpose(shop: Path) -> None:
    reason = run_guard(spawn(shop, name="gp")).reason
    assert '"general-purpose"' in reason


# --- allowed: the two respawns the reason suggests, and reporting teammates ------------------


def test_the_respawns_the_reason_suggests_pass(shop: Path) -> None:
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:critic")))
    told = "Review the plan. " + guard._REPORT_LINE.strip('"')
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="general-purpose", name="c", prompt=told)))
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:helper", name="h", prompt=told)))


def test_agent_whose_body_says_to_report_passes(shop: Path) -> None:
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:reporter", name="r")))


def test_negated_send_message_in_prompt_is_no_instruction(shop: Path) -> None:
    prompt = "Do not use SendMessage; just answer."
    reason = run_guard(spawn(shop, subagent_type="shop:helper", name="h", prompt=prompt)).reason
    assert "neither your prompt" in reason


@pytest.mark.parametrize("name", [None, "", "   "])
def test_unnamed_spawn_passes_silently(shop: Path, name: str | None) -> None:
    payload = spawn(shop, subagent_type="shop:critic")
    if name is not None:
        payload["tool_input"]["name"] = name
    assert_allowed_silently(run_guard(payload))


def test_other_tools_pass_silently(shop: Path) -> None:
    for tool in ("Bash", "SendMessage", "TaskCreate", "agent"):
        assert_allowed_silently(run_guard(spawn(shop, tool, subagent_type="shop:critic", name="c")))


def test_project_can_switch_rules_off_for_the_guard(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint]\nignore = ["SL102"]\n')
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:helper", name="h")))
    assert "Read, Grep" in run_guard(spawn(shop, subagent_type="shop:critic", name="c")).reason
    (shop / "pyproject.toml").write_text('[tool.spawnlint]\nselect = ["SL102"]\n')
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:critic", name="c")))


# --- fail open --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"", ("not JSON",)),
        (b"{not json", ("not JSON",)),
        (b"\xff\xfe{}", ("not JSON",)),
        (b"[1, 2]", ("not a JSON object",)),
        (b'"Agent"', ("not a JSON object",)),
        (b"null", ("not a JSON object",)),
        (b"[" * 100_000, ("not JSON",)),
    ],
)
def test_malformed_input_passes_with_a_note(raw: bytes, words: tuple[str, ...]) -> None:
    assert_allowed_with_note(run_guard(raw), *words)


def test_other_hook_events_pass_with_a_note(shop: Path) -> None:
    payload = spawn(shop, subagent_type="shop:critic", name="c")
    payload["hook_event_name"] = "PostToolUse"
    assert_allowed_with_note(run_guard(payload), "'PostToolUse', not PreToolUse")
    del payload["hook_event_name"]  # older payloads may lack it: the hook is wired to PreToolUse
    assert '"shop:critic"' in run_guard(payload).reason


def test_tool_input_that_is_not_an_object_passes_with_a_note(shop: Path) -> None:
    payload = spawn(shop)
    payload["tool_input"] = "name=c"
    assert_allowed_with_note(run_guard(payload), "tool_input")


@pytest.mark.parametrize("cwd", [None, "", 42, "/no/such/folder/anywhere"])
def test_unusable_cwd_passes_with_a_note(cwd: Any) -> None:
    payload = spawn(Path("/"), subagent_type="general-purpose", name="c")
    if cwd is None:
        del payload["cwd"]
    else:
        payload["cwd"] = cwd
    assert_allowed_with_note(run_guard(payload), "cwd")


def test_unknown_agent_passes_with_a_note(shop: Path) -> None:
    assert_allowed_with_note(
        run_guard(spawn(shop, subagent_type="shop:nobody", name="c")), '"shop:nobody"', "call allowed"
    )


@pytest.mark.parametrize("target", ["{area}-reviewer", "<agent-name>"])
def test_placeholder_target_passes_with_a_note(shop: Path, target: str) -> None:
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type=target, name="c")), "placeholder")


def test_configured_external_agent_passes_with_a_note(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint.agents]\n"other:*" = true\n')
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="other:critic", name="c")), "external agent")


def test_configured_external_agent_with_tools_is_judged_by_them(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint.agents]\n"other:critic" = ["Read", "Grep"]\n')
    result = run_guard(spawn(shop, subagent_type="other:critic", name="c"))
    assert result.code == 0 and "`name`" in result.reason and "Read, Grep" in result.reason


def test_non_string_subagent_type_passes_with_a_note(shop: Path) -> None:
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type=["shop:critic"], name="c")), "subagent_type")


def test_unusable_configuration_passes_with_a_note(shop: Path) -> None:
    (shop / "pyproject.toml").write_text("[tool.spawnlint]\nnot-a-key = 1\n")
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="shop:critic", name="c")), "not-a-key")


def test_internal_error_passes_with_a_note(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(guard_targets, "build_project", broken)
    assert_allowed_with_note(
        run_guard(spawn(shop, subagent_type="shop:critic", name="c")), "internal error RuntimeError: boom"
    )


def test_unreadable_agent_file_defines_no_agent(shop: Path) -> None:
    (shop / "agents" / "critic.md").write_bytes(b"---\nname: critic\ntools: Read\n---\n\xff\xfe\n")
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="shop:critic", name="c")), "shop:critic")


# --- where agents come from -------------------------------------------------------------------


def test_cwd_below_the_root_finds_the_project(shop: Path) -> None:
    (shop / "commands" / "deep").mkdir()
    reason = run_guard(spawn(shop / "commands" / "deep", subagent_type="shop:critic", name="c")).reason
    assert '"shop:critic"' in reason


def test_excluded_agents_are_not_read(shop: Path) -> None:
    (shop / "pyproject.toml").write_text('[tool.spawnlint]\nexclude = ["agents"]\n')
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="shop:critic", name="c")), "shop:critic")


def test_gitignored_dot_claude_agents_still_count(shop: Path) -> None:
    write_project(
        shop, {".gitignore": ".claude/\n", ".claude/agents/scout.md": MUTE.replace("critic", "scout")}
    )
    assert '"scout"' in run_guard(spawn(shop, subagent_type="scout", name="s")).reason


def test_outside_git_only_dot_claude_and_the_root_plugin_are_read(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "plain",
        {
            ".claude/agents/scout.md": MUTE.replace("critic", "scout"),
            "agents/critic.md": MUTE,
            "deep/nested/agents/far.md": MUTE.replace("critic", "far"),
        },
    )
    assert '"scout"' in run_guard(spawn(root, subagent_type="scout", name="s")).reason
    assert_allowed_with_note(run_guard(spawn(root, subagent_type="far", name="f")), '"far"')
    assert_allowed_with_note(run_guard(spawn(root, subagent_type="critic", name="c")), '"critic"')
    (root / ".claude-plugin").mkdir()
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "plain"}')
    assert '"plain:critic"' in run_guard(spawn(root, subagent_type="plain:critic", name="c")).reason


def test_user_agents_are_read_from_home(shop: Path, home: Path) -> None:
    write_project(home, {".claude/agents/mine.md": MUTE.replace("critic", "mine")})
    assert '"mine"' in run_guard(spawn(shop, subagent_type="mine", name="m")).reason


def test_project_agent_overrides_user_agent_of_the_same_name(shop: Path, home: Path) -> None:
    write_project(home, {".claude/agents/scout.md": TOLD.replace("reporter", "scout")})
    write_project(shop, {".claude/agents/scout.md": MUTE.replace("critic", "scout")})
    assert '"scout"' in run_guard(spawn(shop, subagent_type="scout", name="s")).reason  # not ambiguous


def test_claude_config_dir_moves_user_agents(
    shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write_project(tmp_path / "config", {"agents/mine.md": MUTE.replace("critic", "mine")})
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert '"mine"' in run_guard(spawn(shop, subagent_type="mine", name="m")).reason


@pytest.mark.parametrize("version", [1, 2])
def test_installed_plugin_agents_are_read(shop: Path, home: Path, tmp_path: Path, version: int) -> None:
    install = write_project(
        tmp_path / "cache" / "feature-dev" / "1.0.0",
        {
            ".claude-plugin/plugin.json": '{"name": "feature-dev"}',
            "agents/code-reviewer.md": MUTE.replace("critic", "code-reviewer"),
        },
    )
    entry: dict[str, Any] = {"scope": "user", "installPath": str(install), "version": "1.0.0"}
    plugins = {"feature-dev@official": [entry] if version == 2 else entry}
    write_project(
        home, {".claude/plugins/installed_plugins.json": json.dumps({"version": version, "plugins": plugins})}
    )
    reason = run_guard(spawn(shop, subagent_type="feature-dev:code-reviewer", name="r")).reason
    assert '"feature-dev:code-reviewer"' in reason


def test_project_scoped_plugin_of_another_project_is_not_read(shop: Path, home: Path, tmp_path: Path) -> None:
    install = write_project(tmp_path / "cache" / "x", {"agents/far.md": MUTE.replace("critic", "far")})
    entry = {"scope": "project", "projectPath": str(tmp_path / "elsewhere"), "installPath": str(install)}
    registry = json.dumps({"version": 2, "plugins": {"x@m": [entry]}})
    write_project(home, {".claude/plugins/installed_plugins.json": registry})
    assert_allowed_with_note(run_guard(spawn(shop, subagent_type="x:far", name="f")), '"x:far"')
    entry["projectPath"] = str(shop)
    write_project(home, {".claude/plugins/installed_plugins.json": json.dumps({"plugins": {"x@m": [entry]}})})
    assert '"x:far"' in run_guard(spawn(shop, subagent_type="x:far", name="f")).reason


@pytest.mark.parametrize(
    "registry", ["not json", "[]", '{"plugins": []}', '{"plugins": {"a@b": [1, {"installPath": 3}]}}']
)
def test_broken_plugin_registry_is_ignored(shop: Path, home: Path, registry: str) -> None:
    write_project(home, {".claude/plugins/installed_plugins.json": registry})
    assert '"shop:critic"' in run_guard(spawn(shop, subagent_type="shop:critic", name="c")).reason


# --- the cheap agent reading agrees with the full parse ----------------------------------------


def test_agent_definitions_read_alone_match_the_full_parse() -> None:
    compared = 0
    for path in sorted((REPO / "tests" / "projects").glob("*/project/**/agents/**/*.md")):
        text, _ = decode(path.name, path.read_bytes(), 2**21)
        if text is None:
            continue
        alone = parse_agent_definition("a.md", text).agents
        full = parse_text("a.md", text, FileKind.AGENT).agents
        key: Callable[[Any], Any] = lambda a: (a.name, a.tools, a.disallowed, a.mentions_send_message)  # noqa: E731
        assert [key(a) for a in alone] == [key(a) for a in full], path
        compared += len(full)
    assert compared >= 20


# --- through the command line -----------------------------------------------------------------


def test_cli_verb_reads_stdin_and_prints_the_decision(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    payload = json.dumps(spawn(shop, "Task", subagent_type="shop:critic", name="c")).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(payload)))
    run = run_cli("guard")
    assert run.code == 0 and run.err == ""
    assert "Call Task again" in Hook(0, run.out, "").reason


def test_console_script_end_to_end(shop: Path, home: Path) -> None:
    command = [sys.executable, "-m", "spawnlint", "guard"]
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    named = json.dumps(spawn(shop, subagent_type="shop:critic", name="c"))
    denied = subprocess.run(command, input=named, capture_output=True, text=True, env=env, check=False)
    assert denied.returncode == 0 and denied.stderr == ""
    assert "WITHOUT the `name` parameter" in Hook(0, denied.stdout, "").reason
    broken = subprocess.run(command, input="{", capture_output=True, text=True, env=env, check=False)
    assert (broken.returncode, broken.stdout) == (0, "") and "not JSON" in broken.stderr


# --- the repository is a plugin that lints clean ----------------------------------------------


def test_repository_is_a_plugin_whose_hook_wires_the_guard() -> None:
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "spawnlint"
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    (entry,) = hooks["PreToolUse"]
    matcher = re.compile(entry["matcher"])
    assert matcher.fullmatch("Agent") and matcher.fullmatch("Task") and not matcher.fullmatch("TaskCreate")
    assert [h["command"] for h in entry["hooks"] if h["type"] == "command"] == [
        'python3 "${CLAUDE_PLUGIN_ROOT}/hooks/run_spawnlint.py" guard'
    ]
    (listed,) = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())["plugins"]
    assert (listed["name"], listed["source"]) == ("spawnlint", "./")
    audit = (REPO / "commands" / "audit.md").read_text()
    assert audit.startswith("---\n") and "spawnlint audit" in audit


def test_repository_root_lints_clean() -> None:
    run = run_cli("check", "--root", str(REPO))
    assert (run.code, run.lines, run.err) == (0, [], "")


def test_audit_command_is_a_unit_that_spawns_nothing() -> None:
    discovery = discover(REPO)
    assert Plugin("", "spawnlint") in discovery.plugins
    (source,) = [f for f in discovery.files if f.path == "commands/audit.md"]
    assert source.kind is FileKind.COMMAND and source.unit == "commands/audit.md"
    parsed = parse_text(source.path, (REPO / source.path).read_text(), source.kind)
    assert parsed.sites == () and not any(is_rule_sentence(s.text, False) for s in parsed.sentences)


def test_only_files_that_name_the_target_are_parsed(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = guard_targets.parse_agent_definition

    def counting(path: str, text: str) -> Any:
        parsed.append(path)
        return real(path, text)

    monkeypatch.setattr(guard_targets, "parse_agent_definition", counting)
    write_project(shop, {"agents/other.md": MUTE.replace("critic", "other") + "Not the critic's job.\n"})
    assert '"shop:critic"' in run_guard(spawn(shop, subagent_type="shop:critic", name="c")).reason
    assert sorted(parsed) == ["agents/critic.md", "agents/other.md"]  # other.md mentions "critic"
    parsed.clear()
    assert '"general-purpose"' in run_guard(spawn(shop, name="c")).reason
    assert parsed == []


PROBE = (
    "import sys\n"
    "from spawnlint.console import main\n"
    "sys.argv = ['spawnlint', 'guard']\n"
    "code = main()\n"
    "roots = ('spawnlint', 'yaml', 'markdown_it', 'libcst')\n"
    "print('MODULES', *sorted(m for m in sys.modules if m.split('.')[0] in roots), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def imported_by_guard(payload: dict[str, Any], home: Path, **env: str) -> tuple[str, set[str]]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", **env},
        check=True,
    )
    (line,) = [x for x in run.stderr.splitlines() if x.startswith("MODULES")]
    return run.stdout, set(line.split()[1:])


def test_unnamed_spawn_imports_none_of_the_linter(shop: Path, home: Path) -> None:
    out, modules = imported_by_guard(spawn(shop, subagent_type="shop:critic"), home)
    assert out == "" and modules == {
        "spawnlint",
        "spawnlint.console",
        "spawnlint.guard",
        "spawnlint.guard.call",
        "spawnlint.guard.hook",
        "spawnlint.guard.stdin",
    }


def test_named_spawn_never_imports_markdown_it_or_libcst(shop: Path, home: Path) -> None:
    out, modules = imported_by_guard(spawn(shop, subagent_type="shop:critic", name="c"), home)
    assert '"deny"' in out and "spawnlint.guard.targets" in modules
    assert not any(m.startswith(("markdown_it", "libcst", "spawnlint.parse.markdown")) for m in modules)


def test_a_call_answered_from_the_memo_imports_none_of_the_linter(
    shop: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)  # the fixture's files were written just now
    payload = spawn(shop, subagent_type="shop:critic", name="c")
    assert run_guard(payload).reason  # judged in full, and remembered
    out, modules = imported_by_guard(payload, home, SPAWNLINT_CACHE_DIR=str(cache_folder.cache_dir()))
    assert '"deny"' in out
    assert not any(
        m.startswith(("spawnlint.model", "spawnlint.parse", "spawnlint.guard.targets")) for m in modules
    )


def test_guard_benchmark_times_a_real_denial() -> None:
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "guard.py"), "--runs", "1", "--commands", "1", "--agents", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "named, mute agent (denied)" in run.stdout and "CPU median" in run.stdout


# --- the memo: a target judged before, answered without reading the project ------------------


@pytest.fixture
def judged_in_full(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The targets judged by reading the project (not from the memo), in order."""
    monkeypatch.setattr(cache_folder, "RACY_NS", 0)  # the fixture's files were written just now
    calls: list[str] = []
    full = guard_targets.target_of

    def counting(call: guard_targets.Call) -> tuple[guard_targets.Judged, set[str]]:
        calls.append(call.subagent_type)
        return full(call)

    monkeypatch.setattr(guard_targets, "target_of", counting)
    return calls


def later() -> None:
    """Past the file system clock's granularity, so a change shows in a folder's times."""
    time.sleep(0.05)


def test_a_second_call_to_the_same_target_is_answered_from_the_memo(
    shop: Path, judged_in_full: list[str]
) -> None:
    first = run_guard(spawn(shop, subagent_type="shop:critic", name="c1")).reason
    again = run_guard(spawn(shop, subagent_type="shop:critic", name="c2")).reason
    assert judged_in_full == ["shop:critic"]
    assert again == first.replace('"c1"', '"c2"')


def test_the_prompt_is_read_at_every_call(shop: Path, judged_in_full: list[str]) -> None:
    assert "SendMessage" in run_guard(spawn(shop, subagent_type="shop:helper", name="h")).reason
    told = "Review the plan, then send the result to team-lead with SendMessage."
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:helper", name="h", prompt=told)))
    assert judged_in_full == ["shop:helper"]


def test_an_edited_agent_is_judged_again(shop: Path, judged_in_full: list[str]) -> None:
    assert run_guard(spawn(shop, subagent_type="shop:critic", name="c")).reason
    later()
    (shop / "agents" / "critic.md").write_text(TOLD.replace("reporter", "critic"))  # all tools, told
    assert_allowed_silently(run_guard(spawn(shop, subagent_type="shop:critic", name="c")))
    assert judged_in_full == ["shop:critic", "shop:critic"]


@pytest.mark.parametrize(
    "added",
    [
        "plugins/other/agents/critic.md",  # a new folder anywhere: an agent may share the id
        ".claude/agents/critic.md",  # read even where .gitignore hides it
        "pyproject.toml",  # the settings
    ],
)
def test_a_file_added_where_it_could_change_the_answer_is_seen(
    shop: Path, judged_in_full: list[str], added: str
) -> None:
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    later()
    path = shop / added
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[tool.spawnlint]\n" if added.endswith(".toml") else "---\nname: critic\n---\nHi.\n")
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    assert judged_in_full == ["shop:critic", "shop:critic"]


def test_an_edited_settings_file_is_read_again(shop: Path, judged_in_full: list[str]) -> None:
    """The settings file of a subfolder, edited in place: no folder changes, only the file."""
    folder = shop / "commands"
    (folder / ".spawnlint.toml").write_text("ignore = []\n")
    later()
    assert run_guard(spawn(folder, subagent_type="shop:critic", name="c")).reason
    later()
    (folder / ".spawnlint.toml").write_text('ignore = ["SL101"]\n')
    assert_allowed_silently(run_guard(spawn(folder, subagent_type="shop:critic", name="c")))
    assert judged_in_full == ["shop:critic", "shop:critic"]


def test_a_target_not_judged_before_is_judged_in_full(shop: Path, judged_in_full: list[str]) -> None:
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    run_guard(spawn(shop, subagent_type="shop:helper", name="h"))
    run_guard(spawn(shop, subagent_type="shop:helper", name="h"))
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    assert judged_in_full == ["shop:critic", "shop:helper"]


def test_a_memo_of_another_version_of_spawnlint_is_not_read(
    shop: Path, judged_in_full: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    monkeypatch.setattr(cache_folder, "code_version", lambda: "another")
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    assert judged_in_full == ["shop:critic", "shop:critic"]


def test_no_memo_is_kept_while_a_file_it_reads_is_just_written(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    full = guard_targets.target_of
    monkeypatch.setattr(guard_targets, "target_of", lambda call: calls.append("x") or full(call))
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))  # RACY_NS as shipped: 2 s
    run_guard(spawn(shop, subagent_type="shop:critic", name="c"))
    assert calls == ["x", "x"]
