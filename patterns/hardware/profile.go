// Package hardware builds the hardware profile gpuopt's rules are gated on:
// the live GPUs read through NVML (loaded at run time, so the same binary
// runs on machines without a driver) or, when there is none, a target GPU
// from a built-in table that the user names.
package hardware

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// GPU is one device, live or from the target table.
type GPU struct {
	Name               string  `json:"name"`
	UUID               string  `json:"uuid,omitempty"`
	MemoryTotalBytes   uint64  `json:"memory_total_bytes"`
	MemoryUsedBytes    uint64  `json:"memory_used_bytes,omitempty"`
	ComputeMajor       int     `json:"compute_major"`
	ComputeMinor       int     `json:"compute_minor"`
	PowerLimitWatts    float64 `json:"power_limit_watts,omitempty"`
	UtilizationPercent int     `json:"utilization_percent,omitempty"`
	BF16               bool    `json:"bf16"`
	TF32               bool    `json:"tf32"`
}

// VRAMGB is the total memory in GiB, the unit cards are sold in ("80GB"
// H100 = 79.6 GiB).
func (g GPU) VRAMGB() float64 { return float64(g.MemoryTotalBytes) / (1 << 30) }

// ComputeCapability renders "9.0".
func (g GPU) ComputeCapability() string { return fmt.Sprintf("%d.%d", g.ComputeMajor, g.ComputeMinor) }

// Describe renders "NVIDIA H100 80GB HBM3 (sm_90)".
func (g GPU) Describe() string {
	return fmt.Sprintf("%s (sm_%d%d)", g.Name, g.ComputeMajor, g.ComputeMinor)
}

// withFeatures fills the bf16/TF32 flags from the compute capability
// (both native from Ampere, sm_80).
func withFeatures(g GPU) GPU {
	g.BF16 = g.ComputeMajor >= 8
	g.TF32 = g.ComputeMajor >= 8
	return g
}

// Profile is what gpuopt knows of the machine's (or the target's) hardware.
type Profile struct {
	// Source is "nvml" (live GPUs), "target" (a configured GPU) or "none".
	Source            string `json:"source"`
	GPUs              []GPU  `json:"gpus"`
	Target            *GPU   `json:"target"`
	TargetName        string `json:"target_name,omitempty"`
	DriverVersion     string `json:"driver_version,omitempty"`
	CUDADriverVersion string `json:"cuda_driver_version,omitempty"`
	CPUCount          int    `json:"cpu_count"`
	// NVMLError says why no live GPU was read, when none was.
	NVMLError string `json:"nvml_error,omitempty"`
	// Message is a one-line summary for people.
	Message string `json:"message"`
}

// Primary is the GPU rules assume: the target when one was given
// explicitly, else the first live GPU, else the target from the config,
// else nil.
func (p Profile) Primary() *GPU {
	if p.Source == "target" && p.Target != nil {
		return p.Target
	}
	if len(p.GPUs) > 0 {
		return &p.GPUs[0]
	}
	return p.Target
}

// Options say where the profile comes from.
type Options struct {
	// Target names a GPU of the built-in table ("rtx-4090").
	Target string
	// Explicit: the target came from a flag or the environment, so it wins
	// over a live GPU; a target from the config only fills in for none.
	Explicit bool
	// NVML reads live GPUs; nil uses the real library.
	NVML NVML
}

// ResolveTarget picks the target GPU name: the flag, else
// GPUOPT_TARGET_GPU, else the config. explicit is true for the first two.
func ResolveTarget(flag, config string) (name string, explicit bool) {
	if flag != "" {
		return flag, true
	}
	if env := os.Getenv("GPUOPT_TARGET_GPU"); env != "" {
		return env, true
	}
	return config, false
}

// Detect builds the profile: live GPUs from NVML, and the named target.
// A live GPU wins unless the target is explicit. An unknown target name is
// an error that lists the known ones.
func Detect(opts Options) (Profile, error) {
	p := Profile{Source: "none", CPUCount: runtime.NumCPU()}
	var target *GPU
	if opts.Target != "" {
		t, ok := LookupTarget(opts.Target)
		if !ok {
			return p, fmt.Errorf("unknown target GPU %q; known: %s", opts.Target, strings.Join(TargetNames(), ", "))
		}
		target = &t
		p.Target, p.TargetName = target, CanonicalName(opts.Target)
	}
	lib := opts.NVML
	if lib == nil {
		lib = realNVML{}
	}
	read(lib, &p)
	switch {
	case target != nil && (opts.Explicit || len(p.GPUs) == 0):
		p.Source = "target"
	case len(p.GPUs) > 0:
		p.Source = "nvml"
	}
	p.Message = p.summary()
	return p, nil
}

func (p Profile) summary() string {
	switch p.Source {
	case "nvml":
		g := p.GPUs[0]
		return fmt.Sprintf("%s, %.0f GB, compute capability %s, driver %s, CUDA %s (from NVML)", g.Name, g.VRAMGB(), g.ComputeCapability(), p.DriverVersion, p.CUDADriverVersion)
	case "target":
		g := p.Target
		s := fmt.Sprintf("target %s: %s, %.0f GB, compute capability %s", p.TargetName, g.Name, g.VRAMGB(), g.ComputeCapability())
		if len(p.GPUs) == 0 {
			s += " (no NVIDIA GPU on this machine: " + p.NVMLError + ")"
		}
		return s
	default:
		return "no NVIDIA GPU: " + p.NVMLError + "; name a target with --target-gpu, GPUOPT_TARGET_GPU or target-gpu in [tool.gpuopt]"
	}
}
