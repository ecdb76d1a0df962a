PROMPT = """
Task:
  subagent_type: "critic"
  name: "c6"
  prompt: "review"
"""
BROKEN = "Agent(subagent_type: \"critic\", name: \"c7\"\n  , prompt: \"x\")"
