"""`check --fix`, `--diff` and `--unsafe-fixes`: what each fix writes, and the guarantees (idempotent,
bytes kept, atomic, broken files untouched, nothing written by --diff)."""

from __future__ import annotations

import ast
import difflib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, run_cli
from spawnlint.fix import apply_edits
from spawnlint.model import Diagnostic, Edit, Fix, Severity

Make = Callable[[dict[str, str | bytes]], Path]
FORMS = REPO / "tests" / "fix" / "forms"
RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an"
    " `in_process_teammate`, whose final answer never returns to this command."
)
CRITIC = "---\nname: critic\ndescription: Reviews.\ntools: Read, Grep\n---\nReview the plan.\n"
HELPER = "---\nname: helper\ndescription: Helps.\ntools: Read, SendMessage\n---\nHelp.\n"


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _copy_forms(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(FORMS / "before", root)
    return root


def test_fix_rewrites_every_structured_form_exactly(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    run = run_cli("check", "--root", str(root), "--fix")
    assert _tree(root) == _tree(FORMS / "after")
    assert "fixed 27 findings in 12 files" in run.err
    # what remains: the files it must not touch, and the spawns it cannot edit safely
    assert [line.split(" ")[0:2] for line in run.lines] == [
        ["commands/blob.md:1:1:", "SL002"],
        ["commands/broken.md:1:1:", "SL001"],
        ["commands/broken.md:5:1:", "SL201"],
        ["commands/broken.md:5:32:", "SL101"],
        ["commands/lenient.md:2:1:", "SL001"],  # only read leniently: its body was fixed
        ["hooks/prompts.py:6:44:", "SL101"],
    ]
    assert run.code == 1


def test_second_fix_changes_no_byte(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    run_cli("check", "--root", str(root), "--fix")
    once = _tree(root)
    again = run_cli("check", "--root", str(root), "--fix")
    assert _tree(root) == once
    assert "fixed 0 findings in 0 files" in again.err


def test_fixed_python_still_compiles(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    run_cli("check", "--root", str(root), "--fix")
    for path in sorted(root.rglob("*.py")):
        compile(path.read_text("utf-8"), str(path), "exec")  # compiled only, never run


def test_diff_prints_the_fixes_and_writes_nothing(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    before = _tree(root)
    times = {p: p.stat().st_mtime_ns for p in root.rglob("*")}
    run = run_cli("check", "--root", str(root), "--diff")
    assert run.code == 1
    assert _tree(root) == before
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == times
    after = _tree(FORMS / "after")
    expected = ""
    for path in sorted(before):
        if before[path] != after[path]:
            a, b = before[path].decode("utf-8"), after[path].decode("utf-8")
            expected += "".join(
                difflib.unified_diff(
                    a.splitlines(keepends=True), b.splitlines(keepends=True), f"a/{path}", f"b/{path}"
                )
            )
    assert run.out == expected
    assert "would fix 27 findings in 12 files" in run.err


def test_diff_exits_0_when_nothing_to_fix(project: Make) -> None:
    root = project(
        {"agents/critic.md": CRITIC, "commands/ok.md": f"{RULE}\n\nAgent(subagent_type: critic)\n"}
    )
    run = run_cli("check", "--root", str(root), "--diff")
    assert (run.code, run.out) == (0, "")


def test_crlf_and_bom_are_kept(project: Make) -> None:
    command = '# Go\r\n\r\n```\r\nAgent(subagent_type: "critic", name: "c1", prompt: "x")\r\n```\r\n'
    root = project(
        {
            "agents/critic.md": CRITIC,
            "commands/crlf.md": command.encode("utf-8"),
            "commands/bom.md": b"\xef\xbb\xbf" + command.replace("\r\n", "\n").encode("utf-8"),
        }
    )
    run_cli("check", "--root", str(root), "--fix")
    crlf = (root / "commands/crlf.md").read_bytes()
    assert crlf == (
        f'# Go\r\n\r\n{RULE}\r\n\r\n```\r\nAgent(subagent_type: "critic", prompt: "x")\r\n```\r\n'.encode()
    )
    bom = (root / "commands/bom.md").read_bytes()
    assert bom == b"\xef\xbb\xbf" + crlf.replace(b"\r\n", b"\n")
    assert run_cli("check", "--root", str(root)).lines == []


def test_crlf_block_line_removed_with_its_line_ending(project: Make) -> None:
    text = 'Task:\r\n  subagent_type: "critic"\r\n  name: "c1"\r\n  prompt: "x"\r\n'
    root = project({"agents/critic.md": CRITIC, "references/spawn.md": text.encode()})
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "references/spawn.md").read_bytes() == (
        b'Task:\r\n  subagent_type: "critic"\r\n  prompt: "x"\r\n'
    )


def test_binary_and_unparsable_files_are_untouched(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    run_cli("check", "--root", str(root), "--fix")
    for name in ("commands/blob.md", "commands/broken.md"):
        assert (root / name).read_bytes() == (FORMS / "before" / name).read_bytes()


def test_write_keeps_permissions_and_leaves_no_temporary_file(project: Make) -> None:
    root = project(
        {
            "agents/critic.md": CRITIC,
            "commands/go.md": f'{RULE}\n\nAgent(subagent_type: critic, name: "c1")\n',
        }
    )
    target = root / "commands/go.md"
    os.chmod(target, 0o640)
    inode = target.stat().st_ino
    run_cli("check", "--root", str(root), "--fix")
    assert target.read_text("utf-8") == f"{RULE}\n\nAgent(subagent_type: critic)\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.stat().st_ino != inode  # replaced by a rename, not rewritten in place
    assert sorted(p.name for p in target.parent.iterdir()) == ["go.md"]


def test_symlinked_file_is_not_replaced(project: Make) -> None:
    root = project({"agents/critic.md": CRITIC, "real/go.md": 'Agent(subagent_type: critic, name: "c1")\n'})
    (root / "commands").mkdir()
    (root / "commands/go.md").symlink_to(root / "real/go.md")
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").is_symlink()


def test_unsafe_fix_only_when_asked(project: Make) -> None:
    spawn = f'{RULE}\n\nAgent(subagent_type: helper, name: "h1", prompt: "help")\n'
    root = project({"agents/helper.md": HELPER, "commands/go.md": spawn})
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == spawn
    assert [line.split(" ")[1] for line in run.lines] == ["SL102"]
    run = run_cli("check", "--root", str(root), "--fix", "--unsafe-fixes")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f'{RULE}\n\nAgent(subagent_type: helper, prompt: "help")\n'
    )
    assert run.lines == []


def test_skill_gets_this_skill_in_the_sentence(tmp_path: Path) -> None:
    root = _copy_forms(tmp_path)
    run_cli("check", "--root", str(root), "--fix")
    assert "never returns to this skill." in (root / "skills/s1/SKILL.md").read_text("utf-8")


def test_no_insertion_when_the_configured_pattern_rejects_the_sentence(project: Make) -> None:
    spawn = "# Go\n\nAgent(subagent_type: critic)\n"
    root = project(
        {
            "pyproject.toml": '[tool.spawnlint.no-name-rule]\npattern = "NO-NAME-POLICY"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": spawn,
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == spawn
    assert run.lines == [
        'commands/go.md:3:1: SL201 [error] command "commands/go.md" spawns agents but does not carry the'
        " no-name rule; add a sentence that the configured no-name-rule pattern matches (the canonical"
        " one does not)"
    ]


def test_scope_section_inserts_one_sentence_per_uncovered_section(project: Make) -> None:
    root = project(
        {
            "pyproject.toml": '[tool.spawnlint.no-name-rule]\nscope = "section"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": (
                "# One\n\nAgent(subagent_type: critic)\n\nAgent(subagent_type: critic)\n"
                "\n# Two\nSpawn them:\n\n```\nAgent(subagent_type: critic)\n```\n"
            ),
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"# One\n\n{RULE}\n\nAgent(subagent_type: critic)\n\nAgent(subagent_type: critic)\n"
        f"\n# Two\n\n{RULE}\n\nSpawn them:\n\n```\nAgent(subagent_type: critic)\n```\n"
    )
    assert run.lines == []


@pytest.mark.parametrize("scope", ["unit", "section", "lines:3", "lines:2"])
@pytest.mark.parametrize("under", ["\nReview the diff.\n", "Review the diff.\n", "\n## Next\n"])
def test_a_heading_that_spawns_gets_the_rule_first_under_it(project: Make, scope: str, under: str) -> None:
    """ "### Step 2: Launch the `critic` agent" is the spawn: the sentence goes right under the
    heading (a sentence above it would sit in the section before), one blank line either side."""
    root = project(
        {
            "pyproject.toml": f'[tool.spawnlint.no-name-rule]\nscope = "{scope}"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": f"# Go\n\nRead the plan.\n\n### Step 2: Launch the `critic` agent\n{under}",
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    body = under.lstrip("\n")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"# Go\n\nRead the plan.\n\n### Step 2: Launch the `critic` agent\n\n{RULE}\n\n{body}"
    )
    assert run.lines == []


@pytest.mark.parametrize("scope", ["unit", "section"])
def test_a_unit_whose_only_spawn_is_an_agent_named_plainly_is_fixed(project: Make, scope: str) -> None:
    """A step heading that names an agent of the project is a spawn confirmed by the project stage;
    the file keeps what the fix needs (its sections) although the parser found no site of its own."""
    root = project(
        {
            "pyproject.toml": f'[tool.spawnlint.no-name-rule]\nscope = "{scope}"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": "# Go\n\n## Phase 1 (in parallel)\n\n#### SubAgent: critic\n- the plan\n",
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"# Go\n\n## Phase 1 (in parallel)\n\n#### SubAgent: critic\n\n{RULE}\n\n- the plan\n"
    )
    assert run.lines == []


def test_a_heading_no_sentence_can_cover_within_its_lines_is_left_alone(project: Make) -> None:
    text = "# Go\n\n### Step 2: Launch the `critic` agent\n\nReview the diff.\n"
    root = project(
        {
            "pyproject.toml": '[tool.spawnlint.no-name-rule]\nscope = "lines:1"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": text,
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == text  # a blank line must stay under a heading
    assert [line.split(" ")[1] for line in run.lines] == ["SL201"]


def test_scope_lines_inserts_only_where_it_covers_and_stays_idempotent(project: Make) -> None:
    far = "```\n" + "".join(f"step {i}\n" for i in range(8)) + "Agent(subagent_type: critic)\n```\n"
    root = project(
        {
            "pyproject.toml": '[tool.spawnlint.no-name-rule]\nscope = "lines:4"\n',
            "agents/critic.md": CRITIC,
            "commands/go.md": f"# Go\n\nAgent(subagent_type: critic)\n\n{far}",
        }
    )
    run_cli("check", "--root", str(root), "--fix")
    fixed = (root / "commands/go.md").read_text("utf-8")
    assert fixed == f"# Go\n\n{RULE}\n\nAgent(subagent_type: critic)\n\n{far}"
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == fixed
    assert [line.split(" ")[1] for line in run.lines] == ["SL201"]  # the far site: no edit can cover it


def test_inserted_sentence_is_no_spawn_site_and_satisfies_the_rule(project: Make) -> None:
    root = project(
        {"agents/critic.md": CRITIC, "commands/go.md": "Spawn it:\n```\nAgent(subagent_type: critic)\n```\n"}
    )
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"{RULE}\n\nSpawn it:\n```\nAgent(subagent_type: critic)\n```\n"
    )
    assert run_cli("check", "--root", str(root)).lines == []


@pytest.mark.parametrize(
    "line",
    [
        'Agent(subagent_type: critic, name: "c1" + suffix)',  # an expression: no certain end
        "Task:\n  subagent_type: critic\n  name: |\n    c1\n",  # a multi-line value
        "- `name`: `c1`\n  which is unique\n",  # a bullet that continues
    ],
)
def test_uncertain_shapes_get_no_edit(project: Make, line: str) -> None:
    lead = "Use the Agent tool with:\n\n- `subagent_type`: `critic`\n" if line.startswith("-") else ""
    text = f"{RULE}\n\n{lead}{line}\n"
    root = project({"agents/critic.md": CRITIC, "commands/go.md": text})
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == text
    assert [line.split(" ")[1] for line in run.lines] == ["SL101"]  # found, but not edited


def _diag(line: int) -> Diagnostic:
    return Diagnostic("f.md", line, 1, "SL101", "m", Severity.ERROR)


def test_overlapping_fixes_are_held_back_and_moved_text_is_left_alone() -> None:
    text = "abc, name: x, def\n"
    cut = Fix((Edit("f.md", 1, 4, 1, 13, ", name: x"),), True)
    overlapping = Fix((Edit("f.md", 1, 6, 1, 18, "name: x, def"),), True)
    moved = Fix((Edit("f.md", 1, 1, 1, 4, "xyz"),), True)
    out, fixed = apply_edits(text, [(_diag(1), cut), (_diag(2), overlapping), (_diag(3), moved)])
    assert (out, fixed) == (text, [])
    out, fixed = apply_edits(text, [(_diag(1), cut), (_diag(3), moved)])
    assert (out, fixed) == ("abc, def\n", [_diag(1)])


_KEYS = st.sampled_from(["subagent_type", "name", "team_name", "prompt", "description"])
_VALUES = st.sampled_from(
    ['"c1"', "'c1'", "c1", "{area}-reviewer", '"a, b"', '"x\\"y"', "critic", "`c1`", "|"]
)


@st.composite
def _spawn_text(draw: st.DrawFn) -> str:
    keys = ["subagent_type", "name"] + draw(st.lists(_KEYS, max_size=3))
    keys = draw(st.permutations(keys))
    pairs = [(k, "critic" if k == "subagent_type" else draw(_VALUES)) for k in keys]
    sep = draw(st.sampled_from([": ", "=", " : ", ":"]))
    form = draw(st.sampled_from(["call", "object", "block", "json", "bullets", "inline"]))
    if form == "call":
        return "Agent(" + ", ".join(f"{k}{sep}{v}" for k, v in pairs) + ")"
    if form == "object":
        inner = ",\n".join(f"  {k}{sep}{v}" for k, v in pairs)
        return f"```js\nTask({{\n{inner}{draw(st.sampled_from(['', ',']))}\n}})\n```"
    if form == "block":
        return "```\nTask:\n" + "".join(f"  {k}: {v}\n" for k, v in pairs) + "```"
    if form == "json":
        body = draw(st.sampled_from([", ", ",\n  "])).join(f'"{k}": "{v.strip(chr(34))}"' for k, v in pairs)
        return "```json\n{" + body + "}\n```"
    if form == "bullets":
        return "Use the Agent tool with:\n\n" + "".join(f"- `{k}`: `{v}`\n" for k, v in pairs)
    joiner = draw(st.sampled_from([" and ", ", ", ", and "]))
    return "Use the Task tool with " + joiner.join(f"`{k}{sep}{v}`" for k, v in pairs) + "."


_NOISE = st.lists(
    st.sampled_from(
        [
            "Agent(",
            "Task(",
            "name",
            "team_name",
            ": ",
            "=",
            '"',
            "'",
            ", ",
            " ",
            ")",
            "{",
            "}",
            "`",
            "c1",
            "\n",
            "- ",
            "subagent_type",
            "critic",
            "\\",
            "```\n",
            "# H\n",
            "and ",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.one_of(_spawn_text(), _NOISE),
    heading=st.booleans(),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_fix_never_raises_is_idempotent_and_keeps_bytes(
    body: str, heading: bool, crlf: bool, bom: bool
) -> None:
    text = ("# Go\n\n" if heading else "") + body + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "agents").mkdir()
        (root / "commands").mkdir()
        (root / "agents/critic.md").write_text(CRITIC, encoding="utf-8")
        (root / "commands/go.md").write_bytes(data)
        first = run_cli("check", "--root", str(root), "--fix")
        assert first.code in (0, 1), first.err
        once = (root / "commands/go.md").read_bytes()
        second = run_cli("check", "--root", str(root), "--fix")
        assert second.code in (0, 1), second.err
        assert (root / "commands/go.md").read_bytes() == once
        assert "fixed 0 findings" in second.err
        assert once.startswith(b"\xef\xbb\xbf") == bom
        if crlf:
            assert b"\n" not in once.replace(b"\r\n", b"")
        else:
            assert b"\r" not in once


def test_bare_inline_name_keeps_the_full_stop(project: Make) -> None:
    text = f"{RULE}\n\nUse the Task tool with subagent_type: critic and name: c1.\n"
    root = project({"agents/critic.md": CRITIC, "commands/go.md": text})
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"{RULE}\n\nUse the Task tool with subagent_type: critic.\n"
    )


_OTHER = st.dictionaries(
    st.sampled_from(["prompt", "description", "model", "team_name", "run_in_background"]),
    st.text(alphabet="abc ,:{}\"'\\é", max_size=8),
    max_size=3,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    other=_OTHER,
    name=st.text(alphabet="ab-{}, \"'é", max_size=6).map("c".__add__),
    at=st.integers(0, 4),
    indent=st.sampled_from([None, 2]),
)
def test_fixed_json_object_still_parses(
    other: dict[str, str], name: str, at: int, indent: int | None
) -> None:
    items = [("subagent_type", "critic"), *other.items()]
    items.insert(min(at, len(items)), ("name", name))
    obj = dict(items)
    text = f"{RULE}\n\n```json\n{json.dumps(obj, indent=indent, ensure_ascii=False)}\n```\n"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "agents").mkdir()
        (root / "commands").mkdir()
        (root / "agents/critic.md").write_text(CRITIC, encoding="utf-8")
        # outside any unit: a `team_name` in a command would make it a team unit, whose
        # teammates keep their `name` (SL101's fix there is to give the agent SendMessage)
        (root / "docs").mkdir()
        (root / "docs/go.md").write_text(text, encoding="utf-8")
        run_cli("check", "--root", str(root), "--fix")
        fixed = (root / "docs/go.md").read_text("utf-8")
    body = fixed.split("```json\n", 1)[1].rsplit("\n```", 1)[0]
    expected = {k: v for k, v in obj.items() if k not in ("name", "team_name")}
    # the team_name goes too, unless its edit would collide with the name's ("name" first, then it)
    allowed = [expected, {k: v for k, v in obj.items() if k != "name"}]
    result = json.loads(body)  # well-formed, whatever happened
    if "{" in name or "}" in name:
        allowed.append(obj)  # braces in a value can hide the object from the parser: no fix
    assert result in allowed


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    other=_OTHER,
    name=st.text(alphabet="ab-{}, \"'é\\", max_size=6).map("c".__add__),
    at=st.integers(0, 4),
    shape=st.sampled_from(["call", "call-lines", "dict", "dict-lines"]),
)
def test_fixed_python_compiles_and_loses_the_name(
    other: dict[str, str], name: str, at: int, shape: str
) -> None:
    items = [("subagent_type", "critic"), *other.items()]
    items.insert(min(at, len(items)), ("name", name))
    if shape.startswith("call"):
        args = [f"{k}={v!r}" for k, v in items]
        code = (
            "Agent("
            + ("\n    " + ",\n    ".join(args) + ",\n" if shape == "call-lines" else ", ".join(args))
            + ")"
        )
    else:
        pairs = [f"{k!r}: {v!r}" for k, v in items]
        code = (
            "{"
            + ("\n    " + ",\n    ".join(pairs) + "\n" if shape == "dict-lines" else ", ".join(pairs))
            + "}"
        )
    source = f"from x import Agent\n\nSPAWN = {code}\n"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "agents").mkdir()
        (root / "agents/critic.md").write_text(CRITIC, encoding="utf-8")
        (root / "spawn.py").write_text(source, encoding="utf-8")
        run_cli("check", "--root", str(root), "--fix")
        fixed = (root / "spawn.py").read_text("utf-8")
    tree = ast.parse(fixed)  # parsed, never run
    keys = {kw.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for kw in node.keywords}
    keys |= {
        k.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for k in node.keys
        if isinstance(k, ast.Constant)
    }
    assert "name" not in keys
    assert keys >= {"subagent_type", *other} - {"team_name"}


def test_one_per_bullet_name_span_goes_with_its_comma(project: Make) -> None:
    text = f"{RULE}\n\nSpawn one agent per concern:\n\n- `name: sec`, `subagent_type: critic` — security\n"
    root = project({"agents/critic.md": CRITIC, "commands/go.md": text})
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "commands/go.md").read_text("utf-8") == (
        f"{RULE}\n\nSpawn one agent per concern:\n\n- `subagent_type: critic` — security\n"
    )


SKILL_RULE = RULE.replace("this command", "this skill")


def test_section_scope_fix_spans_the_files_of_a_skill(project: Make) -> None:
    root = project(
        {
            "pyproject.toml": '[tool.spawnlint.no-name-rule]\nscope = "section"\n',
            "agents/critic.md": CRITIC,
            "skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n# S\n\nAgent(subagent_type: critic)\n\nThen follow `template.md`.\n",
            "skills/s/template.md": "# T\n\nAgent(subagent_type: critic)\n",
        }
    )
    run = run_cli("check", "--root", str(root), "--fix")
    assert (
        (root / "skills/s/SKILL.md")
        .read_text("utf-8")
        .endswith(f"# S\n\n{SKILL_RULE}\n\nAgent(subagent_type: critic)\n\nThen follow `template.md`.\n")
    )
    assert (root / "skills/s/template.md").read_text("utf-8") == (
        f"# T\n\n{SKILL_RULE}\n\nAgent(subagent_type: critic)\n"
    )
    assert "fixed 1 finding in 2 files" in run.err
    assert run.lines == []


def test_unit_scope_sentence_goes_to_a_file_it_may_edit(project: Make) -> None:
    root = project(
        {
            "agents/critic.md": CRITIC,
            "skills/s/SKILL.md": "---\nname: s\ndescription: [d\nAgent(subagent_type: critic)\nThen follow template.md.\n",
            "skills/s/template.md": "# T\n\nAgent(subagent_type: critic)\n",
        }
    )
    before = (root / "skills/s/SKILL.md").read_bytes()
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "skills/s/SKILL.md").read_bytes() == before
    assert (root / "skills/s/template.md").read_text("utf-8") == (
        f"# T\n\n{SKILL_RULE}\n\nAgent(subagent_type: critic)\n"
    )
    assert [line.split(" ")[1] for line in run.lines] == ["SL001"]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # a list-item key with nothing else in the item goes
            "Task:\n- subagent_type: critic\n- name: c1\n- prompt: x\n",
            "Task:\n- subagent_type: critic\n- prompt: x\n",
        ),
        (  # a YAML item that goes on below its first key is left alone
            "Task:\n  subagent_type: critic\n  - name: c1\n    prompt: x\n",
            "Task:\n  subagent_type: critic\n  - name: c1\n    prompt: x\n",
        ),
    ],
)
def test_list_item_keys(project: Make, before: str, after: str) -> None:
    root = project({"agents/critic.md": CRITIC, "references/spawn.md": before})
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "references/spawn.md").read_text("utf-8") == after
    assert [line.split(" ")[1] for line in run.lines] == ([] if before != after else ["SL101"])


def test_diff_shows_project_text_without_raw_control_characters(project: Make) -> None:
    root = project(
        {
            "agents/critic.md": CRITIC,
            "commands/x.md": (
                "# X\n\n"
                f"{RULE}\n\n"
                'Agent(subagent_type: "critic", name: "c1", prompt: "a\x1b[2Jb\tc ##[error]d")\r\n'
            ),
        }
    )
    run = run_cli("check", "--root", str(root), "--diff")
    assert run.code == 1 and '-Agent(subagent_type: "critic", name: "c1"' in run.out
    assert "\x1b" not in run.out and "\\x1b[2Jb\tc" in run.out and "##[" not in run.out
    assert run.out.count("\r\n") == 2  # the fixed line keeps its CRLF, before and after


@pytest.mark.parametrize(
    ("sentence", "fixed"),
    [
        (
            "Launch the **critic** agent named `c1` to review the plan.",
            "Launch the **critic** agent to review the plan.",
        ),
        (
            "Spawn the **critic** agent as a teammate called 'c1'.",
            "Spawn the **critic** agent as a teammate.",
        ),
        ("Launch the **critic** agent named c1 to review it.", "Launch the **critic** agent to review it."),
        (
            "Spawn a teammate named `c1` using the **critic** agent.",
            "Spawn a teammate using the **critic** agent.",
        ),
    ],
)
def test_a_prose_spawn_loses_its_one_name(project: Make, sentence: str, fixed: str) -> None:
    root = project({"agents/critic.md": CRITIC, "commands/p.md": f"# P\n\n{RULE}\n\n{sentence}\n"})
    before = run_cli("check", "--root", str(root), "--select", "SL101")
    assert [line.split()[1] for line in before.lines] == ["SL101"]
    run = run_cli("check", "--root", str(root), "--fix", "--select", "SL101")
    assert run.lines == [] and (root / "commands/p.md").read_text("utf-8").endswith(f"\n{fixed}\n")


def test_a_prose_list_of_names_is_left_alone() -> None:
    from spawnlint.model import Param, SpawnSite, ValueKind
    from spawnlint.parse.forms.registry import with_removals

    line = "Create a team and spawn teammates named `a`, `b` and `c` from the critic agent."

    def site(value: str) -> SpawnSite:
        name = Param("name", value, ValueKind.LITERAL, 1, line.index(f"`{value}`") + 2)
        return SpawnSite("p.md", 1, 1, "F8", None, None, name, None, None, "medium", False)

    assert [with_removals(site(v), [line]).name.removal for v in "abc"] == [(), (), ()]  # type: ignore[union-attr]
    single = "Spawn a teammate named `a` using the critic agent."
    name = Param("name", "a", ValueKind.LITERAL, 1, single.index("`a`") + 2)
    found = with_removals(
        SpawnSite("p.md", 1, 1, "F6", None, None, name, None, None, "medium", False), [single]
    )
    assert found.name is not None and [e.old for e in found.name.removal] == [" named `a`"]


def test_a_quoted_name_in_an_agents_own_bullet_goes(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(REPO / "tests" / "projects" / "f7-name-in-own-bullet" / "project", root)
    run = run_cli("check", "--root", str(root), "--fix", "--select", "SL101")
    assert run.lines == [] and "fixed 2 findings in 1 file" in run.err
    text = (root / "skills" / "debate" / "SKILL.md").read_text("utf-8")
    assert "1. `shop:critic` — attacks the preferred option\n" in text
    assert "2. `shop:critic` — attacks the other option\n" in text
    assert 'told "your name: referee" in its prompt' in text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # one keyword a line, comments and odd spacing kept
            'r = Agent(\n    subagent_type = "critic",  # who\n    name="c1",  # a label\n    prompt=PROMPT ,\n)\n',
            'r = Agent(\n    subagent_type = "critic",  # who\n    prompt=PROMPT ,\n)\n',
        ),
        (  # the last keyword: the one before it takes its (absent) comma
            'Agent(subagent_type="critic", prompt="p", name="c1")\n',
            'Agent(subagent_type="critic", prompt="p")\n',
        ),
        (  # the first keyword
            'Agent(name="c1", subagent_type="critic", prompt="p")\n',
            'Agent(subagent_type="critic", prompt="p")\n',
        ),
        (  # name and team_name of one call go in one edit
            'Agent(subagent_type="critic", name="c1", team_name="t", prompt="p")\n',
            'Agent(subagent_type="critic", prompt="p")\n',
        ),
        (  # a tool-use block: the spawn's name is input["name"]; the tool's name stays
            'B = {"type": "tool_use", "name": "Agent", "input": {\n'
            '    "subagent_type": "critic",\n    "name": "c1",\n    "prompt": "p",\n}}\n',
            'B = {"type": "tool_use", "name": "Agent", "input": {\n'
            '    "subagent_type": "critic",\n    "prompt": "p",\n}}\n',
        ),
        (  # a value in parentheses goes with them
            'Agent(subagent_type="critic", name=("c" "1"), team_name = ( "t" ), prompt="p")\n',
            'Agent(subagent_type="critic", prompt="p")\n',
        ),
        (  # CRLF line endings stay
            'Agent(\r\n    subagent_type="critic",\r\n    name="c1",\r\n)\r\n',
            'Agent(\r\n    subagent_type="critic",\r\n)\r\n',
        ),
    ],
)
def test_python_fix_deletes_the_name_and_nothing_else(project: Make, before: str, after: str) -> None:
    root = project({"agents/critic.md": CRITIC, "spawn.py": before.encode()})
    run_cli("check", "--root", str(root), "--fix")
    assert (root / "spawn.py").read_bytes() == after.encode()
    again = run_cli("check", "--root", str(root), "--fix")
    assert (root / "spawn.py").read_bytes() == after.encode()
    assert "fixed 0 findings in 0 files" in again.err


def test_libcst_is_imported_only_to_fix_python(project: Make) -> None:
    root = project({"agents/critic.md": CRITIC, "spawn.py": 'Agent(subagent_type="critic", name="c1")\n'})

    def imported(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "spawnlint", "check", "--root", str(root), *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert "spawnlint.cli" in proc.stderr, proc.stderr  # importtime did report
        return proc.stderr

    assert "libcst" not in imported("--no-cache")  # the named spawn is found without it
    assert "libcst" in imported("--diff")
    assert "name=" in (root / "spawn.py").read_text("utf-8")  # --diff wrote nothing


def test_without_libcst_python_is_left_unfixed_and_the_rest_is_fixed(
    project: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "libcst", None)  # import libcst raises ImportError
    monkeypatch.delitem(sys.modules, "spawnlint.parse.python.fix", raising=False)
    spawn = 'Agent(subagent_type="critic", name="c1", prompt="p")\n'
    markdown = f'{RULE}\n\nUse the Agent tool with `subagent_type: "critic"` and `name: "c2"`.\n'
    root = project({"agents/critic.md": CRITIC, "spawn.py": spawn, "commands/go.md": markdown})
    run = run_cli("check", "--root", str(root), "--fix")
    assert run.code == 1  # the Python spawn is still named
    assert (root / "spawn.py").read_text("utf-8") == spawn
    assert 'name: "c2"' not in (root / "commands/go.md").read_text("utf-8")


def test_python_sl102_is_fixed_only_with_unsafe_fixes(project: Make) -> None:
    spawn = 'Agent(\n    subagent_type="helper",\n    name="h1",\n    prompt="help",\n)\n'
    root = project({"agents/helper.md": HELPER, "spawn.py": spawn})
    run = run_cli("check", "--root", str(root), "--fix")
    assert (root / "spawn.py").read_text("utf-8") == spawn
    assert [line.split(" ")[1] for line in run.lines] == ["SL102"]
    run = run_cli("check", "--root", str(root), "--fix", "--unsafe-fixes")
    assert (root / "spawn.py").read_text(
        "utf-8"
    ) == 'Agent(\n    subagent_type="helper",\n    prompt="help",\n)\n'
    assert run.lines == []


def test_a_call_written_as_a_tag_loses_its_name_attribute(project: Make) -> None:
    """`<Task agent="critic" name="c1">`: the attribute and the space before it go, the rest of the
    tag and its prompt stay; a second run finds nothing to fix."""
    body = '# Go\n\n{RULE}\n\n<Task agent="critic" name="c1" model="opus">\nReview the plan.\n</Task>\n'
    root = project({"agents/critic.md": CRITIC, "commands/go.md": body.replace("{RULE}", RULE)})
    run_cli("check", "--root", str(root), "--fix")
    fixed = (root / "commands/go.md").read_text("utf-8")
    assert fixed == body.replace("{RULE}", RULE).replace(' name="c1"', "")
    again = run_cli("check", "--root", str(root), "--fix")
    assert again.lines == []
