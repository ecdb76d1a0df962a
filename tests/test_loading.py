"""The loading model: what Claude Code loads is what spawnlint reads — default excludes and
`exclude`/`extend-exclude`, other harnesses' folders, manifests it refuses (SL004), agents
without a name (SL005), placeholders, plugin copies."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli, write_project
from spawnlint.discover import discover, exclusion
from spawnlint.project import is_placeholder

MUTE_AGENT = "---\nname: critic\ndescription: Reviews.\ntools: Read\n---\n\nReview.\n"
NAMED_SPAWN = '# Go\n\n```\nAgent(subagent_type: "critic", name: "c1", prompt: "Go.")\n```\n'


def _found(root: Path, *args: str) -> list[str]:
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache", *args)
    assert run.code in (0, 1), run.err
    return sorted(f"{d['path']}:{d['code']}" for d in json.loads(run.out))


def _vendored_tree(root: Path) -> Path:
    """Findings everywhere: named spawns of a mute agent in vendored, build and real folders."""
    files: dict[str, str | bytes] = {"agents/critic.md": MUTE_AGENT}
    for folder in (
        "node_modules/pkg",
        ".venv/lib/python3.12/site-packages/pkg",
        "venv/share",
        "build",
        "dist",
        ".tox/py312",
        "tests/fixtures",
        "examples/demo",
        ".claude",
        "plugins/x/build",
    ):
        files[f"{folder}/notes.md"] = NAMED_SPAWN
    files["skills/build/SKILL.md"] = "---\nname: build\ndescription: Builds.\n---\n\n" + NAMED_SPAWN
    return write_project(root, files)


READ_BY_DEFAULT = [
    ".claude/notes.md:SL101",
    "examples/demo/notes.md:SL101",
    "plugins/x/build/notes.md:SL101",
    "skills/build/SKILL.md:SL101",
    "skills/build/SKILL.md:SL201",
    "tests/fixtures/notes.md:SL101",
]


def test_default_excludes_outside_a_git_work_tree(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    assert _found(root) == READ_BY_DEFAULT


def test_default_excludes_in_a_git_work_tree_with_nothing_ignored(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    os.symlink("/usr/bin/python3", root / ".venv" / "python")  # a venv's link out of the project
    assert _found(root) == READ_BY_DEFAULT  # no SL002 for the link either


def test_exclude_replaces_the_defaults_and_extend_exclude_adds(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)  # git lists node_modules/
    (root / ".spawnlint.toml").write_text('exclude = ["tests"]\nextend-exclude = ["examples/"]\n')
    found = _found(root)
    assert "node_modules/pkg/notes.md:SL101" in found and "build/notes.md:SL101" in found
    assert not any(f.startswith(("tests/", "examples/")) for f in found)
    assert "skills/build/SKILL.md:SL201" in found


def test_command_line_exclude_and_extend_exclude(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert _found(root, "--extend-exclude", "tests,.claude") == [
        f for f in READ_BY_DEFAULT if not f.startswith(("tests/", ".claude/"))
    ]
    replaced = _found(root, "--exclude", "skills")
    assert "node_modules/pkg/notes.md:SL101" in replaced and "tests/fixtures/notes.md:SL101" in replaced
    assert not any(f.startswith("skills/") for f in replaced)


def test_show_settings_tells_the_exclude_parts(tmp_path: Path) -> None:
    root = write_project(tmp_path, {".spawnlint.toml": 'extend-exclude = ["old"]\nother-harnesses = []\n'})
    run = run_cli("check", "--root", str(root), "--show-settings")
    assert "extend-exclude = ['old']" in run.out and "other-harnesses = []" in run.out
    assert "'/build'" in run.out and "'old'" in run.out


@pytest.mark.parametrize(
    ("path", "excluded"),
    [
        ("node_modules/a.md", True),
        ("plugins/x/node_modules/a.md", True),
        ("build/a.md", True),
        ("skills/build/SKILL.md", False),
        ("dist/commands/a.md", True),
        ("plugins/dist/a.md", False),
        ("archive/2024/a.md", True),
        ("docs/archive/a.md", False),
        ("notes.bak", True),
        ("plugins/a/tmp/x.md", True),
    ],
)
def test_exclusion_patterns(path: str, excluded: bool) -> None:
    test = exclusion(("node_modules", "/build", "/dist", "archive/**", "*.bak", "plugins/*/tmp"))
    assert test(path) is excluded


def test_discovery_drops_the_listing_problems_of_excluded_paths(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"commands/a.md": "# A\n"})
    (root / "node_modules").mkdir()
    os.symlink("/nonexistent", root / "node_modules" / "broken.md")
    os.symlink("/nonexistent", root / "broken.md")
    found = discover(root, ("node_modules",))
    assert [p.finding.path for p in found.problems] == ["broken.md"]


# --- manifests (SL004) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("manifest", "line", "words"),
    [
        (b'{"name": "shop",}', 1, "not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, 1, "nests too deeply"),
        (b'{"name": "caf\xe9"}', 1, "not UTF-8"),
        (b'"shop"', 1, "JSON string, not an object"),
        (b'{\n  "name": "shop",\n  "skills": [1]\n}', 3, "`skills` is a JSON array, it must be a path"),
    ],
)
def test_a_manifest_claude_code_refuses_is_sl004(
    tmp_path: Path, manifest: bytes, line: int, words: str
) -> None:
    root = write_project(tmp_path, {".claude-plugin/plugin.json": manifest, "agents/critic.md": MUTE_AGENT})
    run = run_cli("check", "--root", str(root), "--output-format", "json", "--no-cache")
    found = [d for d in json.loads(run.out) if d["code"] == "SL004"]
    assert [(d["path"], d["line"]) for d in found] == [(".claude-plugin/plugin.json", line)]
    assert words in found[0]["message"] and run.code == 1


def test_an_unreadable_manifest_is_sl004(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"agents/critic.md": MUTE_AGENT})
    (root / ".claude-plugin" / "plugin.json").mkdir(parents=True)  # listed, but no regular file
    found = discover(root, ())
    # a folder is not listed as a file: the manifest is just absent
    assert not [p for p in found.problems if p.code == "SL004"]
    os.rmdir(root / ".claude-plugin" / "plugin.json")
    (root / ".claude-plugin" / "plugin.json").write_bytes(b"{" * 10 + b"x" * (2 * 1024 * 1024))
    found = discover(root, ())
    assert [(p.code, p.finding.line) for p in found.problems] == [("SL004", 1)]
    assert "cannot be read" in found.problems[0].finding.message


def test_a_broken_manifest_keeps_the_name_it_spells(tmp_path: Path) -> None:
    root = write_project(
        tmp_path,
        {
            ".claude-plugin/plugin.json": '{"name": "shop",}',
            "agents/critic.md": MUTE_AGENT,
            "commands/go.md": NAMED_SPAWN.replace('"critic"', '"shop:critic"'),
        },
    )
    assert _found(root) == [
        ".claude-plugin/plugin.json:SL004",
        "commands/go.md:SL101",
        "commands/go.md:SL201",
    ]


def test_marketplace_entries_of_the_wrong_shape_are_sl004(tmp_path: Path) -> None:
    market = {
        "name": "m",
        "plugins": [
            "./a",
            {"name": 3, "source": "./b"},
            {"name": "c", "source": "./c", "agents": 1},
            {"name": "d"},
            {"name": "e", "source": 5},
            {"source": "./f"},
        ],
    }
    root = write_project(tmp_path, {".claude-plugin/marketplace.json": json.dumps(market, indent=2)})
    found = discover(root, ())
    messages = [p.finding.message for p in found.problems if p.code == "SL004"]
    assert len(messages) == 6
    assert "JSON string among its plugins" in messages[0]
    assert "`name` is a JSON number" in messages[1] and "`agents` is a JSON number" in messages[2]
    assert "entry has no `source`" in messages[3] and "`source` is a JSON number" in messages[4]
    assert "entry has no `name`" in messages[5]


def test_a_plugins_listing_metadata_named_marketplace_json_is_no_marketplace(tmp_path: Path) -> None:
    """A plugin's own `.claude-plugin/marketplace.json` beside its plugin.json, with no `plugins`
    at all, is its listing for some catalogue: Claude Code reads marketplaces at the root it is
    given, never this one, so it is no SL004. At the repository's root it still is."""
    listing = json.dumps({"name": "bot", "displayName": "Bot", "version": "1.0.0"})
    root = write_project(
        tmp_path / "proj",
        {
            ".claude-plugin/marketplace.json": '{"name": "m", "plugins": [{"name": "bot", "source": "./plugins/bot"}]}',
            "plugins/bot/.claude-plugin/plugin.json": '{"name": "bot"}',
            "plugins/bot/.claude-plugin/marketplace.json": listing,
        },
    )
    assert [p.code for p in discover(root, ()).problems] == []
    (root / ".claude-plugin/marketplace.json").write_text(listing)
    assert [p.code for p in discover(root, ()).problems] == ["SL004"]


# --- placeholders --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["agent-name", "&lt;agent&gt;", "team-*", "plugin:name", "your-agent-type", "agent_type"],
)
def test_placeholders(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", ["ghost-writer", "shop:critic", "reviewer", "model:opus"])
def test_real_names_are_not_placeholders(value: str) -> None:
    assert not is_placeholder(value)


# --- plugin copies -------------------------------------------------------------------------------


def test_audit_lists_plugin_roots_that_look_like_copies(tmp_path: Path) -> None:
    agents = {f"agents/{n}.md": MUTE_AGENT.replace("critic", n) for n in ("critic", "planner", "scout")}
    files: dict[str, str | bytes] = {}
    for root, name in (("plugins/shop", "shop"), ("plugins/shop-old", "shop"), ("legacy/kit", "kit")):
        files[f"{root}/.claude-plugin/plugin.json"] = json.dumps({"name": name})
        files.update({f"{root}/{path}": text for path, text in agents.items()})
    files["plugins/other/.claude-plugin/plugin.json"] = '{"name": "other"}'
    files["plugins/other/agents/critic.md"] = MUTE_AGENT
    root = write_project(tmp_path, files)
    data = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert [(c["root"], c["other"]) for c in data["plugin_copies"]] == [
        ("legacy/kit", "plugins/shop"),
        ("legacy/kit", "plugins/shop-old"),
        ("plugins/shop", "plugins/shop-old"),
    ]
    assert data["plugin_copies"][2]["why"] == 'both are named "shop"'
    assert not [f for f in data["findings"] if f["code"] == "SL003"]
    markdown = run_cli("audit", "--root", str(root)).out
    assert "`plugins/shop` and `plugins/shop-old` look like copies of one plugin" in markdown


def test_the_remembered_discovery_follows_the_excludes(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    args = ("check", "--root", str(root), "--output-format", "json")
    first = {d["path"] for d in json.loads(run_cli(*args).out)}
    fewer = {d["path"] for d in json.loads(run_cli(*args, "--extend-exclude", "tests").out)}
    again = {d["path"] for d in json.loads(run_cli(*args).out)}
    assert "tests/fixtures/notes.md" in first and first == again
    assert fewer == first - {"tests/fixtures/notes.md"}


def test_a_path_given_that_the_default_excludes_take_out_is_said(tmp_path: Path) -> None:
    root = _vendored_tree(tmp_path)
    run = run_cli("check", "--root", str(root), str(root / "node_modules/pkg/notes.md"), str(root / "build"))
    assert 'excluded by the configuration ("node_modules")' in run.err
    assert 'build: excluded by the configuration ("/build")' in run.err
    kept = run_cli(
        "check", "--root", str(root), "--output-format", "json", str(root / "skills/build/SKILL.md")
    )
    assert "excluded" not in kept.err and {d["code"] for d in json.loads(kept.out)} == {"SL101", "SL201"}


def test_a_standalone_skill_is_named_by_its_skill_file_in_messages(tmp_path: Path) -> None:
    root = write_project(
        tmp_path,
        {
            "SKILL.md": "---\nname: solo\ndescription: d\n---\n\n# Solo\n\nSpawn the `general-purpose` agent to review it.\n"
        },
    )
    lines = run_cli("check", "--root", str(root)).lines
    assert len(lines) == 1 and 'skill "SKILL.md" spawns agents' in lines[0]


# Skills shared between harnesses live in `.agents/skills/` and reach Claude Code through a link:
# `.claude/skills -> ../.agents/skills`, or one link per skill. Claude Code loads them at the link.
SHARED_SKILL = "---\nname: review\ndescription: d\n---\n\nDispatch two parallel reviewer subagents.\n"


@pytest.mark.parametrize("git", [False, True])
@pytest.mark.parametrize("per_skill", [False, True])
def test_a_linked_skill_folder_is_read_where_claude_code_loads_it(
    tmp_path: Path, git: bool, per_skill: bool
) -> None:
    root = write_project(
        tmp_path / "proj", {".agents/skills/review/SKILL.md": SHARED_SKILL, "README.md": "x\n"}
    )
    (root / ".claude").mkdir()
    if per_skill:
        (root / ".claude/skills").mkdir()
        (root / ".claude/skills/review").symlink_to("../../.agents/skills/review")
    else:
        (root / ".claude/skills").symlink_to("../.agents/skills")
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    run = run_cli("check", "--root", str(root), "--no-cache")
    assert [line.split(" ")[:2] for line in run.lines] == [[".claude/skills/review/SKILL.md:6:1:", "SL201"]]


def test_a_linked_folder_read_where_it_is_is_not_read_twice(tmp_path: Path) -> None:
    """A link to a folder the project reads anyway (a plugin's own skills) adds nothing: one spawn,
    one place. A link out of the project, or to a folder holding it, is not followed."""
    root = write_project(tmp_path / "proj", {"skills/review/SKILL.md": SHARED_SKILL})
    (root / "more").mkdir()
    (root / "more/skills").symlink_to("../skills")
    (root / "loop").symlink_to(".")
    outside = write_project(tmp_path / "outside", {"skills/x/SKILL.md": SHARED_SKILL})
    (root / "elsewhere").symlink_to(outside / "skills")
    run = run_cli("check", "--root", str(root), "--no-cache")
    codes = sorted((line.split(":")[0], line.split(" ")[1]) for line in run.lines)
    assert codes == [("elsewhere", "SL002"), ("skills/review/SKILL.md", "SL201")]


def test_a_link_retargeted_is_seen_by_the_next_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPAWNLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("spawnlint.cache_folder.RACY_NS", 0)
    quiet = SHARED_SKILL.replace("Dispatch two parallel reviewer subagents.", "Review it yourself.")
    root = write_project(
        tmp_path / "proj",
        {".agents/skills/review/SKILL.md": SHARED_SKILL, ".agents/quiet/review/SKILL.md": quiet},
    )
    (root / ".claude").mkdir()
    (root / ".claude/skills").symlink_to("../.agents/skills")
    assert [line.split(" ")[1] for line in run_cli("check", "--root", str(root)).lines] == ["SL201"]
    (root / ".claude/skills").unlink()
    (root / ".claude/skills").symlink_to("../.agents/quiet")
    assert run_cli("check", "--root", str(root)).lines == []


def test_a_plugin_whose_folder_is_named_like_documentation_has_skills(tmp_path: Path) -> None:
    """`source: "./doc"` makes doc/ a plugin root: its skills are loaded, although a skills folder
    inside a docs/ or doc/ folder of some plugin is documentation, not loaded."""
    market = '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "doc", "source": "./doc"}]}'
    root = write_project(
        tmp_path / "proj",
        {
            ".claude-plugin/marketplace.json": market,
            "doc/skills/adr/SKILL.md": SHARED_SKILL,
            "doc/docs/skills/sample/SKILL.md": SHARED_SKILL,  # documentation inside the plugin
        },
    )
    run = run_cli("check", "--root", str(root), "--no-cache", "--select", "SL201")
    assert [line.split(":")[0] for line in run.lines] == ["doc/skills/adr/SKILL.md"]


def test_a_plugin_kept_in_a_skills_folder_is_a_plugin_not_one_skill(tmp_path: Path) -> None:
    """`skills/concept/` with its own `.claude-plugin/plugin.json`, a SKILL.md beside it and
    commands/ and agents/ folders is a plugin root: Claude Code loads its commands and agents and
    never the SKILL.md beside the manifest (as at the repository's root), so the agents are
    targets and the commands are units, not one skill that swallows them."""
    market = '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "concept", "source": "./skills/concept"}]}'
    spawn = '# Go\n\n```\nAgent(subagent_type: "concept:critic", name: "c1", prompt: "Go.")\n```\n'
    root = write_project(
        tmp_path / "proj",
        {
            ".claude-plugin/marketplace.json": market,
            "skills/concept/.claude-plugin/plugin.json": '{"name": "concept"}',
            "skills/concept/SKILL.md": "---\nname: concept\ndescription: d\n---\n# Concept\n\nRun /go.\n",
            "skills/concept/commands/go.md": spawn,
            "skills/concept/agents/critic.md": MUTE_AGENT,
        },
    )
    assert _found(root) == [
        "skills/concept/commands/go.md:SL101",
        "skills/concept/commands/go.md:SL201",
    ]
    # In the skills/ folder of a plugin, a skill that keeps a manifest of its own is that plugin's skill.
    (root / ".claude-plugin/plugin.json").write_text('{"name": "outer"}')
    audit = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert "skills/concept" in [u["path"] for u in audit["units"]]
    (root / ".claude-plugin/plugin.json").unlink()
    # A marketplace's source that holds a SKILL.md and no manifest of its own stays that skill,
    # beside the plugin's commands and agents.
    (root / "skills/concept/.claude-plugin/plugin.json").unlink()
    assert _found(root) == ["skills/concept/commands/go.md:SL101", "skills/concept/commands/go.md:SL201"]
    audit = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert [u["path"] for u in audit["units"]] == ["skills/concept", "skills/concept/commands/go.md"]
    (root / "skills/concept/.claude-plugin/plugin.json").write_text('{"name": "concept"}')
    audit = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert [u["path"] for u in audit["units"]] == ["skills/concept/commands/go.md"]
    # A manifest that names its SKILL.md as its skill loads it, and still its commands and agents.
    (root / "skills/concept/.claude-plugin/plugin.json").write_text(
        '{"name": "concept", "skills": "./SKILL.md"}'
    )
    (root / "skills/concept/SKILL.md").write_text("# Concept\n\nDispatch two parallel reviewer subagents.\n")
    assert _found(root) == [
        "skills/concept/SKILL.md:SL201",
        "skills/concept/commands/go.md:SL101",
        "skills/concept/commands/go.md:SL201",
    ]


_KERNEL = "# Kernel\n\nWhen delegation helps, launch one `scout` agent per question.\n"
_SCOUT = "---\nname: scout\ndescription: d\ntools: Read\n---\nLook.\n"


@pytest.mark.parametrize(
    ("unit", "text", "spawning"),
    [
        ("skills/s/SKILL.md", "# S\n\nApply ../../references/kernel.md once for delegation.\n", True),
        ("commands/c.md", "# C\n\nThe protocol: @references/kernel.md\n", True),  # an include
        ("commands/c.md", "# C\n\nRead `references/kernel.md` and then follow it.\n", True),
        ("commands/c.md", "# C\n\nRead `references/kernel.md` and perform every step.\n", True),
        (
            "commands/c.md",
            "# C\n\n**Read `references/kernel.md`** (beside this file)\nand follow it.\n",
            True,
        ),
        # the verb of following in other languages (Portuguese, Spanish, French, German)
        ("commands/c.md", "# C\n\nCarregar e seguir RIGOROSAMENTE: `references/kernel.md`\n", True),
        ("commands/c.md", "# C\n\nLee y sigue `references/kernel.md` paso a paso.\n", True),
        ("commands/c.md", "# C\n\nLisez et suivez references/kernel.md.\n", True),
        ("commands/c.md", "# C\n\nBefolge `references/kernel.md` genau.\n", True),
        ("commands/c.md", "# C\n\nVeja `references/kernel.md` para contexto.\n", False),
        ("commands/c.md", "# C\n\nRead `references/kernel.md` for background.\n", False),
        ("commands/c.md", "# C\n\nFollow ../elsewhere/kernel.md for delegation.\n", False),  # no such file
        ("commands/c.md", "# C\n\n```\nfollow references/kernel.md\n```\n", False),  # an example
    ],
)
def test_a_unit_spawns_where_a_file_it_follows_does(
    tmp_path: Path, unit: str, text: str, spawning: bool
) -> None:
    root = write_project(tmp_path, {"agents/scout.md": _SCOUT, "references/kernel.md": _KERNEL, unit: text})
    report = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    [found] = [u for u in report["units"] if unit.startswith(u["path"])]
    assert found["spawning"] is spawning
    if spawning:  # the site (and the rule) stands at the line that makes it follow
        assert [s["line"] for s in report["spawn_sites"] if s["unit"] == found["path"]] == [3]
        [finding] = [line for line in run_cli("check", "--root", str(root)).lines if "SL201" in line]
        assert finding.startswith(f"{unit}:3:") and "(in `references/kernel.md`, which it follows)" in finding


@pytest.mark.parametrize(
    ("text", "spawning"),
    [
        ("# C\n\nFollow project guidelines in `@CLAUDE.md`.\n", False),  # the open project's memory
        ("# C\n\nFollow kernel.md for delegation.\n", False),  # a bare name: the user's file as often
        ("# C\n\nFollow `docs/AGENTS.md` first.\n", False),
        ("# C\n\nFollow ${CLAUDE_PLUGIN_ROOT}/CLAUDE.md for delegation.\n", True),  # the plugin's own
        ("# C\n\nLoad and embody this identity:\n\n@${CLAUDE_PLUGIN_ROOT}/kernel.md\n", True),  # an include
    ],
)
def test_a_project_memory_file_or_a_bare_name_is_not_followed_into_the_plugin(
    tmp_path: Path, text: str, spawning: bool
) -> None:
    root = write_project(
        tmp_path,
        {
            "agents/scout.md": _SCOUT,
            "CLAUDE.md": _KERNEL,  # the plugin author's own notes, with a spawn in them
            "kernel.md": _KERNEL,
            "docs/AGENTS.md": _KERNEL,
            "commands/c.md": text,
        },
    )
    report = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert {u["path"]: u["spawning"] for u in report["units"]} == {"commands/c.md": spawning}


def test_a_chain_of_followed_files_is_followed_to_its_end_and_a_circle_ends(tmp_path: Path) -> None:
    root = write_project(
        tmp_path,
        {
            "agents/scout.md": _SCOUT,
            "commands/a.md": "# A\n\nFollow references/b.md now.\n",
            "references/b.md": "# B\n\nFollow references/c.md next.\n",
            "references/c.md": "# C\n\nFollow references/d.md next.\n",
            "references/d.md": "# D\n\nLaunch the `scout` agent.\n",
            "commands/x.md": "# X\n\nFollow references/y.md now.\n",
            "references/y.md": "# Y\n\nFollow references/z.md.\n",
            "references/z.md": "# Z\n\nFollow references/y.md.\n",
        },
    )
    report = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    assert {u["path"]: u["spawning"] for u in report["units"]} == {
        "commands/a.md": True,
        "commands/x.md": False,
    }


@pytest.mark.parametrize(
    ("skill", "spawning"),
    [
        ("Read `references/` before you start.\n", True),  # the folder: all its files
        ("The prompts are in `references/*.md`.\n", True),  # a glob over the folder
        ("Use `references/kernel.md` for delegation.\n", True),  # the file itself
        ("Run `./references/check.sh` when done.\n", False),  # a script: its folder's notes unread
        ("Read `references/style.md` for tone.\n", False),  # a sibling of the spawning file
    ],
)
def test_a_skill_loads_the_files_and_folders_it_names_not_their_siblings(
    tmp_path: Path, skill: str, spawning: bool
) -> None:
    root = write_project(
        tmp_path,
        {
            "agents/scout.md": _SCOUT,
            "skills/s/SKILL.md": "# S\n\n" + skill,
            "skills/s/references/kernel.md": _KERNEL,
            "skills/s/references/style.md": "# Style\n\nBe brief.\n",
        },
    )
    report = json.loads(run_cli("audit", "--root", str(root), "--output-format", "json").out)
    [unit] = report["units"]
    assert unit["spawning"] is spawning
