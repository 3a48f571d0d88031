# Environment probe run by `gpuopt doctor` with the project's Python.
# It prints one JSON object after a marker, so that anything the imported
# packages print cannot corrupt it. Python 3.5+; nothing here needs a GPU.
import importlib
import json
import platform
import re
import sys

MARKER = "GPUOPT_DOCTOR_JSON "
WANTED = re.compile(r"^(torch|xgboost|xgboost-cpu|cupy|cupy-cuda.*|cupy-rocm.*|cudf|cudf-cu.*)$")


def distributions():
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8
        return []
    seen, out = set(), []
    for d in metadata.distributions():
        name = re.sub(r"[-_.]+", "-", (d.metadata["Name"] or "")).lower()
        if WANTED.match(name) and name not in seen:
            seen.add(name)
            out.append({"name": name, "version": d.version})
    return sorted(out, key=lambda d: d["name"])


def probe(module, fill):
    try:
        mod = importlib.import_module(module)
    except Exception as e:  # ImportError, or a CUDA check failing at import
        missing = isinstance(e, ImportError) and getattr(e, "name", None) == module
        return {"missing": missing, "error": "%s: %s" % (type(e).__name__, e)}
    r = {"version": str(getattr(mod, "__version__", ""))}
    try:
        fill(mod, r)
    except Exception as e:
        r["probe_error"] = "%s: %s" % (type(e).__name__, e)
    return r


def fill_torch(torch, r):
    r["cuda"] = torch.version.cuda
    r["hip"] = getattr(torch.version, "hip", None)
    r["cuda_available"] = bool(torch.cuda.is_available())
    if r["cuda_available"]:
        r["device_count"] = torch.cuda.device_count()
        r["device_name"] = torch.cuda.get_device_name(0)
        r["device_capability"] = list(torch.cuda.get_device_capability(0))
        r["arch_list"] = list(torch.cuda.get_arch_list())
    r["cudnn"] = torch.backends.cudnn.version()


def fill_xgboost(xgb, r):
    info = xgb.build_info()
    r["use_cuda"] = info.get("USE_CUDA") in (True, 1, "ON", "on", "1", "TRUE", "True")
    cuda = info.get("CUDA_VERSION")
    if isinstance(cuda, (list, tuple)):
        cuda = ".".join(str(x) for x in cuda)
    r["cuda"] = cuda or None


def fill_nothing(mod, r):
    pass


out = {
    "python": platform.python_version(),
    "executable": sys.executable,
    "system": platform.system(),
    "machine": platform.machine(),
    "dists": distributions(),
    "torch": probe("torch", fill_torch),
    "xgboost": probe("xgboost", fill_xgboost),
    "cupy": probe("cupy", fill_nothing),
    "cudf": probe("cudf", fill_nothing),
}
sys.stdout.write("\n" + MARKER + json.dumps(out) + "\n")
