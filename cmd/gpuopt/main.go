// Command gpuopt finds Python code that leaves an NVIDIA GPU idle and
// rewrites it: `gpuopt check` reports, `gpuopt fix` rewrites, `gpuopt lsp`
// serves editors, `gpuopt hw` shows the hardware profile rules assume.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes, as ruff uses them.
const (
	exitClean    = 0 // no findings remain
	exitFindings = 1 // findings remain
	exitError    = 2 // usage or I/O error
)

// exitError carries an exit code up to main without printing twice.
type exitCodeError struct{ code int }

func (e exitCodeError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	root := newRootCommand()
	err := root.Execute()
	var ec exitCodeError
	switch {
	case err == nil:
		os.Exit(exitClean)
	case errors.As(err, &ec):
		os.Exit(ec.code)
	default:
		fmt.Fprintln(os.Stderr, "gpuopt: error:", err)
		os.Exit(exitError)
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "gpuopt",
		Short: "Find and fix Python code that leaves your NVIDIA GPU idle",
		Long: `gpuopt reads PyTorch, XGBoost, NumPy and pandas code, finds the patterns that
keep a GPU waiting (a .cpu() every step, fp32 where bf16 would do, a DataLoader
without workers, DMatrix where QuantileDMatrix is built for the job), explains
each with a gain measured on real hardware, and rewrites the source for you.

Quick start:
  gpuopt check train.py             list findings (exit 1 if any)
  gpuopt fix --diff src/            show the rewrite as a diff (git apply-able)
  gpuopt fix src/                   apply safe fixes in place
  gpuopt fix --unsafe-fixes src/    also apply fixes that may change numerics
  gpuopt rule XGB001                explain a rule
  gpuopt hw                         the GPU profile rules are gated on

Configuration lives in [tool.gpuopt] of the nearest pyproject.toml:
  [tool.gpuopt]
  select = ["XGB", "AMP"]      # codes or prefixes; default: all
  ignore = ["OPT004"]
  unsafe-fixes = false
  exclude = ["notebooks/", "legacy_*.py"]
  target-gpu = "rtx-4090"      # when this machine has no GPU
  target-versions = { torch = "2.4", xgboost = "2.1" }
Command-line flags win over the file.

Exit codes: 0 no findings, 1 findings remain, 2 usage or I/O error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       currentVersion().String(), // --version
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().BoolP("version", "v", false, "print gpuopt's version and commit")
	root.AddCommand(newCheckCommand(), newFixCommand(), newRuleCommand(), newRulesCommand())
	for _, extra := range extraCommands {
		root.AddCommand(extra())
	}
	return root
}

// extraCommands are added by other files of this package (hw, doctor, lsp).
var extraCommands []func() *cobra.Command
