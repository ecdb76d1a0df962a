"""Audio settings for a voice app built on another agent framework."""

SAMPLE_RATE = 16000

# Example: a complete audio agent
"""
from google.adk.agents import Agent

agent = Agent(
    name="voice-assistant",
    model="gemini-live",
    system_instruction="You are a helpful voice assistant. Speak naturally."
)
"""
