"""Argument parsing only: each verb hands its work to the module that does it."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from spawnlint import __version__
from spawnlint.atomic import write_atomically
from spawnlint.config import ConfigError, Settings, load_settings, show, with_excludes
from spawnlint.discover import find_root
from spawnlint.model import Diagnostic, Project, Severity
from spawnlint.report import FORMATS
from spawnlint.report.colour import colourise, without_summary
from spawnlint.report.concise import printable
from spawnlint.report.safe import display_lines, escape_controls, log_text
from spawnlint.rules import BY_CODE, CODES, OPT_IN, RULES
from spawnlint.source_lines import SourceLines
from spawnlint.suppress import Filters, apply, baseline_json, load_baseline, narrow

if TYPE_CHECKING:
    from spawnlint.engine import Result
    from spawnlint.fix import FileChange


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
    check.add_argument("--extend-select", action="append", default=[], help="add codes to the selection")
    check.add_argument("--ignore", action="append", default=[], help="codes or prefixes not to report")
    check.add_argument("--strict", action="store_true", help="warnings fail the run too")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings fail")
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead")
    check.add_argument("--baseline", type=Path, help="a baseline file: hide the findings it records")
    check.add_argument("--write-baseline", type=Path, metavar="FILE", help="record today's findings")
    check.add_argument("--exclude", action="append", help="paths not read (replaces the configured list)")
    check.add_argument("--extend-exclude", action="append", default=[], help="more paths not read")
    check.add_argument("--config", type=Path, help="the configuration file (default: the nearest)")
    check.add_argument("--show-settings", action="store_true", help="print the settings used, and from where")
    check.add_argument("-q", "--quiet", action="store_true", help="print the findings and nothing else")
    check.add_argument(
        "--color", choices=["auto", "always", "never"], default="auto", help="colour (auto: on a terminal)"
    )
    check.add_argument("--fix", action="store_true", help="apply the fixes, then report what remains")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes marked unsafe (SL102)")
    check.add_argument(
        "--verbose", action="store_true", help="print the traceback of internal errors (SL000)"
    )
    check.add_argument("--no-cache", action="store_true", help="parse every file afresh, without the cache")

    audit = verbs.add_parser("audit", help="a one-off report of the project's agents, spawns and findings")
    audit.add_argument(
        "path", nargs="?", type=Path, help="the project (default: around the current directory)"
    )
    audit.add_argument("--root", type=Path, help="the project root, as for check")
    audit.add_argument("--output-format", choices=["markdown", "json"], default="markdown")
    audit.add_argument("--config", type=Path, help="the configuration file (default: the nearest)")
    audit.add_argument("--output", type=Path, metavar="FILE", help="write the report to FILE (atomically)")

    transcripts = verbs.add_parser(
        "transcripts", help="tell which spawned agents' reports never reached the lead, and recover them"
    )
    transcripts.add_argument(
        "dir", nargs="?", type=Path, help="transcript folder (default: ~/.claude/projects)"
    )
    transcripts.add_argument("--output-format", choices=["text", "json"], default="text")
    transcripts.add_argument(
        "--recover", type=Path, metavar="OUTDIR", help="write each lost answer here, one file per agent"
    )
    transcripts.add_argument(
        "--since", metavar="WHEN", help="only sessions with a file modified since WHEN (2h, 3d, 2026-11-30)"
    )
    transcripts.add_argument("--session", metavar="ID", help="only the session with this id (or id prefix)")

    verbs.add_parser(
        "guard",
        help="a Claude Code PreToolUse hook: deny (or rewrite) named spawns that would be mute",
        description="Reads a PreToolUse hook payload on stdin and prints a deny decision for a named"
        " Agent/Task call whose answer would never come back (with `[guard] mode = \"rewrite\"`: an"
        " allow decision for the same call without `name`); prints nothing otherwise. Always exits 0.",
    )

    rule = verbs.add_parser("rule", help="print a rule's page")
    rule.add_argument("code", nargs="?", help="e.g. SL101; without it, list the rules")
    return parser


def _patterns(values: list[str]) -> tuple[str, ...]:
    return tuple(p.strip() for v in values for p in v.split(",") if p.strip())


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
        if args.verb == "guard":
            from spawnlint.guard import run_hook

            return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr)
        if args.verb == "audit":
            return _audit(args)
        if args.verb == "transcripts":
            return _transcripts(args)
        return _check(args)
    except ConfigError as exc:
        print(f"spawnlint: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 2
    except Exception as exc:  # noqa: BLE001 - an internal error must still exit 2, with a clue
        if getattr(args, "verbose", False):
            traceback.print_exc()
        print(
            f"spawnlint: internal error: {type(exc).__name__}: {log_text(printable(str(exc)))}",
            file=sys.stderr,
        )
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
    settings = load_settings(root, Path.cwd(), args.config, CODES)
    result = lint(root, settings)
    diagnostics = apply(result.diagnostics, result.project, _filters(settings), SourceLines(root))
    render = render_json if args.output_format == "json" else render_markdown
    report = render(result.project, diagnostics)
    if args.output is None:
        sys.stdout.write(report)
        return 0
    try:
        write_atomically(args.output, report.encode("utf-8"))
    except OSError as exc:
        print(f"spawnlint: --output {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"spawnlint: wrote the audit to {args.output}", file=sys.stderr)
    return 0


def _transcripts(args: argparse.Namespace) -> int:
    from spawnlint import transcripts

    return transcripts.run(
        args.dir, args.output_format, args.recover, args.since, args.session, sys.stdout, sys.stderr
    )


def _with_opt_in(settings: Settings, filters: Filters) -> Settings:
    """Opt-in rules named on the command line run too (the engine runs those the settings select)."""
    chosen = filters.select + filters.extend_select
    named = [c for c in chosen if c in OPT_IN and c not in settings.extend_select]
    return replace(settings, extend_select=settings.extend_select + tuple(named)) if named else settings


def _check(args: argparse.Namespace) -> int:
    root = _project_root(args.root, Path.cwd())
    if root is None:
        return 2
    settings = load_settings(root, Path.cwd(), args.config, CODES)
    exclude = None if args.exclude is None else _patterns(args.exclude)
    settings = with_excludes(settings, exclude, _patterns(args.extend_exclude))
    if args.show_settings:
        sys.stdout.write(show(settings))
        return 0
    cli_codes = _codes(args.select) + _codes(args.extend_select) + _codes(args.ignore)
    unknown = [c for c in cli_codes if not any(code.startswith(c) for code in CODES)]
    if unknown:
        print(f"spawnlint: unknown rule code or prefix: {', '.join(unknown)}", file=sys.stderr)
        return 2
    paths = _report_paths(args.paths, root)
    if paths == ():
        return 0  # pre-commit passed only files outside the project: nothing to report
    try:
        baseline = load_baseline(args.baseline) if args.baseline else {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"spawnlint: --baseline {args.baseline}: cannot use it ({exc})", file=sys.stderr)
        return 2
    filters = replace(
        _filters(settings),
        select=_codes(args.select) or settings.select,
        extend_select=settings.extend_select + _codes(args.extend_select),
        ignore=settings.ignore + _codes(args.ignore),
        paths=paths,
        baseline=baseline,
    )
    settings = _with_opt_in(settings, filters)
    lines = SourceLines(root)
    if args.diff:
        return _diff(root, settings, filters, args.unsafe_fixes, not args.no_cache)
    diagnostics = _diagnostics(args, root, settings, filters, lines)
    if args.write_baseline:
        return _write_baseline(args.write_baseline, diagnostics, lines, args.quiet)
    _print_report(args, diagnostics, str(root))
    strict = args.strict or settings.strict
    failing = [
        d for d in diagnostics if d.severity is Severity.ERROR or strict and d.severity is Severity.WARNING
    ]
    return 1 if failing and not args.exit_zero else 0


def _diagnostics(
    args: argparse.Namespace, root: Path, settings: Settings, filters: Filters, lines: SourceLines
) -> list[Diagnostic]:
    """The run's findings: linted afresh for --fix and --verbose (they need the whole model),
    otherwise from the run memo when nothing changed."""
    cache = not args.no_cache
    if not (args.fix or args.verbose):
        from spawnlint.memo import checked

        kept, _ = checked(root, settings, cache, filters.paths)
        return narrow(kept, filters, lines)
    from spawnlint.engine import lint

    fixed = _fix(root, settings, filters, args.unsafe_fixes, cache) if args.fix else None
    result = fixed or lint(root, settings, use_cache=cache)
    if args.verbose:
        _print_tracebacks(result.project)
    return apply(result.diagnostics, result.project, filters, lines)


def _filters(settings: Settings) -> Filters:
    return Filters(
        select=settings.select,
        ignore=settings.ignore,
        extend_select=settings.extend_select,
        per_file_ignores=settings.per_file_ignores,
        severity=settings.severity,
    )


def _print_report(args: argparse.Namespace, diagnostics: list[Diagnostic], root: str) -> None:
    if args.statistics:
        counts = Counter(d.code for d in diagnostics)
        for code, count in sorted(counts.items()):
            print(f"{count:>5}  {code}  {BY_CODE[code].name}")
        return
    fmt = args.output_format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "concise")
    text = FORMATS[fmt](diagnostics, root)
    if args.quiet and fmt in ("concise", "full", "github"):
        text = without_summary(text, diagnostics)
    if fmt in ("concise", "full") and _colour(args.color):
        text = colourise(text)
    sys.stdout.write(text)


def _colour(choice: str) -> bool:
    """Colour on a terminal only; NO_COLOR (any value) turns it off, FORCE_COLOR on."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _write_baseline(path: Path, diagnostics: list[Diagnostic], lines: SourceLines, quiet: bool) -> int:
    text = baseline_json(diagnostics, lines)
    try:
        write_atomically(path, text.encode("utf-8"))
    except OSError as exc:
        print(f"spawnlint: --write-baseline {path}: cannot write it ({exc.strerror or exc})", file=sys.stderr)
        return 2
    if not quiet:
        print(f"spawnlint: recorded {len(diagnostics)} finding(s) in {path}", file=sys.stderr)
    return 0


_FIX_PASSES = 4  # a fix held back by an overlap gets its turn in the next pass


def _fix(root: Path, settings: Settings, filters: Filters, unsafe: bool, cache: bool) -> Result | None:
    """Fix to a fixed point; the lint of the files as they end up, when the last pass had it."""
    from spawnlint.engine import lint
    from spawnlint.fix import fixed_count, plan, write

    fixed = 0
    files: set[str] = set()
    final: Result | None = None
    for _ in range(_FIX_PASSES):
        result = lint(root, settings, use_cache=cache)
        found = apply(result.diagnostics, result.project, filters, SourceLines(root))
        changes = plan(root, found, result.project, unsafe)
        if not changes:
            final = result  # nothing left to write: this lint is the files' state
            break
        written = [c for c in changes if write(root, c)]
        fixed += fixed_count(written)
        files.update(c.path for c in written)
        if not written:
            break
    print(f"fixed {_plural(fixed, 'finding')} in {_plural(len(files), 'file')}", file=sys.stderr)
    return final


def _diff(root: Path, settings: Settings, filters: Filters, unsafe: bool, cache: bool) -> int:
    from spawnlint.engine import lint
    from spawnlint.fix import plan, unified_diff

    result = lint(root, settings, use_cache=cache)
    found = apply(result.diagnostics, result.project, filters, SourceLines(root))
    changes = plan(root, found, result.project, unsafe)
    for change in changes:
        sys.stdout.write(display_lines(unified_diff(change)))
    print(f"would fix {_counted(changes)}", file=sys.stderr)
    return 1 if changes else 0


def _counted(changes: list[FileChange]) -> str:
    from spawnlint.fix import fixed_count

    return f"{_plural(fixed_count(changes), 'finding')} in {_plural(len(changes), 'file')}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def _print_tracebacks(project: Project) -> None:
    for problem in project.problems:
        if problem.code == "SL000" and problem.detail:
            report = f"spawnlint: SL000 in {printable(problem.finding.path)}:\n{problem.detail}"
            print(log_text(escape_controls(report, keep="\n")), file=sys.stderr)


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
