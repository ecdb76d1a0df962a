"""F9: a skill whose frontmatter says `context: fork` runs inside a subagent of type `agent:`
(general-purpose when none): a spawn site for the target checks (SL301) that makes its unit no
spawning unit (no model-written Agent call is involved). It lives in frontmatter, read on every
file's cheap path, and has no `name` to remove. Markdown only: a Python string has no frontmatter."""

from __future__ import annotations

import re
from typing import Any

from spawnlint.model import Form, Param, SpawnSite
from spawnlint.parse.forms.spec import FormSpec
from spawnlint.parse.forms.syntax import as_written, classify
from spawnlint.parse.frontmatter import Frontmatter
from spawnlint.parse.text import FormExamples


def fork_site(path: str, fm: Frontmatter, lines: list[str]) -> list[SpawnSite]:
    """F9: `context: fork` runs the unit inside a subagent of type `agent:` (general-purpose)."""
    context: Any = fm.data.get("context")
    if not isinstance(context, str) or context.strip() != "fork":
        return []
    agent: Any = fm.data.get("agent")
    subagent_type = None
    line = fm.key_lines.get("context", 1)
    if isinstance(agent, str) and agent.strip():
        line = fm.key_lines.get("agent", line)
        raw = lines[line - 1]
        after_key = raw.find(":") + 1  # the value, not a letter of the key (`agent: a`)
        column = raw.find(agent.strip(), after_key) + 1 if agent.strip() in raw[after_key:] else 1
        value, kind = classify(agent.strip())
        kind = as_written(kind)
        subagent_type = Param("subagent_type", value, kind, line, max(column, 1), line, max(column, 1))
    return [
        SpawnSite(
            path=path,
            line=line,
            column=1,
            form=Form.F9,
            tool=None,
            subagent_type=subagent_type,
            name=None,
            team_name=None,
            prompt=None,
            confidence="high",
            told_to_report=False,
        )
    ]


def describes_the_fork(site: SpawnSite, fork: SpawnSite, lines: list[str]) -> bool:
    """Whether a sentence of a forked skill's body names the agent it already runs in: "Invoke the
    planner agent to produce a plan" or "Delegate to the **debugger** agent" under `agent: planner`
    (`debugger`) tells of the fork (the body is that agent's prompt), it spawns no second one.
    Prose only: a call (`Task(...)`) is one; and general-purpose names a kind, not the fork ("Dispatch
    one `general-purpose` agent per file" in a general-purpose fork spawns)."""
    if site.form not in (Form.F6, Form.F7) or fork.subagent_type is None:
        return False
    value = fork.subagent_type.value.lower()
    if value.rpartition(":")[2] == "general-purpose":
        return False
    names = {value, value.rpartition(":")[2]}
    if site.subagent_type is not None and site.subagent_type.value.lower() in names:
        return True
    line = lines[site.line - 1].lower() if 1 <= site.line <= len(lines) else ""
    return any(re.search(rf"(?<![\w:-]){re.escape(n)}(?![\w:-])", line) for n in names)


EXAMPLES = FormExamples(
    Form.F9,
    valid=(
        "---\nname: review\ndescription: Review the diff\ncontext: fork\nagent: shop:critic\n---\n"
        "Review it.\n",
    ),
    invalid=("---\nname: review\ndescription: Review the diff\ncontext: inline\n---\nReview it.\n",),
)

SPEC = FormSpec(Form.F9, None, None, (EXAMPLES,))
