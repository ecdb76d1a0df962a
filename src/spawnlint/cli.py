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
from spawnlint.discover import excluded_by, find_root
from spawnlint.model import Diagnostic, Project, Severity
from spawnlint.report import FORMATS
from spawnlint.report.colour import colourise, without_summary
from spawnlint.report.concise import fixable_hint, printable
from spawnlint.report.progress import Progress
from spawnlint.report.safe import display_lines, escape_controls, log_text
from spawnlint.rules import BY_CODE, CODES, OPT_IN, RULES
from spawnlint.source_lines import SourceLines
from spawnlint.suppress import (
    BaselineOutcome,
    Filters,
    apply,
    baseline_json,
    exactly,
    layered_selection,
    load_baseline,
    narrowed,
    suppressed,
)

if TYPE_CHECKING:
    from spawnlint.engine import Result
    from spawnlint.fix import FileChange

    Verbs = argparse._SubParsersAction[argparse.ArgumentParser]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spawnlint",
        description="Lint Claude Code plugins for subagent spawns whose answers never come back.",
    )
    _add_version(parser)
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    _check_parser(verbs)
    _audit_parser(verbs)
    _transcripts_parser(verbs)
    _guard_parser(verbs)
    _rule_parser(verbs)
    _add_editor_options(verbs)
    return parser


def _add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-V", "--version", action="version", version=f"spawnlint {__version__}")


def _verb(verbs: Verbs, name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
    parser = verbs.add_parser(name, help=help, description=description)
    _add_version(parser)
    return parser


def _check_parser(verbs: Verbs) -> None:
    check = _verb(verbs, "check", help="lint the project (the default verb)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="report only findings located in these files")
    check.add_argument("--root", type=Path, help="the project root (default: the enclosing git work tree)")
    check.add_argument("--output-format", choices=sorted(FORMATS), default=None)
    check.add_argument(
        "-o", "--output-file", type=Path, metavar="FILE", help="write the report to FILE instead of stdout"
    )
    check.add_argument(
        "--select",
        action="append",
        default=[],
        help="codes or prefixes to report (replaces the configuration's)",
    )
    check.add_argument("--extend-select", action="append", default=[], help="add codes to the selection")
    check.add_argument(
        "--ignore",
        action="append",
        default=[],
        help="codes or prefixes not to report (wins over the configuration)",
    )
    check.add_argument("--strict", action="store_true", help="warnings fail the run too")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings fail")
    check.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="with --fix: exit 1 when a file was fixed"
    )
    check.add_argument("--statistics", action="store_true", help="print a count per rule instead")
    check.add_argument("--baseline", type=Path, help="a baseline file: hide the findings it records")
    check.add_argument("--write-baseline", type=Path, metavar="FILE", help="record today's findings")
    check.add_argument("--exclude", action="append", help="paths not read (replaces the configured list)")
    check.add_argument("--extend-exclude", action="append", default=[], help="more paths not read")
    check.add_argument("--config", type=Path, help="the configuration file (default: the nearest)")
    check.add_argument("--show-settings", action="store_true", help="print the settings used, and from where")
    check.add_argument(
        "--show-files", action="store_true", help="print the files that would be read, and stop"
    )
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


def _audit_parser(verbs: Verbs) -> None:
    audit = _verb(verbs, "audit", help="a one-off report of the project's agents, spawns and findings")
    audit.add_argument(
        "path", nargs="?", type=Path, help="the project (default: around the current directory)"
    )
    audit.add_argument("--root", type=Path, help="the project root, as for check")
    audit.add_argument("--output-format", choices=["markdown", "json"], default="markdown")
    audit.add_argument("--config", type=Path, help="the configuration file (default: the nearest)")
    audit.add_argument(
        "-o",
        "--output-file",
        "--output",
        dest="output",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (atomically)",
    )
    audit.add_argument(
        "--summary",
        action="store_true",
        help="print the summary only (counts a plugin, the findings); with --output, the whole"
        " report goes to the file and the summary to stdout",
    )


def _transcripts_parser(verbs: Verbs) -> None:
    transcripts = _verb(
        verbs,
        "transcripts",
        help="tell which spawned agents' reports never reached the lead, and recover them",
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


def _guard_parser(verbs: Verbs) -> None:
    _verb(
        verbs,
        "guard",
        help="a Claude Code PreToolUse hook: deny (or rewrite) named spawns that would be mute",
        description="Reads a PreToolUse hook payload on stdin and prints a deny decision for a named"
        ' Agent/Task call whose answer would never come back (with `[guard] mode = "rewrite"`: an'
        " allow decision for the same call without `name`); prints nothing otherwise. Always exits 0.",
    )


def _rule_parser(verbs: Verbs) -> None:
    rule = _verb(verbs, "rule", help="print a rule's page")
    rule.add_argument("code", nargs="?", help="e.g. SL101; without it, list the rules")
    rule.add_argument("--all", action="store_true", help="print every rule's page")


def _patterns(values: list[str]) -> tuple[str, ...]:
    return tuple(p.strip() for v in values for p in v.split(",") if p.strip())


def _codes(values: list[str]) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if (
        not args_list
        or args_list[0].startswith("-")
        and args_list[0] not in ("-h", "--help", "-V", "--version")
    ):
        args_list.insert(0, "check")
    parser = _parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        if args.verb == "rule":
            return _rule(args.code, args.all)
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
    except BrokenPipeError:
        # the reader went away (`spawnlint check --show-files | head`): quiet, as other tools are;
        # stdout goes to devnull so the interpreter's final flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
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
    from spawnlint.audit import render_json, render_markdown, render_summary
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
    _warn_of_a_distrusted_cache(True)
    with Progress.on_terminal(sys.stderr, f"auditing {root}"):
        result = lint(root, settings)
    diagnostics = apply(result.diagnostics, result.project, Filters.configured(settings), SourceLines(root))
    if args.summary and args.output is None:
        sys.stdout.write(render_summary(result.project, diagnostics))
        return 0
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
    if args.summary:
        sys.stdout.write(render_summary(result.project, diagnostics, str(args.output)))
    print(f"spawnlint: wrote the audit to {printable(str(args.output))}", file=sys.stderr)
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
    _warn_of_a_distrusted_cache(not args.no_cache)
    cli_codes = _codes(args.select) + _codes(args.extend_select) + _codes(args.ignore)
    unknown = [c for c in cli_codes if not any(code.startswith(c) for code in CODES)]
    if unknown:
        print(f"spawnlint: unknown rule code or prefix: {', '.join(unknown)}", file=sys.stderr)
        return 2
    stdin = _read_stdin(args, root) if "-" in args.paths or args.stdin_filename else None
    if isinstance(stdin, int):
        return stdin
    paths = (next(iter(stdin)),) if stdin else _report_paths(args.paths, root, settings.exclude)
    if isinstance(paths, int):
        return paths
    if paths == ():
        return 0  # only files outside the project (or excluded), each said on stderr
    if args.show_files:
        return _show_files(root, settings, paths)
    try:
        baseline = load_baseline(args.baseline) if args.baseline else {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"spawnlint: --baseline {args.baseline}: cannot use it ({exc})", file=sys.stderr)
        return 2
    select, ignore = _selection(settings, args)
    filters = replace(
        Filters.configured(settings),
        select=select,
        extend_select=(),
        ignore=ignore,
        paths=paths,
        baseline=baseline,
    )
    settings = _with_opt_in(settings, filters)
    lines = SourceLines(root)
    if args.diff:
        return _diff(root, settings, filters, args.unsafe_fixes, not args.no_cache)
    with Progress.on_terminal(sys.stderr, f"checking {root}"):
        if stdin:
            diagnostics, outcome, fixed = _stdin_diagnostics(args, root, settings, filters, stdin, lines)
        else:
            diagnostics, outcome, fixed = _diagnostics(args, root, settings, filters, lines)
    if args.write_baseline:
        return _write_baseline(args.write_baseline, diagnostics, lines, args.quiet)
    if args.baseline and not args.quiet:
        _print_baseline_outcome(args.baseline, outcome)
    if not _print_report(args, diagnostics, str(root)):
        return 2
    strict = args.strict or settings.strict
    failing = [
        d for d in diagnostics if d.severity is Severity.ERROR or strict and d.severity is Severity.WARNING
    ]
    if args.exit_non_zero_on_fix and fixed:
        return 1
    return 1 if failing and not args.exit_zero else 0


def _selection(settings: Settings, args: argparse.Namespace) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The command line over the configuration, as ruff has it: `--select` replaces the
    configuration's selection, `--extend-select` adds to it, `--ignore` removes."""
    layers = [
        (settings.select, settings.extend_select, settings.ignore),
        (_codes(args.select), _codes(args.extend_select), _codes(args.ignore)),
    ]
    return exactly(layered_selection(layers, CODES), CODES)


def _show_files(root: Path, settings: Settings, paths: tuple[str, ...] | None) -> int:
    from spawnlint.discover import discover
    from spawnlint.focus import in_paths

    for source in discover(root, settings.exclude).files:
        if paths is None or in_paths(source.path, paths):
            print(printable(source.path))
    return 0


def _print_baseline_outcome(path: Path, outcome: BaselineOutcome) -> None:
    print(f"spawnlint: the baseline {path} hid {_plural(outcome.hidden, 'finding')}", file=sys.stderr)
    if not outcome.stale:
        return
    shown = ", ".join(f"{printable(p)} ({code})" for p, code, _ in outcome.stale[:_STALE_SHOWN])
    more = f" and {len(outcome.stale) - _STALE_SHOWN} more" if len(outcome.stale) > _STALE_SHOWN else ""
    print(
        f"spawnlint: {_plural(len(outcome.stale), 'baseline entry', 'baseline entries')} hid nothing"
        f" (fixed, or the line changed): {shown}{more}; refresh it with --write-baseline {path}",
        file=sys.stderr,
    )


_STALE_SHOWN = 10


def _diagnostics(
    args: argparse.Namespace, root: Path, settings: Settings, filters: Filters, lines: SourceLines
) -> tuple[list[Diagnostic], BaselineOutcome, int]:
    """The run's findings, what the baseline did, and how many findings --fix fixed: linted
    afresh for --fix and --verbose (they need the whole model), otherwise from the run memo
    when nothing changed."""
    cache = not args.no_cache
    if not (args.fix or args.verbose):
        from spawnlint.memo import checked

        kept, _ = checked(root, settings, cache, filters.paths)
        return (*narrowed(kept, filters, lines), 0)
    from spawnlint.engine import lint

    fixed, fix_count = _fix(root, settings, filters, args.unsafe_fixes, cache) if args.fix else (None, 0)
    result = fixed or lint(root, settings, use_cache=cache)
    if args.verbose:
        _print_tracebacks(result.project)
    kept = suppressed(result.diagnostics, result.project, filters.severity)
    return (*narrowed(kept, filters, lines), fix_count)


def _warn_of_a_distrusted_cache(use_cache: bool) -> None:
    """Once a run: the cache folder is not used (cache.py refuses it), and why."""
    from spawnlint.cache_folder import cache_dir, distrusted

    why = distrusted() if use_cache else None
    if why:
        folder = printable(str(cache_dir()))
        print(
            f"spawnlint: warning: cache folder {folder} not used: {why}; running without the cache",
            file=sys.stderr,
        )


def _print_report(args: argparse.Namespace, diagnostics: list[Diagnostic], root: str) -> bool:
    """Print (or write to --output-file) the report; False when the file cannot be written."""
    if args.statistics:
        counts = Counter(d.code for d in diagnostics)
        text = "".join(
            f"{count:>5}  {code}  {BY_CODE[code].name}\n" for code, count in sorted(counts.items())
        )
        return _emit(text, args.output_file)
    fmt = args.output_format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "concise")
    text = FORMATS[fmt](diagnostics, root)
    if args.quiet and fmt in ("concise", "full", "github"):
        text = without_summary(text, diagnostics)
    elif fmt in ("concise", "full") and not args.fix:
        text += fixable_hint(diagnostics)
    if fmt in ("concise", "full") and args.output_file is None and _colour(args.color):
        text = colourise(text)
    return _emit(text, args.output_file)


def _emit(text: str, output: Path | None) -> bool:
    if output is None:
        sys.stdout.write(text)
        return True
    try:
        write_atomically(output, text.encode("utf-8"))
    except OSError as exc:
        print(f"spawnlint: --output-file {output}: cannot write it ({exc.strerror or exc})", file=sys.stderr)
        return False
    return True


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


def _fix(
    root: Path, settings: Settings, filters: Filters, unsafe: bool, cache: bool
) -> tuple[Result | None, int]:
    """Fix to a fixed point; the lint of the files as they end up, when the last pass had it,
    and how many findings were fixed."""
    from spawnlint.engine import lint
    from spawnlint.fix import clear_temporary_files, fixed_count, plan, write

    fixed = 0
    files: set[str] = set()
    left: dict[str, str] = {}  # path -> why it was not fixed
    final: Result | None = None
    for number in range(_FIX_PASSES):
        result = lint(root, settings, use_cache=cache)
        if number == 0 and (cleared := clear_temporary_files(root, result.project)):
            print(
                f"spawnlint: removed {_plural(cleared, 'temporary file')} of an interrupted --fix",
                file=sys.stderr,
            )
        found = apply(result.diagnostics, result.project, filters, SourceLines(root))
        changes = [c for c in plan(root, found, result.project, unsafe) if c.path not in left]
        if not changes:
            final = result  # nothing left to write: this lint is the files' state
            break
        left.update((c.path, why) for c in changes if (why := write(root, c)) is not None)
        written = [c for c in changes if c.path not in left]
        fixed += fixed_count(written)
        files.update(c.path for c in written)
        if not written:
            break
    for path, why in sorted(left.items()):
        print(f"spawnlint: {printable(path)}: not fixed: {why}", file=sys.stderr)
    print(f"fixed {_plural(fixed, 'finding')} in {_plural(len(files), 'file')}", file=sys.stderr)
    return final, fixed


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


def _plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def _print_tracebacks(project: Project) -> None:
    for problem in project.problems:
        if problem.code == "SL000" and problem.detail:
            report = f"spawnlint: SL000 in {printable(problem.finding.path)}:\n{problem.detail}"
            print(log_text(escape_controls(report, keep="\n")), file=sys.stderr)


def _report_paths(raw: list[str], root: Path, exclude: tuple[str, ...]) -> tuple[str, ...] | None | int:
    """The PATHS as project paths; 2 when one does not exist (a typo in CI must not pass). A path
    outside the project or excluded by the configuration is said on stderr and left out."""
    if not raw:
        return None
    out = []
    for item in raw:
        given = Path(item)
        if not given.exists() and not given.is_symlink():
            print(f"spawnlint: {printable(item)}: no such file or directory", file=sys.stderr)
            return 2
        full = given.resolve() if given.is_absolute() else (Path.cwd() / item).resolve()
        try:
            rel = full.relative_to(root).as_posix()
        except ValueError:
            print(
                f"spawnlint: {printable(item)}: outside the project {printable(str(root))}; not checked",
                file=sys.stderr,
            )
            continue
        rel = "" if rel == "." else rel
        pattern = _excluded_by(rel, exclude)
        if pattern is not None:
            print(
                f'spawnlint: {printable(item)}: excluded by the configuration ("{printable(pattern)}");'
                " not checked",
                file=sys.stderr,
            )
            continue
        out.append(rel)
    return tuple(out)


def _excluded_by(path: str, exclude: tuple[str, ...]) -> str | None:
    """The configured `exclude` pattern that takes the path out of the project, as discovery reads it."""
    return excluded_by(path, exclude)


def _rule(code: str | None, every: bool = False) -> int:
    from spawnlint.pages import page_for

    if every:
        pages = [page_for(r.code) or f"# {r.code} {r.name}\n\n{r.summary}.\n" for r in RULES]
        sys.stdout.write("\n---\n\n".join(pages))
        return 0
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


def _add_editor_options(verbs: Verbs) -> None:
    check = verbs.choices["check"]
    check.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with `-` as the path: lint standard input as this file of the project (the rest from disk)",
    )
    _verb(
        verbs,
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
) -> tuple[list[Diagnostic], BaselineOutcome, int]:
    """The findings touching the buffer's file, the project read from disk around it (and what
    the baseline did; nothing is fixed)."""
    from spawnlint.buffers import lint_buffers
    from spawnlint.focus import wanted

    result = lint_buffers(root, settings, stdin, not args.no_cache, wanted(tuple(stdin)))
    for path, data in stdin.items():  # baseline fingerprints read the buffer's lines, not the disk's
        text = data.decode("utf-8-sig", "replace")
        lines.cache[path] = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if args.verbose:
        _print_tracebacks(result.project)
    kept = suppressed(result.diagnostics, result.project, filters.severity)
    return (*narrowed(kept, filters, lines), 0)
