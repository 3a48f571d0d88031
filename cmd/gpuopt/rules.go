package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns"
)

func newRuleCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "rule CODE",
		Short:   "Print a rule's documentation",
		Example: "  gpuopt rule XGB001",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := patterns.Lookup(args[0])
			if r == nil {
				return fmt.Errorf("no rule %q (see `gpuopt rules`)", args[0])
			}
			fmt.Fprint(cmd.OutOrStdout(), patterns.RuleMarkdown(r))
			return nil
		},
	}
}

func newRulesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List every rule with its fix safety (opt-in rules run only when --select names them)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "CODE\tFIX\tDEFAULT\tNAME\tTITLE")
			for _, r := range patterns.All() {
				on := "on"
				if r.OptIn {
					on = "opt-in"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Fix, on, r.Name, r.Title)
			}
			return w.Flush()
		},
	}
}
