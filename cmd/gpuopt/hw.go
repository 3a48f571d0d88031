package main

import (
	"encoding/json"
	"fmt"
	"strings"
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

// detectProfile reads the profile for the given flag and config target.
func detectProfile(flag, config string) (hardware.Profile, error) {
	name, explicit := hardware.ResolveTarget(flag, config)
	return hardware.Detect(hardware.Options{Target: name, Explicit: explicit})
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
	source := p.Source
	if source == "none" {
		source = "target"
	}
	return patterns.GPU{Name: g.Name, ComputeMajor: g.ComputeMajor, ComputeMinor: g.ComputeMinor, VRAMGB: g.VRAMGB(), Source: source}
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
GPUOPT_TARGET_GPU or target-gpu in [tool.gpuopt]; a live GPU wins over the
config's target, an explicit flag or environment variable wins over both.
Exit code 0 also when no GPU is present.`,
		Example: "  gpuopt hw\n  gpuopt hw --json --target-gpu rtx-4090\n  gpuopt hw --list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if list {
				w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "TARGET\tGPU\tVRAM\tCOMPUTE\tBF16/TF32")
				for _, name := range hardware.TargetNames() {
					g, _ := hardware.LookupTarget(name)
					fmt.Fprintf(w, "%s\t%s\t%.0f GB\t%s\t%v\n", name, g.Name, g.VRAMGB(), g.ComputeCapability(), g.BF16)
				}
				return w.Flush()
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
			fmt.Fprintln(out, p.Message)
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			rows := [][2]string{{"source", p.Source}, {"cpus", fmt.Sprint(p.CPUCount)}}
			if p.DriverVersion != "" {
				rows = append(rows, [2]string{"driver", p.DriverVersion}, [2]string{"cuda (driver)", p.CUDADriverVersion})
			}
			for i, g := range p.GPUs {
				rows = append(rows, [2]string{fmt.Sprintf("gpu %d", i), fmt.Sprintf("%s, %.1f GiB (%.1f GiB used), sm_%d%d, %.0f W limit, %d%% busy",
					g.Name, g.VRAMGB(), float64(g.MemoryUsedBytes)/(1<<30), g.ComputeMajor, g.ComputeMinor, g.PowerLimitWatts, g.UtilizationPercent)})
			}
			if p.Target != nil {
				rows = append(rows, [2]string{"target", fmt.Sprintf("%s (%s), %.0f GB, compute %s", p.TargetName, p.Target.Name, p.Target.VRAMGB(), p.Target.ComputeCapability())})
			}
			if g := p.Primary(); g != nil {
				rows = append(rows, [2]string{"bf16 / tf32", strings.TrimSpace(fmt.Sprintf("%v / %v", g.BF16, g.TF32))})
			}
			for _, r := range rows {
				fmt.Fprintf(w, "%s\t%s\n", r[0], r[1])
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profile as one JSON object")
	cmd.Flags().BoolVar(&list, "list", false, "list the built-in target GPUs")
	cmd.Flags().StringVar(&target, "target-gpu", "", "assume this GPU (see --list)")
	return cmd
}
