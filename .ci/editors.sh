#!/usr/bin/env bash
# The editor clients, as CI checks them (called by .ci/run; runnable alone
# from anywhere in the checkout):
#   1. the headless Neovim end-to-end test against $GPUOPT_BIN;
#   2. the VS Code extension: npm ci, compile, package to $OUTDIR/gpuopt.vsix,
#      and check the .vsix holds extension/out/extension.js.
#
#   GPUOPT_BIN=/path/to/gpuopt OUTDIR=/tmp/out .ci/editors.sh
#
# GPUOPT_BIN defaults to ./gpuopt (built with `go build` if it is missing);
# OUTDIR defaults to a fresh temporary directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

GPUOPT_BIN="${GPUOPT_BIN:-./gpuopt}"
case "$GPUOPT_BIN" in /*) ;; *) GPUOPT_BIN="$root/$GPUOPT_BIN" ;; esac
if [ ! -x "$GPUOPT_BIN" ]; then
  echo "== editors: building $GPUOPT_BIN"
  go build -o "$GPUOPT_BIN" ./cmd/gpuopt
fi
OUTDIR="${OUTDIR:-$(mktemp -d)}"
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# --- Neovim ------------------------------------------------------------------
if ! command -v nvim >/dev/null 2>&1; then
  echo "== editors: installing neovim"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim
fi
echo "== editors: neovim end-to-end test ($GPUOPT_BIN)"
GPUOPT_BIN="$GPUOPT_BIN" editors/nvim/test/run.sh

# --- VS Code -----------------------------------------------------------------
echo "== editors: vscode extension"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "editors: $tool is required to build the VS Code extension (Node.js >= 20)" >&2
    exit 1
  fi
done
node -e 'const m = +process.versions.node.split(".")[0]; if (m < 20) { console.error("editors: Node.js >= 20 needed, have " + process.versions.node); process.exit(1); }'
(
  cd editors/vscode
  rm -rf out
  npm ci --no-audit --no-fund
  npm run compile
  npx --no-install vsce package --no-update-package-json -o "$OUTDIR/gpuopt.vsix"
)
vsix="$OUTDIR/gpuopt.vsix"
[ -s "$vsix" ] || { echo "editors: $vsix was not produced" >&2; exit 1; }
python3 - "$vsix" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = [
    "extension/out/extension.js",
    "extension/package.json",
    "extension/node_modules/vscode-languageclient/package.json",
]
missing = [n for n in need if n not in names]
if missing:
    sys.exit("editors: the .vsix lacks " + ", ".join(missing))
print("editors: %s: %d files, extension.js and vscode-languageclient present" % (sys.argv[1], len(names)))
PY
echo "== editors: ok"
