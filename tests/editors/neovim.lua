-- Drives Neovim headless as a user would: with init.lua (docs/editors.md), open a file, read the
-- diagnostics seedlint sends, apply the preferred code action, and read the diagnostics again.
-- Writes what it saw to $RESULT.
local result = os.getenv("RESULT")
local wait = tonumber(os.getenv("WAIT_MS"))
local lines = {}
local function say(line) table.insert(lines, line) end
local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?")
  end
  table.sort(found)
  return table.concat(found, ",")
end

dofile(os.getenv("DRIVERS") .. "/init.lua")
vim.cmd("filetype on")
vim.cmd("edit train.py")
vim.wait(wait, function() return #vim.lsp.get_active_clients() > 0 end, 50)
local client = vim.lsp.get_active_clients()[1].id
vim.wait(wait, function() return #vim.diagnostic.get(0) > 0 end, 50)
say("before: " .. codes())

vim.api.nvim_win_set_cursor(0, { 3, 0 })
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = {} }
local responses = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 20000) or {}
local applied = false
for _, response in pairs(responses) do
  for _, action in ipairs(response.result or {}) do
    if action.isPreferred and not applied then
      vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      applied = true
      say("applied: " .. action.title)
    end
  end
end
vim.wait(wait, function() return #vim.diagnostic.get(0) == 0 end, 50)
say("after: " .. codes())
say("text: " .. table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\\n"))
vim.fn.writefile(lines, result)
vim.lsp.stop_client(client)
vim.wait(5000, function() return vim.lsp.client_is_stopped(client) end, 50)
vim.cmd("qa!")
