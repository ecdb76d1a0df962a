"""The markdown spawn forms F1–F5 and F9, and the traps of SPEC §3, one small case each."""

from __future__ import annotations

import pytest

from spawnlint.model import FileKind, ValueKind
from spawnlint.parse import parse_text


def sites(text: str, kind: FileKind = FileKind.COMMAND) -> list[tuple[str, int, str | None, str | None]]:
    path = "skills/x/SKILL.md" if kind is FileKind.SKILL else "commands/x.md"
    parsed = parse_text(path, text, kind)
    return [
        (s.form, s.line, s.name.value if s.name else None, s.subagent_type.value if s.subagent_type else None)
        for s in parsed.sites
    ]


def test_f1_call_with_colon_params() -> None:
    text = 'Run:\n\nAgent(subagent_type: "shop:critic", name: "c1", prompt: "Review.")\n'
    assert sites(text) == [("F1", 3, "c1", "shop:critic")]


def test_f1_multiline_python_kwargs_name_column() -> None:
    text = '```python\nTask(\n    subagent_type="x",\n    name="w1",\n    prompt="go",\n)\n```\n'
    parsed = parse_text("c.md", text, FileKind.COMMAND)
    (site,) = parsed.sites
    assert (site.line, site.column) == (2, 1)
    assert site.name is not None and (site.name.line, site.name.column) == (4, 5)


def test_f1_js_object_argument() -> None:
    text = '```js\nTask({ subagent_type: "x", name: "n1", prompt: `go` })\n```\n'
    assert sites(text) == [("F1", 2, "n1", "x")]


def test_f1_requires_spawn_parameters() -> None:
    assert sites("Tools: `Agent(worker)`, `Task(Explore)`.\n") == []
    assert sites('```python\nAgent(name="Triage", instructions="Route.")\n```\n') == []


def test_f1_new_agent_of_other_frameworks_is_not_a_spawn() -> None:
    assert sites('```js\nconst a = new Agent({ name: "x", prompt: "y" });\n```\n') == []


def test_f1_name_inside_prompt_is_not_named() -> None:
    text = 'Agent(subagent_type: "x", prompt: "Your name: bob. name: \\"y\\"")\n'
    assert sites(text) == [("F1", 1, None, "x")]


def test_f1_hash_comment_inside_call() -> None:
    text = '```bash\nTask(\n  subagent_type: "x",  # the reviewer\n  # name: "old"\n  prompt: "go"\n)\n```\n'
    assert sites(text) == [("F1", 2, None, "x")]


def test_f1_lying_fence_label() -> None:
    text = '```json\nTask({"subagent_type": "x", "name": "n", "prompt": "p"})\n```\n'
    assert sites(text) == [("F1", 2, "n", "x")]


def test_f1_name_none_is_absent() -> None:
    assert sites('Task(subagent_type="x", name=None, prompt="p")\n') == [("F1", 1, None, "x")]


def test_f2_block_with_block_scalar_prompt() -> None:
    text = 'Task:\n  subagent_type: "shop:critic"\n  prompt: |\n    Review.\n    name: inner\n'
    assert sites(text) == [("F2", 1, None, "shop:critic")]


def test_f2_named_block_in_fence() -> None:
    text = "```yaml\nAgent:\n  subagent_type: critic\n  name: critic-1\n  prompt: go\n```\n"
    parsed = parse_text("c.md", text, FileKind.COMMAND)
    (site,) = parsed.sites
    assert site.form == "F2" and site.line == 2
    assert site.name is not None and site.name.line == 4
    assert site.subagent_type is not None and site.subagent_type.kind is ValueKind.LITERAL


def test_f2_subagent_header_carries_the_type() -> None:
    assert sites("Subagent (general-purpose):\n  prompt: Summarise.\n") == [
        ("F2", 1, None, "general-purpose")
    ]


def test_f3_json_object() -> None:
    text = '```json\n{\n  "subagent_type": "x",\n  "name": "j1"\n}\n```\n'
    assert sites(text) == [("F3", 2, "j1", "x")]


def test_f3_tool_use_outer_name_is_the_tool() -> None:
    text = '```json\n{"type": "tool_use", "name": "Agent", "input": {"subagent_type": "x", "prompt": "p"}}\n```\n'
    assert sites(text) == [("F3", 2, None, "x")]


def test_f4_param_bullets() -> None:
    text = "Use the Task tool:\n- `subagent_type`: `shop:critic`\n- `name`: `{area}-reviewer`\n- `prompt`: review\n"
    parsed = parse_text("c.md", text, FileKind.COMMAND)
    (site,) = parsed.sites
    assert (site.form, site.line) == ("F4", 1)
    assert site.name is not None and site.name.kind is ValueKind.PLACEHOLDER and site.name.line == 3


def test_f4_name_bullet_saying_omit_is_not_named() -> None:
    text = "Use the Agent tool with:\n- `subagent_type`: `x`\n- `name`: omit it\n- `prompt`: go\n"
    assert sites(text) == [("F4", 1, None, "x")]


def test_f4_one_spawn_per_subagent_type_bullet() -> None:
    text = "Spawn these agents with the Task tool:\n- `subagent_type: a` — first\n- `subagent_type: b` — second\n"
    assert [s[3] for s in sites(text)] == ["a", "b"]


def test_f5_inline_params() -> None:
    text = 'Use the Task tool with `subagent_type="shop:critic"` and `name: "c3"`.\n'
    assert sites(text) == [("F5", 1, "c3", "shop:critic")]


def test_f5_the_no_name_rule_sentence_is_not_a_spawn() -> None:
    text = (
        "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
        "`in_process_teammate`, whose final answer never returns to this command.\n"
    )
    assert sites(text) == []


def test_f5_forbidden_name_value_is_not_named() -> None:
    text = 'Call the Agent tool with `subagent_type: "x"`; never pass `name: "y"`.\n'
    assert sites(text) == [("F5", 1, None, "x")]


def test_f9_fork_skill() -> None:
    text = "---\nname: s\ncontext: fork\nagent: Explore\n---\nDo it.\n"
    assert sites(text, FileKind.SKILL) == [("F9", 4, None, "Explore")]


def test_f9_fork_defaults_to_general_purpose() -> None:
    assert sites("---\ncontext: fork\n---\nDo it.\n", FileKind.SKILL) == [("F9", 2, None, None)]


@pytest.mark.parametrize(
    "lead",
    ["### ❌ Wrong", "**Wrong:**", "Bad example:", "## Anti-pattern: named spawns", "Don't do this:"],
)
def test_counter_examples_are_not_sites(lead: str) -> None:
    text = f'{lead}\n\n```\nAgent(subagent_type: "x", name: "bad", prompt: "p")\n```\n'
    assert sites(text) == []


def test_right_after_wrong_is_a_site() -> None:
    text = (
        '**Wrong:**\n\n```\nAgent(subagent_type: "x", name: "bad", prompt: "p")\n```\n\n'
        '**Right:**\n\n```\nAgent(subagent_type: "x", prompt: "p")\n```\n'
    )
    assert sites(text) == [("F1", 10, None, "x")]


def test_rule_sentence_lead_keeps_unnamed_example() -> None:
    text = (
        "Never pass `name` to the Agent tool (it spawns an `in_process_teammate`):\n\n"
        '```\nAgent(subagent_type: "x", prompt: "p")\n```\n'
    )
    assert sites(text) == [("F1", 4, None, "x")]


def test_comment_marker_inside_fence() -> None:
    text = '```python\n# WRONG: named\nTask(subagent_type="x", name="n", prompt="p")\n# right\nTask(subagent_type="x", prompt="p")\n```\n'
    assert sites(text) == [("F1", 5, None, "x")]


def test_xml_attribute_name_is_not_a_parameter() -> None:
    text = '<field name="reviewer">x</field>\n\nAgent(subagent_type: "x", prompt: "p")\n'
    assert sites(text) == [("F1", 3, None, "x")]


def test_placeholder_and_dynamic_targets() -> None:
    parsed = parse_text(
        "c.md",
        'Task(subagent_type="{area}-reviewer", prompt="p")\n\nTask(subagent_type=task.agent_type, prompt="p")\n',
        FileKind.COMMAND,
    )
    kinds = [s.subagent_type.kind for s in parsed.sites if s.subagent_type]
    assert kinds == [ValueKind.PLACEHOLDER, ValueKind.DYNAMIC]


def test_agent_description_examples_are_not_sites() -> None:
    text = (
        "---\nname: critic\ndescription: |\n  <example>assistant: I'll use the Task tool\n"
        '  Task(subagent_type: "critic", name: "c", prompt: "p")</example>\n---\nReview.\n'
    )
    assert parse_text("agents/critic.md", text, FileKind.AGENT).sites == ()


def test_team_name_without_name_is_not_named() -> None:
    assert sites('Agent(subagent_type: "x", team_name: "t", prompt: "p")\n') == [("F1", 1, None, "x")]


def test_taskcreate_is_not_a_spawn() -> None:
    assert sites('TaskCreate(subject: "Review", description: "d", prompt: "p")\n') == []


# --- prose forms (F6–F8): medium confidence ---------------------------------------------------


def test_f6_bold_agent_reference() -> None:
    assert sites("Launch the **security-auditor** agent on the source tree.\n") == [
        ("F6", 1, None, "security-auditor")
    ]


def test_f6_qualified_reference_and_generic() -> None:
    assert sites("Spawn `shop:critic`.\n\nThen dispatch one subagent per task.\n") == [
        ("F6", 1, None, "shop:critic"),
        ("F6", 3, None, None),
    ]


def test_f6_sites_have_medium_confidence() -> None:
    parsed = parse_text("c.md", "Use the code-reviewer agent to check the diff.\n", FileKind.COMMAND)
    assert [s.confidence for s in parsed.sites] == ["medium"]


@pytest.mark.parametrize(
    "text",
    [
        "Do not spawn a subagent for work you can complete directly.\n",
        "Use this agent when the plan is ready.\n",
        "assistant: I'll use the code-reviewer agent to review it.\n",
        "<example>\nUser: review\nAssistant: I'll launch the **critic** agent.\n</example>\n",
        "Edit `launchSettings.json` and run the tests.\n",
    ],
)
def test_prose_traps(text: str) -> None:
    assert sites(text) == []


def test_f7_one_bullet_per_agent() -> None:
    text = "Spawn three subagents in parallel:\n\n- **legacy-analyst** — the data layer\n- **security-auditor** — auth\n- **Calculations** — a lens, not an agent\n"
    assert sites(text) == [("F7", 3, None, "legacy-analyst"), ("F7", 4, None, "security-auditor")]


def test_f8_named_teammates() -> None:
    text = "Create a team and spawn 3 teammates named `alpha`, `beta` and `gamma`.\n"
    assert sites(text) == [("F8", 1, "alpha", None), ("F8", 1, "beta", None), ("F8", 1, "gamma", None)]


def test_f8_team_called_names_the_team_not_a_teammate() -> None:
    assert sites("Create an agent team called `feature-x` to implement it.\n") == [("F8", 1, None, None)]


def test_lead_sentence_of_a_call_is_the_same_spawn() -> None:
    text = 'Launch the **critic** agent:\n\n```\nAgent(subagent_type: "critic", prompt: "p")\n```\n'
    assert sites(text) == [("F1", 4, None, "critic")]


def test_f6_generic_teammate_with_a_name() -> None:
    assert sites("Spawn a teammate named 'coder-1' to implement the plan.\n") == [("F6", 1, "coder-1", None)]


def test_f7_table_of_teammates() -> None:
    text = (
        "Spawn all teammates in parallel:\n\n"
        "| Name | subagent_type | Role |\n|---|---|---|\n"
        "| `impl-1` | `general-purpose` | code |\n| `reviewer` | `feature-dev:code-reviewer` | bugs |\n"
    )
    assert sites(text) == [
        ("F7", 5, "impl-1", "general-purpose"),
        ("F7", 6, "reviewer", "feature-dev:code-reviewer"),
    ]


def test_f7_a_phase_table_names_its_phases_not_the_spawns() -> None:
    """A dispatch table whose rows are phases: its Name column titles the phase ("Plan Review"),
    it is no Agent tool `name` (a false SL101 on a public orchestrator's phase table)."""
    text = (
        "Dispatch each phase via the Task tool:\n\n"
        "| Phase | Name | subagent_type | model |\n|---|---|---|---|\n"
        "| 1.1 | Brainstorm | subagents:brainstormer | inherit |\n"
        "| 4.3 | Completion | subagents:completion-handler | config |\n"
    )
    assert sites(text) == [
        ("F7", 5, None, "subagents:brainstormer"),
        ("F7", 6, None, "subagents:completion-handler"),
    ]


def test_f1_positional_agent_then_prompt() -> None:
    text = '```\nTask(vibe-audit:feature-scanner) - "Scan for dead features"\nAgent(worker)\n```\n'
    assert sites(text) == [("F1", 2, None, "vibe-audit:feature-scanner")]


@pytest.mark.parametrize(
    "text",
    [
        "Use colors from `brand-config.json` for every chart.\n",
        "Run the same pre-flight check as the gemini-review agent:\n",
        "Use the complete plan output from the `plan-guideline` skill.\n",
        "Launch the process, form the team, begin data collection.\n",
        "Run a single named review agent.\n",
        '> **Why `subagent_type: "default"`:** no dedicated agent exists.\n',
        "When the tests pass, invoke `commit-msg` skill:\n",
        "| `initialPrompt` | no | Sent first when run as a main-session agent. |\n",
        "5. **Quick Start** — Show the simplest way to spawn a team\n",
        "**Trigger:** the request names another skill or agent.\n",
    ],
)
def test_prose_precision_traps_from_real_repos(text: str) -> None:
    if "named review agent" in text:
        assert [s[2] for s in sites(text)] == [None]
    else:
        assert sites(text) == []


def test_unbackticked_subagent_type_in_a_tool_sentence() -> None:
    assert sites('Use Task tool with subagent_type: "general-purpose" to:\n') == [
        ("F5", 1, None, "general-purpose")
    ]


def test_strong_verb_with_a_backticked_id() -> None:
    assert sites("6. **Spawn `pm-prd-author`** with the input contract below.\n") == [
        ("F6", 1, None, "pm-prd-author")
    ]


def test_label_line_is_its_own_sentence() -> None:
    assert sites('**Task Instructions:**\nUse Task tool with subagent_type: "general-purpose" to:\n') == [
        ("F5", 2, None, "general-purpose")
    ]


def test_spawn_as_subagents_and_noun_uses_of_spawn() -> None:
    assert sites("Then dispatch four plan review personas in parallel as sub-agents.\n") == [
        ("F6", 1, None, None)
    ]
    assert sites("Permissions are set at spawn time for every teammate.\n") == []


def test_labelled_param_bullet() -> None:
    text = 'Spawn teammates (one `Task` per teammate):\n- Native path: `subagent_type: "shop:backend"`\n'
    assert sites(text) == [("F4", 1, None, "shop:backend")]


def test_team_create_alone_is_no_spawn_and_its_parameters_are_no_teammates() -> None:
    text = (
        "1. Create team via `TeamCreate`:\n"
        "   - `team_name`: `feature-x`\n"
        "   - `description`: the feature\n"
        "2. Spawn a `team-lead` agent to coordinate\n"
        "3. For each work stream, use `Agent` tool to spawn a `team-implementer`:\n"
        "   - `name`: `implementer-{n}`\n"
        '   - `subagent_type`: "agent-teams:team-implementer"\n'
    )
    assert sites(text) == [
        ("F6", 4, None, "team-lead"),
        ("F4", 5, "implementer-{n}", "agent-teams:team-implementer"),
    ]


def test_flow_diagrams_are_not_instructions() -> None:
    assert sites("**Flow:** 1.Setup → 2.Spawn Team → 3.Review → 4.Merge\n") == []


def test_a_spawn_sentence_over_its_parameter_list_is_one_spawn() -> None:
    text = (
        "Invoke the **bug-reproduction-validator** agent for systematic reproduction.\n\n"
        '- subagent_type: "psd:workflow:bug-reproduction-validator"\n'
        '- prompt: "Reproduce the bug."\n'
    )
    assert sites(text) == [("F2", 3, None, "psd:workflow:bug-reproduction-validator")]


def test_invoke_whenever_lists_occasions_not_agents() -> None:
    text = (
        'Invoke whenever:\n- User says "write the report"\n- `verify-bug` completes and requests a report\n'
    )
    assert sites(text) == []


def test_f5_name_with_prose_target_is_one_site() -> None:
    parsed = parse_text("c.md", 'Spawn the `shop:critic` agent with `name: "c1"`.\n', FileKind.COMMAND)
    assert [
        (
            s.form,
            s.name.value if s.name else None,
            s.subagent_type.value if s.subagent_type else None,
            s.confidence,
        )
        for s in parsed.sites
    ] == [("F5", "c1", "shop:critic", "medium")]


def test_f2_header_with_nested_bullets() -> None:
    text = "Spawn it:\n\n- Task:\n  - subagent_type: shop:critic\n  - name: c2\n  - prompt: hi\n"
    assert sites(text) == [("F2", 3, "c2", "shop:critic")]


def test_f2_yaml_list_of_spawns_is_one_site_each() -> None:
    text = "```yaml\n- subagent_type: critic\n  prompt: a\n- subagent_type: helper\n  name: h1\n  prompt: b\n```\n"
    assert sites(text) == [("F2", 2, None, "critic"), ("F2", 4, "h1", "helper")]


def test_f2_bullets_without_header_keep_all_keys() -> None:
    text = 'Invoke it for reproduction.\n\n- subagent_type: "shop:critic"\n- name: "c3"\n- prompt: "p"\n'
    assert sites(text) == [("F2", 3, "c3", "shop:critic")]


@pytest.mark.parametrize(
    "text",
    [
        'Agent(subagent_type: "x", name: "n", prompt: "Mark each check ✅ or ❌")\n',
        'Legend: ✅ done, ❌ failed.\nAgent(subagent_type: "x", name: "n", prompt: "p")\n',
    ],
)
def test_a_cross_inside_a_prompt_or_a_legend_is_no_counter_example(text: str) -> None:
    assert [s[2] for s in sites(text)] == ["n"]


def test_example_with_nested_commentary_then_a_real_spawn() -> None:
    text = (
        "<example>\nuser: review\n<commentary>\nuse the critic\n</commentary>\n"
        "assistant: I'll launch the **critic** agent.\n</example>\n\n"
        "Launch the **security-auditor** agent.\n"
    )
    assert sites(text) == [("F6", 9, None, "security-auditor")]


def test_positions_of_bold_teammate_names_and_fork_agents() -> None:
    parsed = parse_text(
        "c.md", "Create a team and spawn teammates named **alpha** and **beta**.\n", FileKind.COMMAND
    )
    assert [s.name.column for s in parsed.sites if s.name] == [43, 57]
    fork = parse_text("skills/s/SKILL.md", "---\ncontext: fork\nagent: a\n---\n", FileKind.SKILL).sites[0]
    assert fork.subagent_type is not None and fork.subagent_type.value_position == (3, 8)


def test_an_example_tag_named_in_code_opens_nothing() -> None:
    text = "`<example>` blocks in descriptions matter.\n\nUse the `agent-creator` agent for interactive design.\n"
    assert sites(text) == [("F6", 3, None, "agent-creator")]


def test_f7_described_agent_bullets_with_their_names() -> None:
    text = (
        "Spawn all teammates in a single message with multiple Agent tool calls:\n\n"
        '- **One `shop:union-dev` agent per track** — each with `name: "track-N"` and `team_name: T`\n'
        '- **One persistent `shop:devils-advocate` agent** — with `name: "devils-advocate"`\n'
    )
    assert sites(text) == [
        ("F7", 3, "track-N", "shop:union-dev"),
        ("F7", 4, "devils-advocate", "shop:devils-advocate"),
    ]


def test_a_constructor_of_another_framework_is_not_a_spawn() -> None:
    text = 'Wire it up:\n\nconst agent = new Agent({\n  name: "triage",\n  instructions: "Route the ticket.",\n});\n'
    assert parse_text("commands/x.md", text, FileKind.COMMAND).sites == ()


@pytest.mark.parametrize(
    "text, expected",
    [
        (  # a step wrapped in a tag of the prompt's own, after a heading
            '## Phase 1\n<exploration priority="first">\nUse the Agent tool with `subagent_type: "Explore"` to'
            " understand:\n1. What stack is this?\n</exploration>\n",
            [("F5", 3, None, "Explore")],
        ),
        (  # after a blank line, a list inside the tag
            "Review it.\n\n<steps>\nSpawn these agents in parallel:\n\n- **security-auditor**\n- **code-reviewer**\n</steps>\n",
            [("F7", 6, None, "security-auditor"), ("F7", 7, None, "code-reviewer")],
        ),
    ],
)
def test_text_inside_a_prompt_tag_is_read_as_markdown(text: str, expected: list[object]) -> None:
    """markdown opens an HTML block at a line that is only a tag and reads nothing in it as
    markdown; the model reads the text inside as instructions."""
    assert sites(text) == expected


def test_a_tag_line_inside_a_paragraph_leaves_it_whole() -> None:
    parsed = parse_text(
        "commands/x.md", "Read the plan and\n<br>\nlaunch the `shop:critic` agent.\n", FileKind.COMMAND
    )
    assert [(s.form, s.line) for s in parsed.sites] == [("F6", 3)]
    assert [s.line for s in parsed.sentences] == [1]


def test_a_sentence_that_introduces_an_example_document_spawns_nothing() -> None:
    """ "Launch plugin agents for complex tasks:" over a markdown fence shows a command file to its
    author; the same words over a prompt are the command's own."""
    example = "Launch plugin agents for complex tasks:\n\n```markdown\n---\ndescription: Review\n---\nUse the code-reviewer agent.\n```\n"
    own = "Launch two agents for the review:\n\n```\nReview the diff.\n```\n"
    prompt = "Invoke the **learning-writer** agent with a minimal prompt:\n\n```markdown\nExtract the learnings.\n```\n"
    assert sites(example) == []
    assert sites(own) == [("F6", 1, None, None)]
    assert sites(prompt) == [("F6", 1, None, "learning-writer")]


def test_a_call_inside_a_file_shown_whole_is_no_site() -> None:
    """A command template in a markdown fence (frontmatter first) shows its author a file: its
    `Task(...)` is the template's, not this unit's. A markdown fence without frontmatter is often
    the prompt, and a plain fence holds the unit's own call."""
    template = (
        "### Command template\n\n```markdown\n---\ndescription: Refine\n---\n\n"
        'Task(\n  subagent_type="planner",\n  prompt="Refine the task"\n)\n```\n'
    )
    own = '### Refine\n\n```\nTask(\n  subagent_type="planner",\n  prompt="Refine the task"\n)\n```\n'
    assert sites(template) == []
    assert sites(own) == [("F1", 4, None, "planner")]


def test_a_call_in_the_example_column_of_a_tool_table_is_no_site() -> None:
    """A reference table of tools shows how each call is written; a table whose column is the
    agent to spawn is F7's."""
    reference = (
        "| Tool | Purpose | Example |\n|---|---|---|\n"
        '| `Task` | Delegate to subagent | `Task(subagent_type="planner", prompt="...")` |\n'
    )
    spawns = '| Step | Call |\n|---|---|\n| 1 | `Task(subagent_type="planner", prompt="Plan it")` |\n'
    assert sites(reference) == []
    assert [s[0] for s in sites(spawns)] == ["F1"]


_XML_PROMPT = """# Verify

<workflow type="sequential">
  <step id="1">
    <description>Completeness gate</description>
    <action>Check the plan and the diff.</action>

    <action>Launch the **plan-checker** agent via the Agent tool. Pass it the plan path.</action>
  </step>
  <step id="2">
    <action priority="high">Then dispatch the `shop:critic` agent on the diff.</action>
  </step>
</workflow>

<!-- Launch the **old-checker** agent via the Agent tool. -->

<example>
  <action>Launch the **sample-checker** agent via the Agent tool.</action>
</example>
"""


def test_a_prompt_written_in_xml_tags_is_read_as_prose() -> None:
    """Markdown reads `<step>` lines as HTML and the lines indented under them past a blank line as
    code; the model reads the words. A comment and an `<example>` spawn nothing."""
    parsed = parse_text("commands/verify.md", _XML_PROMPT, FileKind.COMMAND)
    found = [(s.line, s.column, s.subagent_type.value if s.subagent_type else None) for s in parsed.sites]
    lines = _XML_PROMPT.split("\n")
    assert [(line, target) for line, _, target in found] == [(8, "plan-checker"), (11, "shop:critic")]
    # each at its verb, as written in the file
    assert [lines[line - 1][column - 1 :].split()[0] for line, column, _ in found] == ["Launch", "dispatch"]


def test_a_pointer_under_an_out_of_scope_heading_is_not_a_site() -> None:
    text = "## Out of Scope\n\n- Exhaustive greps (use the `completeness-checker` agent).\n"
    assert sites(text) == []
    assert sites(text.replace("Out of Scope", "Steps")) != []
    assert sites(text.replace("Out of Scope", "What this skill will NOT do")) == []


def test_named_before_a_noun_phrase_gives_no_name() -> None:
    # "named taste anchors": an adjective before a noun phrase (round 24, a design skill); a name
    # stands before a joiner, a preposition or a verb
    text = "Dispatch one Explore agent per direction (post-minimalism vs Fluent, or named taste anchors).\n"
    assert sites(text) == [("F6", 1, None, "Explore")]
    assert sites("Spawn a teammate named alpha to review the diff.\n") == [("F6", 1, "alpha", None)]


_CALL = 'Agent(subagent_type="shop:archiver", prompt="Index the push.")'


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a section written into CLAUDE.md, its inner fences nested as its author meant
        (
            f"Use this block:\n\n```markdown\n## Archive\n\nAsk first:\n\n```\nArchive? [Y/n]\n```\n\n"
            f"Then:\n\n```\n{_CALL}\n```\n```\n\nDone.\n",
            [],
        ),
        # a file shown whole, its frontmatter first
        (f"Example:\n\n```md\n---\nname: x\n---\n\n{_CALL}\n```\n", []),
        # a fence labelled markdown that opens with the call holds the call (labels lie)
        (f"```markdown\n{_CALL}\n```\n", [("F1", 2, None, "shop:archiver")]),
        # fences that do not balance: the document ends at its first bare fence, as CommonMark
        # reads it, and the call after it is the unit's
        (f"```markdown\n## Notes\n\n```\nText.\n\n```\n{_CALL}\n", [("F1", 8, None, "shop:archiver")]),
    ],
)
def test_a_document_in_a_markdown_fence_is_shown_not_run(text: str, found: list[object]) -> None:
    assert sites(text) == found


def test_a_variable_after_run_is_a_program_not_an_agent() -> None:
    """After "run" a `$VAR` is a candidate like any id (an agent of the project or nothing); after
    a verb of spawning it is an agent held in a variable ("Launch the `$REVIEWER` agent")."""
    from spawnlint.parse.forms.f6_prose import sentence_spawns

    [ran] = sentence_spawns("Ensure Node is on PATH, then re-run the `$CLI` resolution block in `SKILL.md`.")
    assert (ran.target, ran.candidate) == ("$CLI", True)
    [launched] = sentence_spawns("Launch the `$REVIEWER` agent on the diff.")
    assert (launched.target, launched.candidate) == ("$REVIEWER", False)
