"""A candidate that resolves to an agent of the project spawns that agent: the audit names the
unit among the agent's spawners (round-54 fixture: a Chinese sentence naming `PLANNER` in
capitals, a placeholder's shape until it resolves; an F1 call naming the agent by its file)."""

from __future__ import annotations

import json

from conftest import REPO, run_cli


def test_resolved_candidates_spawn_their_agents() -> None:
    run = run_cli(
        "audit",
        "--root",
        str(REPO / "tests" / "projects" / "round-54-shapes" / "project"),
        "--output-format",
        "json",
    )
    assert run.code in (0, 1), run.err
    spawned_by = {a["id"]: a["spawned_by"] for a in json.loads(run.out)["agents"]}
    assert spawned_by["planner"] == ["commands/plan-zh.md"]
    assert spawned_by["review-runner"] == ["skills/review"]
    assert "skills/review" not in spawned_by.get("general-purpose", [])
