package hardware

import (
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	profile := func(opts Options) Profile {
		t.Helper()
		p, err := Detect(opts)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	none := profile(Options{NVML: noDriver})
	live := profile(Options{NVML: oneH100})
	t4Target := profile(Options{NVML: noDriver, TargetName: "t4"})
	l4Live := profile(Options{NVML: FakeNVML{CUDA: 12040, GPUs: []GPU{{Name: "NVIDIA L4", MemoryTotalBytes: 23034 << 20, ComputeMajor: 8, ComputeMinor: 9}}}})
	bf16 := Need{MinMajor: 8}

	cases := []struct {
		name       string
		p          Profile
		need       Need
		verdict    Verdict
		gpu        string
		assumption string // substring
		reason     string // substring
	}{
		{"no need, no gpu", none, Need{}, Fire, "", "", ""},
		{"bf16, no gpu: hint", none, bf16, Hint, "", "assumes a GPU with compute capability >= 8.0; no GPU detected and no target configured (set --target-gpu", ""},
		{"needs any gpu, no gpu: hint", none, Need{NeedsGPU: true}, Hint, "", "assumes a CUDA GPU;", ""},
		{"vram bound, no gpu: hint", none, Need{MaxVRAMGB: 16}, Hint, "", "at most 16 GB of memory", ""},
		{"bf16 on a live h100", live, bf16, Fire, "NVIDIA H100 80GB HBM3 (sm_90)", "on NVIDIA H100 80GB HBM3 (sm_90), read through NVML", ""},
		{"bf16 on a t4 target: silent", t4Target, bf16, Silent, "NVIDIA T4 (sm_75)", "", "NVIDIA T4 (sm_75) is below compute capability 8.0"},
		{"any gpu on a t4 target", t4Target, Need{NeedsGPU: true}, Fire, "NVIDIA T4 (sm_75)", "assumes target t4, NVIDIA T4 (sm_75)", ""},
		{"small-card advice on an h100: silent", live, Need{MaxVRAMGB: 24}, Silent, "NVIDIA H100 80GB HBM3 (sm_90)", "", "more than 24 GB"},
		{"small-card advice on a t4", t4Target, Need{MaxVRAMGB: 24}, Fire, "NVIDIA T4 (sm_75)", "", ""},
		{"big-card advice on a t4: silent", t4Target, Need{MinVRAMGB: 40}, Silent, "NVIDIA T4 (sm_75)", "", "less than 40 GB"},
		{"a live L4 (22.5 GiB) counts as 24 GB", l4Live, Need{MinVRAMGB: 24, MinMajor: 8, MinMinor: 9}, Fire, "NVIDIA L4 (sm_89)", "", ""},
		{"minor version matters", l4Live, Need{MinMajor: 9}, Silent, "NVIDIA L4 (sm_89)", "", "below compute capability 9.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.p.Decide(c.need)
			if d.Verdict != c.verdict || d.GPU != c.gpu {
				t.Fatalf("%s on %q; want %s on %q (%+v)", d.Verdict, d.GPU, c.verdict, c.gpu, d)
			}
			if !strings.Contains(d.Assumption, c.assumption) || !strings.Contains(d.Reason, c.reason) {
				t.Errorf("assumption %q reason %q", d.Assumption, d.Reason)
			}
			if (d.Verdict == Silent) != (d.Reason != "") {
				t.Errorf("a reason exactly when silent: %+v", d)
			}
		})
	}
}

func TestRuleMessageNamesTheGPU(t *testing.T) {
	p, _ := Detect(Options{NVML: noDriver, TargetName: "h100", Explicit: true})
	d := p.Decide(Need{MinMajor: 8})
	if msg := "bf16 is native on " + d.GPU; msg != "bf16 is native on NVIDIA H100 80GB (sm_90)" {
		t.Errorf("%q", msg)
	}
	if Fire.String() != "fire" || Hint.String() != "hint" || Silent.String() != "silent" {
		t.Error("verdict names")
	}
}
