"""The parse cache: per-file parse results keyed on a hash of the file's bytes, its path and kind,
the spawnlint version and the settings that affect parsing; one pack, in shards, per project root."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import hashlib
import io
import pickle
import time
import types
import typing
import zlib
from collections import defaultdict
from collections.abc import Callable, Collection, Container, Iterator, Mapping
from pathlib import Path, PosixPath, WindowsPath
from typing import Any

from spawnlint import cache_folder, discover, model
from spawnlint.atomic import write_atomically
from spawnlint.cache_folder import cache_dir, code_version, distrusted, own_file, pack_name
from spawnlint.config import Settings
from spawnlint.discover import Discovery, Listing, SourceFile
from spawnlint.model import FileKind, ParsedFile

_FORMAT = 3  # bump when the pack layout changes

# (path, (size, mtime_ns, ctime_ns, inode), kind) of a file read before -> the key of its bytes
StatKey = tuple[str, tuple[int, ...], str]


def load_records(path: Path) -> object:
    """What a cache file holds, unpickled with spawnlint's model classes only; None when it is
    missing, unreadable or not trusted."""
    if distrusted(path.parent):
        return None
    with _long_lived():
        try:
            with open(path, "rb") as handle:
                return _ModelOnly(handle).load() if own_file(handle.fileno()) else None
        except Exception:  # noqa: BLE001 - a corrupt file can raise anything from unpickling; it is a miss
            return None


def load_keyed(path: Path, key: str) -> object:
    """What store_keyed wrote under `key`; None when the file is missing, unreadable, not trusted
    or written under another key (its records are then not unpickled at all)."""
    if distrusted(path.parent):
        return None
    with _long_lived():
        try:
            with open(path, "rb") as handle:
                if not own_file(handle.fileno()):
                    return None
                unpickler = _ModelOnly(handle)
                return unpickler.load() if unpickler.load() == key else None
        except Exception:  # noqa: BLE001 - a corrupt file can raise anything from unpickling; it is a miss
            return None


@contextlib.contextmanager
def _long_lived() -> Iterator[None]:
    """Records loaded live as long as the run: the cyclic collector neither runs while they are
    made (tens of thousands of objects, no garbage) nor walks them after (gc.freeze; refcounting
    still frees them). That was a tenth of a warm run."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.freeze()
            gc.enable()


def settings_fingerprint(settings: Settings) -> bytes:
    """The settings a per-file parse depends on; any other setting leaves the cache valid."""
    affecting = (settings.spawn_callables, settings.max_file_bytes, settings.no_name_rule.pattern is not None)
    return repr(affecting).encode()


class ParseCache:
    """Loaded once per run, written once at its end. The pack is kept in shards by path, those of
    agent and Python files (which can define agents, so every run reads them) apart from the
    rest: a run that changed one file rewrites the one shard holding it, and a run that needs
    few files (see focus.py) loads few shards. Each shard is written to a temporary file, then
    renamed over the old one: concurrent runs never see a torn shard, the last writer of each
    wins (shards of different runs hold the same content-keyed entries, so any mix of them is
    valid). An unreadable or corrupt shard, or an entry of the wrong shape, counts as a miss."""

    def __init__(self, salt: bytes, shards: dict[str, _Shard], present: Container[str] | None = None) -> None:
        self._salt = salt
        self._shards = shards
        # a run that looks at some files only: the records of the others still present stay
        self._partial = present is not None
        self._present: Container[str] = present if present is not None else ()
        self._entries: dict[str, object] = {}  # every shard's, merged: one look-up a file
        self._stats: dict[StatKey, object] = {}
        for shard in shards.values():
            self._entries.update(shard.entries)
            self._stats.update(shard.stats)
        self._used: dict[str, ParsedFile] = {}  # the entries this run read or made
        self._true: dict[StatKey, str] = {}  # the stat records that still hold
        self._looked_at: set[str] = set()  # the paths whose records this run checked
        self._fresh: dict[str, _Shard] = defaultdict(_Shard)  # what this run adds, by shard
        self._now_ns = time.time_ns()

    @classmethod
    def open(
        cls,
        root: Path,
        settings: Settings,
        folder: Path | None = None,
        only: Collection[SourceFile] | None = None,
        present: Container[str] = (),
    ) -> ParseCache:
        """The project's cache; with `only`, just the shards that can hold those files' records
        (the run must look at no other file), keeping the records of the other files that are
        still `present`."""
        folder = folder or cache_dir()
        name = pack_name(root)
        salt = b"\0".join((str(_FORMAT).encode(), code_version().encode(), settings_fingerprint(settings)))
        shards = [f"{group}{n:02d}" for group in _GROUPS for n in range(_SHARDS)]
        if only is not None:
            shards = sorted({_shard_of(s.path, s.kind) for s in only})
        packs = {shard: folder / f"{name}-{shard}.pack" for shard in shards}
        loaded = {shard: _Shard(pack, *_load(pack, salt)) for shard, pack in packs.items()}
        return cls(salt, loaded, present if only is not None else None)

    def key(self, source: SourceFile, data: bytes) -> str:
        digest = hashlib.blake2b(self._salt, digest_size=20)
        digest.update(
            b"\0" + source.path.encode("utf-8", "surrogateescape") + b"\0" + source.kind.value.encode()
        )
        digest.update(b"\0" + data)
        return digest.hexdigest()

    def get(self, key: str, path: str) -> ParsedFile | None:
        if key in self._used:
            return self._used[key]
        entry = self._entries.get(key)
        if not isinstance(entry, ParsedFile) or entry.path != path or not well_formed(entry, ParsedFile):
            return None
        self._used[key] = entry
        return entry

    def by_stat(self, source: SourceFile, identity: tuple[int, ...]) -> ParsedFile | None:
        """The entry of a file that has not changed since a run read and hashed it: same size,
        modification and change times and inode (the change time cannot be set back by hand),
        as `identity` starts. The key is still the hash of the bytes; this only spares reading
        them again."""
        if self._partial:
            self._looked_at.add(source.path)
        stat_key = (source.path, identity[:4], source.kind._value_)  # not .value: a property
        key = self._stats.get(stat_key)
        if not isinstance(key, str):
            return None
        hit = self.get(key, source.path)
        if hit is not None:
            self._true[stat_key] = key
        return hit

    def remember(self, source: SourceFile, identity: tuple[int, ...], key: str) -> None:
        """Remember the key of bytes read after `identity` was taken, unless the file changed too
        recently for its times to tell a later change apart."""
        if self._now_ns - max(identity[1], identity[2]) > cache_folder.RACY_NS:
            stat_key = (source.path, identity[:4], source.kind._value_)
            self._true[stat_key] = key
            self._fresh[_shard_of(source.path, source.kind)].stats[stat_key] = key

    def put(self, key: str, parsed: ParsedFile) -> None:
        self._used[key] = parsed
        self._fresh[_shard_of(parsed.path, parsed.kind)].entries[key] = parsed

    def save(self) -> None:
        """Write the shards that changed in this run: an entry or a stat record added, or one of
        theirs no longer used (stale entries are dropped; those of present files a partial run
        did not look at are kept)."""
        for name, shard in self._shards.items():
            entries = {k: self._used.get(k, e) for k, e in shard.entries.items() if self._keeps(k, e)}
            stats = {k: v for k, v in shard.stats.items() if k in self._true or self._unseen(k)}
            fresh = self._fresh.get(name)
            if fresh is None and len(entries) == len(shard.entries) and len(stats) == len(shard.stats):
                continue
            if fresh is not None:
                entries.update(fresh.entries)
                stats.update(fresh.stats)
            store_records(shard.pack, (self._salt, entries, stats))

    def _keeps(self, key: str, entry: object) -> bool:
        if key in self._used:
            return True
        return (
            self._partial
            and isinstance(entry, ParsedFile)
            and entry.path not in self._looked_at
            and entry.path in self._present
        )

    def _unseen(self, stat_key: object) -> bool:
        """A well-formed stat record of a present file a partial run did not look at."""
        return (
            self._partial
            and isinstance(stat_key, tuple)
            and len(stat_key) == 3
            and stat_key[0] not in self._looked_at
            and stat_key[0] in self._present
        )


# A changed file costs rewriting 1/16 of its group; a project of few files writes few shards.
_SHARDS = 16
# "a": agent and Python files, which can define agents (every run reads them); "b": the others
_GROUPS = ("a", "b")


def _shard_of(path: str, kind: FileKind) -> str:
    group = "a" if kind is FileKind.AGENT or kind is FileKind.PYTHON else "b"
    return f"{group}{zlib.crc32(path.encode('utf-8', 'surrogateescape')) % _SHARDS:02d}"


class _Shard:
    """The records of the files whose paths hash to one shard."""

    def __init__(
        self,
        pack: Path = Path(),
        entries: dict[str, object] | None = None,
        stats: dict[StatKey, object] | None = None,
    ) -> None:
        self.pack = pack
        self.entries: dict[str, object] = {} if entries is None else entries
        self.stats: dict[StatKey, object] = {} if stats is None else stats


class _ModelOnly(pickle.Unpickler):
    """Unpickles the parse records and nothing else. A pack is data, but pickle can name any
    callable; someone who can write the cache folder (a CI cache restored from a pull request)
    must not be able to run code through it, so only spawnlint's model classes resolve."""

    def find_class(self, module: str, name: str) -> Any:
        found = _RECORD_CLASSES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a cache record")
        return found


_RECORD_CLASSES: dict[tuple[str, str], type] = {
    **{
        (model.__name__, name): value
        for name, value in vars(model).items()
        if isinstance(value, type) and value.__module__ == model.__name__
    },
    **{
        (discover.__name__, c.__name__): c for c in (discover.Plugin, discover.SourceFile, discover.Discovery)
    },
    ("builtins", "frozenset"): frozenset,
    ("builtins", "set"): set,
    ("pathlib", "PosixPath"): PosixPath,
    ("pathlib", "WindowsPath"): WindowsPath,
}


def well_formed(value: object, hint: Any) -> bool:
    """Whether an unpickled record has the shape its type hints say, all the way down: a valid
    pickle of spawnlint's own classes can still hold a list field set to `1`, and that must be a
    miss, not a TypeError in a rule on every later run."""
    return _checker(hint)(value)


_Check = Callable[[object], bool]


@functools.cache
def _checker(hint: Any) -> _Check:
    """A test for values of `hint` (the annotations of the record classes: dataclasses, unions,
    tuples, frozensets, mappings, enums and the builtin scalars), built once per hint."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return lambda v: True
    if hint is None or hint is type(None):
        return lambda v: v is None
    if origin is typing.Union or origin is types.UnionType:
        others = tuple(a for a in args if a is not type(None))
        inner = _checker(others[0]) if len(others) == 1 else _any_of(tuple(map(_checker, others)))
        return (lambda v: v is None or inner(v)) if len(others) < len(args) else inner
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _all_items(tuple, _checker(args[0]))
        return _each_item(tuple(_checker(a) for a in args))
    if origin in (frozenset, set, list):
        return _all_items(origin, _checker(args[0]))
    if origin in (dict, Mapping):
        return _mapping(_checker(args[0]), _checker(args[1]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _record(hint)
    if hint in _SCALARS:
        return lambda v: type(v) is hint
    if isinstance(hint, type):
        return lambda v: isinstance(v, hint)
    raise TypeError(f"no shape test for {hint!r}")  # a record class grew a kind of field


_SCALARS = (int, bool, str)  # exactly these: a bool is no line number, a str subclass no path


def _any_of(checks: tuple[_Check, ...]) -> _Check:
    return lambda v: any(check(v) for check in checks)


def _all_items(kind: type, check: _Check) -> _Check:
    return lambda v: type(v) is kind and (not v or all(map(check, v)))  # type: ignore[call-overload]


def _each_item(checks: tuple[_Check, ...]) -> _Check:
    def each(v: object) -> bool:
        if type(v) is not tuple or len(v) != len(checks):
            return False
        return all(c(x) for c, x in zip(checks, v, strict=True))

    return each


def _mapping(key: _Check, value: _Check) -> _Check:
    def mapping(v: object) -> bool:
        return isinstance(v, dict) and all(key(k) and value(x) for k, x in v.items())

    return mapping


def _record(cls: type) -> _Check:
    """The test of one record class: its exact type, exactly its fields, each of its shape (the
    scalar ones tested inline: a warm run tests every record it loads)."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    scalars = tuple((n, hints[n]) for n in sorted(names) if hints[n] in _SCALARS)
    others = tuple((n, _checker(hints[n])) for n in sorted(names) if hints[n] not in _SCALARS)

    def record(v: object) -> bool:
        if type(v) is not cls:
            return False
        state = getattr(v, "__dict__", None)
        if state is None or state.keys() != names:
            return False
        for name, kind in scalars:
            if type(state[name]) is not kind:
                return False
        return all(check(state[name]) for name, check in others)

    return record


def store_records(path: Path, records: object) -> None:
    """Pickle `records` to `path` atomically (a temporary file, then a rename: concurrent runs
    never see a torn file, the last writer wins); a read-only or full cache folder costs speed,
    never the run."""
    _store(path, pickle.dumps(records, protocol=pickle.HIGHEST_PROTOCOL))


def store_keyed(path: Path, key: str, records: object) -> None:
    """As store_records, with `key` pickled first: load_keyed reads no further when it differs.
    One pickler writes both, so the reader's one unpickler shares its memo."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dump(key)
    pickler.dump(records)
    _store(path, buffer.getvalue())


def _store(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if distrusted(path.parent):
            return
        write_atomically(path, data, mode=0o600)
    except OSError:
        return


def discovered(
    root: Path, exclude: tuple[str, ...], listing: Listing | None = None, use_cache: bool = True
) -> Discovery:
    """The project's discovery, remembered while its inputs stay the same."""
    listing = listing or discover.list_files(root)
    key = discovery_key(root, exclude, listing) if use_cache else None
    last = _LAST_DISCOVERY.get(key) if key is not None else None
    if last is not None:
        return last  # asked again in this process (the run memo, then the run)
    found = remembered_discovery(root, key) if key is not None else None
    if found is None:
        found = discover.discover(root, exclude, listing)
        if key is not None:
            remember_discovery(root, key, found)
    if key is not None:
        _LAST_DISCOVERY.clear()
        _LAST_DISCOVERY[key] = found
    return found


_LAST_DISCOVERY: dict[str, Discovery] = {}  # the last discovery read or made here, by its key


def discovery_key(root: Path, exclude: tuple[str, ...], listing: Listing) -> str | None:
    """What discovery depends on: the paths, the listing's own problems, `exclude`, and the
    manifests it reads (plugin.json, marketplace.json) — never the other files' contents. None
    when a manifest changed too recently for its times to be trusted."""
    horizon = time.time_ns() - cache_folder.RACY_NS
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{_FORMAT}\0{code_version()}\0{root}\0{exclude!r}\0{listing.problems!r}".encode())
    digest.update("\0".join(listing.paths).encode("utf-8", "surrogateescape"))  # no path holds a NUL
    digest.update(repr(listing.folder_links).encode("utf-8", "surrogateescape"))
    for path, identity in zip(listing.paths, listing.identities, strict=True):
        if path.endswith(("plugin.json", "marketplace.json")):
            if max(identity[1:3]) > horizon:
                return None
            digest.update(f"\0{path}\0{identity!r}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def remembered_discovery(root: Path, key: str) -> Discovery | None:
    stored = load_keyed(cache_dir() / f"{pack_name(root)}.discovery", key)
    return stored if isinstance(stored, Discovery) and well_formed(stored, Discovery) else None


def remember_discovery(root: Path, key: str, found: Discovery) -> None:
    store_keyed(cache_dir() / f"{pack_name(root)}.discovery", key, found)


_Pack = tuple[dict[str, object], dict[StatKey, object]]


def _load(pack: Path, salt: bytes) -> _Pack:
    """The pack's entries and stat records (each checked where it is used: a record of the wrong
    shape never matches a look-up, an entry of the wrong type or path is a miss)."""
    stored = load_records(pack)
    if (
        not isinstance(stored, tuple)
        or len(stored) != 3
        or stored[0] != salt
        or not isinstance(stored[1], dict)
        or not isinstance(stored[2], dict)
    ):
        return {}, {}
    return stored[1], stored[2]
