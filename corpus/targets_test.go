package corpus

import "github.com/gpuopt/gpuopt/patterns"

// TargetGPU returns a test profile for the few GPUs the corpus names.
func TargetGPU(name string) (patterns.GPU, bool) {
	switch name {
	case "h100":
		return patterns.GPU{Name: "NVIDIA H100", ComputeMajor: 9, VRAMGB: 80, Source: "target"}, true
	case "rtx-4090":
		return patterns.GPU{Name: "NVIDIA GeForce RTX 4090", ComputeMajor: 8, ComputeMinor: 9, VRAMGB: 24, Source: "target"}, true
	case "t4":
		return patterns.GPU{Name: "NVIDIA T4", ComputeMajor: 7, ComputeMinor: 5, VRAMGB: 16, Source: "target"}, true
	}
	return patterns.GPU{}, false
}
