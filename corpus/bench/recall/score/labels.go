package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Label is one line of a label file: a finding a GPU engineer expects at
// Path:Start-End (Silent false), or a place where Code must stay silent
// (Silent true).
type Label struct {
	Path       string
	Start, End int
	Code       string
	Silent     bool
	Why        string
	Source     string // file:line of the label itself, for messages
}

// Finding is the part of one gpuopt JSON finding the scorer reads.
type Finding struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
}

// Family is the rule family of a code: its leading letters (XGB001 -> XGB).
func Family(code string) string {
	return strings.TrimRightFunc(code, func(r rune) bool { return r >= '0' && r <= '9' })
}

// ParseLabels reads a label file. Blank lines and lines starting with '#'
// are skipped; every other line is
//
//	path:LINE CODE   # why
//	path:FIRST-LAST CODE   # why (a multi-line statement)
//	path:LINE !CODE  # why this must stay silent
//
// A path may contain spaces (the code is the last field).
func ParseLabels(r io.Reader, name string) ([]Label, error) {
	var out []Label
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		why := ""
		if i := strings.Index(line, "#"); i >= 0 {
			why = strings.TrimSpace(line[i+1:])
			line = strings.TrimSpace(line[:i])
		}
		// The code is the last field; the location is everything before it
		// (paths may contain spaces).
		cut := strings.LastIndexAny(line, " \t")
		if cut < 0 {
			return nil, fmt.Errorf("%s:%d: want `path:line CODE`, got %q", name, n, line)
		}
		loc, code := strings.TrimSpace(line[:cut]), line[cut+1:]
		colon := strings.LastIndex(loc, ":")
		if colon <= 0 {
			return nil, fmt.Errorf("%s:%d: no line number in %q", name, n, loc)
		}
		l := Label{Path: loc[:colon], Code: code, Why: why, Source: fmt.Sprintf("%s:%d", name, n)}
		if strings.HasPrefix(code, "!") {
			l.Silent, l.Code = true, code[1:]
		}
		if Family(l.Code) == "" || Family(l.Code) == l.Code {
			return nil, fmt.Errorf("%s:%d: %q is not a rule code", name, n, l.Code)
		}
		first, last, isRange := strings.Cut(loc[colon+1:], "-")
		var err error
		if l.Start, err = strconv.Atoi(first); err != nil {
			return nil, fmt.Errorf("%s:%d: bad line %q", name, n, first)
		}
		l.End = l.Start
		if isRange {
			if l.End, err = strconv.Atoi(last); err != nil || l.End < l.Start {
				return nil, fmt.Errorf("%s:%d: bad line range %q", name, n, loc[colon+1:])
			}
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

func (l Label) covers(f Finding) bool {
	return f.Path == l.Path && f.Code == l.Code && f.Line >= l.Start && f.Line <= l.End
}

// Result is the outcome of matching one repository's findings to its labels.
type Result struct {
	Hits       []Label   // expected and found
	Misses     []Label   // expected and not found
	Quiet      []Label   // silent places that stayed silent
	Alarms     []Alarm   // findings on a silent place
	Unlabelled []Finding // findings that no label mentions
}

// Alarm is a finding that fell on a place labelled silent.
type Alarm struct {
	Label   Label
	Finding Finding
}

// Match pairs findings with labels. Each expected label takes at most one
// finding and each finding satisfies at most one expected label (two
// `.to()` calls on one line are two labels and need two findings). A
// finding inside a silent label's range is a false alarm; a finding that
// satisfies no label and falls on no silent place is unlabelled.
func Match(labels []Label, findings []Finding) Result {
	var r Result
	used := make([]bool, len(findings))
	// Narrow labels first, so that a range label does not take the finding
	// a one-line label of the same code needs.
	order := make([]int, len(labels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		la, lb := labels[order[a]], labels[order[b]]
		return la.End-la.Start < lb.End-lb.Start
	})
	// A maximum matching (augmenting paths): greedy assignment can give a
	// finding in two overlapping ranges to the wrong one and leave the
	// other label unmatched although a finding fits it.
	owner := make([]int, len(findings)) // the label a finding satisfies, -1: none
	for j := range owner {
		owner[j] = -1
	}
	var augment func(i int, seen []bool) bool
	augment = func(i int, seen []bool) bool {
		for j, f := range findings {
			if seen[j] || !labels[i].covers(f) {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || augment(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	hit := make([]bool, len(labels))
	for _, i := range order {
		if !labels[i].Silent {
			augment(i, make([]bool, len(findings)))
		}
	}
	for j, i := range owner {
		if i >= 0 {
			used[j], hit[i] = true, true
		}
	}
	for i, l := range labels {
		switch {
		case l.Silent:
			alarmed := false
			for j, f := range findings {
				if !used[j] && l.covers(f) {
					used[j] = true
					alarmed = true
					r.Alarms = append(r.Alarms, Alarm{l, f})
				}
			}
			if !alarmed {
				r.Quiet = append(r.Quiet, l)
			}
		case hit[i]:
			r.Hits = append(r.Hits, l)
		default:
			r.Misses = append(r.Misses, l)
		}
	}
	for j, f := range findings {
		if !used[j] {
			r.Unlabelled = append(r.Unlabelled, f)
		}
	}
	return r
}
