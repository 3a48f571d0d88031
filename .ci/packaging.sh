#!/usr/bin/env bash
# Packaging as CI checks it (called by .ci/run; runnable alone):
#   1. pip: .ci/release builds this machine's target (gpuopt stamped with
#      version and commit, its archive and wheel); Python's own zipfile and
#      hashlib check the wheel's RECORD; `pip install --no-index` puts it
#      into a fresh `python3 -m venv`; `gpuopt check` runs on a corpus
#      example from the venv with no Go on PATH: the expected finding, a
#      code frame, no escape codes in a pipe. The example GitHub workflow's
#      gpuopt commands run as written.
#   2. pre-commit (Debian's package): `pre-commit try-repo` this checkout in
#      a scratch git repository: the gpuopt hook fails on a file with a
#      finding and passes on a clean one; gpuopt-fix applies the safe fix.
# Installs python3-venv, python3-yaml and pre-commit with apt-get when missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

need_apt=()
python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
command -v pre-commit >/dev/null || need_apt+=(pre-commit)
python3 -c 'import yaml' 2>/dev/null || need_apt+=(python3-yaml)
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "== packaging: installing ${need_apt[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

# --- the wheel ----------------------------------------------------------------
version=0.1.0.dev0
commit=$(git rev-parse HEAD)
echo "== packaging: wheel $version ($(date +%T))"
case "$(uname -m)" in
  x86_64) target=linux/amd64 ;;
  aarch64 | arm64) target=linux/arm64 ;;
  *) echo "packaging: no release target for $(uname -m)" >&2; exit 1 ;;
esac
DIST="$tmp/dist" .ci/release --version "$version" --no-vsix "$target"
wheel=$(ls "$tmp"/dist/*.whl)
case "$(basename "$wheel")" in
  gpuopt-$version-py3-none-manylinux_2_*_x86_64.whl | gpuopt-$version-py3-none-manylinux_2_*_aarch64.whl) ;;
  *) echo "packaging: unexpected wheel name $wheel" >&2; exit 1 ;;
esac
python3 - "$wheel" <<'PY'
import base64, csv, hashlib, io, stat, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
info = next(n for n in names if n.endswith(".dist-info/RECORD"))
rows = list(csv.reader(io.StringIO(z.read(info).decode())))
assert {r[0] for r in rows} == names, "RECORD lists %s, the wheel has %s" % (sorted(r[0] for r in rows), sorted(names))
for name, digest, size in rows:
    if name == info:
        continue
    data = z.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(data), "RECORD row for %s is wrong" % name
script = z.getinfo(next(n for n in names if n.endswith(".data/scripts/gpuopt")))
assert stat.S_IMODE(script.external_attr >> 16) == 0o755, oct(script.external_attr >> 16)
print("packaging: %s: RECORD verified, script mode 755" % sys.argv[1].rsplit("/", 1)[-1])
PY
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --no-index --no-cache-dir --disable-pip-version-check -q "$wheel"
# Python but no Go: the venv's bin and the system's, nothing else.
venv_run() { (cd "$tmp" && env -i HOME="$tmp" PATH="$tmp/venv/bin:/usr/bin:/bin" "$@"); }
[ "$(venv_run sh -c 'command -v gpuopt')" = "$tmp/venv/bin/gpuopt" ] || { echo "packaging: gpuopt is not the venv's" >&2; exit 1; }
got=$(venv_run gpuopt --version)
[ "$got" = "gpuopt $version (${commit:0:12})" ] || { echo "packaging: gpuopt --version says '$got'" >&2; exit 1; }
cp corpus/examples/xgb_train.py "$tmp/xgb_train.py"
set +e
concise=$(venv_run gpuopt check --output-format concise xgb_train.py)
code=$?
full=$(venv_run gpuopt check xgb_train.py)
set -e
if [ $code -ne 1 ] || ! grep -q '^xgb_train.py:10:20: XGB002 \[\*\] ' <<<"$concise"; then
  echo "packaging: gpuopt check from the venv: exit $code" >&2; echo "$concise" >&2; exit 1
fi
if ! grep -q '^   |                    ^^^^^^^^^^ XGB002$' <<<"$full" || grep -q $'\x1b' <<<"$full"; then
  echo "packaging: the default output lacks the code frame or has escape codes in a pipe:" >&2; echo "$full" >&2; exit 1
fi
echo "packaging: pip-installed gpuopt ($got) finds XGB002 in corpus/examples/xgb_train.py"

# The documented GitHub workflow: its gpuopt commands, run as written.
python3 - .ci/examples/github-code-scanning.yml >"$tmp/workflow-commands" <<'PY'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["gpuopt"]["steps"]
runs = [s["run"] for s in steps if s.get("run", "").startswith("gpuopt ")]
uploads = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
assert len(runs) == 2 and uploads and uploads[0]["with"]["sarif_file"] == "gpuopt.sarif", (runs, uploads)
print("\n".join(runs))
PY
while read -r cmd; do
  venv_run sh -c "$cmd" >"$tmp/workflow-out" || { echo "packaging: workflow step '$cmd' failed" >&2; exit 1; }
done <"$tmp/workflow-commands"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert any(r["ruleId"] == "XGB002" for r in d["runs"][0]["results"])' "$tmp/gpuopt.sarif"
echo "packaging: the example GitHub workflow's commands produce annotations and gpuopt.sarif"

# --- pre-commit ---------------------------------------------------------------
echo "== packaging: pre-commit try-repo (pre-commit $(pre-commit --version | cut -d' ' -f2)) ($(date +%T))"
export PRE_COMMIT_HOME="$tmp/pre-commit-home"
# The hooks are `language: golang`: pre-commit runs `go install ./...` in a
# clone with its own GOPATH; sharing the module cache keeps it offline.
export GOMODCACHE GOFLAGS="${GOFLAGS:-} -buildvcs=false -trimpath" # -trimpath: reuse the build cache of the wheel step
GOMODCACHE=$(go env GOMODCACHE)
scratch="$tmp/scratch"
mkdir -p "$scratch"
git -C "$scratch" init -q
cat >"$scratch/train.py" <<'EOF'
import xgboost as xgb
params = {"tree_method": "gpu_hist", "max_depth": 6, "device": "cuda"}
EOF
printf 'import torch\nx = torch.zeros(3, device="cuda")\n' >"$scratch/clean.py"
git -C "$scratch" add .
try_repo() { (cd "$scratch" && pre-commit try-repo "$root" "$@" 2>&1); }

set +e
out=$(try_repo gpuopt --files train.py)
code=$?
set -e
if [ $code -eq 0 ] || ! grep -q 'train.py:2:26: XGB002' <<<"$out"; then
  echo "packaging: the gpuopt hook must fail on train.py with XGB002 (exit $code):" >&2; echo "$out" >&2; exit 1
fi
if ! out=$(try_repo gpuopt --files clean.py); then
  echo "packaging: the gpuopt hook must pass on clean.py:" >&2; echo "$out" >&2; exit 1
fi
set +e
out=$(try_repo gpuopt-fix --files train.py)
code=$?
set -e
if [ $code -eq 0 ] || ! grep -q '"tree_method": "hist", "max_depth": 6, "device": "cuda"' "$scratch/train.py"; then
  echo "packaging: gpuopt-fix must rewrite train.py (and fail: files were modified), exit $code:" >&2; echo "$out" >&2; cat "$scratch/train.py" >&2; exit 1
fi
if ! out=$(try_repo gpuopt --all-files); then
  echo "packaging: after gpuopt-fix the gpuopt hook must pass:" >&2; echo "$out" >&2; exit 1
fi
echo "packaging: pre-commit hooks gpuopt (fails on a finding, passes when clean) and gpuopt-fix work"
echo "== packaging: ok ($(date +%T))"
