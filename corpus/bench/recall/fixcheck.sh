#!/bin/bash
# The issue-12 fix check on the recall repositories: `gpuopt fix
# --unsafe-fixes` on each repository's labelled scopes (in a copy of the
# clones run.sh made), every changed Python file must still compile, and a
# second run must change nothing. Prints the files changed per repository
# and any failure; exits 1 on a failure.
#
#   corpus/bench/recall/fixcheck.sh [WORKDIR]   # WORKDIR as given to run.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:-/tmp/recall}
copies=$(mktemp -d)
bin=$copies/gpuopt
(cd "$root" && go build -o "$bin" ./cmd/gpuopt) || exit 1
python=$(command -v python3)
failed=0 total=0
while read -r name commit scopes; do
  name=${name%%#*}
  [ -z "$name" ] && continue
  scopes=${scopes%%#*}
  src=$work/${name/\//+}
  [ -d "$src/.git" ] || { echo "missing $src: run run.sh first"; exit 1; }
  dir=$copies/${name/\//+}
  cp -r "$src" "$dir"
  args=()
  for s in $scopes; do args+=("$dir/$s"); done
  "$bin" fix --unsafe-fixes --target-gpu h100 --no-progress "${args[@]}" >/dev/null 2>&1
  changed=$(cd "$dir" && git diff --name-only -- '*.py')
  n=0
  while IFS= read -r f; do
    [ -z "$f" ] && continue
    n=$((n + 1))
    "$python" -m py_compile "$dir/$f" 2>/dev/null || { echo "does not compile: $name $f"; failed=1; }
  done <<<"$changed"
  total=$((total + n))
  (cd "$dir" && git diff) >"$copies/first.diff"
  "$bin" fix --unsafe-fixes --target-gpu h100 --no-progress "${args[@]}" >/dev/null 2>&1
  if ! (cd "$dir" && git diff) | cmp -s - "$copies/first.diff"; then
    echo "a second run changed $name"
    failed=1
  fi
  echo "$name: $n files changed"
done <"$root/corpus/bench/recall/manifest.txt"
echo "total: $total files changed; failures: $failed"
rm -rf "$copies"
exit $failed
