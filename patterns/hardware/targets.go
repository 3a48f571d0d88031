package hardware

import (
	"sort"
	"strings"
)

const gib = 1 << 30

// targets is the built-in table of common GPUs, for machines without one
// (CI, laptops). Memory is the marketed size in GiB; bf16 and TF32 follow
// from the compute capability (withFeatures).
var targets = map[string]GPU{
	"v100":            {Name: "NVIDIA Tesla V100", MemoryTotalBytes: 16 * gib, ComputeMajor: 7, ComputeMinor: 0},
	"rtx-2080":        {Name: "NVIDIA GeForce RTX 2080", MemoryTotalBytes: 8 * gib, ComputeMajor: 7, ComputeMinor: 5},
	"t4":              {Name: "NVIDIA T4", MemoryTotalBytes: 16 * gib, ComputeMajor: 7, ComputeMinor: 5},
	"rtx-3080":        {Name: "NVIDIA GeForce RTX 3080", MemoryTotalBytes: 10 * gib, ComputeMajor: 8, ComputeMinor: 6},
	"rtx-3090":        {Name: "NVIDIA GeForce RTX 3090", MemoryTotalBytes: 24 * gib, ComputeMajor: 8, ComputeMinor: 6},
	"a10":             {Name: "NVIDIA A10", MemoryTotalBytes: 24 * gib, ComputeMajor: 8, ComputeMinor: 6},
	"a100-40gb":       {Name: "NVIDIA A100 40GB", MemoryTotalBytes: 40 * gib, ComputeMajor: 8, ComputeMinor: 0},
	"a100-80gb":       {Name: "NVIDIA A100 80GB", MemoryTotalBytes: 80 * gib, ComputeMajor: 8, ComputeMinor: 0},
	"rtx-4080-laptop": {Name: "NVIDIA GeForce RTX 4080 Laptop GPU", MemoryTotalBytes: 12 * gib, ComputeMajor: 8, ComputeMinor: 9},
	"rtx-4090":        {Name: "NVIDIA GeForce RTX 4090", MemoryTotalBytes: 24 * gib, ComputeMajor: 8, ComputeMinor: 9},
	"l4":              {Name: "NVIDIA L4", MemoryTotalBytes: 24 * gib, ComputeMajor: 8, ComputeMinor: 9},
	"l40s":            {Name: "NVIDIA L40S", MemoryTotalBytes: 48 * gib, ComputeMajor: 8, ComputeMinor: 9},
	"h100":            {Name: "NVIDIA H100 80GB", MemoryTotalBytes: 80 * gib, ComputeMajor: 9, ComputeMinor: 0},
	"h200":            {Name: "NVIDIA H200 141GB", MemoryTotalBytes: 141 * gib, ComputeMajor: 9, ComputeMinor: 0},
	"rtx-5090":        {Name: "NVIDIA GeForce RTX 5090", MemoryTotalBytes: 32 * gib, ComputeMajor: 12, ComputeMinor: 0},
}

// aliases map other common spellings (after normalising) to table names.
var aliases = map[string]string{
	"a100":            "a100-80gb",
	"h100-80gb":       "h100",
	"h200-141gb":      "h200",
	"tesla-t4":        "t4",
	"tesla-v100":      "v100",
	"rtx-4080-mobile": "rtx-4080-laptop",
}

// CanonicalName normalises a GPU name to the table's spelling: "RTX 4090",
// "rtx_4090", "NVIDIA GeForce RTX 4090" and "4090" all give "rtx-4090".
// Names it cannot place are returned normalised but otherwise unchanged.
func CanonicalName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("_", "-", " ", "-").Replace(n)
	for strings.Contains(n, "--") {
		n = strings.ReplaceAll(n, "--", "-")
	}
	n = strings.Trim(n, "-")
	for _, prefix := range []string{"nvidia-", "geforce-"} {
		n = strings.TrimPrefix(n, prefix)
	}
	n = strings.TrimSuffix(n, "-gpu")
	if a, ok := aliases[n]; ok {
		return a
	}
	if _, ok := targets[n]; !ok {
		if _, ok := targets["rtx-"+n]; ok { // "4090", "4080-laptop"
			return "rtx-" + n
		}
	}
	return n
}

// LookupTarget returns the table entry for a GPU name, spelt as
// CanonicalName accepts.
func LookupTarget(name string) (GPU, bool) {
	g, ok := targets[CanonicalName(name)]
	if !ok {
		return GPU{}, false
	}
	return withFeatures(g), true
}

// Target is one entry of the built-in table.
type Target struct {
	Name string // "rtx-4090"
	GPU  GPU
}

// Targets lists the built-in table, ordered by compute capability, then
// memory, then name: the order of help text.
func Targets() []Target {
	out := make([]Target, 0, len(targets))
	for name, g := range targets {
		out = append(out, Target{name, withFeatures(g)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].GPU, out[j].GPU
		switch {
		case a.ComputeMajor != b.ComputeMajor:
			return a.ComputeMajor < b.ComputeMajor
		case a.ComputeMinor != b.ComputeMinor:
			return a.ComputeMinor < b.ComputeMinor
		case a.MemoryTotalBytes != b.MemoryTotalBytes:
			return a.MemoryTotalBytes < b.MemoryTotalBytes
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// TargetNames lists the table's names, sorted alphabetically.
func TargetNames() []string {
	out := make([]string, 0, len(targets))
	for k := range targets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
