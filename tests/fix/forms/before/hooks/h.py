from claude_agent_sdk import Agent

Agent(subagent_type="critic", name="c1", prompt="x")
Agent(
    subagent_type="critic",
    prompt="x",
    name="c2",
)
D = {"subagent_type": "critic", "name": "c3", "prompt": "x"}
T = {"type": "tool_use", "name": "Agent", "input": {"subagent_type": "critic", "name": "c4"}}
S = "Run Agent(subagent_type: \"critic\", name: \"c5\", prompt: \"x\")"
