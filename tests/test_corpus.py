"""The labelled corpus (tests/corpus): per-form precision and recall of the recogniser, and the
findings each snippet must produce. Any miss or false positive fails."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO, run_cli
from spawnlint.config import Settings
from spawnlint.engine import lint

CORPUS = REPO / "tests" / "corpus"
SNIPPETS = sorted(p.stem for p in CORPUS.glob("*.md") if p.name != "README.md")


def _labels(snippet: str) -> tuple[Counter[tuple[str, int, str, str]], Counter[tuple[str, int]]]:
    sites: Counter[tuple[str, int, str, str]] = Counter()
    findings: Counter[tuple[str, int]] = Counter()
    for raw in (CORPUS / f"{snippet}.labels").read_text("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] == "SITE":
            fields = dict(p.split("=", 1) for p in parts[3:])
            sites[(parts[1], int(parts[2]), fields["name"], fields["target"])] += 1
        elif parts[0] == "FINDING":
            findings[(parts[1], int(parts[2]))] += 1
        else:
            raise AssertionError(f"{snippet}.labels: cannot read {line!r}")
    return sites, findings


def _project(tmp: Path, snippet: str) -> Path:
    root = tmp / snippet
    shutil.copytree(CORPUS / "_project", root)
    (root / "commands").mkdir(exist_ok=True)
    shutil.copy(CORPUS / f"{snippet}.md", root / "commands" / f"{snippet}.md")
    return root


def _found(root: Path, snippet: str) -> tuple[Counter[tuple[str, int, str, str]], Counter[tuple[str, int]]]:
    result = lint(root, Settings())
    path = f"commands/{snippet}.md"
    sites: Counter[tuple[str, int, str, str]] = Counter()
    for spawn in result.project.spawns:
        s = spawn.site
        if s.path == path:
            name = s.name.value if s.name else "-"
            target = s.subagent_type.value if s.subagent_type else "-"
            sites[(s.form, s.line, name, target)] += 1
    run = run_cli("check", "--root", str(root), "--output-format", "json")
    findings = Counter((d["code"], d["line"]) for d in json.loads(run.out) if d["path"] == path)
    return sites, findings


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, object, object, object]]:
    tmp = tmp_path_factory.mktemp("corpus")
    out = {}
    for snippet in SNIPPETS:
        expected_sites, expected_findings = _labels(snippet)
        found_sites, found_findings = _found(_project(tmp, snippet), snippet)
        out[snippet] = (expected_sites, found_sites, expected_findings, found_findings)
    return out


def test_corpus_is_large_enough() -> None:
    assert len(SNIPPETS) >= 80


def test_precision_and_recall_per_form(results: dict[str, tuple[Counter, Counter, Counter, Counter]]) -> None:  # type: ignore[type-arg]
    true_pos: Counter[str] = Counter()
    false_pos: Counter[str] = Counter()
    false_neg: Counter[str] = Counter()
    problems = []
    for snippet, (expected, found, _ef, _ff) in results.items():
        for site, n in (found - expected).items():
            false_pos[site[0]] += n
            problems.append(f"{snippet}: unexpected site {site}")
        for site, n in (expected - found).items():
            false_neg[site[0]] += n
            problems.append(f"{snippet}: missed site {site}")
        for site, n in (expected & found).items():
            true_pos[site[0]] += n
    print("\nform  precision  recall   (tp/fp/fn)")
    for form in sorted(set(true_pos) | set(false_pos) | set(false_neg)):
        tp, fp, fn = true_pos[form], false_pos[form], false_neg[form]
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        print(f"{form:<5} {precision:9.3f} {recall:7.3f}   ({tp}/{fp}/{fn})")
    assert not problems, "\n".join(problems)


def test_findings_per_snippet(results: dict[str, tuple[Counter, Counter, Counter, Counter]]) -> None:  # type: ignore[type-arg]
    problems = []
    for snippet, (_es, _fs, expected, found) in results.items():
        for finding, n in (found - expected).items():
            problems.append(f"{snippet}: unexpected finding {finding} x{n}")
        for finding, n in (expected - found).items():
            problems.append(f"{snippet}: missed finding {finding} x{n}")
    assert not problems, "\n".join(problems)
