package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// fileReport is what gpuopt has to say about one file.
type fileReport struct {
	Path     string
	Src      *rewrite.Source
	Findings []rewrite.Finding
	Syntax   string    // the first syntax error, if the file has one
	Skip     string    // why the file was not analysed (binary, non-UTF-8, ...)
	Err      error     // an I/O error
	Note     string    // what fix did or refused to do
	nb       *nbReport // for a notebook: its cells
}

func newCheckCommand() *cobra.Command {
	var flags commonFlags
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Report findings in Python files and directories",
		Long: `Check Python files for GPU performance problems. Directories are walked
(honouring .gitignore, skipping virtualenvs); '-' reads stdin (name it with
--stdin-filename). Each finding prints as path:line:col: CODE message, then
the source lines with the span underlined and the fix's title ('help:');
--output-format concise keeps the first line only. '[*]' marks findings that
'gpuopt fix' can rewrite. Colours only on a terminal (NO_COLOR turns them
off, FORCE_COLOR on).

Suppress a finding with a comment on its line:
  x = xgb.DMatrix(X, y)  # gpuopt: ignore[XGB001]
  x = xgb.DMatrix(X, y)  # noqa: XGB001

Exit codes: 0 no findings, 1 findings, 2 usage or I/O error.`,
		Example: `  gpuopt check train.py
  gpuopt check --select XGB --output-format json src/
  gpuopt check --statistics src/
  cat train.py | gpuopt check - --stdin-filename train.py`,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := flags.resolve(cmd, args)
			if err != nil {
				return err
			}
			ins, walkErr := readInputs(args, s, flags.stdinFilename, cmd.InOrStdin())
			if flags.forceExclude && !(len(args) == 1 && args[0] == "-") { // stdin is never dropped
				ins = forceExclude(ins, s.cfg)
			}
			bar := startProgress(len(ins), "checked", flags.noProgress)
			reports := workspace.Map(ins, func(in input) fileReport { return checkOne(in, s) }, bar.step())
			bar.stop()
			if walkErr != nil {
				reports = append(reports, fileReport{Err: walkErr})
			}
			if err := writeReports(cmd.OutOrStdout(), flags.outputFormat, reports, s); err != nil {
				return err
			}
			return exitZero(exitFor(reports), flags.exitZero)
		},
	}
	flags.register(cmd)
	cmd.Flags().BoolVar(&flags.text.statistics, "statistics", false, "print a count per rule code instead of the findings")
	return cmd
}

func checkOne(in input, s *settings) fileReport {
	in.load()
	r := fileReport{Path: in.path}
	if in.err == nil && rewrite.IsNotebook(in.path) {
		return checkNotebook(in, s)
	}
	if in.err != nil {
		if workspace.IsSkip(in.err) {
			r.Skip = in.err.Error()
		} else {
			r.Err = in.err
		}
		return r
	}
	if !patterns.Relevant(in.bytes) {
		return r
	}
	f := rewrite.Parse(in.path, in.bytes)
	defer f.Release() // findings keep no nodes: the next file reuses the memory
	r.Src = f.Src
	r.Syntax = f.SyntaxError()
	r.Findings = patterns.Run(f, s.selection, s.env)
	return r
}

// exitFor maps reports to the exit code: 2 on I/O errors, 1 on findings or
// syntax errors, else 0.
func exitFor(reports []fileReport) error {
	code := exitClean
	for _, r := range reports {
		if r.Err != nil {
			return exitCodeError{exitError}
		}
		if len(r.Findings) > 0 || r.Syntax != "" {
			code = exitFindings
		}
	}
	if code != exitClean {
		return exitCodeError{code}
	}
	return nil
}

// exitZero turns "findings remain" into success for --exit-zero; errors stay.
func exitZero(err error, enabled bool) error {
	if ec, ok := err.(exitCodeError); ok && enabled && ec.code == exitFindings {
		return nil
	}
	return err
}

// printProblems prints skips and I/O errors to stderr.
func printProblems(reports []fileReport) {
	for _, r := range reports {
		switch {
		case r.Err != nil:
			fmt.Fprintln(os.Stderr, "gpuopt: error:", r.Err)
		case r.Skip != "":
			fmt.Fprintln(os.Stderr, "gpuopt: warning:", r.Skip)
		}
	}
}
