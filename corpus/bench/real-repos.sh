#!/bin/bash
# Measures check against parse-only on real ML repositories, pinned to the
# commits the README's numbers come from. Needs network access (git clone)
# and Go; not part of the test suite.
#
#   corpus/bench/real-repos.sh [WORKDIR]
#
# Prints BenchmarkParseOnly and BenchmarkCheck per repository and for all
# four together. BenchmarkCheck's run/parse metric (the model and the
# rules against the parse, timed file by file in one process) is check's
# overhead over parsing: check ÷ parse-only = 1 + run/parse.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
repos=(
  "pytorch/examples 77f55b912142e11fcfdf5b530231fb9c52f181e8"
  "karpathy/nanoGPT 3adf61e154c3fe3fca428ad6bc3818b27a3b8291"
  "huggingface/accelerate 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83"
  "dmlc/xgboost 379b29f0836b9dbc313b993d8e5743bd452d4117"
)
for r in "${repos[@]}"; do
  set -- $r
  dir=$work/all/${1/\//+}
  if [ ! -d "$dir" ]; then
    git init -q "$dir"
    git -C "$dir" fetch -q --depth 1 "https://github.com/$1" "$2"
    git -C "$dir" checkout -q FETCH_HEAD
  fi
done
cd "$root"
go test -c -o "$work/patterns.test" ./patterns
cd patterns
for dir in "$work"/all/* "$work/all"; do
  echo "== $dir"
  GPUOPT_BENCH_DIR=$dir "$work/patterns.test" -test.run XXX \
    -test.bench '^BenchmarkParseOnly$|^BenchmarkCheck$' -test.benchtime 2s -test.count 3 | grep Benchmark
done
