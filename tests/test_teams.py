"""Team units and the rule in the author's own words (SPEC §5): what each rule says and fixes
there, the severity SL301 takes in the project's own namespace, how SendMessage is read, and
capped lists in messages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, run_cli, write_project
from spawnlint.fix import apply_edits
from spawnlint.model import Fix, ToolList
from spawnlint.parse.forms.rule_sentence import canonical_rule, is_own_words_rule, is_rule_sentence
from spawnlint.parse.grant import REPORT_INSTRUCTION, grant_send_message
from spawnlint.rules.return_channel import capped
from spawnlint.send_message import mentions_send_message_tool, report_lines

PROJECTS = REPO / "tests" / "projects"


def _copy(tmp_path: Path, case: str) -> Path:
    root = tmp_path / case
    shutil.copytree(PROJECTS / case / "project", root)
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _json(root: Path, *extra: str) -> list[dict[str, object]]:
    run = run_cli("check", "--root", str(root), "--output-format", "json", *extra)
    assert run.code in (0, 1), run.err
    found: list[dict[str, object]] = json.loads(run.out)
    return found


def test_sl301_is_an_error_in_the_projects_own_namespace_and_a_warning_elsewhere(tmp_path: Path) -> None:
    found = {
        str(d["message"]).split('"')[1]: d for d in _json(_copy(tmp_path, "deleted-agent-own-namespace"))
    }
    assert found["shop:critic"]["severity"] == "error"
    assert "deleted, renamed or misspelt" in str(found["shop:critic"]["message"])
    assert found["other:critic"]["severity"] == "warning"


def test_a_deleted_agent_of_the_own_plugin_fails_the_run(tmp_path: Path) -> None:
    root = _copy(tmp_path, "deleted-agent-own-namespace")
    assert run_cli("check", "--root", str(root), "--select", "SL301").code == 1
    (root / "commands" / "review.md").write_text(
        (root / "commands" / "review.md").read_text().replace("shop:critic", "shop:scout")
    )
    assert run_cli("check", "--root", str(root), "--select", "SL301").code == 0  # only the warning left


def test_a_configured_severity_still_wins_over_the_findings_own(tmp_path: Path) -> None:
    root = _copy(tmp_path, "deleted-agent-own-namespace")
    (root / ".spawnlint.toml").write_text('[severity]\nSL301 = "warning"\n')
    found = _json(root)
    assert {d["severity"] for d in found} == {"warning"}


def test_fix_never_inserts_the_rule_into_a_team_unit(tmp_path: Path) -> None:
    root = _copy(tmp_path, "team-unit-exempt")
    before = _tree(root)
    run_cli("check", "--root", str(root), "--fix")
    assert _tree(root) == before  # no rule sentence, and no removal of a teammate's `name`


def test_unsafe_fix_in_a_team_unit_gives_the_teammate_its_channel(tmp_path: Path) -> None:
    root = _copy(tmp_path, "team-unit-exempt")
    run = run_cli("check", "--root", str(root), "--fix", "--unsafe-fixes")
    assert "fixed 1 finding in 2 files" in run.err
    assert "tools: Read, Write, SendMessage\n" in (root / "agents" / "scribe.md").read_text()
    command = (root / "commands" / "team-debug.md").read_text()
    assert f'name: "scribe", prompt: "{REPORT_INSTRUCTION}Keep the minutes.")' in command
    assert _json(root) == []  # it can report now, and it is told to
    again = _tree(root)
    run_cli("check", "--root", str(root), "--fix", "--unsafe-fixes")
    assert _tree(root) == again


def test_grant_send_message_in_each_tools_shape() -> None:
    def grant(*lines: str) -> str:
        text = list(lines)
        listed = ToolList(frozenset({"Read"}), ("Read",), 2)
        edits = grant_send_message("a.md", text, listed, None)
        found, _ = apply_edits("\n".join(text), [(None, Fix(edits, False))] if edits else [])  # type: ignore[list-item]
        return found

    assert grant("---", "tools: Read, Grep", "---") == "---\ntools: Read, Grep, SendMessage\n---"
    assert grant("---", "tools: [Read, Grep]", "---") == "---\ntools: [Read, Grep, SendMessage]\n---"
    assert grant("---", "tools: []", "---") == "---\ntools: [SendMessage]\n---"
    assert grant("---", "tools:", "  - Read", "---") == "---\ntools:\n  - Read\n  - SendMessage\n---"
    assert grant("---", 'tools: "Read, Grep"', "---") == '---\ntools: "Read, Grep"\n---'  # not certain
    assert grant("---", "tools: Read # no edits", "---") == "---\ntools: Read # no edits\n---"
    mute = ToolList(frozenset({"SendMessage"}), ("SendMessage",), 3)
    assert (
        grant_send_message("a.md", ["---", "tools: Read", "disallowedTools: SendMessage"], None, mute) == ()
    )
    listed = ToolList(frozenset({"Read"}), ("Read",), 2)
    assert (
        grant_send_message("a.md", ["---", "tools: Read", "disallowedTools: SendMessage"], listed, mute) == ()
    )


def test_fix_in_a_mixed_unit_inserts_the_sentence_for_subagents(tmp_path: Path) -> None:
    root = _copy(tmp_path, "mixed-team-unit")
    [finding] = _json(root)
    assert "spawns subagents besides its teammates" in str(finding["message"])
    run = run_cli("check", "--root", str(root), "--fix")
    assert "fixed 1 finding" in run.err
    text = (root / "commands" / "team-build.md").read_text()
    mixed = canonical_rule("command", mixed=True)
    assert mixed in text and text.index(mixed) < text.index("crew:mapper")
    assert is_rule_sentence(mixed)
    assert _json(root) == []


def test_fix_removes_name_where_no_team_is_meant(tmp_path: Path) -> None:
    root = _copy(tmp_path, "named-spawn-no-team-intent")
    run_cli("check", "--root", str(root), "--fix")
    text = (root / "commands" / "review.md").read_text()
    assert 'name: "critic-1"' not in text and canonical_rule("command") in text
    assert _json(root) == []


def test_sl203_fix_puts_the_mechanism_inside_the_sentence(tmp_path: Path) -> None:
    root = _copy(tmp_path, "own-words-rule")
    run = run_cli("check", "--root", str(root), "--fix", "--select", "SL203")
    assert "fixed 1 finding" in run.err
    line = (root / "commands" / "review.md").read_text().splitlines()[6]
    assert line == (
        "Don't give the Agent tool a `name`: named agents just sit there (a named spawn runs as an"
        " `in_process_teammate`, whose final answer never returns)."
    )
    assert is_rule_sentence(line)
    assert [d["code"] for d in _json(root)] == ["SL201"]  # check.md's sentence was never a rule


def test_sl101_offers_both_fixes_and_names_every_mute_candidate(tmp_path: Path) -> None:
    [finding] = _json(_copy(tmp_path, "ambiguous-target-mute"))
    message = str(finding["message"])
    assert '"a:critic"' in message and '"b:critic"' in message and '"c:critic"' not in message
    assert "spawn it without `name`, or add SendMessage to its tools and tell it to report" in message
    assert {loc["path"] for loc in finding["related"]} == {
        "plugins/a/agents/critic.md",
        "plugins/b/agents/critic.md",
    }  # type: ignore[index,union-attr]


def test_a_name_given_as_a_description_is_shown_short(tmp_path: Path) -> None:
    """ "`name`: the reviewer name (`a-reviewer`, `b-reviewer`) — must match ..." describes the
    names: the message quotes the description's start, not a whole line as if it were a name."""
    root = write_project(
        tmp_path / "proj",
        {
            "agents/reviewer.md": "---\nname: reviewer\ndescription: d\ntools: Read, Grep\n---\nReview.\n",
            "commands/review.md": (
                "# Review\n\nCreate a team, then spawn each teammate with the Agent tool:\n\n"
                "- `team_name`: `review-team`\n"
                "- `name`: the reviewer name (`correctness-reviewer`, `security-reviewer`,"
                " `quality-reviewer`) — must match the subject of its task\n"
                '- `subagent_type`: `"reviewer"`\n'
            ),
        },
    )
    [finding] = [f for f in _json(root) if f["code"] == "SL101"]
    message = str(finding["message"])
    assert message.startswith(
        'named spawn "the reviewer name (`correctness-reviewer`, …" of agent "reviewer"'
    )


def test_ambiguous_target_all_able_but_none_told_is_sl102(tmp_path: Path) -> None:
    root = _copy(tmp_path, "ambiguous-target-mute")
    for plugin in ("a", "b"):
        path = root / "plugins" / plugin / "agents" / "critic.md"
        path.write_text(
            path.read_text().replace("tools: Read, Grep\n", "").replace("tools: Read, Glob\n", "")
        )
    assert [d["code"] for d in _json(root)] == ["SL102"]


def test_own_words_rules() -> None:
    assert is_own_words_rule("Don't give the Agent tool a `name`: named agents just sit there.")
    assert is_own_words_rule("NEVER pass `name` to the Agent tool: named agents sit idle.")
    assert is_own_words_rule("The `name` parameter must never be passed to the Task tool.")
    assert not is_own_words_rule("Never name the agent file after the command.")
    assert not is_own_words_rule("Every `Agent` call MUST omit `team_name=` and use `name=` as a label.")
    assert not is_own_words_rule("---\nname: research-agent\ndescription: without tools, an agent")
    assert not is_own_words_rule(canonical_rule("command"))  # complete, not incomplete


def test_send_message_in_any_case_is_the_tool() -> None:
    assert mentions_send_message_tool("Then answer the lead using `sendMessage`.")
    assert report_lines(["Reply to the lead with sendmessage when done."]) == ((1, 24),)


def test_send_message_of_another_api_is_not_the_tool() -> None:
    for text in (
        "Calls like `::SendMessage(hWnd, WM_CLOSE, 0, 0)` must become PostMessage.",
        "Use SendMessageW(hDlg, WM_GETTEXT, 0, 0) to read it.",
        'In the scripts, obj.SendMessage("Reload") reloads the level.',
        "The bot calls bot.sendMessage(chatId, text) to reply.",
        "```cpp\n// report the result\nSendMessage(dialog, WM_USER, 0, 0);\n```",
    ):
        assert not mentions_send_message_tool(text), text
    assert mentions_send_message_tool('```\nSendMessage(to: "team-lead", message: "done")\n```')
    assert report_lines(["```csharp", "// send the result", "SendMessage(x, result);", "```"]) == ()


def test_lists_in_messages_are_capped(tmp_path: Path) -> None:
    assert capped(("Read", "Grep")) == "Read, Grep"
    names = tuple(f"T{i}" for i in range(100_000))
    assert capped(names, 2) == "T0, T1 and 99,998 more"
    tools = ", ".join(names)
    write_project(
        tmp_path,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "agents/critic.md": f"---\nname: critic\ndescription: Reviews.\ntools: {tools}\n---\nReview.\n",
            "commands/review.md": "---\ndescription: Review\n---\n\n"
            + canonical_rule("command")
            + '\n\n```\nAgent(subagent_type: "shop:critic", name: "c1", prompt: "review it")\n```\n',
        },
    )
    [finding] = _json(tmp_path)
    assert finding["code"] == "SL101"
    assert len(str(finding["message"])) < 1000
    assert "and 99,992 more" in str(finding["message"])


def test_sl301_stays_a_warning_for_a_listed_plugin_whose_folder_is_absent(tmp_path: Path) -> None:
    write_project(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": '{"name": "m", "owner": {"name": "x"}, "plugins": ['
            '{"name": "shop", "source": "./plugins/shop"}, {"name": "ghost", "source": "./plugins/ghost"}]}',
            "plugins/shop/.claude-plugin/plugin.json": '{"name": "shop"}',
            "plugins/shop/commands/review.md": "---\ndescription: Review\n---\n\n"
            + canonical_rule("command")
            + '\n\n```\nAgent(subagent_type: "ghost:critic", prompt: "review it")\n'
            + 'Agent(subagent_type: "shop:critic", prompt: "review it")\n```\n',
        },
    )
    found = {str(d["message"]).split('"')[1]: d["severity"] for d in _json(tmp_path) if d["code"] == "SL301"}
    assert found == {"ghost:critic": "warning", "shop:critic": "error"}


def test_sl102_in_a_team_unit_tells_the_teammate_to_report(tmp_path: Path) -> None:
    command = (
        "---\ndescription: Team review\n---\n\n# Review\n\nUse `TeamCreate` to create the review team.\n\n"
        '```\nAgent(subagent_type: "shop:critic", name: "critic-1", prompt: "Review PLAN.md.")\n```\n'
    )
    write_project(
        tmp_path,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "agents/critic.md": "---\nname: critic\ndescription: Reviews.\n---\nReview the plan.\n",
            "commands/review.md": command,
        },
    )
    assert [d["code"] for d in _json(tmp_path)] == ["SL102"]  # a team unit: no SL201
    assert run_cli("check", "--root", str(tmp_path), "--fix").err.startswith("fixed 0 findings")
    run_cli("check", "--root", str(tmp_path), "--fix", "--unsafe-fixes")
    text = (tmp_path / "commands" / "review.md").read_text()
    assert f'name: "critic-1", prompt: "{REPORT_INSTRUCTION}Review PLAN.md.")' in text
    assert _json(tmp_path) == []
