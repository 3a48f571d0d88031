package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns/hardware"
)

var (
	fakeNoDriver = hardware.FakeNVML{InitErr: errors.New("no NVIDIA driver found (libnvidia-ml.so.1 could not be loaded)")}
	fakeH100     = hardware.FakeNVML{Driver: "580.159.04", CUDA: 13000, GPUs: []hardware.GPU{
		{Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-1", MemoryTotalBytes: 85_520_809_984, ComputeMajor: 9, PowerLimitWatts: 700}}}
)

// onMachine runs the test against a fake NVML in an empty directory (no
// pyproject.toml) with GPUOPT_TARGET_GPU unset.
func onMachine(t *testing.T, lib hardware.NVML) string {
	t.Helper()
	saved := hwProfiles
	hwProfiles = &hardware.Lazy{NVML: lib}
	t.Cleanup(func() { hwProfiles = saved })
	t.Setenv(hardware.EnvTarget, "")
	dir := t.TempDir()
	t.Chdir(dir)
	return dir
}

// execute runs a command in-process and returns its output.
func execute(t *testing.T, cmd *cobra.Command, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

// executeTable is execute for table output, padding squashed.
func executeTable(t *testing.T, cmd *cobra.Command, args ...string) (string, error) {
	t.Helper()
	out, err := execute(t, cmd, args...)
	return squash(out), err
}

// squash collapses runs of spaces (tabwriter padding) to one.
func squash(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

func hwJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, err := execute(t, newHWCommand(), append([]string{"--json"}, args...)...)
	if err != nil {
		t.Fatalf("hw --json %v: %v\n%s", args, err, out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	return m
}

func TestHWJSON(t *testing.T) {
	t.Run("no GPU", func(t *testing.T) {
		onMachine(t, fakeNoDriver)
		m := hwJSON(t)
		if m["gpu"] != nil || m["source"] != "none" || m["target"] != nil || !strings.HasPrefix(m["message"].(string), "no NVIDIA GPU: no NVIDIA driver found") {
			t.Errorf("%v", m)
		}
	})
	t.Run("no GPU, rtx-4090 target", func(t *testing.T) {
		onMachine(t, fakeNoDriver)
		m := hwJSON(t, "--target-gpu", "rtx-4090")
		g := m["gpu"].(map[string]any)
		if m["source"] != "target" || m["target_name"] != "rtx-4090" || g["compute_major"] != 8.0 || g["compute_minor"] != 9.0 || g["memory_total_bytes"] != float64(24<<30) || g["bf16"] != true {
			t.Errorf("%v", m)
		}
		if !strings.Contains(m["message"].(string), "24 GB, compute capability 8.9") {
			t.Errorf("message %q", m["message"])
		}
	})
	t.Run("live H100", func(t *testing.T) {
		onMachine(t, fakeH100)
		m := hwJSON(t)
		g := m["gpu"].(map[string]any)
		if m["source"] != "nvml" || g["name"] != "NVIDIA H100 80GB HBM3" || m["cuda_driver_version"] != "13.0" || m["driver_version"] != "580.159.04" {
			t.Errorf("%v", m)
		}
	})
	t.Run("environment target wins over a live GPU", func(t *testing.T) {
		onMachine(t, fakeH100)
		t.Setenv(hardware.EnvTarget, "T4")
		m := hwJSON(t)
		if m["source"] != "target" || m["gpu"].(map[string]any)["name"] != "NVIDIA T4" || len(m["gpus"].([]any)) != 1 {
			t.Errorf("%v", m)
		}
	})
	t.Run("config target stands in for no GPU only", func(t *testing.T) {
		dir := onMachine(t, fakeNoDriver)
		write(t, filepath.Join(dir, "pyproject.toml"), "[tool.gpuopt]\ntarget-gpu = \"l4\"\n")
		if m := hwJSON(t); m["source"] != "target" || m["target_name"] != "l4" {
			t.Errorf("no GPU: %v", m)
		}
		hwProfiles = &hardware.Lazy{NVML: fakeH100}
		if m := hwJSON(t); m["source"] != "nvml" || m["target_name"] != "l4" {
			t.Errorf("live GPU: %v", m)
		}
		if m := hwJSON(t, "--target-gpu", "a10"); m["source"] != "target" || m["target_name"] != "a10" {
			t.Errorf("flag over config: %v", m)
		}
	})
}

func TestHWTable(t *testing.T) {
	onMachine(t, fakeH100)
	out, err := executeTable(t, newHWCommand())
	for _, want := range []string{"(from NVML)", "rules assume NVIDIA H100 80GB HBM3 (sm_90), 80 GB, bf16 yes, tf32 yes", "driver 580.159.04 (CUDA 13.0)", "700 W limit"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("lacks %q (%v):\n%s", want, err, out)
		}
	}
	onMachine(t, fakeNoDriver)
	out, err = executeTable(t, newHWCommand())
	if err != nil || !strings.Contains(out, "source none") || !strings.Contains(out, "nvml no NVIDIA driver found") {
		t.Errorf("no GPU (%v):\n%s", err, out)
	}
	out, err = executeTable(t, newHWCommand(), "--list")
	if err != nil || !strings.Contains(out, "rtx-4090 NVIDIA GeForce RTX 4090") || !strings.Contains(out, "t4 ") {
		t.Errorf("--list (%v):\n%s", err, out)
	}
	if _, err := execute(t, newHWCommand(), "--target-gpu", "gtx-480"); err == nil || !strings.Contains(err.Error(), "unknown target GPU") {
		t.Errorf("unknown target: %v", err)
	}
}

func TestProfileGPUForRules(t *testing.T) {
	onMachine(t, fakeNoDriver)
	if g, err := profileGPU("", ""); err != nil || g.Known() {
		t.Errorf("no GPU: %+v %v", g, err)
	}
	g, err := profileGPU("rtx-3090", "")
	if err != nil || g.Source != "target" || g.Describe() != "NVIDIA GeForce RTX 3090 (sm_86)" || g.VRAMGB != 24 {
		t.Errorf("target: %+v %v", g, err)
	}
	onMachine(t, fakeH100)
	if g, _ := profileGPU("", "t4"); g.Source != "nvml" || !g.AtLeast(9, 0) {
		t.Errorf("live: %+v", g)
	}
}

// withPython makes the doctor's Python print the given probe result.
func withPython(t *testing.T, probe string, err error) {
	saved := doctorRunner
	doctorRunner = func(_ context.Context, python string, args ...string) ([]byte, error) {
		if python != "/venv/bin/python" {
			t.Errorf("ran %q", python)
		}
		return []byte("GPUOPT_DOCTOR_JSON " + probe + "\n"), err
	}
	t.Cleanup(func() { doctorRunner = saved })
}

const cpuTorchProbe = `{"python": "3.12.3", "executable": "/venv/bin/python", "system": "Linux", "machine": "x86_64",
 "dists": [{"name": "torch", "version": "2.11.0+cpu"}],
 "torch": {"version": "2.11.0+cpu", "cuda": null, "cuda_available": false},
 "xgboost": {"missing": true, "error": "ModuleNotFoundError"}, "cupy": {"missing": true}, "cudf": {"missing": true}}`

func TestDoctorCommand(t *testing.T) {
	onMachine(t, fakeH100)
	withPython(t, strings.ReplaceAll(cpuTorchProbe, "\n", ""), nil)
	out, err := executeTable(t, newDoctorCommand(), "--python", "/venv/bin/python")
	var ec exitCodeError
	if !errors.As(err, &ec) || ec.code != exitFindings {
		t.Errorf("a CPU-only torch on a GPU machine must exit 1: %v", err)
	}
	for _, want := range []string{"torch error 2.11.0+cpu is a CPU-only build", "fix: pip uninstall -y torch && pip install torch --index-url https://download.pytorch.org/whl/cu130", "xgboost missing"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}

	out, _ = execute(t, newDoctorCommand(), "--python", "/venv/bin/python", "--json")
	var r hardware.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.CUDADriverVersion != "13.0" || r.PythonVersion != "3.12.3" {
		t.Fatalf("%v\n%s", err, out)
	}
	if c, _ := r.Check("torch"); c.Status != hardware.StatusError {
		t.Errorf("%+v", c)
	}
}

func TestDoctorWithoutPythonExitsZero(t *testing.T) {
	onMachine(t, fakeNoDriver)
	saved := doctorRunner
	doctorRunner = func(context.Context, string, ...string) ([]byte, error) {
		return nil, &exec.Error{Name: "python3", Err: exec.ErrNotFound}
	}
	t.Cleanup(func() { doctorRunner = saved })
	out, err := executeTable(t, newDoctorCommand())
	if err != nil || !strings.Contains(out, "python3 not found") || !strings.Contains(out, "nvidia driver missing") {
		t.Errorf("%v\n%s", err, out)
	}
}
