"""Write a synthetic plugin marketplace for the benchmark: many plugins, each with commands (a
third of them spawning, in five forms), agents, two skill folders with references, a template
and a script, and Python hooks; prose filler of real-world size; some deliberate mistakes."""

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


def filler(rng: random.Random, size: int, mention_rate: float) -> str:
    """About `size` bytes of paragraphs, headings and lists; with `mention_rate`, one sentence
    holding a word the prefilter lets through."""
    parts: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.15:
            part = f"## {rng.choice(_SUBJECTS)}\n"
        elif rng.random() < 0.25:
            part = "\n".join(
                f"- {rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}." for _ in range(4)
            )
        else:
            part = " ".join(
                f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}." for _ in range(5)
            )
        parts.append(part)
        total += len(part) + 2
    if rng.random() < mention_rate:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(_MENTIONS))
    return "\n\n".join(parts)


def generate(
    root: Path,
    plugins: int,
    commands: int = 20,
    agents: int = 5,
    seed: int = 7,
    mention_rate: float = 0.25,
) -> int:
    """Write the marketplace; return the number of files the linter reads (markdown and Python)."""
    rng = random.Random(seed)
    files = 0
    entries = []

    def write(path: Path, text: str) -> None:
        nonlocal files
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files += path.suffix in (".md", ".py") and path.name != "README.md"

    for n in range(plugins):
        p = f"p{n}"
        base = root / "plugins" / p
        entries.append({"name": p, "source": f"./plugins/{p}"})
        (base / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        (base / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": p, "version": "1.0.0"}))
        write(base / "README.md", f"# {p}\n\n" + filler(rng, 3000, mention_rate))
        for a in range(agents):
            for kind in ("critic", "scout"):
                tools = "Read, Grep, Glob" if rng.random() < 0.3 else "Read, Grep, Glob, SendMessage"
                report = (
                    "When done, use SendMessage to report to the team-lead." if rng.random() < 0.5 else ""
                )
                body = filler(rng, rng.randint(1500, 6000), mention_rate)
                write(
                    base / "agents" / f"{kind}-{a}.md",
                    AGENT.format(kind=kind, a=a, tools=tools, report=report, filler=body),
                )
        for i in range(commands):
            title = f"Step {i} of plugin {p}"
            body = filler(rng, rng.randint(800, 4000), mention_rate)
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
            body = filler(rng, 2000, mention_rate)
            write(
                folder / "SKILL.md",
                SKILL.format(skill=skill, p=p, title=skill.title(), template_hint=hint, filler=body),
            )
            for r in range(3):
                write(
                    folder / "references" / f"guide-{r}.md",
                    filler(rng, rng.randint(3000, 10000), mention_rate),
                )
            template = TEMPLATE.format(p=p) if s == 0 else "# Notes\n\n" + filler(rng, 1500, mention_rate)
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
    args = parser.parse_args()
    count = generate(args.root, args.plugins, args.commands, args.agents, args.seed, args.mention_rate)
    print(f"wrote {count} files under {args.root}")


if __name__ == "__main__":
    main()
