"""Settings from `[tool.spawnlint]` in pyproject.toml or from .spawnlint.toml."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class ConfigError(Exception):
    """The configuration cannot be used; the run stops with exit code 2."""


@dataclass(frozen=True)
class NoNameRule:
    require_mechanism: bool = True
    pattern: str | None = None  # a regex that replaces the default matcher, per sentence
    scope: str = "unit"  # "unit", "section" or "lines"
    lines: int = 0  # N of "lines:N"


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    strict: bool = False
    severity: Mapping[str, str] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    units: tuple[str, ...] = ("commands", "skills")
    external_agents: tuple[str, ...] = ()
    max_file_bytes: int = 2 * 1024 * 1024
    no_name_rule: NoNameRule = NoNameRule()
    spawn_callables: tuple[str, ...] = ("Agent", "Task")


_UNITS = {"commands", "skills", "agents"}


def load_settings(root: Path) -> Settings:
    table = _find_table(root)
    try:
        return _settings(table)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"invalid [tool.spawnlint] configuration: {exc}") from exc


def _find_table(root: Path) -> dict[str, Any]:
    for name in (".spawnlint.toml", "pyproject.toml"):
        path = root / name
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text("utf-8-sig"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{name}: cannot read configuration: {exc}") from exc
        tool = data.get("tool", {})
        table = tool.get("spawnlint") if isinstance(tool, dict) else None
        if isinstance(table, dict):
            return table
        if name == ".spawnlint.toml":
            return data
    return {}


def _strings(table: Mapping[str, Any], key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
    value = table.get(key, list(default))
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"`{key}` must be a list of strings")
    return tuple(value)


def _settings(table: dict[str, Any]) -> Settings:
    known = {
        "select",
        "ignore",
        "strict",
        "severity",
        "exclude",
        "units",
        "external-agents",
        "max-file-size",
        "no-name-rule",
        "python",
    }
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)}")
    units = _strings(table, "units", ("commands", "skills"))
    if set(units) - _UNITS:
        raise ValueError(f"`units` may hold only {sorted(_UNITS)}")
    severity = table.get("severity", {})
    if not isinstance(severity, dict) or any(v not in ("error", "warning") for v in severity.values()):
        raise ValueError('`severity` maps codes to "error" or "warning"')
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise TypeError("`strict` must be true or false")
    max_size = table.get("max-file-size", Settings.max_file_bytes)
    if not isinstance(max_size, int) or max_size <= 0:
        raise ValueError("`max-file-size` must be a positive number of bytes")
    python = table.get("python", {})
    if not isinstance(python, dict):
        raise TypeError("[tool.spawnlint.python] must be a table")
    return Settings(
        select=_strings(table, "select"),
        ignore=_strings(table, "ignore"),
        strict=strict,
        severity={k.upper(): v for k, v in severity.items()},
        exclude=_strings(table, "exclude"),
        units=units,
        external_agents=_strings(table, "external-agents"),
        max_file_bytes=max_size,
        no_name_rule=_no_name_rule(table.get("no-name-rule", {})),
        spawn_callables=_strings(python, "spawn-callables", ("Agent", "Task")),
    )


def _no_name_rule(table: Any) -> NoNameRule:
    if not isinstance(table, dict):
        raise TypeError("[tool.spawnlint.no-name-rule] must be a table")
    unknown = sorted(set(table) - {"require-mechanism", "pattern", "scope"})
    if unknown:
        raise ValueError(f"unknown no-name-rule key(s) {', '.join(unknown)}")
    require = table.get("require-mechanism", True)
    if not isinstance(require, bool):
        raise TypeError("`require-mechanism` must be true or false")
    pattern = table.get("pattern")
    if pattern is not None:
        if not isinstance(pattern, str):
            raise TypeError("`pattern` must be a string")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"`pattern` is not a valid regular expression: {exc}") from exc
    scope = table.get("scope", "unit")
    lines = 0
    if not isinstance(scope, str):
        raise TypeError("`scope` must be a string")
    m = re.fullmatch(r"lines:(\d+)", scope)
    if m:
        scope, lines = "lines", int(m.group(1))
    elif scope not in ("unit", "section"):
        raise ValueError('`scope` must be "unit", "section" or "lines:N"')
    return NoNameRule(require, pattern, scope, lines)
