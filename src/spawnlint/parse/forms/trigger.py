"""A form's trigger: the cheap necessary condition of its recogniser, built from the recogniser's
own patterns and word lists. Where no trigger fires, no recogniser can find anything: a body none
fires on gets no block parse, a block none fires on is not searched, and in a block only the forms
whose trigger fires run."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

# Letters a case-insensitive regex equates with ASCII ones (long s, Kelvin sign, dotless and
# dotted I): `taſk` matches `task` there, so text holding one fires every case-blind trigger.
FOLDING = "\u017f\u212a\u0131\u0130"


class Words:
    """Literals one of which a text holds, each found with `str.find`; a word of two (`kick off`)
    is there when both halves are and a search finds them with white space between."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(dict.fromkeys(words))
        single = [w for w in self.words if " " not in w]
        # a word that holds another is found whenever that one is (`teammate`, `team`)
        self._single = tuple(w for w in single if not any(v != w and v in w for v in single))
        self._phrase_words = tuple(w for w in self.words if " " in w)
        # no `\b` before the first word: a pattern that opens with its literal is searched for that
        # literal at C speed (`_bounded` asks for the boundary; "have the" is in every text)
        self._phrases = tuple(
            (w.split()[0], w.split()[-1], re.compile(r"\s+".join(map(re.escape, w.split())) + r"\b"))
            for w in self._phrase_words
        )
        # Most text holds no letter of another script (Japanese, Chinese, Korean, Russian): one
        # search for the first letters of those words spares half the searches there
        self._latin_single = tuple(w for w in self._single if _latin(w))
        self._latin_plain = tuple(w for w in single if _latin(w))
        self._latin_phrases = tuple(
            p for w, p in zip(self._phrase_words, self._phrases, strict=True) if _latin(w)
        )
        heads = sorted({w[0] for w in self.words if not _latin(w)})
        self._other_heads = re.compile(f"[{''.join(map(re.escape, heads))}]") if heads else None

    def _latin_only(self, text: str) -> bool:
        """Whether the text holds no word but those in Latin letters."""
        return self._other_heads is None or self._other_heads.search(text) is None

    def present(self, text: str) -> list[str]:
        """The words the text holds (a word that holds another counts as that one: use
        `found_in` for a yes or no)."""
        found = [
            w
            for w in (self._latin_plain if self._latin_only(text) else self.words)
            if " " not in w and w in text
        ]
        found += [
            w
            for w, (head, tail, pattern) in zip(self._phrase_words, self._phrases, strict=True)
            if head in text and tail in text and _first_bounded(pattern, text)
        ]
        return found

    def lines(self, lines: list[str], low: str) -> set[int]:
        """The 0-based lines holding (part of) one of the words; `low` is the lines joined with
        newlines and lower-cased. A few C-speed searches per word."""
        starts = [0]
        at = low.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = low.find("\n", at + 1)
        spans: list[tuple[int, int]] = []
        for word in self._latin_single if self._latin_only(low) else self._single:
            at = low.find(word)
            while at >= 0:
                spans.append((at, at + len(word)))
                at = low.find(word, at + 1)
        for head, tail, pattern in self._phrases:
            if head in low and tail in low:
                spans.extend(m.span() for m in pattern.finditer(low) if _bounded(low, m.start()))
        found: set[int] = set()
        for a, b in spans:
            found.update(range(bisect_right(starts, a) - 1, bisect_right(starts, max(a, b - 1))))
        return found

    def found_in(self, text: str) -> bool:
        if self._latin_only(text):
            return any(w in text for w in self._latin_single) or any(
                head in text and tail in text and _first_bounded(pattern, text)
                for head, tail, pattern in self._latin_phrases
            )
        return any(w in text for w in self._single) or any(
            head in text and tail in text and _first_bounded(pattern, text)
            for head, tail, pattern in self._phrases
        )


def _latin(word: str) -> bool:
    """Whether a word is written in Latin letters (accented ones included) and ASCII signs."""
    return all(ord(c) < 0x370 for c in word)


def _bounded(text: str, at: int) -> bool:
    """Whether a word starts at `at` (no letter, digit or `_` right before it)."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def _first_bounded(pattern: re.Pattern[str], text: str) -> bool:
    return any(_bounded(text, m.start()) for m in pattern.finditer(text))


@dataclass(frozen=True)
class Trigger:
    """Text can hold the form only if it holds one of `probes` (searched in the lower-cased text,
    or as written when not `any_case`) and then passes `test` (given the text, the lower-cased
    text and the paragraphs around offsets). `words` (lower-case; the probes when not given) are
    a coarser necessary condition: every text the form reads holds one of them in some case (the
    word test that decides whether a Python file or string is read at all)."""

    probes: tuple[str, ...]
    test: Callable[[str, str, Paragraphs], bool] | None = None
    any_case: bool = True
    words: tuple[str, ...] | None = None
    parts: tuple[Trigger, ...] = ()  # the triggers it is made of (`either`)

    def leaves(self) -> tuple[Trigger, ...]:
        """The triggers it is made of, down to those that are not made of others."""
        return tuple(leaf for part in self.parts for leaf in part.leaves()) if self.parts else (self,)

    @cached_property
    def _probes(self) -> Words:
        return Words(self.probes)

    @cached_property
    def word_test(self) -> Words:
        return Words(self.words if self.words is not None else (p.lower() for p in self.probes))

    def fires(self, text: str, low: str | None = None, paragraphs: Paragraphs | None = None) -> bool:
        if self.any_case:
            if any(c in text for c in FOLDING):
                return True  # a case-insensitive recogniser may read `ſpawn` as spawn
            low = text.lower() if low is None else low
            if not self._probes.found_in(low):
                return False
        elif not self._probes.found_in(text):
            return False
        return self.passes(text, low, paragraphs)

    def passes(self, text: str, low: str | None = None, paragraphs: Paragraphs | None = None) -> bool:
        """The test alone, on a text known to hold one of the probes."""
        if self.test is None:
            return True
        return self.test(text, text.lower() if low is None else low, paragraphs or Paragraphs(text))


class Probes:
    """The probes of several triggers, each searched once in a text: which of the triggers may
    fire on it (those whose probes it holds), before any of their tests runs."""

    def __init__(self, triggers: Iterable[Trigger]) -> None:
        self.triggers = tuple(dict.fromkeys(triggers))
        by_probe: dict[tuple[bool, str], set[int]] = {}
        for i, t in enumerate(self.triggers):
            for p in t.probes:
                by_probe.setdefault((t.any_case, p.lower() if t.any_case else p), set()).add(i)
        self._low = Words(p for any_case, p in by_probe if any_case)
        self._cased = Words(p for any_case, p in by_probe if not any_case)
        self._by_probe = {key: frozenset(ids) for key, ids in by_probe.items()}
        self._any_case = frozenset(i for i, t in enumerate(self.triggers) if t.any_case)

    def possible(self, text: str, low: str) -> frozenset[int]:
        """The indices (in `triggers`) of the triggers whose probes the text holds."""
        found: set[int] = set()
        if any(c in text for c in FOLDING):
            found.update(self._any_case)
        for probe in self._low.present(low):
            found.update(self._by_probe[(True, probe)])
        for probe in self._cased.present(text):
            found.update(self._by_probe[(False, probe)])
        return frozenset(found)


def either(*triggers: Trigger) -> Trigger:
    """The trigger of a pass that runs several forms: any of theirs."""

    def test(text: str, low: str, paragraphs: Paragraphs) -> bool:
        return any(t.fires(text, low, paragraphs) for t in triggers)

    probes = tuple(dict.fromkeys(p.lower() for t in triggers for p in t.probes))
    words = tuple(dict.fromkeys(w for t in triggers for w in t.word_test.words))
    return Trigger(probes, test, words=words, parts=triggers)


class Paragraphs:
    """The text between the blank lines around an offset (only an empty line counts as blank
    here, so this may be more than markdown's paragraph, never less): one search for the blank
    lines, then each question in log time (a line of 10,000 spawns asks 10,000 of them)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._breaks: list[int] | None = None

    def around(self, at: int) -> tuple[int, int]:
        if self._breaks is None:
            self._breaks = _blank_lines(self._text)
        before = bisect_right(self._breaks, at - 2) - 1  # a "\n\n" ending by `at`
        after = bisect_left(self._breaks, at)  # the first "\n\n" from `at` on
        start = self._breaks[before] + 1 if before >= 0 else 0
        return start, self._breaks[after] if after < len(self._breaks) else len(self._text)


def _blank_lines(text: str) -> list[int]:
    found = []
    at = text.find("\n\n")
    while at >= 0:
        found.append(at)
        at = text.find("\n\n", at + 1)
    return found


def line_end(text: str, at: int) -> int:
    ends = [e for e in (text.find("\n", at), text.find("\r", at)) if e >= 0]
    return min(ends) if ends else len(text)


def is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # the re module's \w


def word_at(low: str, start: int, end: int) -> bool:
    """Whether low[start:end] is a whole word (`\\b` on both sides)."""
    return (start == 0 or not is_word_char(low[start - 1])) and (
        end >= len(low) or not is_word_char(low[end])
    )
