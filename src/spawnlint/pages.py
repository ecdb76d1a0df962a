"""The rule pages of `rules/`: shipped in the wheel as `spawnlint/rule_pages`, read from the
source tree in an editable install."""

from __future__ import annotations

from pathlib import Path

from spawnlint.rules import BY_CODE


def pages_dir() -> Path | None:
    packaged = Path(__file__).parent / "rule_pages"
    if packaged.is_dir():
        return packaged
    source = Path(__file__).resolve().parents[2] / "rules"
    return source if source.is_dir() else None


def page_for(code: str) -> str | None:
    rule = BY_CODE.get(code)
    folder = pages_dir()
    if rule is None or folder is None:
        return None
    path = folder / f"{rule.code}-{rule.name}.md"
    return path.read_text("utf-8") if path.is_file() else None
