"""SARIF for code scanning and annotations for GitHub: paths relative to the repository (not to
`--root`), fingerprints that survive moved lines, the column kind, and the log checked against
the SARIF 2.1.0 schema.

The official schema (OASIS, sarif-2.1/schema/sarif-schema-2.1.0.json of oasis-tcs/sarif-spec) is
published under the OASIS IPR policy, not an open-source licence, so it is not shipped here:
SARIF_SUBSET below restates, from that schema, the constraints on every object and property
spawnlint writes (additionalProperties false where the schema says so, required keys, enums,
minimums). With SPAWNLINT_SARIF_SCHEMA naming a copy of the official file, the same logs are
also validated against all of it."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import run_cli, write_project
from test_cli import PLUGIN

Make = Callable[[dict[str, str | bytes]], Path]

_MESSAGE = {"type": "object", "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}}}
_REGION = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        k: {"type": "integer", "minimum": 1} for k in ("startLine", "startColumn", "endLine", "endColumn")
    },
}
_ARTIFACT_LOCATION = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "uri": {"type": "string", "format": "uri-reference"},
        "uriBaseId": {"type": "string"},
        "description": _MESSAGE,
    },
}
_LOCATION = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "minimum": -1},
        "message": _MESSAGE,
        "physicalLocation": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"artifactLocation": _ARTIFACT_LOCATION, "region": _REGION},
        },
    },
}
_RULE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["id"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "shortDescription": _MESSAGE,
        "helpUri": {"type": "string", "format": "uri"},
        "help": _MESSAGE,
        "defaultConfiguration": {
            "type": "object",
            "properties": {"level": {"enum": ["none", "note", "warning", "error"]}},
        },
    },
}
SARIF_SUBSET: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["tool"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string", "format": "uri"},
                                    "rules": {"type": "array", "items": _RULE, "uniqueItems": True},
                                },
                            }
                        },
                    },
                    "originalUriBaseIds": {"type": "object", "additionalProperties": _ARTIFACT_LOCATION},
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["message"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": -1},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": _MESSAGE,
                                "locations": {"type": "array", "items": _LOCATION},
                                "relatedLocations": {
                                    "type": "array",
                                    "items": _LOCATION,
                                    "uniqueItems": True,
                                },
                                "partialFingerprints": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}

NESTED = {f"plugins/shop/{rel}": text for rel, text in PLUGIN.items()}


def _sarif(root: Path, *extra: str) -> dict[str, Any]:
    out = run_cli("check", "--root", str(root), "--output-format", "sarif", *extra).out
    data: dict[str, Any] = json.loads(out)
    return data


def _validate(log: dict[str, Any]) -> None:
    checker = jsonschema.Draft4Validator(SARIF_SUBSET, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in checker.iter_errors(log)]
    assert errors == []
    official = os.environ.get("SPAWNLINT_SARIF_SCHEMA")
    if official:
        schema = json.loads(Path(official).read_text("utf-8"))
        jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).validate(log)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A git repository whose plugin lives in plugins/shop, linted with --root plugins/shop."""
    write_project(tmp_path, NESTED)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    return tmp_path


def test_locations_are_relative_to_the_repository(repository: Path) -> None:
    log = _sarif(repository / "plugins" / "shop")
    _validate(log)
    (run,) = log["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repository.resolve().as_uri() + "/"
    (result,) = run["results"]
    where = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "plugins/shop/commands/review.md", "uriBaseId": "%SRCROOT%"}
    related = result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    assert related["uri"] == "plugins/shop/agents/critic.md"
    assert (repository / where["uri"]).is_file()


def test_github_annotations_name_repository_files(repository: Path) -> None:
    out = run_cli("check", "--root", str(repository / "plugins" / "shop"), "--output-format", "github").out
    assert out.startswith("::error file=plugins/shop/commands/review.md,line=7,col=37,")


def test_columns_are_code_points_as_the_run_says(project: Make) -> None:
    files = dict(PLUGIN)
    files["commands/review.md"] = files["commands/review.md"].replace("Agent(", "🔍 Agent(")
    log = _sarif(project(files))
    _validate(log)
    (run,) = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    line = files["commands/review.md"].splitlines()[region["startLine"] - 1]
    assert line[region["startColumn"] - 1 :].startswith('name: "critic-1"')  # a code point per column


def test_fingerprints_follow_a_finding_when_lines_move(project: Make) -> None:
    root = project(PLUGIN)
    before = _sarif(root)["runs"][0]["results"][0]
    review = root / "commands/review.md"
    review.write_text("# Review\n\nSome text added above.\n\n" + review.read_text().split("\n", 2)[2])
    after = _sarif(root, "--no-cache")["runs"][0]["results"][0]
    moved = after["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert moved != before["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert after["partialFingerprints"] == before["partialFingerprints"]
    assert list(after["partialFingerprints"]) == ["spawnlint/v1"]


def test_two_findings_on_identical_lines_get_distinct_fingerprints(project: Make) -> None:
    files = dict(PLUGIN)
    call = '```\nAgent(subagent_type: "shop:critic", name: "critic-1", prompt: "Review.")\n```\n'
    files["commands/review.md"] = files["commands/review.md"] + "\n" + call
    results = _sarif(project(files))["runs"][0]["results"]
    prints = [r["partialFingerprints"]["spawnlint/v1"] for r in results]
    assert len(prints) == 2 and len(set(prints)) == 2


def test_a_clean_run_and_every_rule_validate(project: Make) -> None:
    _validate(_sarif(project({"commands/x.md": "# Nothing here\n"})))


def test_the_subset_rejects_what_the_schema_rejects() -> None:
    """The subset is not vacuous: a wrong column kind, a zero line, an unknown result key fail."""
    good: dict[str, Any] = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}}]}],
    }
    _validate(good)
    for bad_run in (
        {"columnKind": "bytes"},
        {"results": [{"message": {"text": "m"}, "fingerprint": "x"}]},
        {
            "results": [
                {"message": {"text": "m"}, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}
            ]
        },
        {"results": [{"message": {"text": "m"}, "partialFingerprints": {"a": 1}}]},
    ):
        bad = json.loads(json.dumps(good))
        bad["runs"][0].update(bad_run)
        with pytest.raises(AssertionError):
            _validate(bad)
