"""The language server's re-lint after a keystroke: generate a 1,000-file plugin, start
`spawnlint lsp` over stdio, open a command, an agent and a Python hook, and time each change
(one character typed) until its diagnostics are published, with the debounce set to 0 (the
pause in typing the server waits for comes on top: 50 ms by default; --debounce 50 counts
it). Then type on for a long session and print the server's resident memory as it goes.
Needs the `lsp` extra (pygls).

    python bench/lsp.py                 # 1,000 files, 30 keystrokes a file, 600 in the long session
    python bench/lsp.py --keys 10 --session 200
    python bench/lsp.py --debounce 50       # as an editor sees it, the server's pause included
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate  # noqa: E402


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("bench", "1")
        self.arrived: dict[str, asyncio.Event] = {}
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            event = self.arrived.get(params.uri)
            if event is not None and params.version == self.versions.get(params.uri):
                event.set()

    async def start(self, root: Path, debounce_ms: float) -> None:
        await self.client.start_io(sys.executable, "-m", "spawnlint", "lsp")
        folder = types.WorkspaceFolder(root.as_uri(), root.name)
        params = types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[folder],
            initialization_options={"debounceMs": debounce_ms},
        )
        await self.client.initialize_async(params)
        self.client.initialized(types.InitializedParams())

    async def open(self, path: Path) -> float:
        uri = path.as_uri()
        self.versions[uri], self.texts[uri] = 1, path.read_text("utf-8")
        self.arrived[uri] = asyncio.Event()
        start = time.perf_counter()
        item = types.TextDocumentItem(uri, "markdown", 1, self.texts[uri])
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))
        await asyncio.wait_for(self.arrived[uri].wait(), 120)
        return time.perf_counter() - start

    async def keystroke(self, path: Path, char: str = "x") -> float:
        """Type one character at the end of the document's second line; seconds until published."""
        uri = path.as_uri()
        self.versions[uri] += 1
        self.arrived[uri] = asyncio.Event()
        at = types.Position(1, len(self.texts[uri].split("\n")[1]))
        change = types.TextDocumentContentChangePartial(range=types.Range(at, at), text=char)
        lines = self.texts[uri].split("\n")
        lines[1] += char
        self.texts[uri] = "\n".join(lines)
        doc = types.VersionedTextDocumentIdentifier(self.versions[uri], uri)
        start = time.perf_counter()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(doc, [change]))
        await asyncio.wait_for(self.arrived[uri].wait(), 120)
        return time.perf_counter() - start

    def rss_mib(self) -> float:
        server = self.client._server
        assert server is not None
        status = Path(f"/proc/{server.pid}/status").read_text()
        kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        return kib / 1024

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def _ms(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    median = statistics.median(times)
    return f"median {median * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


async def run(keys: int, session: int, debounce_ms: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "plugin"
        files = generate(root, 1, commands=966, agents=10)
        base = root / "plugins" / "p0"
        print(f"{files} files linted (one plugin: {len(list((base / 'commands').iterdir()))} commands)")
        bench = Bench()
        await bench.start(root, debounce_ms)
        print(f"debounce {debounce_ms:.0f} ms (counted in the times below)")
        targets = [
            ("a spawning command", base / "commands" / "step-3.md"),
            ("an agent (every spawn of it is re-checked)", base / "agents" / "critic-0.md"),
            ("a Python hook", base / "hooks" / "remind.py"),
        ]
        for label, path in targets:
            first = await bench.open(path)
            times = [await bench.keystroke(path) for _ in range(keys)]
            print(f"keystroke in {label}: {_ms(times)} (open: {first * 1000:.0f} ms)")
        path = targets[0][1]
        rss = [bench.rss_mib()]
        for n in range(session):
            await bench.keystroke(path, "y" if n % 2 else "x")
            if (n + 1) % max(1, session // 4) == 0:
                rss.append(bench.rss_mib())
        print(
            f"server memory over {session} more keystrokes: " + " -> ".join(f"{r:.0f}" for r in rss) + " MiB"
        )
        await bench.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keys", type=int, default=30, help="keystrokes timed in each file")
    parser.add_argument("--session", type=int, default=600, help="keystrokes of the long session")
    parser.add_argument("--debounce", type=float, default=0, help="the server's pause before a lint, ms")
    args = parser.parse_args()
    os.environ.setdefault("SPAWNLINT_CACHE_DIR", tempfile.mkdtemp(prefix="spawnlint-bench-lsp-"))
    asyncio.run(run(args.keys, args.session, args.debounce))


if __name__ == "__main__":
    main()
