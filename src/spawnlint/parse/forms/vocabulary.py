"""Every word the spawn forms read, written once: the recognisers (the form modules, prose.py,
languages.py, rule_sentence.py, counter_examples.py) and their triggers (the cheap gates before
them, the Python file test among them) build their patterns from these lists, so a word taught
here reaches every gate at once.

A word is written in a small notation: a space stands for any white space, `'` for an optional
apostrophe (straight or curly), a part in parentheses is optional (`team(mate)(s)`,
`sub(-)agent`), and a final `*` lets the word go on
(`omit*` reads `omits`, `omitted`). Words are lower-case; every pattern built from them ignores
case."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# Spawn verbs. A strong verb spawns by itself (`Spawn \`shop:critic\``, `Launch in parallel:`);
# a weak one only with an agent noun near it ("Use the reviewer agent").
STRONG_VERBS = ("spawn", "launch", "dispatch", "delegate", "invoke")
# Strong verbs of two words: their first word alone is too common to be worth a parse.
PHRASAL_VERBS = ("kick off", "fire off", "spin up", "fan out", "hand off")
WEAK_VERBS = (
    "start",
    "run",
    "use",
    "call",
    "create",
    "form",
    "set up",
    "assemble",
    "deploy",
    "send",
    "bring in",
    "have",
    "get",
    "ask",
    "activate",
    "engage",
    "consult",
    "fire",  # "fire a background subagent"
    "hand",  # "hand the diff to a fresh sub-agent"
    *("utilize", "utilise", "leverage", "employ"),  # "Utilize the appropriate GitHub sub-agent"
)
# Weak verbs whose object may be an agent by its id alone ("Run `content-strategist` to draft the
# brief"): a spawn only where the project has that agent. Not "use": "**Related**: … then use
# `feature-planner` for the backlog" points a reader at an agent.
ID_VERBS = ("run",)
# Weak verbs whose object may be an agent by its id alone where a purpose follows ("Use the
# `algolia-agent` to run the reindex"): the work is handed to it; an agent of the project or
# nothing. "use `feature-planner` for the backlog" stays a pointer.
PURPOSE_ID_VERBS = ("use",)
# A verb's -ing form after these is an instruction too ("prefer dispatching a fresh subagent").
GERUND_LEADS = ("prefer", "consider", "try", "by")
# "Have a subagent do X" spawns; "you have two agents" does not: these count only as imperatives.
IMPERATIVE_ONLY = ("have", "get", "ask")
# Parameters of the Agent tool that no other framework's `Task(...)` takes (the Bash tool takes
# `run_in_background` too): `Task(run_in_background=true)` is a spawn, and so is "Dispatch via
# `run_in_background: true`" with no object
AGENT_ONLY_KEYS = ("run_in_background", "isolation")
# The one of them that names an agent by its id alone: "ask the spec-auditor to investigate"
ASKING_VERB = "ask"
# The team verbs that start its teammates too: "Dispatch a planning team under a shared TeamCreate"
TEAM_SPAWN_VERBS = ("spawn", "dispatch", "launch")
# The verbs that create an agent team ("Create a team", "Use TeamCreate").
TEAM_VERBS = ("create", "form", "set up", "spin up", "start", "assemble", "use", *TEAM_SPAWN_VERBS)
# The verbs of a sentence that introduces the Agent/Task tool's parameters (F4, F5), in their
# forms (`spawning`, `invokes`); not the words they begin ("user", "runtime", "callback").
TOOL_SENTENCE_VERBS = (
    *("spawn(s)", "spawned", "spawning", "launch(es)", "launched", "launching"),
    *("dispatch(es)", "dispatched", "dispatching", "start(s)", "started", "starting"),
    *("invoke(s)", "invoked", "invoking", "delegate(s)", "delegated", "delegating"),
    *("create(s)", "created", "creating", "run(s)", "ran", "running"),
    *("call(s)", "called", "calling", "use(s)", "used", "using"),
)

# Other harnesses an "agent" may run in, a process of its own and not a subagent of this session
# ("a new Claude Code agent in a separate terminal", "Codex CLI agents")
# (the harnesses other than Claude Code: "Codex: invoke `name: x`" is how Codex runs a skill)
OTHER_HARNESSES = ("codex", "gemini", "cursor", "opencode", "copilot", "goose", "aider")
HARNESSES = ("claude code", *OTHER_HARNESSES, "cli", "terminal")
# ... their command lines ("`claude --bg "<summary>"`", "`codex exec …`"): an agent the sentence
# starts with one is that process
# The kinds of a plugin's components besides agents: a label or heading that names one beside an
# agent's makes the lines an inventory of what a plugin holds, not a step's worker
OTHER_COMPONENTS = ("skill", "command", "hook", "plugin", "mcp server", "mcp", "output style")
HARNESS_COMMANDS = ("claude", "codex", "gemini", "opencode", "cursor-agent", "aider")
# ... and the words that make any agent noun one ("a headless worker", "an OpenAI Agent SDK agent")
HARNESS_WORDS = (*HARNESSES, "process", "headless", "sdk")

# Agents that are people or other software, by the word right before the noun: "consult a
# registered tax agent", "the ssh agent", "TeamCity build agents" are never subagents
OTHER_AGENTS = (
    *("tax", "travel", "estate", "insurance", "registered", "licensed", "human", "fbi", "secret"),
    *("booking", "shipping", "talent", "literary", "patent", "escrow", "press"),
    *("ssh", "gpg", "launchd", "user", "build", "jenkins", "teamcity", "buildkite"),
)

# Agent nouns (each also read in the plural). The core ones name an agent in any sentence
# ("two parallel agents"); the role nouns only as the object of a spawn verb.
CORE_AGENT_NOUNS = ("sub(-)agent", "agent", "teammate")
# The letters of the CJK languages (kana, CJK ideographs, Hangul): where one stands, their grammar reads.
CJK_LETTERS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
ROLE_NOUNS = ("worker", "reviewer", "critic", "helper")
# One agent by its role after a strong verb ("launch a fresh implementer"), not any agent noun.
SPAWNED_ROLES = (
    "reviewer",
    "critic",
    "implementer",
    "researcher",
    "planner",
    "verifier",
    "investigator",
    "explorer",
    "auditor",  # "## Step 3 — Dispatch the auditors, right-sized"
)
# A sub-agent by a pronoun after a strong verb, where the sentence named sub-agents before it
# ("If the host supports subagents, launch one").
SPAWNED_PRONOUNS = ("one", "them", "both", "all three", "all four", "all five", "all six")
# The Task tool's calls by its own noun after a strong verb: "spawn parallel sub-tasks for
# research"; "tasks" only after "spawn" and these words ("Spawn parallel research tasks"), not a
# shell's or a runtime's ("spawn a background task", "spawn asyncio tasks")
SPAWNED_TASKS = ("sub(-)task",)
TASK_SPAWN_VERB = "spawn"
TASK_WORDS = (
    *("a", "an", "the", "two", "three", "four", "five", "multiple", "several", "parallel", "more"),
    *("focused", "follow-up", "separate", "concurrent", "independent", "research", "investigation"),
    *("verification", "analysis", "exploration"),
)
AGENT_NOUNS = (*CORE_AGENT_NOUNS, *ROLE_NOUNS)
# Who else may go idle in a team's instructions (SL105), besides the agent nouns.
IDLE_SUBJECTS = ("team-mate", "team mate", "member", "specialist")
# The nouns that tell a sentence naming the Agent/Task tool is about spawning one.
TOOL_SENTENCE_NOUNS = (*CORE_AGENT_NOUNS, "worker")
# The nouns that say the agent is spawned ("dispatch them as sub-agents"), not just any agent.
SPAWNED_NOUNS = ("sub(-)agent", "teammate", "task agent")  # "Use Task agents to gather context"
TEAM_NOUN = "team"
# What a strong verb may spawn besides an agent: a team or a panel of agents.
GROUP_NOUNS = (TEAM_NOUN, "panel")
# The spawn tools by their names as written (`Task(...)`, "the `Agent` tool"), and as prose names
# them in any case (`the task tool`).
SPAWN_TOOLS = ("Agent", "Task")
# Words before an @-mentioned agent that read or change it, or name it in passing, rather than
# invoke it: "Update @planner's prompt", "see @reviewer", "thanks @critic"
NOT_INVOKING_WORDS = (
    *("see", "read", "edit", "update", "modify", "open", "fix", "improve", "review", "check"),
    *("refer", "like", "per", "from", "by", "about", "create", "write", "rename", "delete"),
    *("remove", "cc", "thanks", "ping", "test", "debug"),
)
SPAWN_TOOL_WORDS = tuple(tool.lower() for tool in SPAWN_TOOLS)

# Words that negate the spawn verb after them ("do not spawn", "instead of launching").
NEGATIONS = (
    "never",
    "do not",
    "don't",
    "does not",
    "doesn't",
    "will not",
    "won't",
    "must not",
    "mustn't",
    "should not",
    "shouldn't",
    "cannot",
    "can't",
    "no need to",
    "avoid",
    "without",
)
# Words that set aside what follows them up to a comma or an arrow, not the verb after that:
# "Instead of vector search, use the Explore agent" (the agent is the replacement).
REPLACING = ("instead of", "rather than")
# Words that forbid the `name` parameter in a no-name rule sentence.
FORBIDDING = ("never", "do not", "don't", "must not", "mustn't", "without", "omit*")
# ... and, beside a parameter of a spawn, that forbid it ("no `name`").
FORBIDDING_A_PARAMETER = (*FORBIDDING, "no")

# The no-name rule sentence (SPEC §5): it names agents, tasks or spawning ...
RULE_SPAWN_NOUNS = ("agent(s)", "task(s)", "sub(-)agent(s)")
RULE_SPAWN_STEMS = ("spawn*",)
# ... and the mechanism, to be complete.
MECHANISM = "in_process_teammate"
# A rule that makes room for named teammates ("spawn subagents (not teammates) ...").
RULE_EXCEPTIONS = (
    "team(mate)(s)",
    "sub(-)agent(s)",
    "unless",
    "except*",
    "other",
    "plain",
    "ordinary",
    "regular",
    "normal",
    "non-team",
)

# Counter-examples: the labels of a heading, lead line or comment that shows a spawn as wrong.
COUNTER_EMOJI = ("❌", "✗", "✘", "🚫", "⛔", "👎")
COUNTER_LABELS = (
    "wrong",
    "bad",
    "incorrect",
    "broken",
    "anti(-)pattern(s)",
    "avoid",
    "don't",
    "do not",
    "never",
)
# Labels that also lead the right way ("Never do X; do Y"): they mark only named spawns.
WEAK_COUNTER_LABELS = ("avoid", "don't", "do not", "never")
# Labels that mark a spawn wherever they stand, when a colon, bracket or dash follows them.
COUNTER_VERDICTS = ("wrong", "bad", "incorrect")
# Labels that mark a spawn wherever they stand as words.
COUNTER_ANYWHERE = ("anti(-)pattern(s)", "wrong", "incorrect")
# The words of a trailing comment that marks its line (`Task(...)  # wrong`).
COUNTER_COMMENT_WORDS = ("wrong", "bad", "incorrect", "don't", "never")


def pattern(word: str) -> str:
    """The regular expression (without boundaries) of one word of the notation above."""
    out: list[str] = []
    i = 0
    while i < len(word):
        c = word[i]
        if c == "(":
            close = word.index(")", i)
            out.append(f"(?:{pattern(word[i + 1 : close])})?")
            i = close + 1
            continue
        if c == " ":
            out.append(r"\s+")
        elif c == "'":
            out.append("[’']?")
        elif c == "*" and i == len(word) - 1:
            out.append(r"\w*")
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def alternation(words: Iterable[str], plural: bool = False) -> str:
    """`(?:a|b|c)` of the words, each in the plural too when `plural`."""
    tail = "s?" if plural else ""
    return "(?:" + "|".join(pattern(w) + tail for w in words) + ")"


def gerund(verb: str) -> str:
    """The -ing form of a verb of the lists above, its first word changed (`kick off` ->
    `kicking off`, `run` -> `running`, `invoke` -> `invoking`)."""
    first, _, rest = verb.partition(" ")
    if first.endswith("e") and not first.endswith("ee"):
        first = first[:-1]
    elif re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", first):
        first += first[-1]  # one short vowel: run, set, get
    return f"{first}ing" + (f" {rest}" if rest else "")


def probe(word: str) -> str:
    """A literal that every text the word's pattern matches holds once lower-cased: its longest
    fixed piece (`do not` -> `not`, `sub(-)agent` -> `agent`). The cheap gates search these with
    `str.find`, which costs a tenth of the pattern."""
    fixed = re.sub(r"\([^)]*\)", " ", word).rstrip("*")
    pieces = [p for p in re.split(r"[ ']", fixed) if p]
    return max(pieces, key=len).lower()  # "Agent ツール" -> "agent"


def probes(words: Iterable[str]) -> tuple[str, ...]:
    """The probes of the words, without one that holds another (`team` finds `teammate`)."""
    found: list[str] = []
    for word in words:
        literal = probe(word)
        if literal not in found:
            found.append(literal)
    return tuple(p for p in found if not any(q != p and q in p for q in found))


def first_words(words: Iterable[str]) -> frozenset[str]:
    """The first word of each (`kick off` -> `kick`): what a matched verb is known by."""
    return frozenset(w.split()[0].rstrip("*") for w in words)


@dataclass(frozen=True)
class Language:
    """The spawn words of one other language (issue 19). A sentence spawns when a verb governs a
    sub-agent noun, or an agent noun beside an agent of a known shape (`` `x` ``, **x**, `@x`,
    `plugin:name`): a bare "agent" and a verb are not enough."""

    code: str
    verbs: tuple[str, ...]
    subagent_nouns: tuple[str, ...]  # a spawned agent by itself ("サブエージェント", "subagente")
    agent_nouns: tuple[str, ...]  # an agent, spawned only when named beside it
    # words that make the verb no instruction (negations, a passive, "will" of a description):
    # before the verb, or right after it where `verb_last`
    negations: tuple[str, ...]
    verb_last: bool = False  # Japanese and Korean put the verb after its object ...
    object_particles: tuple[str, ...] = ()  # ... marked by a particle ("エージェントを", not "は")
    # a particle that marks the object only right before the verb ("サブエージェントの起動時")
    near_particles: tuple[str, ...] = ()
    # words that hold a verb without being it ("派生" derives, "流派" is a school)
    false_friends: tuple[str, ...] = ()
    spaced: bool = True  # words stand between spaces (CJK: no word boundaries)
    # "in parallel": agents started in parallel are sub-agents, named or not ("エージェントを並列で起動")
    parallel: tuple[str, ...] = ()
    # verbs of using (not starting): they spawn an agent the sentence calls one ("utilise l'agent
    # `x`"), never a plain word after them ("utilise WebFetch": a tool)
    weak_verbs: tuple[str, ...] = ()
    # "and" between two objects of a verb that comes last ("エージェントとスキルを使用")
    and_particles: tuple[str, ...] = ()
    # the word for "tool" after a tool's name ("Agent ツール"): the tool named makes a verb a spawn
    tool_words: tuple[str, ...] = ()
    # after a noun, a particle that makes it a modifier of the object, not the object ("的"); after
    # a verb that comes first, one that makes the verb a modifier ("派出的 sub-agent": one sent)
    modifier_particles: tuple[str, ...] = ()
    # after the object, words that make the verb's clause a time or condition ("派发 sub-agent 后")
    subordinators: tuple[str, ...] = ()
    verb_complements: tuple[str, ...] = ()  # what may follow a verb before a modifier particle ("派了的")
    # a count between a noun and its particle, or right before a verb that comes last ("서브에이전트
    # 2개를 실행", "Task Agent 2개 실행"): the numerals besides digits, and the counter words
    numerals: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()
    # verbs of making, and the words for "new": "새 서브에이전트를 생성" writes a definition, as
    # "create a new subagent" does; a named agent, the tool or agents in parallel still spawn
    making_verbs: tuple[str, ...] = ()
    new_words: tuple[str, ...] = ()
    # after the verb, a verb joined to it and then one of these: "委任して実行できる" (can hand it to
    # … and run it) tells of a possibility, as the negations do right after the verb
    joined: tuple[str, ...] = ()
    joined_negations: tuple[str, ...] = ()
    # a particle right after a verb that is a noun too makes it the noun ("runner 起動に": into a
    # start, "실행을 기다린": waits for a run)
    noun_particles: tuple[str, ...] = ()
    # a plural suffix between a noun and its particle ("서브에이전트들을": sub-agents)
    plurals: tuple[str, ...] = ()
    # after a verb that comes last, the endings that close its clause (end of text and punctuation
    # do too): there the noun right before the verb is its object with the particle left out, as
    # terse steps write it ("spring-architect 에이전트 호출", "サブエージェント起動する。"); in
    # German, what may follow an infinitive that ends its clause ("starten und …")
    verb_endings: tuple[str, ...] = ()
    # verbs of calling: their object may be the tool by its name alone ("다음 Task들을 한 메시지에서
    # 동시에 호출": call these Tasks in one message); a task of a plan is run, not called
    calling_verbs: tuple[str, ...] = ()
    # infinitives that end their clause with the object before them, where the verb otherwise
    # comes first: German steps and bullets ("Den Subagenten starten.", "stattdessen den
    # X-Agent spawnen")
    clause_final: tuple[str, ...] = ()
    # nouns that a sentence ending in them, after a verb that comes last, describes: "…を起動し、
    # …処理する機能。" is a feature told of, not a step
    described_nouns: tuple[str, ...] = ()
    # object pronouns that stand right before a finite verb and never before an imperative (which
    # takes them after it): "Lo ejecuta el `lead`" says who runs it
    clitics: tuple[str, ...] = ()
    # verbs that make the model follow a file ("Carregar e seguir: `x/SKILL.md`"): FOLLOW_VERBS
    follow_verbs: tuple[str, ...] = ()
    # a particle that marks whom something is handed to, as an object particle does, unless one of
    # the longer particles it starts stands there ("implementer agent에 맡기고", not "agent에서")
    recipient_particles: tuple[str, ...] = ()
    not_recipient: tuple[str, ...] = ()


LANGUAGES = (
    Language(
        "ja",
        verbs=(
            "起動",
            "利用",
            "使用",
            "実行",
            "呼び出",
            "呼ぶ",
            "呼んで",
            "委任",
            "委譲",
            "派遣",
            "立て",  # set up: "サブエージェントを立てる"
            "スポーン",
            "ディスパッチ",
            # English verbs borrowed, standing last ("`x` を **並列 dispatch**", "spawn する")
            "spawn",
            "dispatch",
            "launch",
            "invoke",
            "delegate",
        ),
        # the tool itself as the object or the means: "並列で Agent を起動", "Agent ツールを使い…"
        subagent_nouns=(
            "サブエージェント",
            "チームメイト",
            "Agent ツール",
            "Agent tool",
            "Task ツール",
            "Agent",
        ),
        agent_nouns=("エージェント",),
        negations=(
            "しない",
            "ない",  # "使わない"
            "せず",
            "しません",
            "させない",
            "してはならない",
            "してはいけない",
            "される",
            "され",
            "禁止",
            "不要",
            "可能",  # "Task tool の subagent として利用可能です": can be used, a description
            *("するには", "させるには"),  # "in order to": a purpose, the instruction comes after
            *("できる", "できます"),  # "can": a possibility, told of
        ),
        verb_last=True,
        object_particles=("を", "に", "で"),  # で: by means of ("サブエージェントで実行")
        near_particles=("の",),
        spaced=False,
        parallel=("並列", "同時に"),
        and_particles=("と",),
        tool_words=("ツール",),
        # words that hold 立て without meaning "set up" (assemble, make use of, tailor)
        false_friends=("組み立て", "役立て", "仕立て", "見立て", "目立"),
        joined=("して", "させて"),
        joined_negations=("できる", "できます", "可能"),
        noun_particles=("に", "が", "は", "の", "を", "中", "時"),  # and "while" / "when" ("実行中")
        numerals=("一", "二", "三", "四", "五"),
        counters=("つ", "体", "個", "名", "人"),
        plurals=("たち", "達"),
        verb_endings=("する", "します", "して", "しろ", "せよ", "させる", "させて"),
        calling_verbs=("呼び出", "呼ぶ", "呼んで"),
        described_nouns=("機能", "仕組み", "機構"),
    ),
    Language(
        "ko",
        verbs=(
            "실행",
            "호출",
            "시작",
            "생성",
            "위임",
            "사용",
            "맡기",  # entrust: "서브에이전트에게 맡긴다" (맡기/맡긴/맡겨/맡깁)
            "맡긴",
            "맡겨",
            "맡깁",
            "넘기",  # hand over: "sub-agent 에게 프롬프트를 넘깁니다"
            "넘긴",
            "넘겨",
            "넘깁",
            "스폰",
            "디스패치",
            "고용",  # hire: "적절한 하위 에이전트를 고용하여"
            "spawn",
            "dispatch",
            "launch",
            "invoke",
        ),
        # the tool as the object or the means: "Agent로 디스패치", "Agent 도구를 사용해"
        subagent_nouns=("서브에이전트", "하위 에이전트", "팀메이트", "Agent 도구", "Agent"),
        agent_nouns=("에이전트", "팀원"),
        # 됩니다/된다/되는: a passive ("함께 사용됩니다": is used with), a description
        # 가능: "사용 가능" (can be used), a description
        negations=(
            *("하지 않", "하지 마", "하지마", "지 않", "지 마", "금지", "않", "했다면"),
            *("됩니다", "된다", "되는", "가능"),
            *("하려면", "하게 하려면", "하도록 하려면"),  # "in order to": a purpose
            # a noun after the verb's noun makes one name ("사용 가이드": a usage guide)
            *("가이드", "방법", "법", "예시", "예제", "안내", "설명"),
        ),
        verb_last=True,
        object_particles=("를", "을", "에게", "한테", "로", "으로"),  # 로: by means of ("Agent로")
        recipient_particles=("에",),  # "verifier agent에 맡긴다": hands it to the verifier
        not_recipient=("에서", "에는", "에도", "에 대", "에 관", "에 따", "에 의"),  # at, about, by
        near_particles=("의",),
        spaced=False,
        parallel=("병렬", "동시에"),
        and_particles=("와", "과"),
        tool_words=("도구",),
        numerals=("한", "두", "세", "네"),
        counters=("개", "명"),
        making_verbs=("생성",),
        new_words=("새",),
        noun_particles=("을", "를", "이", "가", "은", "는", "의", "에"),
        plurals=("들",),
        # 하는/한/할 make the verb a modifier ("호출하는 방법": how to call), 하면 a condition
        verb_endings=(
            *("한다", "합니다", "하세요", "하십시오", "하라", "해라", "해야", "하고", "해서", "하여"),
            *("함", "해", "할 것"),
        ),
        calling_verbs=("호출",),
    ),
    Language(
        "zh",
        # simplified, then traditional ("啟動兩個審查 subagent")
        verbs=(
            *("派发", "派出", "派工", "派", "启动", "调用", "委派", "委托", "召唤", "生成"),
            "起",  # start one: "起 `dev:planner` subagent" (its false friends below)
            "开",  # open one: "开一个独立的 checker agent"
            *("召集", "组建", "交给"),  # convene (a team), form (one), hand to
            *("使用", "用"),  # use: only the noun right after it (weak_verbs)
            *("派發", "啟動", "調用", "委託", "召喚"),
        ),
        subagent_nouns=("子代理", "子智能体", "子智能體", "子( )agent(s)"),
        agent_nouns=("智能体", "智能體", "代理"),
        # 怎么/如何: "how to dispatch" names a topic, it does not tell the model to
        negations=(
            "不要",
            "不必",
            "无需",
            "無需",
            "禁止",
            "不",
            "别",
            "別",
            "勿",
            "会",
            "會",
            "怎么",
            "怎麼",
            "如何",
        ),
        spaced=False,
        false_friends=(
            *("派生", "流派", "党派", "派对", "气派"),
            # words that hold 起 without meaning "start one"
            *("一起", "起来", "起來", "发起", "發起", "起点", "起始", "起草", "起因", "引起", "不起"),
            *("起動", "起动"),  # Japanese 起動 is its own grammar's verb
            *("起作用", "起源", "起码", "说起", "提起", "想起", "兴起", "崛起", "起伏", "起步", "起飞"),
            *("起诉", "起身", "升起", "拿起", "掀起", "唤起", "起到", "看起", "听起", "起初", "起见"),
            *("起こ", "起き", "起票", "起案", "起用"),  # Japanese: occur, wake, file a ticket, draft, appoint
            # words that hold 开 without meaning "open one": develop, begin, open a file, ...
            *("开发", "开始", "打开", "开放", "开关", "公开", "展开", "离开", "开头", "开会", "开销"),
            *("分开", "开源", "开通", "开展", "开心", "避开", "开支", "开门", "开创", "开除", "开车"),
            *("开口", "开机", "召开", "拆开", "解开", "开着", "开闭", "开篇", "开端", "开辟", "开箱"),
            *("开局", "开具", "开票", "开拓", "张开", "敞开", "隔开", "错开", "开工", "开采"),
            # words that end in 用 without being "use": general-purpose, common, available, ...
            *("通用", "常用", "可用", "专用", "应用", "作用", "有用", "无用", "适用", "备用", "复用"),
            *("共用", "引用", "费用", "启用", "禁用", "占用", "试用", "沿用", "惯用", "实用", "公用"),
        ),
        # "生成子智能体的提示词": the prompt is what is made; "派出的 sub-agent": one sent before
        modifier_particles=("的",),
        # "派发 sub-agent 后进入等待": after it, a time; "不支援時依 … 派工": a condition before the verb
        subordinators=("之后", "以后", "后", "时", "之後", "以後", "後", "時"),
        verb_complements=("出", "了", "过"),
        parallel=("并行", "并发", "同时", "並行", "並發", "同時"),
        tool_words=("工具", "tool"),  # "以 Agent tool 派工": the English name kept
        weak_verbs=("使用", "用"),
        # "开一个 … agent", "派两个 agent": a verb of starting, then a count of agents
        numerals=(*"一二两三四五六七八九十几多", "N", "n"),
        counters=("个", "個"),
        # "生成一个 agent 配置文件": a making, not a start, when the noun is only counted
        making_verbs=("生成",),
        new_words=("新", "新的"),
    ),
    Language(
        "de",
        follow_verbs=("befolge", "befolgen", "folge"),
        verbs=(
            "starte",
            "starten",
            "startet",
            "beauftrage",
            "beauftragen",
            "delegiere",
            "delegieren",
            "rufe",
            "aufrufen",
            "verwende",
            "verwenden",
            "nutze",
            "nutzen",
            "führe",
            "fuehre",
            "spawne",
            "spawnen",
            "einsetzen",
        ),
        subagent_nouns=("subagent(en)", "sub-agent(en)", "unteragent(en)"),
        agent_nouns=("agent(en)", "teammitglied(er)"),
        negations=("nicht", "nie", "niemals", "kein*"),
        parallel=("parallel",),
        weak_verbs=("verwende", "verwenden", "nutze", "nutzen"),
        clause_final=(
            *("starten", "spawnen", "beauftragen", "delegieren", "aufrufen", "verwenden", "nutzen"),
            "einsetzen",
        ),
        verb_endings=("und ", "oder "),  # "Subagenten starten und die Ergebnisse sammeln"
    ),
    Language(
        "es",
        follow_verbs=("seguir", "sigue", "siga"),
        verbs=(
            "lanza",
            "lanzar",
            "inicia",
            "iniciar",
            "invoca",
            "invocar",
            "delega",
            "delegar",
            "ejecuta",
            "ejecutar",
            "utiliza",
            "utilizar",
            "usa",
            "usar",
            "delegando",  # "Diseña los endpoints delegando al agente `api-designer`"
            "invocando",
            "usando",  # "Opera la wiki usando el agente `tech-writer`"
            "utilizando",
        ),
        subagent_nouns=("subagente(s)", "sub-agente(s)"),
        agent_nouns=("agente(s)",),
        negations=("no", "nunca", "jamás"),
        parallel=("en paralelo",),
        subordinators=("antes de", "antes que", "después de", "cuando", "mientras", "hasta que"),
        weak_verbs=("utiliza", "utilizar", "usa", "usar", "usando", "utilizando"),
        clitics=("lo", "la", "los", "las", "le", "les", "se"),
    ),
    Language(
        "fr",
        follow_verbs=("suivre", "suivez"),
        verbs=(
            "lance",
            "lancez",
            "lancer",
            "démarre",
            "démarrez",
            "invoque",
            "invoquez",
            "délègue",
            "déléguez",
            "déléguer",
            "exécutez",
            "utilise",
            "utilisez",
            "utiliser",
        ),
        subagent_nouns=("sous-agent(s)",),
        agent_nouns=("agent(s)",),
        negations=("ne", "n'", "jamais"),
        parallel=("en parallèle",),
        subordinators=("avant de", "avant que", "après", "quand", "lorsque", "pendant que"),
        weak_verbs=("utilise", "utilisez", "utiliser"),
    ),
    Language(
        "pt",
        follow_verbs=("seguir", "siga", "sigam"),
        verbs=(
            "inicie",
            "iniciar",
            "lance",
            "lançar",
            "lancar",  # as written without its cedilla
            "dispare",
            "disparar",
            "invoque",
            "invocar",
            "delegue",
            "delegar",
            "executar",
            "acione",
        ),
        subagent_nouns=("subagente(s)", "sub-agente(s)"),
        agent_nouns=("agente(s)",),
        negations=("não", "nao", "nunca", "jamais"),  # "nao" as written without its accent
        parallel=("em paralelo",),
        # "Iniciar nova fase antes de subagents confirmarem": the sub-agents are the time's, not the
        # verb's object
        subordinators=("antes de", "antes que", "depois de", "quando", "enquanto", "até que"),
    ),
    Language(
        "it",
        follow_verbs=("segui", "seguire"),
        verbs=(
            "lancia",
            "lanciare",
            "avvia",
            "avviare",
            "invoca",
            "invocare",
            "delega",
            "delegare",
            "esegui",
            "usa",
            "usare",
            "utilizza",
            "utilizzare",
        ),
        subagent_nouns=("subagente", "subagenti", "sub-agente", "sub-agenti"),
        agent_nouns=("agente", "agenti"),
        negations=("non", "mai"),
        parallel=("in parallelo",),
        subordinators=("prima di", "dopo", "quando", "mentre", "finché"),
        weak_verbs=("usa", "usare", "utilizza", "utilizzare"),
    ),
    Language(
        "ru",
        verbs=(
            *("запусти", "запустите", "запустить", "запускай", "запускайте", "запускать"),
            *("делегируй", "делегируйте", "делегировать", "поручи", "поручите", "поручить"),
            *("передай", "передайте", "передать", "вызови", "вызовите", "вызвать"),
            *("используй", "используйте", "использовать"),
        ),
        # every case of the noun: субагент, субагента, субагенту, субагентом, субагенты, ...
        subagent_nouns=("субагент*", "суб-агент*", "сабагент*", "под-агент*", "подагент*"),
        agent_nouns=("агент*",),
        negations=("не", "никогда", "нельзя"),
        parallel=("параллельно",),
        weak_verbs=("используй", "используйте", "использовать"),
    ),
    Language(
        "cs",
        verbs=(
            *("spusť", "spusťte", "spustit", "deleguj", "delegujte", "delegovat"),
            *("zavolej", "zavolejte", "zavolat", "zavoláš", "vyvolej", "vyvolejte", "vyvolat"),
            *("použij", "použijte", "použít"),
        ),
        # every case of the noun: subagent, subagenta, subagentovi, subagenty, agentem, ...
        subagent_nouns=("subagent*", "sub-agent*", "podagent*"),
        agent_nouns=("agent*",),
        # a negated verb is one word ("nedeleguj"), never one of the verbs above
        negations=("ne", "nikdy"),
        parallel=("paralelně", "souběžně"),
        weak_verbs=("použij", "použijte", "použít"),
    ),
)

# The verbs that make the model follow a file a unit names (SPEC §2: a unit is what it loads): "Read
# `x.md` and perform every step", in every language the forms read that has them
FOLLOW_VERBS = tuple(
    dict.fromkeys(
        (
            "follow",
            "apply",
            "execute",
            "perform",
            *(v for language in LANGUAGES for v in language.follow_verbs),
        )
    )
)

# An agent noun of a language that writes words apart (its sub-agent nouns first): what may stand
# before an agent's plain name ("el agente docs-expert") or label a step ("Agente: api-designer")
SPACED_AGENT_NOUNS = tuple(
    noun
    for language in LANGUAGES
    if language.spaced
    for noun in (*language.subagent_nouns, *language.agent_nouns)
)
