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
	findings := flatten(reports)
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	case "sarif":
		return writeSARIF(w, findings)
	case "github":
		for _, f := range findings {
			level := "warning"
			if f.Severity == "error" {
				level = "error"
			} else if f.Severity == "info" {
				level = "notice"
			}
			fmt.Fprintf(w, "::%s title=%s,file=%s,line=%d,col=%d,endLine=%d,endColumn=%d::%s\n",
				level, ghProperty("gpuopt ("+f.Code+")"), ghProperty(f.Path), f.Line, f.Column, f.EndLine, f.EndColumn, ghEscape(f.Code+" "+f.Message))
		}
		return nil
	default:
		fixable, unsafe := 0, 0
		for _, f := range findings {
			mark := ""
			if f.Fix != nil && f.Fix.Applicability == "safe" {
				mark = "[*] "
				fixable++
			} else if f.Fix != nil && f.Fix.Applicability == "unsafe" {
				unsafe++
			}
			fmt.Fprintf(w, "%s:%d:%d: %s %s%s\n", f.Path, f.Line, f.Column, f.Code, mark, f.Message)
		}
		if len(findings) == 0 {
			for _, r := range reports {
				if r.Err != nil {
					return nil // not a pass: the errors are on stderr
				}
			}
			fmt.Fprintln(w, "All checks passed!")
			return nil
		}
		fmt.Fprintf(w, "Found %d finding%s.\n", len(findings), plural(len(findings)))
		if fixable > 0 {
			fmt.Fprintf(w, "[*] %d fixable with `gpuopt fix`.\n", fixable)
		}
		if unsafe > 0 {
			fmt.Fprintf(w, "%d more fixable with `gpuopt fix --unsafe-fixes` (may change numerics; see `gpuopt rule CODE`).\n", unsafe)
		}
		return nil
	}
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

// writeSARIF emits SARIF 2.1.0 with the rule catalogue as the driver's rules.
func writeSARIF(w io.Writer, findings []jsonFinding) error {
	type msg struct {
		Text string `json:"text"`
	}
	type region struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	type artifact struct {
		URI string `json:"uri"`
	}
	type physical struct {
		ArtifactLocation artifact `json:"artifactLocation"`
		Region           region   `json:"region"`
	}
	type loc struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type result struct {
		RuleID    string `json:"ruleId"`
		Level     string `json:"level"`
		Message   msg    `json:"message"`
		Locations []loc  `json:"locations"`
	}
	type rule struct {
		ID               string `json:"id"`
		Name             string `json:"name"`
		ShortDescription msg    `json:"shortDescription"`
		FullDescription  msg    `json:"fullDescription"`
		HelpURI          string `json:"helpUri"`
	}
	var rules []rule
	for _, r := range patterns.All() {
		rules = append(rules, rule{ID: r.Code, Name: r.Name, ShortDescription: msg{r.Title}, FullDescription: msg{r.Doc}, HelpURI: patterns.DocURL(r.Code)})
	}
	results := []result{}
	for _, f := range findings {
		level := map[string]string{"error": "error", "warning": "warning", "info": "note"}[f.Severity]
		results = append(results, result{RuleID: f.Code, Level: level, Message: msg{f.Message},
			Locations: []loc{{physical{artifact{strings.TrimPrefix(f.Path, "./")}, region{f.Line, f.Column, f.EndLine, f.EndColumn}}}}})
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": "gpuopt", "informationUri": "https://github.com/gpuopt/gpuopt", "rules": rules}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
