"""The default matcher of the no-name rule sentence (SPEC §5)."""

from __future__ import annotations

import re

_NAME = re.compile(r"\bname\b", re.IGNORECASE)
_SPAWN = re.compile(r"\b(?:agent|task|sub-?agent)s?\b|\bspawn", re.IGNORECASE)
_FORBID = re.compile(
    r"\b(?:never|do\s+not|don[’']?t|must\s+not|mustn[’']?t|without|omit\w*)\b", re.IGNORECASE
)
_MECHANISM = re.compile(r"in_process_teammate", re.IGNORECASE)


def is_rule_sentence(text: str, require_mechanism: bool = True) -> bool:
    """A sentence that states the no-name rule: it mentions the `name` parameter, forbids it,
    refers to the Agent/Task tool or to spawning, and (by default) names the mechanism."""
    return bool(
        _NAME.search(text)
        and _FORBID.search(text)
        and _SPAWN.search(text)
        and (not require_mechanism or _MECHANISM.search(text))
    )


def canonical_rule(kind: str) -> str:
    """The sentence `--fix` inserts; it satisfies the default matcher."""
    return (
        "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an"
        f" `in_process_teammate`, whose final answer never returns to this {kind}."
    )
