"""The passes that read prose, in claim order: each list lead with its bullets (the first of the
lead forms that reads it), then each sentence (the first of the sentence forms that reads it:
team prose F8 before F6, English before other languages). Text inside `<example>` dialogues,
YAML lines of a fence and the no-name rule sentence itself spawn nothing."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from spawnlint import lazy
from spawnlint.model import Form, Sentence
from spawnlint.parse.forms import f6_prose, f8_team, languages, vocabulary
from spawnlint.parse.forms.counter_examples import example_lines, opens_a_document
from spawnlint.parse.forms.prose import ProseSpawn, describes_a_row, names_the_tool, no_instruction
from spawnlint.parse.forms.rule_sentence import is_rule_sentence
from spawnlint.parse.forms.spec import Claims, Doc, Found, Pass
from spawnlint.parse.forms.syntax import param_at
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, either
from spawnlint.parse.text import (
    LIST_ITEM,
    Block,
    LineIndex,
    RawSite,
    block_sentences,
    previous_nonblank,
    split_sentences,
)

SentenceForm = tuple[Trigger, Callable[[str], list[ProseSpawn]]]
# A sentence is read by the first of these that finds a spawn in it.
SENTENCE_FORMS: tuple[SentenceForm, ...] = (
    (f8_team.TRIGGER, f8_team.sentence_spawns),
    (f6_prose.TRIGGER, f6_prose.sentence_spawns),
    (languages.TRIGGER, languages.foreign_spawns),
)


def sentence_spawns(text: str, forms: tuple[SentenceForm, ...] = SENTENCE_FORMS) -> list[ProseSpawn]:
    """The spawns the first sentence form that reads the text finds in it."""
    if no_instruction(text):
        return []
    for _trigger, spawns_in in forms:
        found = spawns_in(text)
        if found:
            return found
    return []


# Prose in a fence is an instruction quoted for the lead ("send it this verbatim"); a markdown
# fence holds an example document, and a fence after "For example:" a sample to read.
_PROSE_FENCES = frozenset({"", "text", "txt", "prompt", "plaintext"})
_EXAMPLE_LEAD = lazy.compile(
    r"\b(?:for\s+example|e\.g\.|example|sample|for\s+instance|such\s+as|you\s+can\s+(?:say|type|ask)"
    r"|tell\s+claude|ask\s+claude|natural\s+language)\b",
    re.IGNORECASE,
)
_SENTENCE_TRIGGER = either(*(trigger for trigger, _ in SENTENCE_FORMS), f6_prose.MENTION_TRIGGER)


def _sentences(doc: Doc, claims: Claims) -> Found:
    """F6 and F8 sentences, in text outside what the passes before claimed (and in a prompt
    written in XML-like tags, which markdown reads as HTML or code)."""
    lines = doc.lines
    examples = doc.cached("example lines", lambda: example_lines(lines))
    skip = claims.lines | examples | doc.cached("offered", lambda: _offered_items(doc))
    sites: list[RawSite] = []
    for block in doc.blocks(_SENTENCE_TRIGGER, ("paragraph", "fence")):
        if block.kind == "fence" and not _quoted_instruction(doc, block):
            continue
        forms = tuple(form for form in SENTENCE_FORMS if doc.fires(form[0], block))
        may_name = doc.fires(f6_prose.MENTION_TRIGGER, block)
        example_after = block.kind == "paragraph" and _introduces_an_example(lines, block)
        shell_after = block.kind == "paragraph" and _introduces_a_command_line(lines, block)
        if block.kind == "paragraph" and _done_by_another(lines, block.start):
            continue  # "After this command completes, the workflow engine will:" and its steps
        if block.kind == "paragraph" and _QUOTATION.match(doc.text(block)):
            continue  # > "My workflow at the end of a run: Launch review subagents." (someone's words)
        if block.kind == "paragraph" and _COMPARED.match(doc.text(block)):
            continue  # "**Skills vs subagents**: … use subagents when you need isolation" (a guide)
        for sentence in block_sentences(doc.structure, block):
            if example_after and sentence.end_line == block.end:
                continue  # "Launch plugin agents for complex tasks:" and an example command file
            if shell_after and sentence.end_line == block.end and sentence.text.rstrip(" *_").endswith(":"):
                continue  # "2. Spawn the agent:" over `bun Tools/SpawnAgent.ts …`
            if block.kind == "fence" and re.match(r"^[\w-]+:\s", sentence.text):
                continue  # a YAML line in a fence, not an instruction
            if sentence.column > 1 and describes_a_row(lines[sentence.line - 1]):
                continue  # "| `review` | After a diff exists. Dispatches a reviewer. |": the skill's
            sites.extend(_sentence_sites(sentence, block, skip, forms, may_name))
    for block, blanked in doc.cached("xml prose", lambda: _xml_prose(doc)).items():
        text = "\n".join(blanked)
        if not doc.fires_on(_SENTENCE_TRIGGER, block, text):  # on the words, not the tags
            continue
        forms = tuple(form for form in SENTENCE_FORMS if doc.fires_on(form[0], block, text))
        may_name = doc.fires_on(f6_prose.MENTION_TRIGGER, block, text)
        for sentence in block_sentences(doc.structure, block, [""] * block.start + blanked):
            sites.extend(_sentence_sites(sentence, block, skip, forms, may_name))
    return Found(tuple(sites))


# A blockquote that is all one quotation, perhaps with its source after it: words quoted, not said
_QUOTATION = lazy.compile(
    r"\s*>\s*[\"“](?:[^\"“”]|\n\s*>\s*)*[\"”]\s*(?:(?:\n\s*>)?\s*[—–-]{1,2}\s*[^\n]{0,80})?\s*$"
)


# A paragraph under a bold label that sets agents against something else: it tells when to choose
# which ("**Skills 与子代理**：…当你需要隔离时使用子代理"), it starts none
_FOREIGN_SUBAGENTS = tuple(n for language in vocabulary.LANGUAGES for n in language.subagent_nouns)
_AGENTS_NAMED = vocabulary.alternation((*vocabulary.CORE_AGENT_NOUNS, *_FOREIGN_SUBAGENTS), plural=True)
_COMPARED = lazy.compile(
    r"\s*(?:[-*]\s+)?\*\*(?=[^*\n]{0,60}?" + _AGENTS_NAMED + r")[^*\n]{1,60}?"
    r"(?:\s+(?:vs\.?|versus)\s+|\s*(?:与|與|対|對)\s*)[^*\n]{1,60}\*\*\s*[:：]",
    re.IGNORECASE,
)


# The lead of a list of answers the user may pick ("Options:", "**Choices**:"): an option that
# says "spawn subagent for verification" is offered, not done
_OFFERS = lazy.compile(
    r"\s*(?:[-*]\s+)?(?:\*\*)?(?:options?|choices?|answers?)(?:\*\*)?\s*:\s*(?:\*\*)?\s*$", re.IGNORECASE
)


def _offered_items(doc: Doc) -> frozenset[int]:
    """The 0-based lines of the items of a list of options."""
    return frozenset(
        line
        for lead, items in doc.structure.leads
        if _OFFERS.match(doc.text(lead))
        for start, end in items
        for line in range(start, end)
    )


def _sentence_sites(
    sentence: Sentence,
    block: Block,
    skip: frozenset[int] | set[int],
    forms: tuple[SentenceForm, ...],
    may_name: bool,
) -> list[RawSite]:
    if any(j - 1 in skip for j in range(sentence.line, sentence.end_line + 1)):
        return []
    which = tuple(form in forms for form in SENTENCE_FORMS)  # forms are some of SENTENCE_FORMS
    spawns, candidates = _read_sentence(sentence.text, which, may_name)
    return _sites(sentence, list(spawns), block, candidate=candidates)


@functools.lru_cache(maxsize=1 << 15)
def _read_sentence(text: str, which: tuple[bool, ...], may_name: bool) -> tuple[tuple[ProseSpawn, ...], bool]:
    """What a sentence spawns (read by the SENTENCE_FORMS `which` marks), and whether those are
    candidates (agents named plainly). A function of its words alone, so read once however often
    the words recur: boilerplate repeats across a repository's commands (57% and 75% of the
    sentences of two public repositories were read before in the same run)."""
    forms = tuple(form for form, on in zip(SENTENCE_FORMS, which, strict=True) if on)
    if is_rule_sentence(text, require_mechanism=False):
        return (), False  # the no-name rule itself ("spawn agents without `name`") is no spawn
    found = sentence_spawns(text, forms)
    if found:
        return tuple(found), False
    if may_name and not no_instruction(text, diagrams=False):
        return tuple(f6_prose.mentions(text)), True
    return (), False


# A prompt written in XML-like tags: `<step id="1">`, `<action>Launch the x agent.</action>`. Markdown
# reads such lines as an HTML block, and the lines indented under them past a blank line as code;
# the model reads their words. Not a comment, a script, a style or preformatted text.
_XML_TAG = lazy.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>\n]*)?/?>")
_NOT_PROSE_HTML = lazy.compile(r"\s*<(?:!|\?|script\b|style\b|pre\b|textarea\b)", re.IGNORECASE)


# A code block that opens with a sentence: steps indented four spaces under a list item that
# markdown closed early (a line of a fence inside it indented less), which the model reads as text
# (five words of letters first, and a sentence's full stop at the end of a line: not an output
# sample such as "Level 0: tasks 01-08 — DELEGATE, 6 agents")
_SENTENCE_OPENING = lazy.compile(
    r"\s*(?:\d+[.)]\s+|[-*]\s+)?(?:\*\*)?[A-Z][a-z]+(?:\*\*)?,?(?:\s+[A-Za-z][a-z'-]*,?){4}"
)
_FULL_STOP = lazy.compile(r"[a-z)`*][.!]\s*$", re.MULTILINE)
_FENCE_MARK = lazy.compile(r"\s*(?:`{3,}|~{3,})")


def _xml_prose(doc: Doc) -> dict[Block, list[str]]:
    """The HTML blocks of a prompt written in tags, the code blocks indented under a tag, and the
    code blocks that open with a sentence, each as its lines with the tags blanked out (the columns
    kept; in a block of sentences, what its own fences hold is blanked too)."""
    lines = doc.lines
    found: dict[Block, list[str]] = {}
    for block in doc.structure.blocks:
        sentences = False
        if block.kind == "html":
            if _NOT_PROSE_HTML.match(lines[block.start]):
                continue
        elif block.kind == "code":
            first = lines[block.start].lstrip()
            above = previous_nonblank(lines, block.start - 1, 0)
            if not (
                (first.startswith("<") and _XML_TAG.match(first))
                or (above is not None and _XML_TAG.fullmatch(lines[above].strip()))
            ):
                text = "\n".join(lines[block.start : block.end])
                if not (_SENTENCE_OPENING.match(first) and _FULL_STOP.search(text)):
                    continue
                sentences = True
        else:
            continue
        blanked = [
            _XML_TAG.sub(lambda m: " " * len(m.group()), lines[j]) for j in range(block.start, block.end)
        ]
        if sentences:
            inside = False
            for i, line in enumerate(blanked):
                fence = _FENCE_MARK.match(line) is not None
                if fence or inside:
                    blanked[i] = ""
                inside ^= fence
        found[block] = blanked
    return found


# what something outside the model does: "the workflow engine will:", "The hook then:"
_ANOTHER_WILL = lazy.compile(
    r"\b(?:engine|server|backend|daemon|platform|hook|hooks|ci|pipeline|scheduler|service|runner|bot)"
    r"\s+(?:will|would|then|automatically)(?:\s+then)?\s*:\s*$",
    re.IGNORECASE,
)


# what to put to the user: "After a successful setup, suggest:", "Recommend to the user:" (its
# items are next steps the user may take: "Use the query-builder agent for advanced queries")
_SUGGESTED = lazy.compile(
    r"\b(?:suggest|recommend|offer)(?:\s+(?:to\s+the\s+user|the\s+following|these|next\s+steps))?\s*:\s*$",
    re.IGNORECASE,
)


def _done_by_another(lines: list[str], start: int) -> bool:
    """Whether the block is an item of a list whose lead says something other than the model does
    the steps, or offers them to the user."""
    if not LIST_ITEM.match(lines[start]):
        return False
    j = start - 1
    while j >= 0 and (not lines[j].strip() or LIST_ITEM.match(lines[j]) or lines[j][:1] in " \t"):
        j -= 1
    return j >= 0 and (_ANOTHER_WILL.search(lines[j]) or _SUGGESTED.search(lines[j])) is not None


def _sites(
    sentence: Sentence, spawns: list[ProseSpawn], block: Block, candidate: bool = False
) -> list[RawSite]:
    index = LineIndex(sentence.text, sentence.line - 1, sentence.column)
    sites = []
    for spawn in spawns:
        line, column = index.position(spawn.offset)
        params = []
        if spawn.target:
            params.append(param_at("subagent_type", spawn.target, index, spawn.target_offset))
        if spawn.name:
            params.append(param_at("name", spawn.name, index, spawn.name_offset))
        unsure = candidate or spawn.candidate
        sites.append(RawSite(spawn.form, line, column, None, tuple(params), block, "medium", unsure))
    return sites


def _introduces_an_example(lines: list[str], block: Block) -> bool:
    """Whether the paragraph ends with a colon and a markdown fence holding a file with frontmatter
    follows it: it introduces an example document (a command file shown to the author), whose
    instructions are not its own. (A markdown fence without frontmatter is often the prompt.)"""
    if not lines[block.end - 1].rstrip().endswith(":"):
        return False
    nxt = _next_nonblank(lines, block)
    return nxt is not None and opens_a_document(lines, nxt)


def _next_nonblank(lines: list[str], block: Block) -> int | None:
    """The first line of text within three lines after the block, if any."""
    return next((j for j in range(block.end, min(len(lines), block.end + 3)) if lines[j].strip()), None)


# a shell's fence: "2. Spawn the agent:" over `bun Tools/SpawnAgent.ts …` (the command line spawns it)
_SHELL_FENCE_OPEN = r"^\s{0,3}(?:`{3,}|~{3,})[ \t]*(?i:bash|sh|shell|zsh|console|powershell|ps1|cmd)[ \t]*"
_SHELL_FENCE = lazy.compile(_SHELL_FENCE_OPEN + "$")


def _introduces_a_command_line(lines: list[str], block: Block) -> bool:
    """Whether the paragraph ends with a colon that a shell's fence follows, and does not name the
    Agent or Task tool: what it says to do, the command lines do."""
    if not lines[block.end - 1].rstrip(" *_").endswith(":") or names_the_tool(lines[block.end - 1]):
        return False  # ("**Spawn agents:**" ends with a colon in bold)
    nxt = _next_nonblank(lines, block)
    return nxt is not None and _SHELL_FENCE.match(lines[nxt]) is not None


_ROLE_PROMPT = lazy.compile(r"\s*you\s+are\s+(?:an?|the)\s", re.IGNORECASE)


# a fence that opens with a call of another tool: its strings are that call's arguments
_OTHER_CALL = lazy.compile(r"\s*(?!(?:Agent|Task)\b)[A-Z][A-Za-z]+\s*\(")


def _quoted_instruction(doc: Doc, block: Block) -> bool:
    if block.fence_open is None:
        return False
    lines = doc.lines
    if lines[block.fence_open].strip().lstrip("`~").strip().split(" ")[0].lower() not in _PROSE_FENCES:
        return False
    first = next((t for t in lines[block.fence_open + 1 : block.end] if t.strip()), "")
    if first.startswith("> "):
        return False  # "> Use the code-reviewer subagent to check my changes": what a user types
    if _ROLE_PROMPT.match(first):
        return False  # "You are the project manager for …": a prompt written for another model
    if _OTHER_CALL.match(first):
        return False  # "AskUserQuestion({ … options: [{ description: "Spawn parallel workers" }] })": shown
    lead = previous_nonblank(lines, block.fence_open - 1, max(0, block.fence_open - 3))
    return lead is None or not _EXAMPLE_LEAD.search(lines[lead])


SENTENCES = Pass("sentences", (Form.F8, Form.F6), _SENTENCE_TRIGGER, _sentences)


# A heading that is itself an instruction: "## Step 2 - Launch the Explore agent in background",
# "### Phase 3: Dispatch two reviewer subagents". Only a heading whose first word (after a step
# label) is the spawn verb: "## Spawning agents" and "## When to use subagents" are topics.
_STEP_LABEL = lazy.compile(
    r"^[\s*_]*(?:(?:step|phase|stage|part)\s*[\d.]+[a-z]?\s*(?:[:.—–-]+\s*)?|\d+(?:\.\d+)+\.?\s+|\d+[.)]\s*)?[\s*_]*",
    re.IGNORECASE,
)


# A heading that names the agent of its step: "#### SubAgent: test-engineer", "### Agent — a + b".
# Candidates: a spawn where the name is an agent of the project.
# the agent nouns of every language (vocabulary.py): "SubAgent", "エージェント", "子代理"
_HEADING_NOUNS = (
    *vocabulary.CORE_AGENT_NOUNS,
    *(
        noun
        for language in vocabulary.LANGUAGES
        for noun in (*language.subagent_nouns, *language.agent_nouns)
        if not noun.startswith(("Agent", "Task"))  # the tool ("Agent ツール") titles no agent
    ),
)
_AGENT_HEADING_BODY = (
    rf"[\s*_]*{vocabulary.alternation(_HEADING_NOUNS, plural=True)}"
    r"\s*[:：—–-]\s*(?P<names>`?[a-z][\w:-]*`?(?:\s*(?:\+|,|&|and|/)\s*`?[a-z][\w:-]*`?)*)[\s*_]*$"
)
_AGENT_HEADING = lazy.compile("^" + _AGENT_HEADING_BODY, re.IGNORECASE)
_AGENT_HEADING_LINE = lazy.compile(r"^ {0,3}#{1,6}[ \t]+" + _AGENT_HEADING_BODY, re.IGNORECASE | re.MULTILINE)


def _agent_heading(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _AGENT_HEADING_LINE.search(text) is not None


_HEADING_NAME = lazy.compile(r"(?<![\w:-])[a-z][\w:-]*[a-z0-9](?![\w:-])")

# "### Step 4: Delegate to Documentation Agent" titles a step whose body runs a command
_TOPIC_VERBS = frozenset({"delegate", "delegating", "hand", "use", "using"})


# "### 3. Spawn Workers" over "Execute the spawn_session.py script:": the step is a program's to do
_RUNS_A_PROGRAM = lazy.compile(
    r"^\s*(?:execute|run)\s+(?:the\s+|this\s+)?`?[\w./${}-]*?(?:\.(?:py|sh|js|mjs|ts|rb|ps1)\b|`?\s+script\b)",
    re.IGNORECASE,
)


# a line that runs another harness's command line, in a fence or a code span: "codex exec …",
# "`claude -p …`" as written (lower case: "Claude reads the plan" is prose), with a flag, a prompt
# or `exec`/`run` after it
_HARNESS_RUN = lazy.compile(
    rf"(?:^\s*(?:\$\s*)?|`){vocabulary.alternation(vocabulary.HARNESS_COMMANDS)}\s+(?:-|exec\b|run\b|[\"'])",
    re.MULTILINE,
)


def _runs_a_program(lines: list[str], headings: tuple[tuple[int, int, str], ...], at: int) -> bool:
    """Whether the section of the heading `at` tells to run a script (its first line), or runs
    another harness's command line and never names the Agent or Task tool ("## 3. Dispatch
    workers" over `codex exec … "<worker prompt>"`): its workers are processes."""
    heading, level, _ = headings[at]
    first = next((t for t in lines[heading + 1 : heading + 4] if t.strip()), "")
    if _RUNS_A_PROGRAM.match(first):
        return True
    end = next((h for h, lv, _ in headings[at + 1 :] if lv <= level), len(lines))
    section = "\n".join(lines[heading + 1 : min(end, heading + 80)])
    return (
        _HARNESS_RUN.search(section) is not None or _SPAWNING_COMMAND.search(section) is not None
    ) and not names_the_tool(section)


# a shell's fence that runs a program named for spawning agents ("bun Tools/SpawnAgent.ts …",
# "ccgram msg spawn …"), on a line that is no comment
_SPAWNING_COMMAND = lazy.compile(
    _SHELL_FENCE_OPEN + r"\n(?:(?!\s{0,3}(?:`{3,}|~{3,}))[^\n]*\n)*?"
    r"[ \t]*(?:\$\s*)?[^#\s][^\n]*(?i:spawn|agent)",
    re.MULTILINE,
)


# "### Command: `/plan:interview`" beside "### Agent: `spec-reviewer`": a catalog of what a plugin
# ships, each heading over its description, not a step
_OTHER_COMPONENT = lazy.compile(
    r"^[\s*_]*(?:slash\s+)?"
    + vocabulary.alternation((*vocabulary.OTHER_COMPONENTS, "tool", "script"), plural=True)
    + r"\s*[:：—–-]",
    re.IGNORECASE,
)


def _in_a_catalog(headings: tuple[tuple[int, int, str], ...], at: int) -> bool:
    """Whether a heading of the same level in the same section names another kind of component."""
    level = headings[at][1]
    for step in (-1, 1):
        j = at + step
        while 0 <= j < len(headings) and headings[j][1] >= level:
            if headings[j][1] == level and _OTHER_COMPONENT.match(headings[j][2]):
                return True
            j += step
    return False


def _headings(doc: Doc, claims: Claims) -> Found:
    lines = doc.lines
    examples = doc.cached("example lines", lambda: example_lines(lines))
    sites: list[RawSite] = []
    headings = doc.structure.headings
    for index, (line, _level, text) in enumerate(headings):
        if line in claims.lines or line in examples:
            continue
        named = _AGENT_HEADING.match(text)
        if named and _in_a_catalog(headings, index):
            continue
        if named:  # "#### SubAgent: database-architect": a step run by that agent, if it is one
            at = lines[line].find(named.group("names"))
            names = [(n.group(0), n.start()) for n in _HEADING_NAME.finditer(named.group("names"))]
            names = [(n, o) for n, o in names if n.lower() != "and"]
            spawns = [ProseSpawn(Form.F6, 0, n, named.start("names") + o, None, 0) for n, o in names]
            sentence = Sentence(line + 1, line + 1, max(at - named.start("names"), 0) + 1, text)
            sites.extend(_sites(sentence, spawns, Block("paragraph", line, line + 1, None), candidate=True))
            continue
        label = _STEP_LABEL.match(text)
        body = text[label.end() if label else 0 :].rstrip(" *_#")
        if not body or is_rule_sentence(body, require_mechanism=False):
            continue
        if body.split()[0].lower().strip("*_") in _TOPIC_VERBS:
            continue
        spawns = [s for s in sentence_spawns(body) if s.offset == 0]
        if not spawns or _runs_a_program(lines, headings, index):
            continue
        at = lines[line].find(body)
        block = Block("paragraph", line, line + 1, None)
        sites.extend(_sites(Sentence(line + 1, line + 1, max(at, 0) + 1, body), spawns[:1], block))
    return Found(tuple(sites))


HEADINGS = Pass(
    "headings",
    (Form.F6,),
    either(
        f6_prose.TRIGGER,
        Trigger(vocabulary.probes(_HEADING_NOUNS), _agent_heading),
    ),
    _headings,
)


# A lead form reads a lead sentence and its list: (lines, the lead's last sentence, the lead,
# its items' (start, end) lines, the lines claimed) -> sites; none when it is not its lead.
LeadForm = Callable[[list[str], Sentence, Block, tuple[tuple[int, int], ...], frozenset[int]], list[RawSite]]


def leads(forms: tuple[tuple[Trigger, LeadForm], ...]) -> Pass:
    """The pass over list leads and their lists: each lead read by the first form that finds
    spawns in it; the lead and its items are claimed."""
    trigger = either(*(t for t, _ in forms))

    def find(doc: Doc, claims: Claims) -> Found:
        lines = doc.lines
        examples = doc.cached("example lines", lambda: example_lines(lines))
        claimed = set(claims.lines)
        sites: list[RawSite] = []
        for lead, items in doc.structure.leads:
            if lead.start in claimed or lead.start in examples or not doc.fires(trigger, lead):
                continue
            sentences = split_sentences(lines, lead.start, lead.end)
            if not sentences:
                continue
            for form_trigger, read in forms:
                if not doc.fires(form_trigger, lead):
                    continue
                found = read(lines, sentences[-1], lead, items, frozenset(claimed))
                if found:
                    sites.extend(found)
                    claimed.update(range(lead.start, lead.end))
                    claimed.update(line for a, b in items for line in range(a, b))
                    break
        return Found(tuple(sites), frozenset(claimed - claims.lines))

    return Pass("list leads", (Form.F8, Form.F7), trigger, find)
