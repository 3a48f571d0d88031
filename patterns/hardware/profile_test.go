package hardware

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// fakeNVML is a machine described by its devices (or by the error Init
// returns).
type fakeNVML struct {
	initErr error
	gpus    []GPU
	panics  bool
}

func (f fakeNVML) Init() error {
	if f.panics {
		panic("driver exploded")
	}
	return f.initErr
}
func (fakeNVML) Shutdown()                       {}
func (fakeNVML) DriverVersion() (string, error)  { return "580.159.04", nil }
func (fakeNVML) CUDADriverVersion() (int, error) { return 13000, nil }
func (f fakeNVML) DeviceCount() (int, error)     { return len(f.gpus), nil }
func (f fakeNVML) Device(i int) (GPU, error)     { return f.gpus[i], nil }

var h100 = GPU{Name: "NVIDIA H100 80GB HBM3", MemoryTotalBytes: 85_520_809_984, ComputeMajor: 9}
var noDriver = fakeNVML{initErr: errors.New("no NVIDIA driver found (libnvidia-ml.so.1 is not installed)")}

func TestDetect(t *testing.T) {
	cases := []struct {
		name    string
		opts    Options
		source  string
		primary string
		cc      string
		bf16    bool
	}{
		{"no gpu", Options{NVML: noDriver}, "none", "", "", false},
		{"no gpu, target from config", Options{NVML: noDriver, Target: "RTX 4090"}, "target", "NVIDIA GeForce RTX 4090", "8.9", true},
		{"live h100", Options{NVML: fakeNVML{gpus: []GPU{h100}}}, "nvml", "NVIDIA H100 80GB HBM3", "9.0", true},
		{"live wins over config target", Options{NVML: fakeNVML{gpus: []GPU{h100}}, Target: "t4"}, "nvml", "NVIDIA H100 80GB HBM3", "9.0", true},
		{"explicit target wins over live", Options{NVML: fakeNVML{gpus: []GPU{h100}}, Target: "t4", Explicit: true}, "target", "NVIDIA T4", "7.5", false},
		{"two gpus: first is primary", Options{NVML: fakeNVML{gpus: []GPU{h100, {Name: "NVIDIA T4", ComputeMajor: 7, ComputeMinor: 5}}}}, "nvml", "NVIDIA H100 80GB HBM3", "9.0", true},
		{"panicking driver", Options{NVML: fakeNVML{panics: true}}, "none", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Detect(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if p.Source != c.source {
				t.Errorf("source %q, want %q (%s)", p.Source, c.source, p.Message)
			}
			g := p.Primary()
			if c.primary == "" {
				if g != nil {
					t.Errorf("primary %+v, want none", g)
				}
				if p.Message == "" || p.NVMLError == "" {
					t.Errorf("no explanation: %+v", p)
				}
				return
			}
			if g == nil || g.Name != c.primary || g.ComputeCapability() != c.cc || g.BF16 != c.bf16 {
				t.Errorf("primary %+v", g)
			}
		})
	}
}

func TestTargetTable(t *testing.T) {
	g, ok := LookupTarget("rtx_4090")
	if !ok || g.ComputeCapability() != "8.9" || g.VRAMGB() != 24 || !g.TF32 {
		t.Errorf("rtx-4090: %+v", g)
	}
	for _, name := range []string{"rtx-2080", "rtx-3080", "rtx-3090", "rtx-4080-laptop", "rtx-4090", "t4", "l4", "a10", "a100-40gb", "a100-80gb", "h100", "h200"} {
		if _, ok := LookupTarget(name); !ok {
			t.Errorf("%s missing from the table", name)
		}
	}
	if _, err := Detect(Options{NVML: noDriver, Target: "gtx-480"}); err == nil {
		t.Error("unknown target accepted")
	}
}

func TestResolveTarget(t *testing.T) {
	t.Setenv("GPUOPT_TARGET_GPU", "")
	if n, ex := ResolveTarget("", "l4"); n != "l4" || ex {
		t.Errorf("config: %s %v", n, ex)
	}
	t.Setenv("GPUOPT_TARGET_GPU", "a10")
	if n, ex := ResolveTarget("", "l4"); n != "a10" || !ex {
		t.Errorf("env: %s %v", n, ex)
	}
	if n, ex := ResolveTarget("h100", "l4"); n != "h100" || !ex {
		t.Errorf("flag: %s %v", n, ex)
	}
}

// TestLiveNVML reads the real driver. It runs where GPUOPT_LIVE_NVML=1 (the
// project's GPU machine); elsewhere the real library must fail cleanly.
func TestLiveNVML(t *testing.T) {
	p, err := Detect(Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(p, "", "  ")
	t.Logf("%s", out)
	if os.Getenv("GPUOPT_LIVE_NVML") != "1" {
		if p.Source == "none" && p.NVMLError == "" {
			t.Error("no GPU and no reason given")
		}
		return
	}
	g := p.Primary()
	if p.Source != "nvml" || g == nil || g.MemoryTotalBytes == 0 || g.ComputeMajor == 0 || p.CUDADriverVersion == "" {
		t.Fatalf("live NVML read nothing useful: %s", out)
	}
}
