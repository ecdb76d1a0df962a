"""spawnlint: lint Claude Code plugins for subagent spawns whose answers never come back."""

__version__ = "0.1.0"
# Where the rule pages (`rules/`) are published: SARIF links each rule to its page.
RULE_PAGES_URL = "https://github.com/spawnlint/spawnlint/blob/main/rules/"
