"""F3: an object (JSON, a JS object, a Python dict) with a `subagent_type` key, in any fence or
none; a tool-use block `{"name": "Agent", "input": {...}}` names its tool. An object inside an F1
call's arguments is that call's, not a spawn of its own."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.model import Form
from spawnlint.parse.forms import removal, syntax
from spawnlint.parse.forms.spec import Claims, Doc, FormSpec, Found, Pass
from spawnlint.parse.forms.syntax import MAX_LOOK_BACK, Match, split_params
from spawnlint.parse.forms.trigger import Trigger
from spawnlint.parse.text import FormExamples, LineIndex, RawSite

_KEY = "subagent_type"
_OBJECT_KEY = lazy.compile(rf"""(?<![\w$])(["']?){_KEY}\1\s*:""")


def find_objects(text: str, covered: list[tuple[int, int]]) -> list[Match]:
    """Objects (JSON, JS, Python dicts) with a `subagent_type` key, outside `covered`."""
    found: list[Match] = []
    budget = syntax.budget(text)
    inside = syntax.span_test(covered)
    for m in _OBJECT_KEY.finditer(text):
        if inside(m.start()) or (found and m.start() < found[-1].end):
            continue
        open_at = _enclosing_brace(text, m.start())
        budget.spend(m.start() - open_at if open_at >= 0 else min(m.start(), MAX_LOOK_BACK))
        if open_at < 0:
            continue
        close, scanned = syntax.scan_close(text, open_at)
        budget.spend(scanned)
        if close < m.start():
            continue
        params = split_params(text[open_at + 1 : close], open_at + 1)
        keys = {p.key for p in params}
        line_start = text.rfind("\n", 0, open_at) + 1
        recorded = (
            _HOOK_INPUT.search(text, max(0, open_at - 40), open_at) is not None
            or _TRANSCRIPT_LINE.search(text, line_start, open_at) is not None
        )
        if recorded or ("prompt" not in keys and keys & EVENT_KEYS):
            continue  # `{"type": "subagent_start", ...}`, `"tool_input": {...}`: a hook's event
        found.append(Match(open_at, close + 1, _tool_of_enclosing(text, open_at), tuple(params)))
    return found


# Keys of an event or a record (a hook's input, a log line), not of the Agent tool's input; a
# spawn's object gives its prompt. The Python reader reads its dicts by the same keys.
EVENT_KEYS = frozenset({"type", "event", "hook_event_name", "session_id", "timestamp", "agent_id"})
HOOK_INPUT_KEY = "tool_input"  # a hook's input holds the call it was given
# a line of a transcript (`{"type":"assistant","message":{... "tool_use" ...}}`): a call made, logged
TRANSCRIPT_ROLES = ("assistant", "user")
TRANSCRIPT_KEY = "message"

_HOOK_INPUT = lazy.compile(rf"""["']?{HOOK_INPUT_KEY}["']?\s*:\s*$""")
_TRANSCRIPT_LINE = lazy.compile(
    rf""""type"\s*:\s*"(?:{"|".join(TRANSCRIPT_ROLES)})"\s*,\s*"{TRANSCRIPT_KEY}"\s*:"""
)


def _enclosing_brace(text: str, offset: int) -> int:
    depth = 0
    for i in range(offset - 1, max(-1, offset - MAX_LOOK_BACK), -1):
        ch = text[i]
        if ch == "}":
            depth += 1
        elif ch == "{":
            if depth == 0:
                return i
            depth -= 1
    return -1


def _tool_of_enclosing(text: str, open_at: int) -> str | None:
    """For a tool-use block `{"name": "Agent", "input": {...}}`, the outer tool name."""
    before = text[max(0, open_at - 400) : open_at]
    m = re.search(r"""["']name["']\s*:\s*["'](Agent|Task)["'][^{}]*["']input["']\s*:\s*$""", before)
    return m.group(1) if m else None


TRIGGER = Trigger((_KEY,), any_case=False)


def _objects(doc: Doc, claims: Claims) -> Found:
    sites: list[RawSite] = []
    lines: set[int] = set()
    for block in doc.blocks(TRIGGER):
        text = doc.text(block)
        index = LineIndex(text, block.start)
        for m in find_objects(text, list(claims.spans.get(block.start, ()))):
            first, column = index.position(m.start)
            last, _ = index.position(m.end - 1)
            lines.update(range(first, last + 1))
            sites.append(RawSite(Form.F3, first, column, m.tool, syntax.params_at(m.params, index), block))
    return Found(tuple(sites), frozenset(lines))


OBJECTS = Pass("objects", (Form.F3,), TRIGGER, _objects)

EXAMPLES = FormExamples(
    Form.F3,
    valid=('```json\n{"subagent_type": "general-purpose", "prompt": "Find the bug"}\n```\n',),
    invalid=(
        '```json\n{"type": "general-purpose", "prompt": "Find the bug"}\n```\n',
        # a hook's input, mocked in a test: an event, not a spawn
        '```bash\necho \'{\n  "type": "subagent_start",\n'
        '  "subagent_type": "general-purpose"\n}\' | hooks/x.sh\n```\n',
        # a hook's input as logged: the call the hook saw
        '```json\n{"type": "PreToolUse", "data": {"tool_name": "Task", "tool_input": '
        '{"prompt": "Find it", "subagent_type": "Explore"}}}\n```\n',
        # a line of a transcript, in a test's fixture
        '```jsonl\n{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Task",'
        '"input":{"subagent_type":"spec-writer","prompt":"x"}}]}}\n```\n',
    ),
)

SPEC = FormSpec(Form.F3, TRIGGER, removal.written, (EXAMPLES,))
