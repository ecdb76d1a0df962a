"""Sentences that take a teammate's idle state, or the end of its turn, as its result (SL105)."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.parse.forms.vocabulary import AGENT_NOUNS, IDLE_SUBJECTS, alternation

# A teammate goes idle after every turn, and its idle notification carries no result: only what it
# sends with SendMessage does. These are the shapes in which instructions read idle as "done".
_WHO = rf"(?:{alternation((*AGENT_NOUNS, *IDLE_SUBJECTS), plural=True)}|teammate's)"
_DONE = (
    r"(?:done|finished|complete[ds]?|completion|its result|their results?|the result|results?|"
    r"final (?:answer|report|output)|output|findings|report|merge|synthesi[sz]e|aggregate|collect|gather)"
)
_PATTERNS = (
    # "when/once/after ... teammates ... idle ... done/collect/merge ..."
    re.compile(
        rf"\b(?:when|once|after|as soon as|if)\b[^.;:!?]{{0,80}}\b{_WHO}\b[^.;:!?]{{0,40}}"
        rf"\b(?:go|goes|going|gone|went|are|is|become|becomes|turn|turns|have gone|has gone)\s+idle\b"
        rf"[^.;!?]{{0,80}}\b{_DONE}",
        re.IGNORECASE,
    ),
    # "collect results once all teammates are idle"
    re.compile(
        rf"\b{_DONE}\b[^.;:!?]{{0,60}}\b(?:once|when|after|as soon as)\b[^.;:!?]{{0,40}}\b{_WHO}\b"
        rf"[^.;:!?]{{0,30}}\b(?:are|is|go|goes|have gone|has gone|went|become)\s+idle\b",
        re.IGNORECASE,
    ),
    # "treat the idle notification as the result", "idle means done", "an idle teammate has finished"
    re.compile(
        rf"\b(?:treat|take|count|read|consider)\b[^.;:!?]{{0,30}}\bidle\b[^.;:!?]{{0,30}}\bas\b[^.;:!?]{{0,30}}{_DONE}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bidle\b(?: notification| status| state)?\s+(?:means|indicates|signals|=|is a sign)\b"
        rf"[^.;:!?]{{0,40}}{_DONE}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bidle {_WHO}\s+(?:has|have|is|are)\s+(?:finished|done|complete[d]?)\b",
        re.IGNORECASE,
    ),
    # "when a teammate's turn ends, take that as its final answer"
    re.compile(
        rf"\b(?:when|once|after)\b[^.;:!?]{{0,40}}\b{_WHO}\b[^.;:!?]{{0,20}}\bturn\s+(?:ends|ended|is over)\b"
        rf"[^.;!?]{{0,80}}{_DONE}",
        re.IGNORECASE,
    ),
)
# Correct advice and hedges: "idle is not a result", "do not treat idle as done", "may have finished"
_NEGATION = lazy.compile(
    r"\b(?:not|never|no|don't|doesn't|isn't|aren't|cannot|can't|without|may|might|unless)\b|≠",
    re.IGNORECASE,
)
# A report is awaited: the instruction is about SendMessage reports, not idle states
_REPORT = lazy.compile(
    r"\bsend[_ ]?message\b|\breported\b|\bsent (?:its|their|a) (?:report|message)", re.IGNORECASE
)
_SENTENCE_END = lazy.compile(r"(?<=[.!?;])\s+|\n\s*\n|\n(?=\s*(?:[-*+|#>]|\d+[.)])\s)")
_TEAM_WORD = lazy.compile(rf"\b{_WHO}\b|\bidle[_ ]notification", re.IGNORECASE)


def idle_claims(lines: list[str], body_start: int) -> tuple[tuple[int, int], ...]:
    """(line, column) of each sentence of the body that reads idle, or a turn's end, as done."""
    body = "\n".join(lines[body_start:])
    if not _may_claim(body.lower()):
        return ()
    found: list[tuple[int, int]] = []
    for start, sentence in _sentences(body):
        if not any(p.search(sentence) for p in _PATTERNS):
            continue
        if not _TEAM_WORD.search(sentence) or _NEGATION.search(sentence) or _REPORT.search(sentence):
            continue
        offset = start + len(sentence) - len(sentence.lstrip())
        line = body.count("\n", 0, offset)
        column = offset - (body.rfind("\n", 0, offset) + 1) + 1
        found.append((body_start + line + 1, column))
    return tuple(found)


def _sentences(body: str) -> list[tuple[int, str]]:
    out = []
    start = 0
    for m in _SENTENCE_END.finditer(body):
        out.append((start, body[start : m.start()]))
        start = m.end()
    out.append((start, body[start:]))
    return [(s, t) for s, t in out if _may_claim(t.lower())]


def _may_claim(lowered: str) -> bool:
    """The cheap test: every pattern needs "idle" or a turn that ends ("return" is not one)."""
    return "idle" in lowered or "turn end" in lowered or "turn is over" in lowered
