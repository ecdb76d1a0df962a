"""SL104 and SL105: what a spawn hands back, and when its work counts as done (opt-in rules)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnlint import lazy
from spawnlint.model import Finding, Form, Project

# The forms that carry a spawn's prompt as a parameter (prose forms describe it, not give it)
_PROMPT_FORMS = frozenset({Form.F1, Form.F2, Form.F3, Form.F4, Form.F5, Form.F10})
_STRUCTURE = (
    re.compile(r"\b(?:json|yaml|toml|xml|schema|csv)\b", re.IGNORECASE),
    re.compile(r"\{[^{}]{0,200}?[\"'`]?[A-Za-z_][\w-]*[\"'`]?\s*:"),  # an object shape
    re.compile(r"\b(?:keys|fields|columns|sections|headings)\b", re.IGNORECASE),
    re.compile(
        r"\b(?:format|template|structure|schema)\s*:|\b(?:in|using|with) (?:this|the following) "
        r"(?:format|structure|shape|template)\b|\boutput format\b|\breport format\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*#{1,6}\s*(?:output|expected (?:outcome|output)|return|deliverables?|report|response)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    re.compile(r"^\s*\|?\s*:?-{3,}", re.MULTILINE),  # a table
    re.compile(
        r"\b(?:return|reply|respond|report|output|deliver|produce|emit)\w*\b[^.\n]{0,40}:\s*\n\s*"
        r"(?:[-*+]|\d+[.)])\s",
        re.IGNORECASE,
    ),
    # "a readiness report with: complexity scores, ...", "an EDA report with user segments, ..."
    re.compile(
        r"\b(?:report|document|summary|assessment|inventory|answer|result)\s+"
        r"(?:with|including|containing|covering)\b",
        re.IGNORECASE,
    ),
    # "Report back: what was done, results, any blockers."
    re.compile(
        r"\b(?:return|reply|respond|report|output|deliver|produce|emit)\w*\b[^.\n]{0,20}:[^.\n]+,[^.\n]+,",
        re.IGNORECASE,
    ),
)
# Two labelled slots after an output verb ("Report: Summary: ...; Findings: ...") also name fields;
# labels before it (`Brief: {phase1.output}`) are the prompt's inputs
_OUTPUT_VERB = lazy.compile(
    r"(?<![.\w])(?:return|report|respond|reply|output|produce|emit|deliver|end with)\w*\b", re.I
)
_LABEL = lazy.compile(r"(?:^|[\n;,(]\s*|\.\s+)(?:[-*+]\s+)?\**[A-Z][\w /-]{1,25}\**\s*:\s")
# A prompt spawnlint cannot see whole: only a placeholder, elided, or filled in from a template
_PLACEHOLDER_ONLY = lazy.compile(
    r"^\s*(?:\.\.\.|…|<[^<>]*>|\{[^{}]*\}|\[[^\[\]]*\]|\$\w+|\$\{[^}]*\})\s*$", re.DOTALL
)
_INSERTED = lazy.compile(
    r"\{\{?[^{}\n]*(?:template|prompt|instructions|context|contents?)[^{}\n]*\}\}?"
    r"|\[(?:insert|paste|substitut|see |include|full|the )[^\]\n]*\]"
    r"|<[^<>\n]*(?:template|prompt|instructions)[^<>\n]*>|<(?:paste|insert|include)\b[^<>\n]*>",
    re.IGNORECASE,
)

# A prompt parameter that describes the prompt rather than giving it ("Include the hypothesis and
# the scope", "The same reviewer prompt as in Path B", "see REFERENCE.md for the template")
_DESCRIBES = lazy.compile(
    r"^\W*(?:include|the same|the complete|the full|same as|as above|role-specific|template|"
    r"shape [a-z]\b|see\b|use the|pass\b|provide|contains?\b|instructions\b|clear task description)"
    r"|^\W*the\b[^.]{0,40}\b(?:spec|prompt|instructions|brief)\b"
    r"|\btemplate\b|\bas above\b|\bsee \S+\.md\b|\bprompt (?:used|from|in)\b"
    # its instructions live in a guide it is told to read (first, or to follow)
    r"|\bread\b[^\n]{0,80}\.md\b[^\n]{0,80}\bfollow\b|^\W*read\b[^\n]{0,80}\.md\b",
    re.IGNORECASE,
)


# A numbered list of deliverables, then "write your complete report as one document"
_NUMBERED = lazy.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
_WRITE_UP = lazy.compile(
    r"\b(?:write|return|produce|provide|deliver)\b[^.\n]{0,40}\b(?:report|document|summary|assessment)\b",
    re.IGNORECASE,
)


def asks_for_structure(prompt: str) -> bool:
    """The prompt asks for a shaped result: a data format, an object shape, named fields."""
    if any(p.search(prompt) for p in _STRUCTURE):
        return True
    if len(_NUMBERED.findall(prompt)) >= 2 and _WRITE_UP.search(prompt):
        return True
    verb = _OUTPUT_VERB.search(prompt)
    return verb is not None and len(_LABEL.findall(prompt, verb.start())) >= 2


def names_a_failure_slot(prompt: str, fields: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(f)}\b", prompt, re.IGNORECASE) for f in fields)


def _judgeable(prompt: str) -> bool:
    text = prompt.strip().strip("|").strip().strip("\"'").strip()
    if not text or _PLACEHOLDER_ONLY.match(text) or _INSERTED.search(text) or _DESCRIBES.search(text):
        return False
    if prompt.lstrip().startswith('"') and prompt.count('"') % 2:
        return False  # an opening quote the reader could not close: only a fragment was read
    # an elided prompt (the real one is longer), or a lead-in to the prompt shown below it
    return not text.endswith(("...", "…", ":"))


def result_contract(project: Project) -> Iterator[Finding]:
    slot = project.failure_fields[0] if project.failure_fields else "blockers"
    for spawn in project.spawns:
        site = spawn.site
        if site.form not in _PROMPT_FORMS or site.prompt is None or not _judgeable(site.prompt):
            continue
        line, column = site.prompt_at if site.prompt_at[0] else (site.line, site.column)
        if not asks_for_structure(site.prompt):
            yield Finding(
                site.path,
                line,
                column,
                "spawn prompt asks for no structured result: a prose answer cannot be branched on and "
                "an honest failure goes unsaid; ask for named fields with a slot for what went wrong, "
                f'e.g. "Return JSON: {{"summary": ..., "files": [...], "{slot}": [...]}}"',
            )
        elif not names_a_failure_slot(site.prompt, project.failure_fields):
            yield Finding(
                site.path,
                line,
                column,
                "spawn prompt asks for a structured result without a slot for what went wrong: "
                f'add a "{slot}" field (what stopped or failed; empty when nothing did)',
            )


def idle_is_not_done(project: Project) -> Iterator[Finding]:
    for path, parsed in project.files.items():
        for line, column in parsed.idle_claims:
            yield Finding(
                path,
                line,
                column,
                "reads a teammate's idle state as its result: a teammate goes idle after every turn and "
                "its idle notification carries no result; wait for the SendMessage report its prompt asks "
                "for, and take idle only as 'waiting for input'",
            )
