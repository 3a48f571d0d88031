#!/bin/bash
# Scores gpuopt's recall against the hand-written labels of public
# repositories (corpus/bench/recall/labels, one file per repository of
# manifest.txt). Not part of the test suite: it needs the repositories.
#
#   corpus/bench/recall/run.sh [WORKDIR] [score flags, e.g. -repo owner/name]
#
# Each repository is cloned into WORKDIR/owner+name at its pinned commit,
# from /work/.mirror/owner+name when a mirror is there, else from GitHub;
# only the labelled scopes' Python files and the files gpuopt reads for
# versions (requirements*.txt, pyproject.toml, setup.cfg, setup.py, environment.yml, README) are checked out.
# Then gpuopt is built from this tree and the scorer prints recall and false
# alarms per family (see score/main.go).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-/tmp/recall}
shift || true
mkdir -p "$work"
while read -r name commit scopes; do
  name=${name%%#*}
  [ -z "$name" ] && continue
  dir=$work/${name/\//+}
  if [ ! -d "$dir/.git" ]; then
    mirror=$(ls -d /work/.mirror/"${name/\//+}"/repo 2>/dev/null || true)
    [ -n "$mirror" ] && [ -d "$mirror/.git" ] && mirror=$mirror/.git
    if [ -n "$mirror" ]; then
      # --shared borrows the mirror's objects (some mirrors lack large data
      # blobs, which a fetch would need to copy but a checkout of the
      # labelled Python files does not).
      git clone -q --no-checkout --shared "$mirror" "$dir"
    else
      git init -q "$dir"
      git -C "$dir" fetch -q --depth 1 "https://github.com/$name" "$commit"
    fi
  fi
  scopes=${scopes%%#*}
  # shellcheck disable=SC2086
  git -C "$dir" ls-tree -r --name-only "$commit" -- $scopes |
    grep -E '\.py$' >"$dir/.git/recall-files" || true
  git -C "$dir" ls-tree -r --name-only "$commit" |
    grep -E '(^|/)(requirements[^/]*\.txt|pyproject\.toml|setup\.cfg|setup\.py|environment\.ya?ml|\.gitignore|README(\.md|\.rst|\.txt)?|INSTALL\.md)$' >>"$dir/.git/recall-files" || true
  while read -r f; do
    git -C "$dir" checkout -q "$commit" -- "$f" 2>/dev/null || echo "recall: $name: $f not available" >&2
  done <"$dir/.git/recall-files"
done <"$root/corpus/bench/recall/manifest.txt"
cd "$root"
go build -o "$work/gpuopt" ./cmd/gpuopt
go run ./corpus/bench/recall/score -work "$work" -gpuopt "$work/gpuopt" "$@"
