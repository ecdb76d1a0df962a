"""spawnlint: lint Claude Code plugins for subagent spawns whose answers never come back."""

__version__ = "0.1.0"
