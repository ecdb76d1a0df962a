"""SL201 missing-no-name-rule and SL202 stale-no-name-rule: the units that spawn and the units
that carry the no-name rule must be the same set."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Finding, Location, Project


def canonical_rule(kind: str) -> str:
    """The sentence `--fix` inserts; it satisfies the default matcher."""
    return (
        "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an"
        f" `in_process_teammate`, whose final answer never returns to this {kind}."
    )


def missing_no_name_rule(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        uncovered = project.uncovered.get(unit.id, ())
        if not uncovered:
            continue
        first, rest = uncovered[0].site, uncovered[1:]
        related = [Location(s.site.path, s.site.line, s.site.column, "another spawn site") for s in rest]
        if unit.kind == "skill":
            related.append(Location(unit.main_file, 1, 1, "the skill's main file"))
        where = (
            "does not carry the no-name rule"
            if not unit.carries_rule
            else ("does not carry the no-name rule near this spawn site")
        )
        yield Finding(
            first.path,
            first.line,
            first.column,
            f'{unit.kind} "{unit.id}" spawns agents but {where}; add: "{canonical_rule(unit.kind)}"',
            tuple(related),
        )


def stale_no_name_rule(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        if unit.is_spawning or not unit.rule_sentences:
            continue
        path, sentence = unit.rule_sentences[0]
        yield Finding(
            path,
            sentence.line,
            sentence.column,
            f'{unit.kind} "{unit.id}" carries the no-name rule but spawns no agent: remove the'
            " rule, or restore the spawn it was written for",
        )
