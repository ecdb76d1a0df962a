"""F6 in other languages (vocabulary.LANGUAGES: Japanese, Korean, Chinese, German, Spanish,
French, Portuguese, Russian): a verb and, in its clause, a sub-agent noun or an agent noun beside an agent of
a known shape — "`x` エージェントを起動する", "派一个只读 subagent", `Lanza el subagente` — and the
lead of an F7 list in those languages. Each language reads as it writes: no word boundaries in
CJK, the verb last with an object particle in Japanese and Korean."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spawnlint import lazy
from spawnlint.model import Form
from spawnlint.parse.forms import vocabulary
from spawnlint.parse.forms.prose import BUILTINS, ProseSpawn, code_like
from spawnlint.parse.forms.trigger import Paragraphs, Trigger, either
from spawnlint.parse.text import FormExamples

# The English nouns count too: "派 `x` agent", "派 sub-agent".
_FOREIGN_REF = lazy.compile(
    r"(?P<mark>`|\*\*)@?(?:agent-)?(?P<name>[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*)(?P=mark)"
    r"|(?<![\w@])@(?:agent-)?(?P<mention>[a-z][\w.-]*(?::[\w.-]+)*)"
    rf"|(?<![A-Za-z0-9_`*@-])(?P<builtin>{BUILTINS})(?![A-Za-z0-9_`*-])"  # "Exploreエージェントを spawn する"
)
# | ends a table cell; "推測させると、" (if one lets it guess) ends a condition's clause
_CLAUSE_END = lazy.compile(r"[。！？!?；;，：|]|——|[.:](?:\s|$)|(?:ると|れば|たら|なら)、")
_COMMA = lazy.compile(r",")  # a clause's end too where words have no spaces (Chinese written with ",")
_FOREIGN_WINDOW = 80  # characters between a verb and its agent (CJK sentences are short)


@dataclass(frozen=True)
class _Grammar:
    language: vocabulary.Language
    verb: re.Pattern[str]
    subagent: re.Pattern[str]
    agent: re.Pattern[str]
    negation: re.Pattern[str]
    parallel: re.Pattern[str] | None
    # an agent by its role ("各 reviewer を並列起動"): spawned when in parallel; CJK only, where
    # the word for "in parallel" is a probe of the trigger (a spaced language's is not)
    role: re.Pattern[str] | None
    # a verb joined after the verb, then a negation of it ("委任して実行できる")
    joined: re.Pattern[str] | None
    # where words have spaces, a time's or condition's clause ("antes de subagentes confirmarem")
    subordinator: re.Pattern[str] | None
    # an object pronoun right before the verb: a finite verb, no imperative ("Lo ejecuta el `x`")
    clitic: re.Pattern[str] | None


_ROLES = lazy.compile(rf"\b{vocabulary.alternation(vocabulary.SPAWNED_ROLES, plural=True)}\b", re.IGNORECASE)


def _grammar(language: vocabulary.Language) -> _Grammar:
    edge = r"\b" if language.spaced else ""
    # the English nouns borrowed: "交给 sub agent", "召集 Agent Team" (a team's members are spawned)
    english_sub, english_agent = ("sub( )(-)agent(s)", "agent team(s)"), ("agent(s)",)

    def words(found: tuple[str, ...]) -> re.Pattern[str]:
        return re.compile(rf"{edge}{vocabulary.alternation(found)}{edge}", re.IGNORECASE)

    return _Grammar(
        language,
        words(language.verbs),
        re.compile(
            rf"{edge}{vocabulary.alternation(language.subagent_nouns)}{edge}"
            rf"|\b{vocabulary.alternation(english_sub)}\b",
            re.IGNORECASE,
        ),
        re.compile(
            rf"{edge}{vocabulary.alternation(language.agent_nouns)}{edge}|\b{vocabulary.alternation(english_agent)}\b",
            re.IGNORECASE,
        ),
        words(language.negations),
        words(language.parallel) if language.parallel else None,
        None if language.spaced else _ROLES,
        re.compile(
            rf"{vocabulary.alternation(language.joined)}[\u3400-\u9fff]{{1,4}}"
            rf"{vocabulary.alternation(language.joined_negations)}"
        )
        if language.joined
        else None,
        re.compile(rf"\b{vocabulary.alternation(language.subordinators)}\b", re.IGNORECASE)
        if language.spaced and language.subordinators
        else None,
        re.compile(rf"\b{vocabulary.alternation(language.clitics)}\s+$", re.IGNORECASE)
        if language.clitics
        else None,
    )


_GRAMMARS = tuple(_grammar(language) for language in vocabulary.LANGUAGES)
_SPACED = tuple(g for g in _GRAMMARS if g.language.spaced)
_NOT_JAPANESE = tuple(g for g in _GRAMMARS if g.language.code != "ja")


def _grammars_for(text: str) -> tuple[_Grammar, ...]:
    """The languages a text may be in: a text without a CJK letter is in none of the CJK ones
    (whose English borrowings count only beside CJK words), and one with Chinese marks (a full-width
    comma, 的) and no kana is not Japanese ("模板，供 frontend-html agent 使用": the agent uses them)."""
    if text.isascii() or not _CJK.search(text):
        return _SPACED
    if _KANA.search(text) is None and _CHINESE_MARKS.search(text) is not None:
        return _NOT_JAPANESE
    return _GRAMMARS


_KANA = lazy.compile(r"[\u3040-\u30ff]")
_CHINESE_MARKS = lazy.compile(r"[，的]")


# what stands between a noun and its particle: "Agent tool（subagent_type: `Explore`）を"
_ASIDE = lazy.compile(r"^[（(][^）)\n]{0,60}[）)]")


def _nouns(grammar: _Grammar, noun: re.Pattern[str], clause: str, final: bool = False) -> list[re.Match[str]]:
    """The noun where the clause holds it as the verb's object: before a verb that comes last, the
    noun carries an object particle ("このエージェントは" is the subject: it does the work), or
    `near_particles` right before the verb ("サブエージェントの起動"), or `and_particles` before
    another object ("エージェントとスキルを", not "エージェントと比較して"), or (`final`: the verb
    closes its clause) stands right before the verb ("spring-architect 에이전트 호출")."""
    language = grammar.language
    if not language.verb_last:
        return [
            m
            for m in noun.finditer(clause)
            if not clause[m.end() :]
            .lstrip()
            .startswith((*language.modifier_particles, *language.subordinators))
        ]
    found = []
    count = _COUNTS.get(language.code)
    for m in noun.finditer(clause):
        # "agent `reader`（subagent_type: …）で": a name after the noun, as English orders them
        after = _NAME_AFTER.sub("", clause[m.end() :].lstrip(), count=1)
        after = _ASIDE.sub("", after.lstrip(), count=1).lstrip()
        after = _plural(language, after)
        counted = count.match(after) if count else None
        # "서브에이전트 2개를 실행", "Task Agent 2개 실행": a count, then the particle or the verb
        if counted:
            after = after[counted.end() :]
            if _BESIDE_THE_VERB.match(after):
                found.append(m)
                continue
        if (
            (final and _BESIDE_THE_VERB.match(after))
            or _marks_the_object(language, after)
            or (after.startswith(language.near_particles) and len(after) <= 4)
        ):
            found.append(m)
        elif after.startswith(language.and_particles) and any(
            p in after[1:] for p in language.object_particles[:2]
        ):
            found.append(m)  # "`x` エージェントと `y` スキルを使用": one of two objects
    return found


def _marks_the_object(language: vocabulary.Language, after: str) -> bool:
    """Whether the text after a noun opens with a particle that makes it the verb's object (or the
    one it is handed to)."""
    return after.startswith(language.object_particles) or (
        bool(language.recipient_particles)
        and after.startswith(language.recipient_particles)
        and not after.startswith(language.not_recipient)
    )


def _plural(language: vocabulary.Language, after: str) -> str:
    """The text after a noun, less a plural suffix ("들을" → "을")."""
    for suffix in language.plurals:
        if after.startswith(suffix):
            return after[len(suffix) :]
    return after


def _final(language: vocabulary.Language, text: str, verb: re.Match[str]) -> bool:
    """Whether a verb of the language that comes last closes its clause (`_closes`)."""
    return language.verb_last and not verb.group(0).isascii() and _closes(language, text, verb.end())


def _closes(language: vocabulary.Language, text: str, end: int) -> bool:
    """Whether the verb that ends at `end` closes its clause: the text ends, or punctuation or an
    aside follows, or one of the language's endings does ("호출한다.", "起動する。", "starten und …"),
    not a modifier or a noun ("호출하는 방법", "起動する前に")."""
    at = _MARKUP.match(text, end)
    rest = text[at.end() if at else end :]
    if _CLOSED.match(rest):
        return True
    ending = next((e for e in language.verb_endings if rest.startswith(e)), None)
    return ending is not None and not _CJK.match(rest, len(ending))


_CLOSED = lazy.compile(r"$|\n|[.:;,。：；、！？!?|（(）)—–-]")
_NAME_AFTER = lazy.compile(r"^(?:`[^`\n]{1,60}`|\*\*[^*\n]{1,60}\*\*)")
_COUNTS = {
    language.code: re.compile(
        rf"^(?:\d+|{vocabulary.alternation(language.numerals)})\s*{vocabulary.alternation(language.counters)}\s*"
    )
    for language in vocabulary.LANGUAGES
    if language.counters
}


_TASK = lazy.compile(r"(?<![A-Za-z0-9_`*])Task(?![A-Za-z0-9_`*-])")  # the tool by its name alone, as written


def _tool_called(grammar: _Grammar, verb: re.Match[str], clause: str, final: bool) -> list[re.Match[str]]:
    """The tool by its name alone as the object of a verb of calling ("다음 Task들을 한 메시지에서
    동시에 호출"): one call of the Task tool. A task of a plan is run ("Task 1을 실행"), not called;
    Tasks counted and run in parallel are the tool's calls ("Task 4개를 병렬 실행")."""
    if verb.group(0) in grammar.language.calling_verbs:
        return _nouns(grammar, _TASK, clause, final)
    count = _COUNTS.get(grammar.language.code)
    if count is None or grammar.parallel is None or grammar.parallel.search(clause) is None:
        return []
    return [n for n in _nouns(grammar, _TASK, clause, final) if count.match(clause[n.end() :].lstrip())]


def _adjacent_ref(clause: str, nouns: list[re.Match[str]]) -> re.Match[str] | None:
    """The agent named right beside one of the nouns (`` `x` エージェント``, "agente `x`")."""
    for ref in _FOREIGN_REF.finditer(clause):
        if (ref.group("name") or "") in _TOOL_NAMES:
            continue  # `Agent` is the tool, not an agent
        for n in nouns:
            if n.start() < ref.end() and ref.start() < n.end():
                continue  # the noun inside the name (`seed-agent`)
            gap = clause[ref.end() : n.start()] if ref.end() <= n.start() else clause[n.end() : ref.start()]
            if len(gap) <= 2 and not gap.strip():
                return ref
    return None


_TOOL_NAMES = frozenset(vocabulary.SPAWN_TOOLS)
# After a verb that comes first, the agent it hands to by @-mention ("给"/"à"/"a"/"an": to)
_MENTION_LEADS = ("给 @", "给@", "给 `@", "à @", "à `@", "a @", "a `@", "al @", "ao @", "an @")
_TO_A_MENTION = lazy.compile(
    r"\s*(?:给 ?|à |a |al |ao |an )`?@(?:agent-)?(?P<name>[a-z][\w.:-]*[a-z0-9])", re.IGNORECASE
)
# The tool named in the sentence makes its verb a spawn ("5 つのスキャンを並列起動する（Agent tool call を
# 5 つ…）", "用 Agent 工具启动"), unless the tool is refused ("（Agent ツールは使わない）", "不使用 Agent
# 工具", "**Task 도구 호출 금지**"): the words for tool and the negations of the languages that borrow it.
_TOOL_WORD = vocabulary.alternation(
    ("tool", *(w for language in vocabulary.LANGUAGES for w in language.tool_words))
)
_REFUSAL = vocabulary.alternation(
    n for language in vocabulary.LANGUAGES if not language.spaced for n in language.negations
)
_THE_TOOL = lazy.compile(rf"(?<![\w`])`?(?:Agent|Task)`?\s*-?(?i:{_TOOL_WORD})")
_TOOL_REFUSED = lazy.compile(
    rf"(?:Agent|Task)`?\s*(?i:{_TOOL_WORD})[^。、）)]{{0,12}}?{_REFUSAL}"
    rf"|{_REFUSAL}[^。、）)]{{0,6}}`?(?:Agent|Task)`?\s*(?i:{_TOOL_WORD})"
)


def _false_friend(language: vocabulary.Language, text: str, verb: re.Match[str]) -> bool:
    """Whether the verb is part of a word that is not it ("派生" holds "派")."""
    for word in language.false_friends:
        at = text.find(word, max(0, verb.start() - len(word) + 1), verb.end() + len(word))
        if 0 <= at < verb.end() and at + len(word) > verb.start():
            return True
    return False


_FULL_STOP = lazy.compile(r"[。！？!?]|\.(?:\s|$)")


def _sentence_of(text: str, verb: re.Match[str]) -> str:
    """The sentence that holds the verb."""
    ends = [m.end() for m in _FULL_STOP.finditer(text, 0, verb.start())]
    after = _FULL_STOP.search(text, verb.end())
    return text[ends[-1] if ends else 0 : after.start() if after else len(text)]


def _in_aside(before: str) -> bool:
    """Whether the text ends inside an unclosed parenthesis."""
    opened = max(before.rfind("（"), before.rfind("("))
    return opened > max(before.rfind("）"), before.rfind(")"))


# An English word borrowed by a CJK sentence stands last, before a CJK word or nothing ("`x` を
# **並列 dispatch**", "spawn する"); a letter or digit after it is English going on ("a spawn into").
_ENGLISH_GOES_ON = lazy.compile(r"[ \t*_]*[A-Za-z0-9]")
_MARKUP = lazy.compile(r"[ \t*_]*")
_CJK = lazy.compile(f"[{vocabulary.CJK_LETTERS}]")


_SENTENCE_END = lazy.compile(r"[。！？!?\n]|$")


def _describes(language: vocabulary.Language, text: str, end: int) -> bool:
    """Whether the sentence after a verb that comes last ends in a noun it modifies: "…を並列で
    起動し、…処理する機能。" tells of a feature, as a noun phrase."""
    if not language.described_nouns:
        return False
    stop = _SENTENCE_END.search(text, end)
    rest = text[end : stop.start() if stop else len(text)].rstrip(" \t*_）)")
    for ending in ("です", "である", "だ"):
        rest = rest.removesuffix(ending)
    return rest.endswith(language.described_nouns)


def _foreign_clause(grammar: _Grammar, text: str, verb: re.Match[str]) -> tuple[int, str, bool]:
    """Where the verb's object stands (before a verb that comes last, after one that comes
    first), that text, and whether the verb is no instruction (negated, a passive, a false
    friend, or an English word borrowed by a CJK language standing in English: "a spawn into",
    not "spawn する")."""
    if (
        not grammar.language.spaced
        and verb.group(0).isascii()
        and (
            _ENGLISH_GOES_ON.match(text, verb.end())
            or not _CJK.search(text, max(0, verb.start() - _FOREIGN_WINDOW), verb.start())
        )
    ):
        return verb.end(), "", True  # English: "For Task tool dispatch."
    if text.count("`", 0, verb.start()) % 2:
        return verb.end(), "", True  # in a code span: a keyword ("`병렬 실행`"), not a verb
    if grammar.language.verb_last:
        start = max(0, verb.start() - _FOREIGN_WINDOW)
        ends = [
            m.end()
            for m in _CLAUSE_END.finditer(text, start, verb.start())
            # "（subagent_type: `Explore`）" and "`model: opus`" end nothing
            if not _in_aside(text[start : m.start()]) and not text.count("`", 0, m.start()) % 2
        ]
        clause_start = ends[-1] if ends else start
        clause = text[clause_start : verb.start()]
        markup = _MARKUP.match(text, verb.end())
        negated = (
            grammar.negation.match(text, markup.end() if markup else verb.end()) is not None
            or text.startswith(grammar.language.noun_particles, verb.end())
            or (grammar.joined is not None and grammar.joined.match(text, verb.end()) is not None)
            or _describes(grammar.language, text, verb.end())
        )
    elif verb.group(0).lower() in grammar.language.clause_final and _closes(
        grammar.language, text, verb.end()
    ):
        # "Den Subagenten starten.": an infinitive last in its clause, its object before it
        start = max(0, verb.start() - _FOREIGN_WINDOW)
        ends = [
            m.end()
            for m in _CLAUSE_END.finditer(text, start, verb.start())
            if not _in_aside(text[start : m.start()])
        ]
        clause_start = ends[-1] if ends else start
        dashes = [m.end() for m in _DASH.finditer(text, clause_start, verb.start())]
        clause_start = dashes[-1] if dashes else clause_start
        clause = text[clause_start : verb.start()]
        negated = grammar.negation.search(clause) is not None
    else:
        clause_start = verb.end()
        limit = verb.end() + _FOREIGN_WINDOW
        end = _CLAUSE_END.search(text, verb.end(), limit)
        comma = None if grammar.language.spaced else _COMMA.search(text, verb.end(), limit)
        cut = min((m.start() for m in (end, comma) if m is not None), default=limit)
        clause = text[clause_start:cut]
        language = grammar.language
        if grammar.subordinator is not None:  # a time's or condition's clause ends its object
            time = grammar.subordinator.search(clause)
            clause = clause[: time.start()] if time else clause
        after = verb.end() + (text[verb.end() : verb.end() + 1] in language.verb_complements)
        if language.modifier_particles and text.startswith(language.modifier_particles, after):
            return verb.end(), "", True  # "手工派出的 sub-agent": a verb that modifies a noun
        before = _CLAUSE_END.split(text[max(0, verb.start() - 30) : verb.start()])[-1]
        for word in language.subordinators:  # "不支援時依 … 派工": the negation is the condition's
            at = before.rfind(word)
            if at >= 0 and not before.endswith(language.parallel, 0, at + len(word)):  # not "同时"
                before = before[at + len(word) :]
        negated = (
            grammar.negation.search(before) is not None
            or (grammar.language.code == "de" and grammar.negation.search(clause) is not None)
            or (grammar.clitic is not None and grammar.clitic.search(before) is not None)
        )
        # "用 grep 找出 subagent 定义": a verb of using governs only what stands right after it
        negated = negated or (verb.group(0) in language.weak_verbs and not _used(grammar, clause))
    return clause_start, clause, negated or _false_friend(grammar.language, text, verb)


_DASH = lazy.compile(r"\s[—–]\s")  # "… selbst fahren — vorbereiten und den Befehl delegieren"


def foreign_lead(text: str) -> bool:
    """A sentence in another language that introduces a list of agents (F7): a spawn verb, an
    agent noun, and a colon at its end ("以下の専門エージェントを並行または順次実行してレビューを収集：")."""
    if not text.rstrip().endswith((":", "：")):
        return False
    for grammar in _grammars_for(text):
        for verb in grammar.verb.finditer(text):
            _, clause, negated = _foreign_clause(grammar, text, verb)
            if negated:
                continue
            named = grammar.agent.search(text) or grammar.subagent.search(text)
            if not grammar.language.verb_last and named:
                return True
            # the agents as the verb's object ("エージェントを…実行"), not "used with these agents"
            final = _final(grammar.language, text, verb)
            if grammar.language.verb_last and (
                _nouns(grammar, grammar.agent, clause, final)
                or _nouns(grammar, grammar.subagent, clause, final)
                or _tool_called(grammar, verb, clause, final)
            ):
                return True
    return False


# An agent named plainly after a verb of a language that puts its verb first, to be confirmed
# against the project's agents: "Fuehre den Architecture Scout ... durch", "Lanza el planner".
_ARTICLE = r"(?:(?:den|die|das|dem|einen|eine|el|al|la|los|las|un|una|le|les|l'|au|o|a|ao|os|as|um|uma)\s+)?"
_FOREIGN_NAME = r"(?P<name>`[^`\s]{2,60}`|\*\*[^*\n]{2,60}\*\*|[A-Za-z][\w:-]*(?:\s+[A-Z][\w-]*){0,2})"
# "el agente docs-expert", "al agente especializado `x`": the noun (and a word describing it) first
_NOUN_FIRST = vocabulary.alternation(vocabulary.SPACED_AGENT_NOUNS)


_AFTER_VERB = lazy.compile(
    rf"\s+(?i:{_ARTICLE})(?P<noun>(?i:{_NOUN_FIRST})\s+(?:[a-zà-ÿ]+\s+)?)?{_FOREIGN_NAME}"
)


# An agent named plainly as the object of a verb that comes last, to be confirmed against the
# project's agents: "`paper-deep-reader` を上位 3 本に**並列 dispatch**", "tdd-dev:test-reviewer 호출".
_OBJECT_REF = lazy.compile(
    r"(?P<mark>`|\*\*)@?(?P<name>[A-Za-z][\w.-]*(?::{1,2}[A-Za-z][\w.-]*)*)(?P=mark)"
    r"|(?<![\w`*@:/.-])@?(?P<plain>[A-Za-z][A-Za-z0-9_-]*(?::[A-Za-z][A-Za-z0-9_-]*)?)(?![A-Za-z0-9_`*:/.-])"
)
_BESIDE_THE_VERB = lazy.compile(r"[\s*_]*$")


def _objects(grammar: _Grammar, clause: str, beside: bool) -> list[tuple[str, int]]:
    """The agents a clause before a verb that comes last holds as its objects: each marked by an
    object particle (or joined by "and" to one), or (`beside`: a verb of the language, not an
    English one borrowed) standing right before the verb."""
    language = grammar.language
    found = []
    for ref in _OBJECT_REF.finditer(clause):
        group = "name" if ref.group("name") else "plain"
        name = ref.group(group)
        if len(name) < 3 or name in _TOOL_NAMES or code_like(name):
            continue
        after = _ASIDE.sub("", clause[ref.end() :].lstrip(), count=1).lstrip()
        # "spring-architect 에이전트 호출": the name, then the noun that calls it an agent
        noun = grammar.agent.match(after) or grammar.subagent.match(after)
        after = _plural(language, after[noun.end() :].lstrip() if noun else after)
        if (
            _marks_the_object(language, after)
            or (
                after.startswith(language.and_particles)
                and any(p in after[1:] for p in language.object_particles)
            )
            or (beside and _BESIDE_THE_VERB.match(after))
        ):
            found.append((name, ref.start(group)))
    return found


# An agent named in a compound with the noun ("BibliotheKarin-Agent", "Review-Subagenten")
_COMPOUND = lazy.compile(
    r"(?<![\w-])(?P<name>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)-(?i:sub-?)?(?i:agent)(?:en)?\b"
)


def _unbold_noun(text: str) -> str:
    """ "**youtube-fetch エージェント**に" read as "**youtube-fetch** エージェントに": the name in bold
    beside its noun, every offset kept (the two strings are as long)."""
    if "**" not in text:
        return text
    return _BOLD_NAME_AND_NOUN.sub(r"**\g<name>**\g<space>\g<noun>", text)


# An agent named plainly right after a verb of a language that writes words together, its noun after
# it (English or the language's own): "委派 ARCHITECT agent", "使用 planner 代理" (a candidate)
_NAMED_AFTER_VERB = lazy.compile(
    r"[ \t]*(?:给|給)?[ \t]*(?:\*\*)?(?P<name>[A-Za-z][\w-]*)(?:\*\*)?[ \t]*"
    + "(?i:"
    + vocabulary.alternation(
        (
            "agent",
            *(n for language in vocabulary.LANGUAGES if not language.spaced for n in language.agent_nouns),
        )
    )
    + ")"
)


def foreign_mentions(text: str) -> list[ProseSpawn]:
    text = _unbold_noun(text)
    for grammar in _grammars_for(text):
        if grammar.language.verb_last:
            for verb in grammar.verb.finditer(text):
                clause_start, clause, negated = _foreign_clause(grammar, text, verb)
                if negated:
                    continue
                objects = _objects(grammar, clause, beside=not verb.group(0).isascii())
                if objects:
                    return [
                        ProseSpawn(Form.F6, verb.start(), n, clause_start + at, None, 0)
                        for n, at in objects[:3]
                    ]
            continue
        if not grammar.language.spaced:
            for verb in grammar.verb.finditer(text):  # "委派 ARCHITECT agent", "交给 reviewer 代理"
                negated = _foreign_clause(grammar, text, verb)[2]
                named = None if negated else _NAMED_AFTER_VERB.match(text, verb.end())
                if named:
                    return [
                        ProseSpawn(Form.F6, verb.start(), named.group("name"), named.start("name"), None, 0)
                    ]
            continue
        for verb in grammar.verb.finditer(text):
            clause_start, clause, negated = _foreign_clause(grammar, text, verb)
            if negated:
                continue
            if clause_start < verb.start():  # an infinitive last: "den BibliotheKarin-Agent spawnen"
                compound = _COMPOUND.search(clause)
                if compound:
                    at = clause_start + compound.start("name")
                    return [ProseSpawn(Form.F6, verb.start(), compound.group("name"), at, None, 0)]
                continue
            m = _AFTER_VERB.match(text[verb.end() : verb.end() + 120])
            if m is None or (
                m.group("noun") is None and verb.group(0).lower() in grammar.language.weak_verbs
            ):
                continue  # a verb of using: "utilise WebFetch" names a tool, "usa el agente x" an agent
            raw = m.group("name").rstrip(".,;:!?")
            name = raw.strip("`*")
            if len(name) < 3 or code_like(name):
                continue  # "utilise WebSearch": a tool
            at = verb.end() + m.start("name") + len(raw) - len(raw.lstrip("`*"))
            return [ProseSpawn(Form.F6, verb.start(), name, at, None, 0)]
    return []


def _verb_then_word(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return _compound_last(text) or any(
        re.search(rf"{g.verb.pattern}\s+\S", text, re.IGNORECASE) is not None
        for g in _GRAMMARS
        if g.language.spaced and not g.language.verb_last
    )


# a compound right before an infinitive that ends its clause ("den X-Agent spawnen.")
_COMPOUND_LAST = tuple(
    (language, re.compile(rf"{_COMPOUND.pattern}\s+(?i:{vocabulary.alternation(language.clause_final)})\b"))
    for language in vocabulary.LANGUAGES
    if language.clause_final
)


def _compound_last(text: str) -> bool:
    return any(
        _closes(language, text, m.end())
        for language, compound in _COMPOUND_LAST
        for m in compound.finditer(text)
    )


def _verb_last(text: str, low: str, paragraphs: Paragraphs) -> bool:
    return (
        not text.isascii()
        and _CJK.search(text) is not None
        and any(g.verb.search(text) is not None for g in _GRAMMARS if g.language.verb_last)
    )


def _named_after_a_verb(text: str, low: str, paragraphs: Paragraphs) -> bool:
    """`_NAMED_AFTER_VERB` after a verb of a language that writes words together and its verb first."""
    return not text.isascii() and any(
        _NAMED_AFTER_VERB.match(text, m.end()) is not None
        for g in _grammars_for(text)
        if not g.language.spaced and not g.language.verb_last
        for m in g.verb.finditer(text)
    )


MENTION_TRIGGER = either(
    Trigger(
        tuple(
            dict.fromkeys(
                p
                for language in vocabulary.LANGUAGES
                if not language.spaced and not language.verb_last
                for p in vocabulary.probes(language.verbs)
            )
        ),
        _named_after_a_verb,
    ),
    Trigger(
        tuple(
            dict.fromkeys(
                p
                for language in vocabulary.LANGUAGES
                if language.spaced and not language.verb_last
                for p in vocabulary.probes(language.verbs)
            )
        ),
        _verb_then_word,
    ),
    # (a borrowed English verb is no probe: an object particle stands before it)
    Trigger(
        tuple(
            dict.fromkeys(
                p
                for language in vocabulary.LANGUAGES
                if language.verb_last
                for p in (
                    *vocabulary.probes(v for v in language.verbs if not v.isascii()),
                    *language.object_particles,
                )
            )
        ),
        _verb_last,
    ),
)


def foreign_spawns(text: str) -> list[ProseSpawn]:
    """F6 in another language: "`x` エージェントを起動する", "派一个只读 subagent",
    `Lanza el subagente`. The verb's clause must hold a sub-agent noun, or an agent noun and an
    agent of a known shape; a negated verb spawns nothing."""
    text = _unbold_noun(text)
    for grammar in _grammars_for(text):
        for verb in grammar.verb.finditer(text):
            clause_start, clause, negated = _foreign_clause(grammar, text, verb)
            if negated:
                continue
            final = _final(grammar.language, text, verb)
            subagents = _nouns(grammar, grammar.subagent, clause, final) or _tool_called(
                grammar, verb, clause, final
            )
            ref = _adjacent_ref(clause, subagents + _nouns(grammar, grammar.agent, clause, final))
            sentence = _sentence_of(text, verb)
            by_the_tool = _THE_TOOL.search(sentence) and not _TOOL_REFUSED.search(sentence)
            # agents started in parallel are sub-agents: "分析エージェントを**並列で**起動する"
            in_parallel = (
                grammar.parallel is not None
                and (
                    grammar.parallel.search(clause.replace("*", "")) is not None
                    # "并发启动 Agents": the manner right before a verb that comes first
                    or grammar.parallel.search(text, max(0, verb.start() - 4), verb.start()) is not None
                )
                and bool(
                    _nouns(grammar, grammar.agent, clause, final)
                    or (grammar.role is not None and _nouns(grammar, grammar.role, clause, final))
                )
            )
            handed = None if grammar.language.verb_last else _TO_A_MENTION.match(text, verb.end())
            if handed:  # "委派给 @code-reviewer", "Délègue à @critic": an agent by its @-mention
                return [
                    ProseSpawn(Form.F6, verb.start(), handed.group("name"), handed.start("name"), None, 0)
                ]
            if not (subagents or ref or by_the_tool or in_parallel or _counted(grammar, verb, clause)):
                continue
            if (
                ref is None
                and not (by_the_tool or in_parallel)
                and verb.group(0) in grammar.language.making_verbs
                and any(clause[: n.start()].rstrip().endswith(grammar.language.new_words) for n in subagents)
            ):
                continue  # "새 서브에이전트를 생성": a new definition made, as "create a new subagent"
            if ref is None:
                return [ProseSpawn(Form.F6, verb.start(), None, 0, None, 0)]
            group = next(g for g in ("name", "mention", "builtin") if ref.group(g))
            return [
                ProseSpawn(Form.F6, verb.start(), ref.group(group), clause_start + ref.start(group), None, 0)
            ]
    return []


def _used(grammar: _Grammar, clause: str) -> bool:
    """Whether a verb of using has an agent or the tool as its object, right after it (a count
    at most between): "用 subagent 并行", not "用 grep 找出 subagent 定义" (grep is what is used).
    A language whose words have spaces finds the object after its verb on its own."""
    if grammar.language.spaced or _NAMED_AFTER_VERB.match(clause):
        return True  # (an agent by its name and noun: "使用 ARCHITECT agent")
    rest = clause.lstrip(" \t*_")
    count = _COUNTS.get(grammar.language.code)
    counted = count.match(rest) if count else None
    rest = rest[counted.end() :] if counted else rest
    named = _FOREIGN_REF.match(rest)
    rest = rest[named.end() :].lstrip() if named else rest
    noun = next((m for p in (grammar.subagent, grammar.agent, _THE_TOOL) if (m := p.match(rest))), None)
    # "用 `qa-engineer` agent 定義的表格": the agent is the subject of what modifies the object
    return noun is not None and _MODIFIES.match(rest, noun.end()) is None


_MODIFIES = lazy.compile(r"\s*[\u3400-\u9fff]{1,3}的")


def _counted(grammar: _Grammar, verb: re.Match[str], clause: str) -> bool:
    """Whether a verb of starting that comes first counts the agents it starts: "开一个独立的
    checker agent", "派两个 agent" (a bare agent noun is not enough without the count; a verb of
    using or making counts nothing it starts: "生成一个 agent 配置文件")."""
    language = grammar.language
    count = _COUNTS.get(language.code)
    if count is None or language.verb_last or verb.group(0) in (*language.weak_verbs, *language.making_verbs):
        return False
    return count.match(clause.lstrip(" *_")) is not None and bool(_nouns(grammar, grammar.agent, clause))


# The trigger: one of the languages' agent nouns (or the English "agent", which they borrow) and
# one of their verbs.
_FOREIGN_NOUNS = tuple(
    noun for language in vocabulary.LANGUAGES for noun in (*language.subagent_nouns, *language.agent_nouns)
)
_BOLD_NAME_AND_NOUN = lazy.compile(
    r"\*\*(?P<name>[a-z][\w.-]*(?::[\w.-]+)?)(?P<space>\s*)"
    rf"(?P<noun>{vocabulary.alternation(tuple(n for n in _FOREIGN_NOUNS if not n.isascii()))})\*\*"
)
# the English verbs the CJK languages borrow count only where a CJK letter stands
_OWN_VERB_PROBES = vocabulary.probes(
    verb
    for language in vocabulary.LANGUAGES
    for verb in language.verbs
    if language.spaced or not verb.isascii()
)
_BORROWED = vocabulary.probes(
    verb
    for language in vocabulary.LANGUAGES
    if not language.spaced
    for verb in language.verbs
    if verb.isascii()
)


def _has_verb(text: str, low: str, paragraphs: Paragraphs) -> bool:
    if any(verb in low for verb in _OWN_VERB_PROBES):
        return True
    return any(verb in low for verb in _BORROWED) and _CJK.search(text) is not None


_NOUN_PROBES = vocabulary.probes((*_FOREIGN_NOUNS, "agent"))
# agents by their role, started in parallel ("各 reviewer を並列起動"): the CJK word for "in
# parallel" stands for the noun in the gate (English text never holds it)
_PARALLEL_PROBES = vocabulary.probes(
    w for lang in vocabulary.LANGUAGES if not lang.spaced for w in lang.parallel
)
# "@" lets a block with "委派给 @x" through to the verb test; the word test (which decides whether a
# Python string is read at all) takes the words before the mention, not every decorator's "@"
TRIGGER = Trigger(
    (*_NOUN_PROBES, *_PARALLEL_PROBES, "@"),
    _has_verb,
    words=(*_NOUN_PROBES, *_PARALLEL_PROBES, *_MENTION_LEADS),
)


# Another language's F6, one entry per language of vocabulary.LANGUAGES (the shapes of issue 19).
EXAMPLES = (
    FormExamples(
        Form.F6,
        valid=(
            "各調査項目について `mgzl:budgeted-investigator` エージェントを Agent ツールで起動する。",
            # "──" is a dash in Japanese prose, not a diagram's line
            "subagent はプラグイン同梱の役割 agent で起動する ── 以降 `inspector` はその役割を指す。",
            "判定結果に応じて `@test-implementer` サブエージェントを起動して修正する。",
            "`@implementation-plan-creator-lite` エージェントを利用する。",
            "ビルド・テストは必ずサブエージェントで実行。",
            "レビュー観点ごとに Agent を並列で起動する。",  # the tool as the object
            "Agent ツールを使って、3 人のレビュアーを同じメッセージでスポーンする。",  # the tool as the means
            "調査には Agent tool（subagent_type: `Plan`）を使用する。",  # an aside before the particle
            "大きな差分では Plan エージェントを spawn する。",  # a built-in named plainly
            "各 reviewer を `model: opus`、`effort: max` で並列起動する。",  # roles, in parallel
            "`agent-writer` エージェントと `agent-spec` スキルを使用して定義を書く。",  # two objects
            "定義を Read し、プロンプトを埋め込んで Agent ツールを呼ぶ。",
            "観点ごとのエージェントを**並列で**起動する。",  # agents started in parallel
            "3 つの調査を同じメッセージで並列起動する（Agent tool の呼び出しを 3 つ）。",  # the tool, aside
            "観点ごとの分析エージェントを **並列 dispatch** する。",  # an English verb borrowed, last
            "読み役は同梱の agent `reader`（`subagent_type: loops:reader`）で立てる。",  # set up; name, aside
            "レビュー用サブエージェント起動。",  # a terse step: the particle left out
            "各観点の Task を並列で呼び出す。",  # the tool by its name, called
            "URL が渡されたら **video-fetch エージェント**に処理を委譲する。",  # name and noun in one bold
        ),
        invalid=(
            "サブエージェントを起動しない。",
            "テストを並列起動する。",  # tests in parallel: no role, no agent
            "reviewer は `max` で深い推論を優先する。",  # a role as the subject
            "このエージェントは `lint` を実行する。",  # the agent does the running: no agent shape
            "メインエージェントで実行する。",  # the main agent: no agent shape
            "それ以外のサブエージェントを起動してはならない。",
            "サブエージェントの `description` は、エージェントがいつ呼び出されるかを決める。",  # passive
            "この手順では Agent ツールを使用しない。",
            "Planning エージェントを起動する前に設定を読む。",  # not a built-in's name
            "`agent-writer` エージェントと比較して実行時間を測る。",  # compared with, not used
            "このエージェントは並列で実行される。",  # the agent does the running, described
            "重い処理は `runner` サブエージェントに委任して実行できる。",  # can be: a possibility, told of
            "複数の依頼を 1 回の `runner` 起動に折り畳む。",  # 起動 before a particle: a noun (a start)
            "`runner` 実行中の追加依頼は完了を待つ。",  # while it runs
            "準備はメインで実行する（Agent ツールは使わない）。",  # the tool refused
            "キーワード: `subagent`, `並列実行`, `Task tool`",  # a verb in a code span
            "Claude Code ではエージェントは Task tool の subagent として利用可能です。",  # can be used
            "単一プロジェクト内の run 比較は `stats` agent が担当する。",  # "run" a noun before Japanese
            "For Task tool dispatch. Valid values:",  # an English sentence: no verb borrowed
            "サブエージェント起動する前に設定を読む。",  # before it starts: the verb modifies a noun
            "複数のサブエージェントを並列で起動し、タスクを分割処理する機能。",  # a feature, described
            "かといって agent に推測させると、実行するコマンドが毎回変わる。",  # "if one lets": a condition
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "`code-reviewer` 에이전트를 실행하세요.",
            "서브에이전트를 호출해서 테스트를 돌리세요.",
            "리뷰어 팀메이트를 스폰하고 결과를 모으세요.",
            "페르소나 프롬프트를 읽고 Agent로 디스패치.",
            "분석 에이전트를 **병렬로** 호출합니다.",
            "리뷰 서브에이전트를 **병렬 dispatch** 하세요.",
            "테스트가 실패하면 적절한 하위 에이전트를 고용하여 원인을 찾으세요.",  # hire
            "각 반복의 구현은 implementer agent에 맡기고, 체크박스는 main이 갱신한다.",  # handed to
            "구현은 서브에이전트에게 맡긴다.",  # entrust
            "검증은 sub-agent 에게 체크리스트와 함께 넘깁니다.",  # hand over
            "서브에이전트 2개를 병렬로 실행하세요.",  # a count between the noun and its particle
            "- Task Agent 2개 실행",  # a count, right before the verb
            "서브에이전트들을 병렬로 실행하세요.",  # a plural before the particle
            "2. `spring-architect` 에이전트 호출",  # a terse step: the particle left out
            "다음 Task들을 한 메시지에서 동시에 호출한다:",  # the tool by its name, called
            "Task 4개를 병렬 실행합니다.",  # Tasks counted and run in parallel: the tool's calls
        ),
        invalid=(
            "서브에이전트를 호출하지 마세요.",
            "에이전트에서 실행되는 테스트를 확인한다.",  # 에서: run in (a place), nothing handed
            "팀메이트를 스폰하지 마세요.",
            "**Task 도구 호출 금지**: 이 커맨드는 직접 실행합니다.",
            "Task 4개를 순서대로 실행합니다.",  # a plan's tasks, one after another
            "에이전트 설정을 확인하세요.",
            "서브에이전트를 사용했다면 더 빨랐을 것이다.",
            "서브에이전트 사용 가능 여부를 확인하세요.",  # whether sub-agents can be used
            "서브에이전트에게 맡기지 않는다.",
            "결과를 사용자에게 넘깁니다.",  # to the user: no agent
            "Claude가 서브에이전트를 사용하게 하려면 설명을 구체적으로 쓰세요.",  # "to make it use"
            "플러그인에 새 서브에이전트를 생성합니다.",  # a definition made, as "create a subagent"
            "`runner` 실행을 기다린다.",  # 실행 before a particle: a noun (waits for the run)
            "서브에이전트 실행 결과를 확인한다.",  # the particle left out, but a noun follows the verb
            "서브에이전트 호출하는 방법은 문서를 보세요.",  # how to call: the verb modifies a noun
            "각 Task를 순서대로 실행한다.",  # a plan's tasks are run, not called
            "서브에이전트들을 사용하지 마세요.",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "派 `seed-prototype` agent 造一次性原型。",
            "用户要求更干净的视角时，派一个只读 subagent 执行同一份清单。",
            "不支援時依流程章節以 Agent tool 派工。",  # the tool the means, the negation a condition
            "起 `shop:planner` subagent，执行 spec 与 plan。",  # 起: start one
            "轻调查派 sub-agent，结论直接写票。",
            "遇到复杂场景时，委派给 @code-reviewer 处理。",
            "并发启动 Agents（每个检查点一组）。",  # in parallel, right before the verb
            "对于复杂的缺陷修复，生成一个子智能体来编写复现测试。",
            "兩條軌道並行：啟動兩個審查 subagent。",  # traditional characters
            "复杂的长输出可交给 sub agent。",  # hand to; the noun with a space
            "用子agent执行：一个带技能跑，一个不带。",
            "召集 Agent Team（TeamCreate），三名 reviewer 并行评审。",  # convene a team
            "质检时开一个独立的 checker agent，把清单交给它。",  # 开 (open) one: a count, then the noun
            "C 模式：用 subagent 并行处理其余模块。",  # 用 (use) right before the sub-agent
            "能开 subagent 就开 subagent 复核。",
            "派两个 agent 分别审查前后端。",
        ),
        invalid=(
            "不要派 subagent 做这件事。",
            "不要委派给 @code-reviewer。",
            "这个流派的 agent 很多。",
            "`pro` 在内部会派生 `flash` 级 `subagent` 分担工具调用。",
            "不要同时启动 Agents。",
            "生成子智能体的提示词模板。",  # the prompt is made, not a sub-agent
            "生成测试报告。",
            "手工派出的 sub-agent 也要登记。",  # one sent before: the verb modifies the noun
            "| 派发 sub-agent 后进入等待 | 设置提醒 |",  # after it: a time, not a step
            "凡派发皆登记——sub-agent、后台 shell 都进花名册。",  # the dash ends the clause
            "如何派发子代理，见参考文档。",  # how to: a topic
            "不要以 Agent tool 派工。",
            "这些 subagent 一起完成审查，看起来很快。",  # 一起 / 看起: no verb of starting
            "エラーが起きたら subagent の出力を確認する。",  # Japanese 起き: to occur
            "不要啟動 subagent。",
            "开发 subagent 时先写好描述。",  # 开发: to develop
            "打开 agent 的配置文件。",  # 打开: to open a file
            "这是一个通用 subagent 模板。",  # 通用: general-purpose
            "用 grep 找出所有 subagent 定义。",  # 用 governs grep, not the sub-agent
            "不用 subagent，直接在主线程完成。",
            "生成一个 agent 配置文件。",  # a file made, not an agent started
            "结果交给主 agent 汇总。",  # handed back to the main agent
            "交给用户确认后再继续。",
            "召集全体成员开会。",
            "输出格式一律用 `qa-engineer` agent 定义的表格。",  # the agent defines the table used
            "目录下的参考模板，供 frontend-html agent 使用。",  # for the agent to use: not Japanese
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Starte den `code-reviewer` Agenten.",
            "Beauftrage einen Subagenten mit der Suche.",
            "Einen Subagenten für die Suche starten.",  # an infinitive last, its object before it
            "Subagenten parallel starten und die Ergebnisse sammeln.",
        ),
        invalid=(
            "Starte den Subagenten nicht.",
            "Starte den Server neu und prüfe den Agenten.",
            "Den Server starten.",
            "Den Subagenten nicht starten.",
            "**Kein Review-Subagent spawnen.** Dieser Befehl arbeitet selbst.",
            # the object before the infinitive; the sub-agent in a cross-reference after it
            "Den fertigen Befehl delegieren (siehe „Builds als Subagent“).",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Lanza el subagente `code-reviewer`.",
            "Delega la búsqueda al agente **shop:critic**.",
            "Utiliza el agente `shop:critic` con el diff.",
            "Revisa el diseño usando el agente `shop:critic`.",  # a gerund
        ),
        invalid=(
            "No lances el subagente.",
            "Inicia sesión con el agente de usuario.",
            "Genera el informe del equipo de agentes. Lo ejecuta el `shop:lead`.",  # who runs it
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Lancez le sous-agent **critic** sur le diff.",
            "Invoque l'agent `shop:critic`.",
            "Tu dois utiliser l'agent `shop:critic` avec le diff.",
        ),
        invalid=(
            "Ne lancez jamais le sous-agent.",
            "Lance le serveur avant l'agent de build.",
            "N'utilise pas l'agent `shop:critic` ici.",
            "Si une URL est fournie, utilise WebFetch pour la lire.",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Inicie o agente `shop:critic`.",
            "Delegue a busca a um subagente.",
            "Lancar 3 subagentes em paralelo via Agent tool:",  # written without its cedilla
            "Dispare o agente `shop:critic` para revisar.",
        ),
        invalid=(
            "Não inicie o subagente.",
            "Inicie o servidor do agente de usuário.",
            "- Iniciar nova fase antes de subagentes confirmarem NAO E ACEITAVEL.",  # a time's clause
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Lancia un subagente con questo prompt, e nient'altro.",
            "Delega la revisione all'agente `shop:critic`.",
            "Avvia tre subagenti in parallelo, uno per modulo.",
        ),
        invalid=(
            "Non lanciare il subagente.",
            "Il subagente legge i file e scrive il rapporto.",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Делегировать агенту `quality-auditor` полный разбор.",
            "Запусти субагента для анализа структуры.",
            "Запустите субагентов параллельно, по одному на модуль.",
            "Используйте агента **shop:critic** для ревью.",
        ),
        invalid=(
            "Не запускай субагента для этой задачи.",
            "Никогда не делегируй агенту `quality-auditor`.",
            "Запусти сервер и проверь агента сборки.",
            "Агенты TeamCity собирают проект.",
        ),
    ),
    FormExamples(
        Form.F6,
        valid=(
            "Zkontroluj výsledek: deleguj nezávislou kontrolu na agenta `shop:critic`.",
            "Spusť tři subagenty paralelně, jednoho na každý modul.",
            "Agenta zavoláš přes Agent/Task tool jménem `shop:critic`.",
        ),
        invalid=(
            "Nedeleguj u drobné úpravy jednoho souboru.",
            "Nikdy nespouštěj subagenta kvůli jednomu souboru.",
            "Agent `shop:critic` sám nic neopravuje.",
            "Spusť testy a zkontroluj výstup.",
        ),
    ),
)
