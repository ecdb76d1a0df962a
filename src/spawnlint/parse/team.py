"""What a markdown file says about building an agent team (SPEC §5, team units): the lines that
create one (TeamCreate, `team_name`, not negated) and the lines that speak of its members."""

from __future__ import annotations

import re

from spawnlint import lazy

_CREATES = lazy.compile(r"TeamCreate|\bteam_name\b")
# "No `team_name` — standalone dispatch", "Do NOT call `TeamCreate`": the other path of the unit
_NEGATED = lazy.compile(
    r"\b(?:no|not|never|without|omit\w*|skip\w*|don[’']?t|instead\s+of)\b[^.;!?]{0,60}?(?:TeamCreate|team_name)",
    re.IGNORECASE,
)
_MEMBERS = lazy.compile(r"\bteam(?:mates?|s)?\b|\bTeamCreate\b", re.IGNORECASE)
_STANDALONE = lazy.compile(
    r"\bstandalone\b|\bsub-?agents?\b|\bno\s+team\b|\bwithout\s+(?:a\s+)?team\b", re.IGNORECASE
)


def team_lines(lines: list[str], first: int = 0) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The 1-based lines (from index `first`) that create a team; that speak of a team or its
    teammates; and that call a spawn standalone or a subagent."""
    creates: list[int] = []
    members: list[int] = []
    standalone: list[int] = []
    low = "\n".join(lines[first:]).lower()
    if "team" not in low and "agent" not in low:
        return (), (), ()  # one search of the text, not one a line
    for j in range(first, len(lines)):
        line = lines[j]
        low = line.lower()
        if "agent" in low and _STANDALONE.search(line):
            standalone.append(j + 1)
        elif "team" in low and _MEMBERS.search(line):
            members.append(j + 1)
        if "team" in low and _CREATES.search(line) and not _NEGATED.search(line):
            creates.append(j + 1)
    return tuple(creates), tuple(members), tuple(standalone)
