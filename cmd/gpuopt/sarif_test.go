package main

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// sarifOf runs gpuopt check --output-format sarif in dir and decodes it.
func sarifOf(t *testing.T, dir string, paths ...string) map[string]any {
	t.Helper()
	out, errOut, code := run(t, dir, "", append([]string{"check", "--output-format", "sarif"}, paths...)...)
	if code == 2 {
		t.Fatalf("exit 2: %s", errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return doc
}

// get walks a decoded JSON document: get(doc, "runs", 0, "tool").
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: no element %d", path, k)
			}
			v = a[k]
		}
	}
	return v
}

func nonEmpty(t *testing.T, v any, what string) string {
	t.Helper()
	s, ok := v.(string)
	if !ok || s == "" {
		t.Errorf("%s: want a non-empty string, got %v", what, v)
	}
	return s
}

func absoluteURL(t *testing.T, v any, what string) {
	t.Helper()
	u, err := url.Parse(nonEmpty(t, v, what))
	if err != nil || u.Scheme != "https" || u.Host == "" {
		t.Errorf("%s: %v is not an absolute https URL", what, v)
	}
}

// What GitHub code scanning needs from an uploaded SARIF file
// (docs.github.com, "SARIF support for code scanning"): version 2.1.0, the
// tool's name (and version, information URI), rules with an id, a short
// description and a help URI, results with a ruleId, a message and a
// physical location (a relative artifact URI and a region), and
// partialFingerprints so alerts follow code that moves.
func TestSARIFHasWhatGitHubNeeds(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "my dir", "train.py"), xgbSource)
	write(t, filepath.Join(dir, "broken.py"), "import torch\nx = (\n")
	doc := sarifOf(t, dir, "my dir", "broken.py")
	if get(t, doc, "version") != "2.1.0" || !strings.Contains(nonEmpty(t, get(t, doc, "$schema"), "$schema"), "sarif-2.1.0") {
		t.Errorf("version/$schema: %v %v", doc["version"], doc["$schema"])
	}
	runs := get(t, doc, "runs").([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	driver := get(t, runs[0], "tool", "driver")
	if get(t, driver, "name") != "gpuopt" {
		t.Errorf("driver name %v", get(t, driver, "name"))
	}
	nonEmpty(t, get(t, driver, "version"), "driver.version")
	absoluteURL(t, get(t, driver, "informationUri"), "driver.informationUri")
	if get(t, runs[0], "columnKind") != "unicodeCodePoints" {
		t.Errorf("columnKind %v", get(t, runs[0], "columnKind"))
	}
	rules := get(t, driver, "rules").([]any)
	ids := map[string]int{}
	for i, r := range rules {
		id := nonEmpty(t, get(t, r, "id"), "rule id")
		if _, dup := ids[id]; dup {
			t.Errorf("rule %s twice", id)
		}
		ids[id] = i
		nonEmpty(t, get(t, r, "shortDescription", "text"), id+" shortDescription")
		nonEmpty(t, get(t, r, "help", "text"), id+" help")
		absoluteURL(t, get(t, r, "helpUri"), id+" helpUri")
		if l := get(t, r, "defaultConfiguration", "level"); l != "note" && l != "warning" && l != "error" {
			t.Errorf("%s level %v", id, l)
		}
	}
	if _, ok := ids["XGB001"]; !ok || len(rules) < 40 {
		t.Errorf("%d rules; XGB001 missing?", len(rules))
	}
	results := get(t, runs[0], "results").([]any)
	fingerprints := map[string]bool{}
	byRule := map[string]any{}
	for _, r := range results {
		id := nonEmpty(t, get(t, r, "ruleId"), "ruleId")
		byRule[id] = r
		if i, ok := ids[id]; !ok || get(t, r, "ruleIndex") != float64(i) {
			t.Errorf("result %s: ruleIndex %v, rule at %d (%v)", id, get(t, r, "ruleIndex"), i, ok)
		}
		nonEmpty(t, get(t, r, "message", "text"), id+" message")
		if l := get(t, r, "level"); l != "note" && l != "warning" && l != "error" {
			t.Errorf("%s level %v", id, l)
		}
		loc := get(t, r, "locations", 0, "physicalLocation")
		uri := nonEmpty(t, get(t, loc, "artifactLocation", "uri"), id+" uri")
		if strings.HasPrefix(uri, "/") || strings.Contains(uri, " ") || strings.HasPrefix(uri, "./") {
			t.Errorf("%s: uri %q is not a relative URI reference", id, uri)
		}
		for _, k := range []string{"startLine", "startColumn", "endLine", "endColumn"} {
			if n, _ := get(t, loc, "region", k).(float64); n < 1 {
				t.Errorf("%s: region.%s = %v", id, k, get(t, loc, "region", k))
			}
		}
		fp := nonEmpty(t, get(t, r, "partialFingerprints", fingerprintKey), id+" fingerprint")
		if fingerprints[fp] {
			t.Errorf("fingerprint %s twice", fp)
		}
		fingerprints[fp] = true
	}
	xgb := byRule["XGB002"]
	if xgb == nil || byRule["E999"] == nil || byRule["XGB001"] == nil {
		t.Fatalf("want XGB001, XGB002 and E999 results: %v", byRule)
	}
	loc := get(t, xgb, "locations", 0, "physicalLocation")
	if get(t, loc, "artifactLocation", "uri") != "my%20dir/train.py" || get(t, loc, "region", "startLine") != 2.0 ||
		get(t, loc, "region", "startColumn") != 26.0 || get(t, loc, "region", "endColumn") != 36.0 {
		t.Errorf("XGB002 location %v", loc)
	}
	if get(t, byRule["E999"], "level") != "error" {
		t.Errorf("E999 level %v", get(t, byRule["E999"], "level"))
	}

	// Lines added above a finding keep its fingerprint; a copy of the same
	// line gets its own.
	write(t, filepath.Join(dir, "my dir", "train.py"), "# a comment\n\n"+xgbSource+"params = {\"tree_method\": \"gpu_hist\", \"max_depth\": 6}  # keep me\n")
	moved := sarifOf(t, dir, "my dir")
	var after []string
	for _, r := range get(t, moved, "runs", 0, "results").([]any) {
		if get(t, r, "ruleId") == "XGB002" {
			after = append(after, get(t, r, "partialFingerprints", fingerprintKey).(string))
		}
	}
	before := get(t, xgb, "partialFingerprints", fingerprintKey)
	if len(after) != 2 || after[0] != before || after[1] == before {
		t.Errorf("fingerprints before %v, after %v", before, after)
	}
}
