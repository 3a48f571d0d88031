package patterns

import (
	"os"
	"strings"
	"testing"
)

//go:generate go test -run TestRulesDocumentInSync -update-docs .

// TestEveryRuleIsDocumented checks each rule's doc has the sections users
// rely on.
func TestEveryRuleIsDocumented(t *testing.T) {
	for _, r := range All() {
		for _, section := range []string{"## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety", "## Measured gain"} {
			if !strings.Contains(r.Doc, section) {
				t.Errorf("%s: doc lacks %q", r.Code, section)
			}
		}
		if _, err := os.Stat("../corpus/" + r.Code); err != nil {
			t.Errorf("%s: no corpus folder corpus/%s", r.Code, r.Code)
		}
	}
}

// TestEveryDocFileIsARule checks that docs/ holds one Markdown file per
// registered rule and nothing else (a renamed or removed rule leaves no
// orphan page behind).
func TestEveryDocFileIsARule(t *testing.T) {
	entries, err := docFiles.ReadDir("docs")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range entries {
		code := strings.TrimSuffix(e.Name(), ".md")
		if Lookup(code) == nil || Lookup(code).Code != code {
			t.Errorf("docs/%s belongs to no registered rule", e.Name())
			continue
		}
		seen++
	}
	if seen != len(All()) {
		t.Errorf("docs/ has %d rule pages for %d rules", seen, len(All()))
	}
}

// TestRulesDocumentInSync keeps patterns/RULES.md and the README's rule
// table equal to what the registry generates. Run
// `go generate ./patterns` to refresh both.
func TestRulesDocumentInSync(t *testing.T) {
	want := RulesDocument()
	if updateDocs {
		if err := os.WriteFile("RULES.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("RULES.md")
	if err != nil || string(got) != want {
		t.Errorf("patterns/RULES.md is out of date: run `go generate ./patterns`")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- rules:begin -->\n", "<!-- rules:end -->"
	text := string(readme)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q ... %q markers", begin, end)
	}
	table := RuleTable()
	if updateDocs {
		text = text[:i+len(begin)] + table + text[j:]
		if err := os.WriteFile("../README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if text[i+len(begin):j] != table {
		t.Errorf("README.md's rule table is out of date: run `go generate ./patterns`")
	}
}
