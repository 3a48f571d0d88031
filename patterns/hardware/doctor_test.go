package hardware

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// py is a fake interpreter's reading: the probe's JSON fields.
type py map[string]any

// with returns a copy of p with key set to v.
func (p py) with(key string, v any) py {
	q := py{}
	for k, x := range p {
		q[k] = x
	}
	q[key] = v
	return q
}

var missing = py{"missing": true, "error": "ModuleNotFoundError: No module named 'x'"}

// base is Python 3.12 on Linux x86_64 with nothing installed.
var base = py{
	"python": "3.12.3", "executable": "/venv/bin/python3", "system": "Linux", "machine": "x86_64",
	"dists": []any{}, "torch": missing, "xgboost": missing, "cupy": missing, "cudf": missing,
}

// torchCUDA is torch built for a CUDA version that sees an H100.
func torchCUDA(version, cuda string) py {
	return py{"version": version, "cuda": cuda, "cudnn": 91300, "cuda_available": true, "device_count": 1,
		"device_name": "NVIDIA H100 80GB HBM3", "device_capability": []int{9, 0},
		"arch_list": []string{"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"}}
}

func dists(names ...string) []any {
	var out []any
	for _, n := range names {
		out = append(out, map[string]string{"name": n, "version": "1.0"})
	}
	return out
}

// fakePython answers the probe with p's JSON, after some chatter.
func fakePython(t *testing.T, p py) Runner {
	return func(ctx context.Context, python string, args ...string) ([]byte, error) {
		if len(args) != 2 || args[0] != "-c" || args[1] != probeScript {
			t.Errorf("ran %s %q, want the probe script", python, args)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return []byte("Warning: some package printed this\n" + probeMarker + string(b) + "\n"), nil
	}
}

func liveProfile(t *testing.T, lib NVML) Profile {
	p, err := Detect(Options{NVML: lib})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func h100Driver(cuda int) FakeNVML {
	return FakeNVML{Driver: "580.159.04", CUDA: cuda, GPUs: []GPU{h100}}
}

// want is the expected status of one check and substrings of its words.
type want struct {
	check  string
	status Status
	detail string
	fix    string
}

func TestDoctor(t *testing.T) {
	cases := []struct {
		name  string
		nvml  NVML
		probe py
		wants []want
	}{
		{"healthy h100", h100Driver(13000),
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0")).with("cupy", py{"version": "14.2.0"}).with("dists", dists("cupy-cuda13x", "torch")),
			[]want{
				{"nvidia driver", StatusOK, "driver 580.159.04 (CUDA 13.0), NVIDIA H100 80GB HBM3 (sm_90)", ""},
				{"python", StatusOK, "Python 3.12.3 at /venv/bin/python3", ""},
				{"torch", StatusOK, "2.11.0+cu130, built for CUDA 13.0, sees 1 GPU(s)", ""},
				{"cudnn", StatusOK, "cuDNN 9.13.0", ""},
				{"xgboost", StatusMissing, "not installed", "pip install xgboost"},
				{"cupy", StatusOK, "cupy-cuda13x 1.0 (CUDA 13, matches the driver's CUDA 13.0)", ""},
				{"cudf", StatusMissing, "not installed", "pip install cudf-cu13"},
			}},
		{"torch built for a newer CUDA major than the driver", h100Driver(12060),
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0").with("cuda_available", false)),
			[]want{{"torch", StatusError, "built for CUDA 13.0, newer than the driver's CUDA 12.6", "pip uninstall -y torch && pip install torch --index-url https://download.pytorch.org/whl/cu126"}}},
		{"torch a minor version ahead of the driver", h100Driver(12040),
			base.with("torch", torchCUDA("2.7.1+cu126", "12.6")),
			[]want{{"torch", StatusWarn, "minor-version compatibility", "--index-url https://download.pytorch.org/whl/cu124"}}},
		{"old driver: the oldest index", h100Driver(11080),
			base.with("torch", torchCUDA("2.5.1+cu121", "12.1")),
			[]want{{"torch", StatusError, "newer than the driver's CUDA 11.8", "https://download.pytorch.org/whl/cu118"}}},
		{"driver older than any wheel", h100Driver(11040),
			base,
			[]want{{"torch", StatusMissing, "not installed", "update the NVIDIA driver: CUDA 11.4 is older than any PyTorch CUDA wheel"}}},
		{"CPU torch on a GPU machine", h100Driver(13000),
			base.with("torch", py{"version": "2.11.0+cpu", "cuda": nil, "cuda_available": false}),
			[]want{{"torch", StatusError, "2.11.0+cpu is a CPU-only build: NVIDIA H100 80GB HBM3 stays idle", "--index-url https://download.pytorch.org/whl/cu130"}}},
		{"CPU torch without a GPU", noDriver,
			base.with("torch", py{"version": "2.11.0+cpu", "cuda": nil}),
			[]want{
				{"nvidia driver", StatusMissing, "no NVIDIA GPU: no NVIDIA driver found", "install the NVIDIA driver"},
				{"torch", StatusOK, "CPU-only build (no NVIDIA driver here", ""},
			}},
		{"CUDA torch without a driver", noDriver,
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0").with("cuda_available", false)),
			[]want{{"torch", StatusOK, "built for CUDA 13.0 (no NVIDIA driver here to check it against)", ""}}},
		{"torch does not see the GPU", h100Driver(13000),
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0").with("cuda_available", false)),
			[]want{{"torch", StatusError, "torch.cuda.is_available() is False although NVML sees 1 GPU(s)", "CUDA_VISIBLE_DEVICES"}}},
		{"torch without kernels for the GPU", FakeNVML{CUDA: 12080, GPUs: []GPU{{Name: "NVIDIA GeForce RTX 5090", ComputeMajor: 12}}},
			base.with("torch", torchCUDA("2.5.1+cu124", "12.4").with("device_name", "NVIDIA GeForce RTX 5090").with("device_capability", []int{12, 0}).with("arch_list", []string{"sm_50", "sm_80", "sm_86", "sm_90"})),
			[]want{{"torch", StatusError, "carries no kernels for NVIDIA GeForce RTX 5090 (sm_120); it has sm_50 sm_80 sm_86 sm_90", "whl/cu128"}}},
		{"torch without cuDNN", h100Driver(13000),
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0").with("cudnn", nil)),
			[]want{{"cudnn", StatusWarn, "no cuDNN", "whl/cu130"}}},
		{"torch that fails to import", h100Driver(13000),
			base.with("torch", py{"missing": false, "error": "OSError: libcudnn.so.9: cannot open shared object file"}),
			[]want{{"torch", StatusError, "import failed: OSError: libcudnn.so.9", "pip uninstall -y torch && pip install torch --index-url https://download.pytorch.org/whl/cu130"}}},
		{"XGBoost without CUDA on a GPU machine", h100Driver(13000),
			base.with("xgboost", py{"version": "3.0.0", "use_cuda": false}).with("dists", dists("xgboost")),
			[]want{{"xgboost", StatusError, "XGBoost 3.0.0 was built without CUDA: device=\"cuda\" fails; NVIDIA H100 80GB HBM3 stays idle", "pip install --force-reinstall xgboost"}}},
		{"the xgboost-cpu package", h100Driver(13000),
			base.with("xgboost", py{"version": "3.0.0", "use_cuda": false}).with("dists", dists("xgboost-cpu")),
			[]want{{"xgboost", StatusError, "(the xgboost-cpu package)", "pip uninstall -y xgboost-cpu && pip install xgboost"}}},
		{"XGBoost without CUDA and without a GPU", noDriver,
			base.with("xgboost", py{"version": "3.0.0", "use_cuda": false}),
			[]want{{"xgboost", StatusWarn, "built without CUDA", "pip install"}}},
		{"XGBoost without CUDA on a Mac", noDriver,
			base.with("system", "Darwin").with("machine", "arm64").with("xgboost", py{"version": "3.0.0", "use_cuda": false}),
			[]want{{"xgboost", StatusWarn, "built without CUDA", "conda install -c conda-forge"}}},
		{"XGBoost with CUDA", h100Driver(13000),
			base.with("xgboost", py{"version": "3.4.1", "use_cuda": true, "cuda": "12.8"}),
			[]want{{"xgboost", StatusOK, "XGBoost 3.4.1, built with CUDA 12.8", ""}}},
		{"XGBoost for a newer CUDA than the driver", h100Driver(11080),
			base.with("xgboost", py{"version": "3.4.1", "use_cuda": true, "cuda": "12.8"}),
			[]want{{"xgboost", StatusError, "newer than the driver's CUDA 11.8", "update the NVIDIA driver to one for CUDA 12"}}},
		{"cupy-cuda11x on a CUDA 12 driver", h100Driver(12040),
			base.with("cupy", py{"version": "13.6.0"}).with("dists", dists("cupy-cuda11x")),
			[]want{{"cupy", StatusWarn, "cupy-cuda11x 1.0 is built for CUDA 11, older than the driver's CUDA 12.4", "pip uninstall -y cupy-cuda11x && pip install cupy-cuda12x"}}},
		{"cupy-cuda13x on a CUDA 12 driver", h100Driver(12040),
			base.with("cupy", py{"version": "14.2.0"}).with("dists", dists("cupy-cuda13x")),
			[]want{{"cupy", StatusError, "built for CUDA 13, newer than the driver's CUDA 12.4", "pip install cupy-cuda12x"}}},
		{"an old per-release CuPy wheel", h100Driver(12040),
			base.with("cupy", py{"version": "10.6.0"}).with("dists", dists("cupy-cuda117")),
			[]want{{"cupy", StatusWarn, "built for CUDA 11", "cupy-cuda12x"}}},
		{"two CuPy wheels", h100Driver(12040),
			base.with("cupy", py{"version": "13.6.0"}).with("dists", dists("cupy-cuda11x", "cupy-cuda12x")),
			[]want{{"cupy", StatusError, "several CuPy packages are installed (cupy-cuda11x, cupy-cuda12x)", "pip uninstall -y cupy-cuda11x cupy-cuda12x && pip install cupy-cuda12x"}}},
		{"CuPy without a driver is compared with torch", noDriver,
			base.with("torch", torchCUDA("2.11.0+cu130", "13.0").with("cuda_available", false)).with("cupy", py{"version": "13.6.0"}).with("dists", dists("cupy-cuda12x")),
			[]want{{"cupy", StatusWarn, "older than torch's CUDA 13.0", "pip install cupy-cuda13x"}}},
		{"CuPy built from source", h100Driver(12040),
			base.with("cupy", py{"version": "14.0.0"}).with("dists", dists("cupy")),
			[]want{{"cupy", StatusOK, "not a CUDA wheel", ""}}},
		{"cuDF that needs a GPU to import", noDriver,
			base.with("cudf", py{"missing": false, "error": "RuntimeError: No CUDA GPUs are available"}).with("dists", dists("cudf-cu12")),
			[]want{{"cudf", StatusWarn, "cudf-cu12 1.0: import failed: RuntimeError: No CUDA GPUs are available (it may need a GPU to import)", ""}}},
		{"cuDF on a GPU older than Volta", FakeNVML{CUDA: 12020, GPUs: []GPU{{Name: "Tesla P100", ComputeMajor: 6}}},
			base.with("cudf", py{"version": "25.6.0"}).with("dists", dists("cudf-cu12")),
			[]want{{"cudf", StatusError, "cuDF needs compute capability 7.0 or newer, Tesla P100 has 6.0", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Doctor(context.Background(), DoctorOptions{Profile: liveProfile(t, c.nvml), Run: fakePython(t, c.probe)})
			if r.Python != "python3" || r.PythonVersion != "3.12.3" {
				t.Errorf("python %q %q", r.Python, r.PythonVersion)
			}
			for _, w := range c.wants {
				got, ok := r.Check(w.check)
				if !ok {
					t.Errorf("no %s check in %+v", w.check, r.Checks)
					continue
				}
				if got.Status != w.status || !strings.Contains(got.Detail, w.detail) || !strings.Contains(got.Fix, w.fix) || w.fix == "" && got.Fix != "" {
					t.Errorf("%s:\n got  %s %q fix %q\n want %s %q fix %q", w.check, got.Status, got.Detail, got.Fix, w.status, w.detail, w.fix)
				}
				if w.status == StatusError && !r.HasErrors() {
					t.Errorf("HasErrors is false with an error check")
				}
			}
		})
	}
}

func TestDoctorWithoutPython(t *testing.T) {
	fail := func(err error, out string) Runner {
		return func(context.Context, string, ...string) ([]byte, error) { return []byte(out), err }
	}
	cases := []struct {
		name   string
		run    Runner
		status Status
		detail string
	}{
		{"not on PATH", fail(&exec.Error{Name: "python3", Err: exec.ErrNotFound}, ""), StatusMissing, "python3 not found"},
		{"no such file", fail(fmt.Errorf("fork/exec .venv/bin/python: %w", errors.New("no such file or directory")), ""), StatusError, "failed"},
		{"crashes", fail(errors.New("exit status 1: SyntaxError: invalid syntax"), ""), StatusError, "python3 failed: exit status 1: SyntaxError"},
		{"prints no result", fail(nil, "Python 2.7\n"), StatusError, "the probe printed no result"},
		{"prints broken JSON", fail(nil, probeMarker+"{not json\n"), StatusError, "not JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Doctor(context.Background(), DoctorOptions{Profile: liveProfile(t, oneH100), Run: c.run})
			py, ok := r.Check("python")
			if !ok || py.Status != c.status || !strings.Contains(py.Detail, c.detail) || !strings.Contains(py.Fix, "--python") {
				t.Errorf("python check %+v", py)
			}
			if len(r.Checks) != 2 {
				t.Errorf("checks after a failed Python: %+v", r.Checks)
			}
			if d, _ := r.Check("nvidia driver"); d.Status != StatusOK {
				t.Errorf("the driver check must not depend on Python: %+v", d)
			}
		})
	}
}

func TestDoctorTimeout(t *testing.T) {
	slow := func(ctx context.Context, _ string, _ ...string) ([]byte, error) {
		<-ctx.Done()
		return nil, errors.New("signal: killed")
	}
	r := Doctor(context.Background(), DoctorOptions{Profile: liveProfile(t, noDriver), Run: slow, Timeout: 10 * time.Millisecond})
	if c, _ := r.Check("python"); c.Status != StatusError || !strings.Contains(c.Detail, "in time") {
		t.Errorf("%+v", c)
	}
}

// TestDoctorRealPython runs the embedded probe with the machine's python3,
// if there is one: the script must run and its output parse, whatever is
// installed.
func TestDoctorRealPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	r := Doctor(context.Background(), DoctorOptions{Profile: liveProfile(t, noDriver)})
	c, _ := r.Check("python")
	if c.Status != StatusOK || r.PythonVersion == "" || r.Executable == "" {
		t.Fatalf("%+v", r)
	}
	for _, name := range []string{"torch", "xgboost", "cupy", "cudf"} {
		if _, ok := r.Check(name); !ok {
			t.Errorf("no %s check: %+v", name, r.Checks)
		}
	}
	r = Doctor(context.Background(), DoctorOptions{Python: "/nonexistent/python", Profile: liveProfile(t, noDriver)})
	if c, _ := r.Check("python"); c.Status != StatusMissing {
		t.Errorf("a missing interpreter: %+v", c)
	}
}

func TestWheelCUDA(t *testing.T) {
	cases := map[string]int{"cupy-cuda12x": 12, "cupy-cuda13x": 13, "cupy-cuda117": 11, "cupy-cuda102": 10, "cupy-cuda80": 8,
		"cudf-cu12": 12, "cudf-cu11": 11, "cudf-cuda100": 10, "cudf-cuda92": 9, "cupy": 0, "cupy-rocm-5-0": 0}
	for name, want := range cases {
		if got, ok := wheelCUDA(name); got != want || ok != (want > 0) {
			t.Errorf("wheelCUDA(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
}

func TestArchSupported(t *testing.T) {
	archs := []string{"sm_80", "sm_86", "sm_90a"}
	cases := []struct {
		major, minor int
		ok           bool
	}{{8, 0, true}, {8, 9, true}, {9, 0, true}, {7, 5, false}, {10, 0, false}, {12, 0, false}}
	for _, c := range cases {
		if got := archSupported(archs, c.major, c.minor); got != c.ok {
			t.Errorf("sm_%d%d: %v", c.major, c.minor, got)
		}
	}
	if !archSupported([]string{"sm_80", "compute_90"}, 12, 0) {
		t.Error("PTX for 9.0 runs on 12.0 through the JIT")
	}
}

func TestCuDNNVersion(t *testing.T) {
	for v, want := range map[int]string{91300: "9.13.0", 90100: "9.1.0", 8902: "8.9.2", 8700: "8.7.0"} {
		if got := cudnnVersion(v); got != want {
			t.Errorf("%d: %s, want %s", v, got, want)
		}
	}
}
