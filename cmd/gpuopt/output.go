package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
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
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line"`
	EndColumn int      `json:"end_column"`
	Severity  string   `json:"severity"`
	URL       string   `json:"url"`
	Fix       *jsonFix `json:"fix"`
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
			out = append(out, jsonFinding{Code: "E999", Message: r.Syntax + " (not analysed past it, never rewritten)", Path: r.Path, Line: syntaxLine(r.Syntax), Column: 1, EndLine: syntaxLine(r.Syntax), EndColumn: 1, Severity: "error"})
		}
		for _, fd := range r.Findings {
			start, end := locate(r.Src, fd.Start), locate(r.Src, fd.End)
			jf := jsonFinding{Code: fd.Code, Message: fd.Message, Path: r.Path, Line: start.Line, Column: start.Column,
				EndLine: end.Line, EndColumn: end.Column, Severity: severityName(fd.Severity), URL: patterns.DocURL(fd.Code)}
			if fd.Fix != nil {
				fx := &jsonFix{Applicability: fd.Fix.Applicability.String(), Message: fd.Fix.Message, Edits: []jsonEdit{}}
				for _, e := range fd.Fix.Edits {
					fx.Edits = append(fx.Edits, jsonEdit{Content: e.New, Location: locate(r.Src, e.Start), EndLocation: locate(r.Src, e.End)})
				}
				jf.Fix = fx
			}
			out = append(out, jf)
		}
	}
	return out
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
			fmt.Fprintf(w, "::%s title=gpuopt (%s),file=%s,line=%d,col=%d,endLine=%d,endColumn=%d::%s\n",
				level, f.Code, f.Path, f.Line, f.Column, f.EndLine, f.EndColumn, ghEscape(f.Code+" "+f.Message))
		}
		return nil
	case "full":
		items, st := shownFindings(reports), styleFor(w)
		writeFull(w, items, st, s.text.showFixes)
		writeSummary(w, items, st)
		return nil
	default: // concise
		items, st := shownFindings(reports), styleFor(w)
		writeConcise(w, items, st)
		writeSummary(w, items, st)
		return nil
	}
}

func ghEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
