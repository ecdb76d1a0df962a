"""Per-file parsing: a pure function of a file's bytes, its kind and the few settings that
affect it. Bad input becomes a problem (SL001/SL002) on the parsed file, never an exception."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from spawnlint import lazy
from spawnlint.model import (
    AgentRecord,
    Edit,
    FileKind,
    Finding,
    ParsedFile,
    Problem,
    SpawnSite,
    SuppressionComment,
    Suppressions,
    ToolList,
    UnitFrontmatter,
)
from spawnlint.parse.forms import vocabulary  # word lists only: the forms import nothing with it
from spawnlint.parse.frontmatter import Frontmatter, parse_tool_list, split_frontmatter
from spawnlint.send_message import mentions_send_message_tool, report_lines
from spawnlint.source_lines import split_lines

if TYPE_CHECKING:
    from spawnlint.parse.markdown import MarkdownFacts

NO_SUPPRESSIONS = Suppressions()  # shared: most files have none
_SUPPRESS_MD = lazy.compile(r"<!--\s*spawnlint:\s*(ignore-file|ignore)(?:\[([^\]]*)\])?\s*-->")
_SUPPRESS_HASH = lazy.compile(r"#\s*spawnlint:\s*(ignore-file|ignore)(?:\[([^\]]*)\])?")


def python_could_spawn(text: str, callables: tuple[str, ...]) -> bool:
    """The cheap prefilter for Python files: only these are parsed (tokenize and ast). A call or
    dict needs `subagent_type`, `AgentDefinition` or a callable; a string a tool, verb or noun."""
    if "subagent_type" in text or "AgentDefinition" in text:
        return True
    if any(c + "(" in text for c in callables):
        return True
    # the markdown word test, in any case: a string may say "Launch the x agent", "Have the
    # **code-reviewer** agent check it" (words from parse/vocabulary.py, never a copy here)
    from spawnlint.parse.forms.registry import has_spawn_word  # the forms' patterns: compiled on first use

    return has_spawn_word(text)


def decode(path: str, data: bytes, max_bytes: int) -> tuple[str | None, Problem | None]:
    """UTF-8 text (a BOM is fine), or the SL002 problem that says why not."""

    def problem(why: str) -> tuple[None, Problem]:
        return None, Problem("SL002", Finding(path, 1, 1, why))

    if len(data) > max_bytes:
        return problem(f"file is over the {max_bytes}-byte cap; not checked")
    if b"\x00" in data:
        return problem("file is binary (it holds NUL bytes), not UTF-8 text; not checked")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return problem(
            f"file is not UTF-8 (invalid byte 0x{data[exc.start]:02x} on line {line}); re-save it as UTF-8"
        )
    return text, None


def parse_text(path: str, text: str, kind: FileKind, all_sentences: bool = True) -> ParsedFile:
    """The facts of a markdown file. Without `all_sentences` (no custom rule pattern) only the
    sentences of blocks that could hold a rule sentence are kept, and a body that cannot hold a
    spawn or a rule sentence (no word any form's trigger needs: `forms.has_spawn_word`) gets no
    block parse: only what it says about SendMessage is read. (Running the triggers' tests over the
    whole body first costs more than the block parse it spares: each hot block runs them anyway.)"""
    # The spawn forms and the body's other readers (their patterns take a tenth of a second to
    # compile) are imported here, not with the module: the guard reads agent definitions alone.
    from spawnlint.parse.forms.f9_fork import describes_the_fork, fork_site
    from spawnlint.parse.forms.registry import has_spawn_word
    from spawnlint.parse.idle import idle_claims
    from spawnlint.parse.team import team_lines

    lines = split_lines(text)
    frontmatter, body_start = split_frontmatter(lines)
    problems: list[Problem] = []
    agent = None
    unit_fm = None
    fork: list[SpawnSite] = []
    read = frontmatter is not None and _frontmatter_is_read(path, kind, frontmatter)
    if frontmatter is not None and read:
        problems.extend(_frontmatter_problems(path, frontmatter))
    body_text = "\n".join(lines[body_start:])
    body = all_sentences or has_spawn_word(body_text)
    facts = _body_facts(path, lines, body_start, all_sentences) if body else None
    if facts is not None and facts.unread_line:
        problems.append(_too_deep(path, facts.unread_line))
    if frontmatter is not None and kind is FileKind.AGENT:
        if facts is not None:
            mentions, reports = facts.mentions_send_message, facts.report_lines
        else:  # no spawn here, but what the body says about SendMessage tells whether it reports
            mentions = mentions_send_message_tool(body_text)
            reports = report_lines(lines, body_start) if mentions else ()
        agent = _agent(path, frontmatter, mentions, reports, problems, lines)
    if frontmatter is not None and read and kind in (FileKind.COMMAND, FileKind.SKILL):
        unit_fm = UnitFrontmatter(
            _tools(path, frontmatter, ("disallowed-tools", "disallowedTools"), problems)
        )
        fork = fork_site(path, frontmatter, lines)
    creates, members, standalone = team_lines(lines, body_start) if facts else ((), (), ())
    sites = facts.sites if facts else ()
    candidates = facts.candidates if facts else ()
    if fork and (sites or candidates):
        sites = tuple(s for s in sites if not describes_the_fork(s, fork[0], lines))
        candidates = tuple(s for s in candidates if not describes_the_fork(s, fork[0], lines))
    return ParsedFile(
        path=path,
        kind=kind,
        agents=(agent,) if agent else (),
        unit_frontmatter=unit_fm,
        sites=tuple(fork) + sites,
        candidates=candidates,
        sentences=facts.sentences if facts else (),
        sections=facts.sections if facts else (),
        suppressions=suppressions(lines, markdown=True, hash_comments_until=body_start)
        if "spawnlint" in text
        else NO_SUPPRESSIONS,
        problems=tuple(problems),
        team_lines=creates,
        teammate_lines=members,
        subagent_lines=standalone,
        idle_claims=idle_claims(lines, body_start) if kind in _BODIES_THAT_INSTRUCT else (),
        file_refs=file_refs(text) if kind is FileKind.SKILL else (),
        followed=followed_files(lines, body_start) if kind is not FileKind.AGENT and ".md" in text else (),
    )


# a verb that makes the model follow a file, then (on the same line) the file; or an `@` include,
# which Claude Code loads itself
_PATH = r"(?:\$\{CLAUDE_PLUGIN_ROOT\}/|\.{1,2}/|[\w.-]+/)+[\w.-]+\.md"
_FOLLOW = vocabulary.alternation(vocabulary.FOLLOW_VERBS)  # "Read `x.md` and perform every step"
_FOLLOWED = lazy.compile(
    rf"(?i:\b{_FOLLOW}\b)[^\n]{{0,80}}?(?<![\w@])`?(?P<path>{_PATH})\b"
    # "Read `x/y.md` and follow its checklist"
    # (the "and follow" may wrap onto the next line)
    rf"|(?i:\bread\b)[^\n]{{0,40}}?(?<![\w@])`?(?P<read>{_PATH})\b`?[^.;]{{0,60}}?(?i:\b(?:and|then)\s+"
    rf"{_FOLLOW}\b)"
    r"|(?<![\w/])@(?P<include>(?:\$\{CLAUDE_PLUGIN_ROOT\}/|~/)?(?:\.{1,2}/|[\w.-]+/)*[\w.-]+\.md)\b"
    # "Follow the shared framework … defined in:" and the file alone on the next line
    rf"|(?i:\b{_FOLLOW}\b)[^\n]*:[ \t]*\n[ \t]*[-*]?[ \t]*`?(?P<below>{_PATH})\b`?[ \t]*$"
)
_FENCE = lazy.compile(r"^\s{0,3}(?:`{3,}|~{3,})")


def followed_files(lines: list[str], body_start: int) -> tuple[tuple[int, int, str], ...]:
    """The files the body tells the model to read and follow (SPEC §2: a unit is what it loads)."""
    found = []
    fenced = False
    for i in range(body_start, len(lines)):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue  # a file named in an example or a script is no instruction to follow it
        after = lines[i + 1] if i + 1 < len(lines) and not _FENCE.match(lines[i + 1]) else ""
        if ".md" not in line and not (line.rstrip().endswith(":") and ".md" in after):
            continue
        for m in _FOLLOWED.finditer(line + "\n" + after):
            group = next(g for g in ("path", "read", "include", "below") if m.group(g))
            if group == "below":
                found.append((i + 2, m.start(group) - len(line), m.group(group)))  # on the next line
            elif m.start(group) < len(line):
                found.append((i + 1, m.start(group) + 1, m.group(group)))
    return tuple(found)


# `./implementer-prompt.md`, `references/phases.md`, "the files in `templates/`": a file's name with
# its suffix, and the names of a folder named as such (a trailing slash, or a glob in it)
_NOT_A_PATH = lazy.compile(r"[^\w./-]+")


def file_refs(text: str) -> tuple[str, ...]:
    """The names of the files and folders a skill's file refers to, lower case."""
    if ".md" not in text and "/" not in text:
        return ()
    names: set[str] = set()
    for token in _NOT_A_PATH.split(text.lower()):
        if "/" not in token and ".md" not in token:
            continue
        *folders, last = token.split("/")
        last = last.rstrip(".")
        if not last or "*" in last:  # a folder (`references/`, `prompts/*.md`): all its files
            names.update(f for f in folders if f.strip("."))
        elif last.endswith(".md"):  # a file: that file alone (`tests/run.sh` loads no test data)
            names.add(last)
    return tuple(sorted(names))


# SL105 reads the bodies that instruct a model: commands, skill files and agents
_BODIES_THAT_INSTRUCT = frozenset({FileKind.AGENT, FileKind.COMMAND, FileKind.SKILL})


def parse_agent_definition(path: str, text: str) -> ParsedFile:
    """An agent file's definition alone — frontmatter, and whether its body names SendMessage —
    without the markdown pass: what the guard needs on every Agent call. Spawn sites, sentences
    and report lines (SL103) are not read."""
    lines = split_lines(text)
    frontmatter, body_start = split_frontmatter(lines)
    if frontmatter is None:
        return ParsedFile(path, FileKind.AGENT)
    mentions = mentions_send_message_tool("\n".join(lines[body_start:]))
    agent = _agent(path, frontmatter, mentions, (), [])
    return ParsedFile(path, FileKind.AGENT, agents=(agent,) if agent else ())


def _body_facts(path: str, lines: list[str], body_start: int, all_sentences: bool) -> MarkdownFacts:
    from spawnlint.parse.markdown import analyse  # markdown-it, only for files that need it

    return analyse(path, lines, body_start, all_sentences)


def _too_deep(path: str, line: int) -> Problem:
    from spawnlint.parse.markdown import MAX_NESTING

    why = (
        f"markdown nested more than {MAX_NESTING} blocks deep (quotes, lists) from this line: the"
        " file is not fully read; flatten the nesting"
    )
    return Problem("SL002", Finding(path, line, 1, why))


def _frontmatter_is_read(path: str, kind: FileKind, frontmatter: Frontmatter) -> bool:
    """Claude Code reads the frontmatter of agents, commands and a skill's SKILL.md; the other
    files of a skill folder (templates, references) are only text."""
    if kind is FileKind.AGENT:
        return True  # without a `name`, Claude Code loads it under its file stem
    if kind is FileKind.SKILL:
        return path.rsplit("/", 1)[-1] == "SKILL.md"
    return kind is FileKind.COMMAND


def _frontmatter_problems(path: str, fm: Frontmatter) -> list[Problem]:
    out = []
    for line, why in fm.errors:
        finding = Finding(path, line, 1, f"{why}; read leniently line by line")
        out.append(Problem("SL001", finding, body_intact=fm.closed))
    return out


def _agent(
    path: str,
    fm: Frontmatter,
    mentions: bool,
    report_lines: tuple[tuple[int, int], ...],
    problems: list[Problem],
    lines: list[str] | None = None,
) -> AgentRecord | None:
    name = fm.data.get("name")
    if not isinstance(name, str) or not name.strip():
        name = _stem_name(path, fm, problems)
    tools = _tools(path, fm, ("tools",), problems)
    disallowed = _tools(path, fm, ("disallowedTools", "disallowed-tools", "disallowed_tools"), problems)
    return AgentRecord(
        path=path,
        name=name.strip(),
        name_line=fm.key_lines.get("name", 1),
        tools=tools,
        disallowed=disallowed,
        mentions_send_message=mentions,
        report_lines=report_lines,
        grant_send_message=_grant(path, lines, tools, disallowed) if lines else (),
    )


def _grant(
    path: str, lines: list[str], tools: ToolList | None, disallowed: ToolList | None
) -> tuple[Edit, ...]:
    from spawnlint.parse.grant import grant_send_message  # --fix's edit: not for the guard

    return grant_send_message(path, lines, tools, disallowed)


def _stem_name(path: str, fm: Frontmatter, problems: list[Problem]) -> str:
    """An agent file with frontmatter but no `name`: Claude Code loads it under its file stem (a
    file without frontmatter is no agent: READMEs and notes live under agents/ too). A `name`
    that is no string is a wrong shape (SL001), read as the stem too."""
    base = path.rpartition("/")[2]
    stem = base.rpartition(".")[0] or base
    if fm.data.get("name") not in (None, ""):
        line = fm.key_lines.get("name", 1)
        why = f'`name` is not a string; read as the file stem "{stem}"'
        problems.append(Problem("SL001", Finding(path, line, 1, why), body_intact=fm.closed))
        return stem
    why = (
        f'agent file has frontmatter but no `name`; Claude Code loads it as "{stem}" (its file stem):'
        f" add `name: {stem}`"
    )
    problems.append(Problem("SL005", Finding(path, 1, 1, why), body_intact=True))
    return stem


def _tools(path: str, fm: Frontmatter, keys: tuple[str, ...], problems: list[Problem]) -> ToolList | None:
    key = next((k for k in keys if k in fm.data), None)
    if key is None:
        return None
    line = fm.key_lines.get(key, 1)
    tools, problem = parse_tool_list(fm.data[key], line)
    if problem:
        why = f"`{key}` {problem}; read as if it were absent"
        problems.append(Problem("SL001", Finding(path, line, 1, why), body_intact=fm.closed))
    return tools


def suppressions(lines: list[str], markdown: bool, hash_comments_until: int = 0) -> Suppressions:
    """Comments that silence findings on their own line and the next one; when the next line
    opens a code fence, the whole fence (a spawn is often shown in one). In markdown, `#`
    comments count only inside the YAML frontmatter (the first `hash_comments_until` lines)."""
    comments: list[SuppressionComment] = []
    for number, line in enumerate(lines, start=1):
        if "spawnlint" not in line:
            continue
        in_yaml = not markdown or number <= hash_comments_until
        matches = list(_SUPPRESS_MD.finditer(line)) if markdown else []
        matches += list(_SUPPRESS_HASH.finditer(line)) if in_yaml else []
        for m in matches:
            codes = tuple(c.strip().upper() for c in (m.group(2) or "").split(",") if c.strip())
            if m.group(1) == "ignore-file":
                comments.append(SuppressionComment(number, m.start() + 1, codes, ()))
            else:
                covered = tuple(_covered_lines(lines, number))
                comments.append(SuppressionComment(number, m.start() + 1, codes, covered))
    return Suppressions(tuple(comments))


def _covered_lines(lines: list[str], number: int) -> list[int]:
    covered = [number, number + 1]
    nxt = lines[number] if number < len(lines) else ""
    fence = re.match(r"^\s*(`{3,}|~{3,})", nxt)
    if fence:
        for j in range(number + 1, len(lines)):
            covered.append(j + 1)
            if lines[j].strip().startswith(fence.group(1)):
                break
    return covered
