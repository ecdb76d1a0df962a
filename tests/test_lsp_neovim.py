"""A real editor as the client: Neovim's built-in LSP client, headless, runs `spawnlint lsp` on a
plugin, shows the diagnostics of the command, follows an unsaved edit of the agent it spawns, and
asks for code actions and hover. Skipped where Neovim is not installed (.ci/run installs it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import write_project
from test_lsp_override import COMMAND, MUTE

NVIM = shutil.which("nvim")

SCRIPT = r"""
local out = {}
local root = vim.fn.getenv("PLUGIN_ROOT")
local function uri(rel) return vim.uri_from_fname(root .. "/" .. rel) end
local function codes(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(found, d.code or "") end
  table.sort(found)
  return table.concat(found, ",")
end
local client = vim.lsp.start_client({
  cmd = { vim.fn.getenv("PYTHON"), "-m", "spawnlint", "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "plugin" } },
  init_options = { debounceMs = 20 },
})
vim.cmd("edit " .. root .. "/commands/review.md")
local command = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(command, client)
vim.wait(30000, function() return codes(command) == "SL101" end, 20)
out.command = codes(command)

vim.cmd("edit " .. root .. "/agents/critic.md")
local agent = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(agent, client)
vim.wait(30000, function() return vim.lsp.buf_is_attached(agent, client) end, 20)
vim.api.nvim_buf_set_lines(agent, 3, 4, false, { "tools: Read, Grep, SendMessage" })
vim.wait(30000, function() return codes(command) == "SL102" end, 20)
out.after_edit = codes(command)

local params = {
  textDocument = { uri = uri("commands/review.md") },
  range = { start = { line = 7, character = 0 }, ["end"] = { line = 7, character = 0 } },
  context = { diagnostics = {} },
}
local titles = {}
for _, response in pairs(vim.lsp.buf_request_sync(command, "textDocument/codeAction", params, 10000) or {}) do
  for _, action in ipairs(response.result or {}) do table.insert(titles, action.title) end
end
table.sort(titles)
out.actions = titles

local hover = vim.lsp.buf_request_sync(command, "textDocument/hover",
  { textDocument = { uri = uri("commands/review.md") }, position = { line = 7, character = 3 } }, 10000)
for _, response in pairs(hover or {}) do
  if response.result then out.hover = response.result.contents.value end
end
out.saved = table.concat(vim.fn.readfile(root .. "/agents/critic.md"), "\n")
vim.fn.writefile({ vim.fn.json_encode(out) }, vim.fn.getenv("OUT"))
vim.lsp.stop_client(client)
vim.wait(5000, function() return vim.lsp.client_is_stopped(client) end, 20)
vim.cmd("qa!")
"""


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed")
def test_neovim_shows_the_findings_and_follows_an_unsaved_agent(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "plugin",
        {
            ".claude-plugin/plugin.json": '{"name": "shop"}',
            "commands/review.md": COMMAND,
            "agents/critic.md": MUTE,
        },
    )
    script, out = tmp_path / "test.lua", tmp_path / "out.json"
    script.write_text(SCRIPT)
    env = {"PLUGIN_ROOT": str(root), "PYTHON": sys.executable, "OUT": str(out), "HOME": str(tmp_path)}
    subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=180,  # a guard against a hang, not a timing assertion
        check=False,
    )
    result = json.loads(out.read_text())
    assert result["command"] == "SL101"
    assert result["after_edit"] == "SL102"  # the agent's unsaved edit reached the command
    assert result["actions"] == [
        "Fix SL102 (named-spawn-no-report) (unsafe)",
        "Suppress SL102 here (inline comment)",
        "Suppress SL102 in this file",
    ]
    assert "`shop:critic` in `agents/critic.md`" in result["hover"]
    assert "nothing tells it to" in result["hover"]  # the SL102 the command shows
    assert result["saved"] == MUTE.rstrip("\n")  # the buffer was never written
