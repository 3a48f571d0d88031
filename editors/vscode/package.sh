#!/usr/bin/env bash
# Packages the extension into a .vsix (vsce runs `npm run compile` first:
# type-check, then esbuild bundles src/ and vscode-languageclient into one
# out/extension.js). Run `npm ci` here once before.
#
#   editors/vscode/package.sh TARGET BINARY OUT.vsix
#
# TARGET is a vsce platform (linux-x64, linux-arm64, win32-x64, ...): the
# BINARY built for it goes into the .vsix as bin/gpuopt (bin/gpuopt.exe for
# win32-*), which the extension runs unless gpuopt.path is set. TARGET
# "universal" with BINARY "-" packages no binary (gpuopt.path or PATH).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 TARGET BINARY OUT.vsix" >&2; exit 2; }
target=$1 binary=$2 out=$3
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -rf bin
trap 'rm -rf bin' EXIT
if [ "$target" = universal ]; then
  [ "$binary" = - ] || { echo "package.sh: universal takes no binary (-)" >&2; exit 2; }
  npx --no-install vsce package --no-update-package-json -o "$out"
  exit
fi
[ -f "$binary" ] || { echo "package.sh: no binary at $binary" >&2; exit 2; }
mkdir bin
name=gpuopt
case "$target" in win32-*) name=gpuopt.exe ;; esac
cp "$binary" "bin/$name"
chmod 0755 "bin/$name"
npx --no-install vsce package --target "$target" --no-update-package-json -o "$out"
