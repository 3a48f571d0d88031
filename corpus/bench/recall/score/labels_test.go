package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLabels(t *testing.T) {
	src := `# comment
train.py:12 OPT001   # Adam over cuda params
train.py:20-22 LOAD001
model.py:7 !CACHE001 # built under if: a cache already
04-Convolutional Neural Network/convolution_network.py:12 MEM003
`
	ls, err := ParseLabels(strings.NewReader(src), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 4 {
		t.Fatalf("got %d labels, want 4", len(ls))
	}
	if l := ls[0]; l.Path != "train.py" || l.Start != 12 || l.End != 12 || l.Code != "OPT001" || l.Silent || l.Why != "Adam over cuda params" {
		t.Errorf("first label = %+v", l)
	}
	if l := ls[1]; l.Start != 20 || l.End != 22 {
		t.Errorf("range label = %+v", l)
	}
	if l := ls[2]; !l.Silent || l.Code != "CACHE001" || l.Source != "x.txt:4" {
		t.Errorf("silent label = %+v", l)
	}
	if l := ls[3]; l.Path != "04-Convolutional Neural Network/convolution_network.py" || l.Start != 12 || l.Code != "MEM003" {
		t.Errorf("label with spaces in its path = %+v", l)
	}
	for _, bad := range []string{"train.py OPT001", "train.py:x OPT001", "train.py:9-3 OPT001", "train.py:3 OPT", "train.py:3"} {
		if _, err := ParseLabels(strings.NewReader(bad), "bad.txt"); err == nil {
			t.Errorf("ParseLabels(%q) gave no error", bad)
		}
	}
}

func TestMatch(t *testing.T) {
	labels := []Label{
		{Path: "a.py", Start: 5, End: 5, Code: "XFER002"},
		{Path: "a.py", Start: 5, End: 5, Code: "XFER002"}, // two copies on one line
		{Path: "a.py", Start: 9, End: 11, Code: "LOAD001"},
		{Path: "a.py", Start: 30, End: 30, Code: "OPT001"}, // missed
		{Path: "a.py", Start: 40, End: 40, Code: "SYNC002", Silent: true},
		{Path: "a.py", Start: 50, End: 50, Code: "SYNC005", Silent: true},
	}
	findings := []Finding{
		{Path: "a.py", Line: 5, Code: "XFER002"},
		{Path: "a.py", Line: 5, Code: "XFER002"},
		{Path: "a.py", Line: 11, Code: "LOAD001"},
		{Path: "a.py", Line: 40, Code: "SYNC002"}, // false alarm
		{Path: "a.py", Line: 30, Code: "OPT004"},  // other code on a labelled line: unlabelled
		{Path: "b.py", Line: 5, Code: "XFER002"},  // other file: unlabelled
	}
	r := Match(labels, findings)
	if len(r.Hits) != 3 || len(r.Misses) != 1 || r.Misses[0].Code != "OPT001" {
		t.Errorf("hits %v misses %v", r.Hits, r.Misses)
	}
	if len(r.Alarms) != 1 || r.Alarms[0].Finding.Line != 40 {
		t.Errorf("alarms %v", r.Alarms)
	}
	if len(r.Quiet) != 1 || r.Quiet[0].Code != "SYNC005" {
		t.Errorf("quiet %v", r.Quiet)
	}
	if len(r.Unlabelled) != 2 {
		t.Errorf("unlabelled %v", r.Unlabelled)
	}
}

func TestMatchOneFindingPerLabel(t *testing.T) {
	// Two labels on one line and one finding: one hit, one miss.
	labels := []Label{
		{Path: "a.py", Start: 3, End: 3, Code: "XFER002"},
		{Path: "a.py", Start: 3, End: 3, Code: "XFER002"},
	}
	r := Match(labels, []Finding{{Path: "a.py", Line: 3, Code: "XFER002"}})
	if len(r.Hits) != 1 || len(r.Misses) != 1 {
		t.Errorf("hits %d misses %d, want 1 and 1", len(r.Hits), len(r.Misses))
	}
}

func TestMatchOverlappingRanges(t *testing.T) {
	// D is built on lines 46-64 and moved on 64, G on 55-65: the findings
	// at 64 and 65 satisfy both labels only when 64 goes to D, although
	// the narrower G range is matched first.
	labels := []Label{
		{Path: "gan.py", Start: 46, End: 64, Code: "OPT004"},
		{Path: "gan.py", Start: 55, End: 65, Code: "OPT004"},
	}
	findings := []Finding{{Path: "gan.py", Line: 64, Code: "OPT004"}, {Path: "gan.py", Line: 65, Code: "OPT004"}}
	if r := Match(labels, findings); len(r.Hits) != 2 || len(r.Misses) != 0 || len(r.Unlabelled) != 0 {
		t.Errorf("hits %v misses %v unlabelled %v, want both labels hit", r.Hits, r.Misses, r.Unlabelled)
	}
}

func TestParseManifest(t *testing.T) {
	src := "# repos\npytorch/examples 77f55b912142e11fcfdf5b530231fb9c52f181e8 mnist vae  # two folders\n\n"
	rs, err := ParseManifest(strings.NewReader(src))
	if err != nil || len(rs) != 1 {
		t.Fatalf("ParseManifest: %v %v", rs, err)
	}
	if r := rs[0]; r.Dir() != "pytorch+examples" || len(r.Scopes) != 2 || r.Scopes[1] != "vae" {
		t.Errorf("repo = %+v", r)
	}
	if _, err := ParseManifest(strings.NewReader("pytorch/examples abc mnist\n")); err == nil {
		t.Error("a short commit was accepted")
	}
}

func TestFamily(t *testing.T) {
	for code, want := range map[string]string{"XGB001": "XGB", "SYNC005": "SYNC", "CUDF002": "CUDF"} {
		if got := Family(code); got != want {
			t.Errorf("Family(%s) = %s, want %s", code, got, want)
		}
	}
}

func TestPointsAtCode(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("import torch\n\n# note\nx = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		l    Label
		want bool // a complaint
	}{
		{Label{Path: "a.py", Start: 1}, false},
		{Label{Path: "a.py", Start: 4}, false},
		{Label{Path: "a.py", Start: 2}, true},
		{Label{Path: "a.py", Start: 3}, true},
		{Label{Path: "a.py", Start: 9}, true},
		{Label{Path: "b.py", Start: 1}, true},
	} {
		if got := pointsAtCode(dir, c.l); (got != "") != c.want {
			t.Errorf("pointsAtCode(%s:%d) = %q", c.l.Path, c.l.Start, got)
		}
	}
}
