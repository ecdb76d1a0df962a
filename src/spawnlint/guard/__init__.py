"""spawnlint guard, the PreToolUse hook: `hook` reads the payload and answers, `call` is the named
spawn it judges, `targets` resolves that call's agent. Only the standard library is imported until
a named call has to be resolved."""

from spawnlint.guard.hook import run_hook

__all__ = ["run_hook"]
