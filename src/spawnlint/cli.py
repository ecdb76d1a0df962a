"""Argument parsing only: each verb hands its work to the module that does it."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from spawnlint import __version__
from spawnlint.config import ConfigError, load_settings
from spawnlint.discover import find_root
from spawnlint.model import Severity
from spawnlint.report import FORMATS
from spawnlint.rules import BY_CODE, RULES
from spawnlint.suppress import Filters, apply, load_baseline


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spawnlint",
        description="Lint Claude Code plugins for subagent spawns whose answers never come back.",
    )
    parser.add_argument("--version", action="version", version=f"spawnlint {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")

    check = verbs.add_parser("check", help="lint the project (the default verb)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="report only findings located in these files")
    check.add_argument("--root", type=Path, help="the project root (default: the enclosing git work tree)")
    check.add_argument("--output-format", choices=sorted(FORMATS), default=None)
    check.add_argument("--select", action="append", default=[], help="codes or prefixes to report")
    check.add_argument("--ignore", action="append", default=[], help="codes or prefixes not to report")
    check.add_argument("--strict", action="store_true", help="warnings fail the run too")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings fail")
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead")
    check.add_argument("--baseline", type=Path, help="a JSON report of findings to accept")
    check.add_argument("--no-cache", action="store_true", help="parse every file afresh, without the cache")

    audit = verbs.add_parser("audit", help="a one-off report of the project's agents, spawns and findings")
    audit.add_argument(
        "path", nargs="?", type=Path, help="the project (default: around the current directory)"
    )
    audit.add_argument("--root", type=Path, help="the project root, as for check")
    audit.add_argument("--output-format", choices=["markdown", "json"], default="markdown")

    rule = verbs.add_parser("rule", help="print a rule's page")
    rule.add_argument("code", nargs="?", help="e.g. SL101; without it, list the rules")
    return parser


def _codes(values: list[str]) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version"):
        args_list.insert(0, "check")
    parser = _parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        if args.verb == "rule":
            return _rule(args.code)
        if args.verb == "audit":
            return _audit(args)
        return _check(args)
    except ConfigError as exc:
        print(f"spawnlint: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 2
    except Exception as exc:  # noqa: BLE001 - an internal error must still exit 2, with a clue
        print(f"spawnlint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


def _project_root(explicit: Path | None, start: Path) -> Path | None:
    if explicit is not None:
        if not explicit.is_dir():
            print(f"spawnlint: --root {explicit}: not a directory", file=sys.stderr)
            return None
        return explicit.resolve()
    if not start.exists():
        print(f"spawnlint: {start}: no such directory", file=sys.stderr)
        return None
    return find_root(start)


def _audit(args: argparse.Namespace) -> int:
    from spawnlint.audit import render_json, render_markdown
    from spawnlint.engine import lint

    if args.path is not None and args.root is None:
        if not args.path.is_dir():
            print(f"spawnlint: {args.path}: not a directory", file=sys.stderr)
            return 2
        root: Path | None = args.path.resolve()  # the folder named is the project audited
    else:
        root = _project_root(args.root, Path.cwd())
    if root is None:
        return 2
    settings = load_settings(root)
    result = lint(root, settings)
    diagnostics = apply(result.diagnostics, result.project, Filters(settings.select, settings.ignore))
    render = render_json if args.output_format == "json" else render_markdown
    sys.stdout.write(render(result.project, diagnostics))
    return 0


def _check(args: argparse.Namespace) -> int:
    from spawnlint.engine import lint

    root = _project_root(args.root, Path.cwd())
    if root is None:
        return 2
    settings = load_settings(root)
    select = _codes(args.select) or settings.select
    ignore = _codes(args.ignore) + settings.ignore
    unknown = [c for c in select + ignore if not any(code.startswith(c) for code in BY_CODE)]
    if unknown:
        print(f"spawnlint: unknown rule code or prefix: {', '.join(unknown)}", file=sys.stderr)
        return 2
    paths = _report_paths(args.paths, root)
    if paths == ():
        return 0  # pre-commit passed only files outside the project: nothing to report
    try:
        baseline = load_baseline(args.baseline) if args.baseline else frozenset()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"spawnlint: --baseline {args.baseline}: cannot use it ({exc})", file=sys.stderr)
        return 2
    result = lint(root, settings, use_cache=not args.no_cache)
    diagnostics = apply(result.diagnostics, result.project, Filters(select, ignore, paths, baseline))
    fmt = args.output_format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "concise")
    if args.statistics:
        counts = Counter(d.code for d in diagnostics)
        for code, count in sorted(counts.items()):
            print(f"{count:>5}  {code}  {BY_CODE[code].name}")
    else:
        sys.stdout.write(FORMATS[fmt](diagnostics, str(root)))
    strict = args.strict or settings.strict
    failing = [d for d in diagnostics if d.severity is Severity.ERROR or strict]
    return 1 if failing and not args.exit_zero else 0


def _report_paths(raw: list[str], root: Path) -> tuple[str, ...] | None:
    if not raw:
        return None
    out = []
    for item in raw:
        full = Path(item).resolve() if Path(item).is_absolute() else (Path.cwd() / item).resolve()
        try:
            rel = full.relative_to(root)
        except ValueError:
            continue
        out.append(rel.as_posix() if rel.parts else "")
    return tuple(out)


def _rule(code: str | None) -> int:
    from spawnlint.pages import page_for

    if code is None:
        for r in RULES:
            print(f"{r.code}  {r.name:<26} {r.severity.value:<8} {r.summary}")
        return 0
    text = page_for(code.upper())
    if text is None:
        print(f"spawnlint: no rule {code}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
