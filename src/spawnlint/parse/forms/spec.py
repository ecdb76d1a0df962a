"""What a spawn form declares (its code, trigger, removal edit and examples) and what its passes
over a markdown document read and return. The registry (`forms/registry.py`) runs the passes in
claim order."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from spawnlint.model import Edit, Form, Param
from spawnlint.parse.forms.trigger import FOLDING, Paragraphs, Probes, Trigger, Words
from spawnlint.parse.text import Block, FormExamples, RawSite, Structure

# The edits that delete a spawn's `name` (or `team_name`) parameter: (param, path, lines, the
# 1-based lines deleted along with it) -> edits, or () where the shape is not certain.
T = TypeVar("T")
Removal = Callable[[Param, str, list[str], frozenset[int]], tuple[Edit, ...]]


@dataclass(frozen=True)
class FormSpec:
    """One spawn form: its code, the cheap necessary condition of its recogniser (None: F9 lives in
    frontmatter, F10 in Python files, each read on its own path), the edit that removes a `name`
    from one of its sites (None: a fork has none) and its Fixit-style examples."""

    code: Form
    trigger: Trigger | None
    removal: Removal | None
    examples: tuple[FormExamples, ...]
    # whether its parameters have a syntax (a named site of it can be told in its prompt to report,
    # and its `team_name` removed); prose has none
    has_syntax: bool = True


@dataclass(frozen=True)
class Claims:
    """What the passes before this one have read, which it must not read again: 0-based lines,
    and (for the objects that stand inside a call's arguments) offsets in a block's text, by the
    block's first line."""

    lines: frozenset[int] = frozenset()
    spans: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Found:
    """What one pass found, and what it claims."""

    sites: tuple[RawSite, ...] = ()
    lines: frozenset[int] = frozenset()
    spans: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)


class Doc:
    """A markdown document as the passes read it: its structure, and each block's text, its
    lower-cased text and which triggers fire on it, each computed once. The probes of every
    trigger (`probes`) are searched once a block: a trigger whose probes the block lacks fires
    without a search of its own. With `gated` false every pass reads every block (the slow path
    the triggers must agree with)."""

    def __init__(self, structure: Structure, words: Words, probes: Probes, gated: bool = True) -> None:
        self.structure = structure
        self.gated = gated
        self._words = words
        self._probes = probes
        self._index = {id(t): i for i, t in enumerate(probes.triggers)}
        self._text: dict[Block, str] = {}
        self._low: dict[Block, str] = {}
        self._possible: dict[Block, frozenset[int]] = {}
        self._fired: dict[tuple[int, Block], bool] = {}
        self._cached: dict[str, object] = {}

    @property
    def lines(self) -> list[str]:
        return self.structure.lines

    def text(self, block: Block) -> str:
        text = self._text.get(block)
        if text is None:
            text = self._text[block] = "\n".join(self.structure.lines[block.start : block.end])
        return text

    def low(self, block: Block) -> str:
        low = self._low.get(block)
        if low is None:
            low = self._low[block] = self.text(block).lower()
        return low

    def fires(self, trigger: Trigger, block: Block) -> bool:
        """Whether the trigger fires on the block (a block without any form's word fires none)."""
        if not self.gated:
            return True
        key = (id(trigger), block)
        fired = self._fired.get(key)
        if fired is None:
            if trigger.parts:  # each part asked once a block, whichever composite asks
                fired = any(self.fires(part, block) for part in trigger.parts)
            elif block not in self.hot():
                fired = False
            else:
                text = self.text(block)
                i = self._index.get(key[0])
                if i is None:  # a trigger of no pass: its own probes
                    fired = trigger.fires(text, self.low(block), Paragraphs(text))
                elif trigger.any_case and any(c in text for c in FOLDING):
                    fired = True  # as Trigger.fires: `ſpawn` may read as spawn
                else:
                    fired = i in self._possible_in(block) and trigger.passes(
                        text, self.low(block), Paragraphs(text)
                    )
            self._fired[key] = fired
        return fired

    def _possible_in(self, block: Block) -> frozenset[int]:
        possible = self._possible.get(block)
        if possible is None:
            possible = self._possible[block] = self._probes.possible(self.text(block), self.low(block))
        return possible

    def hot(self) -> frozenset[Block]:
        """The blocks that hold a word of the word test: one search of the whole text for each
        word; no form reads a spawn in the others."""
        found = self._cached.get("hot")
        if found is None:
            lines = self.structure.lines
            text = "\n".join(lines)
            hot = self._words.lines(lines, text.lower())
            if any(c in text for c in FOLDING):
                hot = set(range(len(lines)))
            found = frozenset(
                b for b in self.structure.blocks if any(j in hot for j in range(b.start, b.end))
            )
            self._cached["hot"] = found
        return found  # type: ignore[return-value]

    def fires_on(self, trigger: Trigger, block: Block, text: str) -> bool:
        """The trigger on a text that starts with the block and runs on past it (a lead and its
        list), read where the block holds a word of the word test."""
        return not self.gated or (block in self.hot() and trigger.fires(text))

    def cached(self, key: str, compute: Callable[[], T]) -> T:
        """A fact of the whole document that several passes read, computed once."""
        if key not in self._cached:
            self._cached[key] = compute()
        return self._cached[key]  # type: ignore[return-value]

    def blocks(self, trigger: Trigger, kinds: tuple[str, ...] | None = None) -> list[Block]:
        """The blocks (of these kinds) the trigger fires on, in order."""
        hot = self.hot() if self.gated else frozenset(self.structure.blocks)
        return [
            b
            for b in self.structure.blocks
            if b in hot and (kinds is None or b.kind in kinds) and self.fires(trigger, b)
        ]


@dataclass(frozen=True)
class Pass:
    """One reading of a document in claim order: the forms it yields, its trigger (where it does
    not fire, it finds nothing) and the reading itself."""

    name: str
    forms: tuple[Form, ...]
    trigger: Trigger
    find: Callable[[Doc, Claims], Found]
