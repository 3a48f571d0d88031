package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
	"github.com/gpuopt/gpuopt/rewrite/notebook"
)

// location is a 1-based line and character column.
type location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

func locate(src *rewrite.Source, off int) location {
	l, c := src.Position(off)
	return location{l + 1, c + 1}
}

type jsonEdit struct {
	Cell        int      `json:"cell,omitempty"`     // notebooks: the cell's number
	NewCell     bool     `json:"new_cell,omitempty"` // notebooks: content is a code cell added before the first
	Content     string   `json:"content"`
	Location    location `json:"location"`
	EndLocation location `json:"end_location"`
}

type jsonFix struct {
	Applicability string     `json:"applicability"`
	Message       string     `json:"message"`
	Edits         []jsonEdit `json:"edits"`
}

type jsonFinding struct {
	Code      string   `json:"code"`
	Message   string   `json:"message"`
	Path      string   `json:"path"`
	Cell      int      `json:"cell,omitempty"` // notebooks: the cell's number, from 1; Line and Column are in the cell
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line"`
	EndColumn int      `json:"end_column"`
	Severity  string   `json:"severity"`
	URL       string   `json:"url"`
	Fix       *jsonFix `json:"fix"`
	// rawLine is, for a notebook, the line of the .ipynb file that holds
	// the finding's cell line (SARIF and GitHub annotations point there).
	rawLine int
}

func severityName(s rewrite.Severity) string {
	switch s {
	case rewrite.Error:
		return "error"
	case rewrite.Information:
		return "info"
	default:
		return "warning"
	}
}

// flatten turns reports into JSON findings; syntax errors become findings
// with code "E999" so that every format carries them.
func flatten(reports []fileReport) []jsonFinding {
	out := []jsonFinding{}
	for _, r := range reports {
		if r.Syntax != "" {
			jf := jsonFinding{Code: "E999", Message: r.Syntax + syntaxNote, Path: r.Path, Line: syntaxLine(r.Syntax), Column: 1, Severity: "error"}
			if r.nb != nil {
				jf.Message = r.Syntax + cellSyntaxNote
				fmt.Sscanf(r.Syntax, "syntax error at cell %d:%d:%d", &jf.Cell, &jf.Line, &jf.Column)
				jf.rawLine = r.nb.nb.RawLine(jf.Cell-1, jf.Line-1)
			}
			jf.EndLine, jf.EndColumn = jf.Line, jf.Column
			out = append(out, jf)
		}
		for _, fd := range r.Findings {
			cell, start := r.place(fd.Start)
			_, end := r.place(fd.End)
			jf := jsonFinding{Code: fd.Code, Message: fd.Message, Path: r.Path, Cell: cell, Line: start.Line, Column: start.Column,
				EndLine: end.Line, EndColumn: end.Column, Severity: severityName(fd.Severity), URL: patterns.DocURL(fd.Code)}
			if r.nb != nil {
				jf.rawLine = r.nb.nb.RawLine(cell-1, start.Line-1)
			}
			if fd.Fix != nil {
				fx := &jsonFix{Applicability: fd.Fix.Applicability.String(), Message: fd.Fix.Message, Edits: []jsonEdit{}}
				for _, e := range fd.Fix.Edits {
					ecell, from := r.place(e.Start)
					_, to := r.place(e.End)
					if e.NewCell {
						ecell, from, to = 0, location{1, 1}, location{1, 1}
					}
					fx.Edits = append(fx.Edits, jsonEdit{Cell: ecell, NewCell: e.NewCell, Content: e.New, Location: from, EndLocation: to})
				}
				jf.Fix = fx
			}
			out = append(out, jf)
		}
	}
	return out
}

// place returns the report's location of a byte offset: for a notebook the
// cell's number and the line and column in the cell (cell 0 otherwise).
func (r fileReport) place(off int) (int, location) {
	if r.nb == nil {
		return 0, locate(r.Src, off)
	}
	cell, line, col := r.nb.mod.Position(off)
	return notebook.CellNumber(cell), location{line + 1, col + 1}
}

// fileLines is the range of lines of the checked file a finding covers:
// its own lines, or in a notebook the line of the .ipynb file that holds
// its cell line, with the cell position in the message.
func fileLines(f jsonFinding) (line, col, endLine, endCol int, msg string) {
	if f.Cell > 0 {
		return f.rawLine, 1, f.rawLine, 1, fmt.Sprintf("cell %d:%d:%d: %s", f.Cell, f.Line, f.Column, f.Message)
	}
	return f.Line, f.Column, f.EndLine, f.EndColumn, f.Message
}

func syntaxLine(msg string) int {
	var line, col int
	fmt.Sscanf(msg, "syntax error at %d:%d", &line, &col)
	return max(line, 1)
}

func writeReports(w io.Writer, format string, reports []fileReport, s *settings) error {
	printProblems(reports)
	if s.text.statistics {
		return writeStatistics(w, format, shownFindings(reports), styleFor(w))
	}
	findings := flatten(reports)
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	case "sarif":
		return writeSARIF(w, reports)
	case "github":
		for _, f := range findings {
			level := "warning"
			if f.Severity == "error" {
				level = "error"
			} else if f.Severity == "info" {
				level = "notice"
			}
			line, col, endLine, endCol, msg := fileLines(f)
			fmt.Fprintf(w, "::%s title=%s,file=%s,line=%d,col=%d,endLine=%d,endColumn=%d::%s\n",
				level, ghProperty("gpuopt ("+f.Code+")"), ghProperty(f.Path), line, col, endLine, endCol, ghEscape(f.Code+" "+msg))
		}
		return nil
	case "full":
		items, st := shownFindings(reports), styleFor(w)
		writeFull(w, items, st, s.text.showFixes)
		if len(items) > 0 || !anyError(reports) { // no "All checks passed!" after an error
			writeSummary(w, items, st)
		}
		return nil
	default: // concise
		items, st := shownFindings(reports), styleFor(w)
		writeConcise(w, items, st)
		if len(items) > 0 || !anyError(reports) {
			writeSummary(w, items, st)
		}
		return nil
	}
}

// anyError reports whether a file could not be read or written: the run
// did not pass, whatever it found.
func anyError(reports []fileReport) bool {
	for _, r := range reports {
		if r.Err != nil {
			return true
		}
	}
	return false
}

// ghEscape escapes a workflow command's data (the message) as GitHub's
// runner unescapes it, so that nothing in it ends the command.
func ghEscape(s string) string { return ghData.Replace(s) }

// ghProperty escapes a workflow command property's value (a file name):
// as data, and ':' and ',' too, which end a property.
func ghProperty(s string) string { return ghProp.Replace(s) }

var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
