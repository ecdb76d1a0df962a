"""`spawnlint lsp` driven through the protocol over stdio by pygls's own client, as an editor
drives it: initialize, didOpen, publishDiagnostics, didChange, codeAction, hover, configuration
and workspace-folder changes, shutdown, exit."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from conftest import write_project
from test_lsp_override import COMMAND, MUTE, REPORTS

T = TypeVar("T")
# A guard against a hung server, not a timing assertion: a lint here takes milliseconds.
WAIT = 20.0


class Editor:
    """A client that records what the server publishes, per document."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("test-editor", "1")
        self.published: dict[str, list[types.Diagnostic]] = {}
        self.arrived = asyncio.Condition()
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def publish(params: types.PublishDiagnosticsParams) -> None:
            async with self.arrived:
                self.published[params.uri] = list(params.diagnostics)
                self.arrived.notify_all()

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

    def uri(self, path: str) -> str:
        return (self.root / path).as_uri()

    async def until(
        self, path: str, check: Callable[[list[types.Diagnostic]], bool]
    ) -> list[types.Diagnostic]:
        """Wait until the diagnostics published for `path` pass `check`; they are returned."""
        uri = self.uri(path)

        async def wait() -> list[types.Diagnostic]:
            async with self.arrived:
                await self.arrived.wait_for(lambda: uri in self.published and check(self.published[uri]))
                return self.published[uri]

        return await asyncio.wait_for(wait(), WAIT)

    def open(self, path: str, text: str) -> None:
        self.versions[path] = 1
        item = types.TextDocumentItem(self.uri(path), "markdown", 1, text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))

    def change(self, path: str, text: str) -> None:
        self.versions[path] += 1
        doc = types.VersionedTextDocumentIdentifier(self.versions[path], self.uri(path))
        whole = types.TextDocumentContentChangeWholeDocument(text=text)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(doc, [whole]))

    async def actions(self, path: str, line: int) -> list[types.CodeAction]:
        here = types.Range(types.Position(line, 0), types.Position(line, 0))
        context = types.CodeActionContext(diagnostics=self.published.get(self.uri(path), []))
        params = types.CodeActionParams(types.TextDocumentIdentifier(self.uri(path)), here, context)
        found = await _timed(self.client.text_document_code_action_async(params))
        return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def _timed(call: Awaitable[T]) -> T:
    return await asyncio.wait_for(call, WAIT)


@asynccontextmanager
async def editor(root: Path, folders: list[Path] | None = None) -> AsyncIterator[Editor]:
    ed = Editor(root)
    await ed.client.start_io(sys.executable, "-m", "spawnlint", "lsp")
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            workspace_folders=True,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        )
    )
    params = types.InitializeParams(
        capabilities=capabilities,
        workspace_folders=[types.WorkspaceFolder(f.as_uri(), f.name) for f in folders or [root]],
        initialization_options={"debounceMs": 20},
    )
    result = await _timed(ed.client.initialize_async(params))
    assert result.capabilities.code_action_provider
    assert result.capabilities.hover_provider
    ed.client.initialized(types.InitializedParams())
    try:
        yield ed
    finally:
        await _timed(ed.client.shutdown_async(None))
        ed.client.exit(None)
        await _timed(ed.client.stop())
    assert ed.client._server is not None and ed.client._server.returncode == 0


def _plugin(root: Path) -> Path:
    return write_project(
        root,
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "commands/review.md": COMMAND,
            "agents/critic.md": MUTE,
            "hooks/run.py": "print('hello')\n",
        },
    )


def _codes(found: list[types.Diagnostic]) -> list[object]:
    return [d.code for d in found]


def test_diagnostics_follow_the_unsaved_agent_to_the_command_that_spawns_it(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")

    async def session() -> None:
        async with editor(root) as ed:
            # the whole project is linted when the folder opens: the command's finding is there
            found = await ed.until("commands/review.md", lambda ds: _codes(ds) == ["SL101"])
            sl101 = found[0]
            assert sl101.severity == types.DiagnosticSeverity.Error
            assert sl101.source == "spawnlint"
            assert sl101.range.start == types.Position(7, 36)  # line 8, column 37 of the CLI
            assert sl101.code_description is not None
            href = sl101.code_description.href
            assert href.startswith("file://") and href.endswith("SL101-named-spawn-mute-agent.md")
            assert Path(href.removeprefix("file://")).is_file()
            related = sl101.related_information or []
            assert [(r.location.uri, r.location.range.start.line) for r in related] == [
                (ed.uri("agents/critic.md"), 3)
            ]

            # editing the agent (unsaved) updates the command: SendMessage granted, SL101 gone
            ed.open("agents/critic.md", MUTE)
            await ed.until("agents/critic.md", lambda ds: ds == [])
            ed.change("agents/critic.md", REPORTS)
            found = await ed.until("commands/review.md", lambda ds: _codes(ds) == ["SL102"])
            assert (root / "agents/critic.md").read_text() == MUTE  # nothing was written

            # code actions: the fix `--fix` makes (SL102's is unsafe: the prompt may rely on the
            # name) and an inline suppression
            actions = await ed.actions("commands/review.md", found[0].range.start.line)
            titles = [a.title for a in actions]
            assert "Fix SL102 (named-spawn-no-report) (unsafe)" in titles
            assert "Suppress SL102 here (inline comment)" in titles
            fix = next(a for a in actions if a.title.startswith("Fix SL102"))
            assert fix.is_preferred is False and fix.kind == types.CodeActionKind.QuickFix
            assert fix.edit is not None and fix.edit.changes is not None
            edits = fix.edit.changes[ed.uri("commands/review.md")]
            line = COMMAND.splitlines()[7]
            fixed = _apply(line, [e for e in edits if e.range.start.line == 7])
            assert fixed == 'Agent(subagent_type: "shop:critic", prompt: "Review the plan.")'
            suppress = next(a for a in actions if a.title.startswith("Suppress"))
            assert suppress.edit is not None and suppress.edit.changes is not None
            (insert,) = suppress.edit.changes[ed.uri("commands/review.md")]
            assert insert.new_text == "<!-- spawnlint: ignore[SL102] -->\n"
            assert insert.range.start == types.Position(6, 0)  # above the fence: it covers it whole

            # hover on the spawn: the agent, its tools, whether it can report
            params = types.HoverParams(
                types.TextDocumentIdentifier(ed.uri("commands/review.md")), types.Position(7, 5)
            )
            hover = await _timed(ed.client.text_document_hover_async(params))
            assert hover is not None and isinstance(hover.contents, types.MarkupContent)
            text = hover.contents.value
            assert "`shop:critic` in `agents/critic.md`" in text
            assert "tools: Read, Grep, SendMessage" in text
            assert "can report: it has SendMessage, but **nothing tells it to**" in text  # SL102

            # the unsaved change is taken back: the finding on the command is back too
            ed.change("agents/critic.md", MUTE)
            found = await ed.until("commands/review.md", lambda ds: _codes(ds) == ["SL101"])
            params = types.HoverParams(
                types.TextDocumentIdentifier(ed.uri("commands/review.md")), types.Position(7, 5)
            )
            hover = await _timed(ed.client.text_document_hover_async(params))
            assert hover is not None and isinstance(hover.contents, types.MarkupContent)
            assert "can report: **no**, its tools (Read, Grep) lack SendMessage" in hover.contents.value

            # a Python file's unsaved spawn is parsed too (in a forked child, as on the command line)
            ed.open("hooks/run.py", "print('hello')\n")
            await ed.until("hooks/run.py", lambda ds: ds == [])
            ed.change("hooks/run.py", 'Agent(subagent_type="shop:nobody", prompt="go")\n')
            found = await ed.until("hooks/run.py", lambda ds: _codes(ds) == ["SL301"])
            assert found[0].severity == types.DiagnosticSeverity.Error  # in the project's own namespace

    asyncio.run(session())


def _apply(line: str, edits: list[types.TextEdit]) -> str:
    for e in sorted(edits, key=lambda e: e.range.start.character, reverse=True):
        assert e.range.start.line == e.range.end.line
        line = line[: e.range.start.character] + e.new_text + line[e.range.end.character :]
    return line


def test_configuration_reload_and_workspace_folders(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "p")
    other = _plugin(tmp_path / "q")

    async def session() -> None:
        async with editor(root) as ed:
            await ed.until("commands/review.md", lambda ds: _codes(ds) == ["SL101"])

            # a configuration that ignores SL101, saved on disk: the finding goes
            (root / ".spawnlint.toml").write_text('ignore = ["SL101"]\n')
            change = types.FileEvent(ed.uri(".spawnlint.toml"), types.FileChangeType.Created)
            ed.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([change]))
            await ed.until("commands/review.md", lambda ds: ds == [])

            # a configuration that cannot be used is shown on its file
            (root / ".spawnlint.toml").write_text('ignore = ["SL999"]\n')
            change = types.FileEvent(ed.uri(".spawnlint.toml"), types.FileChangeType.Changed)
            ed.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([change]))
            (error,) = await ed.until(".spawnlint.toml", lambda ds: len(ds) == 1)
            assert "SL999" in error.message and error.severity == types.DiagnosticSeverity.Error

            # fixed again: the error goes and the findings come back
            (root / ".spawnlint.toml").unlink()
            change = types.FileEvent(ed.uri(".spawnlint.toml"), types.FileChangeType.Deleted)
            ed.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([change]))
            await ed.until(".spawnlint.toml", lambda ds: ds == [])
            await ed.until("commands/review.md", lambda ds: _codes(ds) == ["SL101"])

            # a second workspace folder is linted when added, and cleared when removed
            q = Editor(other)
            added = types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(other.as_uri(), "q")], removed=[]
            )
            ed.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(added))
            uri = q.uri("commands/review.md")
            await _published(ed, uri, lambda ds: _codes(ds) == ["SL101"])
            removed = types.WorkspaceFoldersChangeEvent(
                added=[], removed=[types.WorkspaceFolder(other.as_uri(), "q")]
            )
            ed.client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(removed))
            await _published(ed, uri, lambda ds: ds == [])

    asyncio.run(session())


async def _published(ed: Editor, uri: str, check: Callable[[list[types.Diagnostic]], bool]) -> None:
    async def wait() -> None:
        async with ed.arrived:
            await ed.arrived.wait_for(lambda: uri in ed.published and check(ed.published[uri]))

    await asyncio.wait_for(wait(), WAIT)
