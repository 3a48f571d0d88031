// Package patterns is gpuopt's rule catalogue: every rule is a value with a
// code, its documentation and a check function that reports findings (with
// fixes) on a parsed file through a Pass. The registry lists the rules; Run
// applies the selected ones to a file, honours suppression comments, gates
// rules on the hardware and library-version profile, and returns findings.
package patterns

import (
	"embed"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpuopt/gpuopt/rewrite"
)

// Rule is one check of the catalogue (CATALOG.md).
type Rule struct {
	Code  string // stable code, e.g. "XGB001"; never reused
	Name  string // kebab-case name, e.g. "quantile-dmatrix"
	Title string // one line: what to do
	// Doc is Markdown with the sections What it does / Why is this bad /
	// Example / Use instead / Fix safety / Measured gain. Rule files leave
	// it empty: Register reads it from docs/<Code>.md, embedded below, so a
	// rule's documentation reads and diffs as Markdown.
	Doc string
	// Fix is the strongest applicability this rule's fixes have.
	Fix rewrite.Applicability
	// Severity is how editors show the rule's findings.
	Severity rewrite.Severity
	// Libraries the file must import (top-level package names) for the rule
	// to run at all; files importing none of them are skipped cheaply.
	Libraries []string
	// Names are identifier spellings of which the file must have at least
	// one (as a variable, attribute, keyword or parameter name) for the rule
	// to run: the names every finding of the rule needs, such as the last
	// part of the calls it looks for. Empty means the rule always runs.
	// TestNamesGateOnlySilentRules checks, on every corpus file, that a rule
	// skipped this way would have found nothing.
	Names []string
	// SkipTestModules keeps the rule out of test files (test_*.py,
	// *_test.py, conftest.py, modules importing pytest or unittest): for
	// rules whose rewrite would change what a test tests or every test
	// after it (a global switch, CPU tests moved to the GPU).
	SkipTestModules bool
	// OptIn keeps the rule out of the default selection: it runs only
	// where a select list names its full code (a family prefix or ALL
	// does not turn it on), for advice that blind reviews of unseen code
	// judged false too often to show every user. Its docs say why.
	OptIn bool
	// Check reports the rule's findings on pass.File.
	Check func(*Pass)

	// Set by Register, for Run's gates: Names hashed once, and the number
	// of the rule's Libraries list among the registry's distinct lists.
	names     rewrite.Spellings
	libraries int
}

// Family returns the code's letter prefix ("XGB" for "XGB001").
func (r *Rule) Family() string { return strings.TrimRight(r.Code, "0123456789") }

//go:embed docs/*.md
var docFiles embed.FS

// ruleDoc returns the embedded documentation of a rule code, "" if none.
func ruleDoc(code string) string {
	b, err := docFiles.ReadFile("docs/" + code + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}

var registry = map[string]*Rule{}

// libraryLists are the distinct Libraries lists of the registered rules.
var libraryLists [][]string

// sorted is the registry sorted by code, kept up to date by Register.
var sorted []*Rule

// Register adds rules to the catalogue; each rule file calls it from init.
func Register(rules ...*Rule) {
	for _, r := range rules {
		if _, dup := registry[r.Code]; dup {
			panic("patterns: duplicate rule code " + r.Code)
		}
		if r.Doc == "" {
			r.Doc = ruleDoc(r.Code)
		}
		if r.Check == nil || r.Doc == "" || r.Title == "" || r.Name == "" {
			panic("patterns: rule " + r.Code + " lacks a name, title, check or docs/" + r.Code + ".md")
		}
		registry[r.Code] = r
		r.names = rewrite.NewSpellings(r.Names)
		r.libraries = slices.IndexFunc(libraryLists, func(l []string) bool { return slices.Equal(l, r.Libraries) })
		if r.libraries < 0 {
			r.libraries = len(libraryLists)
			libraryLists = append(libraryLists, r.Libraries)
		}
	}
	sorted = make([]*Rule, 0, len(registry))
	for _, r := range registry {
		sorted = append(sorted, r)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Code < sorted[j].Code })
}

// All returns every registered rule, sorted by code.
func All() []*Rule {
	return append([]*Rule(nil), sorted...)
}

// allRules is All without the copy, for Run.
func allRules() []*Rule { return sorted }

// Lookup returns the rule with the given code (case-insensitive) or name.
func Lookup(code string) *Rule {
	if r, ok := registry[strings.ToUpper(code)]; ok {
		return r
	}
	for _, r := range registry {
		if r.Name == code {
			return r
		}
	}
	return nil
}

// Selection says which rules run: a code is selected when it matches the
// longest-matching prefix of Select and no longer-or-equal prefix of Ignore.
// Empty Select means all rules but the opt-in ones (Rule.OptIn), which
// run only where Select names their full code.
type Selection struct {
	Select []string
	Ignore []string
}

// Validate reports codes or prefixes that match no rule.
func (s Selection) Validate() error {
	for _, p := range append(append([]string(nil), s.Select...), s.Ignore...) {
		if strings.EqualFold(p, "ALL") {
			continue
		}
		found := false
		for code := range registry {
			if strings.HasPrefix(code, strings.ToUpper(p)) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("unknown rule code or prefix %q (see `gpuopt rules`)", p)
		}
	}
	return nil
}

// Enabled reports whether a rule code is selected.
func (s Selection) Enabled(code string) bool {
	optIn := false
	if r, ok := registry[code]; ok {
		optIn = r.OptIn
	}
	if optIn && !slices.ContainsFunc(s.Select, func(p string) bool { return strings.EqualFold(p, code) }) {
		return false
	}
	if len(s.Select) == 0 && len(s.Ignore) == 0 {
		return true // the default: every rule but the opt-in ones
	}
	sel := -1
	if len(s.Select) == 0 {
		sel = 0
	}
	for _, p := range s.Select {
		if matches(code, p) && len(p) > sel {
			sel = len(p)
		}
	}
	if sel < 0 {
		return false
	}
	for _, p := range s.Ignore {
		if matches(code, p) && len(p) >= sel {
			return false
		}
	}
	return true
}

func matches(code, prefix string) bool {
	return strings.EqualFold(prefix, "ALL") || strings.HasPrefix(code, strings.ToUpper(prefix))
}
