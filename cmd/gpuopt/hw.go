package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/patterns/hardware"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

func init() {
	extraCommands = append(extraCommands, newHWCommand)
	resolveGPU = profileGPU
}

// hwProfiles reads NVML once per process (the language server asks on
// every analysis); tests replace it with a fake machine.
var hwProfiles = &hardware.Lazy{}

// detectProfile reads the profile for the given flag and config target:
// the flag, else GPUOPT_TARGET_GPU, else the config.
func detectProfile(flag, config string) (hardware.Profile, error) {
	name, explicit := hardware.ResolveTarget(flag, config)
	return hwProfiles.Detect(name, explicit)
}

// profileGPU is what rules see of the profile.
func profileGPU(flag, config string) (patterns.GPU, error) {
	p, err := detectProfile(flag, config)
	if err != nil {
		return patterns.GPU{}, err
	}
	return ToPatternsGPU(p), nil
}

// ToPatternsGPU reduces a profile to the GPU the rules gate on.
func ToPatternsGPU(p hardware.Profile) patterns.GPU {
	g := p.Primary()
	if g == nil {
		return patterns.GPU{}
	}
	count := len(p.GPUs)
	if p.Source == hardware.SourceTarget {
		count = 1 // a target names one GPU
	}
	return patterns.GPU{Name: g.Name, ComputeMajor: g.ComputeMajor, ComputeMinor: g.ComputeMinor, VRAMGB: g.VRAMGB(), Source: p.Source, Count: count}
}

func newHWCommand() *cobra.Command {
	var asJSON, list bool
	var target string
	cmd := &cobra.Command{
		Use:   "hw",
		Short: "Show the hardware profile rules are gated on (NVML or a target GPU)",
		Long: `Read the GPUs through NVML (name, memory, compute capability, driver and CUDA
versions, power limit, utilisation) and show the profile gpuopt's rules assume.

On a machine without an NVIDIA driver, name a target GPU with --target-gpu,
GPUOPT_TARGET_GPU or target-gpu in [tool.gpuopt] (see --list). A live GPU wins
over the config's target; the flag or the environment variable wins over both.

--json prints one object: "gpu" (the GPU rules assume, or null), "source"
("nvml", "target" or "none"), "gpus" (live), "target", driver and CUDA
versions, "cpu_count", "nvml_error" and "message".
Exit code 0 also when no GPU is present; 2 for an unknown target name.`,
		Example: "  gpuopt hw\n  gpuopt hw --json --target-gpu rtx-4090\n  gpuopt hw --list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if list {
				return printTargets(out)
			}
			cfg, err := workspace.FindConfig(".")
			if err != nil {
				return err
			}
			p, err := detectProfile(target, cfg.TargetGPU)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(p)
			}
			return printProfile(out, p)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profile as one JSON object")
	cmd.Flags().BoolVar(&list, "list", false, "list the built-in target GPUs")
	cmd.Flags().StringVar(&target, "target-gpu", "", "assume this GPU, even over a live one (see --list; also GPUOPT_TARGET_GPU)")
	return cmd
}

// printTargets lists the target table.
func printTargets(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TARGET\tGPU\tVRAM\tCOMPUTE\tBF16\tTF32")
	for _, t := range hardware.Targets() {
		g := t.GPU
		fmt.Fprintf(w, "%s\t%s\t%.0f GB\t%s\t%s\t%s\n", t.Name, g.Name, g.VRAMGB(), g.ComputeCapability(), yes(g.BF16), yes(g.TF32))
	}
	return w.Flush()
}

// printProfile is the table people read.
func printProfile(out io.Writer, p hardware.Profile) error {
	fmt.Fprintln(out, p.Message)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	row := func(k, format string, a ...any) { fmt.Fprintf(w, "%s\t%s\n", k, fmt.Sprintf(format, a...)) }
	row("source", "%s", p.Source)
	if g := p.Primary(); g != nil {
		row("rules assume", "%s, %.0f GB, bf16 %s, tf32 %s", g.Describe(), g.VRAMGB(), yes(g.BF16), yes(g.TF32))
	}
	if p.DriverVersion != "" {
		row("driver", "%s (CUDA %s)", p.DriverVersion, p.CUDADriverVersion)
	}
	for i, g := range p.GPUs {
		row(fmt.Sprintf("gpu %d", i), "%s, %.1f GiB (%.1f GiB used), sm_%d%d, %.0f W limit, %d%% busy, %s",
			g.Name, g.VRAMGB(), float64(g.MemoryUsedBytes)/(1<<30), g.ComputeMajor, g.ComputeMinor, g.PowerLimitWatts, g.UtilizationPercent, g.UUID)
	}
	if len(p.GPUs) == 0 {
		row("nvml", "%s", p.NVMLError)
	}
	if p.Target != nil {
		used := "in use"
		if p.Source != hardware.SourceTarget {
			used = "not used: a live GPU wins over the config"
		}
		row("target", "%s (%s), %.0f GB, compute %s, %s", p.TargetName, p.Target.Name, p.Target.VRAMGB(), p.Target.ComputeCapability(), used)
	}
	row("cpus", "%d", p.CPUCount)
	return w.Flush()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
