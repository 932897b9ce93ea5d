-- Neovim 0.7 (Debian 12's): start seedlint once, attach it to every Python buffer.
local seedlint
vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  callback = function()
    seedlint = seedlint or vim.lsp.start_client({ name = "seedlint", cmd = { "seedlint", "lsp" },
                                                  root_dir = vim.fn.getcwd() })
    vim.lsp.buf_attach_client(0, seedlint)
  end,
})
