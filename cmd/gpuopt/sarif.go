package main

// SARIF 2.1.0 output for GitHub code scanning (`--output-format sarif`,
// uploaded by github/codeql-action/upload-sarif): the rule catalogue as the
// driver's rules, one result per finding with a location and a fingerprint
// that survives lines moving above it.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuopt/gpuopt/patterns"
	"github.com/gpuopt/gpuopt/rewrite"
)

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	} `json:"physicalLocation"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	Name                 string    `json:"name"`
	ShortDescription     sarifText `json:"shortDescription"`
	FullDescription      sarifText `json:"fullDescription"`
	Help                 sarifText `json:"help"`
	HelpURI              string    `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties struct {
		Tags []string `json:"tags"`
	} `json:"properties"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver sarifDriver `json:"driver"`
		} `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	} `json:"runs"`
}

// fingerprintKey names gpuopt's fingerprint in partialFingerprints.
const fingerprintKey = "gpuoptFindingHash/v1"

func sarifLevel(s rewrite.Severity) string {
	switch s {
	case rewrite.Error:
		return "error"
	case rewrite.Information:
		return "note"
	}
	return "warning"
}

// writeSARIF emits SARIF 2.1.0. Rules that are not in the catalogue (E999
// syntax errors, E998 internal errors) are added as they occur.
func writeSARIF(w io.Writer, reports []fileReport) error {
	var log sarifLog
	log.Schema = "https://json.schemastore.org/sarif-2.1.0.json"
	log.Version = "2.1.0"
	log.Runs = make([]struct {
		Tool struct {
			Driver sarifDriver `json:"driver"`
		} `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	}, 1)
	run := &log.Runs[0]
	run.ColumnKind = "unicodeCodePoints" // columns count characters, as the other formats do
	driver := &run.Tool.Driver
	driver.Name = "gpuopt"
	driver.Version = currentVersion().Version
	driver.InformationURI = "https://github.com/gpuopt/gpuopt"
	index := map[string]int{}
	addRule := func(r sarifRule) {
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, r)
	}
	for _, r := range patterns.All() {
		sr := sarifRule{ID: r.Code, Name: r.Name, ShortDescription: sarifText{Text: r.Title},
			FullDescription: sarifText{Text: r.Title}, Help: sarifText{Text: r.Doc, Markdown: r.Doc}, HelpURI: patterns.DocURL(r.Code)}
		sr.DefaultConfiguration.Level = sarifLevel(r.Severity)
		sr.Properties.Tags = []string{"performance", "gpu", strings.ToLower(r.Family())}
		addRule(sr)
	}
	run.Results = []sarifResult{}
	seen := map[string]int{}
	for _, s := range sarifFindings(reports) {
		if _, ok := index[s.code]; !ok {
			sr := sarifRule{ID: s.code, Name: ruleName(s.code), ShortDescription: sarifText{Text: ruleName(s.code)},
				FullDescription: sarifText{Text: ruleName(s.code)}, Help: sarifText{Text: s.msg}, HelpURI: driver.InformationURI}
			sr.DefaultConfiguration.Level = "error"
			sr.Properties.Tags = []string{"gpuopt"}
			addRule(sr)
		}
		var loc sarifLocation
		uri := sarifURI(s.path)
		loc.PhysicalLocation.ArtifactLocation = sarifArtifact{URI: uri}
		if !strings.Contains(uri, ":") {
			loc.PhysicalLocation.ArtifactLocation.URIBaseID = "%SRCROOT%"
		}
		loc.PhysicalLocation.Region = s.region
		// The fingerprint hashes what the finding is about, not where it
		// is: code, file, the text of its line; repeats are numbered.
		key := s.code + "\x00" + uri + "\x00" + s.lineText
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strings.Repeat("+", seen[key]-1)))
		run.Results = append(run.Results, sarifResult{RuleID: s.code, RuleIndex: index[s.code], Level: s.level,
			Message: sarifText{Text: s.msg}, Locations: []sarifLocation{loc},
			PartialFingerprints: map[string]string{fingerprintKey: hex.EncodeToString(sum[:16])}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifFinding is a finding with what SARIF needs beyond shown.
type sarifFinding struct {
	shown
	level    string
	region   sarifRegion
	lineText string // the finding's first line, trimmed
}

func sarifFindings(reports []fileReport) []sarifFinding {
	var out []sarifFinding
	for _, s := range shownFindings(reports) {
		f := sarifFinding{shown: s, level: sarifLevel(s.severity)}
		f.region = sarifRegion{StartLine: s.line, StartColumn: s.col, EndLine: s.line, EndColumn: s.col}
		if s.src != nil {
			end := locate(s.src, s.end)
			f.region.EndLine, f.region.EndColumn = end.Line, end.Column
			f.lineText = strings.TrimSpace(s.src.LineText(s.line - 1))
		}
		if s.cell > 0 {
			// A notebook: point at the .ipynb line that holds the cell
			// line, and say where in the cell (the fingerprint leaves the
			// cell's number out: cells added above do not move alerts).
			f.region = sarifRegion{StartLine: s.rawLine, StartColumn: 1, EndLine: s.rawLine, EndColumn: 1}
			f.msg = fmt.Sprintf("cell %d:%d:%d: %s", s.cell, s.line, s.col, s.msg)
		}
		out = append(out, f)
	}
	return out
}

// uriPath percent-encodes a file path for a URI ("my dir/a.py" is "my%20dir/a.py").
func uriPath(p string) string {
	p = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
	if len(p) > 1 && p[1] == ':' { // a Windows drive
		p = "/" + p
	}
	return (&url.URL{Path: p}).EscapedPath()
}

// sarifURI is the path as a URI reference relative to the working
// directory (the repository root in CI), or a file:// URI outside it.
func sarifURI(p string) string {
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
				return uriPath(rel)
			}
		}
		return "file://" + uriPath(p)
	}
	return uriPath(p)
}
