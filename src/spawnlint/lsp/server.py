"""The protocol side of `spawnlint lsp` (pygls): documents in, diagnostics, code actions and
hover out. Each project root has a ProjectState; a change is linted after a short pause in
typing, and only the files whose findings changed are published again."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from spawnlint import __version__
from spawnlint.config import CONFIG_FILES
from spawnlint.discover import find_root
from spawnlint.lsp.convert import (
    Texts,
    code_actions,
    config_diagnostic,
    diagnostic,
    hover_text,
    spawn_at,
    uri_of,
)
from spawnlint.lsp.state import ProjectState

# A pause in typing this long starts a lint; a lint of 1,000 files takes ~50 ms (bench/lsp.py).
DEBOUNCE_SECONDS = 0.05
WATCHED = ("**/*.md", "**/*.py", "**/*.json", "**/pyproject.toml", "**/.spawnlint.toml")

log = logging.getLogger(__name__)


class SpawnlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "spawnlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental
        )
        self.states: dict[Path, ProjectState] = {}
        self.folders: list[Path] = []
        self.debounce = DEBOUNCE_SECONDS
        self.pending: dict[Path, tuple[asyncio.TimerHandle, tuple[str, ...], bool]] = {}
        self.config_shown: set[Path] = set()  # roots whose config error is published

    # projects -------------------------------------------------------------------------------

    def root_for(self, path: Path) -> Path:
        """The project a file belongs to: its git work tree when that lies inside the workspace
        folder holding the file, else that folder; outside every folder, its git work tree."""
        git = find_root(path.parent)
        holding = [f for f in self.folders if _under(path, f)]
        if not holding:
            return git
        folder = max(holding, key=lambda f: len(f.parts))
        return git if _under(git, folder) and (git / ".git").exists() else folder

    def state_for(self, root: Path) -> ProjectState:
        if root not in self.states:
            self.states[root] = ProjectState(root)
        return self.states[root]

    def document(self, uri: str) -> tuple[ProjectState, str] | None:
        fs = to_fs_path(uri)
        if fs is None:
            return None
        path = Path(fs).resolve()
        state = self.state_for(self.root_for(path))
        rel = state.relative(path)
        return (state, rel) if rel is not None else None

    # linting --------------------------------------------------------------------------------

    def lint_now(self, state: ProjectState, always: tuple[str, ...] = (), typing: bool = False) -> None:
        """Lint the project and publish the files whose findings changed (and `always`)."""
        pending = self.pending.pop(state.root, None)
        if pending is not None:
            pending[0].cancel()
        try:
            changed = state.lint(typing)
        except Exception as exc:  # noqa: BLE001 - a fault of ours must not take the editor's server down
            log.exception("lint failed")
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"spawnlint: lint failed: {exc!r}")
            )
            return
        self._publish_config(state)
        self.publish(state, changed | set(always))

    def lint_later(self, state: ProjectState, always: tuple[str, ...] = (), typing: bool = False) -> None:
        """Lint after a pause; an event in the meantime joins this one (it stays a keystroke's
        lint only while nothing but typing happened)."""
        pending = self.pending.pop(state.root, None)
        if pending is not None:
            pending[0].cancel()
            always = tuple(sorted({*pending[1], *always}))
            typing = typing and pending[2]
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.debounce, self.lint_now, state, always, typing)
        self.pending[state.root] = (handle, always, typing)

    def publish(self, state: ProjectState, paths: set[str]) -> None:
        texts = Texts(state.text)
        codec = self.workspace.position_codec
        for path in sorted(paths):
            uri = uri_of(state.root, path)
            found = state.findings.get(path, ())
            doc = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    diagnostics=[diagnostic(d, state.root, texts, codec) for d in found],
                    version=doc.version if doc is not None else None,
                )
            )

    def _publish_config(self, state: ProjectState) -> None:
        error = state.config_error
        if error is None and state.root not in self.config_shown:
            return
        for name in CONFIG_FILES:
            if error is not None and name != error[0]:
                continue
            diagnostics = [config_diagnostic(error[1])] if error is not None else []
            uri = uri_of(state.root, name)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics))
        if error is None:
            self.config_shown.discard(state.root)
        else:
            self.config_shown.add(state.root)

    def clear(self, state: ProjectState) -> None:
        """Take back every diagnostic published for the project (its folder was removed)."""
        gone = set(state.findings)
        state.findings = {}
        self.publish(state, gone)
        state.config_error = None
        self._publish_config(state)


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _folder_path(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs else None


def build_server() -> SpawnlintServer:
    server = SpawnlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: SpawnlintServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), (int, float)):
            ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)
        folders = [_folder_path(f.uri) for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [_folder_path(params.root_uri)]
        ls.folders = [f for f in folders if f is not None]

    @server.feature(types.INITIALIZED)
    def initialized(ls: SpawnlintServer, params: types.InitializedParams) -> None:
        if ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files:
            watched = ls.client_capabilities.workspace.did_change_watched_files
            if watched.dynamic_registration:
                ls.client_register_capability(_watchers())
        for folder in ls.folders:
            ls.lint_now(ls.state_for(folder))

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: SpawnlintServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        for removed in params.event.removed:
            path = _folder_path(removed.uri)
            if path in ls.folders:
                ls.folders.remove(path)
            state = ls.states.pop(path, None) if path is not None else None
            if state is not None:
                ls.clear(state)
        for added in params.event.added:
            path = _folder_path(added.uri)
            if path is not None and path not in ls.folders:
                ls.folders.append(path)
                ls.lint_now(ls.state_for(path))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SpawnlintServer, params: types.DidOpenTextDocumentParams) -> None:
        found = ls.document(params.text_document.uri)
        if found is None:
            return
        state, rel = found
        state.buffers[rel] = params.text_document.text
        ls.lint_now(state, (rel,))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SpawnlintServer, params: types.DidChangeTextDocumentParams) -> None:
        found = ls.document(params.text_document.uri)
        if found is None:
            return
        state, rel = found
        state.buffers[rel] = ls.workspace.get_text_document(params.text_document.uri).source
        if rel in CONFIG_FILES:  # the configuration as the editor holds it
            state.reload_settings()
            ls.lint_later(state, (rel,))
            return
        ls.lint_later(state, (rel,), typing=True)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SpawnlintServer, params: types.DidSaveTextDocumentParams) -> None:
        found = ls.document(params.text_document.uri)
        if found is None:
            return
        state, rel = found
        if rel in CONFIG_FILES:
            state.reload_settings()
        ls.lint_now(state, (rel,))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SpawnlintServer, params: types.DidCloseTextDocumentParams) -> None:
        found = ls.document(params.text_document.uri)
        if found is None:
            return
        state, rel = found
        if state.buffers.pop(rel, None) is not None:
            if rel in CONFIG_FILES:
                state.reload_settings()
            ls.lint_later(state)  # the file as the disk holds it again

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: SpawnlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        touched: dict[Path, ProjectState] = {}
        for change in params.changes:
            found = ls.document(change.uri)
            if found is None:
                continue
            state, rel = found
            if rel in CONFIG_FILES:
                state.reload_settings()
            touched[state.root] = state
        for state in touched.values():
            ls.lint_later(state)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: SpawnlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        found = ls.document(params.text_document.uri)
        only = params.context.only
        if found is None or (only and not any(types.CodeActionKind.QuickFix.startswith(k) for k in only)):
            return []
        state, rel = found
        first, last = params.range.start.line + 1, params.range.end.line + 1
        wanted = [d for d in state.findings.get(rel, ()) if first <= d.line <= last]
        project = state.result.project if state.result is not None else None
        codec, callables = ls.workspace.position_codec, state.settings.spawn_callables
        return code_actions(wanted, project, state.root, Texts(state.text), codec, callables)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SpawnlintServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.document(params.text_document.uri)
        if found is None:
            return None
        state, rel = found
        if state.result is None:
            return None
        spawn = spawn_at(state.result.project, rel, params.position.line + 1)
        if spawn is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, hover_text(spawn)))

    return server


def _watchers() -> types.RegistrationParams:
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
    )
    registration = types.Registration(
        id="spawnlint-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    return types.RegistrationParams(registrations=[registration])


def serve() -> int:
    """Run the server on standard input and output until the client says exit."""
    import spawnlint.parse.python  # noqa: F401 - libcst, imported once: the forked Python parsers share it

    # The protocol gets its own handles on the two streams. A forked parser child closes
    # sys.stdin as it starts (multiprocessing does), and would wait forever for the lock that
    # the thread reading the protocol holds on it; and a stray print must not corrupt the stream.
    protocol_in = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdin = open(os.devnull)  # noqa: SIM115 - stands in for the process's life
    sys.stdout = sys.stderr
    build_server().start_io(protocol_in, protocol_out)
    return 0
