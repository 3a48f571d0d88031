package hardware

import (
	"fmt"
	"strings"
)

// Need is a rule's hardware requirement. The zero Need requires nothing.
type Need struct {
	// MinMajor.MinMinor is the compute capability the rule needs (8.0 for
	// bf16 and TF32); 0.0 for none.
	MinMajor, MinMinor int
	// MinVRAMGB and MaxVRAMGB bound the GPU's memory in GB as cards are
	// sold (0: no bound); MaxVRAMGB is for advice that only pays on small
	// cards. NVML reports up to 7% less than the marketed size (an L4 sold
	// with 24 GB shows 22.5 GiB), so MinVRAMGB allows for that.
	MinVRAMGB, MaxVRAMGB float64
	// NeedsGPU: the rule only makes sense with some CUDA GPU.
	NeedsGPU bool
}

// hardware reports whether n asks anything of the GPU.
func (n Need) hardware() bool {
	return n.NeedsGPU || n.MinMajor > 0 || n.MinMinor > 0 || n.MinVRAMGB > 0 || n.MaxVRAMGB > 0
}

// describe renders what n asks for: "a GPU with compute capability >= 8.0".
func (n Need) describe() string {
	var parts []string
	if n.MinMajor > 0 || n.MinMinor > 0 {
		parts = append(parts, fmt.Sprintf("compute capability >= %d.%d", n.MinMajor, n.MinMinor))
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

// Verdict is what a gate decides for a rule.
type Verdict int

const (
	// Silent: the rule must not fire on this hardware.
	Silent Verdict = iota
	// Hint: the rule applies only as a hint: no GPU is known, so its
	// hardware need is an assumption.
	Hint
	// Fire: the rule applies with its normal fix.
	Fire
)

func (v Verdict) String() string {
	switch v {
	case Fire:
		return "fire"
	case Hint:
		return "hint"
	}
	return "silent"
}

// Decision is a Verdict with the words a rule's message needs.
type Decision struct {
	Verdict Verdict
	// GPU names the GPU the rule relies on, "NVIDIA H100 80GB HBM3
	// (sm_90)", for messages such as "bf16 is native on " + GPU; "" when
	// no GPU is known.
	GPU string
	// Assumption says what the decision rests on, for the end of a
	// message: the GPU and where it came from, or, for a hint, what was
	// assumed and how to tell gpuopt the real hardware.
	Assumption string
	// Reason says why a Silent decision is silent.
	Reason string
}

// minVRAMSlack is the share of the marketed memory a card must report to
// meet a MinVRAMGB.
const minVRAMSlack = 0.9

// NoGPUAdvice is how to give gpuopt a GPU to assume.
const NoGPUAdvice = "no GPU detected and no target configured (set --target-gpu, " + EnvTarget + " or target-gpu in [tool.gpuopt])"

// Decide gates a rule with need n on this profile: with a GPU (live or
// target) the rule fires when the GPU meets n and stays silent when it
// does not; with no GPU known, a rule with a hardware need is downgraded
// to a hint that says what it assumed.
func (p Profile) Decide(n Need) Decision {
	g := p.Primary()
	if g == nil {
		if !n.hardware() {
			return Decision{Verdict: Fire}
		}
		return Decision{Verdict: Hint, Assumption: "assumes " + n.describe() + "; " + NoGPUAdvice}
	}
	d := Decision{GPU: g.Describe()}
	switch {
	case (n.MinMajor > 0 || n.MinMinor > 0) && !g.AtLeast(n.MinMajor, n.MinMinor):
		d.Reason = fmt.Sprintf("%s is below compute capability %d.%d", d.GPU, n.MinMajor, n.MinMinor)
	case n.MinVRAMGB > 0 && g.VRAMGB() < n.MinVRAMGB*minVRAMSlack:
		d.Reason = fmt.Sprintf("%s has %.0f GB, less than %.0f GB", d.GPU, g.VRAMGB(), n.MinVRAMGB)
	case n.MaxVRAMGB > 0 && g.VRAMGB() > n.MaxVRAMGB:
		d.Reason = fmt.Sprintf("%s has %.0f GB, more than %.0f GB", d.GPU, g.VRAMGB(), n.MaxVRAMGB)
	default:
		d.Verdict = Fire
		d.Assumption = p.assumed()
	}
	return d
}

// assumed says which GPU the rules assume and where it came from.
func (p Profile) assumed() string {
	g := p.Primary()
	if p.Source == SourceTarget {
		return fmt.Sprintf("assumes target %s, %s", p.TargetName, g.Describe())
	}
	return fmt.Sprintf("on %s, read through NVML", g.Describe())
}
