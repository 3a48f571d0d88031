package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

func newFixCommand() *cobra.Command {
	var flags commonFlags
	var diff bool
	cmd := &cobra.Command{
		Use:   "fix [PATH...]",
		Short: "Rewrite files in place (safe fixes; --unsafe-fixes for more)",
		Long: `Apply fixes to Python files in place. Only 'safe' fixes (behaviour identical)
are applied unless --unsafe-fixes is given; 'hint' findings are never applied.
Fixes are applied pass after pass until none applies; any fix that would add a
syntax error is dropped. Files with syntax errors, binary or non-UTF-8 files,
read-only files, symbolic links and files that change on disk while gpuopt
works are reported and left untouched. Writes are atomic (temp file + rename,
mode kept).

Rules read a file's sibling modules, so fixing one module can enable a fix
in another (a loader pinned in the script, then non-blocking copies in the
module whose loop reads it): fix goes over the files again, up to three
rounds, until a round changes nothing.

--diff prints a unified diff that 'git apply' accepts and writes nothing
(one round: a fix that another module's fix enables shows up once that
diff is applied).
With '-' the fixed source is written to stdout.

Exit codes: 0 nothing remains, 1 findings remain (or --diff has changes),
2 usage or I/O error.`,
		Example: `  gpuopt fix --diff corpus/examples/xgb_train.py
  gpuopt fix --unsafe-fixes src/
  gpuopt fix --select XGB002,XGB003 .`,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := flags.resolve(cmd, args)
			if err != nil {
				return err
			}
			ins, walkErr := readInputs(args, s, flags.stdinFilename, cmd.InOrStdin())
			if flags.forceExclude && !(len(args) == 1 && args[0] == "-") { // stdin is never dropped
				ins = forceExclude(ins, s.cfg)
			}
			stdinMode := len(args) == 1 && args[0] == "-"
			bar := startProgress(len(ins), "fixed", flags.noProgress)
			results := workspace.Map(ins, func(in input) fixResult { return fixOne(in, s, diff || stdinMode) }, bar.step())
			bar.stop()
			if !diff && !stdinMode {
				results = refixAcrossModules(ins, results, s)
			}
			if walkErr != nil {
				results = append(results, fixResult{report: fileReport{Err: walkErr}})
			}
			return exitZero(reportFixes(cmd.OutOrStdout(), cmd.ErrOrStderr(), results, s, diff, stdinMode, flags.outputFormat), flags.exitZero)
		},
	}
	flags.register(cmd)
	cmd.Flags().BoolVar(&diff, "diff", false, "print a unified diff of the fixes instead of writing files")
	return cmd
}

// maxProjectRounds bounds refixAcrossModules: a fix in one module can
// enable one in a module that uses it (a loader pinned in the script makes
// the copies of a sibling module's loop non-blocking), and that one another.
const maxProjectRounds = 3

// refixAcrossModules fixes the files again while a round changed some: the
// rules read sibling modules (from disk, through the project index), so a
// file fixed in this round can give another file a finding whose fix the
// first round could not see; a second `gpuopt fix` would then change
// something. The project forgets the changed modules before each round.
// Each file's result keeps its original input and sums what was applied.
func refixAcrossModules(ins []input, results []fixResult, s *settings) []fixResult {
	proj, ok := s.env.Project.(*workspace.Project)
	if !ok || proj == nil {
		return results
	}
	changed := make([]bool, len(results)) // by the last round
	for i, r := range results {
		changed[i] = len(r.applied) > 0 && r.report.Err == nil && r.report.Note == ""
	}
	for round := 1; round < maxProjectRounds; round++ {
		any := false
		for i, r := range results {
			if changed[i] {
				proj.Forget(r.report.Path)
				any = true
			}
		}
		if !any {
			break
		}
		again := workspace.Map(ins, func(in input) fixResult { return fixOne(input{path: in.path}, s, false) }, nil)
		for i, r := range again {
			changed[i] = len(r.applied) > 0 && r.report.Err == nil && r.report.Note == ""
			if r.report.Err != nil || r.report.Note != "" {
				continue // unreadable or refused now: keep what the last round said
			}
			prev := results[i]
			sum := map[string]int{}
			for code, n := range prev.applied {
				sum[code] += n
			}
			for code, n := range r.applied {
				sum[code] += n
			}
			if len(sum) == 0 {
				sum = nil
			}
			r.input, r.applied, r.dropped = prev.input, sum, prev.dropped+r.dropped
			results[i] = r
		}
	}
	return results
}

type fixResult struct {
	report  fileReport // the findings that remain after fixing
	input   []byte
	output  []byte
	applied map[string]int
	dropped int
	rest    io.Reader // stdin past the size limit, echoed after output
}

func fixOne(in input, s *settings, dryRun bool) fixResult {
	in.load()
	res := fixResult{report: fileReport{Path: in.path}, rest: in.rest}
	// Whatever happens next, stdin's bytes go back out unchanged unless
	// fixed: `fix - < f.py > tmp && mv tmp f.py` must not empty f.py.
	res.input, res.output = in.bytes, in.bytes
	if in.err != nil {
		if workspace.IsSkip(in.err) {
			res.report.Skip = in.err.Error() + " (not rewritten)"
		} else {
			res.report.Err = in.err
		}
		return res
	}
	if rewrite.IsNotebook(in.path) {
		return fixNotebook(in, s, dryRun)
	}
	if !patterns.Relevant(in.bytes) {
		return res
	}
	f := rewrite.Parse(in.path, in.bytes)
	if f.HasSyntaxErrors() {
		res.report.Src = f.Src
		res.report.Syntax = f.SyntaxError()
		res.report.Findings = patterns.Run(f, s.selection, s.env)
		res.report.Note = "has a syntax error: not rewritten"
		return res
	}
	if dryRun && in.file != nil {
		// --diff shows what fix would write: not the files it refuses.
		if err := workspace.CheckWritable(in.file); err != nil {
			res.report.Src = f.Src
			res.report.Findings = patterns.Run(f, s.selection, s.env)
			res.report.Note = err.Error()
			res.report.Err = writeError(err)
			return res
		}
	}
	fr := rewrite.FixFile(f, s.analyzer(), s.wants)
	res.output, res.applied, res.dropped = fr.Output, fr.Applied, fr.Dropped
	final := f
	if string(fr.Output) != string(in.bytes) {
		final = rewrite.Parse(in.path, fr.Output)
		if !dryRun && in.file != nil {
			if err := workspace.WriteAtomic(in.file, fr.Output); err != nil {
				res.report.Note = err.Error()
				res.report.Err = writeError(err)
				res.output, res.applied = in.bytes, nil
				final = f
			}
		}
	}
	res.report.Src = final.Src
	res.report.Findings = patterns.Run(final, s.selection, s.env)
	return res
}

// writeError keeps refusals (read-only, changed on disk, symlink) as notes
// but real I/O failures as errors.
func writeError(err error) error {
	msg := err.Error()
	for _, refusal := range []string{"read-only", "changed on disk", "symbolic link", "hard links", "another user", "cannot keep its owner"} {
		if strings.Contains(msg, refusal) {
			return nil
		}
	}
	return err
}

func reportFixes(stdout, stderr io.Writer, results []fixResult, s *settings, diff, stdinMode bool, format string) error {
	total := map[string]int{}
	files, changed := 0, false
	var reports []fileReport
	for _, r := range results {
		reports = append(reports, r.report)
		if r.report.Note != "" {
			fmt.Fprintf(stderr, "gpuopt: %s: %s\n", r.report.Path, strings.TrimPrefix(r.report.Note, r.report.Path+": "))
		}
		if stdinMode {
			stdout.Write(r.output)
			if r.rest != nil {
				io.Copy(stdout, r.rest)
			}
			continue
		}
		if len(r.applied) > 0 {
			files++
			changed = true
		}
		for code, n := range r.applied {
			total[code] += n
		}
		if diff {
			io.WriteString(stdout, rewrite.UnifiedDiff(diffPath(r.report.Path), r.input, r.output))
		}
	}
	printProblems(reports)
	remaining, unsafeLeft, hints := 0, 0, 0
	for _, r := range reports {
		remaining += len(r.Findings)
		if r.Syntax != "" {
			remaining++ // the syntax error remains (E999)
		}
		for _, fd := range r.Findings {
			if fd.Fix != nil && fd.Fix.Applicability == rewrite.Unsafe {
				unsafeLeft++
			} else if fd.Fix == nil || fd.Fix.Applicability == rewrite.Hint {
				hints++
			}
		}
	}
	if format == "json" && !diff && !stdinMode {
		if err := writeReports(stdout, "json", reports, s); err != nil {
			return err
		}
	}
	if s.text.showFixes {
		listFixed(stderr, results, diff)
	}
	fmt.Fprintln(stderr, summary(total, files, diff, remaining, unsafeLeft, hints))
	for _, r := range reports {
		if r.Err != nil {
			return exitCodeError{exitError}
		}
	}
	if remaining > 0 || (diff && changed) {
		return exitCodeError{exitFindings}
	}
	return nil
}

func summary(applied map[string]int, files int, diff bool, remaining, unsafeLeft, hints int) string {
	n := 0
	var codes []string
	for code, k := range applied {
		n += k
		codes = append(codes, fmt.Sprintf("%s ×%d", code, k))
	}
	sort.Strings(codes)
	verb := "Fixed"
	if diff {
		verb = "Would fix"
	}
	var sb strings.Builder
	if n == 0 {
		sb.WriteString("No fixes applied")
	} else {
		fmt.Fprintf(&sb, "%s %d finding%s in %d file%s (%s)", verb, n, plural(n), files, plural(files), strings.Join(codes, ", "))
	}
	if remaining > 0 {
		fmt.Fprintf(&sb, "; %d remain", remaining)
		var why []string
		if unsafeLeft > 0 {
			why = append(why, fmt.Sprintf("%d need --unsafe-fixes", unsafeLeft))
		}
		if hints > 0 {
			why = append(why, fmt.Sprintf("%d to do by hand", hints))
		}
		if len(why) > 0 {
			sb.WriteString(" (" + strings.Join(why, ", ") + ")")
		}
	}
	return sb.String() + "."
}

// diffPath is the path a diff names: relative to the root of the git
// repository holding the file (git apply reads patch paths from there,
// from any of its subdirectories), else to the working directory; never
// with '..' in it (outside the working directory, the path from /).
func diffPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
	}
	if root := repositoryRoot(filepath.Dir(abs)); root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/")
}

// repositoryRoot returns the nearest directory at or above dir holding
// .git (a directory, or a file in a worktree or submodule), as
// `git rev-parse --show-toplevel` finds it, or "".
func repositoryRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
