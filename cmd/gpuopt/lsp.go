package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/lsp"
	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

func init() { extraCommands = append(extraCommands, newLSPCommand) }

func newLSPCommand() *cobra.Command {
	var debounce time.Duration
	var stdio bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve editors over the Language Server Protocol (stdio)",
		Long: `Run gpuopt as a language server on stdin/stdout: diagnostics as you type,
quick fixes (safe and unsafe, labelled), "fix all" (source.fixAll.gpuopt),
"disable for this line", rule documentation on hover, and the commands
gpuopt.showHardware and gpuopt.fixAll.

Settings (initializationOptions or workspace/didChangeConfiguration, flat or
under "gpuopt"): select, ignore, unsafeFixes, targetGpu. [tool.gpuopt] of the
workspace root's pyproject.toml is read first; editor settings win.

Exit code 0 after shutdown and exit, 1 when the client exits without
shutdown or closes the stream.`,
		Example: "  gpuopt lsp\n  gpuopt lsp --debounce 150ms",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			lsp.TuneRuntime()
			srv := lsp.NewServer(lsp.Options{
				Debounce: debounce,
				Hardware: lspHardware,
				Versions: func(cfg workspace.Config, root string) (patterns.Versions, error) {
					var paths []string
					if root != "" {
						paths = []string{root}
					}
					return buildVersions(cfg, paths)
				},
				NearestVersions: func(cfg workspace.Config) func(string) (patterns.Versions, bool) {
					return newNearestPins(cfg).For
				},
				Log: cmd.ErrOrStderr(),
			})
			if code := srv.Serve(ctx, lsp.StdioConn(os.Stdin, os.Stdout)); code != 0 {
				return exitCodeError{code}
			}
			return nil
		},
	}
	cmd.Flags().DurationVar(&debounce, "debounce", lsp.DefaultDebounce, "wait this long after the last edit before analysing (0: at once)")
	cmd.Flags().BoolVar(&stdio, "stdio", true, "speak over stdin/stdout (the only transport; accepted for clients that pass it)")
	return cmd
}

// lspHardware resolves the GPU for the server through the same hook the
// CLI uses (resolveGPU) and describes it for the showHardware command.
func lspHardware(explicit, config string) (patterns.GPU, string, error) {
	gpu, err := resolveGPU(explicit, config)
	if err != nil {
		return gpu, "", err
	}
	text := "No GPU detected and no target configured: GPU-specific advice is shown as hints.\nSet targetGpu in the editor settings or target-gpu in [tool.gpuopt] (see `gpuopt hw --list`)."
	if gpu.Known() {
		src := "live GPU read through NVML"
		if gpu.Source == "target" {
			src = "configured target GPU"
		}
		text = "Hardware profile: " + gpu.Describe() + "\n" +
			fmt.Sprintf("memory: %.0f GB", gpu.VRAMGB) + "\nsource: " + src
	}
	return gpu, text, nil
}
