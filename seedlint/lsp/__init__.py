"""The language server (`seedlint lsp`): needs the `lsp` extra (pygls)."""
