"""Tests of the transcript reader: the records below are lines of a transcript, not calls."""

LINE = {
    "type": "assistant",
    "message": {
        "content": [
            {"type": "tool_use", "name": "Task", "input": {"subagent_type": "surveyor", "prompt": "Look"}},
        ]
    },
}
EVENT = {"hook_event_name": "PreToolUse", "tool_input": {"subagent_type": "surveyor", "name": "s1"}}


def test_line_is_read() -> None:
    assert LINE["type"] == "assistant"
    assert EVENT["tool_input"]["name"] == "s1"
