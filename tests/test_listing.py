"""The file listing of a project without git: every file with the stat that tells a later run it
is unchanged, tool folders skipped, symlinked folders listed but never entered."""

from __future__ import annotations

import os
from pathlib import Path

from spawnlint.discover import list_files


def _tree(root: Path) -> Path:
    for path in ("commands/a.md", "skills/s/SKILL.md", "skills/s/ref/deep.md", "node_modules/x/b.md"):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(f"{path}\n")
    (root / ".venv").symlink_to(root / "skills")  # a link named like a skipped folder: not listed
    (root / "linked").symlink_to(root / "skills" / "s")  # inside: its files are listed where they are
    (root / "mirror.md").symlink_to(root / "commands" / "a.md")
    (root / "__pycache__.md").write_text("a file, not a tool folder\n")
    return root


def test_files_are_listed_sorted_with_their_identity(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    listing = list_files(root)
    assert listing.paths == (
        "__pycache__.md",
        "commands/a.md",
        "mirror.md",
        "skills/s/SKILL.md",
        "skills/s/ref/deep.md",
    )
    assert listing.problems == ()
    own = os.lstat(root / "commands/a.md")
    by_path = _identities(root)
    assert by_path["commands/a.md"] == (
        own.st_size,
        own.st_mtime_ns,
        own.st_ctime_ns,
        own.st_ino,
        own.st_ino,
        own.st_ctime_ns,
    )
    link = os.lstat(root / "mirror.md")
    assert by_path["mirror.md"][:4] == by_path["commands/a.md"][:4]  # what the link holds
    assert by_path["mirror.md"][4:] == (link.st_ino, link.st_ctime_ns)  # and the link itself


def test_a_changed_file_changes_its_identity_alone(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    before = _identities(root)
    (root / "skills/s/ref/deep.md").write_text("longer than it was before\n")
    after = _identities(root)
    assert {p for p in before if before[p] != after[p]} == {"skills/s/ref/deep.md"}


def _identities(root: Path) -> dict[str, tuple[int, ...]]:
    listing = list_files(root)
    return dict(zip(listing.paths, listing.identities, strict=True))
