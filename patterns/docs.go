package patterns

import (
	"fmt"
	"strings"
)

// RuleMarkdown renders a rule's full documentation.
func RuleMarkdown(r *Rule) string {
	return fmt.Sprintf("# %s: %s (%s)\n\n%s%s\n\nFix: %s.\n", r.Code, r.Title, r.Name, optInNote(r), strings.TrimSpace(r.Doc), r.Fix)
}

// optInNote says how to turn on a rule that the default selection leaves
// out, ahead of its docs.
func optInNote(r *Rule) string {
	if !r.OptIn {
		return ""
	}
	return fmt.Sprintf("**Opt-in**: not in the default selection; run it with `--select ALL,%[1]s` (or `select = [\"ALL\", \"%[1]s\"]` in `[tool.gpuopt]`).\n\n", r.Code)
}

// tableTitle is a rule's title in the README's table, marked when the
// rule is opt-in.
func tableTitle(r *Rule) string {
	t := strings.ReplaceAll(r.Title, "|", "\\|")
	if r.OptIn {
		t += " (opt-in)"
	}
	return t
}

// RuleTable renders the Markdown table of all rules the README embeds.
func RuleTable() string {
	var sb strings.Builder
	sb.WriteString("| code | name | fix | what it does |\n|---|---|---|---|\n")
	for _, r := range All() {
		fmt.Fprintf(&sb, "| [%s](patterns/RULES.md#%s) | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code), r.Name, r.Fix, tableTitle(r))
	}
	return sb.String()
}

// RulesDocument renders every rule's documentation as one Markdown file
// (patterns/RULES.md).
func RulesDocument() string {
	var sb strings.Builder
	sb.WriteString("# gpuopt rules\n\nGenerated from the rule registry by `go generate ./patterns` (a test keeps it in sync).\n\n")
	for _, r := range All() {
		fmt.Fprintf(&sb, "<a id=\"%s\"></a>\n\n", strings.ToLower(r.Code))
		doc := RuleMarkdown(r)
		// Nest the rule's own headings one level down.
		doc = strings.ReplaceAll(doc, "\n## ", "\n### ")
		doc = strings.Replace(doc, "# ", "## ", 1)
		sb.WriteString(doc + "\n")
	}
	return sb.String()
}

// RulesURL is where the rule documentation (RULES.md) is published.
const RulesURL = "https://github.com/gpuopt/gpuopt/blob/main/patterns/RULES.md"

// DocURL links a rule code to its section of RULES.md; "" for codes that
// are not rules (E998, E999).
func DocURL(code string) string {
	if Lookup(code) == nil {
		return ""
	}
	return RulesURL + "#" + strings.ToLower(code)
}
