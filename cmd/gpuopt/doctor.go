package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns/hardware"
)

func init() { extraCommands = append(extraCommands, newDoctorCommand) }

// doctorRunner runs the project's Python; nil runs it as a child process.
// Tests replace it.
var doctorRunner hardware.Runner

func newDoctorCommand() *cobra.Command {
	var asJSON bool
	var python string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the Python environment's GPU packages against the NVIDIA driver",
		Long: `Run the project's Python once to read torch (its CUDA build, cuDNN, whether it
sees the GPU and carries kernels for it), XGBoost (whether it was built with
CUDA), CuPy and cuDF (the CUDA major of their wheels), and compare them with
the CUDA version the NVIDIA driver supports. Each mismatch comes with the
command that fixes it (which wheel, from which index).

A missing Python or package is reported, not fatal.
Exit code 0 when no check is an error, 1 when one is, 2 on a usage error.`,
		Example: "  gpuopt doctor\n  gpuopt doctor --python .venv/bin/python --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			live, err := hwProfiles.Detect("", false) // the driver, never a target
			if err != nil {
				return err
			}
			r := hardware.Doctor(ctx, hardware.DoctorOptions{Python: python, Profile: live, Run: doctorRunner})
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				err = enc.Encode(r)
			} else {
				err = printReport(out, r)
			}
			if err == nil && r.HasErrors() {
				return exitCodeError{exitFindings}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&python, "python", "python3", "the project's Python interpreter")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	return cmd
}

// printReport is the table people read: one row a check, its fix below.
func printReport(out io.Writer, r hardware.Report) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CHECK\tSTATUS\tDETAIL")
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%s\t%s\t%s\n", c.Name, c.Status, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(w, "\t\tfix: %s\n", c.Fix)
		}
	}
	return w.Flush()
}
