package hardware

import (
	"bytes"
	"context"
	_ "embed" // the probe script
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"time"
)

// Status grades one doctor check.
type Status string

// The statuses, from good to bad; Missing (a package or Python not there)
// is reported, not an error.
const (
	StatusOK      Status = "ok"
	StatusMissing Status = "missing"
	StatusWarn    Status = "warn"
	StatusError   Status = "error"
)

// Check is one line of the doctor's report.
type Check struct {
	Name   string `json:"name"` // "torch"
	Status Status `json:"status"`
	Detail string `json:"detail"`
	// Fix is what to run or change, when there is something to do.
	Fix string `json:"fix,omitempty"`
}

// Report is the doctor's finding on one Python environment and driver.
type Report struct {
	Python            string  `json:"python"`                        // as asked: "python3"
	Executable        string  `json:"executable,omitempty"`          // sys.executable
	PythonVersion     string  `json:"python_version,omitempty"`      // "3.12.3"
	DriverVersion     string  `json:"driver_version,omitempty"`      // "580.159.04"
	CUDADriverVersion string  `json:"cuda_driver_version,omitempty"` // "13.0"
	GPU               string  `json:"gpu,omitempty"`                 // the first live GPU, described
	Checks            []Check `json:"checks"`
}

// HasErrors reports whether any check is an error (a mismatch to fix).
func (r Report) HasErrors() bool {
	for _, c := range r.Checks {
		if c.Status == StatusError {
			return true
		}
	}
	return false
}

// Check returns the check of that name, if present.
func (r Report) Check(name string) (Check, bool) {
	for _, c := range r.Checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// Runner runs python with args and returns its standard output; an error
// for a program that cannot be started or fails. Tests replace it.
type Runner func(ctx context.Context, python string, args ...string) ([]byte, error)

// DoctorOptions say which Python to ask and what the driver reported.
type DoctorOptions struct {
	// Python is the interpreter to run; "" for python3.
	Python string
	// Profile is the NVML reading the versions are compared with; only its
	// live part (driver, CUDA version, GPUs) is used, never a target.
	Profile Profile
	// Run runs the interpreter; nil uses ExecRunner.
	Run Runner
	// Timeout bounds the Python run (importing torch and cuDF takes
	// seconds); 0 for two minutes.
	Timeout time.Duration
}

//go:embed doctor_probe.py
var probeScript string

// probeMarker prefixes the probe's JSON line.
const probeMarker = "GPUOPT_DOCTOR_JSON "

// ExecRunner runs the interpreter as a child process; its standard error
// ends up in the error when it fails.
func ExecRunner(ctx context.Context, python string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := lastLines(stderr.String(), 3); msg != "" {
			return out, fmt.Errorf("%w: %s", err, msg)
		}
	}
	return out, err
}

// Doctor runs the project's Python once and checks torch, XGBoost, CuPy and
// cuDF against the driver. Nothing it meets is fatal: a missing Python or
// package is a check with StatusMissing.
func Doctor(ctx context.Context, opts DoctorOptions) Report {
	if opts.Python == "" {
		opts.Python = "python3"
	}
	if opts.Run == nil {
		opts.Run = ExecRunner
	}
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Minute
	}
	env := newEnv(opts.Profile)
	r := Report{Python: opts.Python, DriverVersion: env.driver, CUDADriverVersion: opts.Profile.CUDADriverVersion}
	if env.gpu != nil {
		r.GPU = env.gpu.Describe()
	}
	r.Checks = append(r.Checks, env.driverCheck())

	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	out, err := opts.Run(ctx, opts.Python, "-c", probeScript)
	py, perr := parseProbe(out)
	if err != nil || perr != nil {
		r.Checks = append(r.Checks, pythonFailed(opts.Python, err, perr, ctx.Err()))
		return r
	}
	r.Executable, r.PythonVersion = py.Executable, py.Python
	r.Checks = append(r.Checks, Check{Name: "python", Status: StatusOK, Detail: fmt.Sprintf("Python %s at %s", py.Python, py.Executable)})
	r.Checks = append(r.Checks, env.checkTorch(py)...)
	r.Checks = append(r.Checks, env.checkXGBoost(py), env.checkWheel(py, cupyKind), env.checkWheel(py, cudfKind))
	return r
}

// probe is what doctor_probe.py prints.
type probe struct {
	Python     string      `json:"python"`
	Executable string      `json:"executable"`
	System     string      `json:"system"`
	Machine    string      `json:"machine"`
	Dists      []dist      `json:"dists"`
	Torch      moduleProbe `json:"torch"`
	XGBoost    moduleProbe `json:"xgboost"`
	CuPy       moduleProbe `json:"cupy"`
	CuDF       moduleProbe `json:"cudf"`
}

// dist is an installed distribution ("cupy-cuda12x" 13.3.0).
type dist struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// moduleProbe is one import's outcome; the fields after ProbeError are
// filled for the modules that have them.
type moduleProbe struct {
	Missing    bool   `json:"missing"` // ModuleNotFoundError for the module itself
	Error      string `json:"error"`   // why the import failed
	Version    string `json:"version"`
	ProbeError string `json:"probe_error"` // imported, but reading it failed

	CUDA             *string  `json:"cuda"` // torch.version.cuda, XGBoost's CUDA_VERSION
	HIP              *string  `json:"hip"`
	CuDNN            *int     `json:"cudnn"`
	CUDAAvailable    bool     `json:"cuda_available"`
	DeviceCount      int      `json:"device_count"`
	DeviceName       string   `json:"device_name"`
	DeviceCapability []int    `json:"device_capability"`
	ArchList         []string `json:"arch_list"`
	UseCUDA          bool     `json:"use_cuda"`
}

// installed reports whether the import worked.
func (m moduleProbe) installed() bool { return m.Error == "" }

// cuda is the CUDA version string, "" for none.
func (m moduleProbe) cuda() string {
	if m.CUDA == nil {
		return ""
	}
	return *m.CUDA
}

// parseProbe finds the marked JSON line in the probe's output.
func parseProbe(out []byte) (probe, error) {
	var p probe
	i := bytes.LastIndex(out, []byte(probeMarker))
	if i < 0 {
		return p, errors.New("the probe printed no result")
	}
	line := out[i+len(probeMarker):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if err := json.Unmarshal(line, &p); err != nil {
		return p, fmt.Errorf("the probe's result is not JSON: %v", err)
	}
	return p, nil
}

// pythonFailed is the check for an interpreter that did not run the probe.
func pythonFailed(python string, runErr, parseErr, ctxErr error) Check {
	c := Check{Name: "python", Status: StatusError, Fix: "pass the project's interpreter with --python (for example --python .venv/bin/python); gpuopt doctor needs Python 3"}
	switch {
	case errors.Is(runErr, exec.ErrNotFound) || errors.Is(runErr, fs.ErrNotExist):
		c.Status, c.Detail = StatusMissing, fmt.Sprintf("%s not found: no Python to check", python)
	case ctxErr != nil:
		c.Detail = fmt.Sprintf("%s did not finish importing the packages in time", python)
	case runErr != nil:
		c.Detail = fmt.Sprintf("%s failed: %v", python, runErr)
	default:
		c.Detail = fmt.Sprintf("%s ran, but %v", python, parseErr)
	}
	return c
}

// lastLines keeps the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
