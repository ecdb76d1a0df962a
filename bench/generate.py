"""Write a synthetic plugin marketplace for the benchmark: many plugins, each with commands (a
third of them spawning, in five forms), agents, two skill folders with references, a template
and a script, and Python hooks; prose filler of real-world size; some deliberate mistakes.

The filler is plain documentation prose (`--prose plain`, the default: no spawn word, so every
cheap gate lets it go) or documentation that talks about agents (`--prose agentic`: agents,
subagents, tasks, launching, running, dispatching, reviewers, workers, teams in most sentences,
mostly without spawning, and a share of real spawn sentences), which every gate must look at.
`--prose-scale` multiplies the filler's size, leaving the number of files as it is."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

SPAWN_FORMS = (
    """Spawn the critic with the Agent tool:

```
Agent(
  subagent_type: "{p}:critic-{a}",
  {name}description: "Critique step {i}",
  prompt: "Review the plan for step {i} and list its weaknesses."
)
```
""",
    """Use the Task tool with:
- `subagent_type`: `{p}:scout-{a}`
- `prompt`: List the files step {i} touches.
""",
    """Call the tool with these parameters:

```json
{{"subagent_type": "{p}:scout-{a}", "description": "Research", "prompt": "Find the commit."}}
```
""",
    """Launch the **{p}:critic-{a}** agent to review the diff, then merge both answers.
""",
    """Use the Task tool with `subagent_type: "{p}:critic-{a}"` and a prompt that pastes the diff.
""",
)

COMMAND = """---
description: {title}
---

# {title}

{rule}

{filler}

## Delegation

{spawn}
{more}
| step | owner | notes |
|---|---|---|
| {i} | lead | keep it short |
"""

PLAIN_COMMAND = """---
description: {title}
argument-hint: [path]
---

# {title}

{filler}
"""

AGENT = """---
name: {kind}-{a}
description: A {kind} for step {a}. Use it when the change needs a second opinion.
tools: {tools}
model: sonnet
---

You are a {kind}. Read what you are given and answer in at most ten bullet points.
{report}

{filler}
"""

SKILL = """---
name: {skill}-{p}
description: {title} for plugin {p}.
---

# {title}

Read `references/guide-0.md` first. {template_hint}

{filler}
"""

TEMPLATE = """# Researcher

```json
{{"subagent_type": "{p}:scout-0", "description": "Research", "prompt": "Find the commit."}}
```
"""

HOOK = '''"""Hook that reminds the model how to spawn."""
import json

REMINDER = """Use the Task tool:
- `subagent_type`: `{p}:critic-0`
- `prompt`: Review the diff.
"""


def main() -> None:
    print(json.dumps({{"subagent_type": "{p}:scout-0", "prompt": REMINDER}}))
'''

SCRIPT = '''"""Format the report of step {i}."""
from pathlib import Path


def render(rows: list[dict[str, str]]) -> str:
    lines = [f"| {{r['file']}} | {{r['status']}} |" for r in rows]
    return "\\n".join(["| file | status |", "|---|---|", *lines])


def save(rows: list[dict[str, str]], out: Path) -> None:
    out.write_text(render(rows), encoding="utf-8")
'''

RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
    "`in_process_teammate`, whose final answer never returns to this command."
)

# Prose of a plugin's documentation: none of these words starts a spawn.
_SUBJECTS = (
    "The parser",
    "Each migration",
    "The release notes",
    "A failing check",
    "The schema",
    "Every public function",
    "The changelog",
    "The configuration file",
    "This step",
    "The build",
)
_VERBS = ("must describe", "should list", "reads", "checks", "records", "validates", "keeps", "documents")
_OBJECTS = (
    "the inputs it accepts and the errors it raises",
    "every breaking change since the last release",
    "the files that changed and why",
    "one example per option, with its default",
    "the minimum supported version of each dependency",
    "which tests cover the new behaviour",
    "the order in which the steps run",
    "a short summary before the details",
)
# Words real documentation uses that the prefilter must let through (a task list, an agent).
_MENTIONS = (
    "Break the work into small tasks and finish one before starting the next.",
    "The CI agent caches dependencies between runs.",
    "Keep the task list in the pull request description up to date.",
)


# Prose of plugins that work with agents (--prose agentic): the words every spawn form reads
# (agent, subagent, task, team, reviewer, worker; launch, run, dispatch, spawn, invoke, use), in
# sentences that describe agents, forbid a spawn or speak in the passive, as real plugin
# documentation does: no spawn instruction among them.
_AGENT_HEADINGS = (
    "Agents",
    "How the reviewers work",
    "Running tasks in parallel",
    "The team",
    "Subagents and their tools",
    "When a worker fails",
)
_AGENT_SUBJECTS = (
    "The reviewer agent",
    "Each subagent",
    "A worker",
    "The team lead",
    "Every teammate",
    "The orchestrator",
    "A background task",
    "The critic",
    "The planner agent",
    "Each of the parallel agents",
    "The security reviewer",
    "A general-purpose subagent",
    "The test runner task",
    "The research worker",
)
_AGENT_PREDICATES = (
    "reads the diff and reports what it found",
    "runs in its own context window and cannot see this conversation",
    "returns a short summary when its task is done",
    "gets the file list and the acceptance criteria in its prompt",
    "has read-only tools: Read, Grep and Glob",
    "is launched once per changed package",
    "may take several minutes on a large repository",
    "sends its findings to the lead before it stops",
    "is dispatched only after the build passes",
    "runs after the linters and before the release notes are written",
    "keeps its notes in the task list so that the next run can resume",
    "stops when the token budget of its task is spent",
    "reports each failure with the command that reproduces it",
    "is invoked by the release command, never by the user directly",
)
_AGENT_SENTENCES = (
    "Agents that run in parallel share nothing but the files on disk.",
    "Do not spawn a new agent for a one-line change; make the edit here.",
    "Never launch more than four workers at once: the rate limit is per account.",
    "Dispatching is cheap, but every agent costs tokens, so keep the panel small.",
    "Delegating the search to a subagent keeps the main context small.",
    "Tasks that take longer than ten minutes are split into smaller tasks.",
    "Results from each reviewer are merged into one table, sorted by severity.",
    "A team of three reviewers works well for most pull requests.",
    "Background tasks keep running while the main session answers questions.",
    "Teammates report with SendMessage; plain subagents return their final message to the caller.",
    "When a worker fails, its task is retried once and then reported as failed.",
    "The helper agents were added in version 2.0; earlier versions ran every step inline.",
    "Running the reviewers on generated code is rarely worth the time.",
    "Agent output longer than 30,000 characters is truncated.",
    "Launching agents from a hook is not supported; hooks only print reminders.",
    "If no reviewer is available, the command runs the checks itself.",
    "The team is created when the session starts and removed when it ends.",
)
# Real spawn instructions, placed in a share of the agentic filler (a plugin's own agents).
SPAWN_SENTENCES = (
    "Launch the **{p}:critic-{a}** agent to review the changes before you commit.",
    "Use the {p}:scout-{a} agent to find every file the change touches.",
    "Dispatch `{p}:critic-{a}` with the diff and the plan, then wait for its verdict.",
    "Spawn a general-purpose subagent to run the test suite and summarise the failures.",
    "Have the **{p}:scout-{a}** agent list the open issues that mention this module.",
    "Launch three reviewer agents in parallel: one for security, one for performance, one for style.",
)
PROSE_KINDS = ("plain", "agentic")


def _plain_sentence(rng: random.Random) -> str:
    return f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}."


def _agentic_sentence(rng: random.Random) -> str:
    """Half the sentences talk about agents, as a plugin that works with them does."""
    if rng.random() < 0.5:
        return _plain_sentence(rng)
    if rng.random() < 0.6:
        return f"{rng.choice(_AGENT_SUBJECTS)} {rng.choice(_AGENT_PREDICATES)}."
    return rng.choice(_AGENT_SENTENCES)


def filler(
    rng: random.Random,
    size: int,
    mention_rate: float,
    prose: str = "plain",
    spawns: tuple[str, ...] = (),
    spawn_rate: float = 0.0,
) -> str:
    """About `size` bytes of paragraphs, headings and lists; with `mention_rate`, one sentence
    holding a word the prefilter lets through. Agentic prose talks about agents in half its
    sentences and, with `spawn_rate`, holds one of `spawns` as a paragraph of its own."""
    agentic = prose == "agentic"
    sentence = _agentic_sentence if agentic else _plain_sentence
    parts: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.15:
            heading = rng.choice(_AGENT_HEADINGS) if agentic and rng.random() < 0.5 else rng.choice(_SUBJECTS)
            part = f"## {heading}\n"
        elif rng.random() < 0.25:
            part = "\n".join(f"- {sentence(rng)}" for _ in range(4))
        else:
            part = " ".join(sentence(rng) for _ in range(5))
        parts.append(part)
        total += len(part) + 2
    if rng.random() < mention_rate:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_MENTIONS))
    if agentic and spawns and rng.random() < spawn_rate:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(spawns))
    return "\n\n".join(parts)


def generate(
    root: Path,
    plugins: int,
    commands: int = 20,
    agents: int = 5,
    seed: int = 7,
    mention_rate: float = 0.25,
    prose: str = "plain",
    prose_scale: float = 1.0,
    spawn_rate: float = 0.1,
) -> int:
    """Write the marketplace; return the number of files the linter reads (markdown and Python).
    `prose` is the kind of filler (PROSE_KINDS), `prose_scale` multiplies its size, and
    `spawn_rate` is the share of agentic prose files (besides the spawning commands) that hold a
    real spawn sentence."""
    if prose not in PROSE_KINDS:
        raise ValueError(f"prose must be one of {PROSE_KINDS}, not {prose!r}")
    rng = random.Random(seed)
    files = 0
    entries = []
    spawns: tuple[str, ...] = ()

    def prose_text(size: int, may_spawn: bool = True) -> str:
        return filler(
            rng,
            round(size * prose_scale),
            mention_rate,
            prose,
            spawns if may_spawn else (),
            spawn_rate,
        )

    def write(path: Path, text: str) -> None:
        nonlocal files
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files += path.suffix in (".md", ".py") and path.name != "README.md"

    for n in range(plugins):
        p = f"p{n}"
        spawns = tuple(s.format(p=p, a=(n + k) % agents) for k, s in enumerate(SPAWN_SENTENCES))
        base = root / "plugins" / p
        entries.append({"name": p, "source": f"./plugins/{p}"})
        (base / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        (base / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": p, "version": "1.0.0"}))
        write(base / "README.md", f"# {p}\n\n" + prose_text(3000))
        for a in range(agents):
            for kind in ("critic", "scout"):
                tools = "Read, Grep, Glob" if rng.random() < 0.3 else "Read, Grep, Glob, SendMessage"
                report = (
                    "When done, use SendMessage to report to the team-lead." if rng.random() < 0.5 else ""
                )
                body = prose_text(rng.randint(1500, 6000), may_spawn=False)
                write(
                    base / "agents" / f"{kind}-{a}.md",
                    AGENT.format(kind=kind, a=a, tools=tools, report=report, filler=body),
                )
        for i in range(commands):
            title = f"Step {i} of plugin {p}"
            body = prose_text(rng.randint(800, 4000))
            if i % 3:
                write(base / "commands" / f"step-{i}.md", PLAIN_COMMAND.format(title=title, filler=body))
                continue
            a = rng.randrange(agents)
            name = 'name: "critic",\n  ' if rng.random() < 0.2 else ""
            spawn = SPAWN_FORMS[(i // 3) % len(SPAWN_FORMS)].format(i=i, p=p, a=a, name=name)
            if rng.random() < 0.05:  # a typo in the target: an unknown agent with a hint to compute
                spawn = spawn.replace(f"{p}:critic-{a}", f"{p}:critc-{a}").replace(
                    f"{p}:scout-{a}", f"{p}:scuot-{a}"
                )
            more = SPAWN_FORMS[3].format(p=p, a=a) if rng.random() < 0.3 else ""
            rule = RULE if rng.random() < 0.5 else ""
            text = COMMAND.format(title=title, rule=rule, filler=body, spawn=spawn, more=more, i=i)
            write(base / "commands" / f"step-{i}.md", text)
        for s, skill in enumerate(("triage", "release")):
            folder = base / "skills" / skill
            hint = "Load `template.md` and spawn the researcher it describes." if s == 0 else ""
            body = prose_text(2000)
            write(
                folder / "SKILL.md",
                SKILL.format(skill=skill, p=p, title=skill.title(), template_hint=hint, filler=body),
            )
            for r in range(3):
                write(
                    folder / "references" / f"guide-{r}.md",
                    prose_text(rng.randint(3000, 10000)),
                )
            template = TEMPLATE.format(p=p) if s == 0 else "# Notes\n\n" + prose_text(1500)
            write(folder / "template.md", template)
            write(folder / "scripts" / "report.py", SCRIPT.format(i=s))
        write(base / "hooks" / "remind.py", HOOK.format(p=p))
        write(base / "hooks" / "format.py", SCRIPT.format(i=99))
    (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
    (root / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps({"name": "bench", "plugins": entries})
    )
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--plugins", type=int, default=40)
    parser.add_argument("--commands", type=int, default=20)
    parser.add_argument("--agents", type=int, default=5, help="pairs of agents (a critic and a scout)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--mention-rate", type=float, default=0.25, help="share of prose files with a word like 'task'"
    )
    parser.add_argument(
        "--prose", choices=PROSE_KINDS, default="plain", help="agentic: filler that talks about agents"
    )
    parser.add_argument("--prose-scale", type=float, default=1.0, help="multiplies the filler's size")
    parser.add_argument(
        "--spawn-rate", type=float, default=0.1, help="share of agentic prose files with a spawn sentence"
    )
    args = parser.parse_args()
    count = generate(
        args.root,
        args.plugins,
        args.commands,
        args.agents,
        args.seed,
        args.mention_rate,
        args.prose,
        args.prose_scale,
        args.spawn_rate,
    )
    print(f"wrote {count} files under {args.root}")


if __name__ == "__main__":
    main()
