"""The real pre-commit, against a temporary git repository, with this repository's hooks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from test_cli import PLUGIN

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def plugin_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plugin")
    for rel, text in PLUGIN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    return root


def _try_repo(plugin: Path, home: Path, hook: str, *files: str) -> subprocess.CompletedProcess[str]:
    args = ["--files", *files] if files else ["--all-files"]
    env = dict(
        os.environ,
        PRE_COMMIT_HOME=str(home),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t",
    )
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook, "--verbose", *args],
        cwd=plugin,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_hook_reports_finding_at_command_when_only_agent_changes(
    plugin_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    home = tmp_path_factory.mktemp("pre-commit-home")
    result = _try_repo(plugin_repo, home, "spawnlint", "agents/critic.md")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "commands/review.md:7:37: SL101 [error]" in result.stdout
    whole = _try_repo(plugin_repo, home, "spawnlint-all")
    assert whole.returncode == 1
    assert whole.stdout.count("SL101 [error]") == 1
    clean = _try_repo(plugin_repo, home, "spawnlint", ".claude-plugin/plugin.json")
    assert clean.returncode == 0, clean.stdout + clean.stderr


def readme_hook_config(repo: Path) -> str:
    """The README's pre-commit snippet exactly as written, with its repository URL replaced by
    this clone and its `rev` by this clone's HEAD where the tag it names is not here (a clone of
    a branch before the release is tagged)."""
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Pre-commit\n", 1)[1]
    snippet = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    url = re.search(r"repo: (\S+)", snippet)
    rev = re.search(r"rev: (\S+)", snippet)
    assert url is not None and rev is not None, snippet
    assert url.group(1) == "https://github.com/spawnlint/spawnlint"
    assert f"pip install git+{url.group(1)}" in readme  # one URL for the project, everywhere
    tagged = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev.group(1)}^{{commit}}"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    if tagged.returncode != 0:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        )
        snippet = snippet.replace(rev.group(0), f"rev: {head.stdout.strip()}")
    return snippet.replace(url.group(1), str(repo))


def test_the_readme_snippet_refuses_a_mute_spawn_and_shows_warnings(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The way a plugin repository really uses the hook: the README's `.pre-commit-config.yaml`,
    `pre-commit install`, then `git commit` and `run --all-files`. An error stops the commit; a
    commit that leaves only a warning goes through with the warning shown."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False)
    if head.returncode != 0:
        pytest.skip("this copy of spawnlint is not a git repository")
    root = tmp_path_factory.mktemp("committing")
    for rel, text in PLUGIN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".pre-commit-config.yaml").write_text(readme_hook_config(REPO))
    env = dict(
        os.environ,
        PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@t",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@t",
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args, cwd=root, capture_output=True, text=True, env=env, timeout=600, check=False
        )

    run("git", "init", "-q")
    run(sys.executable, "-m", "pre_commit", "install")
    run("git", "add", ".")
    commit = run("git", "commit", "-q", "-m", "add review command")
    assert commit.returncode != 0, commit.stdout + commit.stderr
    assert "commands/review.md:7:37: SL101 [error]" in commit.stdout + commit.stderr
    assert run("git", "rev-parse", "HEAD").returncode != 0  # nothing was committed
    every = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert every.returncode == 1 and "SL101 [error]" in every.stdout
    # The critic may report now, but nothing tells the named spawn to: SL102, a warning.
    critic = root / "agents/critic.md"
    critic.write_text(critic.read_text().replace("tools: Read, Grep", "tools: Read, Grep, SendMessage"))
    run("git", "add", ".")
    passing = run("git", "commit", "-q", "-m", "let the critic report")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "commands/review.md:7:37: SL102 [warning]" in passing.stdout + passing.stderr
