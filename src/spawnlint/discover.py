"""Find the project root, the files in scope (honouring .gitignore), the plugins they belong
to, and each file's kind. Reads manifests only; never follows a path out of the project."""

from __future__ import annotations

import json
import os
import posixpath
import re
import stat
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from spawnlint.model import FileKind, Finding, Problem

_NOT_SEARCHED = ("readme", "changelog", "license", "licence", "contributing", "code_of_conduct", "security")
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"})
_MANIFEST_BYTES = 1024 * 1024
_NOT_LOADED_DIRS = frozenset(
    {
        "archive",
        "archived",
        "old",
        "deprecated",
        "backup",
        "backups",
        "docs",
        "doc",
        "examples",
        "example",
        "test",
        "tests",
        "fixtures",
        "vendor",
        "third_party",
    }
)


@dataclass(frozen=True)
class Plugin:
    root: str  # posix path relative to the project root; "" for the project itself
    name: str | None  # None: agents are addressed by bare name (a `.claude/` folder, no manifest)
    # (kind, path): the files or folders its manifest (or marketplace entry) names as "agents",
    # "commands" or "skills", relative to the project root; they add to the default folders
    components: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SourceFile:
    path: str  # posix, relative to the project root
    kind: FileKind
    plugin: Plugin
    unit: str | None  # the command file or skill folder it belongs to


@dataclass(frozen=True)
class Discovery:
    root: Path
    files: tuple[SourceFile, ...]
    plugins: tuple[Plugin, ...]
    problems: tuple[Problem, ...]


def find_root(start: Path) -> Path:
    """The nearest enclosing git work tree, else the directory itself."""
    start = start.resolve()
    directory = start if start.is_dir() else start.parent
    for candidate in (directory, *directory.parents):
        if (candidate / ".git").exists():
            return candidate
    return directory


@dataclass(frozen=True)
class Listing:
    """Every file of the project (git's view when it is a work tree), before any exclusion."""

    paths: tuple[str, ...]
    problems: tuple[Problem, ...]
    # per path: size, mtime and ctime (ns) and inode of what it holds (a link's target), and the
    # link's own inode and ctime: what tells a later run that nothing changed
    identities: tuple[tuple[int, ...], ...] = ()
    # symlinks to folders of the project (link, folder), whose files are listed where they are
    folder_links: tuple[tuple[str, str], ...] = ()


def list_files(root: Path) -> Listing:
    problems: list[Problem] = []
    links: list[tuple[str, str]] = []
    paths, identities = _list_files(root, problems, links)
    return Listing(tuple(paths), tuple(problems), tuple(identities), tuple(links))


def discover(
    root: Path,
    exclude: tuple[str, ...] = (),
    listing: Listing | None = None,
    manifests: Mapping[str, bytes] | None = None,
) -> Discovery:
    """The project's plugins and files. `manifests` gives the bytes of manifests an editor holds
    unsaved (path -> bytes), read in place of the disk's."""
    listing = listing or list_files(root)
    is_excluded = exclusion(exclude)
    problems = [p for p in listing.problems if not is_excluded(p.finding.path)]
    paths = [p for p in listing.paths if not is_excluded(p)] + _linked(listing, is_excluded)
    plugins = _plugins(_Manifests(root, manifests or {}), paths, problems)
    claims = _claims(plugins)
    skill_dirs = _skill_dirs(paths, plugins, claims)
    by_root: dict[str, Plugin] = {}
    for plugin in plugins:
        by_root.setdefault(plugin.root, plugin)
    files = []
    for path in paths:
        claim = _claim_of(path, claims)
        plugin = claim[1] if claim else _plugin_of(path, by_root)
        kind = _kind(path, skill_dirs, plugin, claim[0] if claim else None)
        if kind is None:
            continue
        files.append(SourceFile(path, kind, plugin, _unit_of(path, kind, skill_dirs)))
    return Discovery(root, tuple(files), tuple(plugins), tuple(problems))


def _linked(listing: Listing, is_excluded: Callable[[str], bool]) -> list[str]:
    """The files of a linked folder that are not read where they are, read where the link puts
    them, as Claude Code loads them: `.claude/skills -> ../.agents/skills` (the other harness's
    folder is excluded; its skills are Claude Code's at the link). A folder read where it is adds
    nothing through a link: each file is read once."""
    found: list[str] = []
    for link, folder in listing.folder_links:
        if is_excluded(link):
            continue
        for path in listing.paths:
            if path.startswith(folder + "/") and is_excluded(path):
                alias = link + path[len(folder) :]
                if not is_excluded(alias):
                    found.append(alias)
    return found


def exclusion(patterns: Collection[str]) -> Callable[[str], bool]:
    """The test of a path against `exclude` patterns, as ruff and .gitignore read them: a pattern
    without a slash (`node_modules`, `*.bak`) matches a file or folder name at any depth; one with
    a slash, or starting with one (`/build`, `archive/**`), matches from the project root."""
    names: set[str] = set()
    name_globs: list[str] = []
    anchored: list[str] = []
    for pattern in patterns:
        text = pattern.strip().rstrip("/")
        if not text:
            continue
        if "/" in text:
            anchored.append(text.lstrip("/"))
        elif any(c in text for c in "*?["):
            name_globs.append(text)
        else:
            names.add(text)

    def excluded(path: str) -> bool:
        parts = path.split("/")
        if not names.isdisjoint(parts):
            return True
        if any(fnmatch(part, glob) for glob in name_globs for part in parts):
            return True
        return any(_anchored_match(path, parts, pattern) for pattern in anchored)

    return excluded


def excluded_by(path: str, patterns: Collection[str]) -> str | None:
    """The first of `patterns` that takes `path` out of the project (for saying so), else None."""
    return next((p for p in patterns if path and exclusion((p,))(path)), None)


def _anchored_match(path: str, parts: list[str], pattern: str) -> bool:
    if path == pattern or path.startswith(pattern + "/"):
        return True
    if not any(c in pattern for c in "*?["):
        return False
    return any(fnmatch("/".join(parts[:end]), pattern) for end in range(1, len(parts) + 1))


def _skill_dirs(
    paths: list[str], plugins: list[Plugin], claims: Mapping[str, tuple[str, Plugin]]
) -> frozenset[str]:
    """The folders that are skill units: each holding a SKILL.md under a folder named `skills` (at
    any depth: a plugin's, `.claude/skills/`, a source tree a build copies into a plugin) or under
    a path a manifest names as skills; the root only in a repository that is one skill, with no
    plugin manifest. A SKILL.md beside a plugin's manifest, at the repository's root or at a plugin
    root kept in a `skills/` folder, is for other tools: Claude Code loads that plugin's
    commands, agents and skills/ folder, not one skill that would swallow them."""
    found = set()
    roots = sorted({p.root for p in plugins if p.root not in ("", ".")}, key=len, reverse=True)
    manifest = "/.claude-plugin/plugin.json"
    beside_a_manifest = {p[: -len(manifest)] for p in paths if p.endswith(manifest)}
    named = frozenset(p.root for p in plugins if p.name is not None)
    for path in paths:
        if posixpath.basename(path) != "SKILL.md":
            continue
        folders = path.split("/")[:-1]
        if "agents" in folders:
            continue  # a SKILL.md inside an agents/ tree is an agent written as a folder
        claim = _claim_of(path, claims)
        # beside a plugin's own manifest, for other tools; but a marketplace's source with no
        # manifest of its own, a manifest that names it, or another plugin's skills/ folder keeps it
        folder = posixpath.dirname(path)
        if (
            folder in roots
            and folder in beside_a_manifest
            and (claim is None or claim[0] != "skills")
            and not _a_skill_of(folder, named)
        ):
            continue
        # the folders below the plugin root that holds it: a plugin may itself be called doc/
        root = next((r for r in roots if path.startswith(r + "/")), "")
        inner = folders[len(root.split("/")) if root else 0 : -1]
        if claim is not None and claim[0] == "skills":
            found.add(posixpath.dirname(path))
        elif any("skills" in part and not _NOT_LOADED_DIRS & set(part) for part in (folders[:-1], inner)):
            found.add(posixpath.dirname(path))  # a kept copy is none; `skills/docs/` may be a skill
        elif not folders and not any(p.name for p in plugins):
            found.add("")
    return frozenset(found)


def _a_skill_of(folder: str, named: frozenset[str]) -> bool:
    """Whether a folder sits in the skills/ folder of a plugin, which loads it as one of its
    skills whatever manifest the folder keeps of its own (a vendored skill's copy)."""
    parent = posixpath.dirname(folder)
    return posixpath.basename(parent) == "skills" and posixpath.dirname(parent) in named


def _claims(plugins: list[Plugin]) -> dict[str, tuple[str, Plugin]]:
    """path -> (component kind, plugin) for every path a manifest names."""
    claims: dict[str, tuple[str, Plugin]] = {}
    for plugin in plugins:
        for kind, path in plugin.components:
            claims.setdefault(path, (kind, plugin))
    return claims


def _claim_of(path: str, claims: Mapping[str, tuple[str, Plugin]]) -> tuple[str, Plugin] | None:
    """The innermost manifest-named path holding `path` (or naming it), with its kind and plugin."""
    if not claims:
        return None
    if path in claims:
        return claims[path]
    folder = _innermost(path, claims)
    return claims[folder] if folder else None


def _list_files(
    root: Path, problems: list[Problem], links: list[tuple[str, str]]
) -> tuple[list[str], list[tuple[int, ...]]]:
    listed = _git_files(root, problems)
    if listed is None:
        found = _scan(str(root), problems)
    else:
        found = _lstat_each(str(root), listed, problems)
        found.update(_untracked_special_files(root, found))
    real_root = os.path.realpath(root)
    paths: list[str] = []
    identities: list[tuple[int, ...]] = []
    for path in sorted(found):
        own = found[path]
        if own is None:
            continue  # in git's index, deleted from the work tree
        held: os.stat_result | None = own
        if own.st_mode & _FILE_TYPE == stat.S_IFLNK:
            held = _link_target(root, real_root, path, problems, links)
        if held is None:
            continue
        paths.append(path)
        identities.append(
            (held.st_size, held.st_mtime_ns, held.st_ctime_ns, held.st_ino, own.st_ino, own.st_ctime_ns)
        )
    return paths, identities


_FILE_TYPE = 0o170000  # the S_IFMT bits of st_mode


def _link_target(
    root: Path, real_root: str, path: str, problems: list[Problem], links: list[tuple[str, str]]
) -> os.stat_result | None:
    """What a symlink in the project holds: None (and a problem when it matters) for a broken or
    looping link, one that leaves the project, or one to a folder (its files are listed where
    they are; the link goes to `links` unless the folder holds it)."""
    full = os.path.join(root, path)
    try:
        target = os.path.realpath(full, strict=True)
    except (OSError, RuntimeError):
        problems.append(_unreadable(path, "file is a broken or looping symlink; not read"))
        return None
    if os.path.commonpath([real_root, target]) != real_root:
        what = "folder" if os.path.isdir(full) else "file"
        problems.append(_unreadable(path, f"{what} is a symlink to outside the project; not followed"))
        return None
    if os.path.isdir(target):
        folder = Path(os.path.relpath(target, real_root)).as_posix()
        if folder != "." and not (path + "/").startswith(folder + "/"):
            links.append((path, folder))
        return None
    try:
        return os.stat(full)
    except OSError:
        return None


def _lstat_each(root: str, paths: list[str], problems: list[Problem]) -> dict[str, os.stat_result | None]:
    found: dict[str, os.stat_result | None] = {}
    prefix = os.path.join(root, "")
    denied = {p.finding.path for p in problems}  # git said it could not open them
    for path in paths:
        try:
            found[path] = os.lstat(prefix + path)
        except (FileNotFoundError, NotADirectoryError):
            found[path] = None  # in git's index, deleted from the work tree
        except OSError as exc:
            found[path] = None
            _folder_denied(posixpath.dirname(path), exc, denied, problems)
    return found


def _folder_denied(folder: str, exc: OSError, denied: set[str], problems: list[Problem]) -> None:
    """One SL002 for a folder whose files cannot be reached (no execute permission)."""
    if folder not in denied:
        denied.add(folder)
        why = f"folder cannot be searched ({exc.strerror or exc}); its files are not checked"
        problems.append(_unreadable(folder or ".", why))


_COMPONENT_FOLDERS = frozenset({"agents", "commands"})
# Names of the files spawnlint reads: a FIFO or socket so named is said, never opened.
_READ_SUFFIXES = (".md", ".markdown", ".mdx", ".py", ".json")


def _untracked_special_files(
    root: Path, found: Mapping[str, os.stat_result | None]
) -> dict[str, os.stat_result]:
    """FIFOs, sockets and devices with the names of files spawnlint reads, at the top and in the
    folders under `agents/` or `commands/` that hold files git lists, and not ignored: git lists
    none of them (it tracks only files and links), yet each is a component that cannot be read.
    One scandir a folder, on a few of a tree's folders (135 of 691 on the largest real tree;
    skill folders, hundreds in some trees, are not searched: a run pays for it every time)."""
    listed = {path.rpartition("/")[0] for path in found}
    folders = {f for f in listed if _COMPONENT_FOLDERS & set(f.split("/"))} | {""}
    special: dict[str, os.stat_result] = {}
    for folder in sorted(folders):
        try:
            with os.scandir(os.path.join(root, folder)) as entries:
                for entry in entries:
                    if not entry.name.lower().endswith(_READ_SUFFIXES) or _is_ordinary(entry):
                        continue
                    path = f"{folder}/{entry.name}" if folder else entry.name
                    if path not in found:
                        special[path] = entry.stat(follow_symlinks=False)
        except OSError:
            continue
    for path in _git_ignored(root, list(special)):
        del special[path]
    return special


def _is_ordinary(entry: os.DirEntry[str]) -> bool:
    try:
        return (
            entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False) or entry.is_symlink()
        )
    except OSError:
        return True


def _git_ignored(root: Path, paths: list[str]) -> list[str]:
    if not paths:
        return []
    import subprocess

    try:
        out = subprocess.run(
            ["git", "check-ignore", "--no-index", "-z", "--stdin"],
            cwd=root,
            input="\0".join(paths).encode("utf-8", "surrogateescape"),
            capture_output=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p in paths]


def _git_files(root: Path, problems: list[Problem]) -> list[str] | None:
    if not (root / ".git").exists() and find_root(root) == root.resolve():
        return None
    import subprocess  # here: a project that is no git work tree never starts git

    try:
        done = subprocess.run(
            [
                "git",
                "-c",
                "core.quotepath=off",
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
                "--",
                ".",
            ],
            cwd=root,
            capture_output=True,
            timeout=60,
            check=True,
            env={**os.environ, "LC_ALL": "C"},  # its warnings in English: they are read below
        )
    except (OSError, subprocess.SubprocessError):
        return None
    problems.extend(_unopened_folders(root, done.stderr.decode("utf-8", "surrogateescape")))
    # listed but deleted from the work tree: _list_files drops those (one lstat a file)
    return [p for p in done.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


_UNOPENED = re.compile(r"^warning: could not open directory '(.+)/': (.+)$", re.M)


def _unopened_folders(root: Path, stderr: str) -> list[Problem]:
    """The folders git could not list (no read permission): their untracked files are unknown.
    git names them from the top of the work tree, which may be above `root`."""
    found = _UNOPENED.findall(stderr)
    if not found:
        return []
    import subprocess

    try:
        prefix = (
            subprocess.run(
                ["git", "rev-parse", "--show-prefix"], cwd=root, capture_output=True, timeout=60, check=True
            )
            .stdout.decode("utf-8", "surrogateescape")
            .strip()
        )
    except (OSError, subprocess.SubprocessError):
        prefix = ""
    return [
        _unreadable(folder.removeprefix(prefix), f"folder cannot be read ({why}); its files are not checked")
        for folder, why in found
        if folder.startswith(prefix)
    ]


def _scan(root: str, problems: list[Problem]) -> dict[str, os.stat_result | None]:
    """Every file below `root` with its lstat, skipping tool and VCS folders; a symlinked folder
    is listed, never entered (_list_files says where it points). One lstat a file, done by
    scandir's entries: no path joined or split in Python."""
    found: dict[str, os.stat_result | None] = {}
    folders = [("", root)]
    denied: set[str] = set()
    while folders:
        prefix, folder = folders.pop()
        try:
            with os.scandir(folder) as listed:
                entries = list(listed)
        except OSError as exc:
            why = f"folder cannot be read ({exc.strerror or exc}); its files are not checked"
            problems.append(_unreadable(prefix.rstrip("/") or ".", why))
            continue
        for entry in entries:
            name = entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_folder = False
            if is_folder:
                if name not in _SKIP_DIRS:
                    folders.append((prefix + name + "/", entry.path))
                continue
            if name in _SKIP_DIRS and _is_dir(entry):
                continue  # a link to a folder that is skipped
            try:
                found[prefix + name] = entry.stat(follow_symlinks=False)
            except OSError as exc:
                _folder_denied(prefix.rstrip("/"), exc, denied, problems)
    return found


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _unreadable(path: str, why: str, line: int = 1) -> Problem:
    return Problem("SL002", Finding(path, line, 1, why))


def _kind(
    path: str, skill_dirs: Collection[str], plugin: Plugin, claimed: str | None = None
) -> FileKind | None:
    base = posixpath.basename(path)
    stem = base.lower()
    if stem.endswith(".py"):
        return FileKind.PYTHON
    if not stem.endswith((".md", ".markdown", ".mdx")):
        return None
    kind = FileKind.MARKDOWN
    skill_dir = _skill_dir_of(path, skill_dirs)
    if skill_dir is not None and not (skill_dir == plugin.root != "" and _plugin_folder(path, plugin)):
        kind = FileKind.SKILL
    elif claimed in _CLAIMED_KINDS:
        kind = _CLAIMED_KINDS[claimed]
    elif _in_plugin_folder(path, plugin, "commands"):
        kind = FileKind.COMMAND
    elif _in_plugin_folder(path, plugin, "agents"):
        kind = FileKind.AGENT
    # A command may be called /changelog and an agent `security`; only README is never one.
    excluded = ("readme",) if kind is not FileKind.MARKDOWN else _NOT_SEARCHED
    if stem.startswith(excluded) and base != "SKILL.md":
        return None
    return kind


_CLAIMED_KINDS = {"commands": FileKind.COMMAND, "agents": FileKind.AGENT}


def _plugin_folder(path: str, plugin: Plugin) -> bool:
    """A plugin whose manifest names its root SKILL.md as a skill still loads its commands/ and
    agents/ folders: those files are commands and agents, not pages of that skill."""
    return _in_plugin_folder(path, plugin, "commands") or _in_plugin_folder(path, plugin, "agents")


def _in_plugin_folder(path: str, plugin: Plugin, folder: str) -> bool:
    """Claude Code loads commands and agents from `<plugin>/commands/` and `<plugin>/agents/`.
    Outside any declared plugin, such a folder anywhere counts, except in archived copies,
    docs, examples and test fixtures."""
    rel = path[len(plugin.root) + 1 :] if plugin.root else path
    parts = rel.split("/")[:-1]
    if parts[:1] == [folder]:
        return True
    return plugin.root == "" and folder in parts and not _NOT_LOADED_DIRS & set(parts)


def _skill_dir_of(path: str, skill_dirs: Collection[str]) -> str | None:
    folder = _innermost(path, skill_dirs)
    if folder == "" and path.startswith(".claude/"):
        return None  # a standalone skill's repository keeps its own .claude/ folder beside it
    return folder


def _unit_of(path: str, kind: FileKind, skill_dirs: Collection[str]) -> str | None:
    if kind is FileKind.SKILL:
        return _skill_dir_of(path, skill_dirs)
    if kind is FileKind.COMMAND:
        return path
    if kind is FileKind.AGENT:
        return path
    return None


def _plugins(root: _Manifests, paths: list[str], problems: list[Problem]) -> list[Plugin]:
    found: dict[str, str | None] = {}
    components: dict[str, list[tuple[str, str]]] = defaultdict(list)
    sharing: list[Plugin] = []
    folders = _folders(paths)
    for path in paths:
        if _in_unloaded_copy(path):
            continue  # a plugin kept in backups/, archive/, examples/ ... is not one Claude Code loads
        if path.endswith(".claude-plugin/plugin.json") or path == ".claude-plugin/plugin.json":
            plugin_root = posixpath.dirname(posixpath.dirname(path))
            manifest = _read_checked(root, path, problems)  # once: its name, and the paths it names
            found[plugin_root] = manifest.name or posixpath.basename(plugin_root) or root.name
            components[plugin_root] += _components(root, path, plugin_root, manifest.data, problems)
        elif posixpath.basename(path) == "plugin.json" and "/.claude-plugin/" not in "/" + path:
            plugin_root = posixpath.dirname(path)
            if plugin_root in found or not _has_plugin_dirs(plugin_root, folders):
                continue
            manifest = _read_checked(root, path, problems)
            if manifest.name:
                found[plugin_root] = manifest.name
                components[plugin_root] += _components(root, path, plugin_root, manifest.data, problems)
    listed = set(paths)
    for path in paths:
        if path.endswith(".claude-plugin/marketplace.json") or path == ".claude-plugin/marketplace.json":
            beside = posixpath.join(posixpath.dirname(path), "plugin.json") in listed
            for plugin_root, name, named in _marketplace_plugins(root, path, problems, beside):
                if named and found.get(plugin_root, name) != name:
                    # another entry with the same source (`./`, strict: false): its own plugin
                    sharing.append(Plugin(plugin_root, name, tuple(dict.fromkeys(named))))
                    continue
                found.setdefault(plugin_root, name)
                components[plugin_root] += named
    if any(p == ".claude" or p.startswith(".claude/") for p in paths):
        found.setdefault(".claude", None)
    plugins = [Plugin(r, n, tuple(dict.fromkeys(components.get(r, ())))) for r, n in sorted(found.items())]
    if "" not in found:
        plugins.insert(0, Plugin("", None))
    return plugins + sharing  # after the first plugin of each root, which holds its other files


@dataclass(frozen=True)
class _Manifest:
    data: Any  # the parsed JSON; None when it could not be read
    name: str | None  # its string `name`, read leniently from invalid JSON too


def _read_checked(root: _Manifests, path: str, problems: list[Problem]) -> _Manifest:
    """A plugin.json read once; what makes Claude Code refuse it is an SL004 problem."""
    data, why = _parse_manifest(root, path)
    if why is not None:
        problems.append(_invalid(path, why[1], why[0]))
        return _Manifest(None, _lenient_name(root, path))
    if not isinstance(data, dict):
        problems.append(_invalid(path, 1, f"is a JSON {_json_type(data)}, not an object"))
        return _Manifest(None, None)
    if "name" not in data:
        problems.append(_invalid(path, 1, "has no `name`, which Claude Code requires"))
    for key, wanted in _PLUGIN_FIELDS.items():
        if key in data and not _has_type(data[key], wanted):
            why_key = f"`{key}` is a JSON {_json_type(data[key])}, it must be {_WANTED[wanted]}"
            problems.append(_invalid(path, _line_of(root, path, key), why_key))
    return _Manifest(data, _name_in(data))


# plugin.json fields whose type Claude Code checks: "string", or "paths" (a path or a list of them)
_PLUGIN_FIELDS = {"name": "string", "version": "string", "description": "string"}
_PLUGIN_FIELDS.update({k: "paths" for k in ("commands", "agents", "skills")})
_WANTED = {
    "name": "a string",
    "string": "a string",
    "paths": "a path or a list of paths",
    "source": "a path or an object",
}
_ENTRY_KEYS = ("name", "source")
_COMPONENT_KEYS = ("agents", "commands", "skills")


def _has_type(value: Any, wanted: str) -> bool:
    if wanted in ("string", "name"):
        return isinstance(value, str)
    if wanted == "source":
        return isinstance(value, (str, dict))
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    names = {dict: "object", list: "array", str: "string", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _parse_manifest(root: _Manifests, path: str) -> tuple[Any, tuple[str, int] | None]:
    """The manifest's JSON, or (why it cannot be read, the line to point at)."""
    data = _read_manifest(root, path)
    if data is None:
        return None, ("cannot be read (not a regular file, unreadable, or over 1 MiB)", 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, (f"is not UTF-8 (invalid byte 0x{data[exc.start]:02x} on line {line})", line)
    try:
        return json.loads(text), None
    except RecursionError:
        return None, ("nests too deeply to be read as JSON", 1)
    except json.JSONDecodeError as exc:
        return None, (f"is not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})", exc.lineno)
    except ValueError as exc:
        return None, (f"is not valid JSON ({exc})", 1)


def _invalid(path: str, line: int, why: str) -> Problem:
    refused = "the marketplace" if path.endswith("marketplace.json") else "the plugin"
    message = f"{posixpath.basename(path)} {why}; Claude Code refuses {refused}: fix the manifest"
    return Problem("SL004", Finding(path, line, 1, message))


_NAME_FIELD = re.compile(r'"name"\s*:\s*"([^"\\]+)"')


def _lenient_name(root: _Manifests, path: str) -> str | None:
    """The first `"name": "..."` of a manifest that is not valid JSON: what its author meant."""
    data = _read_manifest(root, path)
    found = _NAME_FIELD.search(data.decode("utf-8", "replace")) if data else None
    return found.group(1).strip() or None if found else None


def _components(
    root: _Manifests, path: str, plugin_root: str, data: Any, problems: list[Problem]
) -> list[tuple[str, str]]:
    """The (kind, project-relative path) pairs a manifest or entry names as agents, commands or
    skills; a path out of the project is refused and said."""
    _refuse_outside_paths(root, path, plugin_root, data, problems)
    if not isinstance(data, dict):
        return []
    out = []
    for key in _COMPONENT_KEYS:
        value = data.get(key)
        for item in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(item, str) and item.strip() and not _outside(plugin_root, item):
                joined = posixpath.normpath(posixpath.join(plugin_root, item.strip()))
                out.append((key, "" if joined == "." else joined))
    return out


def _in_unloaded_copy(manifest: str) -> bool:
    """Whether a plugin.json sits below a folder of copies, docs or tests (the plugin's own
    folder may have any name: `plugins/docs/` is a plugin called docs)."""
    parts = manifest.split("/")[:-1]
    if parts[-1:] == [".claude-plugin"]:
        parts = parts[:-1]
    return bool(_NOT_LOADED_DIRS & set(parts[:-1]))


def _folders(paths: list[str]) -> set[str]:
    """Every folder that holds a listed file, at any depth (one pass; a test per manifest)."""
    out: set[str] = set()
    for path in paths:
        folder = posixpath.dirname(path)
        while folder and folder not in out:
            out.add(folder)
            folder = posixpath.dirname(folder)
    return out


def _has_plugin_dirs(plugin_root: str, folders: set[str]) -> bool:
    prefix = plugin_root + "/" if plugin_root else ""
    return any(prefix + d in folders for d in ("commands", "agents", "skills"))


MANIFESTS = ("plugin.json", "marketplace.json")  # the files whose bytes decide the plugins


@dataclass(frozen=True)
class _Manifests:
    """Where manifests are read: the project's folder, less what an editor holds unsaved."""

    root: Path
    unsaved: Mapping[str, bytes]

    @property
    def name(self) -> str:
        return self.root.name


def _read_manifest(root: _Manifests, path: str) -> bytes | None:
    """A manifest's bytes; None for anything but a regular file of sane size (a FIFO named
    plugin.json would block the open forever)."""
    if path in root.unsaved:
        data = root.unsaved[path]
        return data if len(data) <= _MANIFEST_BYTES else None
    full = os.path.join(root.root, path)  # not pathlib: a Path a manifest cost 20 ms in 2,500
    try:
        if not stat.S_ISREG(os.stat(full).st_mode):
            return None
        with open(full, "rb") as handle:
            data = handle.read(_MANIFEST_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= _MANIFEST_BYTES else None


def _name_in(data: Any) -> str | None:
    name = data.get("name") if isinstance(data, dict) else None
    return name.strip() if isinstance(name, str) and name.strip() else None


# plugin.json keys whose values are paths (a string or a list of them) relative to the plugin.
_MANIFEST_PATH_KEYS = ("commands", "agents", "skills", "hooks", "outputStyles", "mcpServers", "lspServers")


def _refuse_outside_paths(
    root: _Manifests, path: str, plugin_root: str, data: Any, problems: list[Problem]
) -> None:
    """spawnlint reads no path a manifest (`data`, read from `path`) names, but one that leaves
    the project is said."""
    if not isinstance(data, dict):
        return
    for key in _MANIFEST_PATH_KEYS:
        value = data.get(key)
        for item in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(item, str) and _outside(plugin_root, item):
                why = f"`{key}` path {json.dumps(item)} resolves outside the project; refused, not read"
                problems.append(_unreadable(path, why, _line_of(root, path, item)))


def _outside(base: str, relative: str) -> bool:
    joined = posixpath.normpath(posixpath.join(base, relative))
    return relative.startswith("/") or joined == ".." or joined.startswith("../")


def _marketplace_plugins(
    root: _Manifests, path: str, problems: list[Problem], beside_a_plugin: bool = False
) -> list[tuple[str, str | None, list[tuple[str, str]]]]:
    """(plugin root, name, component paths) of each local plugin a marketplace lists.
    `beside_a_plugin`: a plugin.json shares its `.claude-plugin/` folder."""
    data, why = _parse_manifest(root, path)
    if why is not None:
        problems.append(_invalid(path, why[1], why[0]))
        return []
    if not isinstance(data, dict):
        problems.append(_invalid(path, 1, f"is a JSON {_json_type(data)}, not an object"))
        return []
    if "plugins" not in data and beside_a_plugin and path != ".claude-plugin/marketplace.json":
        return []  # a plugin's listing for some catalogue: Claude Code never reads it as a marketplace
    if not isinstance(data.get("plugins"), list):
        got = f"a JSON {_json_type(data['plugins'])}" if "plugins" in data else "missing"
        wrong = f"`plugins` is {got}, it must be a list of plugin entries"
        problems.append(_invalid(path, _line_of(root, path, "plugins"), wrong))
        return []
    base = posixpath.dirname(posixpath.dirname(path))
    metadata = data.get("metadata")
    plugin_root_dir = metadata.get("pluginRoot") if isinstance(metadata, dict) else None
    found: list[tuple[str, str | None, list[tuple[str, str]]]] = []
    for entry in data["plugins"]:
        if not _entry_is_valid(root, path, entry, problems):
            continue
        source = entry.get("source")
        if isinstance(source, dict):
            source = source.get("path") if source.get("source") in ("local", "path", "directory") else None
        if not isinstance(source, str) or "://" in source or source.startswith(("git@", "github:")):
            continue
        prefix = (
            plugin_root_dir if isinstance(plugin_root_dir, str) and not source.startswith((".", "/")) else ""
        )
        joined = posixpath.normpath(posixpath.join(base, prefix, source))
        if _outside(posixpath.join(base, prefix), source):
            problems.append(
                _unreadable(
                    path,
                    f"plugin source {json.dumps(source)} resolves outside the project; refused, not read",
                    _line_of(root, path, source),
                )
            )
            continue
        plugin_root = "" if joined == "." else joined
        found.append((plugin_root, entry.get("name"), _components(root, path, plugin_root, entry, problems)))
    return found


def _entry_is_valid(root: _Manifests, path: str, entry: Any, problems: list[Problem]) -> bool:
    """A marketplace entry Claude Code can install: an object with a string name, a source (a path
    or an object), and component paths of the right type. Each problem is said at the entry's
    name (where it has one) or at the first line of the wrong key."""
    if not isinstance(entry, dict):
        why = f"lists a JSON {_json_type(entry)} among its plugins, not an object"
        problems.append(_invalid(path, 1, why))
        return False
    named = entry.get("name") if isinstance(entry.get("name"), str) else None
    wrong = [
        (key, "plugin entry has no `{}`, which Claude Code requires")
        for key in _ENTRY_KEYS
        if key not in entry
    ]
    for key, wanted in (*((k, k) for k in _ENTRY_KEYS), *((k, "paths") for k in _COMPONENT_KEYS)):
        if key in entry and not _has_type(entry[key], wanted):
            kind = _json_type(entry[key])
            wrong.append((key, f"plugin entry's `{{}}` is a JSON {kind}, it must be {_WANTED[wanted]}"))
    for key, why in wrong:
        problems.append(_invalid(path, _line_of(root, path, named or key), why.format(key)))
    return not wrong


def _line_of(root: _Manifests, path: str, needle: str) -> int:
    data = _read_manifest(root, path)
    if data is None:
        return 1
    lines = re.split(r"\r\n|\r|\n", data.decode("utf-8-sig", errors="replace"))
    for wanted in (json.dumps(needle), needle):  # the exact JSON string first: "/etc" in "../../etc"
        for number, line in enumerate(lines, start=1):
            if wanted in line:
                return number
    return 1


def _plugin_of(path: str, by_root: Mapping[str, Plugin]) -> Plugin:
    """The innermost plugin holding the file (the one at "" is the project itself)."""
    return by_root[_innermost(path, by_root) or ""]


def _innermost(path: str, folders: Collection[str]) -> str | None:
    """The deepest of `folders` ("" is the top) that holds `path`: one look-up per parent
    folder, so discovery stays linear in the number of files however many plugins there are."""
    end = path.rfind("/")
    while end >= 0:
        if path[:end] in folders:
            return path[:end]
        end = path.rfind("/", 0, end)
    return "" if "" in folders else None
