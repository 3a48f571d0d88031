-- End-to-end test of gpuopt's language server in a real, headless Neovim
-- (0.7 or later), through editors/nvim's require("gpuopt").setup{}:
--
--   GPUOPT_BIN=./gpuopt nvim --headless -u NONE -i NONE -c "luafile editors/nvim/test/lsp_test.lua"
--
-- (editors/nvim/test/run.sh does exactly that, with a timeout.)
--
-- It opens a Python file with `tree_method="gpu_hist"`, waits for gpuopt's
-- XGB002 diagnostic, asks for code actions on it, applies the quick fix's
-- WorkspaceEdit, checks the buffer text, then shuts the server down and
-- checks it exits with status 0. Exits 0 (:qa!) on success, 1 (:cquit 1) on
-- failure, with the reason on stderr.

local EXPECT_CODE = "XGB002"
local SOURCE = {
  "import xgboost as xgb",
  'params = {"tree_method": "gpu_hist", "max_depth": 6}',
}
local EXPECT_LINE = 'params = {"tree_method": "hist", "device": "cuda", "max_depth": 6}'
local DIAG_TIMEOUT_MS = tonumber(os.getenv("GPUOPT_NVIM_TIMEOUT_MS") or "") or 10000

local function say(msg)
  io.stderr:write("nvim-test: " .. msg .. "\n")
end

-- Client method calls go through the module's helper (dot or colon calls
-- depending on the Neovim version).
local function call(client, method, ...)
  return require("gpuopt")._call(client, method, ...)
end

local state = {
  client_id = nil,
  exit_code = nil, -- set by on_exit
  exit_signal = nil,
  raw = {}, -- bufnr -> the last publishDiagnostics params gpuopt sent for it
  tmpdir = nil,
}

local function lsp_log_tail()
  local ok, path = pcall(vim.lsp.get_log_path)
  if not ok or path == nil or vim.fn.filereadable(path) ~= 1 then
    return
  end
  local lines = vim.fn.readfile(path)
  if #lines == 0 then
    return
  end
  local from = math.max(1, #lines - 40)
  say("last lines of " .. path .. ":")
  for i = from, #lines do
    io.stderr:write("  " .. lines[i] .. "\n")
  end
end

local function cleanup()
  if state.client_id then
    local client = vim.lsp.get_client_by_id(state.client_id)
    if client then
      pcall(call, client, "stop", true)
    end
  end
  if state.tmpdir then
    vim.fn.delete(state.tmpdir, "rf")
  end
end

local function fail(msg)
  error({ test_failure = msg }, 0)
end

local function check(cond, msg)
  if not cond then
    fail(msg)
  end
end

local function code_of(d)
  if d.code == nil then
    return nil
  end
  return tostring(d.code)
end

local function run()
  -- Paths: the binary, and editors/nvim (two levels above this file).
  local bin = os.getenv("GPUOPT_BIN")
  if bin == nil or bin == "" then
    bin = "./gpuopt"
  end
  bin = vim.fn.fnamemodify(bin, ":p")
  check(vim.fn.executable(bin) == 1, "GPUOPT_BIN is not an executable file: " .. bin)

  local this = debug.getinfo(1, "S").source:gsub("^@", "")
  local plugin_dir = vim.fn.fnamemodify(this, ":p:h:h")
  check(
    vim.fn.filereadable(plugin_dir .. "/lua/gpuopt/init.lua") == 1,
    "cannot find lua/gpuopt/init.lua under " .. plugin_dir
  )
  vim.opt.runtimepath:prepend(plugin_dir)
  local v = vim.version()
  say(string.format("nvim %d.%d.%d, server %s, plugin %s", v.major, v.minor, v.patch, bin, plugin_dir))

  if os.getenv("GPUOPT_NVIM_LOG") then
    pcall(vim.lsp.set_log_level, os.getenv("GPUOPT_NVIM_LOG"))
  end

  -- Record the raw publishDiagnostics params (with `data` and ranges exactly
  -- as the server sent them) and hand them on to Neovim's own handler.
  local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
    local from = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
    if err == nil and result and result.uri and from and from.name == "gpuopt" then
      state.raw[vim.uri_to_bufnr(result.uri)] = result
    end
    return default_publish(err, result, ctx, config)
  end

  local gpuopt = require("gpuopt")
  gpuopt.setup({
    cmd = { bin, "lsp" },
    init_options = { unsafeFixes = false },
    on_exit = function(code, signal)
      state.exit_code, state.exit_signal = code, signal
    end,
  })

  -- A project in a temporary directory.
  state.tmpdir = vim.fn.tempname()
  vim.fn.mkdir(state.tmpdir, "p")
  state.tmpdir = vim.fn.resolve(state.tmpdir)
  vim.fn.writefile({ "[project]", 'name = "nvim-test"', 'version = "0"' }, state.tmpdir .. "/pyproject.toml")
  local file = state.tmpdir .. "/train.py"
  vim.fn.writefile(SOURCE, file)

  vim.cmd("filetype on") -- -u NONE leaves filetype detection off
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == "python", "filetype is " .. vim.inspect(vim.bo[bufnr].filetype) .. ", not python")

  -- The FileType autocommand must have started a client for the root.
  local root = gpuopt.find_root(file)
  check(vim.fn.resolve(root) == state.tmpdir, "find_root gave " .. root .. ", want " .. state.tmpdir)
  local id = gpuopt.client_id_for_root(root)
  check(id ~= nil, "the FileType autocommand did not start a gpuopt client")
  state.client_id = id

  -- Initialization: the server answers initialize, the client attaches.
  local client
  local inited = vim.wait(5000, function()
    if state.exit_code ~= nil then
      return true
    end
    client = gpuopt.client_for_buf(bufnr)
    return client ~= nil and client.initialized == true
  end, 20)
  check(state.exit_code == nil, "the server exited during startup with status " .. tostring(state.exit_code))
  check(inited, "the server did not answer initialize within 5 s (or the client did not attach to the buffer)")
  check(client.id == id, "the buffer is attached to client " .. client.id .. ", not to " .. id)
  check(
    vim.fn.resolve(client.config.root_dir or "") == state.tmpdir,
    "root_dir is " .. tostring(client.config.root_dir) .. ", want " .. state.tmpdir
  )
  local caps = client.server_capabilities
  if caps ~= nil then
    check(caps.codeActionProvider, "the server does not advertise codeActionProvider")
  else
    check(client.resolved_capabilities.code_action, "the server does not advertise codeActionProvider")
  end
  say("initialized: " .. client.name .. " id " .. client.id)

  -- Diagnostics for our buffer, from gpuopt, with code XGB002.
  local found = {}
  local ok = vim.wait(DIAG_TIMEOUT_MS, function()
    found = {}
    local params = state.raw[bufnr]
    if params == nil then
      return false
    end
    for _, d in ipairs(params.diagnostics or {}) do
      if code_of(d) == EXPECT_CODE then
        table.insert(found, d)
      end
    end
    return #found > 0
  end, 50)
  if not ok then
    local got = state.raw[bufnr]
    fail(string.format(
      "no %s diagnostic within %d ms; last publishDiagnostics for the buffer: %s",
      EXPECT_CODE, DIAG_TIMEOUT_MS, got and vim.inspect(got.diagnostics) or "none"
    ))
  end
  local diag = found[1]
  say(string.format("diagnostic: %s line %d: %s", EXPECT_CODE, diag.range.start.line + 1, diag.message or ""))
  check(diag.range.start.line == 1, "the XGB002 diagnostic is on line " .. (diag.range.start.line + 1) .. ", want 2")
  check(diag.message and diag.message ~= "", "the diagnostic has no message")

  -- Neovim's diagnostic layer must hold it too (the real user-facing path).
  local shown = false
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local c = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if c ~= nil and tostring(c) == EXPECT_CODE then
      shown = true
    end
  end
  check(shown, "vim.diagnostic.get() has no " .. EXPECT_CODE .. " entry for the buffer")

  -- Code actions for the diagnostic's line.
  local line_text = vim.api.nvim_buf_get_lines(bufnr, 1, 2, false)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = {
      start = { line = diag.range.start.line, character = 0 },
      ["end"] = { line = diag.range.start.line, character = #line_text },
    },
    context = { diagnostics = found },
  }
  local responses, req_err = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 5000)
  check(responses ~= nil, "textDocument/codeAction: no response (" .. tostring(req_err) .. ")")
  local response = responses[client.id]
  check(response ~= nil, "textDocument/codeAction: no response from the gpuopt client")
  check(response.err == nil and response.error == nil,
    "textDocument/codeAction failed: " .. vim.inspect(response.err or response.error))
  local actions = response.result or {}
  check(#actions > 0, "textDocument/codeAction returned no actions")

  local function is_quickfix(a)
    return type(a.kind) == "string" and (a.kind == "quickfix" or a.kind:sub(1, 9) == "quickfix.")
  end
  local function mentions_code(a)
    return type(a.title) == "string" and a.title:find(EXPECT_CODE, 1, true) ~= nil
  end
  local function is_suppression(a)
    local t = (a.title or ""):lower()
    return t:find("disable", 1, true) or t:find("noqa", 1, true) or t:find("suppress", 1, true)
      or t:find("ignore", 1, true)
  end
  local chosen
  -- 1. the preferred quick fix; 2. a quick fix naming XGB002 that is not the
  -- "disable for this line" action.
  for _, a in ipairs(actions) do
    if chosen == nil and is_quickfix(a) and a.isPreferred == true then
      chosen = a
    end
  end
  for _, a in ipairs(actions) do
    if chosen == nil and is_quickfix(a) and mentions_code(a) and not is_suppression(a) then
      chosen = a
    end
  end
  if chosen == nil then
    local titles = {}
    for _, a in ipairs(actions) do
      table.insert(titles, string.format("%q (kind %s, preferred %s)", tostring(a.title), tostring(a.kind), tostring(a.isPreferred)))
    end
    fail("no preferred quickfix (or quickfix naming " .. EXPECT_CODE .. ") among: " .. table.concat(titles, "; "))
  end
  say("code action: " .. tostring(chosen.title))

  -- A server may leave `edit` to codeAction/resolve.
  if chosen.edit == nil then
    local rp = caps and caps.codeActionProvider
    check(type(rp) == "table" and rp.resolveProvider, "the quick fix has no edit and the server cannot resolve it")
    local res = vim.lsp.buf_request_sync(bufnr, "codeAction/resolve", chosen, 5000)
    local r = res and res[client.id]
    check(r and r.result and r.result.edit, "codeAction/resolve gave no edit: " .. vim.inspect(r))
    chosen = r.result
  end
  check(type(chosen.edit) == "table", "the quick fix carries no WorkspaceEdit")

  -- Apply it (0.7 takes (edit, offset_encoding) and warns without the
  -- encoding; 0.6 took (edit) and ignores the extra argument).
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or "utf-16")

  local got = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  check(got[1] == SOURCE[1], "line 1 changed: " .. vim.inspect(got[1]))
  check(got[2] == EXPECT_LINE, string.format("line 2 after the fix:\n  got  %s\n  want %s", tostring(got[2]), EXPECT_LINE))
  check(#got == 2, "the buffer has " .. #got .. " lines after the fix, want 2:\n" .. table.concat(got, "\n"))
  say("fixed: " .. got[2])

  -- The fixed buffer must lose the XGB002 finding once the server sees it.
  local cleared = vim.wait(DIAG_TIMEOUT_MS, function()
    local p = state.raw[bufnr]
    if p == nil then
      return false
    end
    for _, d in ipairs(p.diagnostics or {}) do
      if code_of(d) == EXPECT_CODE then
        return false
      end
    end
    return true
  end, 50)
  check(cleared, EXPECT_CODE .. " is still reported after the fix")

  -- A second Python file under the same root reuses the same client.
  local file2 = state.tmpdir .. "/other.py"
  vim.fn.writefile({ "x = 1" }, file2)
  vim.cmd("edit " .. vim.fn.fnameescape(file2))
  local buf2 = vim.api.nvim_get_current_buf()
  local c2
  vim.wait(2000, function()
    c2 = gpuopt.client_for_buf(buf2)
    return c2 ~= nil
  end, 20)
  check(c2 ~= nil, "no gpuopt client attached to the second Python buffer")
  check(c2.id == client.id, "a second client was started for the same root")
  check(#gpuopt.clients() == 1, #gpuopt.clients() .. " gpuopt clients are running, want 1")

  -- Clean shutdown: shutdown request, exit notification, status 0.
  call(client, "stop")
  local exited = vim.wait(5000, function()
    return state.exit_code ~= nil
  end, 20)
  check(exited, "the server did not exit within 5 s of shutdown/exit")
  check(state.exit_code == 0 and (state.exit_signal == nil or state.exit_signal == 0),
    string.format("the server exited with status %s (signal %s) after shutdown, want 0",
      tostring(state.exit_code), tostring(state.exit_signal)))
  state.client_id = nil
  say("server shut down cleanly")
end

local ok, err = xpcall(run, function(e)
  if type(e) == "table" and e.test_failure then
    return e
  end
  return { test_failure = "Lua error: " .. tostring(e) .. "\n" .. debug.traceback() }
end)
cleanup()
if ok then
  say("PASS")
  vim.cmd("qa!")
else
  say("FAIL: " .. err.test_failure)
  lsp_log_tail()
  vim.cmd("cquit 1")
end
