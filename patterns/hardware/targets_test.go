package hardware

import (
	"sort"
	"testing"
)

func TestTargetTable(t *testing.T) {
	cases := []struct {
		name   string
		cc     string
		gb     float64
		bf16   bool
		expect string // GPU name
	}{
		{"rtx-2080", "7.5", 8, false, "NVIDIA GeForce RTX 2080"},
		{"rtx-3080", "8.6", 10, true, "NVIDIA GeForce RTX 3080"},
		{"rtx-3090", "8.6", 24, true, "NVIDIA GeForce RTX 3090"},
		{"rtx-4080-laptop", "8.9", 12, true, "NVIDIA GeForce RTX 4080 Laptop GPU"},
		{"rtx-4090", "8.9", 24, true, "NVIDIA GeForce RTX 4090"},
		{"t4", "7.5", 16, false, "NVIDIA T4"},
		{"l4", "8.9", 24, true, "NVIDIA L4"},
		{"a10", "8.6", 24, true, "NVIDIA A10"},
		{"a100-40gb", "8.0", 40, true, "NVIDIA A100 40GB"},
		{"a100-80gb", "8.0", 80, true, "NVIDIA A100 80GB"},
		{"h100", "9.0", 80, true, "NVIDIA H100 80GB"},
		{"h200", "9.0", 141, true, "NVIDIA H200 141GB"},
		{"v100", "7.0", 16, false, "NVIDIA Tesla V100"},
		{"rtx-5090", "12.0", 32, true, "NVIDIA GeForce RTX 5090"},
	}
	for _, c := range cases {
		g, ok := LookupTarget(c.name)
		if !ok || g.ComputeCapability() != c.cc || g.VRAMGB() != c.gb || g.BF16 != c.bf16 || g.TF32 != c.bf16 || g.Name != c.expect {
			t.Errorf("%s: %+v (found %v)", c.name, g, ok)
		}
	}
}

func TestTargetNamesAreTolerant(t *testing.T) {
	cases := map[string]string{
		"RTX 4090":                "rtx-4090",
		"rtx_4090":                "rtx-4090",
		"  Rtx-4090 ":             "rtx-4090",
		"NVIDIA GeForce RTX 4090": "rtx-4090",
		"4090":                    "rtx-4090",
		"RTX 4080 Laptop GPU":     "rtx-4080-laptop",
		"4080_laptop":             "rtx-4080-laptop",
		"A100":                    "a100-80gb",
		"A100 40GB":               "a100-40gb",
		"H100":                    "h100",
		"nvidia h100 80gb":        "h100",
		"Tesla T4":                "t4",
		"NVIDIA  L4":              "l4",
	}
	for in, want := range cases {
		if got := CanonicalName(in); got != want {
			t.Errorf("CanonicalName(%q) = %q, want %q", in, got, want)
		}
		if _, ok := LookupTarget(in); !ok {
			t.Errorf("LookupTarget(%q) failed", in)
		}
	}
	for _, bad := range []string{"", "gtx-480", "rtx", "h1000"} {
		if g, ok := LookupTarget(bad); ok {
			t.Errorf("LookupTarget(%q) = %+v", bad, g)
		}
	}
}

func TestTargetsList(t *testing.T) {
	list := Targets()
	names := TargetNames()
	if len(list) != len(names) || !sort.StringsAreSorted(names) {
		t.Fatalf("%d targets, %d names", len(list), len(names))
	}
	for i := 1; i < len(list); i++ {
		a, b := list[i-1].GPU, list[i].GPU
		if a.ComputeMajor*10+a.ComputeMinor > b.ComputeMajor*10+b.ComputeMinor {
			t.Errorf("%s before %s: not ordered by compute capability", list[i-1].Name, list[i].Name)
		}
	}
	for _, tg := range list {
		if g, ok := LookupTarget(tg.Name); !ok || g != tg.GPU || CanonicalName(tg.Name) != tg.Name {
			t.Errorf("%s does not look itself up", tg.Name)
		}
	}
}
