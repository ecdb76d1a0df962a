"""SL301 unknown-subagent-type and SL302 spawn-tool-disallowed."""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from spawnlint.model import Finding, Location, Project, Severity, ValueKind


def unknown_subagent_type(project: Project) -> Iterator[Finding]:
    lowered: dict[str, str] = {}
    close_to: Callable[[str], list[str]] | None = None  # made for the first unknown target only
    hints: dict[str, list[str]] = {}  # one fuzzy search per distinct value
    own = project.own_namespaces
    for spawn in project.spawns:
        target = spawn.site.subagent_type
        if target is None or spawn.target.status != "unknown" or target.kind is not ValueKind.LITERAL:
            continue
        if spawn.site.confidence != "high":
            continue  # an agent named in prose ("spawn a reviewer") is never a target to check
        if close_to is None:
            lowered = {alias: agents[0].id for alias, agents in project.agent_index.items()}
            close_to = _suggester(list(lowered))
        value = target.value.lower()
        if value not in hints:
            hints[value] = close_to(value)
        close = hints[value]
        ids = list(dict.fromkeys(lowered[c] for c in close))[:3]
        hint = " or ".join(f'"{i}"' for i in ids)
        suggestion = (
            f"; did you mean {hint}?"
            if close
            else ("; define the agent, fix the name, or list it under `agents` in the configuration")
        )
        line, column = target.value_position
        namespace, colon, _name = value.partition(":")
        if colon and namespace in own:  # `shop:critic` in plugin shop: deleted or renamed
            yield Finding(
                spawn.site.path,
                line,
                column,
                f'subagent_type "{target.value}" names plugin "{namespace}" of this project, but none'
                f" of its agents matches (deleted, renamed or misspelt){suggestion}",
                severity=Severity.ERROR,
            )
            continue
        yield Finding(
            spawn.site.path,
            line,
            column,
            f'subagent_type "{target.value}" matches no agent of the project, no built-in agent'
            f" and no configured external agent{suggestion}",
        )


# Above this many aliases, comparing a value with every one (difflib, ~2 us each) makes the
# rule quadratic: 500 unknown targets in a 10,000-file marketplace took 13 s.
_EXHAUSTIVE_ALIASES = 2000
_FALLBACK = 200  # aliases compared when the value's plugin holds no agent of a close name


def _suggester(aliases: list[str]) -> Callable[[str], list[str]]:
    """Aliases close to a value: every alias compared in a small project; in a large one the
    agent names first (few distinct ones, however many plugins repeat them), then the aliases
    that end in a close name, in the value's own plugin when it has one."""
    import difflib  # here: most runs have no unknown target to find a hint for

    if len(aliases) <= _EXHAUSTIVE_ALIASES:
        nearest = _gram_index(aliases)
        return lambda value: difflib.get_close_matches(value, nearest(value), n=6, cutoff=0.6)
    ending: dict[str, list[str]] = defaultdict(list)  # name -> every alias ending in it
    bare: dict[str, list[str]] = defaultdict(list)  # name -> the aliases without a namespace
    scoped: dict[tuple[str, str], list[str]] = defaultdict(list)  # (name, namespace) -> aliases
    for alias in aliases:
        namespace, colon, name = alias.rpartition(":")
        ending[name].append(alias)
        if colon:
            scoped[(name, namespace)].append(alias)
        else:
            bare[name].append(alias)
    names = list(ending)
    near_names: dict[str, list[str]] = {}  # one search per name part: p1:critc and p2:critc share it

    def close_to(value: str) -> list[str]:
        namespace, _, name = value.rpartition(":")
        if name not in near_names:
            near_names[name] = difflib.get_close_matches(name, names, n=6, cutoff=0.6)
        near = near_names[name]
        # the value's own plugin (and bare names) first: a name repeated by many plugins would
        # otherwise put thousands of aliases back in
        local = [a for n in near for a in scoped.get((n, namespace), ())]
        if local or not namespace:
            pool = [a for n in near for a in bare.get(n, ())] + local
        else:
            pool = sorted(a for n in near for a in ending[n])[:_FALLBACK]
        # distinct aliases, ranked by (score, alias): the pool's order does not change the answer
        return difflib.get_close_matches(value, pool, n=6, cutoff=0.6)

    return close_to


_CANDIDATES = 100  # aliases difflib compares per unknown value: those most like it by bigrams


def _gram_index(aliases: list[str]) -> Callable[[str], list[str]]:
    """The aliases most like a value by their bigrams (padded, so a prefix counts; ranked by
    Dice's coefficient, as difflib ranks by matching characters), at most _CANDIDATES of them:
    difflib (about 5 us an alias) then compares a bounded few, not every alias. A name close
    enough for a hint shares most of its bigrams with the value; the counting is C code."""
    postings: dict[str, list[int]] = defaultdict(list)
    sizes = []
    for number, alias in enumerate(aliases):
        grams = _grams(alias)
        sizes.append(len(grams))
        for gram in grams:
            postings[gram].append(number)

    def nearest(value: str) -> list[str]:
        grams = _grams(value)
        counts: Counter[int] = Counter()
        for gram in grams:
            counts.update(postings.get(gram, ()))
        best = heapq.nlargest(
            _CANDIDATES, counts.items(), key=lambda item: (item[1] / (len(grams) + sizes[item[0]]), -item[0])
        )
        return [aliases[number] for number, _ in best]

    return nearest


def _grams(text: str) -> set[str]:
    """The padded bigrams of a value and of its last `:` part (`p1:scout` shares ` s` with
    `scuot`): pairs, not triples, so that a transposition (`scout`, `scuot`) still shares some."""
    grams: set[str] = set()
    for part in {text, text.rpartition(":")[2]}:
        padded = f" {part} "
        grams.update(padded[i : i + 2] for i in range(len(padded) - 1))
    return grams


def spawn_tool_disallowed(project: Project) -> Iterator[Finding]:
    for unit in project.units:
        tools = unit.disallowed_tools
        if tools is None or not unit.is_spawning:
            continue
        removed = [t for t in ("Agent", "Task") if tools.includes(t)]
        if not removed:
            continue
        first = unit.spawning_sites[0].site
        yield Finding(
            unit.main_file,
            tools.line,
            1,
            f'{unit.kind} "{unit.id}" spawns agents but its disallowed-tools removes'
            f" {' and '.join(removed)}: the spawn cannot run; remove {removed[0]} from"
            " disallowed-tools or drop the spawn",
            (Location(first.path, first.line, first.column, "spawn site"),),
        )
