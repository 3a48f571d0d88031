-- gpuopt for Neovim: starts `gpuopt lsp` (the gpuopt language server, over
-- stdio) for Python buffers with Neovim's built-in LSP client.
--
--   require("gpuopt").setup{
--     cmd = { "gpuopt", "lsp" },
--     init_options = { select = {}, ignore = {}, unsafeFixes = false, targetGpu = "" },
--   }
--
-- Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client from a
-- FileType autocommand, one client per root directory) and uses vim.lsp.start
-- on 0.8 and later.
local M = {}

local defaults = {
  name = "gpuopt",
  cmd = { "gpuopt", "lsp" },
  filetypes = { "python" },
  -- The first directory, walking up from the buffer's file, that holds one of
  -- these is the workspace root; otherwise the file's own directory.
  root_markers = { "pyproject.toml", ".git" },
  -- Sent as initializationOptions: { select, ignore, unsafeFixes, targetGpu }.
  init_options = {},
  -- Optional; when set, sent as workspace/didChangeConfiguration
  -- { settings = { gpuopt = settings } } right after initialization and
  -- served to workspace/configuration requests.
  settings = nil,
  -- Anything else vim.lsp.start_client accepts: on_attach, capabilities,
  -- handlers, on_exit, flags, ...
}

M.config = vim.deepcopy(defaults)

-- root_dir -> client id (Neovim 0.7 path; vim.lsp.start does its own reuse).
local clients_by_root = {}

local uv = vim.uv or vim.loop

-- Client methods became colon methods in 0.11 (dot calls are deprecated there).
local colon_methods = vim.fn.has("nvim-0.11") == 1
local function call(client, method, ...)
  if colon_methods then
    return client[method](client, ...)
  end
  return client[method](...)
end

local function get_clients(filter)
  if vim.lsp.get_clients ~= nil then -- 0.10+
    return vim.lsp.get_clients(filter)
  end
  local out = {}
  local all = filter.bufnr and vim.lsp.buf_get_clients(filter.bufnr) or vim.lsp.get_active_clients()
  for _, client in pairs(all) do
    if filter.name == nil or client.name == filter.name then
      table.insert(out, client)
    end
  end
  return out
end

local function is_dir(p)
  local st = uv.fs_stat(p)
  return st ~= nil and st.type == "directory"
end

local function exists(p)
  return uv.fs_stat(p) ~= nil
end

local function parent(dir)
  local p = vim.fn.fnamemodify(dir, ":h")
  if p == dir then
    return nil
  end
  return p
end

--- The workspace root for a file: the nearest ancestor directory holding one
--- of the root markers, else the file's directory (else the cwd).
function M.find_root(fname, markers)
  markers = markers or M.config.root_markers
  if fname == nil or fname == "" then
    return vim.fn.getcwd()
  end
  local dir = vim.fn.fnamemodify(fname, ":p:h")
  local start = dir
  while dir do
    for _, m in ipairs(markers) do
      if exists(dir .. "/" .. m) then
        return dir
      end
    end
    dir = parent(dir)
  end
  if is_dir(start) then
    return start
  end
  return vim.fn.getcwd()
end

local function live_client(id)
  if id == nil then
    return nil
  end
  local client = vim.lsp.get_client_by_id(id)
  if client == nil or call(client, "is_stopped") then
    return nil
  end
  return client
end

--- The client config for a root directory (a fresh table every time).
local function client_config(root)
  local cfg = vim.deepcopy(M.config)
  local settings = cfg.settings
  cfg.filetypes, cfg.root_markers = nil, nil
  cfg.root_dir = root
  cfg.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  if settings ~= nil then
    cfg.settings = { gpuopt = settings }
  else
    cfg.settings = nil
  end
  -- init_options must be an object on the wire, never an empty array.
  if cfg.init_options == nil or vim.tbl_isempty(cfg.init_options) then
    cfg.init_options = vim.empty_dict()
  end
  local user_on_exit = cfg.on_exit
  cfg.on_exit = function(code, signal, client_id)
    for r, id in pairs(clients_by_root) do
      if id == client_id then
        clients_by_root[r] = nil
      end
    end
    if user_on_exit then
      user_on_exit(code, signal, client_id)
    end
  end
  return cfg
end

M._call = call

--- Starts (or reuses) the client for the buffer's root and attaches it.
--- Returns the client id, or nil when the buffer is not a file buffer or the
--- server could not be started.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local exe = M.config.cmd and M.config.cmd[1]
  if exe == nil or vim.fn.executable(exe) ~= 1 then
    vim.notify_once(
      string.format("gpuopt: %q is not executable; set cmd in require('gpuopt').setup{}", tostring(exe)),
      vim.log.levels.ERROR
    )
    return nil
  end
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr))

  if vim.lsp.start ~= nil then -- Neovim 0.8+
    local id = vim.lsp.start(client_config(root), { bufnr = bufnr })
    if id then
      clients_by_root[root] = id
    end
    return id
  end

  local id = clients_by_root[root]
  if live_client(id) == nil then
    id = vim.lsp.start_client(client_config(root))
    if id == nil then
      return nil
    end
    clients_by_root[root] = id
  end
  if not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- The id of the client started for a root directory (it may still be
--- initializing), or nil.
function M.client_id_for_root(root)
  return clients_by_root[root]
end

--- The live gpuopt clients.
function M.clients()
  return get_clients({ name = M.config.name })
end

--- The gpuopt client attached to a buffer, if any.
function M.client_for_buf(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return get_clients({ name = M.config.name, bufnr = bufnr })[1]
end

--- Changes settings at run time: sends workspace/didChangeConfiguration
--- { settings = { gpuopt = settings } } to every gpuopt client, and uses them
--- for clients started later.
function M.update_settings(settings)
  M.config.settings = vim.tbl_extend("force", M.config.settings or {}, settings)
  M.config.init_options = vim.tbl_extend("force", M.config.init_options or {}, settings)
  for _, client in ipairs(M.clients()) do
    client.config.settings = { gpuopt = M.config.settings }
    call(client, "notify", "workspace/didChangeConfiguration", { settings = { gpuopt = M.config.settings } })
  end
end

local function execute(bufnr, command, arguments, on_result)
  local client = M.client_for_buf(bufnr)
  if client == nil then
    vim.notify("gpuopt: no gpuopt client attached to this buffer", vim.log.levels.WARN)
    return
  end
  call(client, "request", "workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    if err then
      vim.notify("gpuopt: " .. command .. ": " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    if on_result then
      on_result(result)
    end
  end, bufnr)
end

--- Runs the server's `gpuopt.fixAll` on a buffer; the server applies the
--- edit through workspace/applyEdit.
function M.fix_all(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  execute(bufnr, "gpuopt.fixAll", { vim.uri_from_bufnr(bufnr) })
end

--- Shows the server's hardware profile (`gpuopt.showHardware`) in a scratch
--- buffer.
function M.show_hardware(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  execute(bufnr, "gpuopt.showHardware", {}, function(result)
    local text
    if type(result) == "string" then
      text = result
    elseif type(result) == "table" and type(result.value) == "string" then
      text = result.value -- MarkupContent
    else
      text = vim.inspect(result)
    end
    vim.cmd("new")
    local buf = vim.api.nvim_get_current_buf()
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "wipe"
    vim.bo[buf].swapfile = false
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, "\n", { plain = true }))
    vim.bo[buf].filetype = "markdown"
    vim.bo[buf].modifiable = false
    pcall(vim.api.nvim_buf_set_name, buf, "gpuopt://hardware")
  end)
end

--- Stops every gpuopt client and attaches fresh ones to the open buffers.
function M.restart()
  local bufs = {}
  for _, client in ipairs(M.clients()) do
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.lsp.buf_is_attached(b, client.id) then
        table.insert(bufs, b)
      end
    end
    call(client, "stop")
  end
  clients_by_root = {}
  vim.defer_fn(function()
    for _, b in ipairs(bufs) do
      M.attach(b)
    end
  end, 500)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  -- Lists are replaced, not merged.
  for _, k in ipairs({ "cmd", "filetypes", "root_markers" }) do
    if opts and opts[k] then
      M.config[k] = opts[k]
    end
  end

  local group = vim.api.nvim_create_augroup("gpuopt", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = "gpuopt: start/attach the language server",
  })

  vim.api.nvim_create_user_command("GpuoptFixAll", function()
    M.fix_all(0)
  end, { desc = "gpuopt: fix all in file" })
  vim.api.nvim_create_user_command("GpuoptShowHardware", function()
    M.show_hardware(0)
  end, { desc = "gpuopt: show hardware profile" })
  vim.api.nvim_create_user_command("GpuoptRestart", function()
    M.restart()
  end, { desc = "gpuopt: restart the language server" })

  -- Buffers already open when setup runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
end

return M
