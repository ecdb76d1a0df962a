"""SL201 missing-no-name-rule, SL202 stale-no-name-rule and SL203 incomplete-no-name-rule: the
units that spawn subagents and the units that carry the no-name rule must be the same set (team
units, whose spawns are all teammates on purpose, are protected by SL101/SL102 instead)."""

from __future__ import annotations

from collections.abc import Iterator

from spawnlint.model import Edit, Finding, Fix, Location, Project, Sentence, Spawn, Unit, section_of
from spawnlint.parse.forms.rule_sentence import MECHANISM_CLAUSE, canonical_rule, states_team_exception

__all__ = ["canonical_rule", "incomplete_no_name_rule", "missing_no_name_rule", "stale_no_name_rule"]


def _insertion_key(unit: Unit) -> str:
    return f"mixed {unit.kind}" if unit.is_mixed else unit.kind


def _insertions(project: Project, unit: Unit, uncovered: tuple[Spawn, ...]) -> Fix | None:
    """The canonical sentence as its own paragraph before the block of the first spawn site —
    per section (scope section) or per site it would cover (scope lines:N) — or None when the
    configured matcher would not accept it."""
    sentence = project.rule_insertions.get(_insertion_key(unit))
    if sentence is None or unit.is_team:
        return None  # never the no-name sentence in a unit whose spawns are teammates on purpose
    scope, within = project.rule_scope
    targets = uncovered
    if scope == "unit":  # one sentence covers the unit: before its first site in a file we may edit
        targets = tuple(s for s in uncovered if _editable(project, s.site.path))[:1]
    edits: dict[tuple[str, int], Edit] = {}
    seen_sections: set[tuple[str, int]] = set()
    for spawn in targets:
        site = spawn.site
        parsed = project.files.get(site.path)
        headings = {s.start_line for s in parsed.sections if s.level} if parsed else set()
        if site.line in headings:  # the heading says to spawn: the sentence goes first under it
            if not site.block_line or site.block_line <= site.line:
                continue
            if scope == "lines" and site.block_line + site.block_joined - site.line > within:
                continue  # the sentence would land past the N lines that cover the heading
        elif not site.block_line or site.block_line > site.line or site.block_line in headings:
            continue  # no block, or a heading: a paragraph before it would leave its section
        if scope == "section":
            section = section_of(parsed.sections, site.line) if parsed else None
            key = (site.path, section.start_line if section else 0)
            if key in seen_sections:
                continue
            seen_sections.add(key)
        if scope == "lines" and site.line - site.block_line + 2 > within:
            continue  # a sentence before the block would not be within N lines of this site
        lead = "\n" if site.block_joined else ""  # a blank line after a heading or text right above
        edits[(site.path, site.block_line)] = Edit(
            site.path, site.block_line, 1, site.block_line, 1, "", f"{lead}{sentence}\n\n"
        )
    return Fix(tuple(edits.values()), safe=True) if edits else None


def _editable(project: Project, path: str) -> bool:
    parsed = project.files.get(path)
    return parsed is not None and parsed.editable


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
        spawns = "spawns subagents besides its teammates" if unit.is_mixed else "spawns agents"
        if first.via:
            spawns += f" (in `{first.via}`, which it follows)"
        key = _insertion_key(unit)
        if key in project.rule_insertions:
            add = f'add: "{project.rule_insertions[key]}"'
        else:
            add = (
                "add a sentence that the configured no-name-rule pattern matches (the canonical one does not)"
            )
        yield Finding(
            first.path,
            first.line,
            first.column,
            f'{unit.kind} "{_label(unit)}" {spawns} but {where}; {add}',
            tuple(related),
            _insertions(project, unit, uncovered),
        )


def stale_no_name_rule(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        if not unit.rule_sentences:
            continue
        path, sentence = unit.rule_sentences[0]
        if not unit.is_spawning:
            yield Finding(
                path,
                sentence.line,
                sentence.column,
                f'{unit.kind} "{_label(unit)}" carries the no-name rule but spawns no agent: remove the'
                " rule, or restore the spawn it was written for",
            )
        elif unit.is_team and not any(states_team_exception(s.text) for _p, s in unit.rule_sentences):
            yield Finding(
                path,
                sentence.line,
                sentence.column,
                f'{unit.kind} "{_label(unit)}" builds a team of named teammates, and its no-name rule'
                " contradicts them: spawn them without `name`, or state the rule's exception"
                ' ("spawn subagents (not teammates) without `name`"; teammates report with SendMessage)',
            )


def incomplete_no_name_rule(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        if not unit.partial_rules or not unit.is_spawning or unit.is_team:
            continue
        path, sentence = unit.partial_rules[0]
        yield Finding(
            path,
            sentence.line,
            sentence.column,
            f'{unit.kind} "{_label(unit)}" forbids `name` at its spawns but does not say why, so it reads'
            f" as a style preference: name the mechanism, e.g. add {MECHANISM_CLAUSE}",
            fix=_append_mechanism(path, sentence, project),
        )


def _append_mechanism(path: str, sentence: Sentence, project: Project) -> Fix | None:
    """The mechanism clause inside the sentence, before its closing punctuation (the rule is one
    sentence: a sentence after it would not complete it)."""
    if not _editable(project, path):
        return None
    last = sentence.text.rsplit("\n", 1)[-1]
    end = sentence.column + len(last) if "\n" not in sentence.text else len(last) + 1
    char = sentence.text[-1]
    if char in ".!?":
        edit = Edit(
            path, sentence.end_line, end - 1, sentence.end_line, end, char, f" {MECHANISM_CLAUSE}{char}"
        )
    else:
        edit = Edit(
            path, sentence.end_line, end - 1, sentence.end_line, end, char, f"{char} {MECHANISM_CLAUSE}"
        )
    return Fix((edit,), safe=True)


def _label(unit: Unit) -> str:
    """How a message names a unit: its path; a standalone skill (the root folder) by its SKILL.md."""
    return unit.id or unit.main_file
