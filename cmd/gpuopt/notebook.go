package main

import (
	"errors"
	"fmt"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
	"github.com/gpuopt/gpuopt/rewrite/workspace"
)

// nbReport is what a report on a notebook needs to place findings in its
// cells.
type nbReport struct {
	nb  *notebook.Notebook
	mod *notebook.Module
}

// readNotebook parses a notebook input; a file that is not an nbformat 4
// Python notebook is skipped with the reason.
func readNotebook(in input) (*notebook.Notebook, string) {
	nb, err := notebook.Parse(in.path, in.bytes)
	if err != nil {
		return nil, (&workspace.SkipError{Path: in.path, Reason: err.Error() + ": skipped"}).Error()
	}
	return nb, ""
}

// checkNotebook is checkOne for a notebook: its code cells are analysed
// as one module and the findings are placed in their cells.
func checkNotebook(in input, s *settings) fileReport {
	r := fileReport{Path: in.path}
	nb, skip := readNotebook(in)
	if nb == nil {
		r.Skip = skip
		return r
	}
	mod := notebook.Build(nb.Cells)
	if !patterns.Relevant(mod.Src) {
		return r
	}
	f := mod.Parse(in.path)
	r.Src, r.nb = f.Src, &nbReport{nb, mod}
	r.Syntax = notebookSyntaxError(f, mod)
	r.Findings = mod.Findings(f, patterns.Run(f, s.selection, s.env))
	return r
}

// notebookSyntaxError describes the first syntax error by cell: of a
// cell that does not parse on its own (left out of the analysis), else of
// the module.
func notebookSyntaxError(f *rewrite.File, mod *notebook.Module) string {
	if len(mod.Broken) > 0 {
		b := mod.Broken[0]
		return fmt.Sprintf("syntax error at cell %d:%d:%d: %s", notebook.CellNumber(b.Cell), b.Line+1, b.Col+1, b.What)
	}
	if !f.HasSyntaxErrors() {
		return ""
	}
	cell, line, col := mod.Position(f.Errors[0].Start)
	what := "invalid syntax"
	if f.Errors[0].Missing {
		what = "missing " + f.Errors[0].Type
	}
	return fmt.Sprintf("syntax error at cell %d:%d:%d: %s", notebook.CellNumber(cell), line+1, col+1, what)
}

// fixNotebook is fixOne for a notebook: fixes are applied cell by cell and
// the notebook is written back with only the changed sources re-encoded.
func fixNotebook(in input, s *settings, dryRun bool) fixResult {
	res := fixResult{report: fileReport{Path: in.path}, input: in.bytes, output: in.bytes}
	nb, skip := readNotebook(in)
	if nb == nil {
		res.report.Skip = skip + " (not rewritten)"
		return res
	}
	mod := notebook.Build(nb.Cells)
	if !patterns.Relevant(mod.Src) {
		return res
	}
	f := mod.Parse(in.path)
	if f.HasSyntaxErrors() {
		res.report = checkNotebook(in, s)
		res.report.Note = "has a syntax error: not rewritten"
		return res
	}
	if dryRun && in.file != nil {
		// --diff shows what fix would write: not the files it refuses.
		if err := workspace.CheckWritable(in.file); err != nil {
			res.report = checkNotebook(in, s)
			res.report.Note, res.report.Err = err.Error(), writeError(err)
			return res
		}
	}
	var note string
	if len(mod.Broken) > 0 {
		note = fmt.Sprintf("cell %d has a syntax error: that cell is not rewritten", notebook.CellNumber(mod.Broken[0].Cell))
	}
	fr := notebook.Fix(in.path, nb.Cells, s.analyzer(), s.wants)
	out, err := nb.Render(fr.Cells)
	if err == nil {
		err = readsBack(in.path, out, fr.Cells)
	}
	if err != nil {
		res.report = checkNotebook(in, s)
		res.report.Note = "internal error: " + err.Error() + ": not rewritten (please report it with the notebook)"
		return res
	}
	res.output, res.applied, res.dropped = out, fr.Applied, fr.Dropped
	if string(out) != string(in.bytes) && !dryRun && in.file != nil {
		if err := workspace.WriteAtomic(in.file, out); err != nil {
			res.report.Note = err.Error()
			res.report.Err = writeError(err)
			res.output, res.applied = in.bytes, nil
		}
	}
	final := in
	final.bytes = res.output
	r := checkNotebook(final, s)
	r.Note, r.Err = res.report.Note, res.report.Err
	if r.Note == "" {
		r.Note = note
	}
	res.report = r
	return res
}

// readsBack checks that the rendered notebook parses and holds exactly the
// cells it was rendered from: a rewrite never leaves a notebook Jupyter
// cannot read.
func readsBack(path string, out []byte, cells []notebook.Cell) error {
	nb, err := notebook.Parse(path, out)
	if err != nil {
		return err
	}
	if len(nb.Cells) != len(cells) {
		return errors.New("the rewritten notebook has a different number of cells")
	}
	for i, c := range nb.Cells {
		if c.Source != cells[i].Source || c.Kind != cells[i].Kind {
			return fmt.Errorf("cell %d does not read back as written", notebook.CellNumber(i))
		}
	}
	return nil
}
