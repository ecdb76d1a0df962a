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
from spawnlint.config import ConfigError, Settings, load_settings, show
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
        "transcripts", help="find teammates that never called SendMessage and recover their answers"
    )
    transcripts.add_argument(
        "dir", nargs="?", type=Path, help="transcript folder (default: ~/.claude/projects)"
    )
    transcripts.add_argument("--output-format", choices=["text", "json"], default="text")
    transcripts.add_argument(
        "--recover", type=Path, metavar="OUTDIR", help="write each mute teammate's last text here"
    )

    verbs.add_parser(
        "guard",
        help="a Claude Code PreToolUse hook: deny named spawns that would be mute",
        description="Reads a PreToolUse hook payload on stdin and prints a deny decision for a named"
        " Agent/Task call whose answer would never come back; prints nothing otherwise. Always exits 0.",
    )

    rule = verbs.add_parser("rule", help="print a rule's page")
    rule.add_argument("code", nargs="?", help="e.g. SL101; without it, list the rules")
    _add_editor_options(verbs, check)
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
        if args.verb == "guard":
            from spawnlint.guard import run_hook

            return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr)
        if args.verb == "audit":
            return _audit(args)
        if args.verb == "transcripts":
            return _transcripts(args)
        if args.verb == "lsp":
            return _lsp()
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

    folder = args.dir if args.dir is not None else Path.home() / ".claude" / "projects"
    if not folder.is_dir():
        print(f"spawnlint: {folder}: not a directory", file=sys.stderr)
        return 2
    progress = transcripts.TerminalProgress(sys.stderr) if sys.stderr.isatty() else None
    result = transcripts.scan(folder, progress)
    if progress is not None:
        progress.clear()
    try:
        recovered = transcripts.recover(result, args.recover) if args.recover is not None else None
    except OSError as exc:
        print(f"spawnlint: --recover {args.recover}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if args.output_format == "json":
        sys.stdout.write(transcripts.render_json(result))
        if recovered is not None:
            print(f"spawnlint: recovered {len(recovered)} answer(s) into {args.recover}", file=sys.stderr)
    else:
        sys.stdout.write(transcripts.render_text(result, str(folder), recovered))
    return 0


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
    if args.show_settings:
        sys.stdout.write(show(settings))
        return 0
    cli_codes = _codes(args.select) + _codes(args.extend_select) + _codes(args.ignore)
    unknown = [c for c in cli_codes if not any(code.startswith(c) for code in CODES)]
    if unknown:
        print(f"spawnlint: unknown rule code or prefix: {', '.join(unknown)}", file=sys.stderr)
        return 2
    stdin = _read_stdin(args, root) if "-" in args.paths or args.stdin_filename else None
    if isinstance(stdin, int):
        return stdin
    paths = (next(iter(stdin)),) if stdin else _report_paths(args.paths, root)
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
    if stdin:
        diagnostics = _stdin_diagnostics(args, root, settings, filters, stdin, lines)
    else:
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


# Editors: `spawnlint lsp`, and `check - --stdin-filename PATH` (a buffer linted as that file).


def _add_editor_options(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser], check: argparse.ArgumentParser
) -> None:
    check.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with `-` as the path: lint standard input as this file of the project (the rest from disk)",
    )
    verbs.add_parser(
        "lsp",
        help="a language server for editors (LSP over standard input and output)",
        description="Diagnostics, fixes and hover for the project as the editor holds it; needs the"
        " `lsp` extra (pip install 'spawnlint[lsp]').",
    )


def _lsp() -> int:
    try:
        from spawnlint.lsp.server import serve
    except ImportError as exc:
        print(f"spawnlint lsp needs pygls: pip install 'spawnlint[lsp]' ({exc})", file=sys.stderr)
        return 2
    return serve()


def _read_stdin(args: argparse.Namespace, root: Path) -> dict[str, bytes] | int:
    """The buffer on standard input under its project path, or the exit code of a usage error."""
    if args.paths != ["-"] or not args.stdin_filename:
        print("spawnlint: `-` (standard input) goes alone, with --stdin-filename PATH", file=sys.stderr)
        return 2
    if args.fix or args.diff or args.write_baseline:
        print("spawnlint: --fix, --diff and --write-baseline do not take standard input", file=sys.stderr)
        return 2
    named = Path(args.stdin_filename)
    full = (named if named.is_absolute() else Path.cwd() / named).resolve()
    try:
        rel = full.relative_to(root).as_posix()
    except ValueError:
        print(
            f"spawnlint: --stdin-filename {args.stdin_filename}: not inside the project {root}",
            file=sys.stderr,
        )
        return 2
    return {rel: sys.stdin.buffer.read()}


def _stdin_diagnostics(
    args: argparse.Namespace,
    root: Path,
    settings: Settings,
    filters: Filters,
    stdin: dict[str, bytes],
    lines: SourceLines,
) -> list[Diagnostic]:
    """The findings touching the buffer's file, the project read from disk around it."""
    from spawnlint.buffers import lint_buffers
    from spawnlint.focus import wanted

    result = lint_buffers(root, settings, stdin, not args.no_cache, wanted(tuple(stdin)))
    for path, data in stdin.items():  # baseline fingerprints read the buffer's lines, not the disk's
        text = data.decode("utf-8-sig", "replace")
        lines.cache[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if args.verbose:
        _print_tracebacks(result.project)
    return apply(result.diagnostics, result.project, filters, lines)
