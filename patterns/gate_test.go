package patterns

import (
	"strings"
	"testing"

	"github.com/gpuopt/gpuopt/patterns/hardware"
	"github.com/gpuopt/gpuopt/rewrite"
)

// targetGPU is what the CLI hands the rules for a configured target.
func targetGPU(t *testing.T, name string) GPU {
	t.Helper()
	g, ok := hardware.LookupTarget(name)
	if !ok {
		t.Fatalf("no target %q", name)
	}
	return GPU{Name: g.Name, ComputeMajor: g.ComputeMajor, ComputeMinor: g.ComputeMinor, VRAMGB: g.VRAMGB(), Source: "target"}
}

func TestGate(t *testing.T) {
	none := GPU{}
	h100 := GPU{Name: "NVIDIA H100 80GB HBM3", ComputeMajor: 9, VRAMGB: 79.6, Source: "nvml"}
	l4 := GPU{Name: "NVIDIA L4", ComputeMajor: 8, ComputeMinor: 9, VRAMGB: 22.5, Source: "nvml"}
	t4 := targetGPU(t, "t4")
	bf16 := Need{MinCompute: 80}

	cases := []struct {
		name       string
		gpu        GPU
		need       Need
		want       string // fire, hint or silent
		assumption string // substring
		reason     string // substring
	}{
		{"bf16, no gpu: hint", none, bf16, "hint", "assumes a GPU with compute capability >= 8.0; no GPU detected and no target configured (set --target-gpu", ""},
		{"any gpu, no gpu: hint", none, Need{}, "hint", "assumes a CUDA GPU;", ""},
		{"vram bound, no gpu: hint", none, Need{MaxVRAMGB: 16}, "hint", "at most 16 GB of memory", ""},
		{"bf16 on a live h100", h100, bf16, "fire", "NVIDIA H100 80GB HBM3 (sm_90)", ""},
		{"bf16 on a t4 target: silent", t4, bf16, "silent", "", "NVIDIA T4 (sm_75) is below compute capability 8.0"},
		{"any gpu on a t4 target", t4, Need{}, "fire", "NVIDIA T4 (sm_75)", ""},
		{"small-card advice on an h100: silent", h100, Need{MaxVRAMGB: 24}, "silent", "", "more than 24 GB"},
		{"small-card advice on a t4", t4, Need{MaxVRAMGB: 24}, "fire", "NVIDIA T4", ""},
		{"big-card advice on a t4: silent", t4, Need{MinVRAMGB: 40}, "silent", "", "less than 40 GB"},
		{"a live L4 (22.5 GiB) counts as 24 GB", l4, Need{MinVRAMGB: 24, MinCompute: 89}, "fire", "NVIDIA L4 (sm_89)", ""},
		{"minor version matters", l4, Need{MinCompute: 90}, "silent", "", "below compute capability 9.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := (&Env{GPU: c.gpu}).Gate(c.need)
			got := "silent"
			if v.Fire {
				got = "fire"
			} else if v.Hint {
				got = "hint"
			}
			if got != c.want {
				t.Fatalf("%s, want %s (%+v)", got, c.want, v)
			}
			if !strings.Contains(v.Assumption, c.assumption) || !strings.Contains(v.Reason, c.reason) {
				t.Errorf("assumption %q reason %q", v.Assumption, v.Reason)
			}
			if v.Silent() != (v.Reason != "") {
				t.Errorf("a reason exactly when silent: %+v", v)
			}
		})
	}
}

func TestGateNamesTheGPUForMessages(t *testing.T) {
	v := (&Env{GPU: targetGPU(t, "h100")}).Gate(Need{MinCompute: 80})
	if msg := "bf16 is native on " + v.Assumption; msg != "bf16 is native on NVIDIA H100 80GB (sm_90)" {
		t.Errorf("%q", msg)
	}
}

func TestAssertedTorchMajor(t *testing.T) {
	for src, want := range map[string]int{
		"import torch\nassert torch.__version__.split('.')[0] == '1'\n":           1,
		"import torch\nassert int(torch.__version__.split(\".\")[0]) == 1\n":      1,
		"import torch\nassert torch.__version__.startswith('2.')\n":               2,
		"import torch\nassert torch.__version__ >= '1.6'\n":                       -1, // a lower bound
		"import torch\nif True:\n    assert torch.__version__.startswith('1.')\n": -1, // not at module level
		"import torch\nprint(torch.__version__.split('.')[0] == '1')\n":           -1,
	} {
		f := rewrite.Parse("t.py", []byte(src))
		got, ok := assertedTorchMajor(f)
		if !ok {
			got = -1
		}
		if got != want {
			t.Errorf("%q: major %d, want %d", src, got, want)
		}
	}
}
