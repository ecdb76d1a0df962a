"""action.yml, the composite GitHub Action: its shape, and its steps' commands run for real in a
temporary repository, with the inputs substituted as the runner does (through each step's env,
never into the script)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import REPO, write_project
from test_cli import PLUGIN

ACTION = yaml.safe_load((REPO / "action.yml").read_text("utf-8"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
_EXPRESSION = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _inputs(**given: str) -> dict[str, str]:
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values.update({k.replace("_", "-"): v for k, v in given.items()})
    return values


def _condition(step: dict[str, Any], inputs: dict[str, str]) -> bool:
    """The two conditions the action uses: `inputs.sarif == 'true'`, with or without always()."""
    condition = step.get("if", "")
    if not condition:
        return True
    assert condition in ("inputs.sarif == 'true'", "always() && inputs.sarif == 'true'"), condition
    return inputs["sarif"] == "true"


def _run_step(step: dict[str, Any], inputs: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    assert "${{" not in step["run"], "inputs reach a script only through env"
    env = dict(os.environ, GITHUB_ACTION_PATH=str(REPO), GITHUB_ACTIONS="true")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    for key, value in step.get("env", {}).items():
        env[key] = _EXPRESSION.sub(lambda m: inputs[m.group(1)], str(value))
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _repository(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    root = write_project(tmp_path / "repo", files)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def _run_action(root: Path, **given: str) -> list[tuple[str, subprocess.CompletedProcess[str] | None]]:
    """Every step after the install (spawnlint is installed here already), as the runner would."""
    inputs = _inputs(**given)
    out: list[tuple[str, subprocess.CompletedProcess[str] | None]] = []
    for step in STEPS[2:]:
        if not _condition(step, inputs):
            continue
        if "uses" in step:
            out.append((step["uses"], None))
            continue
        out.append((step["name"], _run_step(step, inputs, root)))
    return out


def test_the_action_is_composite_and_uploads_sarif_before_the_gate() -> None:
    assert ACTION["runs"]["using"] == "composite"
    uses = [s.get("uses", "") for s in STEPS]
    assert uses[0].startswith("actions/setup-python@") and "github/codeql-action/upload-sarif@v3" in uses
    assert STEPS[-1]["name"].startswith("Lint") and "--output-format github" in STEPS[-1]["run"]
    upload = next(s for s in STEPS if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["if"].startswith("always()") and upload["with"]["category"] == "spawnlint"
    for step in STEPS:
        assert step.get("shell", "bash") == "bash"


def test_the_steps_annotate_gate_and_write_valid_sarif(tmp_path: Path) -> None:
    root = _repository(tmp_path, PLUGIN)
    steps = dict(_run_action(root))
    sarif = steps["SARIF for code scanning"]
    assert sarif is not None and sarif.returncode == 0, sarif.stderr
    log = json.loads((root / "spawnlint.sarif").read_text())
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["SL101"]
    lint = steps["Lint (annotations on the pull request; errors fail the job)"]
    assert lint is not None and lint.returncode == 1
    assert lint.stdout.startswith("::error file=commands/review.md,line=7,col=37,")
    assert "github/codeql-action/upload-sarif@v3" in steps


def test_arguments_reach_spawnlint_and_a_clean_project_passes(tmp_path: Path) -> None:
    root = _repository(tmp_path, {**PLUGIN, "docs/x.md": "# x\n"})
    steps = dict(_run_action(root, args="--select SL2 --exit-zero", sarif="false"))
    assert list(steps) == ["Lint (annotations on the pull request; errors fail the job)"]
    lint = steps["Lint (annotations on the pull request; errors fail the job)"]
    assert lint is not None and (lint.returncode, lint.stdout) == (0, "")


def test_an_argument_is_never_expanded_as_a_glob(tmp_path: Path) -> None:
    root = _repository(tmp_path, PLUGIN)
    (root / "agents" / "c*").mkdir()  # unexpanded: this folder; expanded: agents/critic.md too
    steps = dict(_run_action(root, args="agents/c*", sarif="false"))
    lint = steps["Lint (annotations on the pull request; errors fail the job)"]
    assert lint is not None and lint.returncode == 0, (
        lint.stderr
    )  # the folder `x*` itself, not agents/critic.md


@pytest.mark.slow
def test_the_install_step_installs_the_action_checkout(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    step = STEPS[1]
    assert step["name"] == "Install spawnlint"
    env = dict(
        os.environ, GITHUB_ACTION_PATH=str(REPO), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"
    )
    env["SPAWNLINT_REQUIREMENT"] = ""
    run = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", step["run"]], env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert subprocess.run(
        [str(venv / "bin" / "spawnlint"), "-V"], capture_output=True, text=True, check=True
    ).stdout
