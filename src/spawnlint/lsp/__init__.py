"""`spawnlint lsp`: a Language Server Protocol server (pygls) that lints the project as the editor
holds it: unsaved buffers are linted, not the disk (see state.py; server.py speaks the protocol)."""
