package hardware

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
)

// EnvTarget is the environment variable that names a target GPU.
const EnvTarget = "GPUOPT_TARGET_GPU"

// Options say where the profile comes from.
type Options struct {
	// TargetName names a GPU of the built-in table ("rtx-4090"); "" for
	// none.
	TargetName string
	// Explicit: the target came from a flag or the environment, so it wins
	// over a live GPU; a target from the config only stands in for none.
	Explicit bool
	// NVML reads the live GPUs; nil uses the real library.
	NVML NVML
}

// ResolveTarget picks the target GPU name: the flag, else
// GPUOPT_TARGET_GPU, else the config value. explicit is true for the
// first two, which win over a live GPU.
func ResolveTarget(flag, config string) (name string, explicit bool) {
	if flag = strings.TrimSpace(flag); flag != "" {
		return flag, true
	}
	if env := strings.TrimSpace(os.Getenv(EnvTarget)); env != "" {
		return env, true
	}
	return strings.TrimSpace(config), false
}

// Detect reads NVML and builds the profile. A live GPU wins unless the
// target is explicit. A machine without a driver is no error (the profile
// says so); an unknown target name is, and the error lists the known ones.
func Detect(opts Options) (Profile, error) {
	return combine(readLive(opts.NVML), opts.TargetName, opts.Explicit)
}

// Lazy reads NVML once, on first use, and reuses that reading for every
// profile it builds; the target may change between calls (an editor's
// settings). Safe for concurrent use; the zero value uses the real library.
type Lazy struct {
	// NVML reads the live GPUs; nil uses the real library. Set it before
	// the first call.
	NVML NVML

	once sync.Once
	live Profile
}

// Detect is the package's Detect with the cached NVML reading.
func (l *Lazy) Detect(targetName string, explicit bool) (Profile, error) {
	l.once.Do(func() { l.live = readLive(l.NVML) })
	return combine(l.live, targetName, explicit)
}

// readLive is the part of the profile NVML gives.
func readLive(lib NVML) Profile {
	if lib == nil {
		lib = realNVML{}
	}
	p := Profile{CPUCount: runtime.NumCPU()}
	read(lib, &p)
	return p
}

// combine adds the named target to a live reading and picks the source.
func combine(live Profile, targetName string, explicit bool) (Profile, error) {
	p := live
	p.GPUs = append([]GPU(nil), live.GPUs...) // callers may keep pointers
	p.Source, p.Target, p.TargetName = SourceNone, nil, ""
	if targetName != "" {
		t, ok := LookupTarget(targetName)
		if !ok {
			return p, fmt.Errorf("unknown target GPU %q; known: %s", targetName, strings.Join(TargetNames(), ", "))
		}
		p.Target, p.TargetName = &t, CanonicalName(targetName)
	}
	switch {
	case p.Target != nil && (explicit || len(p.GPUs) == 0):
		p.Source = SourceTarget
	case len(p.GPUs) > 0:
		p.Source = SourceNVML
	}
	p.Message = p.summary()
	return p, nil
}

func (p Profile) summary() string {
	switch p.Source {
	case SourceNVML:
		g := p.GPUs[0]
		s := fmt.Sprintf("%s, %.0f GB, compute capability %s, driver %s, CUDA %s (from NVML)", g.Name, g.VRAMGB(), g.ComputeCapability(), p.DriverVersion, p.CUDADriverVersion)
		if n := len(p.GPUs); n > 1 {
			s += fmt.Sprintf("; %d GPUs, rules assume GPU 0", n)
		}
		if p.Target != nil {
			s += fmt.Sprintf("; target %s from the config is not used (a live GPU wins; pass --target-gpu to override)", p.TargetName)
		}
		return s
	case SourceTarget:
		g := p.Target
		s := fmt.Sprintf("target %s: %s, %.0f GB, compute capability %s", p.TargetName, g.Name, g.VRAMGB(), g.ComputeCapability())
		if len(p.GPUs) == 0 {
			s += " (no NVIDIA GPU on this machine: " + p.NVMLError + ")"
		} else {
			s += fmt.Sprintf(" (given explicitly; this machine has %s)", p.GPUs[0].Describe())
		}
		return s
	default:
		return "no NVIDIA GPU: " + p.NVMLError + "; name a target with --target-gpu, " + EnvTarget + " or target-gpu in [tool.gpuopt]"
	}
}
