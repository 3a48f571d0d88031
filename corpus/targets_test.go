package corpus

import (
	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/patterns/hardware"
)

// TargetGPU returns the rules' view of a GPU from the built-in target table.
func TargetGPU(name string) (patterns.GPU, bool) {
	g, ok := hardware.LookupTarget(name)
	if !ok {
		return patterns.GPU{}, false
	}
	return patterns.GPU{Name: g.Name, ComputeMajor: g.ComputeMajor, ComputeMinor: g.ComputeMinor, VRAMGB: g.VRAMGB(), Source: "target", Count: 1}, true
}
