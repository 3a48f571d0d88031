package patterns

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// GPU is the slice of the hardware profile rules are gated on. The CLI and
// the language server fill it from NVML or from a configured target GPU
// (package patterns/hardware); the zero value means no GPU is known.
type GPU struct {
	Name         string  // "NVIDIA H100 80GB HBM3"
	ComputeMajor int     // 9 for sm_90
	ComputeMinor int     // 0 for sm_90
	VRAMGB       float64 // total device memory in GB as NVML reports it
	// Source is "nvml" (a live GPU), "target" (configured) or "" (none).
	Source string
	// Count is how many GPUs the profile has: NVML's device count, or 1
	// for a configured target (it names one GPU); 0 when unknown.
	Count int
}

// Single reports a profile known to have exactly one GPU: code paths
// that run only on several GPUs do not run there.
func (g GPU) Single() bool { return g.Known() && g.Count == 1 }

// Known reports whether a GPU (live or configured) is in the profile.
func (g GPU) Known() bool { return g.Source != "" }

// Describe names the GPU for messages: "NVIDIA H100 (sm_90)".
func (g GPU) Describe() string {
	return g.Name + " (sm_" + strconv.Itoa(g.ComputeMajor) + strconv.Itoa(g.ComputeMinor) + ")"
}

// AtLeast reports compute capability >= major.minor.
func (g GPU) AtLeast(major, minor int) bool {
	return g.ComputeMajor > major || g.ComputeMajor == major && g.ComputeMinor >= minor
}

// Need is a rule's hardware requirement. Every gated rule needs a CUDA GPU;
// the zero Need asks for nothing more.
type Need struct {
	// MinCompute is the compute capability a rule needs, as major*10+minor
	// (80 for bf16/TF32); 0 for none.
	MinCompute int
	// MinVRAMGB and MaxVRAMGB bound the GPU's memory in GB as cards are
	// sold (0: no bound); MaxVRAMGB is for advice that only pays on small
	// cards. NVML reports up to 7% less than the marketed size (an L4 sold
	// with 24 GB shows 22.5 GiB), so MinVRAMGB allows for that.
	MinVRAMGB, MaxVRAMGB float64
}

// describe renders what n asks for: "a GPU with compute capability >= 8.0".
func (n Need) describe() string {
	var parts []string
	if n.MinCompute > 0 {
		parts = append(parts, fmt.Sprintf("compute capability >= %d.%d", n.MinCompute/10, n.MinCompute%10))
	}
	if n.MinVRAMGB > 0 {
		parts = append(parts, fmt.Sprintf("at least %.0f GB of memory", n.MinVRAMGB))
	}
	if n.MaxVRAMGB > 0 {
		parts = append(parts, fmt.Sprintf("at most %.0f GB of memory", n.MaxVRAMGB))
	}
	if len(parts) == 0 {
		return "a CUDA GPU"
	}
	return "a GPU with " + strings.Join(parts, " and ")
}

// minVRAMSlack is the share of the marketed memory a card must report to
// meet a MinVRAMGB.
const minVRAMSlack = 0.9

// NoGPUAdvice is how to tell gpuopt which GPU to assume.
const NoGPUAdvice = "no GPU detected and no target configured (set --target-gpu, GPUOPT_TARGET_GPU or target-gpu in [tool.gpuopt])"

// Verdict is what a gate decides.
type Verdict struct {
	// Fire: the rule applies with its normal fix.
	Fire bool
	// Hint: the rule applies but, with no GPU known, only as a hint.
	Hint bool
	// Assumption names the hardware the message relies on: the GPU
	// ("NVIDIA H100 80GB HBM3 (sm_90)") when the rule fires, or for a hint
	// what was assumed and how to name the real hardware.
	Assumption string
	// Reason says why a silent verdict is silent.
	Reason string
}

// Silent reports that the rule must not fire.
func (v Verdict) Silent() bool { return !v.Fire && !v.Hint }

// Gate decides whether a rule with need n fires on this environment: with a
// GPU (live or target) it fires when the GPU meets n and stays silent when
// it does not; with no GPU known it downgrades to a hint that says what it
// assumed.
func (e *Env) Gate(n Need) Verdict {
	g := e.GPU
	if !g.Known() {
		return Verdict{Hint: true, Assumption: "assumes " + n.describe() + "; " + NoGPUAdvice}
	}
	gpu := g.Describe()
	switch {
	case n.MinCompute > 0 && !g.AtLeast(n.MinCompute/10, n.MinCompute%10):
		return Verdict{Reason: fmt.Sprintf("%s is below compute capability %d.%d", gpu, n.MinCompute/10, n.MinCompute%10)}
	case n.MinVRAMGB > 0 && g.VRAMGB < n.MinVRAMGB*minVRAMSlack:
		return Verdict{Reason: fmt.Sprintf("%s has %.0f GB, less than %.0f GB", gpu, g.VRAMGB, n.MinVRAMGB)}
	case n.MaxVRAMGB > 0 && g.VRAMGB > n.MaxVRAMGB:
		return Verdict{Reason: fmt.Sprintf("%s has %.0f GB, more than %.0f GB", gpu, g.VRAMGB, n.MaxVRAMGB)}
	}
	return Verdict{Fire: true, Assumption: gpu}
}

// Downgrade turns a fix into a hint when the verdict is only a hint.
func (v Verdict) Downgrade(fx *rewrite.Fix) *rewrite.Fix {
	if fx != nil && v.Hint {
		fx.Applicability = rewrite.Hint
	}
	return fx
}
