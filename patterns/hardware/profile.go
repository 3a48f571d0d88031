// Package hardware builds the hardware profile gpuopt's rules are gated on:
// the live GPUs read through NVML (libnvidia-ml.so.1, loaded at run time, so
// the same binary runs on machines without a driver) or, when there is none
// or the user says so, a target GPU from a built-in table.
//
// It also decides rule gates (Profile.Decide) and checks the Python
// environment against the driver (Doctor).
package hardware

import (
	"encoding/json"
	"fmt"
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

// VRAMGB is the total memory in GiB, the unit cards are sold in (the "80GB"
// H100 has 79.6 GiB).
func (g GPU) VRAMGB() float64 { return float64(g.MemoryTotalBytes) / (1 << 30) }

// ComputeCapability renders "9.0".
func (g GPU) ComputeCapability() string { return fmt.Sprintf("%d.%d", g.ComputeMajor, g.ComputeMinor) }

// AtLeast reports compute capability >= major.minor.
func (g GPU) AtLeast(major, minor int) bool {
	return g.ComputeMajor > major || g.ComputeMajor == major && g.ComputeMinor >= minor
}

// Describe renders "NVIDIA H100 80GB HBM3 (sm_90)".
func (g GPU) Describe() string {
	return fmt.Sprintf("%s (sm_%d%d)", g.Name, g.ComputeMajor, g.ComputeMinor)
}

// withFeatures fills the bf16/TF32 flags from the compute capability: both
// are native from Ampere (sm_80) on.
func withFeatures(g GPU) GPU {
	g.BF16 = g.ComputeMajor >= 8
	g.TF32 = g.ComputeMajor >= 8
	return g
}

// Where a profile's GPU comes from.
const (
	SourceNVML   = "nvml"   // a live GPU read through NVML
	SourceTarget = "target" // a GPU of the target table
	SourceNone   = "none"   // no GPU known
)

// Profile is what gpuopt knows of the machine's (or the target's) hardware.
// Its JSON form adds "gpu": the Primary GPU, or null.
type Profile struct {
	// Source is SourceNVML, SourceTarget or SourceNone: where Primary
	// comes from.
	Source string `json:"source"`
	// GPUs are the live devices NVML reported, in its order.
	GPUs []GPU `json:"gpus"`
	// Target is the target GPU named by flag, environment or config, if
	// any; it is the one in use when Source is SourceTarget.
	Target *GPU `json:"target"`
	// TargetName is the target's table name ("rtx-4090").
	TargetName        string `json:"target_name,omitempty"`
	DriverVersion     string `json:"driver_version,omitempty"`      // "580.159.04"
	CUDADriverVersion string `json:"cuda_driver_version,omitempty"` // "13.0"
	CPUCount          int    `json:"cpu_count"`
	// NVMLError says why no live GPU was read, when none was.
	NVMLError string `json:"nvml_error,omitempty"`
	// Message is a one-line summary for people.
	Message string `json:"message"`
}

// Primary is the GPU rules assume: the target when it is in use (given
// explicitly, or from the config on a machine without a GPU), else the
// first live GPU, else nil.
func (p Profile) Primary() *GPU {
	if p.Source == SourceTarget && p.Target != nil {
		return p.Target
	}
	if len(p.GPUs) > 0 {
		return &p.GPUs[0]
	}
	return nil
}

// HasGPU reports whether NVML found a live GPU on this machine (a target
// does not count: see Known).
func (p Profile) HasGPU() bool { return len(p.GPUs) > 0 }

// Known reports whether rules have a GPU to assume, live or target.
func (p Profile) Known() bool { return p.Primary() != nil }

// ComputeCapability is the primary GPU's; ok is false when none is known.
func (p Profile) ComputeCapability() (major, minor int, ok bool) {
	g := p.Primary()
	if g == nil {
		return 0, 0, false
	}
	return g.ComputeMajor, g.ComputeMinor, true
}

// VRAMGB is the primary GPU's memory in GiB, 0 when none is known.
func (p Profile) VRAMGB() float64 {
	if g := p.Primary(); g != nil {
		return g.VRAMGB()
	}
	return 0
}

// Describe names the primary GPU for rule messages, "NVIDIA H100 80GB HBM3
// (sm_90)", or says that none is known.
func (p Profile) Describe() string {
	if g := p.Primary(); g != nil {
		return g.Describe()
	}
	return "no GPU"
}

// MarshalJSON adds "gpu" (the primary GPU or null) to the profile's fields
// and writes no live GPUs as [].
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile
	q := plain(p)
	if q.GPUs == nil {
		q.GPUs = []GPU{}
	}
	return json.Marshal(struct {
		GPU *GPU `json:"gpu"`
		plain
	}{p.Primary(), q})
}
