"""The rule registry: every rule in code order, with its name and default severity. The engine
stamps code and severity onto what a rule yields, so a rule cannot misreport its identity."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from spawnlint.model import Diagnostic, Finding, Project, Severity
from spawnlint.rules import contracts, files, loading, no_name, return_channel, suppressions, targets

Check = Callable[[Project], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    check: Callable[..., Iterable[Finding]]
    summary: str
    stage: str = "project"  # "filter": runs after suppression, on what the other rules found
    # off unless its own code is selected (`extend-select = ["SL104"]`); a prefix does not select it
    opt_in: bool = False

    def check_project(self, project: Project) -> Iterable[Finding]:
        assert self.stage == "project", self.code
        check: Check = self.check
        return check(project)


RULES: tuple[Rule, ...] = (
    Rule(
        "SL000",
        "internal-error",
        Severity.ERROR,
        files.internal_error,
        "spawnlint failed on a file (a bug of its own, or the Python parser crashed or timed out)",
    ),
    Rule(
        "SL001",
        "unparsable-frontmatter",
        Severity.ERROR,
        files.unparsable_frontmatter,
        "frontmatter is not valid YAML, not closed, uses refused tags, or has keys of the wrong shape",
    ),
    Rule(
        "SL002",
        "unreadable-file",
        Severity.ERROR,
        files.unreadable_file,
        "a file in scope is not UTF-8 text, is over the size cap, or cannot be read",
    ),
    Rule(
        "SL003",
        "duplicate-agent",
        Severity.WARNING,
        files.duplicate_agent,
        "two agent definitions of one plugin share one id; Claude Code loads only one of them",
    ),
    Rule(
        "SL004",
        "invalid-manifest",
        Severity.ERROR,
        loading.invalid_manifest,
        "a plugin.json or marketplace.json is not valid JSON, not an object, or has fields of the wrong type",
    ),
    Rule(
        "SL005",
        "missing-agent-name",
        Severity.WARNING,
        loading.missing_agent_name,
        "an agent file has frontmatter but no name; Claude Code loads it under its file stem",
    ),
    Rule(
        "SL101",
        "named-spawn-mute-agent",
        Severity.ERROR,
        return_channel.named_spawn_mute_agent,
        "a named spawn targets an agent whose tools lack SendMessage",
    ),
    Rule(
        "SL102",
        "named-spawn-no-report",
        Severity.WARNING,
        return_channel.named_spawn_no_report,
        "a named spawn of an agent that could report, but nothing tells it to",
    ),
    Rule(
        "SL103",
        "report-channel-filtered",
        Severity.ERROR,
        return_channel.report_channel_filtered,
        "an agent is told to report with SendMessage, but its tools remove it",
    ),
    Rule(
        "SL104",
        "result-contract",
        Severity.WARNING,
        contracts.result_contract,
        "a spawn prompt asks for no structured result, or for one without a slot for what went wrong",
        opt_in=True,
    ),
    Rule(
        "SL105",
        "idle-is-not-done",
        Severity.WARNING,
        contracts.idle_is_not_done,
        "a unit or agent body reads a teammate's idle state, or its turn's end, as its result",
        opt_in=True,
    ),
    Rule(
        "SL201",
        "missing-no-name-rule",
        Severity.ERROR,
        no_name.missing_no_name_rule,
        "a spawning unit does not carry the no-name rule",
    ),
    Rule(
        "SL202",
        "stale-no-name-rule",
        Severity.WARNING,
        no_name.stale_no_name_rule,
        "a unit carries the no-name rule but spawns nothing",
    ),
    Rule(
        "SL203",
        "incomplete-no-name-rule",
        Severity.WARNING,
        no_name.incomplete_no_name_rule,
        "a unit forbids `name` in its own words but does not name the mechanism",
    ),
    Rule(
        "SL301",
        "unknown-subagent-type",
        Severity.WARNING,
        targets.unknown_subagent_type,
        "a literal subagent_type matches no agent of the project, no built-in and no external agent"
        " (an error when it names one of the project's own plugins)",
    ),
    Rule(
        "SL302",
        "spawn-tool-disallowed",
        Severity.ERROR,
        targets.spawn_tool_disallowed,
        "a spawning unit's disallowed-tools removes Agent/Task",
    ),
    Rule(
        "SL900",
        "unused-suppression",
        Severity.WARNING,
        suppressions.unused_suppression,
        "a `spawnlint: ignore` comment suppresses nothing",
        stage="filter",
    ),
)

BY_CODE = {rule.code: rule for rule in RULES}
OPT_IN = frozenset(rule.code for rule in RULES if rule.opt_in)
CODES = tuple(BY_CODE)


def stamp(rule: Rule, findings: Iterable[Finding], severity: Mapping[str, str]) -> list[Diagnostic]:
    """The rule's code and configured severity on each finding: a rule cannot misreport them."""
    configured = severity.get(rule.code)
    return [
        Diagnostic(
            f.path,
            f.line,
            f.column,
            rule.code,
            f.message,
            Severity(configured) if configured else (f.severity or rule.severity),
            f.related,
            f.fix,
        )
        for f in findings
    ]
