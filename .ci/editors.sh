#!/usr/bin/env bash
# The editor clients, as CI checks them (called by .ci/run; runnable alone
# from anywhere in the checkout):
#   1. the headless Neovim end-to-end test against $GPUOPT_BIN;
#   2. the VS Code extension: npm ci, then the platform-specific .vsix for
#      this machine ($OUTDIR/gpuopt-linux-x64.vsix) with $GPUOPT_BIN inside,
#      checked to hold the binary (executable) and the one bundled
#      extension.js (vscode-languageclient inside, no node_modules).
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
case "$(uname -m)" in
  x86_64) target=linux-x64 ;;
  aarch64 | arm64) target=linux-arm64 ;;
  *) echo "editors: no VS Code target for $(uname -m)" >&2; exit 1 ;;
esac
(
  cd editors/vscode
  rm -rf out
  npm ci --no-audit --no-fund
  ./package.sh "$target" "$GPUOPT_BIN" "$OUTDIR/gpuopt-$target.vsix"
)
vsix="$OUTDIR/gpuopt-$target.vsix"
[ -s "$vsix" ] || { echo "editors: $vsix was not produced" >&2; exit 1; }
python3 - "$vsix" "$GPUOPT_BIN" "$target" <<'PY'
import os, sys, zipfile
vsix, binary, target = sys.argv[1:]
z = zipfile.ZipFile(vsix)
info = {i.filename: i for i in z.infolist()}
problems = []
for name in ["extension/out/extension.js", "extension/package.json", "extension/bin/gpuopt"]:
    if name not in info:
        problems.append("lacks " + name)
if not problems:
    b = info["extension/bin/gpuopt"]
    if b.file_size != os.path.getsize(binary) or z.read(b) != open(binary, "rb").read():
        problems.append("extension/bin/gpuopt is not " + binary)
    if (b.external_attr >> 16) & 0o111 != 0o111:
        problems.append("extension/bin/gpuopt is not executable: %o" % (b.external_attr >> 16))
    js = z.read("extension/out/extension.js").decode()
    # vscode-languageclient is bundled in: its protocol method names are in the one file.
    if "textDocument/didOpen" not in js or "require(\"vscode-languageclient" in js:
        problems.append("extension.js does not bundle vscode-languageclient")
    if 'TargetPlatform="%s"' % target not in z.read("extension.vsixmanifest").decode():
        problems.append("the manifest does not target " + target)
stray = [n for n in info if "node_modules/" in n or n.endswith(".ts")]
if stray:
    problems.append("ships %d files it should not, e.g. %s" % (len(stray), stray[0]))
if len(info) > 12:
    problems.append("%d files: the bundle should keep it to a handful" % len(info))
if problems:
    sys.exit("editors: %s: %s" % (vsix, "; ".join(problems)))
print("editors: %s: %d files, the binary (mode %o) and the bundled extension.js" % (vsix, len(info), info["extension/bin/gpuopt"].external_attr >> 16))
PY
echo "== editors: ok"
