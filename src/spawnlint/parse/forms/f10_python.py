"""F10: a spawn written in Python — a call whose callee ends in a spawn callable (`Agent`, `Task`;
configurable) with a `subagent_type` keyword or both `description` and `prompt`, a dict with
`subagent_type`, or a tool-use block `{"type": "tool_use", "name": "Agent", "input": {...}}`.
Python is read with `ast` and `tokenize` (parse/python/read.py), which also gives the spawn text of
string literals to the markdown forms; only files that could hold one are read
(`python_could_spawn`). A `name=` keyword or `"name"` key is removed by the libcst fixer
(parse/python/fix.py), which keeps every other byte."""

from __future__ import annotations

from spawnlint.model import Form
from spawnlint.parse.forms.spec import FormSpec
from spawnlint.parse.text import FormExamples

# Python modules: each VALID one holds an F10 site, each INVALID one none. spawnlint reads its own
# source: the examples are spawn text on purpose (an INVALID one is read as a named spawn in prose).
# spawnlint: ignore-file[SL102]
# spawnlint: ignore-file[SL301]
EXAMPLES = FormExamples(
    Form.F10,
    valid=(
        'Agent(subagent_type="shop:critic", name="c1", prompt="Review the plan.")\n',
        'Task(description="Research", prompt="Find the bug")\n',
        'CALL = {"type": "tool_use", "name": "Agent",\n'
        '        "input": {"subagent_type": "general-purpose", "prompt": "Find the bug"}}\n',
    ),
    invalid=(
        'Agent(name="Triage", instructions="Sort the tickets.")\n',
        'task = Task(title="Ship it")\n',
        # a call made and recorded (a transcript line, a hook's input), as F3 reads its objects
        'LINE = {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Task",\n'
        '        "input": {"subagent_type": "explorer", "prompt": "Look around"}}]}}\n',
        'EVENT = {"hook_event_name": "PreToolUse", "tool_input": {"subagent_type": "explorer"}}\n',
    ),
)

# The reader's name edits are libcst's: none are computed from lines here.
SPEC = FormSpec(Form.F10, None, None, (EXAMPLES,))
