from claude_agent_sdk import Agent

Agent(subagent_type="critic", prompt="x")
Agent(
    subagent_type="critic",
    prompt="x",
)
D = {"subagent_type": "critic", "prompt": "x"}
T = {"type": "tool_use", "name": "Agent", "input": {"subagent_type": "critic"}}
S = "Run Agent(subagent_type: \"critic\", prompt: \"x\")"
