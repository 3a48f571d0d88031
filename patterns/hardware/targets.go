package hardware

import (
	"sort"
	"strings"
)

const gb = 1 << 30 // GiB

// targets is the built-in table of common GPUs for machines without one.
var targets = map[string]GPU{
	"rtx-2080":        {Name: "NVIDIA GeForce RTX 2080", MemoryTotalBytes: 8 * gb, ComputeMajor: 7, ComputeMinor: 5},
	"rtx-3080":        {Name: "NVIDIA GeForce RTX 3080", MemoryTotalBytes: 10 * gb, ComputeMajor: 8, ComputeMinor: 6},
	"rtx-3090":        {Name: "NVIDIA GeForce RTX 3090", MemoryTotalBytes: 24 * gb, ComputeMajor: 8, ComputeMinor: 6},
	"rtx-4080-laptop": {Name: "NVIDIA GeForce RTX 4080 Laptop GPU", MemoryTotalBytes: 12 * gb, ComputeMajor: 8, ComputeMinor: 9},
	"rtx-4090":        {Name: "NVIDIA GeForce RTX 4090", MemoryTotalBytes: 24 * gb, ComputeMajor: 8, ComputeMinor: 9},
	"t4":              {Name: "NVIDIA T4", MemoryTotalBytes: 16 * gb, ComputeMajor: 7, ComputeMinor: 5},
	"l4":              {Name: "NVIDIA L4", MemoryTotalBytes: 24 * gb, ComputeMajor: 8, ComputeMinor: 9},
	"a10":             {Name: "NVIDIA A10", MemoryTotalBytes: 24 * gb, ComputeMajor: 8, ComputeMinor: 6},
	"a100-40gb":       {Name: "NVIDIA A100 40GB", MemoryTotalBytes: 40 * gb, ComputeMajor: 8, ComputeMinor: 0},
	"a100-80gb":       {Name: "NVIDIA A100 80GB", MemoryTotalBytes: 80 * gb, ComputeMajor: 8, ComputeMinor: 0},
	"h100":            {Name: "NVIDIA H100 80GB", MemoryTotalBytes: 80 * gb, ComputeMajor: 9, ComputeMinor: 0},
	"h200":            {Name: "NVIDIA H200 141GB", MemoryTotalBytes: 141 * gb, ComputeMajor: 9, ComputeMinor: 0},
}

// aliases map other common spellings to table names.
var aliases = map[string]string{"a100": "a100-80gb", "4090": "rtx-4090", "3090": "rtx-3090"}

// CanonicalName normalises "RTX 4090", "rtx_4090", "NVIDIA RTX-4090" to
// "rtx-4090".
func CanonicalName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "nvidia")
	n = strings.TrimPrefix(n, "geforce")
	n = strings.NewReplacer("_", "-", " ", "-").Replace(strings.TrimSpace(n))
	n = strings.Trim(n, "-")
	if a, ok := aliases[n]; ok {
		return a
	}
	return n
}

// LookupTarget returns the table entry for a GPU name.
func LookupTarget(name string) (GPU, bool) {
	g, ok := targets[CanonicalName(name)]
	return withFeatures(g), ok
}

// TargetNames lists the table's names, sorted.
func TargetNames() []string {
	var out []string
	for k := range targets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
