// Command score measures gpuopt's recall on public repositories against
// labels written by reading their code before running gpuopt on it.
//
// It reads corpus/bench/recall/manifest.txt (one repository a line:
// `owner/name COMMIT SCOPE...`, the scopes being the folders or files of
// the repository that were labelled), and for each repository that has a
// label file labels/<owner>+<name>.txt it runs
//
//	gpuopt check --output-format json --target-gpu h100 --no-progress SCOPE...
//
// in WORK/<owner>+<name> (cloned at COMMIT by ../run.sh), matches the
// findings to the labels (see Match) and prints, per rule family and in
// total: the expected findings, those found, the recall, the silent places
// and the false alarms on them, then every miss, every false alarm and
// every finding no label mentions (to be read by hand).
//
//	go run ./corpus/bench/recall/score -work /tmp/recall -gpuopt /tmp/gpuopt
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Repo is one manifest entry.
type Repo struct {
	Name   string // owner/name
	Commit string
	Scopes []string
}

// Dir is the folder name of the repository's clone: owner+name.
func (r Repo) Dir() string { return strings.ReplaceAll(r.Name, "/", "+") }

// ParseManifest reads `owner/name COMMIT SCOPE...` lines ('#' starts a comment).
func ParseManifest(r io.Reader) ([]Repo, error) {
	var out []Repo
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 || !strings.Contains(f[0], "/") || len(f[1]) != 40 {
			return nil, fmt.Errorf("manifest:%d: want `owner/name COMMIT SCOPE...`", n)
		}
		out = append(out, Repo{Name: f[0], Commit: f[1], Scopes: f[2:]})
	}
	return out, sc.Err()
}

func main() {
	here := "corpus/bench/recall"
	manifest := flag.String("manifest", filepath.Join(here, "manifest.txt"), "the manifest")
	labelDir := flag.String("labels", filepath.Join(here, "labels"), "the folder of label files")
	work := flag.String("work", "", "the folder holding the clones (owner+name)")
	gpuopt := flag.String("gpuopt", "gpuopt", "the gpuopt binary")
	only := flag.String("repo", "", "score only this repository (owner/name)")
	keep := flag.String("findings", "", "also write each repository's raw JSON findings to this folder")
	flag.Parse()
	if *work == "" {
		fmt.Fprintln(os.Stderr, "score: -work is required")
		os.Exit(2)
	}
	if err := run(os.Stdout, *manifest, *labelDir, *work, *gpuopt, *only, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(2)
	}
}

type scored struct {
	repo Repo
	res  Result
}

func run(w io.Writer, manifest, labelDir, work, gpuopt, only, keep string) error {
	mf, err := os.Open(manifest)
	if err != nil {
		return err
	}
	repos, err := ParseManifest(mf)
	mf.Close()
	if err != nil {
		return err
	}
	var all []scored
	for _, r := range repos {
		if only != "" && r.Name != only {
			continue
		}
		lf, err := os.Open(filepath.Join(labelDir, r.Dir()+".txt"))
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "%s: no labels yet, skipped\n", r.Name)
			continue
		} else if err != nil {
			return err
		}
		labels, err := ParseLabels(lf, lf.Name())
		lf.Close()
		if err != nil {
			return err
		}
		raw, findings, err := check(gpuopt, filepath.Join(work, r.Dir()), r.Scopes)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		if keep != "" {
			if err := os.WriteFile(filepath.Join(keep, r.Dir()+".json"), raw, 0o644); err != nil {
				return err
			}
		}
		for _, l := range labels {
			if msg := pointsAtCode(filepath.Join(work, r.Dir()), l); msg != "" {
				fmt.Fprintf(w, "warning: %s: %s:%s %s %s\n", l.Source, l.Path, lines(l), l.Code, msg)
			}
		}
		all = append(all, scored{r, Match(labels, findings)})
	}
	report(w, all)
	return nil
}

// check runs gpuopt in dir on the scopes and decodes its JSON findings.
func check(gpuopt, dir string, scopes []string) ([]byte, []Finding, error) {
	args := append([]string{"check", "--output-format", "json", "--target-gpu", "h100", "--no-progress"}, scopes...)
	cmd := exec.Command(gpuopt, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: findings
		return nil, nil, fmt.Errorf("gpuopt: %v: %s", err, stderr.String())
	}
	var fs []Finding
	if err := json.Unmarshal(out, &fs); err != nil {
		return nil, nil, fmt.Errorf("gpuopt output: %w", err)
	}
	return out, fs, nil
}

type tally struct{ expected, found, silent, alarms, unlabelled int }

func report(w io.Writer, all []scored) {
	fams := map[string]*tally{}
	get := func(code string) *tally {
		f := Family(code)
		if fams[f] == nil {
			fams[f] = &tally{}
		}
		return fams[f]
	}
	var total tally
	width := len("repository")
	for _, s := range all {
		width = max(width, len(s.repo.Name))
	}
	header := func(first string) {
		fmt.Fprintf(w, "%-*s %8s %6s %7s %7s %7s %10s\n", width, first, "expected", "found", "recall", "silent", "alarms", "unlabelled")
	}
	header("repository")
	for _, s := range all {
		var t tally
		for _, l := range s.res.Hits {
			get(l.Code).expected++
			get(l.Code).found++
			t.expected++
			t.found++
		}
		for _, l := range s.res.Misses {
			get(l.Code).expected++
			t.expected++
		}
		for _, l := range s.res.Quiet {
			get(l.Code).silent++
			t.silent++
		}
		for _, a := range s.res.Alarms {
			get(a.Label.Code).silent++
			get(a.Label.Code).alarms++
			t.silent++
			t.alarms++
		}
		for _, f := range s.res.Unlabelled {
			get(f.Code).unlabelled++
			t.unlabelled++
		}
		row(w, width, s.repo.Name, t)
		total.expected += t.expected
		total.found += t.found
		total.silent += t.silent
		total.alarms += t.alarms
		total.unlabelled += t.unlabelled
	}
	fmt.Fprintln(w)
	header("family")
	names := make([]string, 0, len(fams))
	for f := range fams {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		row(w, width, f, *fams[f])
	}
	row(w, width, "TOTAL", total)

	section := func(title string, lines []string) {
		fmt.Fprintf(w, "\n%s (%d)\n", title, len(lines))
		for _, l := range lines {
			fmt.Fprintln(w, "  "+l)
		}
	}
	var misses, alarms, unlabelled []string
	for _, s := range all {
		for _, l := range s.res.Misses {
			misses = append(misses, fmt.Sprintf("%s %s:%s %s  # %s", s.repo.Name, l.Path, lines(l), l.Code, l.Why))
		}
		for _, a := range s.res.Alarms {
			alarms = append(alarms, fmt.Sprintf("%s %s:%d %s  # labelled silent: %s", s.repo.Name, a.Finding.Path, a.Finding.Line, a.Finding.Code, a.Label.Why))
		}
		for _, f := range s.res.Unlabelled {
			msg := f.Message
			if len(msg) > 110 {
				msg = msg[:110] + "..."
			}
			unlabelled = append(unlabelled, fmt.Sprintf("%s %s:%d %s  %s", s.repo.Name, f.Path, f.Line, f.Code, msg))
		}
	}
	section("misses", misses)
	section("false alarms on silent places", alarms)
	section("unlabelled findings (read by hand)", unlabelled)
}

// pointsAtCode reports why a label's first line is no place for a finding
// (no such file, past its end, blank or a comment), or "" when it is code.
func pointsAtCode(dir string, l Label) string {
	src, err := os.ReadFile(filepath.Join(dir, l.Path))
	if err != nil {
		return "names no file of the clone"
	}
	all := strings.Split(string(src), "\n")
	if l.Start > len(all) {
		return fmt.Sprintf("is past the end of the file (%d lines)", len(all))
	}
	if t := strings.TrimSpace(all[l.Start-1]); t == "" || strings.HasPrefix(t, "#") {
		return "starts on a blank or comment line"
	}
	return ""
}

func lines(l Label) string {
	if l.Start == l.End {
		return fmt.Sprint(l.Start)
	}
	return fmt.Sprintf("%d-%d", l.Start, l.End)
}

func row(w io.Writer, width int, name string, t tally) {
	recall := "-"
	if t.expected > 0 {
		recall = fmt.Sprintf("%.1f%%", 100*float64(t.found)/float64(t.expected))
	}
	fmt.Fprintf(w, "%-*s %8d %6d %7s %7d %7d %10d\n", width, name, t.expected, t.found, recall, t.silent, t.alarms, t.unlabelled)
}
