package hardware

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
)

var (
	h100 = GPU{Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-1", MemoryTotalBytes: 85_520_809_984, MemoryUsedBytes: 503_316_480, ComputeMajor: 9, PowerLimitWatts: 700}
	t4   = GPU{Name: "Tesla T4", MemoryTotalBytes: 15_843_721_216, ComputeMajor: 7, ComputeMinor: 5}

	noDriver = FakeNVML{InitErr: errors.New("no NVIDIA driver found (libnvidia-ml.so.1 could not be loaded)")}
	oneH100  = FakeNVML{Driver: "580.159.04", CUDA: 13000, GPUs: []GPU{h100}}
	twoGPUs  = FakeNVML{Driver: "550.54.15", CUDA: 12040, GPUs: []GPU{t4, h100}}
)

func TestDetect(t *testing.T) {
	cases := []struct {
		name    string
		opts    Options
		source  string
		primary string // "" for none
		cc      string
		bf16    bool
		hasGPU  bool
		cuda    string
		message string // a substring of the message
	}{
		{"no driver", Options{NVML: noDriver}, SourceNone, "", "", false, false, "", "no NVIDIA GPU: no NVIDIA driver found"},
		{"no driver, target from config", Options{NVML: noDriver, TargetName: "RTX 4090"}, SourceTarget, "NVIDIA GeForce RTX 4090", "8.9", true, false, "", "target rtx-4090: NVIDIA GeForce RTX 4090, 24 GB, compute capability 8.9 (no NVIDIA GPU"},
		{"no driver, explicit target", Options{NVML: noDriver, TargetName: "t4", Explicit: true}, SourceTarget, "NVIDIA T4", "7.5", false, false, "", "target t4"},
		{"driver without GPUs", Options{NVML: FakeNVML{Driver: "580.1", CUDA: 13000}}, SourceNone, "", "", false, false, "13.0", "the NVIDIA driver reports no GPU"},
		{"live h100", Options{NVML: oneH100}, SourceNVML, "NVIDIA H100 80GB HBM3", "9.0", true, true, "13.0", "NVIDIA H100 80GB HBM3, 80 GB, compute capability 9.0, driver 580.159.04, CUDA 13.0 (from NVML)"},
		{"live wins over config target", Options{NVML: oneH100, TargetName: "t4"}, SourceNVML, "NVIDIA H100 80GB HBM3", "9.0", true, true, "13.0", "target t4 from the config is not used"},
		{"explicit target wins over live", Options{NVML: oneH100, TargetName: "t4", Explicit: true}, SourceTarget, "NVIDIA T4", "7.5", false, true, "13.0", "given explicitly; this machine has NVIDIA H100 80GB HBM3 (sm_90)"},
		{"two gpus: the first is primary", Options{NVML: twoGPUs}, SourceNVML, "Tesla T4", "7.5", false, true, "12.4", "2 GPUs, rules assume GPU 0"},
		{"second device unreadable", Options{NVML: FakeNVML{CUDA: 12020, GPUs: []GPU{h100, t4}, DeviceErr: map[int]error{1: errors.New("GPU is lost")}}}, SourceNVML, "NVIDIA H100 80GB HBM3", "9.0", true, true, "12.2", ""},
		{"panicking library", Options{NVML: FakeNVML{Panic: true}}, SourceNone, "", "", false, false, "", "NVML failed: fake NVML: driver exploded"},
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
			if p.HasGPU() != c.hasGPU || p.CUDADriverVersion != c.cuda {
				t.Errorf("HasGPU %v, CUDA %q; want %v, %q", p.HasGPU(), p.CUDADriverVersion, c.hasGPU, c.cuda)
			}
			if !strings.Contains(p.Message, c.message) {
				t.Errorf("message %q lacks %q", p.Message, c.message)
			}
			if p.CPUCount < 1 {
				t.Errorf("cpu count %d", p.CPUCount)
			}
			g := p.Primary()
			major, minor, ok := p.ComputeCapability()
			if c.primary == "" {
				if g != nil || p.Known() || ok || p.VRAMGB() != 0 || p.Describe() != "no GPU" {
					t.Errorf("primary %+v, want none", g)
				}
				if p.NVMLError == "" {
					t.Error("no GPU and no reason given")
				}
				return
			}
			if g == nil || g.Name != c.primary || g.ComputeCapability() != c.cc || g.BF16 != c.bf16 || g.TF32 != c.bf16 {
				t.Fatalf("primary %+v", g)
			}
			if !ok || g.ComputeMajor != major || g.ComputeMinor != minor || !p.Known() || p.VRAMGB() != g.VRAMGB() {
				t.Errorf("profile accessors disagree with the primary GPU: %d.%d %v", major, minor, ok)
			}
		})
	}
}

func TestDetectReadsEveryField(t *testing.T) {
	p, _ := Detect(Options{NVML: oneH100})
	g := p.GPUs[0]
	if g.UUID != "GPU-1" || g.MemoryUsedBytes != 503_316_480 || g.PowerLimitWatts != 700 || p.DriverVersion != "580.159.04" {
		t.Errorf("fields lost: %+v %+v", g, p)
	}
	if got := p.Describe(); got != "NVIDIA H100 80GB HBM3 (sm_90)" {
		t.Errorf("Describe %q", got)
	}
	if v := p.VRAMGB(); v < 79.5 || v > 79.7 {
		t.Errorf("VRAMGB %.2f, want 79.6 GiB", v)
	}
}

func TestUnknownTarget(t *testing.T) {
	_, err := Detect(Options{NVML: noDriver, TargetName: "gtx-480"})
	if err == nil || !strings.Contains(err.Error(), `"gtx-480"`) || !strings.Contains(err.Error(), "rtx-4090") {
		t.Errorf("unknown target: %v", err)
	}
}

func TestProfileJSON(t *testing.T) {
	decode := func(p Profile) map[string]any {
		t.Helper()
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	none, _ := Detect(Options{NVML: noDriver})
	m := decode(none)
	if m["gpu"] != nil || m["source"] != "none" || m["target"] != nil || !strings.Contains(m["message"].(string), "no NVIDIA GPU") {
		t.Errorf("no GPU: %v", m)
	}
	live, _ := Detect(Options{NVML: oneH100})
	m = decode(live)
	gpu, _ := m["gpu"].(map[string]any)
	if gpu["name"] != "NVIDIA H100 80GB HBM3" || gpu["compute_major"] != 9.0 || m["cuda_driver_version"] != "13.0" || len(m["gpus"].([]any)) != 1 {
		t.Errorf("h100: %v", m)
	}
	var back Profile
	b, _ := json.Marshal(live)
	if err := json.Unmarshal(b, &back); err != nil || back.Source != SourceNVML || back.GPUs[0].Name != h100.Name {
		t.Errorf("round trip: %v %+v", err, back)
	}
}

// countingNVML counts Init calls.
type countingNVML struct {
	FakeNVML
	mu    sync.Mutex
	inits int
}

func (c *countingNVML) Init() error {
	c.mu.Lock()
	c.inits++
	c.mu.Unlock()
	return c.FakeNVML.Init()
}

func TestLazyReadsNVMLOnce(t *testing.T) {
	lib := &countingNVML{FakeNVML: oneH100}
	l := &Lazy{NVML: lib}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, err := l.Detect("", false); err != nil || p.Source != SourceNVML {
				t.Errorf("%v %+v", err, p)
			}
		}()
	}
	wg.Wait()
	p, err := l.Detect("rtx-3080", true)
	if err != nil || p.Source != SourceTarget || p.Primary().Name != "NVIDIA GeForce RTX 3080" {
		t.Errorf("target after cached read: %v %+v", err, p)
	}
	p, _ = l.Detect("", false)
	if p.Source != SourceNVML || p.Target != nil {
		t.Errorf("a target leaked into a later profile: %+v", p)
	}
	p.GPUs[0].Name = "changed"
	if p2, _ := l.Detect("", false); p2.GPUs[0].Name != h100.Name {
		t.Error("profiles share the cached GPU slice")
	}
	if lib.inits != 1 {
		t.Errorf("NVML initialised %d times, want 1", lib.inits)
	}
}

func TestResolveTarget(t *testing.T) {
	cases := []struct {
		flag, env, config string
		name              string
		explicit          bool
	}{
		{"", "", "", "", false},
		{"", "", "l4", "l4", false},
		{"", "a10", "l4", "a10", true},
		{"h100", "a10", "l4", "h100", true},
		{"  ", " ", " t4 ", "t4", false},
	}
	for _, c := range cases {
		t.Setenv(EnvTarget, c.env)
		if n, ex := ResolveTarget(c.flag, c.config); n != c.name || ex != c.explicit {
			t.Errorf("ResolveTarget(%q, %q) with env %q = %q, %v; want %q, %v", c.flag, c.config, c.env, n, ex, c.name, c.explicit)
		}
	}
}

// TestLiveNVML reads the real driver. Where GPUOPT_LIVE_NVML=1 (a GPU
// machine) it must find a GPU; elsewhere the real library must fail
// cleanly and say why.
func TestLiveNVML(t *testing.T) {
	p, err := Detect(Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.MarshalIndent(p, "", "  ")
	t.Logf("%s", out)
	if os.Getenv("GPUOPT_LIVE_NVML") != "1" {
		if p.Source == SourceNone && p.NVMLError == "" {
			t.Error("no GPU and no reason given")
		}
		return
	}
	g := p.Primary()
	if p.Source != SourceNVML || g == nil || g.MemoryTotalBytes == 0 || g.ComputeMajor == 0 || g.UUID == "" || p.DriverVersion == "" || p.CUDADriverVersion == "" {
		t.Fatalf("live NVML read nothing useful: %s", out)
	}
	t.Logf("rules assume: %s", p.Describe())
}
