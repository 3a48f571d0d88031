package patterns

import (
	"fmt"

	"github.com/gpuopt/gpuopt/rewrite"
)

// GPU is the slice of the hardware profile rules are gated on. The CLI and
// the language server fill it from NVML or from a configured target GPU
// (package patterns/hardware); the zero value means no GPU is known.
type GPU struct {
	Name         string  // "NVIDIA H100 80GB HBM3"
	ComputeMajor int     // 9 for sm_90
	ComputeMinor int     // 0 for sm_90
	VRAMGB       float64 // total device memory in GB
	// Source is "nvml" (a live GPU), "target" (configured) or "" (none).
	Source string
}

// Known reports whether a GPU (live or configured) is in the profile.
func (g GPU) Known() bool { return g.Source != "" }

// Describe names the GPU for messages: "NVIDIA H100 (sm_90)".
func (g GPU) Describe() string {
	return fmt.Sprintf("%s (sm_%d%d)", g.Name, g.ComputeMajor, g.ComputeMinor)
}

// AtLeast reports compute capability >= major.minor.
func (g GPU) AtLeast(major, minor int) bool {
	return g.ComputeMajor > major || g.ComputeMajor == major && g.ComputeMinor >= minor
}

// Need is a rule's hardware requirement.
type Need struct {
	// MinCompute is the compute capability a rule needs, as major*10+minor
	// (80 for bf16/TF32); 0 for none.
	MinCompute int
	// MaxVRAMGB fires the rule only on GPUs with at most this much memory
	// (0: any).
	MaxVRAMGB float64
}

// Verdict is what a gate decides.
type Verdict struct {
	// Fire: the rule applies with its normal fix.
	Fire bool
	// Hint: the rule applies but, with no GPU known, only as a hint.
	Hint bool
	// Assumption names the hardware the message relies on:
	// "bf16 is native on NVIDIA H100 (sm_90)" style callers format it.
	Assumption string
}

// Silent reports that the rule must not fire.
func (v Verdict) Silent() bool { return !v.Fire && !v.Hint }

// Gate decides whether a rule with need n fires on this environment. With
// no GPU known it downgrades to a hint and says what it assumed.
func (e *Env) Gate(n Need) Verdict {
	g := e.GPU
	if !g.Known() {
		a := "no GPU detected and no target configured (set --target-gpu or target-gpu in [tool.gpuopt])"
		if n.MinCompute > 0 {
			a = fmt.Sprintf("assumes a GPU with compute capability >= %d.%d; %s", n.MinCompute/10, n.MinCompute%10, a)
		}
		return Verdict{Hint: true, Assumption: a}
	}
	if n.MinCompute > 0 && !g.AtLeast(n.MinCompute/10, n.MinCompute%10) {
		return Verdict{}
	}
	if n.MaxVRAMGB > 0 && g.VRAMGB > n.MaxVRAMGB {
		return Verdict{}
	}
	return Verdict{Fire: true, Assumption: g.Describe()}
}

// Downgrade turns a fix into a hint when the verdict is only a hint.
func (v Verdict) Downgrade(fx *rewrite.Fix) *rewrite.Fix {
	if fx != nil && v.Hint {
		fx.Applicability = rewrite.Hint
	}
	return fx
}
