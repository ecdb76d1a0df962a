"""Write a synthetic plugin marketplace for the benchmark: many plugins, each with commands,
agents, a skill folder and a Python hook, in every spawn form, with some deliberate mistakes."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

COMMAND = """---
description: Review step {i} of plugin {p}
---

# Review {i}

{rule}

## Critique

Spawn the critic with the Agent tool:

```
Agent(
  subagent_type: "{p}:critic-{a}",
  {name}description: "Critique step {i}",
  prompt: "Review the plan for step {i} and list its weaknesses."
)
```

## Scope

Use the Task tool with:
- `subagent_type`: `{p}:scout-{a}`
- `prompt`: List the files step {i} touches.

Launch the **{p}:scout-{a}** agent again if the list is empty, then merge both answers.

| step | owner | notes |
|---|---|---|
| {i} | lead | keep it short |
"""

AGENT = """---
name: {kind}-{a}
description: A {kind} for the benchmark. Use it when step {a} needs a second opinion.
tools: {tools}
---

You are a {kind}. Read what you are given and answer in at most ten bullet points.
{report}
"""

SKILL = """---
name: triage-{p}
description: Triage for plugin {p}.
---

# Triage

Load `template.md` and spawn the researcher it describes.
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

RULE = (
    "Spawn agents without the Agent tool's `name` parameter: a named spawn runs as an\n"
    "`in_process_teammate`, whose final answer never returns to this command."
)


def generate(root: Path, plugins: int, commands: int, agents: int, seed: int) -> int:
    rng = random.Random(seed)
    files = 0
    entries = []
    for n in range(plugins):
        p = f"p{n}"
        base = root / "plugins" / p
        entries.append({"name": p, "source": f"./plugins/{p}"})
        (base / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        (base / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": p}))
        for a in range(agents):
            for kind in ("critic", "scout"):
                mute = rng.random() < 0.3
                tools = "Read, Grep, Glob" if mute else "Read, Grep, Glob, SendMessage"
                report = (
                    "When done, use SendMessage to report to the team-lead." if rng.random() < 0.5 else ""
                )
                path = base / "agents" / f"{kind}-{a}.md"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(AGENT.format(kind=kind, a=a, tools=tools, report=report))
                files += 1
        for i in range(commands):
            a = rng.randrange(agents)
            name = 'name: "critic",\n  ' if rng.random() < 0.2 else ""
            rule = RULE if rng.random() < 0.5 else ""
            path = base / "commands" / f"step-{i}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(COMMAND.format(i=i, p=p, a=a, name=name, rule=rule))
            files += 1
        skill = base / "skills" / "triage"
        skill.mkdir(parents=True, exist_ok=True)
        (skill / "SKILL.md").write_text(SKILL.format(p=p))
        (skill / "template.md").write_text(TEMPLATE.format(p=p))
        (base / "hooks").mkdir(exist_ok=True)
        (base / "hooks" / "remind.py").write_text(HOOK.format(p=p))
        files += 4
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
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    count = generate(args.root, args.plugins, args.commands, args.agents, args.seed)
    print(f"wrote {count} files under {args.root}")


if __name__ == "__main__":
    main()
