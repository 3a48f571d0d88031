package main

import (
	"runtime"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// buildEnv resolves what rules assume: versions from config and pins, the
// GPU from --target-gpu, GPUOPT_TARGET_GPU, the config, or NVML.
func buildEnv(cfg workspace.Config, targetFlag string, paths []string) (*patterns.Env, error) {
	v, err := buildVersions(cfg, paths)
	if err != nil {
		return nil, err
	}
	gpu, err := resolveGPU(targetFlag, cfg.TargetGPU)
	if err != nil {
		return nil, err
	}
	// The project index resolves what files import from their siblings.
	env := &patterns.Env{Versions: v, GPU: gpu, CPUCount: runtime.NumCPU(), Project: workspace.NewProject(paths...), TorchExplicit: cfg.TorchVersionSet()}
	env.VersionsFor = newNearestPins(cfg).For // each file's own requirements first
	return env, nil
}

// resolveGPU is replaced by the hardware profile (hw.go) when it lands.
var resolveGPU = func(flag, config string) (patterns.GPU, error) { return patterns.GPU{}, nil }
