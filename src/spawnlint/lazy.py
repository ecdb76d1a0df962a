"""Regular expressions compiled when first used. The recognisers hold some 300 patterns, and
compiling them all was a third of a run that reads one changed file (about 40 ms), which uses a
quarter of them. Once compiled, a pattern's methods are its own attributes: a search costs what it
costs on a compiled pattern. A match's `.re` is the compiled pattern, never this object: a
pattern that code tells matches apart by (`m.re is X`) stays `re.compile`."""

from __future__ import annotations

import re
from typing import Any, cast

_MADE: list[_Lazy] = []  # every lazy pattern, for the test that compiles them all


class _Lazy:
    __slots__ = (
        "pattern",
        "_flags",
        "search",
        "match",
        "fullmatch",
        "finditer",
        "findall",
        "sub",
        "subn",
        "split",
        "scanner",
        "flags",
        "groups",
        "groupindex",
    )

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern  # read without compiling: patterns are built from other patterns
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        """Only an attribute not set yet comes here: compile, and set them all."""
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for attribute in _Lazy.__slots__[2:]:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy.compile({self.pattern!r}, {self._flags!r})"


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re.compile's name, on purpose
    """re.compile, deferred to the first search. A mistake in the pattern raises there."""
    made = _Lazy(pattern, flags)
    _MADE.append(made)
    return cast("re.Pattern[str]", made)


def compile_all() -> int:
    """Compile every lazy pattern made so far (a test's way to find a broken one); how many."""
    for made in _MADE:
        _ = made.search
    return len(_MADE)
