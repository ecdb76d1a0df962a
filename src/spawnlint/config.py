"""Settings from `[tool.spawnlint]` in pyproject.toml or from .spawnlint.toml (the nearest wins)."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """The configuration cannot be used; the run stops with exit code 2."""


@dataclass(frozen=True)
class NoNameRule:
    require_mechanism: bool = True
    pattern: str | None = None  # a regex that replaces the default matcher, per sentence
    scope: str = "unit"  # "unit", "section" or "lines"
    lines: int = 0  # N of "lines:N"


@dataclass(frozen=True)
class ResultContract:
    """SL104: the words that name a result's slot for what went wrong (any one of them will do)."""

    failure_fields: tuple[str, ...] = (
        "blockers",
        "blocked",
        "failures",
        "failed",
        "errors",
        "problems",
        "unresolved",
        "open questions",
        "any issues",
    )


@dataclass(frozen=True)
class ConfiguredAgent:
    """An agent defined outside the project (`[tool.spawnlint.agents]`): an exact id or a glob."""

    pattern: str  # lower-case; fnmatch syntax
    tools: tuple[str, ...] | None  # None: every tool ("*")
    tools_known: bool = True  # False for `true`: the agent exists, its tools are not stated


# Folders that are never a plugin's source, skipped even when not git-ignored (ruff's list,
# adapted): a name matches at any depth; `build/` and `dist/` only at the project root, where they
# are build output (`skills/build/` is a real skill). tests/, examples/, .claude/ are read.
DEFAULT_EXCLUDE = (
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "site-packages",
    "__pypackages__",
    ".tox",
    ".nox",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "/build",
    "/dist",
)
# Folders of other agent harnesses: Claude Code loads nothing from them, so they are not read.
OTHER_HARNESSES = (
    ".agents",
    ".clinerules",
    ".codebuddy",
    ".codex",
    ".codex-plugin",
    ".continue",
    ".cursor",
    ".cursor-plugin",
    ".gemini",
    "/.github/agents",
    "/.github/prompts",
    "/.github/skills",
    ".junie",
    ".kiro",
    ".opencode",
    ".opencode-plugin",
    ".roo",
    ".windsurf",
)


def excluded_paths(
    exclude: tuple[str, ...], extend_exclude: tuple[str, ...], other_harnesses: tuple[str, ...]
) -> tuple[str, ...]:
    """Every pattern of what is not read: `exclude` (which replaces the defaults), `extend-exclude`
    (which adds to them) and the other harnesses' folders."""
    return tuple(dict.fromkeys(exclude + extend_exclude + other_harnesses))


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    strict: bool = False
    severity: Mapping[str, str] = field(default_factory=dict)
    # what discovery skips: every pattern of `excluded_paths` (see with_excludes for the parts)
    exclude: tuple[str, ...] = excluded_paths(DEFAULT_EXCLUDE, (), OTHER_HARNESSES)
    extend_exclude: tuple[str, ...] = ()
    other_harnesses: tuple[str, ...] = OTHER_HARNESSES
    units: tuple[str, ...] = ("commands", "skills")
    agents: tuple[ConfiguredAgent, ...] = ()
    max_file_bytes: int = 2 * 1024 * 1024
    no_name_rule: NoNameRule = NoNameRule()
    result_contract: ResultContract = ResultContract()
    spawn_callables: tuple[str, ...] = ("Agent", "Task")
    guard_mode: str = "deny"  # [guard] mode: "deny" or "rewrite" (allow the call without `name`)
    source: str | None = None  # the configuration file read, None for the defaults


SEVERITIES = ("error", "warning", "info")
_UNITS = {"commands", "skills", "agents"}
_KEYS = {
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "strict",
    "severity",
    "exclude",
    "extend-exclude",
    "other-harnesses",
    "units",
    "agents",
    "max-file-size",
    "no-name-rule",
    "result-contract",
    "python",
    "guard",
}
CONFIG_FILES = (".spawnlint.toml", "pyproject.toml")


def load_settings(
    root: Path,
    start: Path | None = None,
    explicit: Path | None = None,
    known_codes: tuple[str, ...] = (),
    unsaved: Mapping[Path, str] | None = None,
) -> Settings:
    """The settings of the nearest configuration file, looking from `start` up to `root`: in one
    folder `.spawnlint.toml` wins over `pyproject.toml`, and a pyproject.toml without a
    `[tool.spawnlint]` table does not count. `explicit` (--config) overrides the search.
    `unsaved` gives the text of configuration files an editor holds (by absolute path)."""
    texts = unsaved or {}
    found = _read(explicit, True, texts) if explicit else _nearest(root, start or root, texts)
    if found is None:
        return Settings()
    path, table = found
    try:
        return _settings(table, str(path), known_codes)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: invalid configuration: {exc}") from exc


def _nearest(root: Path, start: Path, texts: Mapping[Path, str]) -> tuple[Path, dict[str, Any]] | None:
    root = root.resolve()
    for path in candidate_files(root, start):
        if not _inside(path, root):
            continue  # a symlink out of the project is not the project's configuration
        found = _read(path, False, texts)
        if found is not None:
            return found
    return None


def candidate_files(root: Path, start: Path) -> Iterator[Path]:
    """The files the settings may come from, nearest first: each of CONFIG_FILES in `start` and
    every folder above it up to `root` (from `root` alone when `start` is outside it)."""
    root = root.resolve()
    folder = start.resolve()
    if folder != root and root not in folder.parents:
        folder = root
    while True:
        for name in CONFIG_FILES:
            yield folder / name
        if folder == root or folder.parent == folder:
            return
        folder = folder.parent


def _inside(path: Path, root: Path) -> bool:
    real = path.resolve()
    return real == root or root in real.parents


def _read(
    path: Path, explicit: bool = False, texts: Mapping[Path, str] | None = None
) -> tuple[Path, dict[str, Any]] | None:
    text = (texts or {}).get(path)
    if text is None and not path.is_file():
        if explicit:
            raise ConfigError(f"{path}: no such configuration file")
        return None
    if sys.version_info >= (3, 11):  # imported here: most projects have no configuration file
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        data = tomllib.loads(path.read_text("utf-8-sig") if text is None else text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc
    tool = data.get("tool", {})
    table = tool.get("spawnlint") if isinstance(tool, dict) else None
    if isinstance(table, dict):
        return path, table
    if path.name != "pyproject.toml":
        return path, data  # .spawnlint.toml: the same keys at the top level
    return None


def _strings(table: Mapping[str, Any], key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
    value = table.get(key, list(default))
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"`{key}` must be a list of strings")
    return tuple(value)


def _codes(table: Mapping[str, Any], key: str, known: tuple[str, ...]) -> tuple[str, ...]:
    codes = tuple(c.strip().upper() for c in _strings(table, key))
    _check_codes(codes, key, known)
    return codes


def _check_codes(codes: tuple[str, ...], key: str, known: tuple[str, ...]) -> None:
    unknown = [c for c in codes if known and not any(k.startswith(c) for k in known)]
    if unknown:
        raise ValueError(f"`{key}`: unknown rule code or prefix {', '.join(unknown)}")


def _settings(table: dict[str, Any], source: str, known: tuple[str, ...]) -> Settings:
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)}; known keys: {', '.join(sorted(_KEYS))}")
    units = _strings(table, "units", ("commands", "skills"))
    if set(units) - _UNITS:
        raise ValueError(f"`units` may hold only {sorted(_UNITS)}")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise TypeError("`strict` must be true or false")
    max_size = table.get("max-file-size", Settings.max_file_bytes)
    if not isinstance(max_size, int) or isinstance(max_size, bool) or max_size <= 0:
        raise ValueError("`max-file-size` must be a positive number of bytes")
    python = table.get("python", {})
    if not isinstance(python, dict):
        raise TypeError("[tool.spawnlint.python] must be a table")
    if set(python) - {"spawn-callables"}:
        raise ValueError(f"unknown python key(s) {', '.join(sorted(set(python) - {'spawn-callables'}))}")
    return Settings(
        select=_codes(table, "select", known),
        ignore=_codes(table, "ignore", known),
        extend_select=_codes(table, "extend-select", known),
        per_file_ignores=_per_file_ignores(table.get("per-file-ignores", {}), known),
        strict=strict,
        severity=_severity(table.get("severity", {}), known),
        exclude=excluded_paths(
            _strings(table, "exclude", DEFAULT_EXCLUDE),
            _strings(table, "extend-exclude"),
            _strings(table, "other-harnesses", OTHER_HARNESSES),
        ),
        extend_exclude=_strings(table, "extend-exclude"),
        other_harnesses=_strings(table, "other-harnesses", OTHER_HARNESSES),
        units=units,
        agents=_agents(table.get("agents", {})),
        max_file_bytes=max_size,
        no_name_rule=_no_name_rule(table.get("no-name-rule", {})),
        result_contract=_result_contract(table.get("result-contract", {})),
        spawn_callables=_strings(python, "spawn-callables", ("Agent", "Task")),
        guard_mode=_guard_mode(table.get("guard", {})),
        source=source,
    )


def with_excludes(
    settings: Settings, exclude: tuple[str, ...] | None, extend_exclude: tuple[str, ...]
) -> Settings:
    """The settings with the command line's `--exclude` (replacing the configured or default list)
    and `--extend-exclude` (adding to it)."""
    if exclude is None and not extend_exclude:
        return settings
    if exclude is None:
        return replace(settings, exclude=settings.exclude + extend_exclude)
    extend = settings.extend_exclude + extend_exclude
    return replace(settings, exclude=excluded_paths(exclude, extend, settings.other_harnesses))


def _severity(value: Any, known: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(value, dict):
        raise TypeError("`severity` must be a table of codes")
    out = {}
    for code, level in value.items():
        if level not in SEVERITIES:
            raise ValueError(f"`severity.{code}` must be one of {', '.join(SEVERITIES)}, not {level!r}")
        if known and code.upper() not in known:
            raise ValueError(f"`severity`: unknown rule code {code}")
        out[code.upper()] = level
    return out


def _per_file_ignores(value: Any, known: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise TypeError("`per-file-ignores` must be a table of glob = [codes]")
    out = []
    for glob, codes in value.items():
        key = f'per-file-ignores."{glob}"'
        listed = _codes({key: codes}, key, known)
        out.append((glob, listed))
    return tuple(out)


def _agents(value: Any) -> tuple[ConfiguredAgent, ...]:
    if not isinstance(value, dict):
        raise TypeError('`agents` must be a table of agent id = [tools], "*" or true')
    out = []
    for agent_id, tools in value.items():
        pattern = agent_id.strip().lower()
        if tools is True:
            out.append(ConfiguredAgent(pattern, None, tools_known=False))
        elif tools == "*":
            out.append(ConfiguredAgent(pattern, None))
        elif isinstance(tools, list) and all(isinstance(t, str) for t in tools):
            out.append(ConfiguredAgent(pattern, tuple(tools)))
        else:
            raise ValueError(f'`agents."{agent_id}"` must be a list of tool names, "*" or true')
    return tuple(out)


def _guard_mode(table: Any) -> str:
    if not isinstance(table, dict) or set(table) - {"mode"}:
        raise ValueError("[tool.spawnlint.guard] must be a table with the one key `mode`")
    mode = table.get("mode", "deny")
    if mode not in ("deny", "rewrite"):
        raise ValueError(f'`guard.mode` must be "deny" or "rewrite", not {mode!r}')
    return str(mode)


def _no_name_rule(table: Any) -> NoNameRule:
    if not isinstance(table, dict):
        raise TypeError("[tool.spawnlint.no-name-rule] must be a table")
    unknown = sorted(set(table) - {"require-mechanism", "pattern", "scope"})
    if unknown:
        raise ValueError(f"unknown no-name-rule key(s) {', '.join(unknown)}")
    require = table.get("require-mechanism", True)
    if not isinstance(require, bool):
        raise TypeError("`no-name-rule.require-mechanism` must be true or false")
    pattern = table.get("pattern")
    if pattern is not None:
        if not isinstance(pattern, str):
            raise TypeError("`no-name-rule.pattern` must be a string")
        _compiled(pattern)
    scope = table.get("scope", "unit")
    lines = 0
    if not isinstance(scope, str):
        raise TypeError("`no-name-rule.scope` must be a string")
    m = re.fullmatch(r"lines:(\d+)", scope)
    if m:
        scope, lines = "lines", int(m.group(1))
    elif scope not in ("unit", "section"):
        raise ValueError('`no-name-rule.scope` must be "unit", "section" or "lines:N"')
    return NoNameRule(require, pattern, scope, lines)


# A pattern from the configuration is matched against every sentence of the project, and a pull
# request can change the configuration its own CI runs with: a pattern that backtracks
# catastrophically (`(a|aa)+$` on 60 `a`s takes hours) must stop the run, not hang it. The
# standard `re` cannot be interrupted; the `regex` package (re-compatible syntax, wheels for
# Linux, macOS and Windows) takes a timeout per search.
SENTENCE_SECONDS = 0.5  # an ordinary pattern takes microseconds on a sentence
RUN_SECONDS = 20.0  # and all of them together, for a pattern slow on every sentence


def _compiled(pattern: str) -> Any:
    import regex  # only a configured pattern needs it (~45 ms to import)

    try:
        return regex.compile(pattern, regex.IGNORECASE)
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        raise ValueError(f"`no-name-rule.pattern` is not a valid regular expression: {exc}") from exc


def rule_pattern_matcher(pattern: str, source: str | None = None) -> Callable[[str], bool]:
    """A search for the configured rule pattern (case-insensitive) that stops the run with a
    ConfigError instead of backtracking for hours: each search is bounded, and so is the time of
    all of them."""
    compiled = _compiled(pattern)
    spent = [0.0]

    def search(text: str) -> bool:
        allowed = min(SENTENCE_SECONDS, RUN_SECONDS - spent[0])
        started = time.monotonic()
        try:
            return compiled.search(text, timeout=max(allowed, 0.001)) is not None
        except TimeoutError:
            raise ConfigError(_too_slow(pattern, source, text, allowed < SENTENCE_SECONDS)) from None
        finally:
            spent[0] += time.monotonic() - started

    return search


def _too_slow(pattern: str, source: str | None, text: str, overall: bool) -> str:
    where = f"{source}: " if source else ""
    sample = text[:60].encode("unicode_escape").decode("ascii") + ("..." if len(text) > 60 else "")
    took = (
        f"more than {RUN_SECONDS:g} s over the project's sentences"
        if overall
        else (f"more than {SENTENCE_SECONDS:g} s on one sentence ({sample!r})")
    )
    return (
        f"{where}`no-name-rule.pattern` {pattern!r} took {took}: it backtracks catastrophically"
        " (nested or overlapping repeats such as `(a|aa)+`); rewrite it without them"
    )


def _result_contract(table: Any) -> ResultContract:
    if not isinstance(table, dict):
        raise TypeError("[tool.spawnlint.result-contract] must be a table")
    unknown = sorted(set(table) - {"failure-fields"})
    if unknown:
        raise ValueError(f"unknown result-contract key(s) {', '.join(unknown)}")
    if "failure-fields" not in table:
        return ResultContract()
    fields = tuple(f.strip().lower() for f in _strings(table, "failure-fields") if f.strip())
    if not fields:
        raise ValueError("`result-contract.failure-fields` must name at least one field")
    return ResultContract(fields)


def show(settings: Settings) -> str:
    """The resolved settings, for --show-settings: which file was used and every value."""
    rule = settings.no_name_rule
    scope = f"lines:{rule.lines}" if rule.scope == "lines" else rule.scope
    rows = [
        f"# settings from: {settings.source or '(none: the defaults)'}",
        f"select = {list(settings.select)}",
        f"extend-select = {list(settings.extend_select)}",
        f"ignore = {list(settings.ignore)}",
        f"per-file-ignores = {dict((g, list(c)) for g, c in settings.per_file_ignores)}",
        f"strict = {str(settings.strict).lower()}",
        f"severity = {dict(settings.severity)}",
        f"exclude = {list(settings.exclude)}  # in effect: extend-exclude and other-harnesses too",
        f"extend-exclude = {list(settings.extend_exclude)}",
        f"other-harnesses = {list(settings.other_harnesses)}",
        f"units = {list(settings.units)}",
        f"max-file-size = {settings.max_file_bytes}",
        f"agents = {dict((a.pattern, _agent_value(a)) for a in settings.agents)}",
        f"python.spawn-callables = {list(settings.spawn_callables)}",
        f"guard.mode = {settings.guard_mode!r}",
        f"no-name-rule.require-mechanism = {str(rule.require_mechanism).lower()}",
        f"no-name-rule.pattern = {rule.pattern!r}",
        f"no-name-rule.scope = {scope!r}",
        f"result-contract.failure-fields = {list(settings.result_contract.failure_fields)}",
    ]
    return "\n".join(rows) + "\n"


def _agent_value(agent: ConfiguredAgent) -> object:
    if not agent.tools_known:
        return True
    return "*" if agent.tools is None else list(agent.tools)
