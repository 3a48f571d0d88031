#!/usr/bin/env bash
# Runs the headless Neovim end-to-end test of gpuopt's language server.
#
#   editors/nvim/test/run.sh [path/to/gpuopt]      # or GPUOPT_BIN=...; default ./gpuopt
#
# Installs nothing: needs `nvim` (0.7 or later) on PATH. Runs from any
# directory; relative binary paths are taken from the caller's directory.
# Env: GPUOPT_NVIM_TIMEOUT_S (whole run, default 60), GPUOPT_NVIM_TIMEOUT_MS
# (wait for diagnostics, default 10000), GPUOPT_NVIM_LOG (LSP log level, e.g.
# debug; the log tail is printed on failure).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:-${GPUOPT_BIN:-./gpuopt}}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac

if ! command -v nvim >/dev/null 2>&1; then
  echo "nvim-test: nvim not found on PATH (Debian: apt-get install neovim)" >&2
  exit 2
fi
echo "nvim-test: $(nvim --version | head -n 1)" >&2
if [ ! -x "$bin" ]; then
  echo "nvim-test: gpuopt binary not found or not executable: $bin" >&2
  exit 2
fi

# Keep Neovim's state, cache and LSP log out of the user's home.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" \
  XDG_STATE_HOME="$scratch/state" XDG_CACHE_HOME="$scratch/cache" TMPDIR="$scratch"
mkdir -p "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME"

export GPUOPT_BIN="$bin"
status=0
timeout --kill-after=5 "${GPUOPT_NVIM_TIMEOUT_S:-60}" \
  nvim --headless -u NONE -i NONE -n -c "luafile ${here// /\\ }/lsp_test.lua" </dev/null || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "nvim-test: FAIL: timed out after ${GPUOPT_NVIM_TIMEOUT_S:-60} s" >&2
  log="$(find "$scratch" -name 'lsp.log' 2>/dev/null | head -n 1)"
  [ -n "$log" ] && tail -n 40 "$log" >&2
fi
exit "$status"
