"""F9: a skill whose frontmatter says `context: fork` runs inside a subagent of type `agent:`
(general-purpose when none): a spawn site for the target checks (SL301) that makes its unit no
spawning unit (no model-written Agent call is involved). It lives in frontmatter, read on every
file's cheap path, and has no `name` to remove. Markdown only: a Python string has no frontmatter."""

from __future__ import annotations

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


EXAMPLES = FormExamples(
    Form.F9,
    valid=(
        "---\nname: review\ndescription: Review the diff\ncontext: fork\nagent: shop:critic\n---\n"
        "Review it.\n",
    ),
    invalid=("---\nname: review\ndescription: Review the diff\ncontext: inline\n---\nReview it.\n",),
)

SPEC = FormSpec(Form.F9, None, None, (EXAMPLES,))
