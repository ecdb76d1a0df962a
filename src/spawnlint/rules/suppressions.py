"""SL900 unused-suppression: a `spawnlint: ignore` comment that silences nothing. It runs in the
filter stage, after the other rules, because only then is it known what each comment silenced."""

from __future__ import annotations

from collections.abc import Iterator, Set

from spawnlint.model import Finding, Project, SuppressionComment


def unused_suppression(project: Project, used: Set[tuple[str, SuppressionComment, str]]) -> Iterator[Finding]:
    """`used` holds (path, comment, code) for every finding a comment silenced."""
    for path, parsed in project.files.items():
        for comment in parsed.suppressions.comments:
            silenced = {code for p, c, code in used if p == path and c == comment}
            what = "ignore-file" if not comment.lines else "ignore"
            if not comment.codes:
                if not silenced:
                    yield Finding(
                        path,
                        comment.line,
                        comment.column,
                        f"`spawnlint: {what}` suppresses nothing here; remove it",
                    )
                continue
            idle = [
                c for c in comment.codes if c != "SL900" and not any(code.startswith(c) for code in silenced)
            ]
            if idle:
                listed = ", ".join(idle)
                yield Finding(
                    path,
                    comment.line,
                    comment.column,
                    f"`spawnlint: {what}[{','.join(comment.codes)}]` suppresses no {listed} finding"
                    f" here; remove {listed} from it",
                )
