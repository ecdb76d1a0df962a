"""The registry of the spawn forms of SPEC §3 (one module each: f1_call.py ... f10_python.py), and
what runs them. Word lists live in vocabulary.py, the grammar the prose forms share in prose.py (and
languages.py), the parameter syntax the structured forms share in syntax.py, removal edits in
removal.py.

Claim order. One spawn yields one site, whichever forms could read it: the passes below run in
this order, and each reads only what the passes before it did not claim (the lines of their sites;
for F3, also the spans of F1 calls, whose arguments hold objects). Then the prose that introduces
a structured spawn right below it ("Spawn the critic:" before the call) is claimed as part of that
spawn. Then list leads (a team lead, F8, before a spawn lead, F7) and last each sentence (team
prose, F8, before F6; English before other languages).

Triggers. Each form's trigger is the cheap necessary condition of its recogniser, built from the
recogniser's own patterns and words. A markdown body without any of their words
(`has_spawn_word`) is spared the block parse, and a Python string none fires on (`could_yield`)
is not read; in a block, only the passes whose trigger fires run."""

from __future__ import annotations

from bisect import bisect_right

from spawnlint.model import Form, SpawnSite
from spawnlint.parse.forms import (
    f1_call,
    f2_block,
    f3_object,
    f4_param_bullets,
    f5_inline,
    f6_prose,
    f7_list,
    f8_team,
    f9_fork,
    f10_python,
    prose_passes,
    removal,
    rule_sentence,
)
from spawnlint.parse.forms.prose import agents_are_processes
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.trigger import FOLDING, Paragraphs, Probes, Trigger, Words
from spawnlint.parse.text import Block, FormExamples, RawSite, Structure

SPECS: dict[Form, FormSpec] = {
    spec.code: spec
    for spec in (
        f1_call.SPEC,
        f2_block.SPEC,
        f3_object.SPEC,
        f4_param_bullets.SPEC,
        f5_inline.SPEC,
        f6_prose.SPEC,
        f7_list.SPEC,
        f8_team.SPEC,
        f9_fork.SPEC,
        f10_python.SPEC,
    )
}

# The passes over a markdown document, in claim order (see above).
STRUCTURED: tuple[Pass, ...] = (
    f1_call.CALLS,
    f3_object.OBJECTS,
    f2_block.BLOCKS,
    f4_param_bullets.BULLETS,
    f7_list.TABLES,
    f5_inline.SPANS,
)
PROSE: tuple[Pass, ...] = (
    prose_passes.leads(((f8_team.TRIGGER, f8_team.list_spawns), (f7_list.LIST_TRIGGER, f7_list.list_spawns))),
    f7_list.STEPS,
    f6_prose.PROMPT_LEADS,
    f6_prose.AGENT_LABELS,
    prose_passes.SENTENCES,
    prose_passes.HEADINGS,
)
PASSES = (*STRUCTURED, *PROSE)

EXAMPLES: tuple[FormExamples, ...] = tuple(e for spec in SPECS.values() for e in spec.examples)

# What can make a markdown body worth the block parse: a spawn of some form, or a no-name rule
# sentence of the default matcher (each trigger once, those made of others taken apart).
_BODY_TRIGGERS: tuple[Trigger, ...] = tuple(
    dict.fromkeys(leaf for t in (*(p.trigger for p in PASSES), rule_sentence.TRIGGER) for leaf in t.leaves())
)
_BODY_PROBES = Probes(_BODY_TRIGGERS)
# The word test: every text any form reads holds one of these words, in some case.
_WORDS = Words(w for t in _BODY_TRIGGERS for w in t.word_test.words)


def document(structure: Structure, gated: bool = True) -> Doc:
    """The document the passes read. Without `gated`, every pass reads every block: the slow
    path the triggers must agree with."""
    return Doc(structure, _WORDS, _BODY_PROBES, gated)


def find_sites(doc: Doc) -> list[RawSite]:
    """The raw spawn sites of a markdown document, each spawn once (claim order above)."""
    structure = doc.structure
    sites: list[RawSite] = []
    claims = Claims()
    for step in STRUCTURED:
        claims = _claim(claims, step.find(doc, claims), sites)
    introductions = frozenset(
        line
        for block in _introductions(structure, {s.line for s in sites})
        for line in range(block.start, block.end)
    )
    claims = Claims(claims.lines | introductions, claims.spans)
    for step in PROSE:
        claims = _claim(claims, step.find(doc, claims), sites)
    if any(_read_in_prose(s) for s in sites) and agents_are_processes("\n".join(structure.lines)):
        # "## Spawn New Agents" over `ccgram msg spawn …` where each agent runs in a tmux window
        return [s for s in sites if not _read_in_prose(s)]
    return sites


def _read_in_prose(site: RawSite) -> bool:
    """A site that prose alone gives: a sentence (F6) or a bullet under a spawn sentence (F7)."""
    return site.form is Form.F6 or (site.form is Form.F7 and site.confidence == "medium")


def _claim(claims: Claims, found: Found, sites: list[RawSite]) -> Claims:
    sites.extend(found.sites)
    return Claims(claims.lines | found.lines, {**claims.spans, **found.spans})


def _introductions(structure: Structure, site_lines: set[int]) -> list[Block]:
    """Paragraphs that introduce a structured spawn right below them (`Spawn the critic:` and
    then the call): the same spawn, so their prose is not a second site."""
    leads = []
    list_leads = {lead.start for lead, _items in structure.leads}
    ordered = sorted(structure.blocks, key=lambda b: b.start)
    starts = [b.start for b in ordered]
    for block in (b for b in ordered if b.kind == "paragraph"):
        nxt = block.end
        while nxt < len(structure.lines) and not structure.lines[nxt].strip():
            nxt += 1
        # the block holding line nxt (a fence's text starts a line after its opening marker)
        k = bisect_right(starts, nxt + 1) - 1
        following = ordered[k] if k >= 0 and ordered[k].end > nxt else None
        if following is None or following is block:
            continue
        introduces = (
            structure.lines[block.end - 1].rstrip().endswith(":")
            or following.kind != "paragraph"
            or block.start in list_leads
        )
        if not introduces:
            continue  # "3. Spawn a `team-lead` agent" before "4. Use the Agent tool:" is its own spawn
        if any(line in site_lines for line in range(following.start - 1, following.end)):
            leads.append(block)
    return leads


def could_yield(body: str) -> bool:
    """Whether a text (a Python string read as markdown) could hold a spawn site, or a sentence the
    default no-name rule matcher accepts (a custom pattern may match anything: not asked then):
    some trigger fires."""
    if any(c in body for c in FOLDING):
        return True  # a case-insensitive recogniser may read `ſpawn` as spawn
    low = body.lower()
    paragraphs = Paragraphs(body)
    possible = _BODY_PROBES.possible(body, low)
    return any(
        t.test is None or t.test(body, low, paragraphs)
        for i, t in enumerate(_BODY_PROBES.triggers)
        if i in possible
    )


def has_spawn_word(text: str) -> bool:
    """Whether the text holds, in any case, a word some trigger looks for first: whether any
    recogniser could read it at all."""
    if any(c in text for c in FOLDING):
        return True
    return _WORDS.found_in(text.lower())


def rule_blocks(doc: Doc) -> list[Block]:
    """The blocks that could hold a no-name rule sentence of the default matcher."""
    return doc.blocks(rule_sentence.TRIGGER)


def with_removals(site: SpawnSite, lines: list[str]) -> SpawnSite:
    """The site with the edits that delete its `name` (and `team_name`), by its form's removal,
    and where it is named, the edit that tells it in its prompt to report with SendMessage."""
    spec = SPECS[site.form]
    return removal.apply(site, lines, spec.removal, spec.has_syntax)
